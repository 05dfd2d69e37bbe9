//! Game outcomes and draw rules per variant, from the rule texts (rules reference: seed 000
//! for English, seed 002 for Brazilian, the FMJD rules for International, …).

use damas::core::draw::{DrawReason, DrawRules};
use damas::core::game::{Game, GameResult, Outcome, Termination};
use damas::core::geometry::Geometry;
use damas::core::position::{MoveOf, Position};
use damas::core::rules::{self as r, Rules};
use damas::{Color, Kind, Piece, Setup, Square};

/// A position from (file, rank) pairs, 0-based from White's lower left.
fn setup<R: Rules>(side: Color, white: &[(i32, i32, Kind)], black: &[(i32, i32, Kind)]) -> Game<R> {
    let mut s = Setup::empty(side);
    for (color, list) in [(Color::White, white), (Color::Black, black)] {
        for &(f, r, kind) in list {
            let i = R::G::LAYOUT.index(f, r).expect("on the board");
            s.put(Square::new(i as u8), Piece::new(color, kind));
        }
    }
    Game::new(Position::from_setup(&s).expect("legal position"))
}

const K: Kind = Kind::King;
const M: Kind = Kind::Man;

/// Non-capturing king moves after which the opponent has no capture and still has such a
/// move himself.
fn safe_king_moves<R: Rules>(pos: &Position<R>, depth: u32) -> Vec<MoveOf<R>> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            if m.is_capture() || !pos.kings().contains(m.from) {
                return false;
            }
            let child = pos.after(m);
            !child.legal_moves().iter().any(|c| c.is_capture())
                && (depth == 0 || !safe_king_moves(&child, depth - 1).is_empty())
        })
        .collect()
}

/// Play safe king moves, preferring positions seen least often, while `allowed` holds;
/// returns the ply at which the game ended.
fn wander<R: Rules>(
    game: &mut Game<R>,
    max: usize,
    allowed: impl Fn(&Position<R>) -> bool,
) -> Option<usize> {
    for ply in 1..=max {
        let pos = *game.position();
        let mut best: Option<(usize, Game<R>)> = None;
        let mut candidates = safe_king_moves(&pos, 1);
        if candidates.is_empty() {
            candidates = safe_king_moves(&pos, 0);
        }
        for m in candidates {
            if !allowed(&pos.after(&m)) {
                continue;
            }
            let mut g = game.clone();
            g.play(&m).expect("legal");
            let seen = g.occurrences();
            if best.as_ref().is_none_or(|(s, _)| seen < *s) {
                best = Some((seen, g));
            }
        }
        *game = best
            .unwrap_or_else(|| panic!("no safe king move at ply {ply} in {pos:?}"))
            .1;
        if game.outcome().is_some() {
            return Some(ply);
        }
    }
    None
}

fn drawn_by(game: &Game<impl Rules>, reason: DrawReason) {
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            result: GameResult::Draw,
            termination: Termination::Draw(reason)
        })
    );
}

/// Each side's first king goes forth and back, twice: the start position comes back at
/// plies 4 and 8.
fn shuffle<R: Rules>(game: &mut Game<R>, cycles: usize) -> Vec<Option<Outcome>> {
    let pos = *game.position();
    let first = |p: &Position<R>| safe_king_moves(p, 2)[0];
    let a = first(&pos);
    let b = first(&pos.after(&a));
    let back = |p: &Position<R>, m: &MoveOf<R>| {
        p.legal_moves()
            .into_iter()
            .find(|x| x.from == m.to && x.to == m.from)
            .expect("the move back")
    };
    let mut outcomes = Vec::new();
    for _ in 0..cycles {
        for m in [a, b] {
            outcomes.push(game.play(&m).expect("legal"));
        }
        for m in [a, b] {
            let mb = back(game.position(), &m);
            outcomes.push(game.play(&mb).expect("legal"));
        }
    }
    outcomes
}

fn two_kings_each<R: Rules>() -> Game<R> {
    let h = R::G::LAYOUT.height as i32 - 1;
    setup::<R>(
        Color::White,
        &[(0, 0, K), (2, 0, K)],
        &[(h, h, K), (h - 2, h, K)],
    )
}

