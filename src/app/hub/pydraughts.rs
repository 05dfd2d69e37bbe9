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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rules::{Brazilian, English, International, Russian, Turkish};

    #[test]
    fn english_boards_turn_and_swap_colours() {
        // pydraughts' English start: its White (the first player) on 21-32 of its board.
        let pyd = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        let ours = format!("B{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        assert_eq!(board_in::<English>(&pyd), ours);
        assert_eq!(move_in::<English>("18x11x15"), Ok("18x11x15".to_string()));
    }

    #[test]
    fn russian_and_brazilian_squares_count_from_white() {
        // pydraughts' first Russian moves: 11-15 is e3-f4, 10-13 c3-b4.
        assert_eq!(move_in::<Russian>("11-15"), Ok("e3-f4".to_string()));
        assert_eq!(move_in::<Brazilian>("10-13"), Ok("c3-b4".to_string()));
        assert_eq!(move_in::<Russian>("23x14x19"), Ok("f6xd4xe5".to_string()));
        assert_eq!(move_out::<Russian>("f6xd4xe5"), "23x14x19");
        assert!(move_in::<Russian>("33-29").is_err());
        assert!(move_in::<Russian>("e3-f4").is_err());
        // Turkish: pydraughts' 20-28 is d3-d4, and 35x3x11x27 c5 over c4 and c2 to c1.
        assert_eq!(move_in::<Turkish>("20-28"), Ok("d3-d4".to_string()));
        assert_eq!(
            move_in::<Turkish>("35x3x11x27"),
            Ok("c5xc1xc2xc4".to_string())
        );
        assert_eq!(move_out::<Turkish>("c5xc1xc2xc4"), "35x3x11x27");
    }

    #[test]
    fn others_are_unchanged() {
        assert_eq!(move_in::<International>("32-28"), Ok("32-28".to_string()));
        let b = format!("W{}", "e".repeat(50));
        assert_eq!(board_in::<International>(&b), b);
    }
}
