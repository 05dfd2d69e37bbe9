//! Scripted Hub sessions against the built binary, for every variant.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use damas::engine::{line, Start};
use damas::notation::move_text;
use damas::{with_rules, Variant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

const WAIT: Duration = Duration::from_secs(30);

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn damas");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        // Anything on stderr is a protocol violation: pass it on so a test sees it.
        std::thread::spawn(move || {
            for l in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx2.send(format!("STDERR {l}"));
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn recv(&self) -> String {
        let l = self
            .lines
            .recv_timeout(WAIT)
            .expect("a line from the engine");
        assert!(!l.starts_with("STDERR"), "{l}");
        l
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.recv();
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    fn quiet_for(&self, d: Duration) -> Option<String> {
        self.lines.recv_timeout(d).ok()
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("wait");
        assert!(status.success());
    }
}

fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

fn legal_after(variant: Variant, moves: &[String]) -> Vec<String> {
    with_rules!(variant, R => {
        let l = line::<R, String>(Start::Initial, moves, <R as damas::Rules>::DRAW).expect("line");
        l.position().legal_moves().iter().map(move_text::<R>).collect()
    })
}

fn handshake(e: &mut Engine) -> Vec<String> {
    e.send("hub");
    let lines = e.until("wait");
    assert!(lines[0].starts_with("id name=Damas"));
    lines
}

#[test]
fn handshake_lists_params_and_every_variant() {
    let mut e = Engine::start();
    let lines = handshake(&mut e);
    let variant = lines
        .iter()
        .find(|l| l.starts_with("param name=variant"))
        .expect("variant param");
    assert!(variant.contains("type=enum"));
    for name in Variant::NAMES {
        assert!(variant.contains(name), "{name} missing from {variant}");
    }
    for p in ["threads", "hash", "ponder", "multipv", "mandatory-capture"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("param name={p} "))),
            "{p}"
        );
    }
    e.send("init");
    assert_eq!(e.recv(), "ready");
    e.send("ping");
    assert_eq!(e.recv(), "pong");
    e.quit();
}

/// Each variant: a few moves played from the start through the protocol, each legal.
#[test]
fn every_variant_plays_legal_moves() {
    for &variant in Variant::ALL {
        let mut e = Engine::start();
        handshake(&mut e);
        e.send(&format!("set-param name=variant value={}", variant.name()));
        for (option, value) in variant.options() {
            e.send(&format!("set-param name={option} value={value}"));
        }
        e.send("init");
        assert_eq!(e.recv(), "ready");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..4 {
            let legal = legal_after(variant, &moves);
            if legal.is_empty() {
                break;
            }
            e.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
            e.send("level depth=3");
            e.send("go think");
            let lines = e.until("done");
            let done = lines.last().expect("done");
            let m = value(done, "move").expect("move=").to_string();
            assert!(legal.contains(&m), "{variant}: {m} not in {legal:?}");
            for info in &lines[..lines.len() - 1] {
                assert!(info.starts_with("info "), "{info}");
                for token in info.split_whitespace().skip(1) {
                    if !token.contains('=') {
                        // Only inside the quoted pv.
                        assert!(info.contains("pv=\""), "bare word in {info}");
                    }
                }
            }
            moves.push(m);
        }
        e.quit();
    }
}

#[test]
fn each_kind_of_level() {
    let mut e = Engine::start();
    handshake(&mut e);
    // About the search's limits: no book moves.
    e.send("set-param name=book value=false");
    for level in [
        "level depth=5",
        "level nodes=5000",
        "level move-time=0.05",
        "level time=2 inc=0.1",
        "level moves=20 time=1",
        "level time=0.5",
    ] {
        e.send("pos start");
        e.send(level);
        e.send("go think");
        let done = e.until("done");
        assert!(
            value(done.last().expect("done"), "move").is_some(),
            "{level}"
        );
    }
    // `level infinite` waits for stop.
    e.send("pos start");
    e.send("level infinite");
    e.send("go think");
    assert!(e
        .quiet_for(Duration::from_millis(300))
        .is_some_and(|l| l.starts_with("info")));
    e.send("stop");
    e.until("done");
    e.quit();
}

#[test]
fn ponder_then_ponder_hit() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("set-param name=book value=false");
    e.send("pos start moves=\"32-28\"");
    e.send("level move-time=0.2");
    e.send("go ponder");
    // Pondering ignores the clock: no done before the hit.
    let mut early = None;
    while let Some(l) = e.quiet_for(Duration::from_millis(400)) {
        if l.starts_with("done") {
            early = Some(l);
            break;
        }
    }
    assert!(early.is_none(), "done while pondering: {early:?}");
    e.send("ponder-hit");
    let done = e.until("done");
    assert!(value(done.last().expect("done"), "move").is_some());
    e.quit();
}

#[test]
fn analyze_ping_and_stop() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("set-param name=multipv value=2");
    e.send("pos start");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ping");
    let mut lines = e.until("pong");
    assert!(lines.iter().all(|l| l.starts_with("info") || l == "pong"));
    e.send("stop");
    lines.extend(e.until("done"));
    assert!(lines.iter().any(|l| l.contains("multipv=2")));
    e.quit();
}

#[test]
fn bad_lines_get_one_error_each_and_leave_the_state() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("set-param name=variant value=english");
    e.send("pos start moves=\"11-15\"");
    for bad in [
        "bogus",
        "pos pos=Wbbbb",
        "pos start moves=\"11-15 99-98\"",
        "pos start moves=\"11-19\"",
        "pos fen=\"W:W33:B1\"",
        "level depth=0",
        "level move-time=-1",
        "level",
        "set-param name=hash value=lots",
        "set-param name=variant value=chess",
        "set-param name=nonsense value=1",
        "go sideways",
        "pos pos=\"unterminated",
        "=x",
    ] {
        e.send(bad);
        let l = e.recv();
        assert!(l.starts_with("error message="), "{bad}: {l}");
    }
    // The position set before the bad lines still stands: Black played 11-15, White moves.
    e.send("level depth=2");
    e.send("go think");
    let done = e.until("done");
    let m = value(done.last().expect("done"), "move")
        .expect("move")
        .to_string();
    let legal = legal_after(Variant::English, &["11-15".to_string()]);
    assert!(legal.contains(&m), "{m}");
    // No position at all in a fresh session, and a position with no legal move.
    let mut f = Engine::start();
    f.send("go think");
    assert!(f.recv().starts_with("error message="));
    f.send("set-param name=variant value=english");
    f.send("pos fen=\"B:W1:B\"");
    f.send("go think");
    assert!(f.recv().starts_with("error message="));
    f.quit();
    e.quit();
}

#[test]
fn end_of_input_exits() {
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    drop(e.stdin);
    let status = e.child.wait().expect("wait");
    assert!(status.success());
}
