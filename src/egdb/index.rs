//! Combinatorial indexing of one material slice: the men of each side on the squares a man
//! may stand on, then the kings of each side on the squares left free, each group ranked in
//! the combinatorial number system; the side to move is the outermost digit.
//!
//! Men of the two sides are ranked independently (not among each other's free squares), so
//! indices whose white and black men overlap are holes: they are stored as
//! [`Value::Invalid`](super::Value) and cost two bits each, a small price for a direct
//! formula.

use std::fmt;

use crate::core::bitboard::Word;
use crate::core::color::Color;
use crate::core::geometry::Geometry;
use crate::core::position::{Position, WordOf};
use crate::core::rules::{Promotion, Rules};

/// The most pieces a table may hold (the binomial table's width).
pub const MAX_PIECES: usize = 12;

const fn binomials() -> [[u64; MAX_PIECES + 1]; 129] {
    let mut t = [[0u64; MAX_PIECES + 1]; 129];
    let mut n = 0;
    while n < 129 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES {
            if n > 0 {
                t[n][k] = t[n - 1][k - 1].saturating_add(t[n - 1][k]);
            }
            k += 1;
        }
        n += 1;
    }
    t
}

static BINOMIAL: [[u64; MAX_PIECES + 1]; 129] = binomials();

/// `n` choose `k` (saturating; 0 when `k > n`).
#[inline(always)]
pub fn choose(n: usize, k: usize) -> u64 {
    if k > MAX_PIECES || n > 128 {
        return if k == 0 { 1 } else { u64::MAX };
    }
    BINOMIAL[n][k]
}

/// The pieces of a slice: men and kings of each side, indexed by colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub men: [u8; 2],
    pub kings: [u8; 2],
}

