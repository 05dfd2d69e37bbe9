//! Move ordering: the hash move, captures, promotions, two killer moves per ply and a
//! history table of quiet moves that caused cut-offs, and the lazy picker that serves the
//! moves best first.

use crate::core::bitboard::Word;
use crate::core::mv::Move;
use crate::core::position::{MoveOf, Position, WordOf};
use crate::core::rules::Rules;
use crate::search::params::*;
use crate::search::MAX_PLY;

/// What one search thread learns about good quiet moves.
pub struct MoveOrdering<R: Rules> {
    killers: [[Option<MoveOf<R>>; 2]; MAX_PLY + 2],
    /// Indexed by side, from-square and to-square.
    history: Vec<i32>,
}

fn history_index<W: Word>(side: usize, m: &Move<W>) -> usize {
    (side << 14) | (m.from.index() << 7) | m.to.index()
}

impl<R: Rules> Default for MoveOrdering<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> MoveOrdering<R> {
    pub fn new() -> Self {
        MoveOrdering {
            killers: [[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 << 14],
        }
    }

    pub fn is_killer(&self, ply: usize, m: &MoveOf<R>) -> bool {
        self.killers[ply].iter().flatten().any(|k| k.same_as(m))
    }

    /// Score each move for ordering; the key's low byte keeps the move's generator index
    /// (what the transposition table stores).
    pub fn keys(
        &self,
        pos: &Position<R>,
        moves: &[MoveOf<R>],
        keys: &mut Vec<i32>,
        tt_index: Option<u8>,
        ply: usize,
    ) {
        let us = pos.side_to_move().index();
        keys.clear();
        for (i, m) in moves.iter().enumerate() {
            let index = i.min(255) as u8;
            let value = if Some(index) == tt_index && i < 255 {
                ORDER_HASH_MOVE
            } else if m.is_capture() {
                let kings = (m.captured.0 & pos.kings) != <WordOf<R> as Word>::ZERO;
                ORDER_CAPTURE
                    + ORDER_PER_CAPTURED * m.captured.count() as i32
                    + ORDER_KING_CAPTURED * kings as i32
            } else if m.promotes() {
                ORDER_PROMOTION
            } else if self.killers[ply][0].is_some_and(|k| k.same_as(m)) {
                ORDER_KILLER[0]
            } else if self.killers[ply][1].is_some_and(|k| k.same_as(m)) {
                ORDER_KILLER[1]
            } else {
                self.history[history_index(us, m)]
            };
            keys.push(value * 256 + index as i32);
        }
    }

    /// A quiet move `m` of side `us` cut off at `depth`: make it a killer, raise its history
    /// and lower that of the quiet moves `tried` before it.
    pub fn reward(
        &mut self,
        ply: usize,
        us: usize,
        m: &MoveOf<R>,
        depth: i32,
        tried: &[MoveOf<R>],
    ) {
        if !self.killers[ply][0].is_some_and(|k| k.same_as(m)) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(*m);
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        let h = &mut self.history[history_index(us, m)];
        *h += bonus - *h * bonus / HISTORY_MAX;
        for t in tried {
            if !t.is_capture() && !t.promotes() {
                let h = &mut self.history[history_index(us, t)];
                *h -= bonus + *h * bonus / HISTORY_MAX;
            }
        }
    }
}

/// Bring the best remaining move to position `i` (selection sort, done lazily).
#[inline]
pub fn pick<W: Word>(moves: &mut [Move<W>], keys: &mut [i32], i: usize) {
    // The best key kept in a register and chosen without branches: which key is larger is
    // as good as random to the branch predictor.
    let (mut best, mut best_key) = (i, keys[i]);
    for (j, &k) in keys.iter().enumerate().skip(i + 1) {
        let better = k > best_key;
        best = if better { j } else { best };
        best_key = best_key.max(k);
    }
    moves.swap(i, best);
    keys.swap(i, best);
}
