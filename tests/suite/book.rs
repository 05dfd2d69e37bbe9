//! Opening books: the file format, the shipped books, the weighted choice, the book in play
//! through the engine and the Hub protocol, and `damas book`. The build itself is tested in
//! the binary (`src/app/book/build/tests.rs`).

use std::time::Duration;

use damas::core::notation::{move_text, parse_fen, parse_move};
use damas::core::position::Position;
use damas::engine::book::{
    choose, parse_score, shipped, shipped_text, shipped_variants, Book, BookError, BookMove,
};
use damas::engine::{score_text, Done, Engine, Start};
use damas::search::limits::Limits;
use damas::search::{Control, MATE};
use damas::{with_rules, Rules, Variant};
use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::support::hub_process::{value, HubProcess};
use crate::support::run::damas;

/// Search (or play from the book) in English from `start` to `depth`, reporting nothing.
fn english(engine: &Engine, start: Start<'_>, depth: u32) -> Done {
    engine
        .think::<&str>(
            Variant::English,
            start,
            &[],
            Limits::depth(depth),
            &Control::new(false),
            &mut |_| {},
        )
        .expect("search")
}

/// Every variant with a move at the start has a non-empty shipped book; one without has none.
#[test]
fn a_book_ships_for_every_variant_that_can_move() {
    for &v in Variant::ALL {
        let can_move = with_rules!(v, R => !Position::<R>::start().legal_moves().is_empty());
        if can_move {
            let book = shipped(v).unwrap_or_else(|| panic!("{v}: no shipped book"));
            assert_eq!(book.variant(), v);
            let start = with_rules!(v, R => book.lookup(&Position::<R>::start()).cloned());
            let start = start.unwrap_or_else(|| panic!("{v}: start position not in the book"));
            assert!(!start.moves.is_empty(), "{v}");
        } else {
            assert!(
                shipped(v).is_none(),
                "{v}: a book for a side without a move"
            );
        }
    }
    // The big two are substantial.
    assert!(shipped(Variant::English).map_or(0, Book::len) >= 500);
    assert!(shipped(Variant::International).map_or(0, Book::len) >= 300);
}

/// Reading a shipped book and writing it again gives the file back, byte for byte.
#[test]
fn shipped_books_round_trip() {
    for v in shipped_variants() {
        let text = shipped_text(v).expect("text");
        let book = Book::parse(text).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(book.write(), text, "{v}");
    }
}

fn legal_texts<R: Rules>(pos: &Position<R>) -> Vec<String> {
    pos.legal_moves().iter().map(move_text::<R>).collect()
}

/// Every move of every shipped book is legal in its position, written as the engine writes
/// it, and every book position but the start is reached from the start by book moves.
#[test]
fn every_book_move_is_legal_and_every_position_reachable() {
    for v in shipped_variants() {
        let book = Book::parse(shipped_text(v).expect("text")).expect("parse");
        with_rules!(v, R => {
            let mut reached = std::collections::HashSet::new();
            reached.insert(damas::core::notation::write_fen(&Position::<R>::start()));
            for e in book.entries() {
                let pos: Position<R> = parse_fen(&e.fen).unwrap_or_else(|err| panic!("{v} {}: {err}", e.fen));
                let legal = legal_texts(&pos);
                for m in &e.moves {
                    assert!(legal.contains(&m.text), "{v} {}: {} not in {legal:?}", e.fen, m.text);
                    let mv = parse_move(&pos, &m.text).expect("legal");
                    reached.insert(damas::core::notation::write_fen(&pos.after(&mv)));
                }
                assert!(!e.moves.is_empty(), "{v} {}: no moves", e.fen);
                // Best first.
                assert!(e.moves.windows(2).all(|w| w[0].score >= w[1].score), "{v} {}", e.fen);
            }
            for e in book.entries() {
                assert!(reached.contains(&e.fen), "{v}: {} is not reached by book moves", e.fen);
            }
        });
    }
}

