//! Issue 12, items 9 and 10: impossible setups and malformed FENs are typed errors on every
//! path that reads a position (library, command line, Hub board strings and FENs, PDN `FEN`
//! tags, books), and the test data obeys the same rule.

use damas::core::notation::{parse_board_string, parse_fen, NotationError};
use damas::core::pdn;
use damas::core::rules::{
    Alquerque, English, Hawaiian, International, Italian, Parachute, Russian, Turkish,
};
use damas::engine::book::{Book, BookError};
use damas::{with_rules, Color, Position, PositionError, Rules, Variant};

use crate::hardening_cli::{damas, hub};

fn refused<R: Rules>(fen: &str) -> PositionError {
    match parse_fen::<R>(fen) {
        Err(NotationError::Position(e)) => e,
        other => panic!("{} {fen}: {other:?}", R::NAME),
    }
}

fn crowning(color: Color, square: &str) -> PositionError {
    PositionError::ManOnCrowningSquare {
        color,
        square: square.to_string(),
    }
}

#[test]
fn impossible_setups_are_typed_errors() {
    // A side without pieces (the empty boards).
    assert_eq!(
        refused::<English>("W:W:B"),
        PositionError::NoPieces(Color::White)
    );
    assert_eq!(
        refused::<English>("W:W21:B"),
        PositionError::NoPieces(Color::Black)
    );
    // Men on their own crowning squares.
    assert_eq!(
        refused::<Turkish>("W:Wa8,b8:Bh1"),
        crowning(Color::White, "a8")
    );
    assert_eq!(
        refused::<English>("W:W1-12:B21-32"),
        crowning(Color::White, "1")
    );
    assert_eq!(
        refused::<International>("W:W1-5:B46-50"),
        crowning(Color::White, "1")
    );
    assert_eq!(
        refused::<Russian>("W:Wb8:Ba1"),
        crowning(Color::White, "b8")
    );
    assert_eq!(
        refused::<Italian>("W:W1,2:B31,32"),
        crowning(Color::White, "2")
    );
    assert_eq!(
        refused::<Russian>("W:Wc3:Ba1"),
        crowning(Color::Black, "a1")
    );
    // More pieces than the side starts with.
    assert_eq!(
        refused::<English>("W:W1-13:B26"),
        PositionError::TooManyPieces {
            color: Color::White,
            count: 13,
            max: 12
        }
    );
    // Kings where men never crown.
    assert_eq!(refused::<Hawaiian>("W:WKa5:Ba1"), PositionError::NoKings);
    // Not errors: kings on the crowning row, Alquerque's men on the far row (they never
    // crown), Parachute's parachutists on the far row (they are not men).
    assert!(parse_fen::<English>("W:WK1,K2:B26").is_ok());
    assert!(parse_fen::<Alquerque>("W:Wa5:Ba1").is_ok());
    assert!(parse_fen::<Parachute>("W:WP1,22:B5").is_ok());
    assert_eq!(
        parse_fen::<Turkish>("W:Wa8,b8:Bh1")
            .expect_err("impossible")
            .to_string(),
        "impossible position: a white man on a8, a square where it would have been crowned"
    );
}

#[test]
fn hub_board_strings_are_checked_too() {
    let empty = format!("W{}", "e".repeat(50));
    assert_eq!(
        parse_board_string::<International>(&empty),
        Err(NotationError::Position(PositionError::NoPieces(
            Color::White
        )))
    );
    // Black men on Black's crowning row (squares 46-50).
    let mut board = format!("W{}", "e".repeat(50));
    board.replace_range(46..47, "b");
    board.replace_range(1..2, "w");
    assert!(matches!(
        parse_board_string::<International>(&board),
        Err(NotationError::Position(
            PositionError::ManOnCrowningSquare { .. }
        ))
    ));
    let lines = hub(&format!(
        "hub\ninit\npos pos={empty}\ngo think\n\
         set-param name=variant value=turkish\npos fen=\"W:Wa8,b8:Bh1\"\nping\n"
    ));
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(
        errors,
        [
            "error message=\"bad position: impossible position: white has no pieces\"",
            "error message=\"no position: send pos first\"",
            "error message=\"bad position: impossible position: a white man on a8, a square where it would have been crowned\"",
        ],
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("done")), "{lines:?}");
}

