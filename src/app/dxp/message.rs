//! The DamExchange messages (layer 2): fixed-width ASCII fields behind a one-letter header.
//! On the wire each message is followed by a NUL ([`crate::app::dxp::link`]); here a message
//! is the bytes between two NULs.
//!
//! Decoding is strict: every length and field is checked, so a message that decodes is one
//! the rest of the front end can act on without further checks.

use std::fmt;

use crate::core::color::Color;

/// The longest message the protocol allows (the NUL not counted).
pub const MAX_LEN: usize = 127;
/// Width of the program name fields of GAMEREQ and GAMEACC.
pub const NAME_WIDTH: usize = 32;
/// Squares of the board DXP describes (10×10, numbered 1–50).
pub const SQUARES: usize = 50;
/// Most pieces one move may capture.
pub const MAX_CAPTURED: usize = 20;
/// The protocol version this front end speaks.
pub const VERSION: u8 = 1;

/// Where a requested game starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StartPosition {
    /// The normal start, White to move.
    Initial,
    /// A position: the side to move and one of `e w z W Z` per square, 1 to 50.
    Given { to_move: Color, squares: String },
}

/// GAMEREQ: the initiator asks for a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRequest {
    pub version: u8,
    pub initiator: String,
    pub follower_color: Color,
    /// Thinking time of each player for the whole game, in minutes.
    pub minutes: u16,
    /// Moves of the game the time is for (0: no limit).
    pub moves: u16,
    pub start: StartPosition,
}

/// The follower's answer to a game request.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Acceptance {
    Accepted,
    /// The request's protocol version is not the follower's.
    WrongVersion,
    /// Not this game (time, position…), but another may be asked for.
    Declined,
    /// No games at all.
    NoGames,
}

/// MOVE: a move, the seconds its player spent on it, and the squares it captured on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveMessage {
    pub seconds: u16,
    pub from: u8,
    pub to: u8,
    pub captured: Vec<u8>,
}

/// Why a player ends a game (informative only: the protocol trusts it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    Unspecified,
    /// The sender gives up.
    SenderLoses,
    Draw,
    SenderWins,
}

/// GAMEEND: a request to end the game, or its acknowledgement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameEnd {
    pub reason: EndReason,
    /// The sender wants no further games.
    pub stop: bool,
}

/// The answer to a take-back request.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BackAcceptance {
    Accepted,
    NotSupported,
    Refused,
}

/// One DamExchange message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Message {
    GameRequest(GameRequest),
    GameAccept {
        follower: String,
        acceptance: Acceptance,
    },
    Move(MoveMessage),
    GameEnd(GameEnd),
    Chat(String),
    /// Take back to the position of move `move_number` with `to_move` to play.
    BackRequest {
        move_number: u16,
        to_move: Color,
    },
    BackAccept(BackAcceptance),
}

/// Why bytes are not a DamExchange message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DxpError {
    Empty,
    /// Longer than [`MAX_LEN`] characters.
    TooLong(usize),
    /// A byte outside 1–127 at this offset.
    NotAscii(usize),
    UnknownType(char),
    /// The message has the wrong length for its type.
    Length {
        kind: &'static str,
        expected: String,
        found: usize,
    },
    /// A field that does not hold what its layout says.
    Field {
        kind: &'static str,
        field: &'static str,
        text: String,
    },
    /// A value that cannot be encoded in its field.
    Unencodable {
        field: &'static str,
        value: String,
    },
}

impl fmt::Display for DxpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DxpError::Empty => write!(f, "empty message"),
            DxpError::TooLong(n) => {
                write!(f, "message of {n} characters (at most {MAX_LEN})")
            }
            DxpError::NotAscii(i) => write!(f, "byte {i} is not ASCII 1-127"),
            DxpError::UnknownType(c) => write!(f, "unknown message type {c:?}"),
            DxpError::Length {
                kind,
                expected,
                found,
            } => write!(f, "{kind} of {found} characters (expected {expected})"),
            DxpError::Field { kind, field, text } => {
                write!(f, "{kind}: bad {field} {text:?}")
            }
            DxpError::Unencodable { field, value } => {
                write!(f, "cannot encode {field} {value:?}")
            }
        }
    }
}

