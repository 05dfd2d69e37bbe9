//! The trained evaluation: a linear model over sparse features, the same code for every
//! variant, with weights learnt from the engine's own games (`damas selfplay`, `damas train`).
//!
//! Features are read from each side's own frame — the board turned 180° for a side whose men
//! crown on the first rank — so one weight serves both colours and a position and its
//! colour-flipped mirror score exactly opposite. Each weight has an opening and an ending
//! value, blended by the material left. The features:
//! - a man and a king on each square (material and piece-square values in one);
//! - each king's mobility (0 is a trapped king), in buckets;
//! - balance: how evenly a side's men spread over the two wings;
//! - kings held by each side (the value of the first, second... king);
//! - the side to move (tempo);
//! - patterns: the men (own, other or none) on the squares of small windows, 4×4 on
//!   dark-square boards and 4×2 on full boards, read as one base-3 number that indexes a
//!   table of its own per window position. Kings count as empty there.

pub mod data;
pub mod file;
pub mod train;

use crate::core::bitboard::Word;
use crate::core::color::Color;
use crate::core::geometry::{Geometry, Layout};
use crate::core::patterns::{compute_patterns, IndexedPosition};
use crate::core::patterns::{windows, Windows, PATTERNS, TERNARY, TERNARY_REVERSED, WINDOW_MEN};
use crate::core::position::{Position, WordOf};
use crate::core::rules::Rules;
use crate::search::eval::Score;

pub use file::{TrainedWeights, WeightsError};

/// Weights are stored in eighths of a hundredth of a man.
pub const SCALE: i32 = 8;
/// Phase runs from 0 (bare ending) to this (all pieces on the board).
pub const FULL_PHASE: i32 = 256;

pub const MOBILITY_BUCKETS: usize = 16;
pub const BALANCE_BUCKETS: usize = 8;
/// Kings held per side counted up to 3.
pub const KING_COUNT: usize = 4;

/// Offsets of each feature group in the weight vector.
pub const MAN_SQUARE: usize = 0;
pub const KING_SQUARE: usize = 128;
pub const KING_MOBILITY: usize = 256;
pub const BALANCE: usize = KING_MOBILITY + MOBILITY_BUCKETS;
pub const KINGS_HELD: usize = BALANCE + BALANCE_BUCKETS;
pub const TEMPO: usize = KINGS_HELD + KING_COUNT * KING_COUNT;
pub const PATTERN: usize = TEMPO + 8;

/// Bit index of each square's image under a 180° turn.
const fn turned_squares(l: &Layout) -> [u8; 128] {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        if let Some((f, r)) = l.coords(i as u32) {
            if let Some(j) = l.index(
                l.width as i32 - 1 - f as i32,
                l.height as i32 - 1 - r as i32,
            ) {
                t[i] = j as u8;
            }
        }
        i += 1;
    }
    t
}

const fn file_bits(l: &Layout) -> [u128; 4] {
    assert!(l.width <= 16, "files are numbered in four bits");
    let mut t = [0u128; 4];
    let mut i = 0;
    while i < 128 {
        if let Some((f, _)) = l.coords(i as u32) {
            let mut b = 0;
            while b < 4 {
                if f & (1 << b) != 0 {
                    t[b] |= 1 << i;
                }
                b += 1;
            }
        }
        i += 1;
    }
    t
}

/// What the features need to know of a variant, computed at compile time.
pub trait Frames: Rules {
    const WINDOWS: Windows = windows(&Self::G::LAYOUT);
    const TURNED: [u8; 128] = turned_squares(&Self::G::LAYOUT);
    /// Black sees the board turned when its men crown on the other side from White's.
    const BLACK_TURNED: bool = Self::PROMOTION_SQUARES[0] != Self::PROMOTION_SQUARES[1];
    const WEIGHT_COUNT: usize = PATTERN + Self::WINDOWS.count * PATTERNS;
    /// The squares whose file number has bit `b` set, for `b` in 0..4.
    const FILE_BITS: [u128; 4] = file_bits(&Self::G::LAYOUT);
    /// Pieces at the start, for the phase.
    const START_PIECES: u32 = (Self::START_MEN[0]
        | Self::START_MEN[1]
        | Self::START_PARACHUTISTS[0]
        | Self::START_PARACHUTISTS[1])
        .count_ones();
}

impl<R: Rules> Frames for R {}

