//! PDN: games written by Damas read back identically, for every variant; files in the
//! wild (comments, variations, NAGs, landing-square paths) are read; bad files give typed
//! errors.

use damas::core::game::{Game, GameResult};
use damas::core::pdn::{self, PdnError};
use damas::core::position::Position;
use damas::{with_rules, Rules, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A random game of at most `plies` plies.
pub fn random_game<R: Rules>(seed: u64, plies: usize) -> Game<R> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(Position::<R>::start());
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let m = moves[rng.gen_range(0..moves.len())];
        game.play(&m).expect("legal");
    }
    game
}

fn round_trip<R: Rules>() {
    for seed in 0..20 {
        let game = random_game::<R>(seed, 300);
        let text = pdn::write_game(&game, &[("Event", "round trip"), ("White", "a \"b\"")]);
        let games = pdn::parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", R::NAME));
        assert_eq!(games.len(), 1);
        let read = &games[0];
        assert_eq!(read.tag("White"), Some("a \"b\""));
        assert_eq!(
            read.variant().expect("known"),
            Variant::from_name(R::NAME).ok()
        );
        let back = pdn::replay::<R>(read).unwrap_or_else(|e| panic!("{}: {e}\n{text}", R::NAME));
        assert_eq!(back.moves(), game.moves(), "{}", R::NAME);
        assert_eq!(
            back.outcome().map(|o| o.result),
            game.outcome().map(|o| o.result)
        );
        assert_eq!(
            pdn::write_game(&back, &[("Event", "round trip"), ("White", "a \"b\"")]),
            text
        );
    }
}

#[test]
fn every_variant_round_trips() {
    for &v in Variant::ALL {
        with_rules!(v, R => round_trip::<R>());
    }
}

#[test]
fn several_games_in_one_file_and_a_set_up_position() {
    use damas::core::rules::International;
    let a = random_game::<International>(1, 40);
    let mut b = Game::<International>::new(
        damas::core::notation::parse_fen("B:W28,K46:B19,23").expect("fen"),
    );
    let m = b.position().legal_moves()[0];
    b.play(&m).expect("legal");
    let text = pdn::write_game(&a, &[]) + &pdn::write_game(&b, &[]);
    let games = pdn::parse(&text).expect("parse");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("FEN"), Some("B:W28,K46:B19,23"));
    assert!(
        text.contains("1... "),
        "Black starts the set-up game: {text}"
    );
    let back = pdn::replay::<International>(&games[1]).expect("replay");
    assert_eq!(back.moves(), b.moves());
}

#[test]
fn reads_annotated_files() {
    let text = r#"[Event "Club game"]
[GameType "21"]
[Result "2-0"]

1. 11-15 23-19 {the Old Faithful} 2. 8-11 (2. 9-13 22-18) 22-17 $1
3. 4-8! 17-13 4. 15-18 24-20?! 5... 9-14 2-0
"#;
    let games = pdn::parse(text).expect("parse");
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(
        g.moves,
        ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "15-18", "24-20", "9-14"]
    );
    assert_eq!(g.result, Some(GameResult::WhiteWins));
    assert_eq!(g.variant().expect("type"), Some(Variant::English));
    let game = pdn::replay::<damas::core::rules::English>(g).expect("legal moves");
    assert_eq!(
        game.outcome().map(|o| o.result),
        Some(GameResult::WhiteWins)
    );
}

#[test]
fn capture_paths_with_landing_squares() {
    use damas::core::rules::English;
    // White's man on 27 (f2) jumps 23 (e3) to 18 (d4), then 14 (c5) to 9 (b6).
    let pos = damas::core::notation::parse_fen::<English>("W:W27:B23,14").expect("fen");
    let m = damas::core::notation::parse_move(&pos, "27x9x14x23").expect("full form");
    assert_eq!(pdn::resolve_pdn_move(&pos, "27x18x9"), Ok(m));
    assert_eq!(pdn::resolve_pdn_move(&pos, "27x9"), Ok(m));
    assert_eq!(pdn::resolve_pdn_move(&pos, "27x9x14x23"), Ok(m));
    assert_eq!(pdn::pdn_move_text(&pos, &m), "27x9");
    assert!(pdn::resolve_pdn_move(&pos, "27x18").is_err());
}

#[test]
fn bad_files_give_typed_errors() {
    assert!(matches!(
        pdn::parse("[Event \"x\"\n\n1. 32-28 *"),
        Err(PdnError::Syntax { line: 1, .. })
    ));
    assert!(matches!(
        pdn::parse("1. 32-28 (19-23 *"),
        Err(PdnError::Syntax { .. })
    ));
    assert!(matches!(
        pdn::parse("1. 32-28 19-2é3 *"),
        Err(PdnError::Syntax { .. })
    ));
    let games = pdn::parse("[GameType \"20\"]\n1. 32-28 19-23 2. 28-22 *").expect("parse");
    assert!(matches!(
        pdn::replay::<damas::core::rules::International>(&games[0]),
        Err(PdnError::BadMove { ply: 3, .. })
    ));
    let games = pdn::parse("[GameType \"99\"]\n1. 32-28 *").expect("parse");
    assert!(matches!(
        games[0].variant(),
        Err(PdnError::UnknownGameType(_))
    ));
    let games = pdn::parse("[FEN \"W:W99:B1\"]\n*").expect("parse");
    assert!(matches!(
        pdn::replay::<damas::core::rules::International>(&games[0]),
        Err(PdnError::BadFen(_))
    ));
}

fn every_move_text_resolves<R: Rules>() -> usize {
    let mut twins = 0;
    for seed in 0..30 {
        let game = random_game::<R>(seed, 200);
        let mut pos = *game.start();
        for m in game.moves() {
            for l in pos.legal_moves() {
                let text = pdn::pdn_move_text(&pos, &l);
                twins += text.matches('x').count().saturating_sub(1);
                assert_eq!(
                    pdn::resolve_pdn_move(&pos, &text),
                    Ok(l),
                    "{} {pos:?} {text}",
                    R::NAME
                );
            }
            pos.play(m);
        }
    }
    twins
}

#[test]
fn every_pdn_move_text_names_its_move() {
    let mut paths = 0;
    for &v in Variant::ALL {
        paths += with_rules!(v, R => every_move_text_resolves::<R>());
    }
    assert!(paths > 0, "some captures needed a landing-square path");
}
