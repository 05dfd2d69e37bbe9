//! Match result files: what `damas match --out FILE` writes game by game and
//! `damas match merge` reads back.
//!
//! A file starts with a header naming the match (everything that decides its games and
//! their scoring, not the engine commands, which differ between machines) and the part of
//! it played, then holds one record per finished game: its number, players, points, fault
//! and PDN text. Games are appended as they end, so a run stopped at any point leaves a
//! file whose whole records a new run with the same `--out` resumes from.
//!
//! ```text
//! damas match results 1
//! match <the match's settings>
//! players <name> <name> …        (percent-escaped)
//! sprt <elo0=… elo1=… alpha=… beta=…> | -
//! shard <i>/<n> of <games in the whole match>
//! game <number> <first> <second> <points 1|0.5|0> <fault player:kind | -> <pdn bytes>
//! <the PDN text, that many bytes>
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use super::client::Fault;
use super::stats::Sprt;
use super::{GameReport, MatchConfig};

pub const MAGIC: &str = "damas match results 1";

/// What a result file is of: the same for every part of one match.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The settings that decide the games.
    pub settings: String,
    pub players: Vec<String>,
    pub sprt: Option<Sprt>,
    /// `(i, n)`: part `i` of `n`.
    pub shard: (usize, usize),
    /// Games in the whole match.
    pub scheduled: usize,
}

impl Header {
    /// The header of `config`'s results.
    pub fn of(config: &MatchConfig, scheduled: usize) -> Header {
        let players: Vec<String> = config
            .players
            .iter()
            .map(|p| format!("{}: {:?} {:?}", p.name, p.level, p.params))
            .collect();
        let settings = format!(
            "variant={} options={:?} level={:?} openings={:?} games={} seed={} max-plies={} adjudicate-draw={:?} players={:?}",
            config.variant.name(),
            config.variant.options(),
            config.level,
            config.openings,
            config.games,
            config.seed,
            config.max_plies,
            config.draw_adjudication,
            players,
        );
        Header {
            settings,
            players: config.players.iter().map(|p| p.name.clone()).collect(),
            sprt: config.sprt,
            shard: config.shard,
            scheduled,
        }
    }

    fn write(&self) -> String {
        let names: Vec<String> = self.players.iter().map(|n| escape(n)).collect();
        let sprt = self.sprt.map_or("-".to_string(), |s| {
            format!(
                "elo0={} elo1={} alpha={} beta={}",
                s.elo0, s.elo1, s.alpha, s.beta
            )
        });
        format!(
            "{MAGIC}\nmatch {}\nplayers {}\nsprt {sprt}\nshard {}/{} of {}\n",
            escape(&self.settings),
            names.join(" "),
            self.shard.0,
            self.shard.1,
            self.scheduled
        )
    }

    /// Whether `other` is another part of the same match.
    pub fn same_match(&self, other: &Header) -> bool {
        self.settings == other.settings
            && self.players == other.players
            && self.sprt == other.sprt
            && self.shard.1 == other.shard.1
            && self.scheduled == other.scheduled
    }
}

