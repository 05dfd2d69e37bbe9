//! Match result files (`app::tournament::shard`): written, read back, cut and damaged.

use damas::app::tournament::client::Fault;
use damas::app::tournament::shard::*;
use damas::app::tournament::stats::Sprt;
use damas::app::tournament::GameReport;
use std::path::Path;

fn header() -> Header {
    Header {
        settings: "variant=english games=4 name with blanks%".into(),
        players: vec!["a b".into(), "c".into()],
        sprt: Some(Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }),
        shard: (1, 2),
        scheduled: 4,
    }
}

fn game(number: usize, fault: Option<(usize, &'static str)>) -> GameReport {
    GameReport {
        number,
        first: 1,
        second: 0,
        first_points: 0.5,
        fault,
        warnings: Vec::new(),
        pdn: format!("[Round \"{number}\"]\n\n1. 11-15 23-19 1/2-1/2\n"),
    }
}

#[test]
fn files_read_back_what_was_written_and_stop_before_a_cut_record() {
    let h = header();
    let mut text = header_text(&h);
    text += &game_record(&game(2, None));
    text += &game_record(&game(4, Some((0, "time forfeit"))));
    let whole = text.len();
    let parsed = parse(Path::new("x"), text.as_bytes()).expect("parses");
    assert_eq!(parsed.header, h);
    assert_eq!(parsed.games.len(), 2);
    assert_eq!(parsed.games[1].fault, Some((0, "time forfeit")));
    assert_eq!(parsed.games[0].pdn, game(2, None).pdn);
    assert_eq!(parsed.whole_bytes, whole);
    // An interrupted write: the last record is dropped, the rest kept.
    let cut = &text.as_bytes()[..whole - 10];
    let parsed = parse(Path::new("x"), cut).expect("parses");
    assert_eq!(parsed.games.len(), 1);
    assert!(parsed.whole_bytes < whole - 10);
}

#[test]
fn every_fault_kind_is_read_back() {
    use std::time::Duration;
    for f in [
        Fault::Spawn(String::new()),
        Fault::Crash,
        Fault::Hang(Duration::ZERO),
        Fault::Garbage(String::new()),
        Fault::EngineError(String::new()),
        Fault::IllegalMove(String::new()),
        Fault::TimeForfeit,
    ] {
        assert_eq!(Fault::kind_named(f.kind()), Some(f.kind()));
    }
}

#[test]
fn damaged_files_are_refused_with_their_line() {
    let h = header();
    for (text, line) in [
        ("hello\n".to_string(), 1),
        (format!("{MAGIC}\nplayers a\n"), 2),
        (header_text(&h) + "game 3 0 1 1 - 4\nabcd\n", 6),
        (header_text(&h) + "game 2 0 1 2 - 4\nabcd\n", 6),
        (header_text(&h) + "game 2 0 1 1 9:crash 4\nabcd\n", 6),
        (header_text(&h) + "game 2 0 1 1 - 2\nabcd\n", 6),
    ] {
        match parse(Path::new("x"), text.as_bytes()) {
            Err(ShardError::Format { line: l, .. }) => assert_eq!(l, line, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}
