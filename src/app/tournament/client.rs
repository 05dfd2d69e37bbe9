//! The client side of the Hub protocol for one engine process: a reader thread turns its
//! output into lines on a channel, so every wait has a deadline and nothing blocks forever.
//! The process is killed when the client is dropped.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::app::hub::message::{self, quote};

/// Longest wait for the handshake (`wait`) and for `ready`.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a process may take to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(300);

/// What an engine did wrong; the game in progress is lost by it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Fault {
    /// The process could not be started.
    Spawn(String),
    /// The process exited (or closed its output).
    Crash,
    /// No answer within the limit.
    Hang(Duration),
    /// A line that is not a protocol message the client expects.
    Garbage(String),
    /// An `error` line in answer to a position or a search.
    EngineError(String),
    /// A move that is not legal in the position.
    IllegalMove(String),
    /// The clock ran out.
    TimeForfeit,
}

impl Fault {
    /// The kind of fault, one or two words: the start of the PDN `Termination` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Spawn(_) => "start failure",
            Fault::Crash => "crash",
            Fault::Hang(_) => "hang",
            Fault::Garbage(_) => "garbage output",
            Fault::EngineError(_) => "engine error",
            Fault::IllegalMove(_) => "illegal move",
            Fault::TimeForfeit => "time forfeit",
        }
    }
}

impl Fault {
    /// Every kind [`Fault::kind`] gives.
    pub const KINDS: [&'static str; 7] = [
        "start failure",
        "crash",
        "hang",
        "garbage output",
        "engine error",
        "illegal move",
        "time forfeit",
    ];

    /// The kind called `name`, as [`Fault::kind`] writes it.
    pub fn kind_named(name: &str) -> Option<&'static str> {
        Fault::KINDS.into_iter().find(|k| *k == name)
    }

    /// What happened, without the kind.
    pub fn detail(&self) -> String {
        match self {
            Fault::Spawn(e) => e.clone(),
            Fault::Crash => "the process exited".into(),
            Fault::Hang(t) => format!("no answer in {:.1} s", t.as_secs_f64()),
            Fault::Garbage(l) => format!("'{}'", clip(l)),
            Fault::EngineError(m) => format!("'{}'", clip(m)),
            Fault::IllegalMove(m) => clip(m),
            Fault::TimeForfeit => "the clock ran out".into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.kind(), self.detail())
    }
}

fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t.replace('"', "'")
}

/// A running engine, handshake done.
pub struct HubClient {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The params the engine announced, by name.
    params: Vec<String>,
    /// Values of its `variant` param, when it lists them.
    variants: Vec<String>,
}

/// A search's answer: the move, the time it took, and the last score it reported (in
/// men, from the mover's side), if any.
#[derive(Clone, PartialEq, Debug)]
pub struct Answer {
    pub best: String,
    pub elapsed: Duration,
    pub score: Option<f64>,
}