impl std::error::Error for DxpError {}

impl Message {
    /// The protocol's name of the message type.
    pub fn kind(&self) -> &'static str {
        match self {
            Message::GameRequest(_) => "GAMEREQ",
            Message::GameAccept { .. } => "GAMEACC",
            Message::Move(_) => "MOVE",
            Message::GameEnd(_) => "GAMEEND",
            Message::Chat(_) => "CHAT",
            Message::BackRequest { .. } => "BACKREQ",
            Message::BackAccept(_) => "BACKACC",
        }
    }

    /// The message's bytes, without the NUL that ends it on the wire.
    pub fn encode(&self) -> Result<Vec<u8>, DxpError> {
        let mut s = String::new();
        match self {
            Message::GameRequest(r) => {
                s.push('R');
                s.push_str(&number(r.version.into(), 2, "version")?);
                s.push_str(&name(&r.initiator)?);
                s.push(color_letter(r.follower_color));
                s.push_str(&number(r.minutes.into(), 3, "thinking time")?);
                s.push_str(&number(r.moves.into(), 3, "number of moves")?);
                match &r.start {
                    StartPosition::Initial => s.push('A'),
                    StartPosition::Given { to_move, squares } => {
                        check_board(squares, "GAMEREQ")?;
                        s.push('B');
                        s.push(color_letter(*to_move));
                        s.push_str(squares);
                    }
                }
            }
            Message::GameAccept {
                follower,
                acceptance,
            } => {
                s.push('A');
                s.push_str(&name(follower)?);
                s.push(match acceptance {
                    Acceptance::Accepted => '0',
                    Acceptance::WrongVersion => '1',
                    Acceptance::Declined => '2',
                    Acceptance::NoGames => '3',
                });
            }
            Message::Move(m) => {
                if m.captured.len() > MAX_CAPTURED {
                    return Err(DxpError::Unencodable {
                        field: "number captured",
                        value: m.captured.len().to_string(),
                    });
                }
                s.push('M');
                s.push_str(&number(m.seconds.into(), 4, "time")?);
                s.push_str(&square(m.from)?);
                s.push_str(&square(m.to)?);
                s.push_str(&number(m.captured.len() as u32, 2, "number captured")?);
                for &c in &m.captured {
                    s.push_str(&square(c)?);
                }
            }
            Message::GameEnd(e) => {
                s.push('E');
                s.push(match e.reason {
                    EndReason::Unspecified => '0',
                    EndReason::SenderLoses => '1',
                    EndReason::Draw => '2',
                    EndReason::SenderWins => '3',
                });
                s.push(if e.stop { '1' } else { '0' });
            }
            Message::Chat(text) => {
                s.push('C');
                // Longer text is cut, and what the wire cannot carry replaced.
                let clean: String = text
                    .chars()
                    .map(|c| if c.is_ascii() && c != '\0' { c } else { '?' })
                    .take(MAX_LEN - 1)
                    .collect();
                s.push_str(if clean.is_empty() { " " } else { &clean });
            }
            Message::BackRequest {
                move_number,
                to_move,
            } => {
                s.push('B');
                s.push_str(&number((*move_number).into(), 3, "move number")?);
                s.push(color_letter(*to_move));
            }
            Message::BackAccept(a) => {
                s.push('K');
                s.push(match a {
                    BackAcceptance::Accepted => '0',
                    BackAcceptance::NotSupported => '1',
                    BackAcceptance::Refused => '2',
                });
            }
        }
        Ok(s.into_bytes())
    }

    /// Decode the bytes of one message (without its NUL).
    pub fn decode(bytes: &[u8]) -> Result<Message, DxpError> {
        if bytes.is_empty() {
            return Err(DxpError::Empty);
        }
        if bytes.len() > MAX_LEN {
            return Err(DxpError::TooLong(bytes.len()));
        }
        if let Some(i) = bytes.iter().position(|&b| b == 0 || b > 127) {
            return Err(DxpError::NotAscii(i));
        }
        // ASCII from here on: every byte is one char.
        let text = std::str::from_utf8(bytes).map_err(|e| DxpError::NotAscii(e.valid_up_to()))?;
        let (header, body) = text.split_at(1);
        let mut f = Fields { body, at: 0 };
        let message = match header {
            "R" => {
                let kind = "GAMEREQ";
                let lengths = [
                    1 + 2 + 32 + 1 + 3 + 3 + 1,
                    1 + 2 + 32 + 1 + 3 + 3 + 1 + 1 + 50,
                ];
                if !lengths.contains(&bytes.len()) {
                    return Err(length(kind, "43 or 94", bytes.len()));
                }
                let version = f.number(kind, "version", 2)? as u8;
                let initiator = f.name();
                let follower_color = f.color(kind, "follower color")?;
                let minutes = f.number(kind, "thinking time", 3)? as u16;
                let moves = f.number(kind, "number of moves", 3)? as u16;
                let start = match f.take(1) {
                    "A" if bytes.len() == lengths[0] => StartPosition::Initial,
                    "B" if bytes.len() == lengths[1] => {
                        let to_move = f.color(kind, "color to move")?;
                        let squares = f.take(SQUARES).to_string();
                        check_board(&squares, kind)?;
                        StartPosition::Given { to_move, squares }
                    }
                    other => return Err(field(kind, "starting position", other)),
                };
                Message::GameRequest(GameRequest {
                    version,
                    initiator,
                    follower_color,
                    minutes,
                    moves,
                    start,
                })
            }
            "A" => {
                let kind = "GAMEACC";
                if bytes.len() != 1 + NAME_WIDTH + 1 {
                    return Err(length(kind, "34", bytes.len()));
                }
                let follower = f.name();
                let acceptance = match f.take(1) {
                    "0" => Acceptance::Accepted,
                    "1" => Acceptance::WrongVersion,
                    "2" => Acceptance::Declined,
                    "3" => Acceptance::NoGames,
                    other => return Err(field(kind, "acceptance code", other)),
                };
                Message::GameAccept {
                    follower,
                    acceptance,
                }
            }
            "M" => {
                let kind = "MOVE";
                if bytes.len() < 11 {
                    return Err(length(kind, "11 + 2 per captured piece", bytes.len()));
                }
                let seconds = f.number(kind, "time", 4)? as u16;
                let from = f.square(kind, "from field")?;
                let to = f.square(kind, "to field")?;
                let n = f.number(kind, "number captured", 2)? as usize;
                if n > MAX_CAPTURED {
                    return Err(field(kind, "number captured", &n.to_string()));
                }
                if bytes.len() != 11 + 2 * n {
                    return Err(length(kind, &(11 + 2 * n).to_string(), bytes.len()));
                }
                let mut captured = Vec::with_capacity(n);
                for _ in 0..n {
                    let c = f.square(kind, "captured piece")?;
                    if captured.contains(&c) {
                        return Err(field(kind, "captured piece (twice)", &c.to_string()));
                    }
                    captured.push(c);
                }
                Message::Move(MoveMessage {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            "E" => {
                let kind = "GAMEEND";
                if bytes.len() != 3 {
                    return Err(length(kind, "3", bytes.len()));
                }
                let reason = match f.take(1) {
                    "0" => EndReason::Unspecified,
                    "1" => EndReason::SenderLoses,
                    "2" => EndReason::Draw,
                    "3" => EndReason::SenderWins,
                    other => return Err(field(kind, "reason", other)),
                };
                let stop = match f.take(1) {
                    "0" => false,
                    "1" => true,
                    other => return Err(field(kind, "stop code", other)),
                };
                Message::GameEnd(GameEnd { reason, stop })
            }
            "C" => {
                if bytes.len() < 2 {
                    return Err(length("CHAT", "2 to 127", bytes.len()));
                }
                Message::Chat(body.to_string())
            }
            "B" => {
                let kind = "BACKREQ";
                if bytes.len() != 5 {
                    return Err(length(kind, "5", bytes.len()));
                }
                let move_number = f.number(kind, "move number", 3)? as u16;
                if move_number == 0 {
                    return Err(field(kind, "move number", "000"));
                }
                let to_move = f.color(kind, "color to move")?;
                Message::BackRequest {
                    move_number,
                    to_move,
                }
            }
            "K" => {
                let kind = "BACKACC";
                if bytes.len() != 2 {
                    return Err(length(kind, "2", bytes.len()));
                }
                Message::BackAccept(match f.take(1) {
                    "0" => BackAcceptance::Accepted,
                    "1" => BackAcceptance::NotSupported,
                    "2" => BackAcceptance::Refused,
                    other => return Err(field(kind, "acceptance code", other)),
                })
            }
            _ => {
                let c = char::from(bytes[0]);
                return Err(DxpError::UnknownType(c));
            }
        };
        Ok(message)
    }
}

/// The fields of a message body, read left to right; the caller has checked the length.
struct Fields<'a> {
    body: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> &'a str {
        let end = (self.at + n).min(self.body.len());
        let s = &self.body[self.at..end];
        self.at = end;
        s
    }

    fn number(
        &mut self,
        kind: &'static str,
        name: &'static str,
        width: usize,
    ) -> Result<u32, DxpError> {
        let s = self.take(width);
        if s.len() != width || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(field(kind, name, s));
        }
        s.parse().map_err(|_| field(kind, name, s))
    }

    fn square(&mut self, kind: &'static str, name: &'static str) -> Result<u8, DxpError> {
        let n = self.number(kind, name, 2)?;
        if !(1..=SQUARES as u32).contains(&n) {
            return Err(field(kind, name, &format!("{n:02}")));
        }
        Ok(n as u8)
    }

    fn color(&mut self, kind: &'static str, name: &'static str) -> Result<Color, DxpError> {
        match self.take(1) {
            "W" => Ok(Color::White),
            "Z" => Ok(Color::Black),
            other => Err(field(kind, name, other)),
        }
    }

    fn name(&mut self) -> String {
        self.take(NAME_WIDTH).trim().to_string()
    }
}