/// Why a result file cannot be used.
#[derive(Debug)]
pub enum ShardError {
    Io {
        path: PathBuf,
        reason: String,
    },
    /// Not a result file, or damaged at `line`.
    Format {
        path: PathBuf,
        line: usize,
        reason: String,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Io { path, reason } => write!(f, "{}: {reason}", path.display()),
            ShardError::Format { path, line, reason } => {
                write!(f, "{} line {line}: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for ShardError {}

/// A result file read back: its header, its whole game records, and the byte length they
/// take (a record cut short by an interrupted run lies beyond it).
#[derive(Debug)]
pub struct Results {
    pub header: Header,
    pub games: Vec<GameReport>,
    pub whole_bytes: usize,
}

/// One game's record.
pub fn game_record(r: &GameReport) -> String {
    let fault = r.fault.map_or("-".to_string(), |(who, kind)| {
        format!("{who}:{}", escape(kind))
    });
    let points = match r.first_points {
        p if p > 0.75 => "1",
        p if p < 0.25 => "0",
        _ => "0.5",
    };
    format!(
        "game {} {} {} {points} {fault} {}\n{}\n",
        r.number,
        r.first,
        r.second,
        r.pdn.len(),
        r.pdn
    )
}

/// The start of a result file.
pub fn header_text(h: &Header) -> String {
    h.write()
}

/// Percent-escape blanks, `%` and control characters so a value is one word.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '%' || c == ' ' || c.is_control() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Read a result file.
pub fn read(path: &Path) -> Result<Results, ShardError> {
    let bytes = std::fs::read(path).map_err(|e| ShardError::Io {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    parse(path, &bytes)
}

pub fn parse(path: &Path, bytes: &[u8]) -> Result<Results, ShardError> {
    let bad = |line: usize, reason: &str| ShardError::Format {
        path: path.to_path_buf(),
        line,
        reason: reason.to_string(),
    };
    let mut at = 0;
    // The next line (without its newline), or None at the end or in a line cut short.
    let next_line = |at: &mut usize| -> Option<&str> {
        let rest = &bytes[*at..];
        let end = rest.iter().position(|&b| b == b'\n')?;
        *at += end + 1;
        std::str::from_utf8(&rest[..end]).ok()
    };
    let header_line = |at: &mut usize, line: usize, key: &str| -> Result<String, ShardError> {
        let text = next_line(at).ok_or_else(|| bad(line, "the header is cut short"))?;
        text.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .map(str::to_string)
            .ok_or_else(|| bad(line, &format!("expected '{key} …'")))
    };
    if next_line(&mut at) != Some(MAGIC) {
        return Err(bad(1, "not a damas match result file"));
    }
    let settings = header_line(&mut at, 2, "match")
        .and_then(|s| unescape(&s).ok_or_else(|| bad(2, "bad escape")))?;
    let players = header_line(&mut at, 3, "players")?
        .split(' ')
        .map(|w| unescape(w).ok_or_else(|| bad(3, "bad escape")))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt_text = header_line(&mut at, 4, "sprt")?;
    let sprt = match sprt_text.as_str() {
        "-" => None,
        text => Some(super::cli::parse_sprt(text).map_err(|e| bad(4, &e.to_string()))?),
    };
    let shard_text = header_line(&mut at, 5, "shard")?;
    let (shard, scheduled) =
        parse_shard_line(&shard_text).ok_or_else(|| bad(5, "expected 'shard I/N of G'"))?;
    let header = Header {
        settings,
        players,
        sprt,
        shard,
        scheduled,
    };
    let mut line = 5;
    let mut games = Vec::new();
    let mut whole_bytes = at;
    while let Some(text) = next_line(&mut at) {
        line += 1;
        let record_line = line;
        let record = parse_game(text, header.players.len(), scheduled)
            .ok_or_else(|| bad(line, "not a game record"))?;
        let (mut report, pdn_len) = record;
        let end = at.checked_add(pdn_len).filter(|&e| e < bytes.len());
        let Some(end) = end else {
            // Cut short by an interrupted run: everything before it is whole.
            break;
        };
        if bytes[end] != b'\n' {
            return Err(bad(line, "the PDN text is not as long as its record says"));
        }
        report.pdn = std::str::from_utf8(&bytes[at..end])
            .map_err(|_| bad(line, "the PDN text is not UTF-8"))?
            .to_string();
        line += report.pdn.matches('\n').count() + 1;
        at = end + 1;
        whole_bytes = at;
        if !super::in_shard(report.number, shard) {
            return Err(bad(record_line, "a game of another part of the match"));
        }
        if games.iter().any(|g: &GameReport| g.number == report.number) {
            return Err(bad(record_line, &format!("game {} twice", report.number)));
        }
        games.push(report);
    }
    Ok(Results {
        header,
        games,
        whole_bytes,
    })
}

fn parse_shard_line(text: &str) -> Option<((usize, usize), usize)> {
    let (part, games) = text.split_once(" of ")?;
    let (i, n) = part.split_once('/')?;
    let (i, n): (usize, usize) = (i.parse().ok()?, n.parse().ok()?);
    let games = games.parse().ok()?;
    (n > 0 && i < n).then_some(((i, n), games))
}

fn parse_game(text: &str, players: usize, scheduled: usize) -> Option<(GameReport, usize)> {
    let words: Vec<&str> = text.split(' ').collect();
    let ["game", number, first, second, points, fault, pdn_len] = words[..] else {
        return None;
    };
    let number: usize = number.parse().ok()?;
    let first: usize = first.parse().ok()?;
    let second: usize = second.parse().ok()?;
    if number == 0 || number > scheduled || first >= players || second >= players || first == second
    {
        return None;
    }
    let first_points = match points {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        _ => return None,
    };
    let fault = match fault {
        "-" => None,
        text => {
            let (who, kind) = text.split_once(':')?;
            let who: usize = who.parse().ok()?;
            let kind = Fault::kind_named(&unescape(kind)?)?;
            (who < players).then_some((who, kind))?;
            Some((who, kind))
        }
    };
    let pdn_len = pdn_len.parse().ok()?;
    Some((
        GameReport {
            number,
            first,
            second,
            first_points,
            fault,
            warnings: Vec::new(),
            pdn: String::new(),
        },
        pdn_len,
    ))
}
