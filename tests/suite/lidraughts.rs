//! The lidraughts and Scan 3.1 rule sets: Frisian and Frysk! (KNDB Frisian rules as lidraughts
//! plays them), Antidraughts and Breakthrough (lidraughts' rules pages), Killer (Christian
//! Freeling's rule as Scan 3.1 plays it). Each test sets up a position the rule text decides.
//! Perft and whole random games against pydraughts are in `tests/perft/<variant>.tsv` and
//! `tests/games/<variant>.tsv` (the games checked here, the perft in `perft::`).

use damas::core::draw::DrawReason;
use damas::core::game::{Game, GameResult, Termination};
use damas::core::geometry::Geometry;
use damas::core::notation::{move_text, parse_fen, parse_move, write_fen};
use damas::core::position::{MoveOf, Position};
use damas::core::rules::{self as r, Rules};
use damas::{with_rules, Color, Kind, Piece, PositionError, Setup, Square, Variant};

const K: Kind = Kind::King;
const M: Kind = Kind::Man;

fn sq<R: Rules>(f: i32, r: i32) -> Square {
    Square::new(R::G::LAYOUT.index(f, r).expect("on the board") as u8)
}

/// A position from (file, rank) pairs, 0-based from White's lower left.
fn setup<R: Rules>(
    side: Color,
    white: &[(i32, i32, Kind)],
    black: &[(i32, i32, Kind)],
) -> Result<Position<R>, PositionError> {
    let mut s = Setup::empty(side);
    for (color, list) in [(Color::White, white), (Color::Black, black)] {
        for &(f, r, kind) in list {
            s.put(sq::<R>(f, r), Piece::new(color, kind));
        }
    }
    Position::from_setup(&s)
}

fn pos<R: Rules>(
    side: Color,
    white: &[(i32, i32, Kind)],
    black: &[(i32, i32, Kind)],
) -> Position<R> {
    setup(side, white, black).expect("legal position")
}

fn texts<R: Rules>(p: &Position<R>) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(move_text::<R>).collect();
    v.sort();
    v
}

/// The legal move from one square to another (the first, if captures differ).
fn find<R: Rules>(p: &Position<R>, from: (i32, i32), to: (i32, i32)) -> MoveOf<R> {
    let (f, t) = (sq::<R>(from.0, from.1), sq::<R>(to.0, to.1));
    *p.legal_moves()
        .iter()
        .find(|m| m.from == f && m.to == t)
        .unwrap_or_else(|| panic!("no move {from:?}-{to:?} in {p:?}: {:?}", texts(p)))
}

#[test]
fn frisian_men_capture_along_ranks_and_files_both_ways() {
    type R = r::Frisian;
    // f4 takes h4 landing on j4, along the rank (over the next dark square).
    let p = parse_fen::<R>("W:W33:B34").expect("fen");
    assert_eq!(texts(&p), vec!["33x35x34"]);
    // Along the file, forwards (f4 over f6 to f8) and backwards (f6 over f4 to f2).
    assert_eq!(
        texts(&parse_fen::<R>("W:W33:B23").expect("fen")),
        vec!["33x13x23"]
    );
    assert_eq!(
        texts(&parse_fen::<R>("W:W23:B33").expect("fen")),
        vec!["23x43x33"]
    );
    // International men have no such capture.
    let p = parse_fen::<r::International>("W:W33:B34").expect("fen");
    assert_eq!(texts(&p), vec!["33-28", "33-29"]);
}

#[test]
fn frisian_kings_capture_orthogonally_over_any_distance() {
    type R = r::Frisian;
    // A king on b4 (31) takes h4 (34) along the rank, landing on j4 (35).
    let p = parse_fen::<R>("W:WK31:B34").expect("fen");
    assert_eq!(texts(&p), vec!["31x35x34"]);
    // Along the file from f2 (43) over f8 (13), landing on f10 (3).
    let p = parse_fen::<R>("W:WK43:B13").expect("fen");
    assert_eq!(texts(&p), vec!["43x3x13"]);
}