/// Lookup is by position, whatever move order reached it: English 11-15 23-19 8-11 22-17
/// and 11-15 22-17 8-11 23-19 transpose.
#[test]
fn lookup_finds_transpositions_and_nothing_else() {
    type R = damas::core::rules::English;
    let after = |moves: &[&str]| {
        let mut pos = Position::<R>::start();
        for t in moves {
            let m = parse_move(&pos, t).expect("legal");
            pos.play(&m);
        }
        pos
    };
    let a = after(&["11-15", "23-19", "8-11", "22-17"]);
    let b = after(&["11-15", "22-17", "8-11", "23-19"]);
    assert_eq!(a, b);
    let mut book = Book::new(Variant::English, vec![]);
    let moves = vec![BookMove {
        text: "9-13".into(),
        score: 5,
        weight: 10,
    }];
    book.insert(&a, moves.clone());
    assert_eq!(book.lookup(&b).map(|e| &e.moves), Some(&moves));
    assert!(book.lookup(&Position::<R>::start()).is_none());
    // Same pieces, other side to move: another position.
    let fen = damas::core::notation::write_fen(&a);
    let flipped = match fen.split_at(1) {
        ("B", rest) => format!("W{rest}"),
        (_, rest) => format!("B{rest}"),
    };
    let other: Position<R> = parse_fen(&flipped).expect("fen");
    assert_ne!(other, a);
    assert!(book.lookup(&other).is_none());
}

fn moves(list: &[(&str, i32, u32)]) -> Vec<BookMove> {
    list.iter()
        .map(|&(t, s, w)| BookMove {
            text: t.into(),
            score: s,
            weight: w,
        })
        .collect()
}

/// The choice stays within the margin of the best playable move, follows the weights and
/// never plays a move of weight 0; margin 0 plays the best.
#[test]
fn the_choice_respects_margin_and_weights() {
    let list = moves(&[("a", 20, 100), ("b", 15, 50), ("c", 5, 100), ("d", 30, 0)]);
    let mut rng = StdRng::seed_from_u64(7);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..3000 {
        let m = choose(&list, 10, &mut rng).expect("a move");
        *counts.entry(m.text.as_str()).or_insert(0) += 1;
    }
    assert_eq!(counts.get("c"), None, "c is 0.15 below the best");
    assert_eq!(counts.get("d"), None, "d has weight 0");
    let a = counts["a"] as f64;
    let b = counts["b"] as f64;
    // Weights 100:50: b about a third of the draws.
    assert!((0.28..0.39).contains(&(b / (a + b))), "{counts:?}");
    for _ in 0..200 {
        assert_eq!(
            choose(&list, 0, &mut rng).map(|m| m.text.as_str()),
            Some("a")
        );
    }
    // A wide margin lets c in.
    assert!((0..500).any(|_| choose(&list, 20, &mut rng).is_some_and(|m| m.text == "c")));
    assert!(choose(&moves(&[("a", 0, 0)]), 10, &mut rng).is_none());
    assert!(choose(&[], 10, &mut rng).is_none());
}

/// Scores are written in men as the protocol writes them, decided games included.
#[test]
fn scores_read_back_as_written() {
    for s in [0, 5, -5, 37, -120, 2500, MATE - 3, -(MATE - 8)] {
        assert_eq!(parse_score(&score_text(s)), Some(s), "{s}");
    }
    assert_eq!(parse_score("+0.25"), Some(25));
    assert_eq!(parse_score("x"), None);
    assert_eq!(parse_score("NaN"), None);
}

const START: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// Whether an error is the one a case expects.
type IsExpected = fn(&BookError) -> bool;

