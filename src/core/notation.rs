//! Text at the I/O boundary: square names and numbers per variant, PDN FEN, Hub board strings,
//! and move text (parsed without a position, then resolved against the legal moves).

use std::fmt;

use crate::core::bitboard::Bitboard;
use crate::core::color::Color;
use crate::core::geometry::{Geometry, Shape};
use crate::core::movegen::Convention;
use crate::core::piece::{Kind, Piece};
use crate::core::position::{KingRuns, MoveOf, Position, PositionError, Setup, WordOf};
use crate::core::rules::{Numbering, Rules};
use crate::core::square::Square;

/// Why a text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    Empty,
    BadSide(String),
    BadSquare(String),
    BadSection(String),
    /// A FEN gives one colour's pieces twice.
    RepeatedSection {
        section: String,
        color: Color,
    },
    /// A FEN lacks one colour's section.
    MissingSection(Color),
    /// A FEN item that is not a square, a range or a marked square.
    BadFenItem {
        section: String,
        item: String,
    },
    /// A FEN names one square twice.
    RepeatedSquare(String),
    BadBoardString {
        expected: usize,
        found: usize,
    },
    BadBoardChar(char),
    BadMove(String),
    IllegalMove(String),
    AmbiguousMove(String),
    Position(PositionError),
    /// A FEN's king-move section (`R…`) that is malformed, names no king of its side, counts
    /// past the limit, or is given in a variant without the limit.
    BadKingRun(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty text"),
            NotationError::BadSide(s) => write!(f, "bad side to move '{s}' (expected W or B)"),
            NotationError::BadKingRun(s) => write!(
                f,
                "bad king-move section '{s}' (expected R then <W|B><king's square>/<moves>, \
                 comma-separated, for a king of that side, in a variant with a king-move limit)"
            ),
            NotationError::BadSquare(s) => write!(f, "bad square '{s}'"),
            NotationError::BadSection(s) => write!(
                f,
                "bad FEN section '{s}' (expected W or B followed by squares)"
            ),
            NotationError::RepeatedSection { section, color } => write!(
                f,
                "FEN section '{section}' gives the {} pieces a second time",
                color.name()
            ),
            NotationError::MissingSection(c) => write!(f, "FEN has no {} section", c.name()),
            NotationError::BadFenItem { section, item } if item.is_empty() => {
                write!(f, "empty square list item in FEN section '{section}'")
            }
            NotationError::BadFenItem { section, item } => {
                write!(f, "bad square '{item}' in FEN section '{section}'")
            }
            NotationError::RepeatedSquare(s) => write!(f, "square {s} is listed twice in the FEN"),
            NotationError::BadBoardString { expected, found } => write!(
                f,
                "board string has {found} squares, this variant has {expected}"
            ),
            NotationError::BadBoardChar(c) => write!(f, "bad board character '{c}'"),
            NotationError::BadMove(s) => write!(f, "cannot read move '{s}'"),
            NotationError::IllegalMove(s) => write!(f, "illegal move '{s}'"),
            NotationError::AmbiguousMove(s) => write!(f, "ambiguous move '{s}'"),
            NotationError::Position(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for NotationError {}

impl From<PositionError> for NotationError {
    fn from(e: PositionError) -> Self {
        NotationError::Position(e)
    }
}

/// Ordinal of a square among the playable squares, in bit order (0-based).
fn ordinal<G: Geometry>(sq: Square) -> u32 {
    let i = sq.index() as u32;
    match G::LAYOUT.shape {
        Shape::Dark => i - i / (G::LAYOUT.width as u32 + 1),
        _ => i,
    }
}

fn from_ordinal<G: Geometry>(o: u32) -> Option<Square> {
    if o >= G::LAYOUT.squares() {
        return None;
    }
    let i = match G::LAYOUT.shape {
        Shape::Dark => o + o / G::LAYOUT.width as u32,
        _ => o,
    };
    Some(Square::new(i as u8))
}

/// Mirrored numbering (Italian, Portuguese): the standard board read right to left.
fn mirror_ordinal<G: Geometry>(o: u32) -> u32 {
    let per_row = G::LAYOUT.width as u32 / 2;
    (o / per_row) * per_row + (per_row - 1 - o % per_row)
}

/// The square's number in the variant's own numbering (1-based).
pub fn square_number<R: Rules>(sq: Square) -> u32 {
    let o = ordinal::<R::G>(sq);
    match R::NUMBERING {
        Numbering::TopDown | Numbering::Algebraic => o + 1,
        Numbering::Italian => mirror_ordinal::<R::G>(o) + 1,
        Numbering::Portuguese => R::G::LAYOUT.squares() - mirror_ordinal::<R::G>(o),
    }
}

pub fn square_from_number<R: Rules>(n: u32) -> Option<Square> {
    let count = R::G::LAYOUT.squares();
    if n == 0 || n > count {
        return None;
    }
    let o = match R::NUMBERING {
        Numbering::TopDown | Numbering::Algebraic => n - 1,
        Numbering::Italian => mirror_ordinal::<R::G>(n - 1),
        Numbering::Portuguese => mirror_ordinal::<R::G>(count - n),
    };
    from_ordinal::<R::G>(o)
}

fn mirrored<R: Rules>() -> bool {
    matches!(R::NUMBERING, Numbering::Italian | Numbering::Portuguese)
}

/// Algebraic name as a player of the variant writes it (`a1` at White's lower left).
pub fn square_algebraic<R: Rules>(sq: Square) -> String {
    let (mut f, r) = R::G::coords(sq).unwrap_or((0, 0));
    if mirrored::<R>() {
        f = R::G::LAYOUT.width - 1 - f;
    }
    format!("{}{}", (b'a' + f) as char, r + 1)
}

pub fn square_from_algebraic<R: Rules>(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_lowercase() {
        return None;
    }
    let mut f = (b[0] - b'a') as i32;
    let r: i32 = s[1..].parse().ok()?;
    if mirrored::<R>() {
        f = R::G::LAYOUT.width as i32 - 1 - f;
    }
    R::G::square_at(f, r - 1)
}

/// A square as the variant writes it: its number, or algebraic where that is the custom.
pub fn square_name<R: Rules>(sq: Square) -> String {
    if R::ALGEBRAIC_OUTPUT || R::NUMBERING == Numbering::Algebraic {
        square_algebraic::<R>(sq)
    } else {
        square_number::<R>(sq).to_string()
    }
}

/// Read a square written as a number (not on algebraic-only boards) or algebraically.
pub fn parse_square<R: Rules>(s: &str) -> Result<Square, NotationError> {
    let bad = || NotationError::BadSquare(s.to_string());
    if s.bytes().all(|c| c.is_ascii_digit()) && !s.is_empty() {
        if R::NUMBERING == Numbering::Algebraic {
            return Err(bad());
        }
        let n: u32 = s.parse().map_err(|_| bad())?;
        square_from_number::<R>(n).ok_or_else(bad)
    } else {
        square_from_algebraic::<R>(&s.to_ascii_lowercase()).ok_or_else(bad)
    }
}

/// Parse a PDN FEN such as `W:W31-35,K45:B1-20` (ranges and `K` for kings; `P` marks a
/// parachutist in Parachute checkers) and check the position against the variant's rules.
///
/// ```
/// use damas::core::notation::{parse_fen, write_fen};
/// use damas::core::perft::perft;
/// use damas::core::rules::International;
/// use damas::{Color, Convention, Position};
///
/// // Black to move; White has a king on 16 and men on 26, 40, 46; Black a king on 36.
/// let pos: Position<International> =
///     parse_fen("B:WK16,26,40,46:B5,6,10,14,15,19,24,K36").expect("a valid FEN");
/// assert_eq!(pos.side_to_move(), Color::Black);
/// // Its perft from tests/perft/international.tsv.
/// assert_eq!(perft(&pos, 4, Convention::Drop), 13929);
/// // Writing it back gives the same position.
/// assert_eq!(parse_fen::<International>(&write_fen(&pos)), Ok(pos));
/// // Ranges are accepted: the International start position.
/// let start: Position<International> = parse_fen("W:W31-50:B1-20").expect("valid");
/// assert_eq!(start, Position::start());
/// // A square off the board, or a white man on White's crowning row, is an error.
/// assert!(parse_fen::<International>("W:W51:B1").is_err());
/// assert!(parse_fen::<International>("W:W3:B20").is_err());
/// ```
pub fn parse_fen<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    let t = text.trim().trim_matches('"').trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    let (pieces, runs) = match t.rsplit_once(':') {
        Some((head, last)) if last.starts_with('R') => (head, Some(last)),
        _ => (t, None),
    };
    let pos = Position::from_setup(&parse_fen_setup::<R>(pieces)?)?;
    match runs {
        None => Ok(pos),
        Some(section) => {
            let runs = parse_king_runs::<R>(section, &pos)
                .ok_or_else(|| NotationError::BadKingRun(section.to_string()))?;
            Ok(pos.with_king_runs(runs))
        }
    }
}

/// The king-move section of a FEN (`RW28/3,B17/1`: White's king on 28 has made three
/// non-capturing moves in a row, Black's on 17 one), checked against the position.
fn parse_king_runs<R: Rules>(section: &str, pos: &Position<R>) -> Option<KingRuns> {
    if R::KING_MOVE_LIMIT == 0 {
        return None;
    }
    let mut runs = KingRuns::default();
    let mut seen = [false; 2];
    for item in section.strip_prefix('R')?.split(',') {
        let color = match item.as_bytes().first()? {
            b'W' | b'w' => Color::White,
            b'B' | b'b' => Color::Black,
            _ => return None,
        };
        let (square, count) = item[1..].split_once('/')?;
        let square = parse_square::<R>(square).ok()?;
        let count: u8 = count.parse().ok()?;
        let men = pos.pieces(color) & !pos.kings();
        let king = pos.piece_at(square) == Some(Piece::new(color, Kind::King));
        if std::mem::replace(&mut seen[color.index()], true)
            || !king
            || men.count() == 0
            || count == 0
            || count > R::KING_MOVE_LIMIT
        {
            return None;
        }
        runs.square[color.index()] = square.index() as u8;
        runs.count[color.index()] = count;
    }
    Some(runs)
}

/// Read a PDN FEN into a setup without checking it against the rules. The grammar is
/// strict: the side to move (`W` or `B`), then exactly one white and one black section
/// (either order), each a colour letter and a comma-separated list of squares, ranges
/// (`1-5`) and `K`/`P`-marked squares; no blanks inside. Surrounding quotes and one final
/// `.` are allowed. Anything else is an error naming the part that breaks the grammar.
pub fn parse_fen_setup<R: Rules>(text: &str) -> Result<Setup<WordOf<R>>, NotationError> {
    let t = text.trim().trim_matches('"').trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let mut parts = t.split(':');
    let side = match parts.next() {
        Some("W") | Some("w") => Color::White,
        Some("B") | Some("b") => Color::Black,
        Some(s) => return Err(NotationError::BadSide(s.to_string())),
        None => return Err(NotationError::Empty),
    };
    let mut setup = Setup::<WordOf<R>>::empty(side);
    let mut seen = [false; 2];
    for part in parts {
        let color = match part.as_bytes().first() {
            Some(b'W') | Some(b'w') => Color::White,
            Some(b'B') | Some(b'b') => Color::Black,
            _ => return Err(NotationError::BadSection(part.to_string())),
        };
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(NotationError::RepeatedSection {
                section: part.to_string(),
                color,
            });
        }
        let list = &part[1..];
        if list.is_empty() {
            continue;
        }
        for item in list.split(',') {
            let bad = || NotationError::BadFenItem {
                section: part.to_string(),
                item: item.to_string(),
            };
            let (kind, rest) = match item.as_bytes().first() {
                Some(b'K') => (Kind::King, &item[1..]),
                Some(b'P') => (Kind::Parachutist, &item[1..]),
                Some(_) => (Kind::Man, item),
                None => return Err(bad()),
            };
            let piece = Piece::new(color, kind);
            let mut put = |sq: Square| -> Result<(), NotationError> {
                if setup.piece_at(sq).is_some() {
                    return Err(NotationError::RepeatedSquare(square_name::<R>(sq)));
                }
                setup.put(sq, piece);
                Ok(())
            };
            let number = |n: &str| -> Result<u32, NotationError> {
                if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                n.parse().map_err(|_| bad())
            };
            if let Some((a, b)) = rest.split_once('-') {
                let (a, b) = (number(a)?, number(b)?);
                if a > b || R::NUMBERING == Numbering::Algebraic {
                    return Err(bad());
                }
                for n in a..=b {
                    put(square_from_number::<R>(n).ok_or_else(bad)?)?;
                }
            } else {
                if rest.is_empty() || !rest.bytes().all(|c| c.is_ascii_alphanumeric()) {
                    return Err(bad());
                }
                put(parse_square::<R>(rest).map_err(|_| bad())?)?;
            }
        }
    }
    for c in [Color::White, Color::Black] {
        if !seen[c.index()] {
            return Err(NotationError::MissingSection(c));
        }
    }
    Ok(setup)
}

