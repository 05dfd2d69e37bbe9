//! The DamExchange Protocol (DXP): how International draughts programs play each other over
//! TCP. Beside the Hub front end, over the same engine façade.
//!
//! - [`message`]: the seven message types and their fixed-width encoding;
//! - [`link`]: NUL-framed messages over a TCP stream, with deadlines;
//! - [`board`]: DXP positions and moves as Damas ones;
//! - [`follower`]: `damas dxp`, the engine answering an initiator's game requests.
//!
//! The initiator's side, which asks for games and keeps the score, is `damas match` with a
//! `dxp=` engine (`crate::app::tournament::dxp`).

pub mod board;
pub mod follower;
pub mod link;
pub mod message;

use std::fmt;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::app::args;
use crate::core::variant::Variant;
use crate::engine::Engine;
use crate::with_rules;
use follower::FollowerSettings;
use link::{Link, DEFAULT_PORT};

/// Arguments of `damas dxp`.
#[derive(clap::Args, Debug)]
pub struct DxpArgs {
    /// Wait for initiators on this address (the default, on 127.0.0.1:27531). Another
    /// host than loopback is reachable from the network: Damas warns.
    #[arg(long, num_args = 0..=1, default_missing_value = "127.0.0.1:27531", conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to an initiator listening at this address and play its games.
    #[arg(long)]
    pub connect: Option<String>,
    /// The rule set played (DXP describes 50-square boards).
    #[arg(long, default_value = "international")]
    pub variant: String,
    /// Append every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Hash table size in MB.
    #[arg(long, default_value = "64", value_parser = args::hash_mb)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value = "1", value_parser = args::threads)]
    pub threads: usize,
    /// Play without the opening book.
    #[arg(long)]
    pub no_book: bool,
    /// Seconds of silence from the peer after which its connection is closed.
    #[arg(long, default_value = "600", value_parser = args::seconds)]
    pub idle_timeout: Duration,
}

/// Why `damas dxp` could not run.
#[derive(Debug)]
pub enum DxpCliError {
    Address(String),
    Variant(String),
    Io(String),
}

impl fmt::Display for DxpCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DxpCliError::Address(e) | DxpCliError::Variant(e) | DxpCliError::Io(e) => {
                write!(f, "{e}")
            }
        }
    }
}

impl std::error::Error for DxpCliError {}

/// `host:port`, `host` (port 27531) or `:port` as one socket address.
pub fn parse_address(text: &str) -> Result<SocketAddr, DxpCliError> {
    let t = text.trim();
    let with_port = if t.starts_with(':') {
        format!("127.0.0.1{t}")
    } else if t.parse::<SocketAddr>().is_ok()
        || t.rsplit_once(':')
            .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok())
    {
        t.to_string()
    } else {
        format!("{t}:{DEFAULT_PORT}")
    };
    with_port
        .to_socket_addrs()
        .map_err(|e| DxpCliError::Address(format!("bad address '{text}': {e}")))?
        .next()
        .ok_or_else(|| DxpCliError::Address(format!("bad address '{text}': no address")))
}

fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "dxp: {line}");
    let _ = out.flush();
}

/// Run `damas dxp`.
pub fn run(a: DxpArgs) -> Result<(), DxpCliError> {
    let variant =
        Variant::from_name(&a.variant).map_err(|e| DxpCliError::Variant(e.to_string()))?;
    if !with_rules!(variant, R => board::fits::<R>()) {
        return Err(DxpCliError::Variant(format!(
            "{} is not played on DXP's 50-square board",
            variant.name()
        )));
    }
    let mut engine = Engine::new(a.hash);
    engine
        .set_hash(a.hash)
        .map_err(|e| DxpCliError::Io(e.to_string()))?;
    engine.threads = a.threads;
    engine.book = !a.no_book;
    let settings = FollowerSettings {
        variant,
        name: format!("Damas {}", env!("CARGO_PKG_VERSION")),
        pdn: a.pdn,
        idle_timeout: a.idle_timeout,
    };
    if let Some(text) = &a.connect {
        let addr = parse_address(text)?;
        let link = Link::connect(&addr, Duration::from_secs(10))
            .map_err(|e| DxpCliError::Io(format!("cannot connect to {addr}: {e}")))?;
        say(&format!("connected to {addr}"));
        let mut log = say;
        let mut link = link;
        let end = follower::session(&mut link, &engine, &settings, &mut log);
        say(&format!("session ended: {end:?}"));
        link.close();
        return Ok(());
    }
    let addr = parse_address(a.listen.as_deref().unwrap_or("127.0.0.1:27531"))?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {addr}: any host that reaches it can start games (DXP has no authentication)"
        );
    }
    let listener = TcpListener::bind(addr)
        .map_err(|e| DxpCliError::Io(format!("cannot listen on {addr}: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| DxpCliError::Io(e.to_string()))?;
    say(&format!("listening on {bound}"));
    follower::listen(listener, Arc::new(engine), settings, Arc::new(say));
    Ok(())
}