/// Broken book text gives the matching error, never a panic.
#[test]
fn corrupt_books_give_typed_errors() {
    let head = "[Variant \"english\"]\n";
    let cases: Vec<(String, IsExpected)> = vec![
        (format!("{START} 11-15 +0.05 10\n"), |e| {
            matches!(e, BookError::NoVariant)
        }),
        ("[Variant \"chess\"]\n".into(), |e| {
            matches!(e, BookError::UnknownVariant(_))
        }),
        (format!("{head}W:W99:B1 11-15 +0.05 10\n"), |e| {
            matches!(e, BookError::BadPosition { line: 2, .. })
        }),
        (format!("{head}{START} 11-19 +0.05 10\n"), |e| {
            matches!(e, BookError::IllegalMove { line: 2, .. })
        }),
        (format!("{head}{START} 11-15 lots 10\n"), |e| {
            matches!(e, BookError::BadLine { line: 2, .. })
        }),
        (format!("{head}{START} 11-15 +0.05 -1\n"), |e| {
            matches!(e, BookError::BadLine { .. })
        }),
        (format!("{head}{START} 11-15 +0.05\n"), |e| {
            matches!(e, BookError::BadLine { .. })
        }),
        (format!("{head}{START}\n"), |e| {
            matches!(e, BookError::BadLine { .. })
        }),
        (
            format!("{head}{START} 11-15 +0.05 1 11-15 +0.01 1\n"),
            |e| matches!(e, BookError::BadLine { .. }),
        ),
        (
            format!("{head}{START} 11-15 +0.05 1\n{START} 9-14 +0.01 1\n"),
            |e| matches!(e, BookError::Duplicate { line: 3, first: 2 }),
        ),
        (
            format!("{head}{START} 11-15 +0.05 1\n[Plies \"3\"]\n"),
            |e| matches!(e, BookError::BadLine { line: 3, .. }),
        ),
        (format!("{head}[Plies 3]\n"), |e| {
            matches!(e, BookError::BadLine { line: 2, .. })
        }),
        ("\u{0}\u{1}garbage\n".into(), |e| {
            matches!(e, BookError::NoVariant)
        }),
    ];
    for (text, expected) in cases {
        match Book::parse(&text) {
            Ok(_) => panic!("accepted: {text:?}"),
            Err(e) => {
                assert!(expected(&e), "{text:?}: {e:?}");
                assert!(!e.to_string().contains('\n'));
            }
        }
    }
    // Truncated shipped text (a line cut mid-way) fails cleanly or parses; it never panics.
    let text = shipped_text(Variant::English).expect("text");
    for cut in (0..text.len().min(4000)).step_by(37) {
        let _ = Book::parse(&text[..cut]);
    }
    // A well-formed book is accepted, and a short-form capture is stored in full form.
    let ok = Book::parse(&format!("{head}# comment\n\n{START} 11-15 +0.05 1\n")).expect("valid");
    assert_eq!(ok.len(), 1);
}

/// The engine plays a book move at once from a book position, none in analysis, and the
/// search when the position is off the book.
#[test]
fn the_engine_plays_from_the_book_only_when_asked() {
    let book = shipped(Variant::English).expect("book");
    type R = damas::core::rules::English;
    let entry = book.lookup(&Position::<R>::start()).expect("start");
    let mut engine = Engine::new(4);
    engine.book_margin = 0.0;
    let mut infos = Vec::new();
    let done = engine
        .think::<&str>(
            Variant::English,
            Start::Initial,
            &[],
            Limits::depth(30),
            &Control::new(false),
            &mut |i| infos.push(i.hub_line()),
        )
        .expect("book move");
    let best = entry.moves[0].score;
    let top: Vec<&str> = entry
        .moves
        .iter()
        .filter(|m| m.score == best)
        .map(|m| m.text.as_str())
        .collect();
    assert!(
        top.contains(&done.best.as_str()),
        "{} not among {top:?}",
        done.best
    );
    assert_eq!(done.depth, 0);
    assert_eq!(infos.len(), 1);
    assert!(infos[0].starts_with("info depth=0 "), "{}", infos[0]);
    assert!(
        infos[0].contains(&format!("pv=\"{}", done.best)),
        "{}",
        infos[0]
    );
    // Off the book (a position no opening reaches): the search answers.
    let fen = "W:WK29:BK4";
    let done = english(&engine, Start::Fen(fen), 3);
    assert_eq!(done.depth, 3);
    // Book off: the search, even from the start.
    engine.book = false;
    let done = english(&engine, Start::Initial, 3);
    assert_eq!(done.depth, 3);
}

