//! Board geometries: how (file, rank) maps to bits, and the tables that let one shift move
//! every piece a step. Dark-square boards use ghost bits (one after every two rows) so that
//! a diagonal step is the same shift on every row; full boards and point boards use a row-major
//! layout with per-direction masks.

use crate::core::bitboard::Word;
use crate::core::patterns::{pattern_deltas, MAX_WINDOWS};
use crate::core::square::Square;

/// A direction, numbered clockwise from north (White's forward).
pub type Dir = usize;
pub const N: Dir = 0;
pub const NE: Dir = 1;
pub const E: Dir = 2;
pub const SE: Dir = 3;
pub const S: Dir = 4;
pub const SW: Dir = 5;
pub const W: Dir = 6;
pub const NW: Dir = 7;

/// (file, rank) offsets of each direction.
pub const DELTA: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

#[inline(always)]
pub const fn opposite(d: Dir) -> Dir {
    (d + 4) & 7
}

/// Runs the block once for each direction `0..8`, unrolled: with `$d` a constant in each copy,
/// the direction tables and the rules' direction sets fold away (a loop kept them as loads and
/// tests at every node). `continue` inside the block moves on to the next direction.
macro_rules! each_dir {
    (for $d:ident $body:block) => {
        each_dir!(@ $d $body 0 1 2 3 4 5 6 7)
    };
    (@ $d:ident $body:block $($k:literal)*) => {
        $(
            #[allow(clippy::single_element_loop)]
            for $d in [$k as $crate::core::geometry::Dir] $body
        )*
    };
}
pub(crate) use each_dir;

/// A set of directions, bit `d` for direction `d`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct DirSet(pub u8);

impl DirSet {
    pub const NONE: DirSet = DirSet(0);
    pub const DIAGONAL: DirSet = DirSet(0b1010_1010);
    pub const ORTHOGONAL: DirSet = DirSet(0b0101_0101);
    pub const ALL: DirSet = DirSet(0xff);
    pub const fn of(dirs: &[Dir]) -> DirSet {
        let mut m = 0u8;
        let mut i = 0;
        while i < dirs.len() {
            m |= 1 << dirs[i];
            i += 1;
        }
        DirSet(m)
    }
    /// The same directions seen from the other side of the board.
    pub const fn turned(self) -> DirSet {
        DirSet(self.0.rotate_left(4))
    }
    #[inline(always)]
    pub const fn has(self, d: Dir) -> bool {
        self.0 & (1 << d) != 0
    }
    pub const fn union(self, o: DirSet) -> DirSet {
        DirSet(self.0 | o.0)
    }
    pub const fn without(self, d: Dir) -> DirSet {
        DirSet(self.0 & !(1 << d))
    }
}

/// How squares are laid out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// Only the dark squares (a1 dark), ghost bit after every two rows.
    Dark,
    /// Every square, row-major from the top rank.
    Full,
    /// Alquerque's points: every point, diagonal lines only through points with file+rank even.
    Points,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Layout {
    pub shape: Shape,
    pub width: u8,
    pub height: u8,
}