/// Write a PDN FEN, squares in the variant's numbering order.
pub fn write_fen<R: Rules>(pos: &Position<R>) -> String {
    let s = pos.setup();
    let mut out = String::new();
    out.push(s.side.letter());
    for c in [Color::White, Color::Black] {
        out.push(':');
        out.push(c.letter());
        let mut squares: Vec<Square> = s.by_color[c.index()].collect();
        squares.sort_by_key(|&sq| square_number::<R>(sq));
        let items: Vec<String> = squares
            .iter()
            .map(|&sq| {
                let prefix = match s.piece_at(sq).map(|p| p.kind) {
                    Some(Kind::King) => "K",
                    Some(Kind::Parachutist) => "P",
                    _ => "",
                };
                format!("{prefix}{}", square_name::<R>(sq))
            })
            .collect();
        out.push_str(&items.join(","));
    }
    let runs = pos.king_runs();
    let items: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .filter(|c| runs.count[c.index()] > 0)
        .map(|c| {
            let sq = Square::new(runs.square[c.index()]);
            format!(
                "{}{}/{}",
                c.letter(),
                square_name::<R>(sq),
                runs.count[c.index()]
            )
        })
        .collect();
    if !items.is_empty() {
        out.push_str(":R");
        out.push_str(&items.join(","));
    }
    out
}

