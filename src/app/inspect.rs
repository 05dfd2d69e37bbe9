//! `damas show` and `damas perft`: a position and its legal moves, and move-path counts.
//! The entry points take a [`Variant`]; the rules type is chosen here, in the library, so the
//! binary instantiates no generic code of its own.

use std::fmt;
use std::io::Write;
use std::time::Instant;

use crate::app::terminal::diagram;
use crate::core::notation::{move_text, parse_fen, parse_move, write_board_string, write_fen};
use crate::core::perft::{divide, perft as count};
use crate::core::position::Position;
use crate::{with_rules, Convention, Rules, Variant};

/// A FEN or a move that was refused, with the reason (and for a move, the legal ones).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InspectError(String);

impl fmt::Display for InspectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InspectError {}

/// Print the position after `moves` from `fen` (or the start): diagram, FEN, board string and
/// legal moves.
pub fn show(variant: Variant, fen: Option<&str>, moves: Option<&str>) -> Result<(), InspectError> {
    with_rules!(variant, R => run_show::<R>(fen, moves))
}

/// Count the move paths from `fen` (or the start) to `depth`; `show_divide` lists them per root move.
pub fn perft(
    variant: Variant,
    fen: Option<&str>,
    depth: u32,
    show_divide: bool,
    convention: Convention,
) -> Result<(), InspectError> {
    with_rules!(variant, R => run_perft::<R>(fen, depth, show_divide, convention))
}

fn load<R: Rules>(fen: Option<&str>, moves: Option<&str>) -> Result<Position<R>, InspectError> {
    let mut pos = match fen {
        Some(f) => parse_fen::<R>(f).map_err(|e| InspectError(e.to_string()))?,
        None => Position::<R>::start(),
    };
    for text in moves.unwrap_or("").split_whitespace() {
        let m = parse_move(&pos, text).map_err(|e| {
            let legal: Vec<String> = pos.legal_moves().iter().map(move_text::<R>).collect();
            InspectError(format!("{e}; legal moves: {}", legal.join(" ")))
        })?;
        pos.play(&m);
    }
    Ok(pos)
}

fn run_show<R: Rules>(fen: Option<&str>, moves: Option<&str>) -> Result<(), InspectError> {
    let pos = load::<R>(fen, moves)?;
    print!("{}", diagram(&pos));
    println!("fen: {}", write_fen(&pos));
    println!("board: {}", write_board_string(&pos));
    println!("to move: {}", pos.side_to_move().name());
    let moves: Vec<String> = pos.legal_moves().iter().map(move_text::<R>).collect();
    println!("legal moves ({}): {}", moves.len(), moves.join(" "));
    Ok(())
}

fn run_perft<R: Rules>(
    fen: Option<&str>,
    depth: u32,
    show_divide: bool,
    convention: Convention,
) -> Result<(), InspectError> {
    let pos = load::<R>(fen, None)?;
    let start = Instant::now();
    let nodes = if depth == 0 {
        1
    } else if show_divide || rayon::current_num_threads() > 1 {
        // Progress on stderr once a run has taken more than a second.
        let report = |done: usize, all: usize| {
            let t = start.elapsed().as_secs_f64();
            if t > 1.0 {
                eprintln!("perft: {done}/{all} root moves done, {t:.1} s");
            }
        };
        let mut parts = divide(&pos, depth, convention, &report);
        if show_divide {
            parts.sort_by_key(|(m, _)| move_text::<R>(m));
            let mut out = std::io::stdout().lock();
            for (m, n) in &parts {
                let _ = writeln!(out, "{} {}", move_text::<R>(m), n);
            }
        }
        parts.iter().map(|(_, n)| n).sum()
    } else {
        count(&pos, depth, convention)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("nodes={nodes} time={secs:.3} nps={nps}");
    Ok(())
}
