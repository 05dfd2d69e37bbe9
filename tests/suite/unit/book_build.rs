//! The book build (drop-out expansion by search): a small English book built here round-trips
//! and keeps moves within the margin, does not depend on the number of workers, and resumes.

use std::time::Duration;

use damas::core::position::Position;
use damas::engine::book::Book;
use damas::engine::{Done, Engine, Start};
use damas::search::limits::Limits;
use damas::search::Control;
use damas::Variant;

use damas::app::book::build::{build, BuildSettings, Progress};

/// Search in English from `start` to `depth`, reporting nothing.
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

fn tiny_settings(workers: usize) -> BuildSettings {
    BuildSettings {
        variant: Variant::English,
        plies: 3,
        limits: Limits::depth(4),
        workers,
        margin: 8,
        drop_out: 8,
        hash_mb: 4,
    }
}

fn run_build(settings: &BuildSettings, resume: Option<Book>) -> (Book, Progress) {
    let mut last = None;
    let book = build(
        settings,
        resume,
        Duration::from_secs(3600),
        &mut |p| last = Some(*p),
        &mut |_| Ok(()),
    )
    .expect("build");
    (book, last.expect("progress reported"))
}

/// A small book built here: written and read back, the same entries; the moves
/// kept are within the margin of the best, and the best move of a search is among them.
#[test]
fn a_built_book_round_trips_and_keeps_moves_within_the_margin() {
    let settings = tiny_settings(2);
    let (book, progress) = run_build(&settings, None);
    assert!(book.len() > 3, "{} positions", book.len());
    assert_eq!(progress.searched, book.len());
    let text = book.write();
    let back = Book::parse(&text).expect("parse");
    assert_eq!(back.entries(), book.entries());
    assert_eq!(back.write(), text);
    assert_eq!(back.tag("Depth"), Some("4"));
    assert_eq!(back.tag("Plies"), Some("3"));
    type R = damas::core::rules::English;
    let start = Position::<R>::start();
    let entry = book.lookup(&start).expect("start in the book");
    let best = entry.moves[0].score;
    assert!(entry
        .moves
        .iter()
        .all(|m| m.score >= best - settings.margin));
    // The search alone, from the start, at the same depth, sees the position as the book
    // does (its own move may differ: a multi-PV search and a single-line one prune apart).
    let mut engine = Engine::new(4);
    engine.book = false;
    let done = english(&engine, Start::Initial, 4);
    eprintln!(
        "search {} {} / book {:?}",
        done.best, done.score, entry.moves
    );
    assert!(
        (done.score - best).abs() <= 3 * settings.margin,
        "search {} {} against book {:?}",
        done.best,
        done.score,
        entry.moves
    );
}

/// One worker or two, the same book: every search starts afresh.
#[test]
fn a_build_does_not_depend_on_the_number_of_workers() {
    let (one, _) = run_build(&tiny_settings(1), None);
    let (two, _) = run_build(&tiny_settings(2), None);
    assert_eq!(one.write(), two.write());
}

/// Resuming a book with one more ply searches only the new positions.
#[test]
fn a_resumed_build_searches_only_what_is_missing() {
    let mut short = tiny_settings(2);
    short.plies = 2;
    let (first, _) = run_build(&short, None);
    let (deeper, progress) = run_build(&tiny_settings(2), Some(first.clone()));
    assert_eq!(progress.reused, first.len());
    assert_eq!(progress.searched, deeper.len() - first.len());
    for e in first.entries() {
        assert!(deeper.entries().contains(e), "{} changed", e.fen);
    }
    // Other search settings: refused, not mixed.
    let mut other = tiny_settings(2);
    other.limits = Limits::depth(5);
    let err = build(
        &other,
        Some(first),
        Duration::from_secs(60),
        &mut |_| {},
        &mut |_| Ok(()),
    );
    assert!(err.is_err());
}
