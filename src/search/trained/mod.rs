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
use crate::core::geometry::{Geometry, Layout, Shape};
use crate::core::position::{Position, WordOf};
use crate::core::rules::Rules;
use crate::search::eval::Score;

pub use file::{TrainedWeights, WeightsError};

/// Most windows a board has (12×12: 25).
pub const MAX_WINDOWS: usize = 32;
/// Squares in a window.
pub const WINDOW_SQUARES: usize = 8;
/// Entries of one pattern table: 3^8.
pub const PATTERNS: usize = 6561;
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

/// The windows of one board layout.
#[derive(Clone, Copy, Debug)]
pub struct Windows {
    pub count: usize,
    /// Bit index of each square, rank by rank from White's side.
    pub squares: [[u8; WINDOW_SQUARES]; MAX_WINDOWS],
    /// The window the board turned 180° maps this one to (its squares in reverse order).
    pub turned: [u8; MAX_WINDOWS],
    /// A window's squares lie on `runs` ranks, `run_length` consecutive bits on each: the
    /// first bit of each rank's run (so a window is read with a few shifts).
    pub runs: usize,
    pub run_length: usize,
    pub run_start: [[u8; 4]; MAX_WINDOWS],
    /// Windows sharing their ranks form a band, `per_band` windows side by side (window `j`
    /// is in band `j / per_band`): a band's ranks are read once into a [`BandBits`] word, and
    /// each of its windows from there (see [`window_bits`]).
    pub bands: usize,
    pub per_band: usize,
    /// The first bit of each rank of a band...
    pub band_start: [[u8; 4]; MAX_BANDS],
    /// ...and how many bits further a window's run starts on each of them.
    pub offset: [u8; MAX_WINDOWS],
    /// [`window_bits`]'s mask, multiplier and shift.
    pub gather_mask: u64,
    pub gather_magic: u64,
    pub gather_shift: u32,
}

impl Windows {
    /// The men of one colour on `band`'s ranks: rank `r`'s first [`BAND_FIELD`] bits from the
    /// band's start at bit `BAND_FIELD * r`.
    #[inline(always)]
    pub fn band_bits<W: Word>(&self, men: W, band: usize) -> u64 {
        let mut x = 0u64;
        for (r, &start) in self.band_start[band][..self.runs].iter().enumerate() {
            let field = (men >> start as u32).to_u128() as u64 & ((1 << BAND_FIELD) - 1);
            x |= field << (BAND_FIELD * r as u32);
        }
        x
    }

    /// The men on window `j` of a band word, run `r` at bit `r * run_length`: the runs are
    /// masked and gathered by one multiplication whose partial products all fall on distinct
    /// bits (fields `BAND_FIELD` bits apart, runs 8 bits together), so nothing carries.
    #[inline(always)]
    pub fn window_bits(&self, band: u64, j: usize) -> usize {
        let runs = (band >> self.offset[j]) & self.gather_mask;
        (runs.wrapping_mul(self.gather_magic) >> self.gather_shift) as usize & 0xff
    }
}

/// Most bands a board has (12×12: 5).
pub const MAX_BANDS: usize = 16;
/// Bits of a band word per rank: a window's run lies within the first 8 bits from the
/// band's start on each rank.
const BAND_FIELD: u32 = 8;

const fn window_shape(l: &Layout) -> (u8, u8) {
    match l.shape {
        Shape::Dark => (4, 4),
        _ => (4, 2),
    }
}

/// Window origins along a side of `len` squares: every even one, and their mirrors, so the
/// set is the same seen from either side.
const fn origins(len: u8, k: u8) -> ([u8; 16], usize) {
    let mut out = [0u8; 16];
    let mut n = 0;
    let mut p = 0;
    while p + k <= len {
        let mut q = 0;
        while q < 2 {
            let o = if q == 0 { p } else { len - k - p };
            let mut seen = false;
            let mut i = 0;
            while i < n {
                if out[i] == o {
                    seen = true;
                }
                i += 1;
            }
            if !seen {
                out[n] = o;
                n += 1;
            }
            q += 1;
        }
        p += 2;
    }
    // Sort, so the windows come in board order.
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n {
            if out[j] < out[i] {
                let t = out[i];
                out[i] = out[j];
                out[j] = t;
            }
            j += 1;
        }
        i += 1;
    }
    (out, n)
}

