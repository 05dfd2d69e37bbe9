//! Self-play training data: one fixed-size record per position, so files from several
//! machines or shards concatenate into one data set.
//!
//! A record is 80 bytes, little-endian:
//!
//! ```text
//!  0..16  u128  White's pieces      (bit masks in the variant's own bit layout)
//! 16..32  u128  Black's pieces
//! 32..48  u128  kings
//! 48..64  u128  parachutists
//! 64..68  u32   game number (as `selfplay` numbers its games: shards never share one)
//! 68..70  u16   ply of the game
//! 70..72  i16   the search's score, hundredths of a man, from the side to move
//! 72      u8    side to move: 0 White, 1 Black
//! 73      u8    result: 0 Black won, 1 drawn, 2 White won
//! 74      u8    flags: 1 quiet (no capture to make), 2 last position of its game
//! 75      u8    format version (1)
//! 76..80  u32   variant tag: FNV-1a of the variant's name and options
//! ```

use std::fmt;

use crate::core::bitboard::{Bitboard, Word};
use crate::core::color::Color;
use crate::core::position::{Position, PositionError, Setup, WordOf};
use crate::core::rules::Rules;

pub const RECORD_BYTES: usize = 80;
const VERSION: u8 = 1;
pub const QUIET: u8 = 1;
pub const LAST: u8 = 2;

/// One training position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    pub pieces: [u128; 2],
    pub kings: u128,
    pub parachutists: u128,
    pub game: u32,
    pub ply: u16,
    pub score: i16,
    pub side: Color,
    /// 0 Black won, 1 drawn, 2 White won.
    pub result: u8,
    pub flags: u8,
}

/// Why a data file was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DataError {
    /// The file's length is not a whole number of records.
    Length(usize),
    BadRecord {
        index: usize,
        reason: String,
    },
    WrongVariant {
        index: usize,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Length(n) => write!(f, "{n} bytes is not a whole number of records"),
            DataError::BadRecord { index, reason } => write!(f, "record {index}: {reason}"),
            DataError::WrongVariant { index } => {
                write!(f, "record {index} belongs to another variant")
            }
        }
    }
}

impl std::error::Error for DataError {}

/// The tag that marks a variant's records (FNV-1a, 32 bits, of `name`).
pub fn variant_tag(name: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl Record {
    pub fn of<R: Rules>(pos: &Position<R>, game: u32, ply: u16, score: i16, quiet: bool) -> Self {
        let s = pos.setup();
        Record {
            pieces: [s.by_color[0].0.to_u128(), s.by_color[1].0.to_u128()],
            kings: s.kings.0.to_u128(),
            parachutists: s.parachutists.0.to_u128(),
            game,
            ply,
            score,
            side: s.side,
            result: 1,
            flags: if quiet { QUIET } else { 0 },
        }
    }

    pub fn quiet(&self) -> bool {
        self.flags & QUIET != 0
    }

    /// The result for White: 1, ½ or 0.
    pub fn white_result(&self) -> f32 {
        self.result as f32 / 2.0
    }

    pub fn position<R: Rules>(&self) -> Result<Position<R>, PositionError> {
        let w = |x: u128| Bitboard(<WordOf<R> as Word>::from_u128(x));
        Position::from_setup(&Setup {
            side: self.side,
            by_color: [w(self.pieces[0]), w(self.pieces[1])],
            kings: w(self.kings),
            parachutists: w(self.parachutists),
        })
    }

    pub fn write(&self, tag: u32, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.pieces[0].to_le_bytes());
        out.extend_from_slice(&self.pieces[1].to_le_bytes());
        out.extend_from_slice(&self.kings.to_le_bytes());
        out.extend_from_slice(&self.parachutists.to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.side.index() as u8);
        out.push(self.result);
        out.push(self.flags);
        out.push(VERSION);
        out.extend_from_slice(&tag.to_le_bytes());
    }

    /// Read record `index` of a file; `tag` must match.
    pub fn read(bytes: &[u8], index: usize, tag: u32) -> Result<Record, DataError> {
        let b = &bytes[index * RECORD_BYTES..(index + 1) * RECORD_BYTES];
        let u128_at = |i: usize| {
            let mut a = [0u8; 16];
            a.copy_from_slice(&b[i..i + 16]);
            u128::from_le_bytes(a)
        };
        let bad = |reason: &str| DataError::BadRecord {
            index,
            reason: reason.to_string(),
        };
        if b[75] != VERSION {
            return Err(bad("unknown format version"));
        }
        if u32::from_le_bytes([b[76], b[77], b[78], b[79]]) != tag {
            return Err(DataError::WrongVariant { index });
        }
        let side = match b[72] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(bad("side to move is neither 0 nor 1")),
        };
        if b[73] > 2 {
            return Err(bad("result is not 0, 1 or 2"));
        }
        Ok(Record {
            pieces: [u128_at(0), u128_at(16)],
            kings: u128_at(32),
            parachutists: u128_at(48),
            game: u32::from_le_bytes([b[64], b[65], b[66], b[67]]),
            ply: u16::from_le_bytes([b[68], b[69]]),
            score: i16::from_le_bytes([b[70], b[71]]),
            side,
            result: b[73],
            flags: b[74],
        })
    }

    /// Every record of `bytes`, which must all carry `tag`.
    pub fn read_all(bytes: &[u8], tag: u32) -> Result<Vec<Record>, DataError> {
        if !bytes.len().is_multiple_of(RECORD_BYTES) {
            return Err(DataError::Length(bytes.len()));
        }
        (0..bytes.len() / RECORD_BYTES)
            .map(|i| Record::read(bytes, i, tag))
            .collect()
    }
}
