//! Properties over random games of every variant: FEN and board-string round-trips,
//! incremental hash = recomputed hash, printed moves re-parse to themselves, the shift test
//! for a crowning move agrees with the move list, incremental pattern indices = the windows'
//! men read square by square.

use damas::core::geometry::Geometry;
use damas::core::notation::{
    move_text, parse_board_string, parse_fen, parse_move, write_board_string, write_fen,
    NotationError,
};
use damas::core::patterns::{windows, IndexedPosition, WINDOW_SQUARES};
use damas::{with_rules, Color, Position, PositionError, Rules, Square, Variant};
use proptest::prelude::*;

/// Each window's index read square by square: 1 for a White man, 2 for a Black one, as
/// base-3 digits in the window's square order; kings and parachutists count as empty.
fn assert_patterns<R: Rules>(pos: &IndexedPosition<R>) {
    let w = windows(&R::G::LAYOUT);
    let men = |c: Color| pos.pieces(c) & !pos.kings() & !pos.parachutists();
    let (white, black) = (men(Color::White), men(Color::Black));
    for j in 0..w.count {
        let mut expected = 0u16;
        for k in (0..WINDOW_SQUARES).rev() {
            let sq = Square::new(w.squares[j][k]);
            expected =
                3 * expected + u16::from(white.contains(sq)) + 2 * u16::from(black.contains(sq));
        }
        assert_eq!(pos.pattern_indices()[j], expected, "window {j}");
    }
    assert!(pos.pattern_indices()[w.count..].iter().all(|&i| i == 0));
}

fn walk<R: Rules>(choices: &[usize]) {
    let mut pos = Position::<R>::start();
    let mut indexed = IndexedPosition::new(pos);
    assert_patterns(&indexed);
    for &c in choices {
        let fen = write_fen(&pos);
        if let Some(bare) = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| pos.pieces(c).count() == 0)
        {
            // A side without pieces ends the game, and is no position to start from.
            let refused = Err(NotationError::Position(PositionError::NoPieces(bare)));
            assert_eq!(parse_fen::<R>(&fen), refused, "{fen}");
            assert!(pos.legal_moves().is_empty() || bare != pos.side_to_move());
            break;
        }
        let back: Position<R> = parse_fen(&fen).expect("own FEN parses");
        assert_eq!(back, pos, "FEN round-trip {fen}");
        assert_eq!(back.hash(), pos.hash());
        // A board string holds the pieces only, not the king-move runs (Frisian).
        let board = write_board_string(&pos);
        assert_eq!(
            parse_board_string::<R>(&board).expect("board string"),
            pos.with_king_runs(Default::default())
        );
        let moves = pos.legal_moves();
        if !moves.iter().any(|m| m.is_capture()) {
            let crowns = moves.iter().any(|m| m.promotes());
            assert_eq!(pos.can_crown_quietly(), crowns, "{fen}");
        }
        for m in &moves {
            let text = move_text::<R>(m);
            let parsed = parse_move(&pos, &text).expect("own move text parses");
            assert!(parsed.same_as(m), "{text} re-parses to another move");
        }
        if moves.is_empty() {
            break;
        }
        let m = moves[c % moves.len()];
        pos.play(&m);
        assert_eq!(pos.hash(), pos.compute_hash());
        indexed = indexed.after(&m);
        assert_eq!(*indexed.position(), pos);
        assert_patterns(&indexed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn round_trips_and_hash(variant in 0..Variant::ALL.len(), choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let v = Variant::ALL[variant];
        with_rules!(v, R => walk::<R>(&choices));
    }
}

#[test]
fn bad_fens_are_errors_not_panics() {
    type R = damas::core::rules::English;
    for bad in [
        "",
        "X:W1:B2",
        "W:W33:B1",
        "W:W1,1:B2",
        "W:W1:B1",
        "W:Wzz",
        "W:W5-3",
        "W:K",
        "W:W1-40",
        "W:W0",
        "W:Q1",
        "W:Wa2",
    ] {
        assert!(parse_fen::<R>(bad).is_err(), "{bad:?} accepted");
    }
    assert!(parse_fen::<damas::core::rules::Turkish>("W:W12").is_err());
}

#[test]
fn algebraic_and_numeric_squares_agree() {
    type R = damas::core::rules::Russian;
    let a: Position<R> =
        parse_fen("B:Wa1,g1,h2,a3,e3,g3,d4,f4,h6:Bb6,d6,c7,e7,g7,b8,d8,f8,h8").expect("algebraic");
    let n: Position<R> =
        parse_fen("B:W12,18,19,21,23,24,28,29,32:B1,2,3,4,6,7,8,9,10").expect("numeric");
    assert_eq!(a, n);
}

#[test]
fn numberings_follow_the_rules_reference() {
    use damas::core::notation::{square_algebraic, square_from_number};
    fn name<R: Rules>(n: u32) -> String {
        square_algebraic::<R>(square_from_number::<R>(n).expect("square"))
    }
    use damas::core::rules::*;
    assert_eq!(name::<English>(1), "b8");
    assert_eq!(name::<English>(32), "g1");
    assert_eq!(name::<Italian>(1), "a8");
    assert_eq!(name::<Italian>(32), "h1");
    assert_eq!(name::<Portuguese>(1), "h1");
    assert_eq!(name::<Portuguese>(5), "g2");
    assert_eq!(name::<Portuguese>(32), "a8");
    assert_eq!(name::<International>(1), "b10");
    assert_eq!(name::<International>(46), "a1");
    assert_eq!(name::<Canadian>(1), "b12");
    assert_eq!(name::<Canadian>(72), "k1");
}

#[test]
fn short_capture_form_and_any_order() {
    type R = damas::core::rules::International;
    let pos: Position<R> = parse_fen("W:W28:B23,13").expect("fen");
    let full = parse_move(&pos, "28x8x23x13").expect("full form");
    assert_eq!(parse_move(&pos, "28x8x13x23").expect("any order"), full);
    assert_eq!(parse_move(&pos, "28x8").expect("short form"), full);
    assert!(parse_move(&pos, "28-22").is_err());
    assert!(parse_move(&pos, "28x8x99").is_err());
    assert!(parse_move(&pos, "garbage").is_err());
}
