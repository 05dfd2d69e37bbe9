//! A game: a start position, the moves played, and the outcome the variant's rules give
//! after each of them.

use std::fmt;

use crate::core::color::Color;
use crate::core::draw::{DrawCounters, DrawReason, DrawRules};
use crate::core::notation::{self, NotationError};
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;

/// Who won, from the board's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn win_for(c: Color) -> Self {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The PDN result token (`2-0`, `0-2`, `1-1`: the draughts scoring pydraughts and
    /// FMJD files use).
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "2-0",
            GameResult::BlackWins => "0-2",
            GameResult::Draw => "1-1",
        }
    }

    /// Reads every common spelling: `2-0`, `1-0`, `0-2`, `0-1`, `1-1`, `1/2-1/2`.
    pub fn from_pdn(text: &str) -> Option<Self> {
        match text {
            "2-0" | "1-0" => Some(GameResult::WhiteWins),
            "0-2" | "0-1" => Some(GameResult::BlackWins),
            "1-1" | "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Termination {
    /// The side to move had no legal move.
    NoMove(Color),
    /// This side crowned a man where the first king wins.
    Crowned(Color),
    Draw(DrawReason),
    Resignation(Color),
    /// Decided outside the rules (a tournament's adjudication, a time loss…).
    Adjudication,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::NoMove(c) => write!(f, "{} has no legal move", c.name()),
            Termination::Crowned(c) => write!(f, "{} crowned first", c.name()),
            Termination::Draw(r) => write!(f, "draw by {r}"),
            Termination::Resignation(c) => write!(f, "{} resigned", c.name()),
            Termination::Adjudication => f.write_str("adjudication"),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub result: GameResult,
    pub termination: Termination,
}

/// Why a move could not be added to a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    /// The game already has a result.
    Over(Outcome),
    Illegal(NotationError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over(o) => write!(f, "the game is over ({})", o.termination),
            GameError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game of variant `R`.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    start: Position<R>,
    draw: DrawRules,
    moves: Vec<MoveOf<R>>,
    position: Position<R>,
    counters: DrawCounters,
    /// Hash of every position so far, the start's first.
    hashes: Vec<u64>,
    outcome: Option<Outcome>,
}

impl<R: Rules> Game<R> {
    /// A game from `start` under the variant's own draw rules.
    pub fn new(start: Position<R>) -> Self {
        Self::with_draw_rules(start, R::DRAW)
    }

    /// A game whose draw counts differ from the variant's defaults.
    pub fn with_draw_rules(start: Position<R>, draw: DrawRules) -> Self {
        let mut g = Game {
            start,
            draw,
            moves: Vec::new(),
            position: start,
            counters: DrawCounters::start(&draw, &start),
            hashes: vec![start.hash()],
            outcome: None,
        };
        g.outcome = g.judge();
        g
    }

    pub fn start(&self) -> &Position<R> {
        &self.start
    }
    pub fn position(&self) -> &Position<R> {
        &self.position
    }
    pub fn moves(&self) -> &[MoveOf<R>] {
        &self.moves
    }
    pub fn counters(&self) -> DrawCounters {
        self.counters
    }
    pub fn draw_rules(&self) -> DrawRules {
        self.draw
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Hashes of the positions before the current one, back to the last capture or man
    /// move: the ones the current position could repeat.
    pub fn reversible_history(&self) -> &[u64] {
        let n = self.hashes.len() - 1;
        let back = (self.counters.quiet as usize).min(n);
        &self.hashes[n - back..n]
    }

    /// Times the current position has occurred, this one included.
    pub fn occurrences(&self) -> usize {
        let here = self.position.hash();
        let history = self.reversible_history();
        1 + history
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == here)
            .count()
    }

    /// Play a legal move; returns the outcome if it ends the game.
    pub fn play(&mut self, m: &MoveOf<R>) -> Result<Option<Outcome>, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        if !self.position.legal_moves().iter().any(|l| l.same_as(m)) {
            return Err(GameError::Illegal(NotationError::IllegalMove(
                notation::move_text::<R>(m),
            )));
        }
        self.force(m);
        Ok(self.outcome)
    }

    /// Play a legal move even after the game's end (the outcome is judged again).
    pub fn force(&mut self, m: &MoveOf<R>) {
        let child = self.position.after(m);
        self.counters = self.counters.after(&self.draw, &self.position, m, &child);
        self.position = child;
        self.moves.push(*m);
        self.hashes.push(child.hash());
        self.outcome = self.judge();
    }

    /// Play a move given as text in the variant's notation.
    pub fn play_text(&mut self, text: &str) -> Result<Option<Outcome>, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        let m = notation::parse_move(&self.position, text).map_err(GameError::Illegal)?;
        self.play(&m)
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) -> Result<Outcome, GameError> {
        self.record(Outcome {
            result: GameResult::win_for(side.opposite()),
            termination: Termination::Resignation(side),
        })
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<Outcome, GameError> {
        self.record(Outcome {
            result: GameResult::Draw,
            termination: Termination::Draw(DrawReason::Agreement),
        })
    }

    /// Record a result decided outside the rules (adjudication, time loss).
    pub fn adjudicate(&mut self, result: GameResult) -> Result<Outcome, GameError> {
        self.record(Outcome {
            result,
            termination: Termination::Adjudication,
        })
    }

    fn record(&mut self, o: Outcome) -> Result<Outcome, GameError> {
        if let Some(done) = self.outcome {
            return Err(GameError::Over(done));
        }
        self.outcome = Some(o);
        Ok(o)
    }

    /// The rules' verdict on the current position.
    fn judge(&self) -> Option<Outcome> {
        let mover = self.position.side_to_move();
        if self.position.lost_by_crowning() {
            return Some(Outcome {
                result: GameResult::win_for(mover.opposite()),
                termination: Termination::Crowned(mover.opposite()),
            });
        }
        if self.position.legal_moves().is_empty() {
            let winner = if R::LOSER_WINS {
                mover
            } else {
                mover.opposite()
            };
            return Some(Outcome {
                result: GameResult::win_for(winner),
                termination: Termination::NoMove(mover),
            });
        }
        let drawn = |reason| {
            Some(Outcome {
                result: GameResult::Draw,
                termination: Termination::Draw(reason),
            })
        };
        if self.draw.repetitions > 0 && self.occurrences() >= self.draw.repetitions as usize {
            return drawn(DrawReason::Repetition);
        }
        if let Some(reason) = self.draw.verdict(&self.position, &self.counters) {
            return drawn(reason);
        }
        None
    }
}
