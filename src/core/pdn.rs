//! PDN game files: text in (`parse`, then `replay` against the rules), text out
//! (`record`, then `PdnGame::write`).

use std::fmt;

use crate::core::bitboard::Bitboard;
use crate::core::game::{Game, GameError, GameResult};
use crate::core::geometry::{DirSet, Geometry, Shape};
use crate::core::notation::{self, MoveText, NotationError};
use crate::core::piece::Kind;
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;
use crate::core::rules::{Landing, Promotion, Removal};
use crate::core::square::Square;
use crate::core::variant::Variant;
use crate::with_rules;

/// One game as text: tags in file order, moves as written, result (`None`: `*`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PdnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: Option<GameResult>,
}

/// Why a PDN text or game was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PdnError {
    /// Malformed text at this line (1-based).
    Syntax {
        line: usize,
        message: String,
    },
    UnknownGameType(String),
    BadFen(NotationError),
    /// The move at this ply (1-based) is not legal there.
    BadMove {
        ply: usize,
        text: String,
        reason: GameError,
    },
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::Syntax { line, message } => write!(f, "line {line}: {message}"),
            PdnError::UnknownGameType(t) => write!(f, "unknown or unsupported game type '{t}'"),
            PdnError::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            PdnError::BadMove { ply, text, reason } => write!(f, "ply {ply} '{text}': {reason}"),
        }
    }
}

impl std::error::Error for PdnError {}

impl PdnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Set a tag, replacing one of the same name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The variant the tags name: our `Variant` tag first, then the PDN `GameType` number;
    /// `None` when neither is present.
    pub fn variant(&self) -> Result<Option<Variant>, PdnError> {
        if let Some(name) = self.tag("Variant") {
            return Variant::from_name(name)
                .map(Some)
                .map_err(|_| PdnError::UnknownGameType(name.to_string()));
        }
        let Some(game_type) = self.tag("GameType") else {
            return Ok(None);
        };
        let number = game_type.split(',').next().unwrap_or("").trim();
        Variant::ALL
            .iter()
            .copied()
            .find(|v| {
                with_rules!(*v, R => R::PDN_GAME_TYPE).is_some_and(|n| n.to_string() == number)
            })
            .map(Some)
            .ok_or_else(|| PdnError::UnknownGameType(game_type.to_string()))
    }

    /// The game as PDN text: tags, then numbered moves wrapped at 80 columns, then the result.
    /// `first` says who moves first in the variant (move numbers count its moves).
    pub fn write(&self, first_to_move: bool) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        out.push('\n');
        let mut tokens = Vec::new();
        let mut number = 1;
        let mut first = first_to_move;
        for (i, m) in self.moves.iter().enumerate() {
            if first {
                tokens.push(format!("{number}."));
            } else if i == 0 {
                tokens.push(format!("{number}..."));
            }
            tokens.push(m.clone());
            if !first {
                number += 1;
            }
            first = !first;
        }
        tokens.push(self.result.map_or("*", GameResult::pdn).to_string());
        let mut width = 0;
        for t in tokens {
            if width > 0 && width + 1 + t.len() > 80 {
                out.push('\n');
                width = 0;
            } else if width > 0 {
                out.push(' ');
                width += 1;
            }
            width += t.len();
            out.push_str(&t);
        }
        out.push_str("\n\n");
        out
    }
}

/// Read every game of a PDN text.
pub fn parse(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    let mut in_moves = false;
    let mut depth_paren = 0usize;
    let mut in_comment = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let syntax = |message: &str| PdnError::Syntax {
            line,
            message: message.to_string(),
        };
        let trimmed = raw.trim();
        if !in_comment && depth_paren == 0 && trimmed.starts_with('[') {
            if in_moves {
                // A new game without a result token: the previous one is unfinished.
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            game.tags
                .push(parse_tag(trimmed).ok_or_else(|| syntax("malformed tag"))?);
            continue;
        }
        if !in_comment && trimmed.starts_with('%') {
            continue;
        }
        let mut rest = trimmed;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(i) => {
                        in_comment = false;
                        rest = &rest[i + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    in_comment = true;
                    rest = &rest[1..];
                }
                ';' => rest = "",
                '(' => {
                    depth_paren += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    depth_paren = depth_paren
                        .checked_sub(1)
                        .ok_or_else(|| syntax("unbalanced ')'"))?;
                    rest = &rest[1..];
                }
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                        .unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if depth_paren > 0 {
                        continue;
                    }
                    in_moves = true;
                    if let Some(result) = result_token(token) {
                        game.result = result;
                        games.push(std::mem::take(&mut game));
                        in_moves = false;
                        continue;
                    }
                    if let Some(m) = move_token(token) {
                        if MoveText::parse(m).is_err() {
                            return Err(syntax(&format!("cannot read move '{m}'")));
                        }
                        game.moves.push(m.to_string());
                    }
                }
            }
        }
    }
    if in_comment || depth_paren > 0 {
        return Err(PdnError::Syntax {
            line: text.lines().count(),
            message: "unterminated comment or variation".to_string(),
        });
    }
    if in_moves || !game.tags.is_empty() {
        games.push(game);
    }
    Ok(games)
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?;
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut unescaped = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            unescaped.push(chars.next()?);
        } else {
            unescaped.push(c);
        }
    }
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then(|| (name.to_string(), unescaped))
}

