//! Opening books: a diff-friendly text format, lookup with weighted choice, and building by search.
//!
//! A book file (`book/README.md` has the details) is a few PDN-style tags, then one line per
//! position: its PDN FEN, then for each book move its text, its score in men from the search
//! and its weight. Lines are sorted by FEN and moves by score, so a rebuild diffs cleanly.
//! Lookup goes by the position's Zobrist hash and is checked against the stored FEN.

use std::collections::HashMap;
use std::fmt;

use once_cell::sync::OnceCell;
use rand::Rng;

use crate::core::notation::{move_text, parse_fen, parse_move, write_fen, NotationError};
use crate::core::position::Position;
use crate::core::rules::Rules;
use crate::core::variant::Variant;
pub use crate::engine::score::parse_score;
use crate::engine::score::score_text;
use crate::search::eval::Score;
use crate::with_rules;

/// The first line of every book Damas writes.
const BANNER: &str =
    "# Damas opening book. Each line: FEN, then move score weight, repeated. See book/README.md.";

/// One book move: its text in the variant's notation, its search score and its weight.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookMove {
    /// Full form (`11-15`, `23x14x18`), as [`move_text`] writes it.
    pub text: String,
    /// From the side to move, in hundredths of a man, as the search scores it.
    pub score: Score,
    /// Relative chance of being played among the moves within the margin; 0 never plays it.
    pub weight: u32,
}

/// A position of the book and its moves, best first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The FEN as Damas writes it (canonical, so it identifies the position).
    pub fen: String,
    pub moves: Vec<BookMove>,
}

/// Why a book text or file was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BookError {
    /// No `[Variant "…"]` tag before the first position.
    NoVariant,
    UnknownVariant(String),
    /// A line that is neither a comment, a tag nor a position; `line` counts from 1.
    BadLine {
        line: usize,
        reason: String,
    },
    BadPosition {
        line: usize,
        reason: NotationError,
    },
    IllegalMove {
        line: usize,
        text: String,
        reason: NotationError,
    },
    /// The same position on two lines.
    Duplicate {
        line: usize,
        first: usize,
    },
    /// A book file could not be read or written.
    Io {
        path: String,
        reason: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NoVariant => {
                write!(f, "book has no [Variant \"…\"] tag before its positions")
            }
            BookError::UnknownVariant(v) => write!(f, "book is for unknown variant '{v}'"),
            BookError::BadLine { line, reason } => write!(f, "book line {line}: {reason}"),
            BookError::BadPosition { line, reason } => {
                write!(f, "book line {line}: bad position: {reason}")
            }
            BookError::IllegalMove { line, text, reason } => {
                write!(f, "book line {line}: move '{text}': {reason}")
            }
            BookError::Duplicate { line, first } => {
                write!(f, "book line {line}: same position as line {first}")
            }
            BookError::Io { path, reason } => write!(f, "{path}: {reason}"),
        }
    }
}

impl std::error::Error for BookError {}

/// An opening book for one variant, indexed by position hash.
#[derive(Clone, Debug)]
pub struct Book {
    variant: Variant,
    /// Tags other than the variant (how the book was built), in file order.
    tags: Vec<(String, String)>,
    /// Sorted by FEN.
    entries: Vec<Entry>,
    /// Zobrist hash of each entry's position → index in `entries`.
    index: HashMap<u64, usize>,
}

