//! DXP positions and moves as Damas ones (`app::dxp::board`): the start, given positions,
//! impossible ones, moves with and without their captured pieces.

use damas::app::dxp::board::*;
use damas::app::dxp::message::{MoveMessage, StartPosition};
use damas::core::color::Color;
use damas::core::notation::parse_fen;
use damas::core::position::Position;
use damas::core::rules::International;

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
