//! The hand-made evaluation (`search::eval`).

use damas::core::notation::parse_fen;
use damas::core::position::Position;
use damas::core::rules::{English, International};
use damas::search::eval::*;

#[test]
fn start_positions_are_level() {
    assert_eq!(hand_made(&Position::<English>::start()), 0);
    assert_eq!(hand_made(&Position::<International>::start()), 0);
}

#[test]
fn a_man_up_is_about_a_man() {
    let p: Position<English> = parse_fen("W:W21,22,23:B1,2").expect("fen");
    let s = hand_made(&p);
    assert!((60..=160).contains(&s), "{s}");
    let p: Position<English> = parse_fen("B:W21,22,23:B1,2").expect("fen");
    assert!(hand_made(&p) < -60);
}

#[test]
fn one_king_each_is_near_zero() {
    let p: Position<International> = parse_fen("W:WK46:BK5").expect("fen");
    assert!(hand_made(&p).abs() < 20);
    let p: Position<International> = parse_fen("W:WK46,K47:BK5").expect("fen");
    assert!(hand_made(&p).abs() < 60);
}
