//! The bounds of every number a person or a client may give the engine. The command line
//! (`damas analyse`, `play`, `perft`, `match`, `book`) and the Hub protocol (`set-param`,
//! `level`) read their numbers through these, so both accept the same values and refuse
//! the others with the same words.

use std::fmt;
use std::time::Duration;

use crate::search::MAX_PLY;

/// An inclusive range of whole numbers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Whole {
    pub min: u64,
    pub max: u64,
}

/// An inclusive range of decimal numbers in some unit (seconds, men).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Real {
    pub min: f64,
    pub max: f64,
    /// What the number counts, in the plural (`seconds`).
    pub unit: &'static str,
}

/// Search threads (`--threads`, Hub `threads`), and games or book positions worked on at
/// once (`match --concurrency`, `book build --threads`).
pub const THREADS: Whole = Whole { min: 1, max: 256 };
/// Transposition table size in MB (`--hash`, Hub `hash`).
pub const HASH_MB: Whole = Whole {
    min: 1,
    max: 1 << 16,
};
/// Lines reported by an analysis (`--multipv`, Hub `multipv`).
pub const MULTIPV: Whole = Whole { min: 1, max: 64 };
/// Search depth in plies (`--depth`, Hub `level depth=`): the search's own deepest ply, less
/// the room it keeps for extensions.
pub const DEPTH: Whole = Whole {
    min: 1,
    max: MAX_PLY as u64 - 8,
};
/// Nodes per search (`--nodes`, Hub `level nodes=`).
pub const NODES: Whole = Whole {
    min: 1,
    max: 1_000_000_000_000_000,
};
/// Seconds per move (`--movetime`, Hub `level move-time=`): up to about eleven days.
pub const MOVE_TIME: Real = Real {
    min: 0.0,
    max: 1_000_000.0,
    unit: "seconds",
};
/// Other spans of time given in seconds: a match's clock, increment, grace and move
/// timeout.
pub const SECONDS: Real = MOVE_TIME;
/// A book margin or drop-out, in men (`--margin`, `--drop-out`, Hub `book-margin`): past a
/// few men every book move is as good as any.
pub const BOOK_MARGIN: Real = Real {
    min: 0.0,
    max: 10.0,
    unit: "men",
};
/// Moves to the next time control (Hub `level moves=`).
pub const MOVES_TO_GO: Whole = Whole {
    min: 1,
    max: 10_000,
};
/// Perft depth: deeper than any published count (English is known to depth 28 or so); a
/// larger depth would run for years, not give an answer.
pub const PERFT_DEPTH: Whole = Whole { min: 0, max: 40 };
/// Games per pair of players in a match.
pub const GAMES: Whole = Whole {
    min: 1,
    max: 1_000_000,
};
/// Plies after which a match game is adjudicated a draw.
pub const MAX_PLIES: Whole = Whole {
    min: 1,
    max: 100_000,
};
/// How deep, in plies from the start, a book is built.
pub const BOOK_PLIES: Whole = Whole { min: 1, max: 60 };
/// Pieces of an endgame table build or probe (what memory allows is checked apart).
pub const EGDB_PIECES: Whole = Whole { min: 2, max: 64 };
/// Pieces up to which the search probes the endgame tables (0: not at all).
pub const EGDB_PROBE_PIECES: Whole = Whole { min: 0, max: 12 };

/// A number outside its range, or not a number at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OutOfRange {
    /// What was expected, e.g. `a whole number from 1 to 256`.
    pub expected: String,
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)
    }
}

impl std::error::Error for OutOfRange {}

impl Whole {
    /// `a whole number from MIN to MAX`.
    pub fn describe(&self) -> String {
        format!("a whole number from {} to {}", self.min, self.max)
    }

    pub fn contains(&self, n: u64) -> bool {
        (self.min..=self.max).contains(&n)
    }

    /// Read a number in the range (surrounding blanks allowed).
    pub fn parse(&self, text: &str) -> Result<u64, OutOfRange> {
        match text.trim().parse::<u64>() {
            Ok(n) if self.contains(n) => Ok(n),
            _ => Err(OutOfRange {
                expected: self.describe(),
            }),
        }
    }

    /// [`Whole::parse`] for a `usize` setting.
    pub fn parse_usize(&self, text: &str) -> Result<usize, OutOfRange> {
        self.parse(text).and_then(|n| {
            usize::try_from(n).map_err(|_| OutOfRange {
                expected: self.describe(),
            })
        })
    }

    /// [`Whole::parse`] for a `u32` setting.
    pub fn parse_u32(&self, text: &str) -> Result<u32, OutOfRange> {
        self.parse(text).and_then(|n| {
            u32::try_from(n).map_err(|_| OutOfRange {
                expected: self.describe(),
            })
        })
    }
}

impl Real {
    /// `UNIT from MIN to MAX`.
    pub fn describe(&self) -> String {
        format!("{} from {} to {}", self.unit, self.min, self.max)
    }

    pub fn contains(&self, x: f64) -> bool {
        x.is_finite() && (self.min..=self.max).contains(&x)
    }

    /// Read a number in the range.
    pub fn parse(&self, text: &str) -> Result<f64, OutOfRange> {
        match text.trim().parse::<f64>() {
            Ok(x) if self.contains(x) => Ok(x),
            _ => Err(OutOfRange {
                expected: self.describe(),
            }),
        }
    }

    /// Read a number of seconds in the range (for a range in seconds).
    pub fn parse_duration(&self, text: &str) -> Result<Duration, OutOfRange> {
        self.parse(text)
            .map(|t| Duration::from_secs_f64(t.max(0.0)))
    }
}
