//! Strength against a 1-ply material-only player: `cargo bench --bench strength`.
//!
//! Damas (a node limit per move) plays `GAMES` games per variant against a player that picks
//! the move leaving it the most material (men 1, kings 3 where they fly, 1.5 where they
//! do not), ties broken at random with a per-game seed; colours alternate. Games end by the
//! variant's rules (draw rules included) or are drawn at 300 plies. Prints one line per
//! variant: `strength variant=V games=N wins=W draws=D losses=L score=S%`.

use std::time::Instant;

use damas::core::game::{Game, GameResult};
use damas::core::notation::move_text;
use damas::core::position::{MoveOf, Position};
use damas::engine::{Engine, Start};
use damas::search::limits::Limits;
use damas::search::Control;
use damas::{with_rules, Color, Rules, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const MAX_PLIES: usize = 300;

fn material<R: Rules>(p: &Position<R>, us: Color) -> f64 {
    let king = if R::FLYING_KINGS { 3.0 } else { 1.5 };
    let side = |c: Color| {
        let all = p.pieces(c);
        let kings = (all & p.kings()).count() as f64;
        all.count() as f64 - kings + king * kings
    };
    side(us) - side(us.opposite())
}

fn greedy<R: Rules>(p: &Position<R>, rng: &mut StdRng) -> MoveOf<R> {
    let us = p.side_to_move();
    let moves = p.legal_moves();
    let scores: Vec<f64> = moves.iter().map(|m| material(&p.after(m), us)).collect();
    let best = scores.iter().cloned().fold(f64::MIN, f64::max);
    let top: Vec<_> = moves
        .iter()
        .zip(&scores)
        .filter(|(_, &s)| s == best)
        .map(|(m, _)| *m)
        .collect();
    top[rng.gen_range(0..top.len())]
}

/// Damas's points: 2 for a win, 1 for a draw.
fn play<R: Rules>(variant: Variant, engine: &Engine, damas: Color, seed: u64, nodes: u64) -> u32 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(Position::<R>::start());
    let mut texts = Vec::new();
    while game.outcome().is_none() && texts.len() < MAX_PLIES {
        let m = if game.position().side_to_move() == damas {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let done = engine
                .think(
                    variant,
                    Start::Initial,
                    &texts,
                    limits,
                    &Control::new(false),
                    &mut |_| {},
                )
                .expect("a legal move");
            damas::core::notation::parse_move(game.position(), &done.best).expect("legal")
        } else {
            greedy(game.position(), &mut rng)
        };
        texts.push(move_text::<R>(&m));
        game.play(&m).expect("legal");
    }
    match game.outcome().map(|o| o.result) {
        Some(GameResult::Draw) | None => 1,
        Some(r) if r == GameResult::win_for(damas) => 2,
        Some(_) => 0,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str, default: u64| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let games = value("--games", 100);
    let nodes = value("--nodes", 20_000);
    for name in ["english", "international"] {
        let variant = Variant::from_name(name).expect("variant");
        let mut engine = Engine::new(16);
        // The strength of the search, not of the book.
        engine.book = false;
        let start = Instant::now();
        let (mut w, mut d, mut l) = (0, 0, 0);
        for g in 0..games {
            let side = if g % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            engine.clear();
            let s = with_rules!(variant, R => play::<R>(variant, &engine, side, g, nodes));
            match s {
                2 => w += 1,
                1 => d += 1,
                _ => l += 1,
            }
        }
        println!(
            "strength variant={name} games={games} nodes/move={nodes} wins={w} draws={d} losses={l} score={:.1}% time={:.1}s",
            100.0 * (w as f64 + 0.5 * d as f64) / games as f64,
            start.elapsed().as_secs_f64()
        );
    }
}
