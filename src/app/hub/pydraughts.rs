//! pydraughts' Hub dialect for 8×8 boards (Hub param `pydraughts`): what pydraughts 0.6's
//! `HubEngine`, and so every lidraughts bot, sends and expects. Read off its source and
//! checked by playing it (`tests/pydraughts/hub_games.py`):
//!
//! - Where Black moves first (English), pydraughts calls the first player White and puts it
//!   at the bottom: its board string is the variant's turned 180°, with the colours and the
//!   side letter swapped. Its moves use the variant's own square numbers.
//! - Where the variant writes squares algebraically (Russian, Brazilian, Turkish), pydraughts
//!   numbers them from White's side, each rank left to right: on the dark squares a1 = 1,
//!   c1 = 2, …, b2 = 5, a3 = 9; on Turkish's full board a1 = 1, …, h1 = 8, a2 = 9. Its
//!   board strings are the variant's own.
//! - Elsewhere (Italian and the 10×10 variants) it writes what Damas writes.
//!
//! The rules data decide which case applies (`FIRST`, `ALGEBRAIC_OUTPUT`), not variant names.

use crate::core::color::Color;
use crate::core::geometry::{Geometry, Shape};
use crate::core::notation::{parse_square, square_name};
use crate::core::rules::Rules;
use crate::core::square::Square;

fn turned<R: Rules>() -> bool {
    R::FIRST == Color::Black && R::G::LAYOUT.shape == Shape::Dark
}

fn counted_from_white<R: Rules>() -> bool {
    R::ALGEBRAIC_OUTPUT && R::G::LAYOUT.shape != Shape::Points
}

/// A square's number counted from White's side, rank by rank, left to right.
fn number_from_white<R: Rules>(sq: Square) -> Option<u32> {
    let l = R::G::LAYOUT;
    let (f, r) = R::G::coords(sq)?;
    let per_rank = l.squares() / l.height as u32;
    let column = if l.shape == Shape::Dark { f / 2 } else { f };
    Some(r as u32 * per_rank + column as u32 + 1)
}

fn square_from_white<R: Rules>(n: u32) -> Option<Square> {
    R::G::squares()
        .into_iter()
        .find(|&s| number_from_white::<R>(s) == Some(n))
}

/// A pydraughts board string as the variant's own.
pub fn board_in<R: Rules>(board: &str) -> String {
    if !turned::<R>() || !board.is_ascii() || board.is_empty() {
        return board.to_string();
    }
    let swap = |c: char| match c {
        'w' => 'b',
        'b' => 'w',
        'W' => 'B',
        'B' => 'W',
        c => c,
    };
    let (side, squares) = board.split_at(1);
    side.chars()
        .map(swap)
        .chain(squares.chars().rev().map(swap))
        .collect()
}

/// Rewrite each square of a move (`11-15`, `23x14x18`) with `f`; `None` if one is refused.
fn map_squares(text: &str, f: impl Fn(&str) -> Option<String>) -> Option<String> {
    let mut out = String::new();
    let mut token = String::new();
    for c in text.trim().chars().chain(std::iter::once('\0')) {
        if c == '-' || c == 'x' || c == 'X' || c == '\0' {
            out.push_str(&f(&token)?);
            token.clear();
            if c != '\0' {
                out.push(c);
            }
        } else {
            token.push(c);
        }
    }
    Some(out)
}

/// A pydraughts move as the variant's own text.
pub fn move_in<R: Rules>(text: &str) -> Result<String, String> {
    if !counted_from_white::<R>() {
        return Ok(text.to_string());
    }
    map_squares(text, |t| {
        let n: u32 = t.parse().ok()?;
        square_from_white::<R>(n).map(square_name::<R>)
    })
    .ok_or_else(|| {
        format!(
            "bad move '{}' (pydraughts squares expected)",
            super::clip(text)
        )
    })
}

/// A move of the variant's own text as pydraughts writes it.
pub fn move_out<R: Rules>(text: &str) -> String {
    if !counted_from_white::<R>() {
        return text.to_string();
    }
    map_squares(text, |t| {
        let sq = parse_square::<R>(t).ok()?;
        number_from_white::<R>(sq).map(|n| n.to_string())
    })
    .unwrap_or_else(|| text.to_string())
}