#[test]
fn english_third_repetition_draws_at_once() {
    let mut g = two_kings_each::<r::English>();
    let outcomes = shuffle(&mut g, 2);
    assert!(outcomes[..7].iter().all(Option::is_none));
    assert_eq!(g.occurrences(), 3);
    drawn_by(&g, DrawReason::Repetition);
    assert!(
        g.play(&g.position().legal_moves()[0]).is_err(),
        "no move after the end"
    );
}

#[test]
fn english_forty_plies_without_capture_or_man_move() {
    let mut g = two_kings_each::<r::English>();
    assert_eq!(wander(&mut g, 60, |_| true), Some(40));
    drawn_by(&g, DrawReason::QuietMoves);
}

#[test]
fn a_man_move_resets_the_english_counter() {
    let mut g = setup::<r::English>(
        Color::White,
        &[(0, 0, K), (2, 0, K), (6, 0, M)],
        &[(7, 7, K), (5, 7, K), (1, 7, M)],
    );
    assert_eq!(wander(&mut g, 30, |_| true), None);
    assert_eq!(g.counters().quiet, 30);
    let man = g
        .position()
        .legal_moves()
        .into_iter()
        .find(|m| !g.position().kings().contains(m.from))
        .expect("a man move");
    g.play(&man).expect("legal");
    assert_eq!(g.counters().quiet, 0);
    assert_eq!(wander(&mut g, 60, |_| true), Some(40));
}

#[test]
fn no_legal_move_loses_and_wins_in_giveaway() {
    // Black's man on b2 is blocked by White's men on a1 and c1.
    let blocked = [(0, 0, M), (2, 0, M)];
    let g = setup::<r::English>(Color::Black, &blocked, &[(1, 1, M)]);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            result: GameResult::WhiteWins,
            termination: Termination::NoMove(Color::Black)
        })
    );
    let g = setup::<r::AntiEnglish>(Color::Black, &blocked, &[(1, 1, M)]);
    assert_eq!(g.outcome().map(|o| o.result), Some(GameResult::BlackWins));
}

#[test]
fn giveaway_and_thai_draw_by_repetition_only() {
    let mut g = two_kings_each::<r::AntiEnglish>();
    shuffle(&mut g, 2);
    drawn_by(&g, DrawReason::Repetition);
    let mut g = two_kings_each::<r::AntiEnglish>();
    assert_eq!(wander(&mut g, 100, |_| true), None);

    let mut g = two_kings_each::<r::Thai>();
    shuffle(&mut g, 2);
    drawn_by(&g, DrawReason::Repetition);
}

#[test]
fn international_twenty_five_king_moves_each() {
    let mut g = two_kings_each::<r::International>();
    assert_eq!(wander(&mut g, 80, |_| true), Some(50));
    drawn_by(&g, DrawReason::QuietMoves);
}

#[test]
fn international_sixteen_and_five_move_endgames() {
    // Three kings against one: 16 moves each.
    let mut g = setup::<r::International>(
        Color::White,
        &[(0, 0, K), (2, 0, K), (4, 0, K)],
        &[(5, 9, K)],
    );
    assert_eq!(wander(&mut g, 60, |_| true), Some(32));
    drawn_by(&g, DrawReason::Endgame);
    // King and man against king: 5 moves each.
    let mut g = setup::<r::International>(Color::White, &[(0, 0, K), (4, 0, M)], &[(5, 9, K)]);
    assert_eq!(wander(&mut g, 60, |_| true), Some(10));
    drawn_by(&g, DrawReason::Endgame);
    // King against king.
    let mut g = setup::<r::International>(Color::Black, &[(0, 0, K)], &[(5, 9, K)]);
    assert_eq!(wander(&mut g, 60, |_| true), Some(10));
    // Four kings against one: no counter but the 25-move rule.
    let mut g = setup::<r::International>(
        Color::White,
        &[(0, 0, K), (2, 0, K), (4, 0, K), (6, 0, K)],
        &[(5, 9, K)],
    );
    assert_eq!(wander(&mut g, 80, |_| true), Some(50));
    drawn_by(&g, DrawReason::QuietMoves);
}

#[test]
fn canadian_three_kings_against_one() {
    let mut g = setup::<r::Canadian>(
        Color::White,
        &[(0, 0, K), (2, 0, K), (4, 0, K)],
        &[(7, 11, K)],
    );
    assert_eq!(wander(&mut g, 60, |_| true), Some(32));
    drawn_by(&g, DrawReason::Endgame);
}

