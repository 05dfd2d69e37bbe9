//! `damas gui`: a board in the browser, served on loopback by a small HTTP server over the
//! same engine façade the Hub front end uses. The page (`page/`) is compiled into the binary.
//!
//! The JSON API (every answer is JSON; every refusal is `{"error": "…"}` with a 4xx status
//! and leaves the game as it was):
//! - `GET /api/state`, `GET /api/variants`
//! - `POST /api/new` `{variant, fen?, options?, white?, black?, movetime?, book?}`
//! - `POST /api/move` `{move}`, `POST /api/engine-move`, `POST /api/undo`, `POST /api/redo`
//! - `GET /api/fen`, `POST /api/fen` `{fen}`, `GET /api/pdn`, `POST /api/pdn` `{pdn}`
//! - `POST /api/resign` `{side?}`, `POST /api/draw`, `GET|POST /api/settings` `{hash, threads}`
//! - `GET /api/analyse?multipv=N[&depth=D]`: Server-Sent Events (`egdb` when the endgame
//!   tables hold the position, `info` per search line, then `done`); `POST /api/stop` ends
//!   it, and so does the client going away (a comment line each second finds out). One
//!   search at a time: another gets 409.

mod table;

use std::io::{Read, Write};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};

use crate::app::args;
use crate::engine::{score_text, Engine, TextInfo};
use crate::search::limits::Limits;
use crate::search::Control;
use crate::Variant;
use table::{check_fen, read_pdn, Player, Recorded, Table};

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// How often an analysis stream with nothing to report checks that its page is still there.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// The largest request body read (a PDN upload included), in bytes.
pub const MAX_BODY: usize = 256 * 1024;

/// Arguments of `damas gui`.
#[derive(clap::Args, Debug)]
pub struct GuiArgs {
    /// The variant of the first game (the page can change it).
    #[arg(long, default_value = "english")]
    pub variant: String,
    /// Address to listen on. Anything but loopback is reachable from the network: Damas warns.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on; 0 picks a free one (the address printed says which).
    #[arg(long, default_value = "8642")]
    pub port: u16,
    /// Hash table size in MB.
    #[arg(long, default_value = "64", value_parser = args::hash_mb)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value = "1", value_parser = args::threads)]
    pub threads: usize,
    /// Open the page in the desktop's browser (`xdg-open`).
    #[arg(long)]
    pub open: bool,
    /// Probe the endgame tables in positions of up to this many pieces (0: off); analysis
    /// then shows the tables' result where they hold the position.
    #[arg(long, default_value = "0", value_parser = args::egdb_probe_pieces)]
    pub egdb_pieces: u32,
    /// The endgame tables' root directory (default: as `damas egdb`).
    #[arg(long)]
    pub egdb_path: Option<std::path::PathBuf>,
}

/// Set by SIGINT and SIGTERM: the server loop ends.
static STOP: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

