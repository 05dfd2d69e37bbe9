//! The game the browser shows: variant, start, moves and players, and its JSON views. Every
//! function here checks what it is given and leaves the table alone when it refuses.

use serde_json::{json, Value};

use crate::core::game::{Game, Termination};
use crate::core::geometry::{Geometry, Shape};
use crate::core::notation::{
    move_text, parse_fen, parse_move, square_name, square_number, write_fen,
};
use crate::core::pdn::{self, landing_path, pdn_move_text};
use crate::core::position::Position;
use crate::core::rules::{Numbering, Rules};
use crate::core::square::Square;
use crate::engine::{self, Start};
use crate::{with_rules, Color, Variant};

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Player {
    Human,
    Engine,
}

impl Player {
    pub fn parse(s: &str) -> Option<Player> {
        match s {
            "human" => Some(Player::Human),
            "engine" => Some(Player::Engine),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
        }
    }
}

/// A result recorded outside the rules: a resignation or an agreed draw.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Recorded {
    pub result: &'static str,
    pub reason: String,
}

/// The shown game.
#[derive(Clone, Debug)]
pub struct Table {
    pub variant: Variant,
    /// The start as a FEN; `None`: the variant's start position.
    pub start: Option<String>,
    /// Moves in the engine's full notation.
    pub moves: Vec<String>,
    /// Moves taken back, the next to replay last.
    pub redo: Vec<String>,
    /// White's player, then Black's.
    pub players: [Player; 2],
    /// Seconds per engine move.
    pub move_time: f64,
    pub book: bool,
    pub recorded: Option<Recorded>,
    /// Grows with every change, so that a search's answer for an older position is dropped.
    pub generation: u64,
}

impl Table {
    pub fn new(variant: Variant) -> Self {
        Table {
            variant,
            start: None,
            moves: Vec::new(),
            redo: Vec::new(),
            players: [Player::Human, Player::Engine],
            move_time: 1.0,
            book: true,
            recorded: None,
            generation: 0,
        }
    }

    pub fn start(&self) -> Start<'_> {
        match &self.start {
            Some(f) => Start::Fen(f),
            None => Start::Initial,
        }
    }

    /// Whether the game has ended, by the rules or by a recorded result.
    pub fn over(&self) -> Result<bool, String> {
        if self.recorded.is_some() {
            return Ok(true);
        }
        with_rules!(self.variant, R => game::<R>(self).map(|g| g.outcome().is_some()))
    }

    /// The side to move.
    pub fn side(&self) -> Result<Color, String> {
        with_rules!(self.variant, R => game::<R>(self).map(|g| g.position().side_to_move()))
    }

    /// The full JSON view of the game.
    pub fn json(&self) -> Result<Value, String> {
        with_rules!(self.variant, R => state::<R>(self))
    }

    /// The legal move `text` names, in full notation; an error when it is not legal or the
    /// game is over.
    pub fn resolve(&self, text: &str) -> Result<String, String> {
        if let Some(r) = &self.recorded {
            return Err(format!("the game is over ({})", r.reason));
        }
        with_rules!(self.variant, R => resolve::<R>(self, text))
    }

    pub fn fen(&self) -> Result<String, String> {
        with_rules!(self.variant, R => game::<R>(self).map(|g| write_fen(g.position())))
    }

    pub fn pdn(&self) -> Result<String, String> {
        with_rules!(self.variant, R => game::<R>(self).map(|g| {
            let result = self.recorded.as_ref().map(|r| r.result);
            let mut text = pdn::write_game(&g, &[("Event", "Damas GUI")]);
            if let (Some(r), None) = (result, g.outcome()) {
                text = text.replace("[Result \"*\"]", &format!("[Result \"{r}\"]"));
                if let Some(stripped) = text.trim_end().strip_suffix('*') {
                    text = format!("{stripped}{r}\n");
                }
            }
            text
        }))
    }
}

/// Check a FEN for `variant`, giving it back as the engine writes it.
pub fn check_fen(variant: Variant, fen: &str) -> Result<String, String> {
    with_rules!(variant, R => parse_fen::<R>(fen.trim())
        .map(|p| write_fen(&p))
        .map_err(|e| format!("bad FEN: {e}")))
}

/// Read a PDN game: its variant (the tags', else `current`), start FEN and moves.
pub fn read_pdn(
    text: &str,
    current: Variant,
) -> Result<(Variant, Option<String>, Vec<String>), String> {
    let games = pdn::parse(text).map_err(|e| format!("bad PDN: {e}"))?;
    let first = games.first().ok_or("bad PDN: no game in the text")?;
    let variant = first
        .variant()
        .map_err(|e| format!("bad PDN: {e}"))?
        .unwrap_or(current);
    with_rules!(variant, R => {
        let g = pdn::replay::<R>(first).map_err(|e| format!("bad PDN: {e}"))?;
        let start = (*g.start() != Position::start()).then(|| write_fen(g.start()));
        let moves = g.moves().iter().map(move_text::<R>).collect();
        Ok((variant, start, moves))
    })
}