/// `Some(result)` for a result token (`Some(None)` for `*`).
fn result_token(t: &str) -> Option<Option<GameResult>> {
    if t == "*" {
        return Some(None);
    }
    GameResult::from_pdn(t).map(Some)
}

/// The move in a token, with move numbers, NAGs and annotation glyphs stripped; `None` when
/// nothing is left.
fn move_token(t: &str) -> Option<&str> {
    if t.starts_with('$') {
        return None;
    }
    let t = match t.rfind('.') {
        Some(i) if t[..i].chars().all(|c| c.is_ascii_digit() || c == '.') => &t[i + 1..],
        _ => t,
    };
    let t = t.trim_end_matches(['!', '?', '+', '#']);
    (!t.is_empty()).then_some(t)
}

/// A move in PDN: `from-to`, `fromxto`, or, when two captures share their ends, the path
/// of every landing square (`from x l1 x … x to`).
pub fn pdn_move_text<R: Rules>(position: &Position<R>, m: &MoveOf<R>) -> String {
    let name = notation::square_name::<R>;
    if !m.is_capture() {
        return notation::move_text::<R>(m);
    }
    let twins = position
        .legal_moves()
        .iter()
        .filter(|o| o.from == m.from && o.to == m.to && o.is_capture())
        .count();
    if twins <= 1 {
        return format!("{}x{}", name(m.from), name(m.to));
    }
    match capture_path(position, m, None) {
        Some(path) if path_names_one(position, m, &path) => {
            let mut s = name(m.from);
            for sq in path {
                s.push('x');
                s.push_str(&name(sq));
            }
            s
        }
        _ => notation::move_text::<R>(m),
    }
}

/// The landing squares of capture `m` in order (its last is `m.to`), one path where several
/// lead to it; `None` for a move that is not a capture of `position`. For a board front end
/// that lets the player click a capture square by square.
pub fn landing_path<R: Rules>(position: &Position<R>, m: &MoveOf<R>) -> Option<Vec<Square>> {
    if !m.is_capture() {
        return None;
    }
    capture_path(position, m, None)
}

/// Whether `path` (landing squares) leads to `m` and to no other capture of the position.
fn path_names_one<R: Rules>(position: &Position<R>, m: &MoveOf<R>, path: &[Square]) -> bool {
    let fits: Vec<MoveOf<R>> = position
        .legal_moves()
        .into_iter()
        .filter(|o| o.from == m.from && o.to == m.to && o.is_capture())
        .filter(|o| capture_path(position, o, Some(path)).is_some_and(|p| p.len() == path.len()))
        .collect();
    fits.len() == 1 && fits[0] == *m
}

/// Every (victim, landing square, crowned there) one jump from a square can make, for a
/// man or king, given the pieces already jumped.
type Jumps<'a> = dyn Fn(Square, bool, &[Square]) -> Vec<(Square, Square, bool)> + 'a;

/// Landing squares of capture `m` (its last is `m.to`); with `want`, only that path.
fn capture_path<R: Rules>(
    position: &Position<R>,
    m: &MoveOf<R>,
    want: Option<&[Square]>,
) -> Option<Vec<Square>> {
    let layout = R::G::LAYOUT;
    let mover = position.piece_at(m.from)?;
    let coords = |sq: Square| {
        layout
            .coords(sq.index() as u32)
            .map(|(f, r)| (f as i32, r as i32))
    };
    let at = |f: i32, r: i32| layout.index(f, r).map(|i| Square::new(i as u8));
    let empty = |sq: Square, jumped: &[Square]| {
        (sq == m.from || position.piece_at(sq).is_none())
            && (R::REMOVAL == Removal::Immediate || !jumped.contains(&sq))
    };
    let victims: Vec<Square> = m.captured.collect();
    let promotion = Bitboard::<u128>(R::PROMOTION_SQUARES[mover.color.index()]);
    #[allow(clippy::too_many_arguments)]
    fn walk(
        sq: Square,
        king: bool,
        jumped: &mut Vec<Square>,
        path: &mut Vec<Square>,
        victims: &[Square],
        to: Square,
        want: Option<&[Square]>,
        ctx: &Jumps<'_>,
    ) -> bool {
        if jumped.len() == victims.len() {
            return sq == to;
        }
        for (victim, land, crowned) in ctx(sq, king, jumped) {
            if want.is_some_and(|w| w.get(path.len()) != Some(&land)) {
                continue;
            }
            jumped.push(victim);
            path.push(land);
            if walk(land, king || crowned, jumped, path, victims, to, want, ctx) {
                return true;
            }
            jumped.pop();
            path.pop();
        }
        false
    }
    // The lines a jump may follow: on dark squares the ranks and files only where the rules
    // capture along them.
    let jump_dirs = R::KING_JUMPS
        .union(R::MAN_JUMPS[0])
        .union(R::MAN_JUMPS[1])
        .union(R::MAN_LATER_JUMPS[0])
        .union(R::MAN_LATER_JUMPS[1]);
    let lines = if R::G::LAYOUT.shape == Shape::Dark && jump_dirs.0 & DirSet::ORTHOGONAL.0 == 0 {
        DirSet::DIAGONAL
    } else {
        DirSet::ALL
    };
    // Every (victim, landing square, crowned there) one jump from `sq` can make.
    let jumps = |sq: Square, king: bool, jumped: &[Square]| {
        let mut out = Vec::new();
        let Some((f, r)) = coords(sq) else {
            return out;
        };
        let flying = king && R::FLYING_KINGS;
        for d in 0..8 {
            if !lines.has(d) {
                continue;
            }
            let (df, dr) = R::G::LAYOUT.delta(d);
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(s) = at(x, y) {
                if !empty(s, jumped) || !flying {
                    break;
                }
                x += df;
                y += dr;
            }
            let Some(victim) = at(x, y) else { continue };
            if !victims.contains(&victim) || jumped.contains(&victim) {
                continue;
            }
            let (mut lx, mut ly) = (x + df, y + dr);
            while let Some(land) = at(lx, ly) {
                if !empty(land, jumped) {
                    break;
                }
                let crowned = !king
                    && R::PROMOTION == Promotion::Continue
                    && promotion.contains(Square::new(land.index() as u8));
                out.push((victim, land, crowned));
                if !flying || R::LANDING == Landing::DirectlyBehind {
                    break;
                }
                lx += df;
                ly += dr;
            }
        }
        out
    };
    let mut jumped = Vec::new();
    let mut path = Vec::new();
    let king = mover.kind == Kind::King;
    walk(
        m.from,
        king,
        &mut jumped,
        &mut path,
        &victims,
        m.to,
        want,
        &jumps,
    )
    .then_some(path)
}