fn catch_signals() {
    #[cfg(target_os = "linux")]
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

struct Shared {
    table: Mutex<Table>,
    /// The running search (at most one).
    search: Mutex<Option<Arc<Control>>>,
    engine: Mutex<Engine>,
    threads: std::sync::atomic::AtomicUsize,
    /// `Host` header values accepted (`host:port`).
    hosts: Vec<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Why `damas gui` could not start.
#[derive(Debug)]
pub struct GuiError(pub String);

impl std::fmt::Display for GuiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GuiError {}

pub fn run(a: GuiArgs) -> Result<(), GuiError> {
    let variant = Variant::from_name(&a.variant).map_err(|e| GuiError(e.to_string()))?;
    let ip: IpAddr = match a.host.as_str() {
        "localhost" => IpAddr::from([127, 0, 0, 1]),
        h => h
            .parse()
            .map_err(|_| GuiError(format!("bad --host '{h}': an IP address is expected")))?,
    };
    let server = Server::http((ip, a.port))
        .map_err(|e| GuiError(format!("cannot listen on {}:{}: {e}", a.host, a.port)))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|s| s.port())
        .ok_or_else(|| GuiError("the server has no IP address".into()))?;
    let shown = match ip {
        IpAddr::V6(_) => format!("[{ip}]"),
        IpAddr::V4(_) => ip.to_string(),
    };
    let mut hosts = vec![format!("{shown}:{port}")];
    if ip.is_loopback() || ip.is_unspecified() {
        hosts.extend([
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ]);
    }
    if !ip.is_loopback() {
        eprintln!(
            "damas: warning: --host {} is reachable from the network; anyone who can reach it can use the engine",
            a.host
        );
    }
    catch_signals();
    let url = format!("http://{shown}:{port}/");
    println!("gui: open {url}");
    let _ = std::io::stdout().flush();
    if a.open {
        if let Err(e) = std::process::Command::new("xdg-open").arg(&url).spawn() {
            eprintln!("damas: cannot open a browser ({e}); open {url} by hand");
        }
    }
    let mut engine = Engine::new(a.hash);
    engine.threads = a.threads;
    engine.egdb_pieces = a.egdb_pieces;
    engine.egdb_path = a.egdb_path.clone();
    let shared = Arc::new(Shared {
        table: Mutex::new(Table::new(variant)),
        search: Mutex::new(None),
        engine: Mutex::new(engine),
        threads: std::sync::atomic::AtomicUsize::new(a.threads),
        hosts,
    });
    while !STOP.load(Ordering::SeqCst) {
        match server.recv_timeout(Duration::from_millis(250)) {
            Ok(Some(request)) => {
                let s = Arc::clone(&shared);
                // Searches run on the request's thread: the engine's stack needs room.
                let spawned = std::thread::Builder::new()
                    .name("gui-request".into())
                    .stack_size(16 << 20)
                    .spawn(move || handle(&s, request));
                if let Err(e) = spawned {
                    eprintln!("damas: cannot serve a request: {e}");
                }
            }
            Ok(None) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(GuiError(format!("server error: {e}"))),
        }
    }
    if let Some(c) = lock(&shared.search).take() {
        c.stop();
    }
    // Whoever started us may have closed our stdout already.
    let _ = writeln!(std::io::stdout(), "gui: stopped");
    Ok(())
}

/// A refusal: status and message.
struct Refusal(u16, String);

impl Refusal {
    fn bad(msg: impl Into<String>) -> Self {
        Refusal(400, msg.into())
    }
}

type Answer = Result<Value, Refusal>;

fn header<'a>(r: &'a Request, name: &str) -> Option<&'a str> {
    r.headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

fn make_header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|_| Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).expect("valid"))
}

fn respond_text(request: Request, status: u16, content_type: &str, body: &str) {
    let response = Response::from_string(body)
        .with_status_code(status)
        .with_header(make_header("Content-Type", content_type))
        .with_header(make_header("Cache-Control", "no-store"))
        .with_header(make_header("X-Content-Type-Options", "nosniff"))
        .with_header(make_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:",
        ));
    let _ = request.respond(response);
}

fn respond_json(request: Request, answer: Answer) {
    let (status, body) = match answer {
        Ok(v) => (200, v),
        Err(Refusal(s, msg)) => (s, json!({ "error": msg })),
    };
    respond_text(request, status, "application/json", &body.to_string());
}

/// Whether the request comes from our own page: its `Host` is one of ours (a page of another
/// site reaching us through DNS rebinding names its own host) and its `Origin`, when sent,
/// is ours too.
fn allowed(shared: &Shared, request: &Request) -> Result<(), String> {
    let host = header(request, "Host").ok_or("no Host header")?;
    if !shared.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return Err(format!("Host '{}' is not this server", clip(host)));
    }
    if let Some(origin) = header(request, "Origin") {
        let ok = origin
            .strip_prefix("http://")
            .is_some_and(|o| shared.hosts.iter().any(|h| h.eq_ignore_ascii_case(o)));
        if !ok {
            return Err(format!("Origin '{}' is not this server", clip(origin)));
        }
    }
    Ok(())
}

fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