/// A book file given to the engine replaces the shipped one for its variant.
#[test]
fn a_book_file_replaces_the_shipped_book() {
    let text = format!("[Variant \"english\"]\n{START} 9-13 -0.50 1\n");
    let book = Book::parse(&text).expect("valid");
    let mut engine = Engine::new(4);
    engine.book_file = Some(std::sync::Arc::new(book));
    let done = english(&engine, Start::Initial, 30);
    assert_eq!(done.best, "9-13");
    // Another variant still uses its shipped book.
    assert!(engine
        .book_for(Variant::International)
        .is_some_and(|b| b.variant() == Variant::International));
}

/// A Hub session past the handshake.
fn hub() -> HubProcess {
    let mut hub = HubProcess::start();
    hub.send("hub");
    hub.until("wait");
    hub
}

fn depths(lines: &[String]) -> Vec<u32> {
    lines
        .iter()
        .filter(|l| l.starts_with("info "))
        .map(|l| {
            value(l, "depth")
                .and_then(|d| d.parse().ok())
                .expect("depth=")
        })
        .collect()
}

/// Through the protocol: the book params are announced; `go think` from the start plays a
/// book move (a depth-0 info line of key=value tokens, then done) with the book on, and
/// searches with it off; `go analyze` always searches.
#[test]
fn the_hub_plays_book_moves_in_think_and_ponder_but_not_in_analyze() {
    let mut e = hub();
    e.send("hub");
    let params = e.until("wait");
    let book = params
        .iter()
        .find(|l| l.starts_with("param name=book "))
        .expect("book param");
    assert!(
        book.contains("value=true") && book.contains("type=bool"),
        "{book}"
    );
    let margin = params
        .iter()
        .find(|l| l.starts_with("param name=book-margin "))
        .expect("book-margin param");
    assert!(
        margin.contains("value=0.02") && margin.contains("type=real"),
        "{margin}"
    );
    e.send("set-param name=variant value=english");
    e.send("init");
    assert_eq!(e.recv(), "ready");
    let start_moves: Vec<String> = shipped(Variant::English)
        .and_then(|b| b.lookup(&Position::<damas::core::rules::English>::start()))
        .expect("start in the book")
        .moves
        .iter()
        .map(|m| m.text.clone())
        .collect();

    // Depth 40 would take minutes to search: the book answers instead.
    e.send("pos start");
    e.send("level depth=40");
    e.send("go think");
    let lines = e.until("done");
    assert_eq!(depths(&lines), vec![0], "{lines:?}");
    let info = &lines[0];
    for token in info.split_whitespace().skip(1) {
        assert!(
            token.contains('=') || info.contains("pv=\""),
            "bare word in {info}"
        );
    }
    let m = value(lines.last().expect("done"), "move").expect("move=");
    assert!(
        start_moves.iter().any(|b| b == m),
        "{m} not in {start_moves:?}"
    );

    // Pondering on a book position: no done before the ponder hit.
    e.send("pos start");
    e.send("level depth=40");
    e.send("go ponder");
    assert!(e.recv().starts_with("info depth=0 "));
    assert!(
        e.lines.recv_timeout(Duration::from_millis(300)).is_err(),
        "done while pondering"
    );
    e.send("ponder-hit");
    let m = e
        .until("done")
        .last()
        .and_then(|d| value(d, "move").map(str::to_string))
        .expect("move");
    assert!(start_moves.contains(&m));

    // Analysis ignores the book.
    e.send("pos start");
    e.send("level depth=4");
    e.send("go analyze");
    let mut lines = e.until("info depth=4 ");
    e.send("stop");
    lines.extend(e.until("done"));
    let d = depths(&lines);
    assert!(!d.is_empty() && d.iter().all(|&d| d >= 1), "{lines:?}");

    // Book off: the search, from the same position.
    e.send("set-param name=book value=false");
    e.send("pos start");
    e.send("level depth=4");
    e.send("go think");
    let lines = e.until("done");
    assert_eq!(depths(&lines), vec![1, 2, 3, 4], "{lines:?}");

    // Bad values are refused with one error line each.
    for bad in [
        "set-param name=book value=maybe",
        "set-param name=book-margin value=-1",
        "set-param name=book-margin value=nan",
        "set-param name=book-file value=/nonexistent/damas.book",
    ] {
        e.send(bad);
        assert!(e.recv().starts_with("error message="), "{bad}");
    }
    e.quit();
}

