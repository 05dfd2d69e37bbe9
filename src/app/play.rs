//! A game against the engine at a terminal: the board as text, moves typed in the
//! variant's notation. Reads and writes through any `BufRead`/`Write`, so it is tested
//! with scripted input.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use crate::app::terminal::diagram;
use damas::core::color::Color;
use damas::core::game::Game;
use damas::core::notation::{move_text, square_number, write_fen};
use damas::core::pdn;
use damas::core::rules::Rules;
use damas::core::variant::Variant;
use damas::engine::{start_position, Engine, EngineError, Start};
use damas::search::limits::Limits;
use damas::search::Control;

pub struct Settings {
    pub variant: Variant,
    pub fen: Option<String>,
    /// `white`, `black`, `first`, `second` or `none`.
    pub side: String,
    pub move_time: Duration,
    pub threads: usize,
    pub hash: usize,
    pub pdn: Option<PathBuf>,
    /// Play from the opening book while it has the position.
    pub book: bool,
}

/// Why a session could not start or had to stop.
#[derive(Debug)]
pub enum PlayError {
    Setup(EngineError),
    BadSide(String),
    Io(io::Error),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Setup(e) => write!(f, "{e}"),
            PlayError::BadSide(s) => write!(
                f,
                "bad side '{s}' (expected white, black, first, second or none)"
            ),
            PlayError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<io::Error> for PlayError {
    fn from(e: io::Error) -> Self {
        PlayError::Io(e)
    }
}

const HELP: &str = "type a move (e.g. 11-15, 15x24), or: moves, undo, hint, resign, draw, save FILE, fen, help, quit";

/// Play until the game ends or the person quits (or input ends).
pub fn run<R: Rules>(
    settings: &Settings,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), PlayError> {
    let start = match &settings.fen {
        Some(f) => Start::Fen(f),
        None => Start::Initial,
    };
    let first = start_position::<R>(start).map_err(PlayError::Setup)?;
    let person: Option<Color> = match settings.side.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        "first" => Some(R::FIRST),
        "second" => Some(R::FIRST.opposite()),
        "none" => None,
        _ => return Err(PlayError::BadSide(settings.side.clone())),
    };
    let mut engine = Engine::new(settings.hash);
    engine.threads = settings.threads;
    engine.book = settings.book;
    let mut game = Game::<R>::new(first);
    writeln!(out, "{} — {}", R::NAME, HELP)?;
    let mut line = String::new();
    loop {
        write!(out, "\n{}", diagram(game.position()))?;
        if let Some(o) = game.outcome() {
            writeln!(out, "game over: {} ({})", o.result.pdn(), o.termination)?;
            break;
        }
        let mover = game.position().side_to_move();
        if person != Some(mover) {
            let texts: Vec<String> = game.moves().iter().map(move_text::<R>).collect();
            let limits = Limits {
                move_time: Some(settings.move_time),
                ..Limits::default()
            };
            let done = engine
                .think(
                    settings.variant,
                    start,
                    &texts,
                    limits,
                    &Control::new(false),
                    &mut |_| {},
                )
                .map_err(PlayError::Setup)?;
            writeln!(
                out,
                "{} plays {}   (depth {}, score {}, {:.1} s)",
                mover.name(),
                done.best,
                done.depth,
                damas::engine::score_text(done.score),
                done.time.as_secs_f64()
            )?;
            if let Err(e) = game.play_text(&done.best) {
                writeln!(out, "engine move refused: {e}")?;
                break;
            }
            continue;
        }
        write!(out, "{} to move> ", mover.name())?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let legal = |g: &Game<R>| {
            let mut moves = g.position().legal_moves();
            moves.sort_by_key(|m| (square_number::<R>(m.from), square_number::<R>(m.to)));
            moves
                .iter()
                .map(move_text::<R>)
                .collect::<Vec<_>>()
                .join(" ")
        };
        match words.as_slice() {
            [] => {}
            ["help" | "?"] => writeln!(out, "{HELP}")?,
            ["quit" | "exit"] => break,
            ["moves"] => writeln!(out, "legal moves: {}", legal(&game))?,
            ["fen"] => writeln!(out, "{}", write_fen(game.position()))?,
            ["undo"] => {
                // Take back the person's last move and the engine's reply.
                let keep = game
                    .moves()
                    .len()
                    .saturating_sub(if person.is_some() { 2 } else { 1 });
                let moves = game.moves()[..keep].to_vec();
                game = Game::new(first);
                for m in &moves {
                    game.force(m);
                }
            }
            ["hint"] => {
                let texts: Vec<String> = game.moves().iter().map(move_text::<R>).collect();
                let limits = Limits {
                    move_time: Some(settings.move_time),
                    ..Limits::default()
                };
                match engine.think(
                    settings.variant,
                    start,
                    &texts,
                    limits,
                    &Control::new(false),
                    &mut |_| {},
                ) {
                    Ok(d) => writeln!(out, "hint: {}", d.best)?,
                    Err(e) => writeln!(out, "no hint: {e}")?,
                }
            }
            ["resign"] => {
                let _ = game.resign(mover);
            }
            ["draw"] => {
                let _ = game.agree_draw();
            }
            ["save", file] => match std::fs::write(file, pdn::write_game(&game, &tags(person))) {
                Ok(()) => writeln!(out, "saved {file}")?,
                Err(e) => writeln!(out, "cannot save {file}: {e}")?,
            },
            [text] => {
                if let Err(e) = game.play_text(text) {
                    writeln!(out, "{e}; legal moves: {}", legal(&game))?;
                }
            }
            _ => writeln!(out, "one move or command per line; {HELP}")?,
        }
    }
    if let Some(path) = &settings.pdn {
        std::fs::write(path, pdn::write_game(&game, &tags(person)))?;
        writeln!(out, "game written to {}", path.display())?;
    }
    Ok(())
}

fn tags(person: Option<Color>) -> Vec<(&'static str, &'static str)> {
    let name = |c: Color| {
        if person == Some(c) {
            "You"
        } else {
            "Damas"
        }
    };
    vec![
        ("Event", "Damas at the terminal"),
        ("White", name(Color::White)),
        ("Black", name(Color::Black)),
    ]
}