/// The request's body as a JSON object (an empty body is `{}`).
fn body(request: &mut Request) -> Result<Value, Refusal> {
    let too_big = || Refusal(413, format!("request body larger than {MAX_BODY} bytes"));
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::bad(format!("cannot read the request body: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_big());
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Ok(json!({}));
    }
    let v: Value = serde_json::from_slice(&bytes)
        .map_err(|e| Refusal::bad(format!("bad JSON in the request body: {e}")))?;
    if !v.is_object() {
        return Err(Refusal::bad("the request body must be a JSON object"));
    }
    Ok(v)
}

fn handle(shared: &Shared, mut request: Request) {
    if let Err(msg) = allowed(shared, &request) {
        return respond_json(request, Err(Refusal(403, msg)));
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let method = request.method().clone();
    let page = |r: Request, ct: &str, text: &str| respond_text(r, 200, ct, text);
    match (&method, path) {
        (Method::Get, "/") | (Method::Get, "/index.html") => {
            return page(request, "text/html; charset=utf-8", INDEX_HTML)
        }
        (Method::Get, "/app.js") => return page(request, "text/javascript; charset=utf-8", APP_JS),
        (Method::Get, "/style.css") => return page(request, "text/css; charset=utf-8", STYLE_CSS),
        (Method::Get, "/api/analyse") => return analyse(shared, request, query),
        _ => {}
    }
    let known = [
        ("/api/state", Method::Get),
        ("/api/variants", Method::Get),
        ("/api/new", Method::Post),
        ("/api/move", Method::Post),
        ("/api/engine-move", Method::Post),
        ("/api/undo", Method::Post),
        ("/api/redo", Method::Post),
        ("/api/fen", Method::Get),
        ("/api/fen", Method::Post),
        ("/api/pdn", Method::Get),
        ("/api/pdn", Method::Post),
        ("/api/resign", Method::Post),
        ("/api/draw", Method::Post),
        ("/api/stop", Method::Post),
        ("/api/settings", Method::Get),
        ("/api/settings", Method::Post),
    ];
    if !known.iter().any(|(p, m)| *p == path && *m == method) {
        let answer = if known.iter().any(|(p, _)| *p == path) || path == "/api/analyse" {
            Refusal(405, format!("{method} is not allowed on {path}"))
        } else {
            Refusal(404, format!("no such page: {}", clip(path)))
        };
        return respond_json(request, Err(answer));
    }
    let input = if method == Method::Post {
        match body(&mut request) {
            Ok(v) => v,
            Err(r) => return respond_json(request, Err(r)),
        }
    } else {
        json!({})
    };
    let answer = match path {
        "/api/state" => state(shared),
        "/api/variants" => Ok(variants()),
        "/api/new" => new_game(shared, &input),
        "/api/move" => play(shared, &input),
        "/api/engine-move" => engine_move(shared),
        "/api/undo" => undo(shared, &input),
        "/api/redo" => redo(shared, &input),
        "/api/fen" if method == Method::Get => {
            let t = lock(&shared.table);
            t.fen().map(|f| json!({ "fen": f })).map_err(Refusal::bad)
        }
        "/api/fen" => set_fen(shared, &input),
        "/api/pdn" if method == Method::Get => {
            let t = lock(&shared.table);
            t.pdn().map(|p| json!({ "pdn": p })).map_err(Refusal::bad)
        }
        "/api/pdn" => load_pdn(shared, &input),
        "/api/resign" => resign(shared, &input),
        "/api/draw" => agree_draw(shared),
        "/api/settings" if method == Method::Get => Ok(settings_json(shared)),
        "/api/settings" => settings(shared, &input),
        "/api/stop" => {
            let stopped = lock(&shared.search).as_ref().map(|c| c.stop()).is_some();
            Ok(json!({ "stopped": stopped }))
        }
        _ => Err(Refusal(404, format!("no such page: {}", clip(path)))),
    };
    respond_json(request, answer);
}

fn variants() -> Value {
    let list: Vec<Value> = Variant::ALL
        .iter()
        .map(|v| {
            let options: Vec<Value> = v
                .options()
                .into_iter()
                .map(|(name, default)| json!({"name": name, "default": default}))
                .collect();
            json!({"name": v.name(), "summary": v.summary(), "options": options})
        })
        .collect();
    json!({ "variants": list })
}

fn view(t: &Table, searching: bool) -> Answer {
    let mut v = t.json().map_err(Refusal::bad)?;
    v["searching"] = json!(searching);
    Ok(v)
}

fn state(shared: &Shared) -> Answer {
    let searching = lock(&shared.search).is_some();
    view(&lock(&shared.table), searching)
}

/// Stop a running search: the position is about to change.
fn interrupt(shared: &Shared) {
    if let Some(c) = lock(&shared.search).as_ref() {
        c.stop();
    }
}

/// Change the game: `change` works on a copy, which replaces the game only when it is
/// accepted and still describes a valid game.
fn change(shared: &Shared, f: impl FnOnce(&mut Table) -> Result<(), Refusal>) -> Answer {
    let mut t = lock(&shared.table);
    let mut next = t.clone();
    f(&mut next)?;
    next.json().map_err(Refusal::bad)?;
    next.generation = t.generation + 1;
    interrupt(shared);
    *t = next;
    view(&t, false)
}

fn text_field<'a>(input: &'a Value, name: &str) -> Result<Option<&'a str>, Refusal> {
    match input.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Refusal::bad(format!("'{name}' must be a string"))),
    }
}

