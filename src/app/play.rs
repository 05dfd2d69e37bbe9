//! A game against the engine at a terminal: the board as text (with square numbers for the
//! variants written with numbers), moves typed in the variant's notation. Reads and writes
//! through any `BufRead`/`Write`, so it is tested with scripted input.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::app::terminal::diagram_with_numbers;
use crate::core::color::Color;
use crate::core::game::Game;
use crate::core::notation::{move_text, square_number, write_fen};
use crate::core::pdn;
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::engine::{score_text, start_position, Done, Engine, EngineError, Start};
use crate::search::eval::Score;
use crate::search::limits::Limits;
use crate::search::Control;

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
    /// The `--pdn` file cannot be written (checked before the game starts).
    PdnPath {
        path: PathBuf,
        reason: String,
    },
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
            PlayError::PdnPath { path, reason } => {
                write!(f, "--pdn {}: {reason}", path.display())
            }
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

/// The engine accepts a draw when it scores the position at most this much (hundredths of a
/// man) for itself: level, or better for it only by noise.
pub const DRAW_ACCEPT_MARGIN: Score = 10;

/// Plies of the game shown under the board after every move.
const RECENT_PLIES: usize = 6;

/// The commands, with a move of this variant as the example.
fn help(example: &str) -> String {
    format!(
        "type a move as the list of legal moves writes it (e.g. {example}; captures with x), \
         or: moves (the legal moves), history (the game so far), undo, hint, draw (offer a \
         draw), resign, save FILE, fen, help, quit"
    )
}

/// A legal move of the start position, as the example in the help: the first in square
/// order, a plain move if there is one.
fn example_move<R: Rules>(pos: &Position<R>) -> String {
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|m| {
        (
            m.is_capture(),
            square_number::<R>(m.from),
            square_number::<R>(m.to),
        )
    });
    moves
        .first()
        .map_or_else(|| "11-15".to_string(), move_text::<R>)
}

/// The position whose moves make the help's example: the start, or the position after the
/// engine's first move when the person moves second (so the example is one of theirs).
fn example_position<R: Rules>(first: &Position<R>, person: Option<Color>) -> Position<R> {
    match first.legal_moves().first() {
        Some(m) if person.is_some_and(|c| c != first.side_to_move()) => first.after(m),
        _ => *first,
    }
}

/// Check before the game that the record can be written where `--pdn` says.
fn check_pdn_path(path: &Path) -> Result<(), PlayError> {
    let fail = |reason: String| PlayError::PdnPath {
        path: path.to_path_buf(),
        reason,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(fail(format!("no directory '{}'", dir.display())));
    }
    if path.is_dir() {
        return Err(fail("is a directory".to_string()));
    }
    // Opening for appending creates nothing but an empty file, and proves it writable.
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
        .map_err(|e| fail(e.to_string()))
}

/// The colour that makes ply `index` of a game whose first mover is `first`.
fn mover_of(first: Color, index: usize) -> Color {
    if index.is_multiple_of(2) {
        first
    } else {
        first.opposite()
    }
}

/// Moves `from..` of the game, numbered in pairs from the first mover (`3. 9-14 22-17`).
fn numbered_moves<R: Rules>(moves: &[MoveOf<R>], from: usize) -> String {
    let mut parts = Vec::new();
    if from > 0 {
        parts.push("…".to_string());
    }
    for (i, m) in moves.iter().enumerate().skip(from) {
        if i.is_multiple_of(2) {
            parts.push(format!("{}.", i / 2 + 1));
        } else if i == from {
            parts.push(format!("{}. …", i / 2 + 1));
        }
        parts.push(move_text::<R>(m));
    }
    parts.join(" ")
}

/// The state of one session at the terminal.
struct Session<'a, R: Rules> {
    settings: &'a Settings,
    start: Start<'a>,
    first: Position<R>,
    person: Option<Color>,
    engine: Engine,
    game: Game<R>,
    /// Where `save` last wrote the game, and how many moves it had then.
    saved: Option<(String, usize, bool)>,
    example: String,
}