pub const fn windows(l: &Layout) -> Windows {
    let (kw, kh) = window_shape(l);
    let (files, nf) = origins(l.width, kw);
    let (ranks, nr) = origins(l.height, kh);
    let runs = kh as usize;
    let mut w = Windows {
        count: 0,
        squares: [[0; WINDOW_SQUARES]; MAX_WINDOWS],
        turned: [0; MAX_WINDOWS],
        runs,
        run_length: WINDOW_SQUARES / runs,
        run_start: [[0; 4]; MAX_WINDOWS],
        bands: nr,
        per_band: nf,
        band_start: [[0; 4]; MAX_BANDS],
        offset: [0; MAX_WINDOWS],
        gather_mask: 0,
        gather_magic: 0,
        gather_shift: 0,
    };
    // Run r's field sits at BAND_FIELD * r and goes to run_length * r: multiplied by
    // 2^(shift + (run_length - BAND_FIELD) * r), then shifted down by `shift`.
    let field = BAND_FIELD as usize;
    w.gather_shift = ((field - w.run_length) * (runs - 1)) as u32;
    assert!(
        w.gather_shift as usize + field * runs <= 64,
        "the gathering product must fit in 64 bits"
    );
    let mut run = 0;
    while run < runs {
        w.gather_mask |= ((1u64 << w.run_length) - 1) << (field * run);
        w.gather_magic |= 1u64 << (w.gather_shift as usize + w.run_length * run - field * run);
        run += 1;
    }
    let mut origin = [(0u8, 0u8); MAX_WINDOWS];
    let mut ri = 0;
    while ri < nr {
        let mut fi = 0;
        while fi < nf {
            let (f0, r0) = (files[fi], ranks[ri]);
            let mut k = 0;
            let mut r = r0;
            while r < r0 + kh {
                let mut f = f0;
                while f < f0 + kw {
                    if let Some(bit) = l.index(f as i32, r as i32) {
                        if k < WINDOW_SQUARES {
                            w.squares[w.count][k] = bit as u8;
                        }
                        k += 1;
                    }
                    f += 1;
                }
                r += 1;
            }
            assert!(k == WINDOW_SQUARES, "a window must hold 8 squares");
            let mut run = 0;
            while run < w.runs {
                let first = w.squares[w.count][run * w.run_length];
                let mut i = 1;
                while i < w.run_length {
                    assert!(
                        w.squares[w.count][run * w.run_length + i] == first + i as u8,
                        "a window's squares on one rank must be consecutive bits"
                    );
                    i += 1;
                }
                w.run_start[w.count][run] = first;
                run += 1;
            }
            // The band's first window (file origin 0) sets where its ranks start.
            let first = ri * nf;
            if fi == 0 {
                w.band_start[ri] = w.run_start[first];
            }
            let offset = w.run_start[w.count][0] - w.band_start[ri][0];
            let mut run = 0;
            while run < w.runs {
                assert!(
                    w.run_start[w.count][run] == w.band_start[ri][run] + offset,
                    "a band's windows must sit at one offset on each rank"
                );
                run += 1;
            }
            assert!(
                offset as usize + w.run_length <= BAND_FIELD as usize,
                "a window's run must lie in its band field"
            );
            w.offset[w.count] = offset;
            origin[w.count] = (f0, r0);
            w.count += 1;
            fi += 1;
        }
        ri += 1;
    }
    let mut i = 0;
    while i < w.count {
        let (f0, r0) = origin[i];
        let target = (l.width - kw - f0, l.height - kh - r0);
        let mut j = 0;
        while j < w.count {
            if origin[j].0 == target.0 && origin[j].1 == target.1 {
                w.turned[i] = j as u8;
            }
            j += 1;
        }
        i += 1;
    }
    // The men-on-square weights are folded into the windows' tables: every square must
    // lie in a window.
    let mut covered = 0u128;
    let mut j = 0;
    while j < w.count {
        let mut k = 0;
        while k < WINDOW_SQUARES {
            covered |= 1 << w.squares[j][k];
            k += 1;
        }
        j += 1;
    }
    assert!(
        covered & l.valid_mask() == l.valid_mask(),
        "every square must lie in a window"
    );
    w
}

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