fn new_game(shared: &Shared, input: &Value) -> Answer {
    let current = lock(&shared.table).variant;
    let mut variant = match text_field(input, "variant")? {
        Some(name) => Variant::from_name(name).map_err(|e| Refusal::bad(e.to_string()))?,
        None => current.base(),
    };
    if let Some(options) = input.get("options") {
        let map = options
            .as_object()
            .ok_or_else(|| Refusal::bad("'options' must be an object of true/false values"))?;
        for (name, value) in map {
            let value = value.as_bool().ok_or_else(|| {
                Refusal::bad(format!("option '{}' must be true or false", clip(name)))
            })?;
            variant = variant
                .with_option(name, if value { "true" } else { "false" })
                .map_err(|e| Refusal::bad(e.to_string()))?;
        }
    }
    let fen = match text_field(input, "fen")? {
        Some(f) if !f.trim().is_empty() && f.trim() != "start" => {
            Some(check_fen(variant, f).map_err(Refusal::bad)?)
        }
        _ => None,
    };
    let mut players = lock(&shared.table).players;
    for (i, side) in ["white", "black"].iter().enumerate() {
        if let Some(p) = text_field(input, side)? {
            players[i] = Player::parse(p)
                .ok_or_else(|| Refusal::bad(format!("'{side}' must be \"human\" or \"engine\"")))?;
        }
    }
    let move_time = match input.get("movetime") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let s = v
                .as_f64()
                .filter(|s| (0.01..=3600.0).contains(s))
                .ok_or_else(|| Refusal::bad("'movetime' must be seconds from 0.01 to 3600"))?;
            Some(s)
        }
    };
    let book = match input.get("book") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_bool()
                .ok_or_else(|| Refusal::bad("'book' must be true or false"))?,
        ),
    };
    change(shared, |t| {
        t.variant = variant;
        t.start = fen;
        t.moves.clear();
        t.redo.clear();
        t.recorded = None;
        t.players = players;
        if let Some(s) = move_time {
            t.move_time = s;
        }
        if let Some(b) = book {
            t.book = b;
        }
        Ok(())
    })
}

fn play(shared: &Shared, input: &Value) -> Answer {
    let text = text_field(input, "move")?.ok_or_else(|| Refusal::bad("'move' is missing"))?;
    change(shared, |t| {
        let m = t.resolve(text).map_err(Refusal::bad)?;
        t.moves.push(m);
        t.redo.clear();
        Ok(())
    })
}

/// `{"to": N}`: the number of moves to keep (default: one fewer).
fn undo(shared: &Shared, input: &Value) -> Answer {
    let to = ply_field(input)?;
    change(shared, |t| {
        if t.recorded.take().is_some() && to.is_none() {
            return Ok(());
        }
        let keep = match to {
            Some(n) if n <= t.moves.len() => n,
            Some(n) => {
                return Err(Refusal::bad(format!(
                    "cannot go back to move {n}: the game has {} moves",
                    t.moves.len()
                )))
            }
            None if t.moves.is_empty() => {
                return Err(Refusal::bad("nothing to undo: no move has been played"))
            }
            None => t.moves.len() - 1,
        };
        while t.moves.len() > keep {
            if let Some(m) = t.moves.pop() {
                t.redo.push(m);
            }
        }
        Ok(())
    })
}

/// `{"to": N}`: replay taken-back moves until the game has N (default: one more).
fn redo(shared: &Shared, input: &Value) -> Answer {
    let to = ply_field(input)?;
    change(shared, |t| {
        let want = match to {
            Some(n) if n >= t.moves.len() && n <= t.moves.len() + t.redo.len() => n,
            Some(n) => {
                return Err(Refusal::bad(format!(
                    "cannot go forward to move {n}: {} moves can be replayed",
                    t.redo.len()
                )))
            }
            None if t.redo.is_empty() => return Err(Refusal::bad("nothing to redo")),
            None => t.moves.len() + 1,
        };
        while t.moves.len() < want {
            if let Some(m) = t.redo.pop() {
                t.moves.push(m);
            }
        }
        Ok(())
    })
}

fn ply_field(input: &Value) -> Result<Option<usize>, Refusal> {
    match input.get("to") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(|n| Some(n as usize))
            .ok_or_else(|| Refusal::bad("'to' must be a whole number of moves")),
    }
}

