//! Pieces: a colour and a kind.

use crate::core::color::Color;

/// What a piece can do. Parachutists exist only in Parachute checkers.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Kind {
    Man = 0,
    King = 1,
    Parachutist = 2,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(color: Color, kind: Kind) -> Self {
        Piece { color, kind }
    }
    /// Index 0..6 for hashing tables.
    pub const fn index(self) -> usize {
        self.color as usize * 3 + self.kind as usize
    }
    /// The board-string character: `w`/`b` man, `W`/`B` king, `p`/`q` parachutist (white/black).
    pub const fn to_char(self) -> char {
        match (self.color, self.kind) {
            (Color::White, Kind::Man) => 'w',
            (Color::Black, Kind::Man) => 'b',
            (Color::White, Kind::King) => 'W',
            (Color::Black, Kind::King) => 'B',
            (Color::White, Kind::Parachutist) => 'p',
            (Color::Black, Kind::Parachutist) => 'q',
        }
    }
    pub const fn from_char(c: char) -> Option<Piece> {
        Some(match c {
            'w' => Piece::new(Color::White, Kind::Man),
            'b' => Piece::new(Color::Black, Kind::Man),
            'W' => Piece::new(Color::White, Kind::King),
            'B' => Piece::new(Color::Black, Kind::King),
            'p' => Piece::new(Color::White, Kind::Parachutist),
            'q' => Piece::new(Color::Black, Kind::Parachutist),
            _ => return None,
        })
    }
}
