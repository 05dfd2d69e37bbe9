//! Openings for matches: the English ballot decks (embedded, so they work from any
//! directory), for every variant random balanced openings, and positions from a file (test
//! suites such as won endings to convert).

use std::fmt;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::core::game::Game;
use crate::core::notation::{move_text, parse_fen};
use crate::core::position::Position;
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::engine::{Engine, Start};
use crate::search::limits::Limits;
use crate::search::Control;

/// The ACF three-move deck: 174 openings, 156 played, 18 barred.
pub const ENGLISH_3MOVE: &str = include_str!("../../../book/english-3move.tsv");
/// The two-move deck: 49 openings, 43 played, 6 barred.
pub const ENGLISH_2MOVE: &str = include_str!("../../../book/english-2move.tsv");

/// Depth of the search that keeps only balanced random openings.
pub const BALANCE_DEPTH: u32 = 6;
/// Largest score, in hundredths of a man, a random opening may have at `BALANCE_DEPTH`.
pub const BALANCE_MARGIN: i32 = 30;

/// One opening: moves from the variant's start position or from a given one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Opening {
    /// A short label for the PDN `Opening` tag: the deck number and name, or the moves.
    pub label: String,
    /// The position the game starts from (a PDN FEN); `None`: the start position.
    pub fen: Option<String>,
    pub moves: Vec<String>,
    /// Barred openings are in the deck but not played.
    pub barred: bool,
}

/// Why a deck or an opening set could not be made.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BallotError {
    /// A malformed deck line (1-based).
    BadLine(usize, String),
    /// A deck for English asked for another variant.
    WrongVariant {
        deck: String,
        variant: String,
    },
    UnknownSet(String),
    /// A positions file that cannot be read, or is not one.
    File {
        path: String,
        reason: String,
    },
    /// An opening that is not legal from the start position.
    Illegal {
        label: String,
        reason: String,
    },
    /// Random openings: too few balanced positions found.
    TooFewBalanced {
        wanted: usize,
        found: usize,
    },
}

impl fmt::Display for BallotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BallotError::BadLine(n, l) => write!(f, "deck line {n}: cannot read '{l}'"),
            BallotError::WrongVariant { deck, variant } => {
                write!(f, "the {deck} deck is for english, not {variant}")
            }
            BallotError::UnknownSet(s) => write!(
                f,
                "unknown opening set '{s}' (english-3move, english-2move, random:N, none or fen:FILE)"
            ),
            BallotError::File { path, reason } => write!(f, "openings file {path}: {reason}"),
            BallotError::Illegal { label, reason } => write!(f, "opening {label}: {reason}"),
            BallotError::TooFewBalanced { wanted, found } => write!(
                f,
                "found only {found} balanced random openings of the {wanted} needed"
            ),
        }
    }
}

impl std::error::Error for BallotError {}

/// Read a deck: `#` comments, a header line, then `number<TAB>moves<TAB>status[<TAB>…<TAB>name]`;
/// status `barred` marks an opening not played.
pub fn parse_deck(text: &str) -> Result<Vec<Opening>, BallotError> {
    let mut deck = Vec::new();
    let mut header_seen = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if !header_seen {
            header_seen = true;
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let bad = || BallotError::BadLine(i + 1, line.to_string());
        if fields.len() < 3 {
            return Err(bad());
        }
        let number = fields[0].trim();
        let moves: Vec<String> = fields[1].split_whitespace().map(str::to_string).collect();
        if moves.is_empty() || number.parse::<u32>().is_err() {
            return Err(bad());
        }
        let barred = match fields[2].trim() {
            "barred" => true,
            "crossboard" | "mailplay" | "played" => false,
            _ => return Err(bad()),
        };
        let name = fields.last().map_or("", |s| s.trim());
        let label = if fields.len() > 3 && !name.is_empty() {
            format!("{number} {} ({name})", moves.join(" "))
        } else {
            format!("{number} {}", moves.join(" "))
        };
        deck.push(Opening {
            label,
            fen: None,
            moves,
            barred,
        });
    }
    Ok(deck)
}

/// Play an opening from its position; the game after its moves.
pub fn play_opening<R: Rules>(opening: &Opening) -> Result<Game<R>, BallotError> {
    let start = match &opening.fen {
        None => Position::<R>::start(),
        Some(fen) => parse_fen::<R>(fen).map_err(|e| BallotError::Illegal {
            label: opening.label.clone(),
            reason: e.to_string(),
        })?,
    };
    let mut game = Game::new(start);
    for m in &opening.moves {
        game.play_text(m).map_err(|e| BallotError::Illegal {
            label: opening.label.clone(),
            reason: format!("{m}: {e}"),
        })?;
    }
    Ok(game)
}

/// Where a match's openings come from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OpeningSet {
    English3Move,
    English2Move,
    /// This many random legal plies from the start, kept when balanced.
    Random(u32),
    /// Every game from the start position.
    StartOnly,
    /// Positions read from a file, in its order.
    Positions(Vec<Opening>),
}