fn set_fen(shared: &Shared, input: &Value) -> Answer {
    let fen = text_field(input, "fen")?.ok_or_else(|| Refusal::bad("'fen' is missing"))?;
    change(shared, |t| {
        t.start = Some(check_fen(t.variant, fen).map_err(Refusal::bad)?);
        t.moves.clear();
        t.redo.clear();
        t.recorded = None;
        Ok(())
    })
}

fn load_pdn(shared: &Shared, input: &Value) -> Answer {
    let text = text_field(input, "pdn")?.ok_or_else(|| Refusal::bad("'pdn' is missing"))?;
    change(shared, |t| {
        let (variant, start, moves) = read_pdn(text, t.variant).map_err(Refusal::bad)?;
        t.variant = variant;
        t.start = start;
        t.moves = moves;
        t.redo.clear();
        t.recorded = None;
        Ok(())
    })
}

fn resign(shared: &Shared, input: &Value) -> Answer {
    let side = text_field(input, "side")?;
    change(shared, |t| {
        if t.over().map_err(Refusal::bad)? {
            return Err(Refusal(409, "the game is already over".into()));
        }
        let loser = match side {
            None => t.side().map_err(Refusal::bad)?,
            Some("white") => crate::Color::White,
            Some("black") => crate::Color::Black,
            Some(_) => return Err(Refusal::bad("'side' must be \"white\" or \"black\"")),
        };
        let result = match loser {
            crate::Color::White => "0-2",
            crate::Color::Black => "2-0",
        };
        t.recorded = Some(Recorded {
            result,
            reason: format!("{} resigned", loser.name()),
        });
        Ok(())
    })
}

fn agree_draw(shared: &Shared) -> Answer {
    change(shared, |t| {
        if t.over().map_err(Refusal::bad)? {
            return Err(Refusal(409, "the game is already over".into()));
        }
        t.recorded = Some(Recorded {
            result: "1-1",
            reason: "draw by agreement".into(),
        });
        Ok(())
    })
}

fn settings_json(shared: &Shared) -> Value {
    let hash = lock(&shared.engine).hash_mb();
    json!({"hash": hash, "threads": shared.threads.load(Ordering::Relaxed)})
}

/// `{"hash": MB, "threads": N}`, within the engine's shared limits; refused while a search
/// runs (the table cannot be replaced under it).
fn settings(shared: &Shared, input: &Value) -> Answer {
    use crate::engine::limits::{Whole, HASH_MB, THREADS};
    let number = |name: &str, range: Whole| -> Result<Option<usize>, Refusal> {
        match input.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .filter(|n| (range.min..=range.max).contains(n))
                .map(|n| Some(n as usize))
                .ok_or_else(|| {
                    Refusal::bad(format!(
                        "'{name}' must be a whole number from {} to {}",
                        range.min, range.max
                    ))
                }),
        }
    };
    let hash = number("hash", HASH_MB)?;
    let threads = number("threads", THREADS)?;
    if lock(&shared.search).is_some() {
        return Err(Refusal(409, "a search is running: stop it first".into()));
    }
    if let Some(mb) = hash {
        lock(&shared.engine)
            .set_hash(mb)
            .map_err(|e| Refusal(400, e.to_string()))?;
    }
    if let Some(t) = threads {
        shared.threads.store(t, Ordering::Relaxed);
    }
    Ok(settings_json(shared))
}

/// The search slot: taken for one search, given back when dropped.
struct Slot<'a> {
    shared: &'a Shared,
    control: Arc<Control>,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut s = lock(&self.shared.search);
        if s.as_ref().is_some_and(|c| Arc::ptr_eq(c, &self.control)) {
            *s = None;
        }
    }
}

/// Take the search slot for the shown game, unless a search runs or the game is over.
fn take_slot(shared: &Shared) -> Result<(Slot<'_>, Table), Refusal> {
    let t = lock(&shared.table).clone();
    if t.over().map_err(Refusal::bad)? {
        return Err(Refusal(
            409,
            "the game is over: there is nothing to search".into(),
        ));
    }
    let mut s = lock(&shared.search);
    if s.is_some() {
        return Err(Refusal(
            409,
            "a search is already running: stop it first (POST /api/stop)".into(),
        ));
    }
    let control = Arc::new(Control::new(false));
    *s = Some(Arc::clone(&control));
    Ok((Slot { shared, control }, t))
}

