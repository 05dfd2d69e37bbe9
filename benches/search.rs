//! Search speed, single thread, fresh 16 MB table: the English position and the
//! International start at fixed depths (the shallower ones three times, for the spread).
//! Each run prints its nodes and nodes per second: `cargo bench --bench search`.

use damas::engine::{Engine, Start};
use damas::search::limits::Limits;
use damas::search::Control;
use damas::Variant;

const ENGLISH: &str = "B:W14,22,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,11,15,16";

fn run(variant: Variant, start: Start<'_>, depth: u32) -> u64 {
    let mut engine = Engine::new(16);
    engine.book = false;
    let control = Control::new(false);
    engine
        .think::<&str>(
            variant,
            start,
            &[],
            Limits::depth(depth),
            &control,
            &mut |_| {},
        )
        .map(|d| d.nodes)
        .unwrap_or(0)
}

fn report(name: &str, variant: Variant, start: Start<'_>, depth: u32) {
    let t = std::time::Instant::now();
    let nodes = run(variant, start, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name}: {nodes} nodes in {s:.3} s = {:.2} M nodes/s",
        nodes as f64 / s / 1e6
    );
}

fn main() {
    report(
        "english position d15",
        Variant::English,
        Start::Fen(ENGLISH),
        15,
    );
    report(
        "international start d13",
        Variant::International,
        Start::Initial,
        13,
    );
    for _ in 0..3 {
        report(
            "english position d13",
            Variant::English,
            Start::Fen(ENGLISH),
            13,
        );
        report(
            "international start d11",
            Variant::International,
            Start::Initial,
            11,
        );
    }
}
