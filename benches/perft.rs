//! Perft speed, one thread: `cargo bench --bench perft`. Each line gives the best of five
//! runs and its nodes per second (the best, because on a shared machine noise only slows).

use std::time::Instant;

use damas::core::perft::perft;
use damas::core::rules::{English, International, Rules, Turkish};
use damas::{Convention, Position};

const RUNS: usize = 5;

fn report<R: Rules>(name: &str, depth: u32) {
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        nodes = perft(&Position::<R>::start(), depth, Convention::Drop);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "perft {name} d{depth}: {nodes} nodes, best of {RUNS} {best:.3} s = {:.1} M nodes/s",
        nodes as f64 / best / 1e6
    );
}

fn main() {
    report::<English>("english", 9);
    report::<International>("international", 6);
    report::<Turkish>("turkish", 6);
}