#[test]
fn brazilian_one_king_each_is_a_draw_and_nothing_counts_moves() {
    let g = setup::<r::Brazilian>(Color::White, &[(0, 0, K)], &[(7, 7, K)]);
    drawn_by(&g, DrawReason::LonePieces);
    let g = setup::<r::Brazilian>(Color::White, &[(0, 0, K)], &[(7, 7, M)]);
    assert_eq!(g.outcome(), None, "king against man plays on");
    let mut g = two_kings_each::<r::Brazilian>();
    assert_eq!(wander(&mut g, 120, |_| true), None);
    let mut g = two_kings_each::<r::Brazilian>();
    shuffle(&mut g, 2);
    drawn_by(&g, DrawReason::Repetition);
}

#[test]
fn turkish_one_piece_each_is_a_draw() {
    let g = setup::<r::Turkish>(Color::White, &[(0, 1, M)], &[(7, 6, M)]);
    drawn_by(&g, DrawReason::LonePieces);
    let g = setup::<r::Turkish>(Color::White, &[(0, 1, K)], &[(7, 6, M)]);
    drawn_by(&g, DrawReason::LonePieces);
    let g = setup::<r::Turkish>(Color::White, &[(0, 1, M), (1, 1, M)], &[(7, 6, M)]);
    assert_eq!(g.outcome(), None);
}

#[test]
fn russian_counters() {
    // Fifteen moves each of king moves only.
    let mut g = two_kings_each::<r::Russian>();
    assert_eq!(wander(&mut g, 60, |_| true), Some(30));
    drawn_by(&g, DrawReason::QuietMoves);
    // Three kings against a lone king off the main road: 15 moves each.
    let off_road = |p: &Position<r::Russian>| {
        let lone = p.pieces(Color::Black).first().expect("black king");
        let coords = <r::Russian as Rules>::G::LAYOUT.coords(lone.index() as u32);
        coords.is_some_and(|(f, r)| f != r)
    };
    let mut g = setup::<r::Russian>(
        Color::White,
        &[(0, 0, K), (2, 0, K), (4, 0, K)],
        &[(0, 6, K)],
    );
    assert_eq!(wander(&mut g, 60, off_road), Some(30));
    drawn_by(&g, DrawReason::Endgame);
    // On the main road: 5 moves each.
    let mut g = setup::<r::Russian>(
        Color::White,
        &[(0, 2, K), (2, 0, K), (6, 0, K)],
        &[(7, 7, K)],
    );
    assert_eq!(wander(&mut g, 60, |p| !off_road(p)), Some(10));
    drawn_by(&g, DrawReason::Endgame);
}

#[test]
fn czech_and_portuguese_quiet_counts() {
    let mut g = two_kings_each::<r::Czech>();
    assert_eq!(wander(&mut g, 60, |_| true), Some(30));
    let mut g = two_kings_each::<r::Portuguese>();
    assert_eq!(wander(&mut g, 60, |_| true), Some(40));
    drawn_by(&g, DrawReason::QuietMoves);
}

#[test]
fn italian_fourth_repetition_and_eighty_plies() {
    let mut g = two_kings_each::<r::Italian>();
    let outcomes = shuffle(&mut g, 3);
    assert!(
        outcomes[..11].iter().all(Option::is_none),
        "the third occurrence plays on"
    );
    drawn_by(&g, DrawReason::Repetition);
    let mut g = two_kings_each::<r::Italian>();
    assert_eq!(wander(&mut g, 100, |_| true), Some(80));
    // The counts are options.
    let start = *two_kings_each::<r::Italian>().position();
    let mut g = Game::with_draw_rules(
        start,
        DrawRules {
            repetitions: 3,
            ..r::Italian::DRAW
        },
    );
    let outcomes = shuffle(&mut g, 2);
    assert!(outcomes[..7].iter().all(Option::is_none));
    drawn_by(&g, DrawReason::Repetition);
}

#[test]
fn recorded_results() {
    let mut g = two_kings_each::<r::English>();
    let o = g.resign(Color::White).expect("game on");
    assert_eq!(o.result, GameResult::BlackWins);
    assert!(g.agree_draw().is_err());
    let mut g = two_kings_each::<r::English>();
    assert_eq!(g.agree_draw().expect("game on").result, GameResult::Draw);
}