/// Receives the features of a position: weight `index` counted `sign` times (+1 for White's
/// features, -1 for Black's).
pub trait Visitor {
    /// Whether a weight visited with +1 and then -1 comes to nothing, as in an integer sum:
    /// such a visitor is also shown the empty patterns, which cancel, as testing for them
    /// costs more than it saves.
    const CANCELS: bool = false;
    fn add(&mut self, index: usize, sign: i32);
}

/// The game phase: `FULL_PHASE` with every piece on the board, 0 with none.
pub fn phase<R: Rules>(pos: &Position<R>) -> i32 {
    let pieces = (pos.by_color[0] | pos.by_color[1]).popcount() as i32;
    (pieces * FULL_PHASE / (R::START_PIECES.max(1) as i32)).min(FULL_PHASE)
}

/// Visit every feature of `pos`, from White's point of view.
#[inline]
pub fn features<R: Rules, V: Visitor>(pos: &Position<R>, v: &mut V) {
    let zero = <WordOf<R> as Word>::ZERO;
    for c in 0..2 {
        let sign = if c == 0 { 1 } else { -1 };
        let mut b = pos.by_color[c] & !pos.kings & !pos.paras;
        while b != zero {
            let i = b.lsb();
            b = b.without_lsb();
            v.add(MAN_SQUARE + frame::<R>(c, i), sign);
        }
    }
    piece_features(pos, v);
    let indices = compute_patterns(pos);
    for (j, &index) in indices.as_ref()[..R::WINDOWS.count].iter().enumerate() {
        let [w, b] = WINDOW_MEN[index as usize];
        pattern::<R, V>(j, w as usize, b as usize, v);
    }
}

/// Square `i` in the frame of colour `c`.
#[inline(always)]
fn frame<R: Rules>(c: usize, i: u32) -> usize {
    if c == 1 && R::BLACK_TURNED {
        R::TURNED[i as usize] as usize
    } else {
        i as usize
    }
}

/// The features other than men on squares and patterns: balance, kings and their
/// mobility, kings held, the side to move.
#[inline(always)]
fn piece_features<R: Rules, V: Visitor>(pos: &Position<R>, v: &mut V) {
    let zero = <WordOf<R> as Word>::ZERO;
    let kings = pos.kings;
    let occupied = pos.by_color[0] | pos.by_color[1];
    let empty = R::G::VALID & !occupied;
    let mut kings_held = [0usize; 2];
    for (c, held) in kings_held.iter_mut().enumerate() {
        let sign = if c == 0 { 1 } else { -1 };
        let own = pos.by_color[c];
        let men = own & !kings & !pos.paras;
        // The men's files summed bit by bit: the sum of their signed distances from the
        // middle line, without visiting each man.
        let mut files = 0i32;
        for (bit, &mask) in R::FILE_BITS.iter().enumerate() {
            files += ((men & <WordOf<R> as Word>::from_u128(mask)).popcount() << bit) as i32;
        }
        let balance = 2 * files - (R::G::LAYOUT.width as i32 - 1) * men.popcount() as i32;
        let bucket = (balance.unsigned_abs() as usize * 2 / R::G::LAYOUT.width as usize)
            .min(BALANCE_BUCKETS - 1);
        v.add(BALANCE + bucket, sign);
        let mut b = own & kings;
        while b != zero {
            let i = b.lsb();
            let k = <WordOf<R> as Word>::ONE << i;
            b ^= k;
            *held += 1;
            v.add(KING_SQUARE + frame::<R>(c, i), sign);
            let mut reach = 0u32;
            for d in 0..8 {
                if !R::KING_STEPS.has(d) {
                    continue;
                }
                let mut s = R::G::step(k, d) & empty;
                while s != zero {
                    reach += 1;
                    if !R::FLYING_KINGS {
                        break;
                    }
                    s = R::G::step(s, d) & empty;
                }
            }
            v.add(
                KING_MOBILITY + (reach as usize).min(MOBILITY_BUCKETS - 1),
                sign,
            );
        }
    }
    let (wk, bk) = (
        kings_held[0].min(KING_COUNT - 1),
        kings_held[1].min(KING_COUNT - 1),
    );
    v.add(KINGS_HELD + wk * KING_COUNT + bk, 1);
    v.add(KINGS_HELD + bk * KING_COUNT + wk, -1);
    v.add(TEMPO, if pos.side == Color::White { 1 } else { -1 });
}

