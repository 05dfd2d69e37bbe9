//! pydraughts' board and move conventions (`app::hub::pydraughts`).

use damas::app::hub::pydraughts::*;
use damas::core::rules::{Brazilian, English, International, Russian, Turkish};

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