fn game<R: Rules>(t: &Table) -> Result<Game<R>, String> {
    engine::line::<R, String>(t.start(), &t.moves, R::DRAW).map_err(|e| e.to_string())
}

fn resolve<R: Rules>(t: &Table, text: &str) -> Result<String, String> {
    let g = game::<R>(t)?;
    if let Some(o) = g.outcome() {
        return Err(format!("the game is over ({})", o.termination));
    }
    let m = parse_move(g.position(), text).map_err(|e| format!("{e}"))?;
    Ok(move_text::<R>(&m))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn id(sq: Square) -> usize {
    sq.index()
}

fn state<R: Rules>(t: &Table) -> Result<Value, String> {
    let g = game::<R>(t)?;
    let pos = g.position();
    let layout = R::G::LAYOUT;
    let shape = match layout.shape {
        Shape::Dark => "dark",
        Shape::Full => "full",
        Shape::Points => "points",
    };
    let algebraic = R::ALGEBRAIC_OUTPUT || R::NUMBERING == Numbering::Algebraic;
    let mirrored = matches!(R::NUMBERING, Numbering::Italian | Numbering::Portuguese);
    let files: Vec<String> = (0..layout.width)
        .map(|f| {
            let f = if mirrored { layout.width - 1 - f } else { f };
            ((b'a' + f) as char).to_string()
        })
        .collect();
    let squares: Vec<Value> = R::G::squares()
        .into_iter()
        .filter_map(|sq| {
            let (file, rank) = R::G::coords(sq)?;
            let number = (R::NUMBERING != Numbering::Algebraic).then(|| square_number::<R>(sq));
            Some(json!({
                "id": id(sq),
                "file": file,
                "rank": rank,
                "name": square_name::<R>(sq),
                "number": number,
                "piece": pos.piece_at(sq).map(|p| p.to_char().to_string()),
            }))
        })
        .collect();
    let over = g.outcome().is_some() || t.recorded.is_some();
    let legal: Vec<Value> = if over {
        Vec::new()
    } else {
        pos.legal_moves()
            .iter()
            .map(|m| {
                let path: Vec<usize> = landing_path(pos, m)
                    .unwrap_or_else(|| vec![m.to])
                    .into_iter()
                    .map(id)
                    .collect();
                let captured: Vec<usize> = m
                    .captured
                    .collect::<Vec<Square>>()
                    .into_iter()
                    .map(id)
                    .collect();
                json!({
                    "text": move_text::<R>(m),
                    "short": pdn_move_text(pos, m),
                    "from": id(m.from),
                    "to": id(m.to),
                    "path": path,
                    "captured": captured,
                })
            })
            .collect()
    };
    // The game so far in the variant's notation, with each move's squares.
    let mut history = Vec::new();
    let mut p = *g.start();
    let mut number = 1;
    for m in g.moves() {
        history.push(json!({
            "text": move_text::<R>(m),
            "short": pdn_move_text(&p, m),
            "side": color_name(p.side_to_move()),
            "number": number,
            "from": id(m.from),
            "to": id(m.to),
        }));
        if p.side_to_move() != R::FIRST {
            number += 1;
        }
        p.play(m);
    }
    let outcome = match (&t.recorded, g.outcome()) {
        (Some(r), _) => Some(json!({"result": r.result, "reason": r.reason})),
        (None, Some(o)) => Some(json!({
            "result": o.result.pdn(),
            "reason": termination_text(o.termination),
        })),
        (None, None) => None,
    };
    let options: Vec<Value> = t
        .variant
        .base()
        .options()
        .into_iter()
        .map(|(name, default)| {
            let on = t
                .variant
                .base()
                .with_option(name, if default { "false" } else { "true" })
                .is_ok_and(|v| v == t.variant);
            json!({"name": name, "value": if on { !default } else { default }})
        })
        .collect();
    Ok(json!({
        "variant": t.variant.base().name(),
        "options": options,
        "board": {
            "shape": shape,
            "width": layout.width,
            "height": layout.height,
            "algebraic": algebraic,
            "files": files,
            "first": color_name(R::FIRST),
        },
        "squares": squares,
        "side": color_name(pos.side_to_move()),
        "fen": write_fen(pos),
        "start": t.start,
        "history": history,
        "redo": t.redo.len(),
        "legal": legal,
        "outcome": outcome,
        "players": {"white": t.players[0].name(), "black": t.players[1].name()},
        "movetime": t.move_time,
        "book": t.book,
        "generation": t.generation,
    }))
}

fn termination_text(t: Termination) -> String {
    match t {
        Termination::NoMove(c) => format!("{} has no legal move", c.name()),
        other => other.to_string(),
    }
}
