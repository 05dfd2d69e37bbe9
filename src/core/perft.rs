//! Perft: the number of move paths of a given depth, with bulk counting at the last ply.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::core::movegen::Convention;
use crate::core::parallel;
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;

/// Leaf count at `depth` from `pos`.
///
/// [`Convention::Drop`] counts moves with the same start, end and captured pieces once;
/// [`Convention::Keep`] counts every capture order apart. The numbers are those of
/// `tests/perft/*.tsv`.
///
/// ```
/// use damas::core::perft::perft;
/// use damas::core::rules::{Alquerque, English, International};
/// use damas::{Convention, Position};
///
/// let english = Position::<English>::start();
/// let counts: Vec<u64> = (1..=5).map(|d| perft(&english, d, Convention::Drop)).collect();
/// assert_eq!(counts, [7, 49, 302, 1469, 7361]);
/// assert_eq!(perft(&Position::<International>::start(), 4, Convention::Drop), 4265);
/// // Depth 0 is the position itself.
/// assert_eq!(perft(&english, 0, Convention::Drop), 1);
/// // Alquerque at depth 6: `Keep` also counts two capture orders that `Drop` merges.
/// let alquerque = Position::<Alquerque>::start();
/// assert_eq!(perft(&alquerque, 6, Convention::Drop), 95);
/// assert_eq!(perft(&alquerque, 6, Convention::Keep), 97);
/// ```
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32, convention: Convention) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut bufs: Vec<Vec<MoveOf<R>>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    recurse(pos, depth, convention, &mut bufs)
}

fn recurse<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    convention: Convention,
    bufs: &mut [Vec<MoveOf<R>>],
) -> u64 {
    let (buf, rest) = match bufs.split_first_mut() {
        Some(x) => x,
        None => return 1,
    };
    if depth == 1 {
        return pos.count_moves(convention, buf);
    }
    buf.clear();
    pos.generate(buf, convention);
    let mut n = 0;
    for m in buf.iter() {
        n += recurse(&pos.after_unhashed(m), depth - 1, convention, rest);
    }
    n
}

/// Leaf count below each root move, the root split over rayon's threads. `progress` hears
/// (root moves done, root moves in all) as each subtree finishes.
pub fn divide<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    convention: Convention,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(MoveOf<R>, u64)> {
    let mut moves = Vec::new();
    pos.generate(&mut moves, convention);
    let done = AtomicUsize::new(0);
    parallel::map(moves.len(), &|i| {
        let n = split(&pos.after(&moves[i]), depth.saturating_sub(1), convention);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, moves.len());
        (moves[i], n)
    })
}

/// Perft with the first ply split over threads too, so a root with a few large subtrees
/// still keeps every core busy.
fn split<R: Rules>(pos: &Position<R>, depth: u32, convention: Convention) -> u64 {
    if depth < 3 {
        return perft(pos, depth, convention);
    }
    let mut moves = Vec::new();
    pos.generate(&mut moves, convention);
    parallel::sum(moves.len(), &|i| {
        perft(&pos.after(&moves[i]), depth - 1, convention)
    })
}