impl Material {
    pub fn new(white_men: u8, white_kings: u8, black_men: u8, black_kings: u8) -> Self {
        Material {
            men: [white_men, black_men],
            kings: [white_kings, black_kings],
        }
    }
    pub fn of<R: Rules>(pos: &Position<R>) -> Self {
        let kings = pos.kings();
        let side = |c: Color| {
            let p = pos.pieces(c);
            let k = (p & kings).count() as u8;
            (p.count() as u8 - k, k)
        };
        let (w, b) = (side(Color::White), side(Color::Black));
        Material::new(w.0, w.1, b.0, b.1)
    }
    pub fn pieces(&self, c: Color) -> u32 {
        (self.men[c.index()] + self.kings[c.index()]) as u32
    }
    pub fn total(&self) -> u32 {
        self.pieces(Color::White) + self.pieces(Color::Black)
    }
    pub fn total_men(&self) -> u32 {
        (self.men[0] + self.men[1]) as u32
    }
    /// The file name stem: `w1m2k_b0m1k` (white one man two kings, black one king).
    pub fn name(&self) -> String {
        format!(
            "w{}m{}k_b{}m{}k",
            self.men[0], self.kings[0], self.men[1], self.kings[1]
        )
    }
    /// Every material of `2..=pieces` pieces, each side with at least one, allowed by the
    /// variant (no kings where men never crown, no side beyond its start count), in build
    /// order: fewer pieces first, then fewer men (captures lead to fewer pieces, crowning
    /// to fewer men, every other move stays in the slice).
    pub fn all<R: Rules>(pieces: u32) -> Vec<Material> {
        let kings_allowed = R::PROMOTION != Promotion::Never;
        let max_side = |c: usize| (R::START_MEN[c] | R::START_PARACHUTISTS[c]).count_ones();
        let mut out = Vec::new();
        for total in 2..=pieces.min(MAX_PIECES as u32) {
            for w in 1..total {
                let b = total - w;
                if w > max_side(0) || b > max_side(1) {
                    continue;
                }
                for wm in 0..=w {
                    for bm in 0..=b {
                        let (wk, bk) = (w - wm, b - bm);
                        if !kings_allowed && (wk > 0 || bk > 0) {
                            continue;
                        }
                        out.push(Material::new(wm as u8, wk as u8, bm as u8, bk as u8));
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.total(), m.total_men(), *m));
        out
    }
}

impl Material {
    /// Whether a position of `self` can come from one of `other` by moves: no side gains
    /// pieces, and no side gains men (kings come from men, never the reverse).
    pub fn reachable_from(&self, other: &Material) -> bool {
        (0..2).all(|c| self.men[c] <= other.men[c])
            && [Color::White, Color::Black]
                .iter()
                .all(|&c| self.pieces(c) <= other.pieces(c))
    }

    /// The slices a build of `self` needs, `self` last, in build order.
    pub fn needed<R: Rules>(&self) -> Vec<Material> {
        Material::all::<R>(self.total())
            .into_iter()
            .filter(|d| d.reachable_from(self))
            .collect()
    }

    /// Parse a file-name stem (`w0m2k_b0m1k`).
    pub fn parse(text: &str) -> Option<Material> {
        let (w, b) = text.split_once('_')?;
        let side = |s: &str, c: char| -> Option<(u8, u8)> {
            let s = s.strip_prefix(c)?.strip_suffix('k')?;
            let (m, k) = s.split_once('m')?;
            Some((m.parse().ok()?, k.parse().ok()?))
        };
        let (wm, wk) = side(w, 'w')?;
        let (bm, bk) = side(b, 'b')?;
        Some(Material::new(wm, wk, bm, bk))
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The index of one slice of variant `R`.
pub struct Indexer<R: Rules> {
    pub material: Material,
    /// Bit of each playable square, by ordinal (bit order).
    bits: Vec<WordOf<R>>,
    /// Ordinal of each bit index (255: not a square).
    ordinal: [u8; 128],
    /// Per colour: the ordinals a man may stand on, and each ordinal's rank among them.
    man_squares: [Vec<u8>; 2],
    man_rank: [[u8; 128]; 2],
    /// Sizes of the four digits: white men, black men, white kings, black kings.
    sizes: [u64; 4],
    /// Positions per side to move.
    pub half: u64,
}

/// Men of `c` may stand on every square except where they are crowned.
pub fn man_squares<R: Rules>(c: Color) -> u128 {
    let valid = <R::G as Geometry>::VALID.to_u128();
    if R::PROMOTION == Promotion::Never {
        valid
    } else {
        valid & !R::PROMOTION_SQUARES[c.index()]
    }
}

/// Positions of a slice (both sides to move), holes included, without building its index.
pub fn slice_size<R: Rules>(m: &Material) -> u64 {
    let n = <R::G as Geometry>::LAYOUT.squares() as usize;
    let a = man_squares::<R>(Color::White).count_ones() as usize;
    let b = man_squares::<R>(Color::Black).count_ones() as usize;
    let men = (m.men[0] + m.men[1]) as usize;
    let free = n.saturating_sub(men);
    [
        choose(a, m.men[0] as usize),
        choose(b, m.men[1] as usize),
        choose(free, m.kings[0] as usize),
        choose(
            free.saturating_sub(m.kings[0] as usize),
            m.kings[1] as usize,
        ),
        2,
    ]
    .iter()
    .fold(1u64, |acc, &x| acc.saturating_mul(x))
}

impl<R: Rules> Indexer<R> {
    pub fn new(material: Material) -> Self {
        let valid = <R::G as Geometry>::VALID.to_u128();
        let mut bits = Vec::new();
        let mut ordinal = [255u8; 128];
        for i in 0..128u32 {
            if valid >> i & 1 == 1 {
                ordinal[i as usize] = bits.len() as u8;
                bits.push(<R::G as Geometry>::mask(1u128 << i));
            }
        }
        let mut man_squares_: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut man_rank = [[255u8; 128]; 2];
        for c in [Color::White, Color::Black] {
            let allowed = man_squares::<R>(c);
            for i in 0..128u32 {
                if allowed >> i & 1 == 1 {
                    let o = ordinal[i as usize];
                    man_rank[c.index()][o as usize] = man_squares_[c.index()].len() as u8;
                    man_squares_[c.index()].push(o);
                }
            }
        }
        let n = bits.len();
        let men = (material.men[0] + material.men[1]) as usize;
        let free = n.saturating_sub(men);
        let sizes = [
            choose(man_squares_[0].len(), material.men[0] as usize),
            choose(man_squares_[1].len(), material.men[1] as usize),
            choose(free, material.kings[0] as usize),
            choose(
                free.saturating_sub(material.kings[0] as usize),
                material.kings[1] as usize,
            ),
        ];
        let half = sizes.iter().fold(1u64, |a, &x| a.saturating_mul(x));
        Indexer {
            material,
            bits,
            ordinal,
            man_squares: man_squares_,
            man_rank,
            sizes,
            half,
        }
    }

    /// Positions in the slice, both sides to move, holes included.
    pub fn len(&self) -> u64 {
        self.half * 2
    }

    pub fn is_empty(&self) -> bool {
        self.half == 0
    }

    /// The index of `pos`, which must have this slice's material and no parachutists.
    #[allow(clippy::needless_range_loop)]
    #[inline]
    pub fn index(&self, pos: &Position<R>) -> u64 {
        let kings = pos.kings;
        let mut digits = [0u64; 4];
        let mut occupied = 0u128;
        for c in 0..2 {
            let mut r = 0u64;
            let mut k = 0;
            let mut men = pos.by_color[c] & !kings;
            while men != <WordOf<R> as Word>::ZERO {
                let o = self.ordinal[men.lsb() as usize];
                men = men.without_lsb();
                occupied |= 1u128 << o;
                k += 1;
                r += choose(self.man_rank[c][o as usize] as usize, k);
            }
            digits[c] = r;
        }
        for c in 0..2 {
            let mut r = 0u64;
            let mut k = 0;
            let mut ks = pos.by_color[c] & kings;
            let before = occupied;
            while ks != <WordOf<R> as Word>::ZERO {
                let o = self.ordinal[ks.lsb() as usize];
                ks = ks.without_lsb();
                occupied |= 1u128 << o;
                let free_rank = o as u32 - (before & ((1u128 << o) - 1)).count_ones();
                k += 1;
                r += choose(free_rank as usize, k);
            }
            digits[2 + c] = r;
        }
        let mut idx = pos.side.index() as u64;
        for (d, s) in digits.iter().zip(self.sizes) {
            idx = idx * s + d;
        }
        idx
    }

    /// The position at `idx`, or `None` for a hole (white and black men on one square).
    pub fn position(&self, idx: u64) -> Option<Position<R>> {
        let side = if idx / self.half == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut r = idx % self.half;
        let mut digits = [0u64; 4];
        for i in (0..4).rev() {
            digits[i] = r % self.sizes[i];
            r /= self.sizes[i];
        }
        let zero = <WordOf<R> as Word>::ZERO;
        let mut by_color = [zero; 2];
        let mut kings = zero;
        let mut occupied = 0u128;
        let mut ranks = [0u8; MAX_PIECES];
        for c in 0..2 {
            let k = self.material.men[c] as usize;
            unrank(digits[c], k, self.man_squares[c].len(), &mut ranks);
            for &rank in &ranks[..k] {
                let o = self.man_squares[c][rank as usize];
                if occupied >> o & 1 == 1 {
                    return None;
                }
                occupied |= 1u128 << o;
                by_color[c] |= self.bits[o as usize];
            }
        }
        let n = self.bits.len();
        for c in 0..2 {
            let k = self.material.kings[c] as usize;
            let before = occupied;
            let free = n - before.count_ones() as usize;
            unrank(digits[2 + c], k, free, &mut ranks);
            for &rank in &ranks[..k] {
                let o = select_free(before, rank as u32);
                occupied |= 1u128 << o;
                by_color[c] |= self.bits[o as usize];
                kings |= self.bits[o as usize];
            }
        }
        Some(Position::from_boards_unhashed(by_color, kings, side))
    }
}

/// The `k` sorted elements below `n` of the combination of rank `r`.
#[inline]
fn unrank(mut r: u64, k: usize, n: usize, out: &mut [u8; MAX_PIECES]) {
    let mut c = n;
    for i in (1..=k).rev() {
        c -= 1;
        while choose(c, i) > r {
            c -= 1;
        }
        r -= choose(c, i);
        out[i - 1] = c as u8;
    }
}

/// The ordinal of the `rank`-th square (from 0) not in `occupied`.
#[inline]
fn select_free(occupied: u128, rank: u32) -> u32 {
    let mut free = !occupied;
    for _ in 0..rank {
        free &= free - 1;
    }
    free.trailing_zeros()
}