#[test]
fn the_command_line_refuses_impossible_setups() {
    for (args, expected) in [
        (
            vec!["show", "--variant", "english", "--fen", "W"],
            "FEN has no white section",
        ),
        (
            vec![
                "perft",
                "--variant",
                "english",
                "--fen",
                "W:W:B",
                "--depth",
                "3",
            ],
            "white has no pieces",
        ),
        (
            vec!["show", "--variant", "turkish", "--fen", "W:Wa8,b8:Bh1"],
            "a white man on a8",
        ),
        (
            vec![
                "analyse",
                "--variant",
                "turkish",
                "--fen",
                "W:Wa8,b8:Bh1",
                "--depth",
                "2",
            ],
            "a white man on a8",
        ),
    ] {
        let (code, out, err) = damas(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!out.contains("nodes="), "{args:?}: {out}");
    }
}

#[test]
fn pdn_fen_tags_and_books_are_checked_too() {
    let text = "[Variant \"turkish\"]\n[FEN \"W:Wa8,b8:Bh1\"]\n[Result \"*\"]\n\nb8-c8 *\n";
    let games = pdn::parse(text).expect("PDN syntax");
    match pdn::replay::<Turkish>(&games[0]) {
        Err(pdn::PdnError::BadFen(NotationError::Position(e))) => {
            assert_eq!(e, crowning(Color::White, "a8"))
        }
        other => panic!("{:?}", other.map(|g| g.moves().len())),
    }
    let book = "[Variant \"english\"]\nW:W1,21:B5 21-17 +0.00 100\n";
    match Book::parse(book) {
        Err(BookError::BadPosition { line, reason }) => {
            assert_eq!(line, 2);
            assert_eq!(reason, NotationError::Position(crowning(Color::White, "1")));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_fens_are_errors_naming_the_bad_part() {
    type R = English;
    let cases = [
        (
            "B:W1:B2:W3",
            "FEN section 'W3' gives the white pieces a second time",
        ),
        (
            "W:W1,,2:B3",
            "empty square list item in FEN section 'W1,,2'",
        ),
        ("W:W 1", "bad square ' 1' in FEN section 'W 1'"),
        ("W:W1", "FEN has no black section"),
        ("W:W21:B1:", "bad FEN section ''"),
        ("W:W21,21:B1", "square 21 is listed twice in the FEN"),
        ("W:W21:B1:H0", "bad FEN section 'H0'"),
        ("W:W21:B1,x", "bad square 'x' in FEN section 'B1,x'"),
        ("W:W21-x:B1", "bad square '21-x' in FEN section 'W21-x'"),
    ];
    for (fen, message) in cases {
        let e = parse_fen::<R>(fen).expect_err(fen);
        assert!(
            e.to_string().starts_with(message),
            "{fen}: '{e}' does not start with '{message}'"
        );
    }
    // The grammar's own freedoms stay: either section order, quotes, a final dot, ranges.
    let a: Position<R> = parse_fen("W:W21-23:BK1,2").expect("plain");
    for same in ["W:BK1,2:W21-23", "\"W:W21,22,23:BK1,2\"", "W:W21-23:BK1,2."] {
        assert_eq!(parse_fen::<R>(same).expect(same), a, "{same}");
    }
    // On the command line: one line naming the part.
    let (code, _, err) = damas(&["show", "--variant", "english", "--fen", "B:W1:B2:W3"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "damas: FEN section 'W3' gives the white pieces a second time"
    );
}

/// Every position of the perft data in tests/perft is possible by the same rule (one Turkish
/// row once had Black men on Black's crowning row: ../shared/perft/positions.tsv now has
/// kings there, and so does tests/perft/turkish.tsv).
#[test]
fn the_perft_data_holds_only_possible_positions() {
    let dir = format!("{}/tests/perft", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for &v in Variant::ALL {
        let path = format!("{dir}/{}.tsv", v.name());
        let text = std::fs::read_to_string(&path).expect("perft data");
        for (i, line) in text.lines().enumerate() {
            let fen = line.split('\t').next().unwrap_or("");
            if line.starts_with('#') || fen.is_empty() || fen == "start" {
                continue;
            }
            let ok = with_rules!(v, R => parse_fen::<R>(fen).map(|_| ()));
            assert_eq!(ok, Ok(()), "{path}:{}: {fen}", i + 1);
            checked += 1;
        }
    }
    assert!(checked > 250, "{checked}");
    let turkish = std::fs::read_to_string(format!("{dir}/turkish.tsv")).expect("turkish");
    assert!(turkish.contains("W:WKa1,g3,h3:BKb1,Ke1,d7,h7\t2\t31\tdrop"));
    assert!(!turkish.contains(":Bb1,e1,"));
}
