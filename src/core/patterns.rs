//! Pattern windows: small blocks of squares, 4×4 on dark-square boards and 4×2 on full
//! boards, laid over the board at every even file and rank (and their mirrors). The men of
//! both colours on a window's eight squares, read as base-3 digits (none 0, White 1, Black
//! 2), make its pattern index. The search plays through [`IndexedPosition`]s, which carry
//! their windows' indices, kept up to date move by move (see [`pattern_deltas`]), for the
//! trained evaluation to read.

use crate::core::bitboard::{Bitboard, Word};
use crate::core::color::Color;
use crate::core::geometry::{Geometry, Layout, Shape};
use crate::core::position::{MoveOf, Position, WordOf};
use crate::core::rules::Rules;
use crate::core::square::Square;

/// Most windows a board has (12×12: 25).
pub const MAX_WINDOWS: usize = 32;
/// Squares in a window.
pub const WINDOW_SQUARES: usize = 8;
/// Entries of one pattern table: 3^8.
pub const PATTERNS: usize = 6561;

/// The windows of one board layout.
#[derive(Clone, Copy, Debug)]
pub struct Windows {
    pub count: usize,
    /// Bit index of each square, rank by rank from White's side.
    pub squares: [[u8; WINDOW_SQUARES]; MAX_WINDOWS],
    /// The window the board turned 180° maps this one to (its squares in reverse order).
    pub turned: [u8; MAX_WINDOWS],
}

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
    let mut w = Windows {
        count: 0,
        squares: [[0; WINDOW_SQUARES]; MAX_WINDOWS],
        turned: [0; MAX_WINDOWS],
    };
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

pub const TERNARY: [u16; 256] = ternary(false);
pub const TERNARY_REVERSED: [u16; 256] = ternary(true);

/// The men of each pattern index: White's and Black's, bit `k` for the window's square `k`.
pub const WINDOW_MEN: [[u8; 2]; PATTERNS] = {
    let mut t = [[0u8; 2]; PATTERNS];
    let mut index = 0;
    while index < PATTERNS {
        let mut rest = index;
        let mut k = 0;
        while k < WINDOW_SQUARES {
            match rest % 3 {
                1 => t[index][0] |= 1 << k,
                2 => t[index][1] |= 1 << k,
                _ => {}
            }
            rest /= 3;
            k += 1;
        }
        index += 1;
    }
    t
};

/// Per square, what a White man there adds to each window's index (3 to the power of its
/// place in the window, 0 for windows without it); a Black man adds twice as much.
/// `lanes` is the length of the geometry's index array, which must hold every window.
pub const fn pattern_deltas(l: &Layout, lanes: usize) -> [[u16; MAX_WINDOWS]; 128] {
    let w = windows(l);
    assert!(w.count <= lanes, "the index array must hold every window");
    let mut d = [[0u16; MAX_WINDOWS]; 128];
    let mut j = 0;
    while j < w.count {
        let mut k = 0;
        let mut power = 1u16;
        while k < WINDOW_SQUARES {
            d[w.squares[j][k] as usize][j] = power;
            power *= 3;
            k += 1;
        }
        j += 1;
    }
    d
}

/// The index array of variant `R`'s board: one lane per window.
pub type PatternsOf<R> = <<R as Rules>::G as Geometry>::Patterns;

/// A position with its windows' pattern indices, kept up to date move by move as the hash
/// is: what the search plays through, so that the evaluation reads each window's index instead
/// of gathering its men. (Perft and the rest use the plain [`Position`].)
pub struct IndexedPosition<R: Rules> {
    position: Position<R>,
    patterns: PatternsOf<R>,
}

impl<R: Rules> Clone for IndexedPosition<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Rules> Copy for IndexedPosition<R> {}

impl<R: Rules> std::fmt::Debug for IndexedPosition<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.position.fmt(f)
    }
}

impl<R: Rules> IndexedPosition<R> {
    pub fn new(position: Position<R>) -> Self {
        IndexedPosition {
            position,
            patterns: compute_patterns(&position),
        }
    }

    pub fn position(&self) -> &Position<R> {
        &self.position
    }

    /// The windows' indices, in the order of [`windows`].
    #[inline(always)]
    pub fn pattern_indices(&self) -> &[u16] {
        self.patterns.as_ref()
    }

    /// The position after a legal move, its indices updated: a man lifted from the start
    /// square, put on the end square unless it crowns (a parachutist that moves becomes a
    /// man), and the men it takes lifted.
    #[inline]
    pub fn after(&self, m: &MoveOf<R>) -> Self {
        let pos = &self.position;
        let zero = <WordOf<R> as Word>::ZERO;
        let one = <WordOf<R> as Word>::ONE;
        let us = pos.side;
        let from = one << m.from.index() as u32;
        let mut patterns = self.patterns;
        let king = pos.kings & from != zero;
        if !king && pos.paras & from == zero {
            shift_patterns::<R>(&mut patterns, m.from, us, false);
        }
        if !m.removes_own() && !king && !m.promotes() {
            shift_patterns::<R>(&mut patterns, m.to, us, true);
        }
        for sq in Bitboard(m.captured.0 & !pos.kings & !pos.paras) {
            shift_patterns::<R>(&mut patterns, sq, us.opposite(), false);
        }
        IndexedPosition {
            position: pos.after(m),
            patterns,
        }
    }
}

impl<R: Rules> std::ops::Deref for IndexedPosition<R> {
    type Target = Position<R>;
    fn deref(&self) -> &Position<R> {
        &self.position
    }
}

/// The windows' indices of `pos`, computed from its men.
pub fn compute_patterns<R: Rules>(pos: &Position<R>) -> PatternsOf<R> {
    let mut p = PatternsOf::<R>::default();
    for c in [Color::White, Color::Black] {
        let men = pos.by_color[c.index()] & !pos.kings & !pos.paras;
        for sq in Bitboard(men) {
            shift_patterns::<R>(&mut p, sq, c, true);
        }
    }
    p
}

/// Put (`add`) or lift a man of colour `c` on `sq` in the indices `p`.
#[inline(always)]
fn shift_patterns<R: Rules>(p: &mut PatternsOf<R>, sq: Square, c: Color, add: bool) {
    let delta = &R::G::PATTERN_DELTA[sq.index()];
    let twice = c.index() as u32;
    for (i, &d) in p.as_mut().iter_mut().zip(delta) {
        let d = d << twice;
        *i = if add {
            i.wrapping_add(d)
        } else {
            i.wrapping_sub(d)
        };
    }
}
