//! Elo of a score (`app::tournament::stats`).

use damas::app::tournament::stats::*;

#[test]
fn elo_of_known_scores() {
    assert!((elo_of_score(0.75) - 190.848).abs() < 1e-3);
    assert_eq!(elo_of_score(0.5), 0.0);
    assert!((elo_of_score(0.25) + 190.848).abs() < 1e-3);
    assert!((score_of_elo(190.848) - 0.75).abs() < 1e-6);
}

#[test]
fn mirrored_tally_negates_elo() {
    let t = Tally {
        wins: 30,
        draws: 50,
        losses: 20,
    };
    let a = t.elo().expect("games");
    let b = t.mirrored().elo().expect("games");
    assert!((a.elo + b.elo).abs() < 1e-9);
    assert!((a.error - b.error).abs() < 1e-9);
}
