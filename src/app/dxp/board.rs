//! DamExchange positions and moves as Damas positions and moves.
//!
//! DXP describes a 50-square board numbered as in International draughts: a rule set plays
//! over DXP when its layout has exactly those squares ([`fits`]). A DXP move names its
//! from and to squares and the squares it captured on; it is resolved against the legal
//! moves, never applied blindly.

use std::fmt;

use super::message::{MoveMessage, StartPosition, SQUARES};
use crate::core::geometry::Geometry;
use crate::core::notation::{
    parse_board_string, square_from_number, square_number, write_board_string, NotationError,
};
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;

/// Whether games of `R` can be described in DXP.
pub fn fits<R: Rules>() -> bool {
    R::G::LAYOUT.squares() as usize == SQUARES
}

/// The position a game request starts from.
pub fn start_position<R: Rules>(start: &StartPosition) -> Result<Position<R>, NotationError> {
    match start {
        StartPosition::Initial => Ok(Position::start()),
        StartPosition::Given { to_move, squares } => {
            let mut board = String::with_capacity(SQUARES + 1);
            board.push(to_move.letter());
            board.extend(squares.chars().map(|c| match c {
                'z' => 'b',
                'Z' => 'B',
                other => other,
            }));
            parse_board_string::<R>(&board)
        }
    }
}

/// How a game request describes `pos`.
pub fn request_start<R: Rules>(pos: &Position<R>) -> StartPosition {
    if *pos == Position::start() {
        return StartPosition::Initial;
    }
    let board = write_board_string(pos);
    StartPosition::Given {
        to_move: pos.side_to_move(),
        squares: board
            .chars()
            .skip(1)
            .map(|c| match c {
                'b' => 'z',
                'B' => 'Z',
                other => other,
            })
            .collect(),
    }
}

/// The MOVE message of `m`, played in `seconds`.
pub fn move_message<R: Rules>(m: &MoveOf<R>, seconds: u16) -> MoveMessage {
    let number = |sq| square_number::<R>(sq) as u8;
    MoveMessage {
        seconds,
        from: number(m.from),
        to: number(m.to),
        captured: m.captured.map(number).collect(),
    }
}

/// Why a MOVE message names no legal move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// No legal move has these squares.
    Illegal(String),
    /// Without captured squares, several legal captures fit.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Illegal(m) => write!(f, "illegal move {m}"),
            MoveError::Ambiguous(m) => write!(f, "ambiguous move {m}: several captures fit"),
        }
    }
}

impl std::error::Error for MoveError {}

fn describe(m: &MoveMessage) -> String {
    let mut s = format!("{}-{}", m.from, m.to);
    if !m.captured.is_empty() {
        let caps: Vec<String> = m.captured.iter().map(u8::to_string).collect();
        s.push_str(&format!(" taking {}", caps.join(",")));
    }
    s
}

/// The legal move of `pos` that `m` describes. A capture sent without its captured squares
/// (some programs do) is taken when only one legal capture has those from and to squares.
pub fn resolve<R: Rules>(pos: &Position<R>, m: &MoveMessage) -> Result<MoveOf<R>, MoveError> {
    let square = |n: u8| square_from_number::<R>(n.into());
    let (Some(from), Some(to)) = (square(m.from), square(m.to)) else {
        return Err(MoveError::Illegal(describe(m)));
    };
    let mut captured = Vec::with_capacity(m.captured.len());
    for &c in &m.captured {
        captured.push(square(c).ok_or_else(|| MoveError::Illegal(describe(m)))?);
    }
    let fits: Vec<MoveOf<R>> = pos
        .legal_moves()
        .into_iter()
        .filter(|l| l.from == from && l.to == to)
        .filter(|l| {
            captured.is_empty() && !l.is_capture()
                || captured.is_empty() && l.is_capture()
                || l.captured.count() as usize == captured.len()
                    && captured.iter().all(|&c| l.captured.contains(c))
        })
        .collect();
    match fits.as_slice() {
        [one] => Ok(*one),
        [] => Err(MoveError::Illegal(describe(m))),
        _ => Err(MoveError::Ambiguous(describe(m))),
    }
}