impl Layout {
    /// Number of bits spanned, ghosts included.
    pub const fn span(&self) -> u32 {
        let (w, h) = (self.width as u32, self.height as u32);
        match self.shape {
            Shape::Dark => {
                let n = w * h / 2;
                n + (n - 1) / w
            }
            _ => w * h,
        }
    }
    /// Number of playable squares.
    pub const fn squares(&self) -> u32 {
        match self.shape {
            Shape::Dark => self.width as u32 * self.height as u32 / 2,
            _ => self.width as u32 * self.height as u32,
        }
    }
    pub const fn on_board(&self, file: i32, rank: i32) -> bool {
        file >= 0
            && rank >= 0
            && file < self.width as i32
            && rank < self.height as i32
            && (!matches!(self.shape, Shape::Dark) || (file + rank) % 2 == 0)
    }
    /// The bit of (file, rank), 0-based from White's lower left; `None` off the board.
    pub const fn index(&self, file: i32, rank: i32) -> Option<u32> {
        if !self.on_board(file, rank) {
            return None;
        }
        let w = self.width as i32;
        let row = self.height as i32 - 1 - rank;
        Some(match self.shape {
            Shape::Dark => {
                let sq = row * (w / 2) + file / 2;
                (sq + sq / w) as u32
            }
            _ => (row * w + file) as u32,
        })
    }
    /// The (file, rank) of a bit; `None` for ghosts and bits beyond the board.
    pub const fn coords(&self, index: u32) -> Option<(u8, u8)> {
        if index >= self.span() {
            return None;
        }
        let w = self.width as u32;
        match self.shape {
            Shape::Dark => {
                if index % (w + 1) == w {
                    return None;
                }
                let sq = index - index / (w + 1);
                let row = sq / (w / 2);
                let rank = self.height as u32 - 1 - row;
                let file = 2 * (sq % (w / 2)) + rank % 2;
                Some((file as u8, rank as u8))
            }
            _ => Some((
                (index % w) as u8,
                (self.height as u32 - 1 - index / w) as u8,
            )),
        }
    }
    /// The bit offset of one step in direction `d` (meaningful only where the step exists).
    pub const fn shift(&self, d: Dir) -> i32 {
        let w = self.width as i32;
        match self.shape {
            Shape::Dark => {
                let h = w / 2;
                match d {
                    NE => -h,
                    NW => -(h + 1),
                    SE => h + 1,
                    SW => h,
                    // Orthogonal steps skip the light square between: two ranks or files.
                    N => -(w + 1),
                    S => w + 1,
                    E => 1,
                    _ => -1,
                }
            }
            _ => -DELTA[d].1 * w + DELTA[d].0,
        }
    }
    /// The (file, rank) offset of one step in direction `d`. On the dark squares an
    /// orthogonal step goes to the next dark square of the rank or file, two squares on
    /// (Frisian's orthogonal captures); no variant plays orthogonal plain moves there.
    pub const fn delta(&self, d: Dir) -> (i32, i32) {
        let (df, dr) = DELTA[d];
        match self.shape {
            Shape::Dark if d.is_multiple_of(2) => (2 * df, 2 * dr),
            _ => (df, dr),
        }
    }
    /// Whether a step from (file, rank) in direction `d` follows a line of the board.
    pub const fn has_step(&self, file: i32, rank: i32, d: Dir) -> bool {
        if !self.on_board(file, rank) {
            return false;
        }
        let (df, dr) = self.delta(d);
        if !self.on_board(file + df, rank + dr) {
            return false;
        }
        match self.shape {
            Shape::Dark | Shape::Full => true,
            Shape::Points => d.is_multiple_of(2) || (file + rank) % 2 == 0,
        }
    }
    pub const fn valid_mask(&self) -> u128 {
        let mut m = 0u128;
        let mut i = 0;
        while i < self.span() {
            if self.coords(i).is_some() {
                m |= 1 << i;
            }
            i += 1;
        }
        m
    }
    /// Squares from which a step in each direction stays on a line of the board.
    pub const fn can_step(&self) -> [u128; 8] {
        let mut out = [0u128; 8];
        let mut i = 0;
        while i < self.span() {
            if let Some((f, r)) = self.coords(i) {
                let mut d = 0;
                while d < 8 {
                    if self.has_step(f as i32, r as i32, d) {
                        let (df, dr) = self.delta(d);
                        let target = match self.index(f as i32 + df, r as i32 + dr) {
                            Some(t) => t as i32,
                            None => panic!("step leads off the layout"),
                        };
                        assert!(target == i as i32 + self.shift(d), "shift table mismatch");
                        out[d] |= 1 << i;
                    }
                    d += 1;
                }
            }
            i += 1;
        }
        out
    }
    /// Per square, the squares `dist` steps away along a line of the board (in any direction;
    /// on dark squares along the diagonals only: the tables serve short kings, and those
    /// capture only diagonally there).
    pub const fn rings(&self, dist: u32) -> [u128; 128] {
        let mut out = [0u128; 128];
        let mut i = 0;
        while i < self.span() {
            if let Some((f, r)) = self.coords(i) {
                let mut d = 0;
                while d < 8 {
                    let (mut x, mut y) = (f as i32, r as i32);
                    let mut k = 0;
                    let line = !matches!(self.shape, Shape::Dark) || d % 2 == 1;
                    while line && k < dist && self.has_step(x, y, d) {
                        x += DELTA[d].0;
                        y += DELTA[d].1;
                        k += 1;
                    }
                    if k == dist {
                        if let Some(t) = self.index(x, y) {
                            out[i as usize] |= 1 << t;
                        }
                    }
                    d += 1;
                }
            }
            i += 1;
        }
        out
    }
    /// Squares of one rank (0 = White's edge).
    pub const fn rank_mask(&self, rank: u8) -> u128 {
        let mut m = 0u128;
        let mut f = 0;
        while f < self.width as i32 {
            if let Some(i) = self.index(f, rank as i32) {
                m |= 1 << i;
            }
            f += 1;
        }
        m
    }
    /// Squares of the ranks `from..to`.
    pub const fn ranks_mask(&self, from: u8, to: u8) -> u128 {
        let mut m = 0u128;
        let mut r = from;
        while r < to {
            m |= self.rank_mask(r);
            r += 1;
        }
        m
    }
    /// Squares named in algebraic notation, separated by blanks (`b"a1 c1 e1"`).
    pub const fn named(&self, names: &[u8]) -> u128 {
        let mut m = 0u128;
        let mut i = 0;
        while i < names.len() {
            if names[i] == b' ' {
                i += 1;
                continue;
            }
            let file = (names[i] - b'a') as i32;
            i += 1;
            let mut rank = 0i32;
            while i < names.len() && names[i] != b' ' {
                rank = rank * 10 + (names[i] - b'0') as i32;
                i += 1;
            }
            match self.index(file, rank - 1) {
                Some(b) => m |= 1 << b,
                None => panic!("square not on this board"),
            }
        }
        m
    }
}

