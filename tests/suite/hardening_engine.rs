//! Issue 12, items 1–8, against the built binary: hash sizes the machine cannot give,
//! memory, threads beyond the cores, an endless line, multi-PV output, the terminal hint.
//! Memory and threads are read from `/proc/<pid>/status`, so most of these run on Linux.
//! (Hub sessions in process for items 4–8 are in `src/app/hub/hardening_tests.rs`.)
//! The `damas hub` child process and the command runner are the suite's (`crate::support`).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use damas::engine::{Engine, Start};
use damas::search::limits::Limits;
use damas::search::Control;
use damas::Variant;

use crate::support::hub_process::{value, HubProcess};
use crate::support::run::damas;

fn handshake(e: &mut HubProcess) -> Vec<String> {
    e.send("hub");
    e.until("wait")
}

/// A field of `/proc/<pid>/status` (`VmRSS`, `VmHWM` in kB, `Threads`).
#[cfg(target_os = "linux")]
fn status(pid: u32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{field} in {text}"))
}

/// Peak resident memory of the process so far, in MB.
#[cfg(target_os = "linux")]
fn peak_mb(e: &HubProcess) -> u64 {
    status(e.child.id(), "VmHWM") / 1024
}

/// `damas hub` with its address space limited to `mb` MB (`ulimit -v`), so that a table
/// bigger than that cannot be allocated on any machine.
#[cfg(unix)]
fn hub_with_address_space(mb: u64) -> HubProcess {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" hub", mb * 1024))
        .arg(env!("CARGO_BIN_EXE_damas"));
    HubProcess::spawn(command)
}

/// Item 1: a hash size that cannot be allocated is answered with an error; the session
/// goes on with its previous table (and says so in the `hash` param), and plays.
#[cfg(unix)]
#[test]
fn a_hash_the_machine_cannot_give_is_an_error_not_an_abort() {
    let mut e = hub_with_address_space(1024);
    handshake(&mut e);
    e.send("set-param name=variant value=english");
    e.send("set-param name=book value=false");
    e.send("set-param name=hash value=4096");
    assert_eq!(
        e.recv(),
        "error message=\"cannot allocate 4096 MB for the hash table; keeping 64 MB\""
    );
    e.send("init");
    assert_eq!(e.recv(), "ready");
    let lines = handshake(&mut e);
    let hash = lines
        .iter()
        .find(|l| l.starts_with("param name=hash "))
        .expect("hash param");
    assert_eq!(value(hash, "value"), Some("64"), "{hash}");
    // The advertised maximum is a table the machine has the memory for.
    let max: usize = value(hash, "max")
        .and_then(|m| m.parse().ok())
        .expect("max=");
    assert!(max.is_power_of_two(), "{hash}");
    #[cfg(target_os = "linux")]
    {
        let meminfo = std::fs::read_to_string("/proc/meminfo").expect("meminfo");
        let total_kb: usize = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("MemTotal");
        assert!(
            max * 1024 <= total_kb,
            "{hash} with {total_kb} kB of memory"
        );
    }
    e.send("pos start");
    e.send("level depth=6");
    e.send("go think");
    let done = e.until("done");
    let m = value(done.last().expect("done"), "move").expect("move=");
    assert!(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"].contains(&m),
        "{done:?}"
    );
    // A size that fits is taken.
    e.send("set-param name=hash value=32");
    e.send("ping");
    assert_eq!(e.recv(), "pong");
    e.quit();
}

/// Item 1 on the command line: one line naming the size, exit code 2.
#[cfg(unix)]
#[test]
fn analyse_with_a_hash_the_machine_cannot_give_exits_2() {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {} && exec \"$0\" analyse --variant english --depth 2 --hash 4096",
            1024 * 1024
        ))
        .arg(env!("CARGO_BIN_EXE_damas"))
        .output()
        .expect("run damas");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "damas: cannot allocate 4096 MB for the hash table\n",
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty());
}

/// Item 2: an idle hub does not hold its table, nor does `init`, `new-game` or a resize
/// make it resident: memory is taken as a search fills the table, and a resized table
/// replaces the old one instead of joining it.
#[cfg(target_os = "linux")]
#[test]
fn the_table_takes_memory_only_as_the_search_fills_it() {
    let mut e = HubProcess::start();
    handshake(&mut e);
    e.send("set-param name=variant value=english");
    e.send("set-param name=book value=false");
    e.send("init");
    assert_eq!(e.recv(), "ready");
    e.send("new-game");
    e.send("set-param name=hash value=1024");
    e.send("init");
    assert_eq!(e.recv(), "ready");
    e.send("new-game");
    e.send("ping");
    assert_eq!(e.recv(), "pong");
    // The 64 MB and then 1024 MB tables are allocated but untouched.
    let idle = peak_mb(&e);
    assert!(idle < 32, "idle hub peaked at {idle} MB");
    // A search writes into a small table: at most its size more.
    e.send("set-param name=hash value=16");
    e.send("pos start");
    e.send("level nodes=3000000");
    e.send("go think");
    e.until("done");
    e.send("new-game");
    e.send("set-param name=hash value=8");
    e.send("pos start");
    e.send("level nodes=3000000");
    e.send("go think");
    e.until("done");
    let after = peak_mb(&e);
    assert!(after <= 16 + 32, "peak {after} MB with a 16 MB table");
    e.quit();
}

