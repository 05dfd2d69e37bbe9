//! A move: from, to, and the captured squares; applied by XOR.

use crate::core::bitboard::{Bitboard, Word};
use crate::core::square::Square;

/// A legal move. Two capture paths with the same from, to and captured set are the same move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move<W: Word> {
    pub from: Square,
    pub to: Square,
    pub captured: Bitboard<W>,
    pub flags: u8,
}

impl<W: Word> Move<W> {
    /// The moving man (or parachutist) becomes a king.
    pub const PROMOTES: u8 = 1;
    /// Konane's opening move: the player lifts one of its own pieces at `from` (= `to`).
    pub const REMOVES_OWN: u8 = 2;

    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }
    #[inline(always)]
    pub fn promotes(&self) -> bool {
        self.flags & Self::PROMOTES != 0
    }
    #[inline(always)]
    pub fn removes_own(&self) -> bool {
        self.flags & Self::REMOVES_OWN != 0
    }
    /// Same from, to and captured set (the flags follow from those).
    #[inline(always)]
    pub fn same_as(&self, o: &Self) -> bool {
        self.from == o.from && self.to == o.to && self.captured == o.captured
    }
}
