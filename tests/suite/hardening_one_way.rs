//! Issue 12, item 13: One-way checkers from the start position of RULES.md C5, with its
//! perft, its book, and every front end playing it from the start.

use damas::core::notation::{parse_fen, write_fen};
use damas::core::perft::perft;
use damas::core::rules::OneWay;
use damas::engine::book::shipped;
use damas::{Color, Convention, Position, Rules, Variant};

use crate::hardening_cli::{damas, damas_with_input, hub};

/// RULES.md C5 in the English numbering.
const C5_START: &str = "W:W11,12,15,16,19,20,23,24,27,28,31,32:B9,10,13,14,17,18,21,22,25,26,29,30";

#[test]
fn the_start_is_c5s_with_its_perft() {
    let start = Position::<OneWay>::start();
    assert_eq!(write_fen(&start), C5_START);
    assert_eq!(start, parse_fen::<OneWay>(C5_START).expect("C5 start"));
    // Who moves first is data, listed as an assumption.
    assert_eq!(OneWay::FIRST, Color::White);
    assert!(Variant::OneWay
        .assumptions()
        .iter()
        .any(|a| a.contains("White moves first")));
    // RULES.md C5: depths 1-9, White first, distinct moves.
    let c5 = [1, 1, 4, 17, 46, 236, 995, 5200, 23878];
    for (d, &n) in c5.iter().enumerate() {
        assert_eq!(
            perft(&start, d as u32 + 1, Convention::Drop),
            n,
            "depth {}",
            d + 1
        );
    }
    let (code, out, err) = damas(&["perft", "--variant", "one-way", "--depth", "9"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.trim_end().starts_with("nodes=23878 "), "{out}");
}

#[test]
fn a_book_ships_and_every_front_end_plays_from_the_start() {
    let book = shipped(Variant::OneWay).expect("a One-way book");
    let entry = book
        .lookup(&Position::<OneWay>::start())
        .expect("the start in the book");
    assert_eq!(entry.moves[0].text, "15x6x10");
    // analyse (no book): the forced double capture.
    let (code, out, err) = damas(&["analyse", "--variant", "one-way", "--depth", "6"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.trim_end().ends_with("done move=15x6x10 ponder=9x2x6"),
        "{out}"
    );
    // The Hub.
    let lines = hub(
        "hub\nset-param name=variant value=one-way\ninit\npos start\nlevel depth=4\ngo think\n",
    );
    assert!(
        lines.iter().any(|l| l.starts_with("done move=15x6x10")),
        "{lines:?}"
    );
    // play: the engine opens as White.
    let (code, out, err) = damas_with_input(
        &[
            "play",
            "--variant",
            "one-way",
            "--side",
            "black",
            "--movetime",
            "0.05",
        ],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("white plays 15x6x10"), "{out}");
    // match: games from the start complete.
    let (code, out, err) = damas(&[
        "match",
        "--variant",
        "one-way",
        "--player",
        "name=a depth=3",
        "--player",
        "name=b depth=2",
        "--games",
        "2",
        "--openings",
        "none",
        "--concurrency",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let last = out.trim_end().lines().last().unwrap_or("");
    assert!(last.starts_with("result games=2 "), "{out}");
}
