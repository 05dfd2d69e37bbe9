//! Checks against pydraughts 0.6.7, the client lidraughts-bot uses. They need a Python with
//! pydraughts installed, named by `DAMAS_PYTHON`; `.ci/run` builds that virtual environment
//! and runs them with `cargo test --profile ci --test suite pydraughts:: -- --ignored`.

use std::path::PathBuf;
use std::process::Command;

use damas::core::game::Game;
use damas::core::pdn;
use damas::core::position::Position;
use damas::core::rules::{self as r, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn python() -> String {
    std::env::var("DAMAS_PYTHON").expect("DAMAS_PYTHON names a Python with pydraughts 0.6.7")
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/pydraughts")
        .join(name)
}

fn run(args: &[&str]) {
    let out = Command::new(python())
        .args(args)
        .output()
        .expect("python runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    println!("{text}");
    assert!(out.status.success(), "{text}");
}

fn random_game<R: Rules>(seed: u64) -> Game<R> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(Position::<R>::start());
    for _ in 0..200 {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        game.play(&moves[rng.gen_range(0..moves.len())])
            .expect("legal");
    }
    game
}

fn pdn_read_by_pydraughts<R: Rules>(pydraughts_name: &str) {
    let games = 8;
    let mut text = String::new();
    for seed in 0..games {
        let g = random_game::<R>(seed);
        text += &pdn::write_game(
            &g,
            &[("Event", "pydraughts check"), ("Round", &seed.to_string())],
        );
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join(format!("{}.pdn", R::NAME));
    std::fs::write(&file, text).expect("write");
    run(&[
        script("pdn_check.py").to_str().expect("utf-8 path"),
        pydraughts_name,
        file.to_str().expect("utf-8 path"),
        &games.to_string(),
    ]);
}

#[test]
#[ignore = "needs DAMAS_PYTHON with pydraughts; run by .ci/run"]
fn pdn_files_parse_in_pydraughts() {
    pdn_read_by_pydraughts::<r::International>("standard");
    pdn_read_by_pydraughts::<r::Italian>("italian");
    pdn_read_by_pydraughts::<r::Russian>("russian");
    pdn_read_by_pydraughts::<r::Brazilian>("brazilian");
    pdn_read_by_pydraughts::<r::English>("english");
}

#[test]
#[ignore = "needs DAMAS_PYTHON with pydraughts; run by .ci/run"]
fn hub_engine_plays_complete_games() {
    run(&[
        script("hub_games.py").to_str().expect("utf-8 path"),
        env!("CARGO_BIN_EXE_damas"),
    ]);
}

#[test]
#[ignore = "needs DAMAS_PYTHON with pydraughts; run by .ci/run"]
fn dxp_engine_plays_complete_games() {
    run(&[
        script("dxp_games.py").to_str().expect("utf-8 path"),
        env!("CARGO_BIN_EXE_damas"),
    ]);
}
