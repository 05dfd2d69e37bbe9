//! Scripted Hub sessions against the built binary, for every variant.

use std::time::Duration;

use damas::core::notation::move_text;
use damas::engine::{line, Start};
use damas::{with_rules, Variant};

use crate::support::hub_process::{value, HubProcess};

fn legal_after(variant: Variant, moves: &[String]) -> Vec<String> {
    with_rules!(variant, R => {
        let l = line::<R, String>(Start::Initial, moves, <R as damas::Rules>::DRAW).expect("line");
        l.position().legal_moves().iter().map(move_text::<R>).collect()
    })
}

fn handshake(e: &mut HubProcess) -> Vec<String> {
    e.send("hub");
    let lines = e.until("wait");
    assert!(lines[0].starts_with("id name=Damas"));
    lines
}

#[test]
fn handshake_lists_params_and_every_variant() {
    let mut e = HubProcess::start();
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
        let mut e = HubProcess::start();
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
    let mut e = HubProcess::start();
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
    let mut e = HubProcess::start();
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
    let mut e = HubProcess::start();
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
    let mut e = HubProcess::start();
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
    let mut f = HubProcess::start();
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
    let mut e = HubProcess::start();
    e.send("hub");
    e.until("wait");
    drop(e.stdin);
    let status = e.child.wait().expect("wait");
    assert!(status.success());
}
