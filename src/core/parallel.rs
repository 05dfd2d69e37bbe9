//! Parallel loops for code that is generic over the rules, on rayon's current pool.
//!
//! Rayon's plumbing is generic over the closure it runs, so a `par_iter` inside a function
//! generic over `R: Rules` is compiled again for every variant: it was a quarter of the
//! library's code. Here the body is a `dyn` closure, so each loop shape is compiled once
//! (per item type). The bodies are coarse — a chunk of positions, a perft subtree, a game —
//! so the indirect call costs nothing measurable.

use std::ops::Range;

use rayon::prelude::*;

/// `body(i)` for each `i` in `0..n`, results in order.
pub fn map<T: Send>(n: usize, body: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    (0..n).into_par_iter().map(body).collect()
}

/// `body(i)` for each `i` in `0..n`, the results that are `Some`, in order.
pub fn filter_map<T: Send>(n: usize, body: &(dyn Fn(usize) -> Option<T> + Sync)) -> Vec<T> {
    (0..n).into_par_iter().filter_map(body).collect()
}

/// The sum of `body(i)` over `0..n`.
pub fn sum(n: usize, body: &(dyn Fn(usize) -> u64 + Sync)) -> u64 {
    (0..n).into_par_iter().map(body).sum()
}

/// `body` on `0..n` cut into ranges of `chunk`. A body keeps its scratch buffers for the
/// whole range.
pub fn for_each_chunk(n: u64, chunk: u64, body: &(dyn Fn(Range<u64>) + Sync)) {
    let chunk = chunk.max(1);
    (0..n.div_ceil(chunk))
        .into_par_iter()
        .for_each(|c| body(c * chunk..((c + 1) * chunk).min(n)));
}

/// `body` on `0..n` cut into ranges of `chunk`; what each range returns, concatenated in
/// order. A body keeps its scratch buffers for the whole range.
pub fn chunks<T: Send>(n: u64, chunk: u64, body: &(dyn Fn(Range<u64>) -> Vec<T> + Sync)) -> Vec<T> {
    let chunk = chunk.max(1);
    (0..n.div_ceil(chunk))
        .into_par_iter()
        .flat_map_iter(|c| body(c * chunk..((c + 1) * chunk).min(n)))
        .collect()
}

/// `body(i)` for each `i` in `0..n` until one fails; that error (any one, if several fail).
pub fn try_for_each<E: Send>(
    n: usize,
    body: &(dyn Fn(usize) -> Result<(), E> + Sync),
) -> Result<(), E> {
    (0..n).into_par_iter().try_for_each(body)
}
