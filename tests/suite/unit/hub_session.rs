//! Hub sessions for the hardening issue (#12, items 1–8), in process: a session whose
//! output goes to a channel, lines sent one at a time as the reader thread would.

use damas::engine::Engine;

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

use damas::app::hub::message::{read_line, Line, MAX_LINE};
use damas::app::hub::*;

/// The deadline for an answer (the one the process tests use): far longer than any search
/// these sessions ask for.
const WAIT: Duration = Duration::from_secs(30);

/// Output that sends each complete line to a channel.
struct Lines {
    partial: Vec<u8>,
    tx: Sender<String>,
}

impl Write for Lines {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(b);
        while let Some(i) = self.partial.iter().position(|&c| c == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line[..i]).into_owned();
            let _ = self.tx.send(text);
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Client {
    session: Session,
    rx: Receiver<String>,
}

impl Client {
    fn new() -> Client {
        let (tx, rx) = channel();
        let out = Output::new(
            Box::new(Lines {
                partial: Vec::new(),
                tx,
            }),
            None,
        );
        Client {
            session: Session::new(out),
            rx,
        }
    }

    fn send(&mut self, line: &str) {
        assert_eq!(
            self.session.handle(line.as_bytes()),
            Flow::Continue,
            "{line}"
        );
    }

    fn recv(&self) -> String {
        self.rx.recv_timeout(WAIT).expect("a line from the session")
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = self.recv();
            let done = l.starts_with(prefix);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    /// Lines already sent, without waiting.
    fn pending(&self) -> Vec<String> {
        self.rx.try_iter().collect()
    }
}

fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

/// Item 4: pydraughts sends a slightly negative time left when less than the increment is
/// left. It is no error: the engine moves at once, as Scan does.
#[test]
fn a_negative_time_left_is_accepted_and_moved_on() {
    let mut c = Client::new();
    c.send("set-param name=variant value=english");
    c.send("set-param name=book value=false");
    c.send("pos start");
    c.send("level time=-0.02 inc=0.05");
    c.send("go think");
    let lines = c.until("done");
    assert!(
        lines.iter().all(|l| !l.starts_with("error")),
        "an error for a negative clock: {lines:?}"
    );
    let done = lines.last().expect("done");
    let m = value(done, "move").expect("move=");
    assert!(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"].contains(&m),
        "{done}"
    );
    // No time at all is the same; a time that is not a number is still refused.
    c.send("pos start");
    c.send("level time=0 inc=0");
    c.send("go think");
    assert!(c.until("done").iter().all(|l| !l.starts_with("error")));
    c.send("level time=-x inc=0");
    assert_eq!(c.recv(), "error message=\"bad time '-x' for time\"");
    c.session.stop_search();
}

/// Item 5: a ponder hit on a forced move plays it at once, as `go think` does: the search
/// stops where it is, instead of finishing its iteration (which `info` lines after the hit
/// would show) or spending the move time (here two minutes, four times the deadline).
#[test]
fn ponder_hit_on_a_forced_move_answers_at_once() {
    let mut c = Client::new();
    c.send("set-param name=variant value=english");
    c.send("set-param name=book value=false");
    // Black's only move is the capture 15x22x18.
    c.send("pos start moves=\"11-15 22-18\"");
    c.send("level move-time=120");
    c.send("go ponder");
    // Pondering ignores the clock: no done, and iterations deep enough to take a while.
    loop {
        let l = c.recv();
        assert!(l.starts_with("info "), "{l}");
        if value(&l, "depth").and_then(|d| d.parse::<u32>().ok()) >= Some(14) {
            break;
        }
    }
    // Into the next iteration, away from the moment one ends.
    std::thread::sleep(Duration::from_millis(50));
    c.send("ponder-hit");
    let before = c.pending();
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    let after = c.until("done");
    assert_eq!(
        after.len(),
        1,
        "the iteration went on after the hit: {after:?}"
    );
    assert_eq!(value(&after[0], "move"), Some("15x22x18"));
    // `go think` on the same move answers at once too.
    c.send("pos start moves=\"11-15 22-18\"");
    c.send("level move-time=120");
    c.send("go think");
    let lines = c.until("done");
    assert_eq!(value(lines.last().expect("done"), "move"), Some("15x22x18"));
    c.session.stop_search();
}

/// Item 7: with several lines asked for, every `info` line says which it is, the best
/// (`multipv=1`) too.
#[test]
fn every_info_line_of_a_multi_pv_search_names_its_line() {
    let mut c = Client::new();
    c.send("set-param name=variant value=english");
    c.send("set-param name=multipv value=3");
    c.send("pos start");
    c.send("go analyze");
    let mut infos = Vec::new();
    while infos.len() < 9 {
        let l = c.recv();
        assert!(l.starts_with("info "), "{l}");
        infos.push(l);
    }
    c.send("stop");
    c.until("done");
    let indices: Vec<Option<&str>> = infos.iter().map(|l| value(l, "multipv")).collect();
    assert_eq!(
        indices[..6],
        [
            Some("1"),
            Some("2"),
            Some("3"),
            Some("1"),
            Some("2"),
            Some("3")
        ],
        "{infos:?}"
    );
    assert!(indices.iter().all(Option::is_some), "{infos:?}");
    // One line only: no `multipv` key, as before.
    c.send("set-param name=multipv value=1");
    c.send("pos start");
    c.send("level depth=3");
    c.send("go analyze");
    let first = c.recv();
    c.send("stop");
    c.until("done");
    assert!(
        first.starts_with("info ") && value(&first, "multipv").is_none(),
        "{first}"
    );
}

/// Item 8: `help` lists the commands (no error), and does not stop a search.
#[test]
fn help_lists_the_commands() {
    let mut c = Client::new();
    c.send("help");
    let lines = c.pending();
    assert!(lines.iter().all(|l| !l.starts_with("error")), "{lines:?}");
    for command in [
        "hub",
        "set-param",
        "init",
        "new-game",
        "pos",
        "level",
        "go",
        "ponder-hit",
        "stop",
        "ping",
        "quit",
    ] {
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(command)),
            "{command} missing from {lines:?}"
        );
    }
    c.send("set-param name=variant value=english");
    c.send("pos start");
    c.send("go analyze");
    c.recv();
    c.send("help");
    c.send("ping");
    let lines = c.until("pong");
    assert!(lines.iter().all(|l| !l.starts_with("done")), "{lines:?}");
    c.send("stop");
    c.until("done");
}