impl Book {
    /// An empty book with these tags.
    pub fn new(variant: Variant, tags: Vec<(String, String)>) -> Book {
        Book {
            variant,
            tags,
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The variant whose rules every position and move of the book was checked against.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The tags other than `Variant`, in order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a tag other than `Variant`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Set a tag, replacing its value or appending it.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Positions, sorted by FEN.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position (a variant not built yet).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Read a book. Every position and move is checked against the variant's rules, so a
    /// loaded book only ever offers legal moves.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut variant = None;
        let mut tags = Vec::new();
        let mut positions: Vec<(usize, &str)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let number = i + 1;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with('[') {
                if !positions.is_empty() {
                    return Err(BookError::BadLine {
                        line: number,
                        reason: "tags must come before the positions".into(),
                    });
                }
                let (name, value) = parse_tag(line).ok_or_else(|| BookError::BadLine {
                    line: number,
                    reason: "expected a tag like [Variant \"english\"]".into(),
                })?;
                if name == "Variant" {
                    variant = Some(
                        Variant::from_name(value)
                            .map_err(|_| BookError::UnknownVariant(value.to_string()))?,
                    );
                } else {
                    tags.push((name.to_string(), value.to_string()));
                }
                continue;
            }
            positions.push((number, line));
        }
        let variant = variant.ok_or(BookError::NoVariant)?;
        let mut book = Book::new(variant, tags);
        let mut lines_of: HashMap<String, usize> = HashMap::new();
        for (number, line) in positions {
            let entry = with_rules!(variant, R => parse_entry::<R>(number, line))?;
            if let Some(&first) = lines_of.get(&entry.fen) {
                return Err(BookError::Duplicate {
                    line: number,
                    first,
                });
            }
            lines_of.insert(entry.fen.clone(), number);
            book.entries.push(entry);
        }
        book.reindex();
        Ok(book)
    }

    /// Read a book file.
    pub fn load(path: &std::path::Path) -> Result<Book, BookError> {
        let text = std::fs::read_to_string(path).map_err(|e| BookError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Book::parse(&text)
    }

    /// The book as text: banner, tags, then positions sorted by FEN. Writing what
    /// [`Book::parse`] read from a file Damas wrote gives the same text back.
    pub fn write(&self) -> String {
        let mut out = String::new();
        out.push_str(BANNER);
        out.push('\n');
        out.push_str(&format!("[Variant \"{}\"]\n", self.variant.name()));
        for (name, value) in &self.tags {
            out.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        for e in &self.entries {
            out.push_str(&e.fen);
            for m in &e.moves {
                out.push_str(&format!(" {} {} {}", m.text, score_text(m.score), m.weight));
            }
            out.push('\n');
        }
        out
    }

    /// Add or replace the entry of `pos`, keeping the entries sorted.
    pub fn insert<R: Rules>(&mut self, pos: &Position<R>, mut moves: Vec<BookMove>) {
        sort_moves(&mut moves);
        let fen = write_fen(pos);
        match self.entries.binary_search_by(|e| e.fen.as_str().cmp(&fen)) {
            Ok(i) => self.entries[i].moves = moves,
            Err(i) => {
                self.entries.insert(i, Entry { fen, moves });
                self.reindex();
            }
        }
    }

    /// Add many entries at once (one re-index), replacing those already there.
    pub fn extend<R: Rules>(&mut self, items: Vec<(Position<R>, Vec<BookMove>)>) {
        for (pos, mut moves) in items {
            sort_moves(&mut moves);
            let fen = write_fen(&pos);
            match self.index.get(&pos.hash()) {
                Some(&i) if self.entries[i].fen == fen => self.entries[i].moves = moves,
                _ => self.entries.push(Entry { fen, moves }),
            }
        }
        self.entries.sort_by(|a, b| a.fen.cmp(&b.fen));
        self.reindex();
    }

    fn reindex(&mut self) {
        self.index.clear();
        // The FENs were parsed when the entries were made; parsing again cannot fail.
        let variant = self.variant;
        for (i, e) in self.entries.iter().enumerate() {
            let hash = with_rules!(variant, R => parse_fen::<R>(&e.fen).map(|p| p.hash()));
            if let Ok(h) = hash {
                self.index.insert(h, i);
            }
        }
    }

    /// The entry of `pos`, if the book has it. The hash finds it, the FEN confirms it.
    pub fn lookup<R: Rules>(&self, pos: &Position<R>) -> Option<&Entry> {
        let e = &self.entries[*self.index.get(&pos.hash())?];
        (e.fen == write_fen(pos)).then_some(e)
    }
}

/// Best score first; equal scores by move text, so the order is stable.
fn sort_moves(moves: &mut [BookMove]) {
    moves.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.text.cmp(&b.text)));
}

/// `[Name "value"]` → (`Name`, `value`).
fn parse_tag(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    (plain(name) && !value.contains('"')).then_some((name, value))
}