/// Visit the pattern of window `j`, with White's men `w` and Black's `b` on its squares.
#[inline(always)]
fn pattern<R: Rules, V: Visitor>(j: usize, w: usize, b: usize, v: &mut V) {
    let windows = &R::WINDOWS;
    if !V::CANCELS && w | b == 0 {
        // The empty pattern: the same index for both sides, which cancel.
        if !R::BLACK_TURNED || windows.turned[j] as usize == j {
            return;
        }
    }
    let white_index = TERNARY[w] as usize + 2 * TERNARY[b] as usize;
    v.add(PATTERN + j * PATTERNS + white_index, 1);
    if R::BLACK_TURNED {
        let t = windows.turned[j] as usize;
        let black_index = TERNARY_REVERSED[b] as usize + 2 * TERNARY_REVERSED[w] as usize;
        v.add(PATTERN + t * PATTERNS + black_index, -1);
    } else {
        let black_index = TERNARY[b] as usize + 2 * TERNARY[w] as usize;
        v.add(PATTERN + j * PATTERNS + black_index, -1);
    }
}

/// Sums weights for the two phases.
struct Sum<'a> {
    weights: &'a [[i16; 2]],
    open: i32,
    end: i32,
}

impl Visitor for Sum<'_> {
    const CANCELS: bool = true;
    #[inline(always)]
    fn add(&mut self, index: usize, sign: i32) {
        let w = self.weights[index];
        self.open += sign * w[0] as i32;
        self.end += sign * w[1] as i32;
    }
}

/// Entries of a window's folded table: the patterns padded to a power of two, so that a
/// masked index needs no bounds check.
pub const TABLE_ENTRIES: usize = 8192;
const _: () = assert!(PATTERNS <= TABLE_ENTRIES && TABLE_ENTRIES.is_power_of_two());

/// One window's folded table (built by `fold`).
pub type WindowTable = [[i32; 2]; TABLE_ENTRIES];

/// The search's form of `values`: per window, one entry per pattern (indexed as White's
/// index), holding both sides' pattern weights and the man-on-square weights of the squares
/// the window owns (each square is owned by the first window holding it). A window then
/// costs the search one load, and a man none.
pub(crate) fn fold<R: Rules>(values: &[[i16; 2]]) -> Vec<WindowTable> {
    let windows = &R::WINDOWS;
    let mut owner = [usize::MAX; 128];
    for j in 0..windows.count {
        for &square in &windows.squares[j] {
            if owner[square as usize] == usize::MAX {
                owner[square as usize] = j;
            }
        }
    }
    let mut table = vec![[[0i32; 2]; TABLE_ENTRIES]; windows.count];
    for (j, window_table) in table.iter_mut().enumerate() {
        for (index, &[w, b]) in WINDOW_MEN.iter().enumerate() {
            let (w, b) = (w as usize, b as usize);
            let mut e = Sum {
                weights: values,
                open: 0,
                end: 0,
            };
            pattern::<R, _>(j, w, b, &mut e);
            for (k, &square) in windows.squares[j].iter().enumerate() {
                if owner[square as usize] != j {
                    continue;
                }
                if w >> k & 1 != 0 {
                    e.add(MAN_SQUARE + frame::<R>(0, square as u32), 1);
                }
                if b >> k & 1 != 0 {
                    e.add(MAN_SQUARE + frame::<R>(1, square as u32), -1);
                }
            }
            window_table[index] = [e.open, e.end];
        }
    }
    table
}

/// The trained score of `pos` from White's side, in hundredths of a man: the sum of the
/// weights of its [`features`], read from the folded tables.
pub fn white_score<R: Rules>(pos: &IndexedPosition<R>, weights: &TrainedWeights) -> Score {
    let mut sum = Sum {
        // Of the variant's length, which spares most index checks.
        weights: &weights.values()[..R::WEIGHT_COUNT],
        open: 0,
        end: 0,
    };
    piece_features(pos, &mut sum);
    let tables = &weights.folded::<R>()[..R::WINDOWS.count];
    for (table, &index) in tables.iter().zip(pos.pattern_indices()) {
        let e = table[index as usize & (TABLE_ENTRIES - 1)];
        sum.open += e[0];
        sum.end += e[1];
    }
    let p = phase(pos);
    (sum.open * p + sum.end * (FULL_PHASE - p)) / (FULL_PHASE * SCALE)
}

/// The trained score of `pos` from the side to move.
pub fn evaluate<R: Rules>(pos: &IndexedPosition<R>, weights: &TrainedWeights) -> Score {
    let s = white_score(pos, weights);
    if pos.side == Color::White {
        s
    } else {
        -s
    }
}
