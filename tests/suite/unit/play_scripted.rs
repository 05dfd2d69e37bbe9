//! `damas play` with scripted input: bad input is answered with the legal moves, the game
//! goes on, and it ends by the rules or by a recorded result.

use std::io::Cursor;
use std::time::Duration;

use damas::core::rules::English;
use damas::Variant;

use damas::app::play::{run, Settings};

fn session(side: &str, fen: Option<&str>, input: &str) -> String {
    let settings = Settings {
        variant: Variant::English,
        fen: fen.map(str::to_string),
        side: side.to_string(),
        move_time: Duration::from_millis(20),
        threads: 1,
        hash: 4,
        pdn: None,
        book: true,
    };
    let mut out = Vec::new();
    run::<English>(&settings, &mut Cursor::new(input.as_bytes()), &mut out).expect("session");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn bad_input_lists_the_legal_moves_and_play_goes_on() {
    let out = session(
        "black",
        None,
        "11-16x\n11-19\n\u{1F600}\nmoves\n11-15\nresign\n",
    );
    assert!(out.contains("cannot read move '11-16x'"), "{out}");
    assert!(
        out.contains("legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16"),
        "{out}"
    );
    assert!(
        out.contains("white plays "),
        "the engine answered 11-15: {out}"
    );
    assert!(out.contains("game over: 2-0 (black resigned)"), "{out}");
}

#[test]
fn the_engine_finishes_a_won_ending_by_the_rules() {
    // White's king and man against a lone black man: the engine plays both sides to the end.
    let out = session("none", Some("W:WK18,26:B3"), "");
    assert!(out.contains("game over: 2-0"), "{out}");
}

#[test]
fn input_ending_stops_the_session() {
    let out = session("white", None, "");
    assert!(out.contains("black plays "), "{out}");
    assert!(!out.contains("game over"), "{out}");
}

#[test]
fn a_bad_side_is_refused() {
    let settings = Settings {
        variant: Variant::English,
        fen: None,
        side: "red".to_string(),
        move_time: Duration::from_millis(20),
        threads: 1,
        hash: 4,
        pdn: None,
        book: true,
    };
    let err = run::<English>(&settings, &mut Cursor::new(&b""[..]), &mut Vec::new());
    assert!(err.is_err());
}