/// Play `settings.variant` at the terminal: [`run`] with the variant's rules.
pub fn run_variant(
    settings: &Settings,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), PlayError> {
    crate::with_rules!(settings.variant, R => run::<R>(settings, input, out))
}

/// Play until the game ends or the person quits (or input ends). The record is never lost:
/// with `--pdn` it is written however the session ends (if that fails, it is printed);
/// without, a game not saved with `save` is printed at the end.
pub fn run<R: Rules>(
    settings: &Settings,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), PlayError> {
    if let Some(path) = &settings.pdn {
        check_pdn_path(path)?;
    }
    let start = match &settings.fen {
        Some(f) => Start::Fen(f),
        None => Start::Initial,
    };
    let first = start_position::<R>(start).map_err(PlayError::Setup)?;
    let person: Option<Color> = match settings.side.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        "first" => Some(first.side_to_move()),
        "second" => Some(first.side_to_move().opposite()),
        "none" => None,
        _ => return Err(PlayError::BadSide(settings.side.clone())),
    };
    let mut engine = Engine::new(settings.hash);
    engine.threads = settings.threads;
    engine.book = settings.book;
    let mut s = Session {
        settings,
        start,
        first,
        person,
        engine,
        game: Game::<R>::new(first),
        saved: None,
        example: example_move(&example_position(&first, person)),
    };
    let played = s.play(input, out);
    let kept = s.keep_record(out);
    played.and(kept)
}

