//! A square is a bit index in its board's layout (ghost squares included).

/// A bit index into a board layout; its meaning (file and rank) belongs to the geometry.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(index: u8) -> Self {
        Square(index)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