/// A Hub `book-file` replaces the shipped book.
#[test]
fn the_hub_reads_a_book_file() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("hub-test.book");
    std::fs::write(
        &path,
        format!("[Variant \"english\"]\n{START} 12-16 -0.40 1\n"),
    )
    .expect("write");
    let mut e = hub();
    e.send("set-param name=variant value=english");
    e.send(&format!(
        "set-param name=book-file value=\"{}\"",
        path.display()
    ));
    e.send("pos start");
    e.send("level depth=40");
    e.send("go think");
    let done = e.until("done");
    assert_eq!(value(done.last().expect("done"), "move"), Some("12-16"));
    e.quit();
}

#[test]
fn book_commands_show_moves_and_refuse_bad_input() {
    let (code, out, _) = damas(&["book", "show", "--variant", "english", "--moves", "11-15"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("book moves ("), "{out}");
    let (code, out, _) = damas(&["book", "show", "--variant", "international"]);
    assert_eq!(code, 0);
    assert!(out.contains("book moves ("), "{out}");
    let scratch = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("refused.book");
    let scratch = scratch.to_str().expect("utf-8");
    fn build<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut v = vec!["book", "build"];
        v.extend_from_slice(extra);
        v
    }
    for (mut args, expected) in [
        (
            vec!["book", "show", "--variant", "chess"],
            "unknown variant",
        ),
        (
            vec!["book", "show", "--variant", "english", "--moves", "11-19"],
            "11-19",
        ),
        (
            vec!["book", "show", "--variant", "english", "--fen", "W:W99"],
            "position",
        ),
        (
            vec![
                "book",
                "show",
                "--variant",
                "english",
                "--file",
                "/nonexistent/x.book",
            ],
            "/nonexistent/x.book",
        ),
        (build(&["--variant", "chess"]), "unknown variant"),
        (build(&["--variant", "english", "--margin=-1"]), "margin"),
        (build(&["--variant", "english", "--plies", "0"]), "plies"),
        (build(&["--variant", "english", "--depth", "0"]), "--depth"),
    ] {
        if args[1] == "build" {
            args.extend(["--out", scratch]);
        }
        let (code, _, err) = damas(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    let (code, _, err) = damas(&build(&[
        "--variant",
        "english",
        "--out",
        "/nonexistent/dir/x.book",
    ]));
    assert_eq!(code, 2);
    assert!(err.contains("no directory"), "{err}");
    assert!(
        !std::path::Path::new(scratch).exists(),
        "a refused build wrote its --out"
    );
}

/// The command builds a book file, and a second run with the same --out resumes it.
#[test]
fn book_build_writes_and_resumes_a_file() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = dir.join("cli-build.book");
    let _ = std::fs::remove_file(&out);
    let path = out.to_str().expect("utf-8");
    let args = [
        "book",
        "build",
        "--variant",
        "czech",
        "--plies",
        "2",
        "--depth",
        "3",
        "--threads",
        "2",
        "--out",
        path,
    ];
    let (code, stdout, err) = damas(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.starts_with("book variant=czech positions="),
        "{stdout}"
    );
    let first = std::fs::read_to_string(&out).expect("written");
    let book = Book::parse(&first).expect("valid");
    assert!(book.len() >= 2);
    let (code, _, err) = damas(&args);
    assert_eq!(code, 0);
    assert!(
        err.contains(&format!("resuming {path} ({} positions)", book.len())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).expect("still there"), first);
}