/// Item 8: the greeting goes to a person at a terminal, never to a client on a pipe.
#[test]
fn the_terminal_hint_is_only_for_a_terminal() {
    assert_eq!(terminal_hint(false), None);
    let hint = terminal_hint(true).expect("a hint at a terminal");
    assert!(!hint.contains('\n'), "one line: {hint}");
    assert!(hint.contains("'help'") && hint.contains("quit"), "{hint}");
}

/// Bytes `'x'` for `length`, then a newline and `rest`, made as they are read.
struct Flood {
    left: usize,
    rest: io::Cursor<Vec<u8>>,
}

impl Read for Flood {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left > 0 {
            let n = self.left.min(buf.len());
            buf[..n].fill(b'x');
            self.left -= n;
            return Ok(n);
        }
        self.rest.read(buf)
    }
}

/// Item 6: a 300 MB line without a newline is read through, never kept: the buffer stays
/// within the line limit, the line is reported with its length, and the next line reads.
#[test]
fn a_300_mb_line_is_discarded_as_it_is_read() {
    let length = 300 << 20;
    let flood = Flood {
        left: length,
        rest: io::Cursor::new(b"\nping\r\nquit".to_vec()),
    };
    let mut input = io::BufReader::new(flood);
    let mut buf = Vec::new();
    let line = read_line(&mut input, &mut buf).expect("read");
    assert_eq!(line, Some(Line::TooLong(length)));
    assert!(
        buf.capacity() <= 2 * MAX_LINE,
        "{} bytes kept",
        buf.capacity()
    );
    let next = read_line(&mut input, &mut buf).expect("read");
    assert_eq!(next, Some(Line::Text(b"ping".to_vec())));
    let last = read_line(&mut input, &mut buf).expect("read");
    assert_eq!(last, Some(Line::Text(b"quit".to_vec())));
    assert_eq!(read_line(&mut input, &mut buf).expect("read"), None);
    assert!(input.fill_buf().expect("read").is_empty());

    // At the limit a line is kept; one byte more is too long.
    for (n, too_long) in [(MAX_LINE, false), (MAX_LINE + 1, true)] {
        let mut text = vec![b'y'; n];
        text.extend_from_slice(b"\r\n");
        let mut input = io::Cursor::new(text);
        let line = read_line(&mut input, &mut buf).expect("read");
        match line {
            Some(Line::Text(t)) => assert!(!too_long && t.len() == n),
            Some(Line::TooLong(k)) => assert!(too_long && k == n),
            None => panic!("no line"),
        }
    }

    // The session answers it as one bad line.
    let mut c = Client::new();
    assert_eq!(c.session.too_long(length), Flow::Continue);
    assert_eq!(
        c.recv(),
        format!("error message=\"line too long ({length} bytes)\"")
    );
    c.send("ping");
    assert_eq!(c.recv(), "pong");
}

/// Item 1: a table that cannot be allocated is an error naming the size; the engine keeps
/// a table of the size it had, freed and allocated again.
#[test]
fn a_table_that_cannot_be_had_keeps_the_previous_size() {
    let mut engine = Engine::new(16);
    assert_eq!(engine.table_megabytes(), None);
    engine.set_hash(24).expect("24 MB");
    assert_eq!((engine.hash_mb(), engine.table_megabytes()), (24, Some(16)));
    let huge = damas::search::tt::MAX_MEGABYTES + 1;
    assert_eq!(
        engine.set_hash(huge),
        Err(damas::engine::EngineError::HashAllocation { megabytes: huge })
    );
    assert_eq!((engine.hash_mb(), engine.table_megabytes()), (24, Some(16)));
    assert_eq!(
        engine.set_hash(huge).map_err(|e| e.to_string()),
        Err(format!("cannot allocate {huge} MB for the hash table"))
    );
}

/// Items 1 and 2: the table is allocated at `init` (not when the session starts) and a
/// new size replaces it; sizes are answered as asked for.
#[test]
fn the_table_is_sized_at_init_and_resized_on_request() {
    let mut c = Client::new();
    assert!(
        c.session.engine().table_megabytes().is_none(),
        "allocated before init"
    );
    c.send("set-param name=hash value=16");
    c.send("init");
    assert_eq!(c.recv(), "ready");
    assert_eq!(c.session.engine().table_megabytes(), Some(16));
    c.send("set-param name=hash value=3");
    assert_eq!(c.session.engine().table_megabytes(), Some(2));
    c.send("hub");
    let lines = c.until("wait");
    let hash = lines
        .iter()
        .find(|l| l.starts_with("param name=hash "))
        .expect("hash param");
    assert_eq!(value(hash, "value"), Some("3"), "{hash}");
}
