//! `damas play` with scripted input (issue 12, items 14–18): square numbers, the person's
//! colour, the last moves, `history`, `undo`, draw offers, the record, text slips.

use damas::core::rules::Rules;
use damas::core::variant::Variant;

use std::io::Cursor;
use std::path::PathBuf;
use std::time::Duration;

use damas::app::play::*;
use damas::core::rules::{English, International, Russian};

fn settings(variant: Variant, side: &str, fen: Option<&str>, pdn: Option<PathBuf>) -> Settings {
    Settings {
        variant,
        fen: fen.map(str::to_string),
        side: side.to_string(),
        move_time: Duration::from_millis(20),
        threads: 1,
        hash: 4,
        pdn,
        book: false,
    }
}

fn session<R: Rules>(s: &Settings, input: &str) -> Result<String, PlayError> {
    let mut out = Vec::new();
    run::<R>(s, &mut Cursor::new(input.as_bytes()), &mut out)?;
    Ok(String::from_utf8(out).expect("utf-8"))
}

fn english(side: &str, fen: Option<&str>, input: &str) -> String {
    session::<English>(&settings(Variant::English, side, fen, None), input).expect("session")
}

/// The engine's reply to the person's move, read off its `white plays …` line.
fn reply(out: &str) -> String {
    let line = out
        .lines()
        .find(|l| l.starts_with("white plays "))
        .unwrap_or_else(|| panic!("no reply: {out}"));
    line["white plays ".len()..]
        .split_whitespace()
        .next()
        .expect("move")
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("damas-play-{}-{name}.pdn", std::process::id()))
}

#[test]
fn square_numbers_stand_beside_the_board_of_numbered_variants() {
    let out = english("black", None, "quit\n");
    // English numbering: 1-4 on rank 8 (b8 d8 f8 h8), 29-32 on rank 1 (a1 c1 e1 g1).
    assert!(
        out.contains("  8    b   b   b   b       1     2     3     4\n"),
        "{out}"
    );
    assert!(
        out.contains("  1  w   w   w   w     29    30    31    32\n"),
        "{out}"
    );
    let s = settings(Variant::International, "white", None, None);
    let out = session::<International>(&s, "quit\n").expect("session");
    // FMJD: 46-50 on rank 1 (a1 c1 e1 g1 i1).
    assert!(out.contains("46    47    48    49    50\n"), "{out}");
    // Russian is written algebraically: no numbers to show.
    let s = settings(Variant::Russian, "white", None, None);
    let out = session::<Russian>(&s, "quit\n").expect("session");
    assert!(!out.contains("square numbers"), "{out}");
}

#[test]
fn the_person_is_told_which_colour_they_play() {
    let out = english("white", None, "quit\n");
    assert!(
        out.starts_with("english — you play white (Damas moves first)\n"),
        "{out}"
    );
    let out = english("black", None, "quit\n");
    assert!(
        out.starts_with("english — you play black (you move first)\n"),
        "{out}"
    );
    assert!(out.contains("black to move (you)> "), "{out}");
}

#[test]
fn the_last_moves_stay_under_the_board_and_history_lists_the_game() {
    let out = english("black", None, "11-15\nhistory\nquit\n");
    let r = reply(&out);
    let after = &out[out.find("white plays ").expect("reply")..];
    // The board redrawn after the reply is followed by both moves.
    let last = format!("last moves: 1. 11-15 {r}\n");
    assert!(after.contains(&last), "{out}");
    assert!(out.contains(&format!("game: 1. 11-15 {r}\n")), "{out}");
}

#[test]
fn undo_says_what_it_took_back() {
    let out = english("black", None, "undo\n11-15\nundo\nquit\n");
    assert!(
        out.contains("nothing to undo: you have made no move"),
        "{out}"
    );
    let r = reply(&out);
    assert!(
        out.contains(&format!("took back 11-15 (black) and {r} (white)")),
        "{out}"
    );
    // Back at the start: Black to move with all twelve men.
    assert!(out.ends_with("black to move (you)> \n") || out.contains("black to move (you)> "));
}

#[test]
fn a_draw_offer_is_judged_by_the_engines_score() {
    // Three kings against a man: Damas (White) is winning and declines.
    let out = english("black", Some("B:WK5,K6,K7:B20"), "draw\nquit\n");
    assert!(out.contains("Damas declines the draw"), "{out}");
    assert!(!out.contains("game over"), "{out}");
    // A king each: level, accepted.
    let out = english("black", Some("B:WK5:BK28"), "draw\n");
    assert!(out.contains("Damas accepts the draw"), "{out}");
    assert!(out.contains("game over: 1-1 (draw by agreement)"), "{out}");
}

#[test]
fn a_pdn_path_in_a_missing_folder_is_refused_before_the_game() {
    let path = PathBuf::from("/nonexistent-damas-folder/game.pdn");
    let s = settings(Variant::English, "black", None, Some(path));
    let mut out = Vec::new();
    let err = run::<English>(&s, &mut Cursor::new(&b"11-15\nquit\n"[..]), &mut out)
        .expect_err("a folder that does not exist");
    assert!(matches!(err, PlayError::PdnPath { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "--pdn /nonexistent-damas-folder/game.pdn: no directory '/nonexistent-damas-folder'"
    );
    assert!(out.is_empty(), "the game must not start");
}

#[test]
fn the_record_is_written_however_the_session_ends() {
    for (name, input, result) in [
        ("quit", "11-15\nquit\n", "*"),
        ("eof", "11-15\n", "*"),
        ("resign", "11-15\nresign\n", "2-0"),
    ] {
        let path = scratch(name);
        let _ = std::fs::remove_file(&path);
        let s = settings(Variant::English, "black", None, Some(path.clone()));
        let out = session::<English>(&s, input).expect("session");
        assert!(
            out.contains(&format!("game written to {}", path.display())),
            "{out}"
        );
        let text = std::fs::read_to_string(&path).expect("record");
        assert!(text.contains("1. 11-15 "), "{name}: {text}");
        assert!(
            text.contains(&format!("[Result \"{result}\"]")),
            "{name}: {text}"
        );
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn a_game_never_saved_is_printed_and_save_needs_a_name() {
    let out = english("black", None, "save\n11-15\nquit\n");
    assert!(out.contains("save needs a file name: save FILE"), "{out}");
    assert!(
        out.contains("the game was not saved (no --pdn, no save since the last move)"),
        "{out}"
    );
    assert!(out.contains("[Variant \"english\"]"), "{out}");
    assert!(out.contains("1. 11-15 "), "{out}");
    // Saved and unchanged since: it says where.
    let path = scratch("saved");
    let input = format!("11-15\nsave {}\nquit\n", path.display());
    let out = english("black", None, &input);
    assert!(
        out.contains(&format!("the game is saved in {}", path.display())),
        "{out}"
    );
    assert!(!out.contains("[Variant"), "{out}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn the_help_example_is_a_move_of_the_variant() {
    // Russian moves are written c3-d4, never 11-15.
    let s = settings(Variant::Russian, "white", None, None);
    let out = session::<Russian>(&s, "help\nquit\n").expect("session");
    assert!(out.contains("(e.g. a3-b4; captures with x)"), "{out}");
    assert!(!out.contains("11-15"), "{out}");
    // English, Black moving first: one of Black's first moves.
    let out = english("black", None, "quit\n");
    assert!(out.contains("(e.g. 9-13; captures with x)"), "{out}");
    // English, playing White: one of White's replies.
    let out = english("white", None, "quit\n");
    assert!(out.contains("(e.g. 21-17; captures with x)"), "{out}");
}
