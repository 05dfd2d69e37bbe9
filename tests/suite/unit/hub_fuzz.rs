//! Fuzzing the Hub session in-process: 100,000+ random and mutated lines. No panic; every
//! line that is certainly bad gets exactly one `error` line; every output line is a protocol
//! line; and a correct session afterwards still plays a legal move.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use damas::app::hub::message::MAX_LINE;
use damas::app::hub::{Output, Session};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("buffer").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn take_lines(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().expect("buffer"));
        String::from_utf8(bytes)
            .expect("output is UTF-8")
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// Valid lines to mutate. (`hash` and `threads` are left out: a mutated digit could ask
/// for gigabytes or hundreds of threads, which is legal but not what this test is about.)
const CORPUS: &[&str] = &[
    "hub",
    "init",
    "new-game",
    "ping",
    "stop",
    "ponder-hit",
    "set-param name=variant value=english",
    "set-param name=variant value=normal",
    "set-param name=variant value=italian",
    "set-param name=multipv value=3",
    "set-param name=ponder value=true",
    "set-param name=mandatory-capture value=false",
    "pos start",
    "pos start moves=\"32-28 19-23\"",
    "pos start moves=\"11-15 23-19\"",
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
    "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15\"",
    "pos fen=\"W:W31-50:B1-20\" moves=\"32-28\"",
    "pos fen=\"B:W21-32:B1-12\"",
    "level depth=2",
    "level nodes=500",
    "level move-time=0.005",
    "level time=0.05 inc=0.001",
    "level moves=10 time=0.1",
    "go think",
    "go analyze",
    "go ponder",
];

/// Lines that are wrong whatever the state: each must get one `error` line.
fn certainly_bad(rng: &mut StdRng) -> Vec<u8> {
    match rng.gen_range(0..9) {
        0 => {
            // Invalid UTF-8 inside a command.
            let mut l = b"pos start moves=\"".to_vec();
            l.extend([0xff, 0xfe, b'1', 0xc3]);
            l.push(b'"');
            l
        }
        1 => vec![b'x'; MAX_LINE + rng.gen_range(1..1000)],
        2 => format!("frobnicate{} a=b", rng.gen_range(0..1000)).into_bytes(),
        3 => b"pos start moves=\"32-28".to_vec(),
        4 => b"set-param name=variant value=chess".to_vec(),
        5 => b"pos pos=Wbbbbeeee".to_vec(),
        6 => b"level depth=-3".to_vec(),
        7 => b"pos start moves=\"99-98\"".to_vec(),
        _ => b"set-param name=\"variant value=english".to_vec(),
    }
}

fn mutate(rng: &mut StdRng, line: &str) -> Vec<u8> {
    let mut b = line.as_bytes().to_vec();
    let special = b"=\" \\x-:,\t\r\x00\xff\xc3WBe0123456789";
    for _ in 0..rng.gen_range(1..4) {
        let i = if b.is_empty() {
            0
        } else {
            rng.gen_range(0..b.len())
        };
        match rng.gen_range(0..5) {
            0 if !b.is_empty() => {
                b.remove(i);
            }
            1 => b.insert(i, special[rng.gen_range(0..special.len())]),
            2 if !b.is_empty() => b[i] = rng.gen(),
            3 => {
                let j = rng.gen_range(i..=b.len());
                let copy = b[i..j].to_vec();
                b.splice(j..j, copy);
            }
            _ => b.truncate(i),
        }
    }
    b
}

const REPLIES: &[&str] = &[
    "id ",
    "param ",
    "wait",
    "ready",
    "info ",
    "done ",
    "pong",
    "error message=",
];

#[test]
fn a_hundred_thousand_hostile_lines() {
    let panics = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&panics);
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        seen.fetch_add(1, Ordering::SeqCst);
        default_hook(info);
    }));

    let buffer = Buffer::default();
    let mut session = Session::new(Output::new(Box::new(buffer.clone()), None));
    let mut rng = StdRng::seed_from_u64(2026);
    let mut bad_lines = 0;
    let total = 100_000;
    for n in 0..total {
        let kind = rng.gen_range(0..10);
        if kind == 0 {
            session.stop_search();
            buffer.take_lines();
            let line = certainly_bad(&mut rng);
            session.handle(&line);
            let out = buffer.take_lines();
            assert_eq!(
                out.len(),
                1,
                "line {n}: {:?} gave {out:?}",
                String::from_utf8_lossy(&line[..line.len().min(80)])
            );
            assert!(out[0].starts_with("error message="), "{out:?}");
            bad_lines += 1;
            continue;
        }
        let line = match kind {
            1 => (0..rng.gen_range(0..60)).map(|_| rng.gen::<u8>()).collect(),
            2..=5 => CORPUS[rng.gen_range(0..CORPUS.len())].as_bytes().to_vec(),
            _ => {
                let base = CORPUS[rng.gen_range(0..CORPUS.len())];
                mutate(&mut rng, base)
            }
        };
        if line.windows(4).any(|w| w == b"quit") {
            continue;
        }
        session.handle(&line);
        for l in buffer.take_lines() {
            assert!(
                REPLIES.iter().any(|r| l.starts_with(r)),
                "not a protocol line: {l:?}"
            );
        }
    }
    session.stop_search();
    buffer.take_lines();
    assert!(bad_lines > 9_000);
    assert_eq!(panics.load(Ordering::SeqCst), 0, "no panic anywhere");

    // A correct session still works.
    for line in [
        "hub",
        "set-param name=variant value=english",
        "set-param name=mandatory-capture value=true",
        "init",
        "new-game",
        "pos start moves=\"11-15\"",
        "level depth=4",
        "go think",
    ] {
        session.handle(line.as_bytes());
    }
    let mut done = None;
    for _ in 0..2000 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        if let Some(l) = buffer
            .take_lines()
            .into_iter()
            .find(|l| l.starts_with("done"))
        {
            done = Some(l);
            break;
        }
    }
    let done = done.expect("done after a correct go");
    let white_replies = [
        "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
    ];
    assert!(
        white_replies
            .iter()
            .any(|m| done.starts_with(&format!("done move={m}"))),
        "{done}"
    );
}