fn parse_entry<R: Rules>(line: usize, text: &str) -> Result<Entry, BookError> {
    let mut tokens = text.split_whitespace();
    let fen_text = tokens.next().unwrap_or_default();
    let pos = parse_fen::<R>(fen_text).map_err(|reason| BookError::BadPosition { line, reason })?;
    let rest: Vec<&str> = tokens.collect();
    if rest.is_empty() || !rest.len().is_multiple_of(3) {
        return Err(BookError::BadLine {
            line,
            reason: "expected the FEN, then one or more 'move score weight' triples".into(),
        });
    }
    let mut moves = Vec::with_capacity(rest.len() / 3);
    // Full-form texts match a legal move's text; other forms go through the parser.
    let legal: Vec<String> = pos.legal_moves().iter().map(move_text::<R>).collect();
    for triple in rest.chunks(3) {
        let text = if legal.iter().any(|t| t == triple[0]) {
            triple[0].to_string()
        } else {
            let m = parse_move(&pos, triple[0]).map_err(|reason| BookError::IllegalMove {
                line,
                text: triple[0].to_string(),
                reason,
            })?;
            move_text::<R>(&m)
        };
        let score = parse_score(triple[1]).ok_or_else(|| BookError::BadLine {
            line,
            reason: format!("bad score '{}' (expected men, like +0.25)", triple[1]),
        })?;
        let weight = triple[2].parse::<u32>().map_err(|_| BookError::BadLine {
            line,
            reason: format!("bad weight '{}' (expected a whole number)", triple[2]),
        })?;
        if moves.iter().any(|b: &BookMove| b.text == text) {
            return Err(BookError::BadLine {
                line,
                reason: format!("move '{text}' listed twice"),
            });
        }
        moves.push(BookMove {
            text,
            score,
            weight,
        });
    }
    sort_moves(&mut moves);
    Ok(Entry {
        fen: write_fen(&pos),
        moves,
    })
}

/// The move to play from `moves`: among those with a positive weight scoring within
/// `margin` of the best of them, one drawn with probability proportional to its weight.
pub fn choose<'a, G: Rng + ?Sized>(
    moves: &'a [BookMove],
    margin: Score,
    rng: &mut G,
) -> Option<&'a BookMove> {
    let playable = || moves.iter().filter(|m| m.weight > 0);
    let best = playable().map(|m| m.score).max()?;
    let floor = best.saturating_sub(margin.max(0));
    let candidates: Vec<&BookMove> = playable().filter(|m| m.score >= floor).collect();
    let total: u64 = candidates.iter().map(|m| u64::from(m.weight)).sum();
    let mut pick = rng.gen_range(0..total);
    for m in &candidates {
        if pick < u64::from(m.weight) {
            return Some(m);
        }
        pick -= u64::from(m.weight);
    }
    candidates.last().copied()
}

/// Generates [`SHIPPED`] from the variant registry: `book/<canonical name>.book`.
macro_rules! shipped_books {
    (
        ()
        variants { $($id:ident = $rules:ty: $canonical:literal $($alias:literal)*;)* }
        options { $($options:tt)* }
    ) => {
        /// The books built into the binary, so they work from any directory and a fresh clone.
        const SHIPPED: &[(Variant, &str)] = &[
            $((Variant::$id, include_str!(concat!("../../book/", $canonical, ".book"))),)*
        ];
    };
}

crate::for_each_variant!(shipped_books);

/// The text of the book shipped for `variant`, if there is one.
pub fn shipped_text(variant: Variant) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(v, _)| *v == variant)
        .map(|(_, text)| *text)
}

/// The variants a book ships for.
pub fn shipped_variants() -> impl Iterator<Item = Variant> {
    SHIPPED.iter().map(|(v, _)| *v)
}

static LOADED: [OnceCell<Option<Book>>; SHIPPED.len()] = [const { OnceCell::new() }; SHIPPED.len()];

/// The book shipped for `variant`, parsed on first use and kept. `None` when the variant
/// has none (a variant option that changes the rules, One-way) or it is empty.
pub fn shipped(variant: Variant) -> Option<&'static Book> {
    let i = SHIPPED.iter().position(|(v, _)| *v == variant)?;
    LOADED[i]
        .get_or_init(|| {
            Book::parse(SHIPPED[i].1)
                .ok()
                .filter(|b| !b.is_empty() && b.variant == variant)
        })
        .as_ref()
}
