//! Player specifications: `name=A depth=12 book=false` for Damas itself, `name=X cmd='…'`
//! for an external Hub engine, `name=X dxp=HOST:PORT [cmd='…' dir=…]` for a DXP program.

use std::fmt;
use std::time::Duration;

use crate::engine::limits::{self, OutOfRange};

/// How one player searches each move (per-player settings override the match's).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Level {
    Depth(u32),
    Nodes(u64),
    MoveTime(Duration),
    /// A clock: time at the start and per control, increment per move, and moves per
    /// control (0: the time is for the whole game).
    Clock {
        time: Duration,
        increment: Duration,
        moves: u32,
    },
}

/// One player of a match.
#[derive(Clone, PartialEq, Debug)]
pub struct PlayerSpec {
    pub name: String,
    /// The program and its arguments (for a DXP player, the program that listens, if the
    /// match is to start it; empty when it is already running).
    pub command: Vec<String>,
    /// The address of a DXP program (`dxp=`): the player is spoken to over DXP, not Hub.
    pub dxp: Option<String>,
    /// The directory the program is started in (`dir=`).
    pub dir: Option<std::path::PathBuf>,
    /// Sent as `set-param name=K value=V` after the handshake.
    pub params: Vec<(String, String)>,
    /// A level of its own, replacing the match's.
    pub level: Option<Level>,
    /// Whether this is Damas run as a subprocess (for the report only).
    pub internal: bool,
}

/// Why a player specification was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SpecError {
    UnterminatedQuote(String),
    /// A word that is not `key=value`.
    NotKeyValue(String),
    BadValue {
        key: String,
        value: String,
    },
    /// A number outside the engine's limits (`crate::engine::limits`).
    OutOfRange {
        key: String,
        value: String,
        expected: String,
    },
    MissingCommand(String),
    /// `cmd=` given to `--player`, which runs Damas itself.
    CommandForInternal,
    /// Hub settings given to a DXP player, which has none.
    SettingsForDxp(String),
    EmptyName,
    DuplicateName(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnterminatedQuote(s) => write!(f, "unterminated quote in '{s}'"),
            SpecError::NotKeyValue(w) => write!(f, "'{w}' is not key=value"),
            SpecError::BadValue { key, value } => write!(f, "bad value '{value}' for {key}"),
            SpecError::OutOfRange {
                key,
                value,
                expected,
            } => write!(f, "bad value '{value}' for {key} (expected {expected})"),
            SpecError::MissingCommand(s) => write!(f, "engine '{s}' needs cmd='…'"),
            SpecError::CommandForInternal => {
                write!(
                    f,
                    "--player runs Damas itself: use --engine for cmd=, dxp= and dir="
                )
            }
            SpecError::SettingsForDxp(k) => write!(
                f,
                "'{k}' is a Hub setting; a DXP player (dxp=) takes only name, cmd and dir"
            ),
            SpecError::EmptyName => write!(f, "a player's name may not be empty"),
            SpecError::DuplicateName(n) => write!(f, "two players are called '{n}'"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Split text into words at blanks, keeping what is inside single or double quotes
/// together (the quotes themselves are dropped): `cmd='a b' x=1` → `cmd=a b`, `x=1`.
pub fn split_words(text: &str) -> Result<Vec<String>, SpecError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(SpecError::UnterminatedQuote(text.to_string()));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn out_of_range(key: &str, value: &str, e: OutOfRange) -> SpecError {
    SpecError::OutOfRange {
        key: key.to_string(),
        value: value.to_string(),
        expected: e.expected,
    }
}

fn bad(key: &str, value: &str) -> SpecError {
    SpecError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
    }
}

impl PlayerSpec {
    /// Parse a `--player` (Damas, run as `damas_command`) or `--engine` specification;
    /// a bare first word is the name; `index` names a player without one.
    pub fn parse(
        text: &str,
        internal: bool,
        damas_command: &[String],
        index: usize,
    ) -> Result<PlayerSpec, SpecError> {
        let mut name = None;
        let mut command = None;
        let mut dxp = None;
        let mut dir = None;
        let mut params = Vec::new();
        let mut level = None;
        for word in split_words(text)? {
            let Some((key, value)) = word.split_once('=') else {
                // A bare first word is the name: `--player d6`.
                if name.is_none() {
                    name = Some(word);
                    continue;
                }
                return Err(SpecError::NotKeyValue(word));
            };
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => {
                    if internal {
                        return Err(SpecError::CommandForInternal);
                    }
                    let argv = split_words(value)?;
                    if argv.is_empty() {
                        return Err(bad(key, value));
                    }
                    command = Some(argv);
                }
                "dxp" | "dir" if internal => return Err(SpecError::CommandForInternal),
                "dxp" => {
                    if value.trim().is_empty() {
                        return Err(bad(key, value));
                    }
                    dxp = Some(value.to_string());
                }
                "dir" => dir = Some(std::path::PathBuf::from(value)),
                "depth" => {
                    let d = limits::DEPTH.parse_u32(value);
                    level = Some(Level::Depth(d.map_err(|e| out_of_range(key, value, e))?));
                }
                "nodes" => {
                    let n = limits::NODES.parse(value);
                    level = Some(Level::Nodes(n.map_err(|e| out_of_range(key, value, e))?));
                }
                "movetime" | "move-time" => {
                    let t = limits::MOVE_TIME.parse_duration(value);
                    level = Some(Level::MoveTime(t.map_err(|e| out_of_range(key, value, e))?));
                }
                _ => params.push((key.to_string(), value.to_string())),
            }
        }
        let name = name.unwrap_or_else(|| format!("player{}", index + 1));
        if name.trim().is_empty() {
            return Err(SpecError::EmptyName);
        }
        if dxp.is_some() {
            if let Some((k, _)) = params.first() {
                return Err(SpecError::SettingsForDxp(k.clone()));
            }
        }
        let command = if internal {
            damas_command.to_vec()
        } else if dxp.is_some() {
            command.unwrap_or_default()
        } else {
            command.ok_or_else(|| SpecError::MissingCommand(name.clone()))?
        };
        Ok(PlayerSpec {
            name,
            command,
            dxp,
            dir,
            params,
            level,
            internal,
        })
    }
}