fn engine_move(shared: &Shared) -> Answer {
    let (slot, t) = take_slot(shared)?;
    let done = {
        let mut e = lock(&shared.engine);
        e.book = t.book;
        e.multipv = 1;
        e.threads = shared.threads.load(Ordering::Relaxed);
        e.think(
            t.variant,
            t.start(),
            &t.moves,
            Limits::move_time(Duration::from_secs_f64(t.move_time)),
            &slot.control,
            &mut |_| {},
        )
    }
    .map_err(|e| Refusal(409, e.to_string()))?;
    drop(slot);
    let mut table = lock(&shared.table);
    if table.generation != t.generation {
        return Err(Refusal(
            409,
            "the position changed while the engine thought; its move was dropped".into(),
        ));
    }
    let m = table.resolve(&done.best).map_err(Refusal::bad)?;
    table.moves.push(m.clone());
    table.redo.clear();
    table.generation += 1;
    let mut v = view(&table, false)?;
    v["engine"] = json!({
        "move": m,
        "score": score_text(done.score),
        "depth": done.depth,
        "nodes": done.nodes,
        "pv": done.pv,
    });
    Ok(v)
}

fn info_json(i: &TextInfo) -> Value {
    json!({
        "depth": i.depth,
        "seldepth": i.seldepth,
        "multipv": i.multipv,
        "score": score_text(i.score),
        "nodes": i.nodes,
        "nps": i.nps(),
        "time": i.time.as_secs_f64(),
        "pv": i.pv,
    })
}

fn query_number(
    query: &str,
    name: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Result<Option<u32>, Refusal> {
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if k == name {
            return v
                .parse::<u32>()
                .ok()
                .filter(|n| range.contains(n))
                .map(Some)
                .ok_or_else(|| {
                    Refusal::bad(format!(
                        "'{name}' must be a whole number from {} to {}",
                        range.start(),
                        range.end()
                    ))
                });
        }
    }
    Ok(None)
}

/// Analysis of the shown position as Server-Sent Events: an `info` event per line the
/// search reports, then one `done` event; it runs until `POST /api/stop`, the game changes,
/// the client goes away or the `depth` asked for is reached.
fn analyse(shared: &Shared, request: Request, query: &str) {
    let parsed = query_number(query, "multipv", 1..=16)
        .and_then(|m| Ok((m, query_number(query, "depth", 1..=120)?)));
    let (multipv, depth) = match parsed {
        Ok(p) => p,
        Err(r) => return respond_json(request, Err(r)),
    };
    let (slot, t) = match take_slot(shared) {
        Ok(s) => s,
        Err(r) => return respond_json(request, Err(r)),
    };
    let out: Arc<Mutex<Box<dyn Write + Send>>> = Arc::new(Mutex::new(request.into_writer()));
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n";
    let write = |text: &str| {
        let mut o = lock(&out);
        o.write_all(text.as_bytes()).and_then(|_| o.flush())
    };
    let send = |event: &str, data: &Value| write(&format!("event: {event}\ndata: {data}\n\n"));
    if write(head).is_err() {
        return;
    }
    let mut limits = match depth {
        Some(d) => Limits::depth(d),
        None => Limits::default(),
    };
    limits.infinite = depth.is_none();
    let control = Arc::clone(&slot.control);
    let mut e = lock(&shared.engine);
    let table = e.table_result(t.variant, t.start(), &t.moves);
    if let Some(r) = table {
        if send("egdb", &json!({ "result": r })).is_err() {
            return;
        }
    }
    let result = std::thread::scope(|scope| {
        // The search writes only when it has a line to report; between lines a comment each
        // second tells whether the page is still there, and stops the search when it is not.
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let beat = Arc::clone(&control);
        scope.spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = done_rx.recv_timeout(HEARTBEAT) {
                if write(":\n\n").is_err() {
                    beat.stop();
                    return;
                }
            }
        });
        e.book = false;
        e.multipv = multipv.unwrap_or(1) as usize;
        e.threads = shared.threads.load(Ordering::Relaxed);
        let result = e.think(t.variant, t.start(), &t.moves, limits, &control, &mut |i| {
            if send("info", &info_json(i)).is_err() {
                control.stop();
            }
        });
        drop(done_tx);
        result
    });
    drop(e);
    drop(slot);
    let data = match result {
        Ok(d) => json!({
            "best": d.best,
            "score": score_text(d.score),
            "depth": d.depth,
            "nodes": d.nodes,
            "pv": d.pv,
            "egdb": table,
            "generation": t.generation,
        }),
        Err(e) => json!({ "error": e.to_string() }),
    };
    let _ = send("done", &data);
}