#[test]
fn frisian_two_men_outweigh_one_king() {
    type R = r::Frisian;
    // c3 could take the king on d4 (199); g3 takes h4 and h6 (200): the men are compulsory.
    let p = pos::<R>(
        Color::White,
        &[(2, 2, M), (6, 2, M)],
        &[(3, 3, K), (7, 3, M), (7, 5, M)],
    );
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 1, "{:?}", texts(&p));
    assert_eq!(moves[0].from, sq::<R>(6, 2));
    assert_eq!(moves[0].captured.count(), 2);
    // With one man on that side, the king (199 against 100) is compulsory.
    let p = pos::<R>(
        Color::White,
        &[(2, 2, M), (6, 2, M)],
        &[(3, 3, K), (7, 3, M)],
    );
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 1, "{:?}", texts(&p));
    assert_eq!((moves[0].from, moves[0].to), (sq::<R>(2, 2), sq::<R>(4, 4)));
}

#[test]
fn frisian_two_kings_outweigh_three_men() {
    // a1 takes the kings on b2 and d4 (2 x 199); g1 takes h2, h4 and g7 (3 x 100).
    let white = [(0, 0, M), (6, 0, M)];
    let black = [(1, 1, K), (3, 3, K), (7, 1, M), (7, 3, M), (6, 6, M)];
    let p = pos::<r::Frisian>(Color::White, &white, &black);
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 1, "{:?}", texts(&p));
    assert_eq!(moves[0].from, sq::<r::Frisian>(0, 0));
    // International counts pieces: the three men.
    let black_i = [(1, 1, K), (3, 3, K), (7, 1, M), (7, 3, M), (5, 5, M)];
    let p = pos::<r::International>(Color::White, &white, &black_i);
    assert!(p.legal_moves().iter().all(|m| m.captured.count() == 3));
}

#[test]
fn frisian_a_king_captures_before_a_man_of_equal_value() {
    type R = r::Frisian;
    // The king on i1 can take h2 (its own man on f4 stops it on g3), the man on f4 can
    // take e5: one man each, and only the king may.
    let p = pos::<R>(
        Color::White,
        &[(5, 3, M), (8, 0, K)],
        &[(4, 4, M), (7, 1, M)],
    );
    assert_eq!(texts(&p), vec!["50x39x44"]);
    // In International the man may as well.
    let p = pos::<r::International>(
        Color::White,
        &[(5, 3, M), (8, 0, K)],
        &[(4, 4, M), (7, 1, M)],
    );
    assert_eq!(texts(&p), vec!["33x22x28", "50x39x44"]);
}

#[test]
fn frisian_a_man_is_crowned_only_where_its_capture_ends() {
    type R = r::Frisian;
    // f8 takes g9 and ends on h10: crowned.
    let p = pos::<R>(Color::White, &[(5, 7, M)], &[(6, 8, M), (1, 1, M)]);
    let m = find(&p, (5, 7), (7, 9));
    assert!(m.promotes());
    assert_eq!(
        p.after(&m).piece_at(sq::<R>(7, 9)),
        Some(Piece::new(Color::White, K))
    );
    // h8 takes i9, reaching j10, and must go on down the file over j8 to j6: still a man.
    let p = pos::<R>(
        Color::White,
        &[(7, 7, M)],
        &[(8, 8, M), (9, 7, M), (1, 1, M)],
    );
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 1, "{:?}", texts(&p));
    assert_eq!(moves[0].to, sq::<R>(9, 5));
    assert!(!moves[0].promotes());
    assert_eq!(
        p.after(&moves[0]).piece_at(sq::<R>(9, 5)),
        Some(Piece::new(Color::White, M))
    );
}

