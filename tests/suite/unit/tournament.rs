//! The ballot decks, seeded random openings, and the statistics behind the `result …` line.

use damas::core::notation::move_text;
use damas::core::position::Position;
use damas::core::rules::{English, International};
use damas::Variant;

use damas::app::tournament::ballot::{
    parse_deck, play_opening, OpeningSet, ENGLISH_2MOVE, ENGLISH_3MOVE,
};
use damas::app::tournament::cli::result_line;
use damas::app::tournament::stats::{Sprt, SprtDecision, Tally};

#[test]
fn random_openings_are_legal_balanced_and_seeded() {
    let set = OpeningSet::Random(8);
    let a = set
        .openings::<International>(Variant::International, 4, 7)
        .expect("openings");
    assert_eq!(a.len(), 4);
    for o in &a {
        assert_eq!(o.moves.len(), 8);
        play_opening::<International>(o).expect("legal");
    }
    let again = set
        .openings::<International>(Variant::International, 4, 7)
        .expect("openings");
    assert_eq!(a, again, "same seed, same openings");
    let other = set
        .openings::<International>(Variant::International, 4, 8)
        .expect("openings");
    assert_ne!(a, other);
    // Decks are for English only.
    assert!(OpeningSet::English3Move
        .openings::<International>(Variant::International, 4, 1)
        .is_err());
}

#[test]
fn three_move_deck_plays_legally() {
    let deck = parse_deck(ENGLISH_3MOVE).expect("deck");
    assert_eq!(deck.len(), 174);
    assert_eq!(deck.iter().filter(|o| !o.barred).count(), 156);
    assert_eq!(deck.iter().filter(|o| o.barred).count(), 18);
    for o in &deck {
        assert_eq!(o.moves.len(), 3, "{}", o.label);
        let game = play_opening::<English>(o).unwrap_or_else(|e| panic!("{e}"));
        assert!(game.outcome().is_none());
    }
    let mut lines: Vec<&Vec<String>> = deck.iter().map(|o| &o.moves).collect();
    lines.sort();
    lines.dedup();
    assert_eq!(lines.len(), 174, "no opening twice");
}

#[test]
fn two_move_deck_is_every_first_move_and_reply() {
    let deck = parse_deck(ENGLISH_2MOVE).expect("deck");
    assert_eq!(deck.len(), 49);
    let barred: Vec<String> = deck
        .iter()
        .filter(|o| o.barred)
        .map(|o| o.moves.join(" "))
        .collect();
    assert_eq!(
        barred,
        [
            "9-14 21-17",
            "9-14 23-18",
            "10-14 21-17",
            "10-14 23-18",
            "11-16 23-19",
            "12-16 23-19"
        ]
    );
    let mut generated = Vec::new();
    let start = Position::<English>::start();
    for m in start.legal_moves() {
        let after = start.after(&m);
        for r in after.legal_moves() {
            generated.push(format!(
                "{} {}",
                move_text::<English>(&m),
                move_text::<English>(&r)
            ));
        }
    }
    let mut listed: Vec<String> = deck.iter().map(|o| o.moves.join(" ")).collect();
    generated.sort();
    listed.sort();
    assert_eq!(listed, generated);
}

#[test]
fn elo_and_error_match_hand_computed_values() {
    let t = Tally {
        wins: 60,
        draws: 30,
        losses: 10,
    };
    let e = t.elo().expect("games");
    // 75%: -400 log10(1/0.75 - 1) = +190.85; per-game variance 0.1125, so the score's
    // 95% interval is 0.75 ± 0.0657 and the Elo one [134.36, 258.45].
    assert!((e.elo - 190.8485).abs() < 1e-3, "{}", e.elo);
    assert!((e.error - 62.045).abs() < 1e-2, "{}", e.error);
    assert_eq!(
        result_line(&t),
        "result games=100 wins=60 draws=30 losses=10 score=75.0 elo=190.8 error=±62.0"
    );
    assert_eq!(
        result_line(&t.mirrored()),
        "result games=100 wins=10 draws=30 losses=60 score=25.0 elo=-190.8 error=±62.0"
    );
    let even = Tally {
        wins: 10,
        draws: 0,
        losses: 10,
    };
    assert_eq!(even.elo().expect("games").elo, 0.0);
    assert!(result_line(&even).ends_with("score=50.0 elo=0.0 error=±163.3"));
}

#[test]
fn sprt_decisions() {
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let (lower, upper) = sprt.bounds();
    assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
    let strong = Tally {
        wins: 80,
        draws: 15,
        losses: 5,
    };
    assert_eq!(sprt.decide(strong), SprtDecision::AcceptH1);
    assert_eq!(sprt.decide(strong.mirrored()), SprtDecision::AcceptH0);
    let few = Tally {
        wins: 2,
        draws: 1,
        losses: 1,
    };
    assert_eq!(sprt.decide(few), SprtDecision::Continue);
}

#[test]
fn draw_adjudication_needs_a_level_run_of_scores() {
    use damas::app::tournament::cli::parse_draw_adjudication;
    use damas::app::tournament::DrawAdjudication;
    let a = parse_draw_adjudication("after=4 plies=3 score=0.05").expect("spec");
    assert_eq!(
        a,
        DrawAdjudication {
            after: 4,
            plies: 3,
            score: 0.05
        }
    );
    let level = [Some(0.3), Some(0.05), Some(-0.02), Some(0.0)];
    assert!(a.agreed(4, &level));
    assert!(!a.agreed(3, &level), "too early");
    assert!(!a.agreed(4, &level[..2]), "too few scores");
    assert!(!a.agreed(4, &[Some(0.0), Some(0.06), Some(0.0), Some(0.0)][1..]));
    assert!(
        !a.agreed(4, &[Some(0.0), None, Some(0.0)]),
        "a move without a score"
    );
    for bad in [
        "after=4 plies=3",
        "after=4 plies=1 score=0.1",
        "after=4 plies=3 score=-0.1",
        "after=4 plies=3 score=nan",
        "after=x plies=3 score=0.1",
        "after=4.5 plies=3 score=0.1",
        "after=4 plies=3 score=0.1 extra=1",
        "after",
    ] {
        assert!(parse_draw_adjudication(bad).is_err(), "{bad}");
    }
}