pub const fn narrow8(a: [u128; 8]) -> [u64; 8] {
    let mut out = [0u64; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = a[i] as u64;
        i += 1;
    }
    out
}

/// A board: its layout and the derived tables, in the word that holds it.
pub trait Geometry: Copy + Send + Sync + 'static {
    type W: Word;
    const LAYOUT: Layout;
    const VALID: Self::W;
    const CAN_STEP: [Self::W; 8];
    const SHIFT: [i32; 8] = shifts(&Self::LAYOUT);
    /// Per square, its neighbours along the lines, and the squares two steps away: a short
    /// jump from a square needs an enemy in the first and an empty square in the second.
    const RING1: [u128; 128] = Self::LAYOUT.rings(1);
    const RING2: [u128; 128] = Self::LAYOUT.rings(2);
    /// The pattern index of each window (see [`crate::core::patterns`]), one lane per window.
    type Patterns: Copy + Default + AsRef<[u16]> + AsMut<[u16]> + Send + Sync;
    const PATTERN_LANES: usize;
    const PATTERN_DELTA: [[u16; MAX_WINDOWS]; 128] =
        pattern_deltas(&Self::LAYOUT, Self::PATTERN_LANES);

    /// Move every square of `bb` one step in direction `d`, dropping those that would leave
    /// the board's lines.
    #[inline(always)]
    fn step(bb: Self::W, d: Dir) -> Self::W {
        let m = bb & Self::CAN_STEP[d];
        let s = Self::SHIFT[d];
        if s > 0 {
            m << s as u32
        } else {
            m >> (-s) as u32
        }
    }
    /// The square one step from `sq`, if that step exists.
    #[inline(always)]
    fn neighbour(sq: Square, d: Dir) -> Option<Square> {
        if (Self::CAN_STEP[d] >> sq.index() as u32) & <Self::W as Word>::ONE
            == <Self::W as Word>::ZERO
        {
            None
        } else {
            Some(Square::new((sq.index() as i32 + Self::SHIFT[d]) as u8))
        }
    }
    fn coords(sq: Square) -> Option<(u8, u8)> {
        Self::LAYOUT.coords(sq.index() as u32)
    }
    fn square_at(file: i32, rank: i32) -> Option<Square> {
        Self::LAYOUT.index(file, rank).map(|i| Square::new(i as u8))
    }
    /// The playable squares in bit order.
    fn squares() -> Vec<Square> {
        (0..Self::LAYOUT.span())
            .filter(|&i| Self::LAYOUT.coords(i).is_some())
            .map(|i| Square::new(i as u8))
            .collect()
    }
    fn mask(m: u128) -> Self::W {
        <Self::W as Word>::from_u128(m)
    }
}

pub const fn shifts(l: &Layout) -> [i32; 8] {
    let mut out = [0; 8];
    let mut d = 0;
    while d < 8 {
        out[d] = l.shift(d);
        d += 1;
    }
    out
}

macro_rules! geometry {
    ($name:ident, $doc:literal, $w:ty, $shape:expr, $width:expr, $height:expr, $narrow:expr, $lanes:expr) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name;
        impl Geometry for $name {
            type W = $w;
            const LAYOUT: Layout = Layout {
                shape: $shape,
                width: $width,
                height: $height,
            };
            const VALID: $w = Self::LAYOUT.valid_mask() as $w;
            const CAN_STEP: [$w; 8] = $narrow(Self::LAYOUT.can_step());
            type Patterns = [u16; $lanes];
            const PATTERN_LANES: usize = $lanes;
        }
    };
}

const fn same(a: [u128; 8]) -> [u128; 8] {
    a
}

geometry!(
    Dark8,
    "8×8, dark squares: 32 squares in 35 bits.",
    u64,
    Shape::Dark,
    8,
    8,
    narrow8,
    16
);
geometry!(
    Dark10,
    "10×10, dark squares: 50 squares in 55 bits.",
    u64,
    Shape::Dark,
    10,
    10,
    narrow8,
    16
);
geometry!(
    Dark12,
    "12×12, dark squares: 72 squares in 77 bits.",
    u128,
    Shape::Dark,
    12,
    12,
    same,
    32
);
geometry!(
    Full8,
    "8×8, every square, with orthogonal and diagonal lines.",
    u64,
    Shape::Full,
    8,
    8,
    narrow8,
    16
);
geometry!(
    Points5,
    "Alquerque's 5×5 points.",
    u64,
    Shape::Points,
    5,
    5,
    narrow8,
    16
);