#[test]
fn frisian_a_king_makes_at_most_three_quiet_moves_in_a_row_while_men_remain() {
    type R = r::Frisian;
    let (a, b) = ((4, 0), (5, 1));
    let black_king = [(9, 9), (8, 8)];
    let kings_moves_from = |p: &Position<R>, at: (i32, i32)| {
        let s = sq::<R>(at.0, at.1);
        p.legal_moves().iter().filter(|m| m.from == s).count()
    };
    // White: kings on e1 and i1 and a man on a3; Black: a lone king shuttling j10-i9.
    let start = pos::<R>(
        Color::White,
        &[(4, 0, K), (8, 0, K), (0, 2, M)],
        &[(9, 9, K)],
    );
    let mut p = start;
    for i in 0..3 {
        let (from, to) = if i % 2 == 0 { (a, b) } else { (b, a) };
        p = p.after(&find(&p, from, to));
        let (bf, bt) = (black_king[i % 2], black_king[1 - i % 2]);
        p = p.after(&find(&p, bf, bt));
    }
    // Three moves by the king now on f2: it may not make a fourth; the other king and the
    // man may move.
    assert_eq!(kings_moves_from(&p, b), 0, "{:?}", texts(&p));
    assert!(kings_moves_from(&p, (8, 0)) > 0);
    assert!(kings_moves_from(&p, (0, 2)) > 0);
    // The other king's move ends the run: the first may move again next turn.
    let q = p.after(&find(&p, (8, 0), (9, 1)));
    let q = q.after(&find(&q, (8, 8), (9, 9)));
    assert!(kings_moves_from(&q, b) > 0);
    // So does a man's move.
    let q = p.after(&find(&p, (0, 2), (1, 3)));
    let q = q.after(&find(&q, (8, 8), (9, 9)));
    assert!(kings_moves_from(&q, b) > 0);
    // The run is part of the position: the same pieces without it are another position.
    assert_ne!(p.hash(), p.with_king_runs(Default::default()).hash());
    // Without men the limit does not apply.
    let mut p = pos::<R>(Color::White, &[(4, 0, K), (8, 0, K)], &[(9, 9, K)]);
    for i in 0..3 {
        let (from, to) = if i % 2 == 0 { (a, b) } else { (b, a) };
        p = p.after(&find(&p, from, to));
        let (bf, bt) = (black_king[i % 2], black_king[1 - i % 2]);
        p = p.after(&find(&p, bf, bt));
    }
    assert!(kings_moves_from(&p, b) > 0);
}

#[test]
fn frisian_small_king_endings_are_drawn_by_the_counters() {
    type R = r::Frisian;
    let limit = |white: &[(i32, i32, Kind)], black: &[(i32, i32, Kind)]| {
        R::DRAW.endgame_limit(&pos::<R>(Color::White, white, black))
    };
    // Kings only: two against one, 7 moves each; one against one, 2 moves each.
    assert_eq!(limit(&[(0, 0, K), (2, 0, K)], &[(9, 9, K)]), 14);
    assert_eq!(limit(&[(0, 0, K)], &[(9, 9, K), (7, 9, K)]), 14);
    assert_eq!(limit(&[(0, 0, K)], &[(9, 9, K)]), 4);
    // Any man, or three kings, and no counter runs.
    assert_eq!(limit(&[(0, 0, K), (2, 0, K)], &[(9, 9, K), (1, 7, M)]), 0);
    assert_eq!(limit(&[(0, 0, K), (2, 0, K), (4, 0, K)], &[(9, 9, K)]), 0);
    // One king each, far apart: drawn after two moves each.
    let mut g = Game::new(pos::<R>(Color::White, &[(0, 0, K)], &[(9, 7, K)]));
    for (from, to) in [
        ((0, 0), (1, 1)),
        ((9, 7), (8, 6)),
        ((1, 1), (0, 0)),
        ((8, 6), (9, 7)),
    ] {
        assert!(g.outcome().is_none());
        let m = find(g.position(), from, to);
        g.play(&m).expect("legal");
    }
    let o = g.outcome().expect("drawn");
    assert_eq!(o.result, GameResult::Draw);
    assert_eq!(o.termination, Termination::Draw(DrawReason::Endgame));
}

#[test]
fn frysk_starts_from_five_men_each_on_the_back_rank() {
    assert_eq!(
        write_fen(&Position::<r::Frysk>::start()),
        "W:W46,47,48,49,50:B1,2,3,4,5"
    );
}