/// Each 8-bit pattern of men read as base-3 digits 0/1, and the same with the squares in
/// reverse order.
const fn ternary(reverse: bool) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut i = 0;
        while i < 8 {
            let bit = if reverse { 7 - i } else { i };
            if b & (1 << bit) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
}

const TERNARY: [u16; 256] = ternary(false);
const TERNARY_REVERSED: [u16; 256] = ternary(true);

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
    each_window(pos, |j, w, b| pattern::<R, V>(j, w, b, v));
}

/// Calls `f(j, w, b)` for each window `j`, with White's men `w` and Black's `b` on its
/// squares (bit `k` for the window's square `k`).
#[inline(always)]
fn each_window<R: Rules>(pos: &Position<R>, mut f: impl FnMut(usize, usize, usize)) {
    let white = pos.by_color[0] & !pos.kings & !pos.paras;
    let black = pos.by_color[1] & !pos.kings & !pos.paras;
    let windows = &R::WINDOWS;
    for band in 0..windows.bands {
        let (white_band, black_band) = (
            windows.band_bits(white, band),
            windows.band_bits(black, band),
        );
        for j in band * windows.per_band..(band + 1) * windows.per_band {
            f(
                j,
                windows.window_bits(white_band, j),
                windows.window_bits(black_band, j),
            );
        }
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

/// One window's folded table (see [`fold`]).
pub type WindowTable = [[i32; 2]; TABLE_ENTRIES];

/// The search's form of `values`: per window, one entry per pattern (indexed as White's
/// index), holding both sides' pattern weights and the man-on-square weights of the squares
/// the window owns (each square is owned by the first window holding it). A window then
/// costs the search one load, and a man none.
pub(crate) fn fold<R: Rules>(values: &[[i16; 2]]) -> Vec<WindowTable> {
    /// Sums into one entry.
    struct Entry<'a> {
        values: &'a [[i16; 2]],
        sum: [i32; 2],
    }
    impl Visitor for Entry<'_> {
        const CANCELS: bool = true;
        fn add(&mut self, index: usize, sign: i32) {
            let w = self.values[index];
            self.sum[0] += sign * w[0] as i32;
            self.sum[1] += sign * w[1] as i32;
        }
    }
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
        for w in 0..256usize {
            for b in (0..256usize).filter(|b| w & b == 0) {
                let mut e = Entry {
                    values,
                    sum: [0; 2],
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
                window_table[TERNARY[w] as usize + 2 * TERNARY[b] as usize] = e.sum;
            }
        }
    }
    table
}

/// The trained score of `pos` from White's side, in hundredths of a man: the sum of the
/// weights of its [`features`], read from the folded tables.
pub fn white_score<R: Rules>(pos: &Position<R>, weights: &TrainedWeights) -> Score {
    let mut sum = Sum {
        // Of the variant's length, which spares most index checks.
        weights: &weights.values()[..R::WEIGHT_COUNT],
        open: 0,
        end: 0,
    };
    piece_features(pos, &mut sum);
    let tables = &weights.folded::<R>()[..R::WINDOWS.count];
    each_window(pos, |j, w, b| {
        let index = TERNARY[w] as usize + 2 * TERNARY[b] as usize;
        let e = tables[j][index & (TABLE_ENTRIES - 1)];
        sum.open += e[0];
        sum.end += e[1];
    });
    let p = phase(pos);
    (sum.open * p + sum.end * (FULL_PHASE - p)) / (FULL_PHASE * SCALE)
}

/// The trained score of `pos` from the side to move.
pub fn evaluate<R: Rules>(pos: &Position<R>, weights: &TrainedWeights) -> Score {
    let s = white_score(pos, weights);
    if pos.side == Color::White {
        s
    } else {
        -s
    }
}

#[cfg(test)]
mod tests;