/// Squares in numbering order.
fn numbered_squares<R: Rules>() -> Vec<Square> {
    (1..=R::G::LAYOUT.squares())
        .filter_map(square_from_number::<R>)
        .collect()
}

/// The Hub board string: side, then one character per square in numbering order.
pub fn write_board_string<R: Rules>(pos: &Position<R>) -> String {
    let mut s = String::new();
    s.push(pos.side_to_move().letter());
    for sq in numbered_squares::<R>() {
        s.push(pos.piece_at(sq).map_or('e', Piece::to_char));
    }
    s
}

pub fn parse_board_string<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    let t = text.trim();
    let mut chars = t.chars();
    let side = match chars.next() {
        Some('W') | Some('w') => Color::White,
        Some('B') | Some('b') => Color::Black,
        Some(c) => return Err(NotationError::BadSide(c.to_string())),
        None => return Err(NotationError::Empty),
    };
    let squares = numbered_squares::<R>();
    let body: Vec<char> = chars.collect();
    if body.len() != squares.len() {
        return Err(NotationError::BadBoardString {
            expected: squares.len(),
            found: body.len(),
        });
    }
    let mut setup = Setup::<WordOf<R>>::empty(side);
    for (&sq, &c) in squares.iter().zip(&body) {
        match c {
            'e' | '.' => {}
            _ => setup.put(
                sq,
                Piece::from_char(c).ok_or(NotationError::BadBoardChar(c))?,
            ),
        }
    }
    Ok(Position::from_setup(&setup)?)
}