#[test]
fn killer_a_king_that_ends_its_capture_on_a_king_stops_behind_it() {
    // a1 takes the king on d4: Killer stops on e5, International may go on to j10.
    let white = [(0, 0, K)];
    let black = [(3, 3, K), (9, 1, M)];
    let killer = pos::<r::Killer>(Color::White, &white, &black);
    assert_eq!(texts(&killer), vec!["46x28x32"]);
    let intl = pos::<r::International>(Color::White, &white, &black);
    assert_eq!(intl.legal_moves().len(), 6);
    // Taking the king first and a man last, the king lands anywhere beyond the man.
    let black = [(3, 3, K), (7, 3, M), (9, 9, M)];
    let killer = pos::<r::Killer>(Color::White, &white, &black);
    let intl = pos::<r::International>(Color::White, &white, &black);
    assert_eq!(texts(&killer), texts(&intl));
    assert_eq!(killer.legal_moves().len(), 2, "{:?}", texts(&killer));
    // A man's capture of a king is the same in both.
    let p = pos::<r::Killer>(Color::White, &[(2, 2, M)], &[(3, 3, K)]);
    assert_eq!(p.legal_moves().len(), 1);
}

#[test]
fn breakthrough_the_first_king_wins() {
    type R = r::Breakthrough;
    let mut g = Game::new(pos::<R>(Color::White, &[(2, 8, M)], &[(5, 5, M)]));
    let m = find(g.position(), (2, 8), (1, 9));
    g.play(&m).expect("legal");
    let o = g.outcome().expect("over");
    assert_eq!(o.result, GameResult::win_for(Color::White));
    assert_eq!(o.termination, Termination::Crowned(Color::White));
    assert!(g.position().legal_moves().is_empty());
    // A position where the side to move has already crowned is no position of the game.
    assert_eq!(
        setup::<R>(Color::White, &[(1, 9, K)], &[(5, 5, M)]),
        Err(PositionError::CrownedToMove(Color::White))
    );
}

#[test]
fn antidraughts_the_side_without_a_move_wins() {
    type R = r::Antidraughts;
    // White's man on a1 is blocked by b2 and c3: White, to move, has won.
    let g = Game::new(pos::<R>(
        Color::White,
        &[(0, 0, M)],
        &[(1, 1, M), (2, 2, M)],
    ));
    let o = g.outcome().expect("over");
    assert_eq!(o.result, GameResult::win_for(Color::White));
    // Captures stay compulsory, the most pieces first.
    let p = parse_fen::<R>("W:W33:B28,17").expect("fen");
    assert_eq!(texts(&p), vec!["33x11x17x28"]);
}

#[test]
fn hub_names_as_scan_and_pydraughts_send_them() {
    for (name, v) in [
        ("frisian", Variant::Frisian),
        ("frysk", Variant::Frysk),
        ("frysk!", Variant::Frysk),
        ("antidraughts", Variant::Antidraughts),
        ("losing", Variant::Antidraughts),
        ("breakthrough", Variant::Breakthrough),
        ("bt", Variant::Breakthrough),
        ("killer", Variant::Killer),
    ] {
        assert_eq!(Variant::from_name(name), Ok(v), "{name}");
    }
}

/// Replays pydraughts' random games: after every move the legal moves must be the same.
fn replay<R: Rules>(name: &str) {
    let path = format!("{}/tests/games/{name}.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("games file");
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (played, legal) = line.split_once('\t').expect("two columns");
        let mut p = Position::<R>::start();
        for mv in played.split_whitespace() {
            let m = parse_move(&p, mv).unwrap_or_else(|e| panic!("{path}:{}: {mv}: {e}", i + 1));
            p = p.after(&m);
        }
        let want: Vec<&str> = legal.split_whitespace().collect();
        assert_eq!(texts(&p), want, "{path}:{} after {played}", i + 1);
        lines += 1;
    }
    assert!(lines > 100, "{path}: only {lines} positions");
}

#[test]
fn random_games_agree_with_pydraughts() {
    for name in ["frisian", "frysk", "antidraughts", "breakthrough"] {
        let v = Variant::from_name(name).expect("variant");
        with_rules!(v, R => replay::<R>(name));
    }
}
