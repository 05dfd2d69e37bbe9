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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::color::Color;
    use crate::core::notation::parse_fen;
    use crate::core::rules::International;

    type I = International;

    #[test]
    fn the_start_is_sent_as_a() {
        assert_eq!(
            request_start(&Position::<I>::start()),
            StartPosition::Initial
        );
        let pos = start_position::<I>(&StartPosition::Initial).expect("start");
        assert_eq!(pos, Position::start());
    }

    #[test]
    fn positions_round_trip() {
        let pos = parse_fen::<I>("B:W28,K33,47:B12,K17,22").expect("fen");
        let start = request_start(&pos);
        match &start {
            StartPosition::Given { to_move, squares } => {
                assert_eq!(*to_move, Color::Black);
                assert_eq!(&squares[11..12], "z");
                assert_eq!(&squares[16..17], "Z");
                assert_eq!(&squares[32..33], "W");
                assert_eq!(&squares[46..47], "w");
                assert_eq!(squares.matches('e').count(), 44);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(start_position::<I>(&start), Ok(pos));
    }

    #[test]
    fn an_impossible_position_is_refused() {
        // A white man on White's crowning row.
        let mut squares = "e".repeat(50);
        squares.replace_range(0..1, "w");
        squares.replace_range(30..31, "z");
        let start = StartPosition::Given {
            to_move: Color::White,
            squares,
        };
        assert!(start_position::<I>(&start).is_err());
    }

    #[test]
    fn moves_resolve_with_or_without_captures() {
        let start = Position::<I>::start();
        let m = MoveMessage {
            seconds: 0,
            from: 32,
            to: 28,
            captured: vec![],
        };
        let legal = resolve(&start, &m).expect("32-28");
        assert_eq!(move_message::<I>(&legal, 0), m);
        // 32 steps to 27 or 28; 23 is two rows away.
        let wrong = MoveMessage {
            to: 23,
            ..m.clone()
        };
        assert!(matches!(
            resolve(&start, &wrong),
            Err(MoveError::Illegal(_))
        ));
        let backwards = MoveMessage {
            from: 28,
            to: 32,
            ..m
        };
        assert!(resolve(&start, &backwards).is_err());
        // A white king on 46 takes 37 and may land on 32, 28, 23, 19, 14, 10 or 5.
        let pos = parse_fen::<I>("W:WK46:B37").expect("fen");
        let capture = MoveMessage {
            seconds: 3,
            from: 46,
            to: 28,
            captured: vec![37],
        };
        let c = resolve(&pos, &capture).expect("46x28");
        assert_eq!(move_message::<I>(&c, 3), capture);
        let bare = MoveMessage {
            captured: vec![],
            ..capture.clone()
        };
        assert_eq!(resolve(&pos, &bare), Ok(c));
        let wrong_victim = MoveMessage {
            captured: vec![41],
            ..capture
        };
        assert!(resolve(&pos, &wrong_victim).is_err());
    }
}