/// A move as typed: its squares, and whether it was written as a capture.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveText {
    pub squares: Vec<String>,
    pub capture: bool,
}

impl MoveText {
    /// Split `32-28`, `28x19x23` or `c3:e5` into squares, without looking at a position.
    pub fn parse(text: &str) -> Result<MoveText, NotationError> {
        let t = text.trim();
        let bad = || NotationError::BadMove(t.to_string());
        if t.is_empty() || t.len() > 200 {
            return Err(bad());
        }
        let capture = t.contains(['x', 'X', ':']);
        let quiet = t.contains('-');
        if capture && quiet {
            return Err(bad());
        }
        let squares: Vec<String> = t
            .split(['x', 'X', ':', '-'])
            .map(|s| s.trim().to_string())
            .collect();
        if squares.len() < 2 {
            return Err(bad());
        }
        if squares
            .iter()
            .any(|s| s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            return Err(bad());
        }
        Ok(MoveText { squares, capture })
    }

    /// The legal move this text names.
    pub fn resolve<R: Rules>(&self, pos: &Position<R>) -> Result<MoveOf<R>, NotationError> {
        let text = self.squares.join(if self.capture { "x" } else { "-" });
        let squares: Vec<Square> = self
            .squares
            .iter()
            .map(|s| parse_square::<R>(s))
            .collect::<Result<_, _>>()?;
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let mut candidates: Vec<MoveOf<R>> = Vec::new();
        let mut legal = Vec::new();
        pos.generate(&mut legal, Convention::Drop);
        for m in legal {
            if m.from != from || m.is_capture() != self.capture {
                continue;
            }
            // Full form: from, to, then every captured square.
            let full = squares.len() >= 2
                && m.to == squares[1]
                && squares.len() - 2 == m.captured.count() as usize
                && squares[2..].iter().all(|&s| m.captured.contains(s));
            // Short forms: from and to only, or a path of landing squares.
            let short = m.to == to && (squares.len() == 2 || !self.capture);
            if full || short {
                candidates.push(m);
            }
        }
        // Prefer an exact full-form match when the text lists captured squares.
        if candidates.len() > 1 {
            let exact: Vec<_> = candidates
                .iter()
                .copied()
                .filter(|m| m.to == squares[1] && squares.len() - 2 == m.captured.count() as usize)
                .collect();
            if exact.len() == 1 {
                return Ok(exact[0]);
            }
        }
        match candidates.len() {
            0 => Err(NotationError::IllegalMove(text)),
            1 => Ok(candidates[0]),
            _ => Err(NotationError::AmbiguousMove(text)),
        }
    }
}

/// Parse and resolve in one step.
pub fn parse_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<MoveOf<R>, NotationError> {
    MoveText::parse(text)?.resolve(pos)
}

/// A move in the variant's notation, full form: `from-to` or `fromxtox<captured ...>`.
pub fn move_text<R: Rules>(m: &MoveOf<R>) -> String {
    if !m.is_capture() {
        return format!("{}-{}", square_name::<R>(m.from), square_name::<R>(m.to));
    }
    let mut captured: Vec<Square> = Bitboard::collect::<Vec<_>>(m.captured);
    captured.sort_by_key(|&s| square_number::<R>(s));
    let mut s = format!("{}x{}", square_name::<R>(m.from), square_name::<R>(m.to));
    for c in captured {
        s.push('x');
        s.push_str(&square_name::<R>(c));
    }
    s
}

/// Positions debug-print as their FEN.
impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_fen(self))
    }
}
