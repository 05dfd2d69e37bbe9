//! The benchmark: fixed positions of several variants searched to fixed depths with one
//! thread and a fresh fixed-size hash table, so its node count is a signature of the
//! search (any change to what the search does changes it).

use std::time::{Duration, Instant};

use crate::core::variant::Variant;
use crate::engine::{Engine, Start};
use crate::search::limits::Limits;
use crate::search::Control;

/// Hash size of the benchmark, in MB.
pub const HASH_MB: usize = 16;

/// (variant, PDN FEN or `None` for the start, depth).
pub const POSITIONS: &[(Variant, Option<&str>, u32)] = &[
    (Variant::English, None, 15),
    (
        Variant::English,
        Some("B:W14,22,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,11,15,16"),
        15,
    ),
    (
        Variant::English,
        Some("B:W17,21,23,25,29,30,31,32:B1,3,4,5,7,9,10,12,24"),
        15,
    ),
    (Variant::International, None, 11),
    (
        Variant::International,
        Some("B:W28,29,35,36,37,38,39,40,41,42,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,10,11,14,15,16,17"),
        11,
    ),
    (Variant::Russian, None, 13),
    (
        Variant::Brazilian,
        Some("W:W21,23,24,25,26,28,29,30,31,32:B1,2,3,4,7,8,11,12,14,17"),
        13,
    ),
    (
        Variant::Italian,
        Some("W:W14,17,19,23,25,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,12,24"),
        14,
    ),
    (Variant::Czech, None, 13),
    (Variant::Portuguese, None, 13),
    (Variant::Thai, None, 13),
    (Variant::Canadian, None, 9),
    (
        Variant::Turkish,
        Some("W:Wc2,d2,e2,f2,g2,h2,d3,g3,c4:Bf5,a6,b6,c6,d6,e6,g6,h6,a7,b7,d7,e7,h7"),
        9,
    ),
    (Variant::AntiEnglish, None, 13),
];

/// One benchmark position's result.
pub struct BenchLine {
    pub variant: Variant,
    pub fen: Option<&'static str>,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub best: String,
}

/// Run the benchmark, calling `each` after every position; returns the totals.
pub fn run(each: &mut dyn FnMut(&BenchLine)) -> (u64, Duration) {
    let mut engine = Engine::new(HASH_MB);
    engine.threads = 1;
    // The benchmark measures the search: no book moves.
    engine.book = false;
    let mut nodes = 0;
    let start = Instant::now();
    for &(variant, fen, depth) in POSITIONS {
        engine.clear();
        let control = Control::new(false);
        let begun = Instant::now();
        let from = fen.map_or(Start::Initial, Start::Fen);
        let done = engine.think::<&str>(
            variant,
            from,
            &[],
            Limits::depth(depth),
            &control,
            &mut |_| {},
        );
        let (n, best) = match done {
            Ok(d) => (d.nodes, d.best),
            Err(e) => (0, format!("error: {e}")),
        };
        nodes += n;
        each(&BenchLine {
            variant,
            fen,
            depth,
            nodes: n,
            time: begun.elapsed(),
            best,
        });
    }
    (nodes, start.elapsed())
}