fn length(kind: &'static str, expected: &str, found: usize) -> DxpError {
    DxpError::Length {
        kind,
        expected: expected.to_string(),
        found,
    }
}

fn field(kind: &'static str, name: &'static str, text: &str) -> DxpError {
    DxpError::Field {
        kind,
        field: name,
        text: text.to_string(),
    }
}

fn check_board(squares: &str, kind: &'static str) -> Result<(), DxpError> {
    if squares.len() != SQUARES || !squares.bytes().all(|b| b"ewzWZ".contains(&b)) {
        return Err(field(kind, "position", squares));
    }
    Ok(())
}

fn color_letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

/// `n` in `width` digits with leading zeros.
fn number(n: u32, width: usize, name: &'static str) -> Result<String, DxpError> {
    let s = format!("{n:0width$}");
    if s.len() != width {
        return Err(DxpError::Unencodable {
            field: name,
            value: n.to_string(),
        });
    }
    Ok(s)
}

fn square(n: u8) -> Result<String, DxpError> {
    if !(1..=SQUARES as u8).contains(&n) {
        return Err(DxpError::Unencodable {
            field: "square",
            value: n.to_string(),
        });
    }
    Ok(format!("{n:02}"))
}

/// A program name in its 32-character field: blanks trimmed from the left (the field may
/// not start with one), cut at 32, padded with blanks; characters the wire cannot carry
/// are replaced.
fn name(text: &str) -> Result<String, DxpError> {
    let clean: String = text
        .trim_start()
        .chars()
        .map(|c| {
            if c.is_ascii() && !c.is_ascii_control() {
                c
            } else {
                '?'
            }
        })
        .take(NAME_WIDTH)
        .collect();
    if clean.is_empty() {
        return Err(DxpError::Unencodable {
            field: "name",
            value: text.to_string(),
        });
    }
    Ok(format!("{clean:<NAME_WIDTH$}"))
}
