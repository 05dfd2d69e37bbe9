//! Value parsers for the command line's numbers: each reads its number through the engine's
//! shared limits (`crate::engine::limits`), so a bad value is refused with one line naming
//! the option and the accepted range, and the Hub accepts exactly the same values.

use std::time::Duration;

use crate::engine::limits::{self, OutOfRange};

pub fn threads(s: &str) -> Result<usize, OutOfRange> {
    limits::THREADS.parse_usize(s)
}

pub fn hash_mb(s: &str) -> Result<usize, OutOfRange> {
    limits::HASH_MB.parse_usize(s)
}

pub fn multipv(s: &str) -> Result<usize, OutOfRange> {
    limits::MULTIPV.parse_usize(s)
}

pub fn depth(s: &str) -> Result<u32, OutOfRange> {
    limits::DEPTH.parse_u32(s)
}

pub fn nodes(s: &str) -> Result<u64, OutOfRange> {
    limits::NODES.parse(s)
}

pub fn move_time(s: &str) -> Result<Duration, OutOfRange> {
    limits::MOVE_TIME.parse_duration(s)
}

pub fn seconds(s: &str) -> Result<Duration, OutOfRange> {
    limits::SECONDS.parse_duration(s)
}

pub fn perft_depth(s: &str) -> Result<u32, OutOfRange> {
    limits::PERFT_DEPTH.parse_u32(s)
}

pub fn games(s: &str) -> Result<usize, OutOfRange> {
    limits::GAMES.parse_usize(s)
}

pub fn max_plies(s: &str) -> Result<usize, OutOfRange> {
    limits::MAX_PLIES.parse_usize(s)
}

pub fn book_plies(s: &str) -> Result<u32, OutOfRange> {
    limits::BOOK_PLIES.parse_u32(s)
}

pub fn egdb_pieces(s: &str) -> Result<u32, OutOfRange> {
    limits::EGDB_PIECES.parse_u32(s)
}

pub fn egdb_probe_pieces(s: &str) -> Result<u32, OutOfRange> {
    limits::EGDB_PROBE_PIECES.parse_u32(s)
}

pub fn book_margin(s: &str) -> Result<f64, OutOfRange> {
    limits::BOOK_MARGIN.parse(s)
}

/// Any whole number a `u64` holds (a seed).
/// `I/N` with `0 <= I < N`: part I of a job split in N.
pub fn shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || "expected I/N with 0 <= I < N".to_string();
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

pub fn seed(s: &str) -> Result<u64, OutOfRange> {
    limits::Whole {
        min: 0,
        max: u64::MAX,
    }
    .parse(s)
}

/// Let every option that takes a value take a negative number as that value (so that
/// `--depth -1` is refused by the option's own range, not read as an unknown flag).
pub fn negative_numbers_as_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(negative_numbers_as_values)
}