impl<R: Rules> Session<'_, R> {
    fn banner(&self, out: &mut dyn Write) -> io::Result<()> {
        let who = match self.person {
            Some(c) => {
                let order = if c == self.first.side_to_move() {
                    "you move first"
                } else {
                    "Damas moves first"
                };
                format!("you play {} ({order})", c.name())
            }
            None => "Damas plays both sides".to_string(),
        };
        writeln!(out, "{} — {who}", R::NAME)?;
        writeln!(out, "{}", help(&self.example))
    }

    fn texts(&self) -> Vec<String> {
        self.game.moves().iter().map(move_text::<R>).collect()
    }

    fn think(&self) -> Result<Done, EngineError> {
        let limits = Limits {
            move_time: Some(self.settings.move_time),
            ..Limits::default()
        };
        self.engine.think(
            self.settings.variant,
            self.start,
            &self.texts(),
            limits,
            &Control::new(false),
            &mut |_| {},
        )
    }

    fn legal(&self) -> String {
        let mut moves = self.game.position().legal_moves();
        moves.sort_by_key(|m| (square_number::<R>(m.from), square_number::<R>(m.to)));
        moves
            .iter()
            .map(move_text::<R>)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The board, then the last moves, so that a reply is never scrolled away.
    fn show(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "\n{}", diagram_with_numbers(self.game.position()))?;
        let moves = self.game.moves();
        if !moves.is_empty() {
            let from = moves.len().saturating_sub(RECENT_PLIES);
            writeln!(out, "last moves: {}", numbered_moves::<R>(moves, from))?;
        }
        Ok(())
    }

    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), PlayError> {
        self.banner(out)?;
        let mut line = String::new();
        loop {
            self.show(out)?;
            if let Some(o) = self.game.outcome() {
                writeln!(out, "game over: {} ({})", o.result.pdn(), o.termination)?;
                return Ok(());
            }
            let mover = self.game.position().side_to_move();
            if self.person != Some(mover) {
                let done = self.think().map_err(PlayError::Setup)?;
                writeln!(
                    out,
                    "{} plays {}   (depth {}, score {}, {:.1} s)",
                    mover.name(),
                    done.best,
                    done.depth,
                    score_text(done.score),
                    done.time.as_secs_f64()
                )?;
                if let Err(e) = self.game.play_text(&done.best) {
                    writeln!(out, "engine move refused: {e}")?;
                    return Ok(());
                }
                continue;
            }
            write!(out, "{} to move (you)> ", mover.name())?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                ["help" | "?"] => writeln!(out, "{}", help(&self.example))?,
                ["quit" | "exit"] => return Ok(()),
                ["moves"] => writeln!(out, "legal moves: {}", self.legal())?,
                ["history"] => {
                    let moves = self.game.moves();
                    if moves.is_empty() {
                        writeln!(out, "no moves yet")?;
                    } else {
                        writeln!(out, "game: {}", numbered_moves::<R>(moves, 0))?;
                    }
                }
                ["fen"] => writeln!(out, "{}", write_fen(self.game.position()))?,
                ["undo"] => self.undo(out)?,
                ["hint"] => match self.think() {
                    Ok(d) => writeln!(out, "hint: {}", d.best)?,
                    Err(e) => writeln!(out, "no hint: {e}")?,
                },
                ["resign"] => {
                    let _ = self.game.resign(mover);
                }
                ["draw"] => self.offer_draw(out)?,
                ["save"] => writeln!(out, "save needs a file name: save FILE")?,
                ["save", file] => self.save(file, out)?,
                [text] => {
                    if let Err(e) = self.game.play_text(text) {
                        writeln!(out, "{e}; legal moves: {}", self.legal())?;
                    }
                }
                _ => writeln!(out, "one move or command per line; {}", help(&self.example))?,
            }
        }
    }

    /// Take back the person's last move and the engine's replies after it, saying which.
    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let moves = self.game.moves().to_vec();
        let first = self.first.side_to_move();
        let Some(keep) = (0..moves.len())
            .rev()
            .find(|&i| Some(mover_of(first, i)) == self.person)
        else {
            return writeln!(out, "nothing to undo: you have made no move");
        };
        let undone: Vec<String> = (keep..moves.len())
            .map(|i| {
                format!(
                    "{} ({})",
                    move_text::<R>(&moves[i]),
                    mover_of(first, i).name()
                )
            })
            .collect();
        self.game = Game::new(self.first);
        for m in &moves[..keep] {
            self.game.force(m);
        }
        writeln!(out, "took back {}", undone.join(" and "))
    }

    /// The engine judges a draw offer by its own score of the position.
    fn offer_draw(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.think() {
            Ok(d) => {
                // The search scores the position for the side to move: the person.
                let ours = -d.score;
                if ours <= DRAW_ACCEPT_MARGIN {
                    writeln!(
                        out,
                        "Damas accepts the draw (it scores the position {} for itself)",
                        score_text(ours)
                    )?;
                    let _ = self.game.agree_draw();
                } else {
                    writeln!(
                        out,
                        "Damas declines the draw: it scores the position {} for itself",
                        score_text(ours)
                    )?;
                }
            }
            Err(e) => writeln!(out, "no draw: {e}")?,
        }
        Ok(())
    }

    fn record(&self) -> String {
        pdn::write_game(&self.game, &tags(self.person))
    }

    fn save(&mut self, file: &str, out: &mut dyn Write) -> io::Result<()> {
        match std::fs::write(file, self.record()) {
            Ok(()) => {
                self.saved = Some((
                    file.to_string(),
                    self.game.moves().len(),
                    self.game.outcome().is_some(),
                ));
                writeln!(out, "saved {file}")
            }
            Err(e) => writeln!(out, "cannot save {file}: {e}"),
        }
    }

    /// At the end, however the session ended: write the record to `--pdn`, or say where it
    /// is; a record that could not be written anywhere is printed.
    fn keep_record(&self, out: &mut dyn Write) -> Result<(), PlayError> {
        let record = self.record();
        if let Some(path) = &self.settings.pdn {
            match std::fs::write(path, &record) {
                Ok(()) => writeln!(out, "game written to {}", path.display())?,
                Err(e) => {
                    writeln!(
                        out,
                        "cannot write the game to {}: {e}; here it is:\n{record}",
                        path.display()
                    )?;
                }
            }
            return Ok(());
        }
        let current = (self.game.moves().len(), self.game.outcome().is_some());
        match &self.saved {
            Some((file, n, over)) if (*n, *over) == current => {
                writeln!(out, "the game is saved in {file}")?;
            }
            _ if self.game.moves().is_empty() => {}
            _ => writeln!(
                out,
                "the game was not saved (no --pdn, no save since the last move); its record:\n{record}"
            )?,
        }
        Ok(())
    }
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