impl HubClient {
    /// Start `command` and do the handshake (`hub` … `wait`).
    pub fn start(command: &[String]) -> Result<HubClient, Fault> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| Fault::Spawn("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Spawn(format!("{program}: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (tx, rx) = mpsc::channel();
        if let Some(out) = stdout {
            let spawned = std::thread::Builder::new()
                .name("engine-reader".into())
                .spawn(move || {
                    let mut reader = BufReader::new(out);
                    let mut buf = Vec::new();
                    loop {
                        buf.clear();
                        match reader.read_until(b'\n', &mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(_) => {
                                let line = String::from_utf8_lossy(&buf);
                                let line = line.trim_end_matches(['\n', '\r']).to_string();
                                if tx.send(line).is_err() {
                                    break;
                                }
                            }
                        }
                    }
                });
            if let Err(e) = spawned {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Fault::Spawn(format!("reader thread: {e}")));
            }
        }
        let mut client = HubClient {
            child,
            stdin,
            lines: rx,
            params: Vec::new(),
            variants: Vec::new(),
        };
        client.send("hub")?;
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            let msg = client.next_message(deadline, STARTUP_TIMEOUT)?;
            match msg.command.as_str() {
                "wait" => break,
                "param" => {
                    if let Some(name) = msg.get("name") {
                        if name == "variant" {
                            client.variants = msg
                                .get("values")
                                .unwrap_or("")
                                .split_whitespace()
                                .map(str::to_string)
                                .collect();
                        }
                        client.params.push(name.to_string());
                    }
                }
                "id" | "info" | "error" => {}
                _ => return Err(Fault::Garbage(format!("{} …", msg.command))),
            }
        }
        Ok(client)
    }

    /// Whether the engine announced a `variant` param.
    pub fn has_variant_param(&self) -> bool {
        self.params.iter().any(|p| p == "variant")
    }

    /// The variants the engine listed.
    pub fn variants(&self) -> &[String] {
        &self.variants
    }

    /// Send `set-param` lines, then `init`, and wait for `ready`; returns the `error`
    /// messages the engine answered with (warnings: the param is not applied).
    pub fn configure(&mut self, params: &[(String, String)]) -> Result<Vec<String>, Fault> {
        for (name, value) in params {
            self.send(&format!(
                "set-param name={} value={}",
                quote(name),
                quote(value)
            ))?;
        }
        self.send("init")?;
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let mut errors = Vec::new();
        loop {
            let msg = self.next_message(deadline, STARTUP_TIMEOUT)?;
            match msg.command.as_str() {
                "ready" => return Ok(errors),
                "error" => errors.push(msg.get("message").unwrap_or("").to_string()),
                "info" | "id" | "param" | "wait" | "pong" => {}
                other => return Err(Fault::Garbage(other.to_string())),
            }
        }
    }

    /// Send a line (a closed pipe means the engine is gone).
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        let stdin = self.stdin.as_mut().ok_or(Fault::Crash)?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| Fault::Crash)
    }

    /// The next protocol message, or the fault that stands in its place.
    fn next_message(
        &mut self,
        deadline: Instant,
        limit: Duration,
    ) -> Result<message::Message, Fault> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Hang(limit)),
                Err(RecvTimeoutError::Disconnected) => return Err(Fault::Crash),
            };
            match message::parse(line.as_bytes()) {
                Ok(m) => return Ok(m),
                Err(message::MessageError::Empty) => continue,
                Err(_) => return Err(Fault::Garbage(line)),
            }
        }
    }

    /// Search a position: `pos`, `level`, `go think`, then wait up to `limit` for `done`.
    pub fn think(&mut self, position: &str, level: &str, limit: Duration) -> Result<Answer, Fault> {
        self.send(position)?;
        self.send(level)?;
        let started = Instant::now();
        self.send("go think")?;
        let deadline = started + limit;
        let mut score = None;
        loop {
            let msg = self.next_message(deadline, limit)?;
            match msg.command.as_str() {
                "done" => {
                    let best = msg
                        .args
                        .first()
                        .filter(|(n, _)| n == "move")
                        .and_then(|(_, v)| v.clone())
                        .ok_or_else(|| Fault::Garbage("done without move=".into()))?;
                    return Ok(Answer {
                        best,
                        elapsed: started.elapsed(),
                        score,
                    });
                }
                "info" => {
                    if let Some(s) = msg.get("score").and_then(|v| v.parse::<f64>().ok()) {
                        score = s.is_finite().then_some(s);
                    }
                }
                // Protocol lines out of place, but harmless.
                "pong" | "id" | "param" | "wait" | "ready" => {}
                "error" => {
                    return Err(Fault::EngineError(
                        msg.get("message").unwrap_or("").to_string(),
                    ))
                }
                other => return Err(Fault::Garbage(other.to_string())),
            }
        }
    }
}

impl Drop for HubClient {
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + QUIT_WAIT;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
