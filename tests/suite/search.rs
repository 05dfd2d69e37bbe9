//! The search finds known wins, scores decided games with their distance, and always
//! returns a legal move.

use std::fs;

use damas::core::notation::{move_text, parse_fen, parse_move};
use damas::core::position::Position;
use damas::engine::{Done, Engine, Start};
use damas::search::limits::Limits;
use damas::search::Control;
use damas::{with_rules, Rules, Variant};

fn think(variant: Variant, fen: &str, limits: Limits, threads: usize, multipv: usize) -> Done {
    let mut engine = Engine::new(16);
    engine.book = false;
    engine.threads = threads;
    engine.multipv = multipv;
    engine
        .think::<&str>(
            variant,
            Start::Fen(fen),
            &[],
            limits,
            &Control::new(false),
            &mut |_| {},
        )
        .expect("search")
}

fn legal_texts<R: Rules>(fen: &str) -> Vec<String> {
    let pos: Position<R> = parse_fen(fen).expect("fen");
    pos.legal_moves().iter().map(move_text::<R>).collect()
}

/// One thread, then two threads five times: leapfrogging threads (the first to finish a
/// depth finishes it for both) must still answer from an iteration of the depth asked.
const THREAD_RUNS: [usize; 6] = [1, 2, 2, 2, 2, 2];

/// English two-for-one: b4-c5 forces d6xb4 (b6xd4 is blocked), then a3 takes b4 and b6.
#[test]
fn english_two_for_one_shot() {
    let fen = "W:Wa3,b4,d4,g1:Bb6,d6,h8";
    for threads in THREAD_RUNS {
        let d = think(Variant::English, fen, Limits::depth(9), threads, 1);
        assert_eq!(
            (d.best.as_str(), d.depth),
            ("17-14", 9),
            "threads {threads}"
        );
        assert_eq!(d.pv.get(1).map(String::as_str), Some("10x17x14"));
        assert!(d.score >= 150, "score {}", d.score);
    }
}

/// The same shot on the 10×10 board, where men also capture backward: b4-c5 (31-27).
#[test]
fn international_shot() {
    let fen = "W:Wa3,b4,d4,i1:Bb6,d6,j10";
    for threads in THREAD_RUNS {
        let d = think(Variant::International, fen, Limits::depth(9), threads, 1);
        assert_eq!(
            (d.best.as_str(), d.depth),
            ("31-27", 9),
            "threads {threads}"
        );
        assert!(d.score >= 150, "score {}", d.score);
    }
}

/// A flying king takes two men in one sweep along the long diagonal and then the third.
#[test]
fn international_king_against_men() {
    let fen = "W:WKa1:Bc3,e5,j10";
    let d = think(Variant::International, fen, Limits::depth(6), 1, 1);
    // The king may stop on several squares after taking the two men (46x23x28x37,
    // 46x14x28x37, 46x19x28x37): each takes the same men and wins in three plies.
    let pos: Position<damas::core::rules::International> = parse_fen(fen).expect("fen");
    let black_left = |text: &str| {
        let m = parse_move(&pos, text).expect("legal");
        pos.after(&m).pieces(damas::Color::Black)
    };
    assert_eq!(black_left(&d.best), black_left("46x23x28x37"), "{}", d.best);
    assert_eq!(d.plies_to_end, Some(3), "{d:?}");
}

/// White takes Black's last man: a win in one ply.
#[test]
fn win_in_one_ply() {
    let d = think(Variant::English, "W:Wc5:Bb6", Limits::depth(4), 1, 1);
    assert_eq!(d.best, "14x5x9");
    assert_eq!(d.plies_to_end, Some(1));
}

/// Black's only move walks into the capture of its last man: lost in two plies.
#[test]
fn loss_in_two_plies() {
    let d = think(Variant::English, "B:Wc5,g1:Ba7", Limits::depth(4), 1, 1);
    assert_eq!(d.best, "5-9");
    assert_eq!(d.plies_to_end, Some(-2));
    assert!(d.score < 0);
}

/// Giveaway: the forced capture of Black's last man leaves Black without a move, and the
/// side without a move wins.
#[test]
fn giveaway_inverts_the_result() {
    let d = think(Variant::AntiEnglish, "W:Wc5:Bb6", Limits::depth(4), 1, 1);
    assert_eq!(d.plies_to_end, Some(-1));
}

/// One king each, both in a double corner: nobody can force anything.
#[test]
fn lone_kings_in_double_corners_are_level() {
    let d = think(Variant::English, "W:WK32:BK5", Limits::depth(16), 1, 1);
    assert!(d.score.abs() <= 20, "score {}", d.score);
    assert!(d.plies_to_end.is_none());
}

/// A lone king in the single corner is caught by the opposing king (English, short kings).
#[test]
fn a_king_in_the_single_corner_is_lost() {
    let d = think(Variant::English, "W:WK29:BK4", Limits::depth(16), 1, 1);
    assert!(d.plies_to_end.is_some_and(|n| n > 0), "{d:?}");
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    let mut engine = Engine::new(16);
    engine.book = false;
    engine.multipv = 3;
    let mut lines: Vec<(usize, i32, String)> = Vec::new();
    engine
        .think::<&str>(
            Variant::English,
            Start::Initial,
            &[],
            Limits::depth(8),
            &Control::new(false),
            &mut |i| {
                if i.depth == 8 {
                    lines.push((i.multipv, i.score, i.pv[0].clone()));
                }
            },
        )
        .expect("search");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(lines[0].1 >= lines[1].1 && lines[1].1 >= lines[2].1);
    let mut firsts: Vec<&String> = lines.iter().map(|l| &l.2).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn two_threads_play_a_legal_move() {
    let fen = "B:W17,21,23,25,29,30,31,32:B1,3,4,5,7,9,10,12,24";
    let d = think(Variant::English, fen, Limits::depth(10), 2, 1);
    assert!(legal_texts::<damas::core::rules::English>(fen).contains(&d.best));
}

#[test]
fn node_limit_stops_the_search() {
    let d = think(
        Variant::International,
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
        Limits::nodes(20_000),
        1,
        1,
    );
    assert!(d.nodes < 20_000 + 2_048, "nodes {}", d.nodes);
}

/// Every position of the perft tables: a short search returns one of its legal moves.
#[test]
fn a_legal_move_from_every_perft_position() {
    let mut checked = 0;
    for entry in fs::read_dir("tests/perft").expect("tests/perft") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).expect("name");
        let variant = Variant::from_name(name).expect("variant file name");
        let text = fs::read_to_string(&path).expect("read");
        let mut seen = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let fen = line.split('\t').next().expect("fen column");
            if seen.contains(&fen) {
                continue;
            }
            seen.push(fen);
            let legal = with_rules!(variant, R => {
                let pos: Position<R> = if fen == "start" {
                    Position::start()
                } else {
                    parse_fen(fen).expect("fen")
                };
                pos.legal_moves().iter().map(move_text::<R>).collect::<Vec<_>>()
            });
            let start = if fen == "start" {
                Start::Initial
            } else {
                Start::Fen(fen)
            };
            let mut engine = Engine::new(4);
            engine.book = false;
            let result = engine.think::<&str>(
                variant,
                start,
                &[],
                Limits::depth(4),
                &Control::new(false),
                &mut |_| {},
            );
            if legal.is_empty() {
                // A lost position (One-way's start leaves White without a move): an error.
                assert!(result.is_err(), "{name} {fen}: a move from a lost position");
                continue;
            }
            let d = result.expect("search");
            assert!(legal.contains(&d.best), "{name} {fen}: {}", d.best);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} positions");
}