impl OpeningSet {
    /// Read `english-3move`, `english-2move`, `random:N`, `none` or `fen:FILE`.
    pub fn parse(text: &str) -> Result<OpeningSet, BallotError> {
        if let Some(path) = text.strip_prefix("fen:") {
            return read_positions(path).map(OpeningSet::Positions);
        }
        match text {
            "english-3move" | "3move" => Ok(OpeningSet::English3Move),
            "english-2move" | "2move" => Ok(OpeningSet::English2Move),
            "none" | "start" => Ok(OpeningSet::StartOnly),
            _ => text
                .strip_prefix("random:")
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n <= 200)
                .map(OpeningSet::Random)
                .ok_or_else(|| BallotError::UnknownSet(text.to_string())),
        }
    }

    /// The default for a variant: the three-move deck for English, 8 random plies otherwise.
    pub fn default_for(variant: Variant) -> OpeningSet {
        if variant == Variant::English {
            OpeningSet::English3Move
        } else {
            OpeningSet::Random(8)
        }
    }

    /// `count` openings to play (cycling through the set when it is smaller), shuffled with
    /// `seed`; every one checked legal under `R`.
    pub fn openings<R: Rules>(
        &self,
        variant: Variant,
        count: usize,
        seed: u64,
    ) -> Result<Vec<Opening>, BallotError> {
        let mut rng = StdRng::seed_from_u64(seed);
        let pool = match self {
            OpeningSet::English3Move | OpeningSet::English2Move => {
                let (deck, text) = if *self == OpeningSet::English3Move {
                    ("english-3move", ENGLISH_3MOVE)
                } else {
                    ("english-2move", ENGLISH_2MOVE)
                };
                if variant != Variant::English {
                    return Err(BallotError::WrongVariant {
                        deck: deck.into(),
                        variant: variant.name().into(),
                    });
                }
                let mut pool: Vec<Opening> = parse_deck(text)?
                    .into_iter()
                    .filter(|o| !o.barred)
                    .collect();
                pool.shuffle(&mut rng);
                pool
            }
            OpeningSet::Random(plies) => random_openings::<R>(variant, *plies, count, seed)?,
            OpeningSet::Positions(list) => list.clone(),
            OpeningSet::StartOnly => vec![Opening {
                label: "start position".into(),
                fen: None,
                moves: Vec::new(),
                barred: false,
            }],
        };
        for o in &pool {
            play_opening::<R>(o)?;
        }
        if pool.is_empty() {
            return Ok(Vec::new());
        }
        let cycled = (0..count).map(|i| pool[i % pool.len()].clone()).collect();
        Ok(cycled)
    }
}

/// The largest positions file read, and the most positions in one.
const POSITIONS_FILE_BYTES: u64 = 1 << 20;
const POSITIONS_MAX: usize = 10_000;

/// A positions file: one position a line, a PDN FEN and after it, optionally, a label;
/// blank lines and lines starting with `#` are skipped. Each position is checked when the
/// match's openings are made.
fn read_positions(path: &str) -> Result<Vec<Opening>, BallotError> {
    let fail = |reason: String| BallotError::File {
        path: path.to_string(),
        reason,
    };
    let len = std::fs::metadata(path)
        .map_err(|e| fail(e.to_string()))?
        .len();
    if len > POSITIONS_FILE_BYTES {
        return Err(fail(format!(
            "{len} bytes, more than the {POSITIONS_FILE_BYTES} read"
        )));
    }
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    let mut list = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if list.len() == POSITIONS_MAX {
            return Err(fail(format!("more than {POSITIONS_MAX} positions")));
        }
        let (fen, label) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let label = label.trim();
        list.push(Opening {
            label: if label.is_empty() {
                fen.to_string()
            } else {
                label.to_string()
            },
            fen: Some(fen.to_string()),
            moves: Vec::new(),
            barred: false,
        });
    }
    if list.is_empty() {
        return Err(fail("no positions".into()));
    }
    Ok(list)
}

/// `count` openings of `plies` random legal plies each (fewer when a game ends first, then
/// retried), kept when a search to `BALANCE_DEPTH` scores them within `BALANCE_MARGIN` of 0.
pub fn random_openings<R: Rules>(
    variant: Variant,
    plies: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, BallotError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::new(4);
    // The balance check is a search; a book move would bypass it.
    engine.book = false;
    let mut found: Vec<Opening> = Vec::new();
    let tries = count.saturating_mul(50).max(100);
    for _ in 0..tries {
        if found.len() >= count {
            break;
        }
        let mut game = Game::new(Position::<R>::start());
        let mut moves = Vec::new();
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            let legal = game.position().legal_moves();
            let Some(m) = legal.choose(&mut rng) else {
                break;
            };
            moves.push(move_text::<R>(m));
            let _ = game.play(m);
        }
        if game.outcome().is_some() || found.iter().any(|o| o.moves == moves) {
            continue;
        }
        let control = Control::new(false);
        let limits = Limits::depth(BALANCE_DEPTH);
        let Ok(done) = engine.think(
            variant,
            Start::Initial,
            &moves,
            limits,
            &control,
            &mut |_| {},
        ) else {
            continue;
        };
        if done.score.abs() <= BALANCE_MARGIN {
            found.push(Opening {
                label: format!("random {}", moves.join(" ")),
                fen: None,
                moves,
                barred: false,
            });
        }
    }
    if found.len() < count {
        return Err(BallotError::TooFewBalanced {
            wanted: count,
            found: found.len(),
        });
    }
    Ok(found)
}
