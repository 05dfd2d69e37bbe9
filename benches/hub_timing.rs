//! Protocol timing against the built binary: `cargo bench --bench hub_timing`.
//!
//! - stop latency: `go analyze` on the International start for two seconds (a deep search),
//!   then `stop`; time until `done`, over 20 trials;
//! - move-time overrun: `level move-time=0.1`, 200 moves of International self-play; time
//!   from `go think` to `done`, as a GUI measures it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

fn main() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn damas");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel::<(Instant, String)>();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send((Instant::now(), l));
        }
    });
    let mut send = |l: &str| {
        writeln!(stdin, "{l}").expect("write");
        stdin.flush().expect("flush");
        Instant::now()
    };
    let wait_for = |prefix: &str| loop {
        let (t, l) = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("engine answers");
        if l.starts_with(prefix) {
            return (t, l);
        }
    };
    send("hub");
    wait_for("wait");
    send("set-param name=variant value=international");
    // Book moves come at once; the figures are about the search.
    send("set-param name=book value=false");
    send("init");
    wait_for("ready");

    let mut stops = Vec::new();
    for _ in 0..20 {
        send("pos start");
        send("level infinite");
        send("go analyze");
        std::thread::sleep(Duration::from_secs(2));
        let sent = send("stop");
        let (t, _) = wait_for("done");
        stops.push(t - sent);
    }
    report("stop->done", &stops);

    let mut times = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    while times.len() < 200 {
        if moves.len() >= 120 {
            moves.clear();
            send("new-game");
        }
        // Scan resets the level at each position: pos, then level, then go.
        send(&format!("pos start moves=\"{}\"", moves.join(" ")));
        send("level move-time=0.1");
        let sent = send("go think");
        let (t, l) = loop {
            let (t, l) = rx.recv_timeout(Duration::from_secs(30)).expect("answer");
            if l.starts_with("done") || l.starts_with("error") {
                break (t, l);
            }
        };
        if l.starts_with("error") {
            moves.clear();
            continue;
        }
        times.push(t - sent);
        let best = l
            .split_whitespace()
            .find_map(|w| w.strip_prefix("move="))
            .expect("done move=");
        moves.push(best.to_string());
    }
    report("move-time=0.1 go->done", &times);
    let over = times
        .iter()
        .filter(|t| **t > Duration::from_millis(120))
        .count();
    println!("moves over 0.120 s: {over} of {}", times.len());
    send("quit");
    let _ = child.wait();
}

fn report(what: &str, xs: &[Duration]) {
    let ms: Vec<f64> = xs.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    let max = ms.iter().cloned().fold(0.0, f64::max);
    let min = ms.iter().cloned().fold(f64::MAX, f64::min);
    println!(
        "{what}: n={} min={min:.2} ms mean={mean:.2} ms max={max:.2} ms",
        ms.len()
    );
}