/// Resolve PDN move text: a path of landing squares (`32x23x14`), or our full form with
/// captured squares.
pub fn resolve_pdn_move<R: Rules>(
    position: &Position<R>,
    text: &str,
) -> Result<MoveOf<R>, NotationError> {
    let mt = MoveText::parse(text)?;
    let squares = mt
        .squares
        .iter()
        .map(|s| notation::parse_square::<R>(s))
        .collect::<Result<Vec<_>, _>>()?;
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let ends: Vec<MoveOf<R>> = position
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from && m.to == to && m.is_capture() == mt.capture)
        .collect();
    if ends.len() == 1 {
        return Ok(ends[0]);
    }
    if ends.len() > 1 && mt.capture {
        let path = &squares[1..];
        let fits: Vec<_> = ends
            .iter()
            .filter(|m| {
                capture_path(position, m, Some(path)).is_some_and(|p| p.len() == path.len())
            })
            .collect();
        if fits.len() == 1 {
            return Ok(*fits[0]);
        }
    }
    mt.resolve(position)
}

/// A game as PDN, with the `GameType`, `Variant`, `FEN` (when the start is not the
/// variant's own) and `Result` tags filled in after `tags`.
pub fn record<R: Rules>(game: &Game<R>, tags: &[(&str, &str)]) -> PdnGame {
    let mut pdn = PdnGame::default();
    for (n, v) in tags {
        pdn.set_tag(n, v);
    }
    if let Some(n) = R::PDN_GAME_TYPE {
        pdn.set_tag("GameType", &n.to_string());
    }
    pdn.set_tag("Variant", R::NAME);
    if *game.start() != Position::start() {
        pdn.set_tag("FEN", &notation::write_fen(game.start()));
    }
    let mut position = *game.start();
    for m in game.moves() {
        pdn.moves.push(pdn_move_text(&position, m));
        position.play(m);
    }
    pdn.result = game.outcome().map(|o| o.result);
    pdn.set_tag("Result", pdn.result.map_or("*", GameResult::pdn));
    pdn
}

/// Replay a PDN game under `R`'s rules; moves past a draw the rules give are still played
/// (a claim not made). A result the rules do not give (resignation,
/// agreement) is recorded as given.
pub fn replay<R: Rules>(pdn: &PdnGame) -> Result<Game<R>, PdnError> {
    let start = match pdn.tag("FEN") {
        Some(fen) => notation::parse_fen::<R>(fen).map_err(PdnError::BadFen)?,
        None => Position::start(),
    };
    let mut game = Game::new(start);
    for (i, text) in pdn.moves.iter().enumerate() {
        let bad = |reason| PdnError::BadMove {
            ply: i + 1,
            text: text.clone(),
            reason,
        };
        // Players may play on past a draw the rules let them claim.
        let m = resolve_pdn_move(game.position(), text).map_err(|e| bad(GameError::Illegal(e)))?;
        game.force(&m);
    }
    if let (None, Some(result)) = (game.outcome(), pdn.result) {
        let _ = game.adjudicate(result);
    }
    Ok(game)
}

/// Write a game of `R` as PDN text.
pub fn write_game<R: Rules>(game: &Game<R>, tags: &[(&str, &str)]) -> String {
    record(game, tags).write(game.start().side_to_move() == R::FIRST)
}
