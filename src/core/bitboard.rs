//! Bit sets over a board's squares, generic over the machine word that holds them.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use crate::core::square::Square;

/// The integer behind a bitboard: `u64` for boards of up to 64 bits, `u128` beyond.
pub trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    const ONE: Self;
    fn popcount(self) -> u32;
    fn lsb(self) -> u32;
    /// `self` without its lowest bit (two instructions, where clearing bit `lsb()` by a
    /// shifted one takes four).
    fn without_lsb(self) -> Self;
    fn from_u128(x: u128) -> Self;
    fn to_u128(self) -> u128;
}

macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn popcount(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn without_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
        }
    };
}
impl_word!(u64);
impl_word!(u128);

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard<W: Word>(pub W);

impl<W: Word> Bitboard<W> {
    pub const EMPTY: Self = Bitboard(W::ZERO);

    #[inline(always)]
    pub fn from_square(sq: Square) -> Self {
        Bitboard(W::ONE << sq.index() as u32)
    }
    #[inline(always)]
    pub fn contains(self, sq: Square) -> bool {
        self.0 & (W::ONE << sq.index() as u32) != W::ZERO
    }
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.popcount()
    }
    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(Square::new(self.0.lsb() as u8))
        }
    }
    #[inline(always)]
    pub fn with(self, sq: Square) -> Self {
        self | Self::from_square(sq)
    }
    #[inline(always)]
    pub fn without(self, sq: Square) -> Self {
        Bitboard(self.0 & !Self::from_square(sq).0)
    }
}

impl<W: Word> Iterator for Bitboard<W> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == W::ZERO {
            return None;
        }
        let i = self.0.lsb();
        self.0 ^= W::ONE << i;
        Some(Square::new(i as u8))
    }
}

impl<W: Word> Debug for Bitboard<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<W: Word> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Bitboard(self.0 $op o.0)
            }
        }
        impl<W: Word> $tra for Bitboard<W> {
            #[inline(always)]
            fn $fa(&mut self, o: Self) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: Word> Not for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}