/// Item 3: more threads than cores are accepted, but no more search threads run than the
/// machine has cores: the rest would only wait, and make the stop wait for them.
#[cfg(target_os = "linux")]
#[test]
fn more_threads_than_cores_run_one_search_thread_per_core() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let mut e = HubProcess::start();
    handshake(&mut e);
    e.send("set-param name=variant value=english");
    e.send("set-param name=threads value=256");
    e.send("pos start");
    e.send("go analyze");
    // Searching: wait for a few iterations (leapfrogging threads may skip a depth's line).
    while value(&e.recv(), "depth")
        .and_then(|d| d.parse::<u32>().ok())
        .is_none_or(|d| d < 6)
    {}
    let threads = status(e.child.id(), "Threads");
    e.send("stop");
    e.until("done");
    // Besides the search threads: main, the stdin reader and the search's own thread.
    assert!(
        threads <= cores + 3,
        "{threads} threads for {cores} cores searching"
    );
    // Searches at threads=256 still answer, and with legal moves.
    e.send("set-param name=book value=false");
    for _ in 0..3 {
        e.send("pos start");
        e.send("level move-time=0.1");
        e.send("go think");
        let done = e.until("done");
        assert!(value(done.last().expect("done"), "move").is_some());
    }
    e.quit();
}

/// Item 6: a 300 MB line without a newline is thrown away as it is read: one error with
/// its length, then the session answers as before, and memory never held the line.
#[cfg(target_os = "linux")]
#[test]
fn a_300_mb_line_is_not_kept() {
    let mut e = HubProcess::start();
    handshake(&mut e);
    let length = 300usize << 20;
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..length >> 20 {
        e.stdin.write_all(&chunk).expect("write");
    }
    e.send("");
    e.send("ping");
    assert_eq!(
        e.recv(),
        format!("error message=\"line too long ({length} bytes)\"")
    );
    assert_eq!(e.recv(), "pong");
    let peak = peak_mb(&e);
    assert!(peak < 64, "peak {peak} MB for a 300 MB line");
    e.quit();
}

/// Item 7: `damas analyse --multipv 3` names the line on every `info` line, the best too.
#[test]
fn analyse_multipv_names_every_line() {
    let (code, out, err) = damas(&[
        "analyse",
        "--variant",
        "english",
        "--depth",
        "4",
        "--multipv",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let infos: Vec<&str> = out.lines().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 12, "{out}");
    for (i, l) in infos.iter().enumerate() {
        let expected = (i % 3 + 1).to_string();
        assert_eq!(value(l, "multipv"), Some(expected.as_str()), "{l}");
    }
}

/// Item 8: on a pipe (a client) the engine prints nothing of its own; at a terminal (a
/// pseudo-terminal made by `script`, where that program is installed) one line says what
/// this is and how to get help.
#[cfg(unix)]
#[test]
fn the_hint_is_shown_at_a_terminal_and_never_on_a_pipe() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn damas");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"help\nquit\n")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("go think") && !help.contains("error"),
        "{help}"
    );

    let script = Command::new("script")
        .args([
            "-qec",
            &format!("{} hub", env!("CARGO_BIN_EXE_damas")),
            "/dev/null",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = script else {
        eprintln!("no `script` here: the terminal half is skipped");
        return;
    };
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(b"quit\n").expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("type 'help' for its commands"),
        "no hint at a terminal: {text:?}"
    );
}

/// Nodes of a fixed-depth search from the start, the book off.
fn nodes(engine: &Engine, variant: Variant, depth: u32) -> u64 {
    let done = engine.think(
        variant,
        Start::Initial,
        &[] as &[&str],
        Limits::depth(depth),
        &Control::new(false),
        &mut |_| {},
    );
    done.expect("a legal move").nodes
}

/// Czech and Russian start from the same pieces: a search in one must not read the
/// other's table entries, so a Russian search after a Czech one visits exactly the nodes
/// it visits in a fresh engine.
#[test]
fn the_table_is_not_shared_between_rule_sets() {
    let mut fresh = Engine::new(16);
    fresh.book = false;
    let alone = nodes(&fresh, Variant::Russian, 9);
    let mut reused = Engine::new(16);
    reused.book = false;
    nodes(&reused, Variant::Czech, 9);
    assert_eq!(nodes(&reused, Variant::Russian, 9), alone);
    // An option is a rule set of its own too.
    let free = nodes(&fresh, Variant::EnglishFreeCapture, 9);
    let mut other = Engine::new(16);
    other.book = false;
    nodes(&other, Variant::English, 9);
    assert_eq!(nodes(&other, Variant::EnglishFreeCapture, 9), free);
}
