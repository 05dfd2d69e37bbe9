//! Building a book by drop-out expansion: from the start, search every position with all its
//! moves scored (multi-PV) and keep the moves within a margin of the best as book moves.
//! A line drops out when the score its moves gave away, added up along it, exceeds the
//! drop-out budget: so the book goes wide near the start and along the best lines, and
//! stops on lines that are already worse. Expansion goes ply after ply, down to a fixed
//! number of plies; a position reached by several move orders is searched once. Each search starts from an empty hash table on
//! one thread, so a book is the same whatever the number of workers and the order they run.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::core::notation::{parse_move, write_fen};
use crate::core::position::Position;
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::engine::book::{Book, BookMove};
use crate::engine::{Engine, EngineError, Start};
use crate::search::eval::Score;
use crate::search::limits::Limits;
use crate::search::{is_decided, Control};
use crate::with_rules;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildSettings {
    pub variant: Variant,
    /// Book moves go this many plies deep from the start.
    pub plies: u32,
    /// The search of each position: a depth or a node count.
    pub limits: Limits,
    /// Positions searched at once, each by its own engine.
    pub workers: usize,
    /// Moves scoring within this much of the best (hundredths of a man) are book moves.
    pub margin: Score,
    /// A line is expanded while the score given away by its moves, added up, is at most this.
    pub drop_out: Score,
    /// Hash table of each worker, in MB.
    pub hash_mb: usize,
}

/// How far a build has got, for a progress bar.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Progress {
    /// The ply being expanded (0: the start position).
    pub ply: u32,
    pub plies: u32,
    /// Positions searched by this run.
    pub searched: usize,
    /// Positions taken from the book being resumed.
    pub reused: usize,
    /// Positions still to search at this ply.
    pub left_in_ply: usize,
    /// Searches this run is expected to make in all, from the growth seen so far.
    pub expected_searches: usize,
}

/// Why a build could not run.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BuildError {
    /// The side to move has no move at the start: nothing to put in a book.
    NoMoveAtStart(Variant),
    /// The book to resume is for another variant.
    OtherVariant {
        book: Variant,
        asked: Variant,
    },
    /// The book to resume was built with other settings; its positions would not match.
    OtherSettings {
        tag: String,
        book: String,
        asked: String,
    },
    Search(EngineError),
    /// Saving a checkpoint failed.
    Save(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoMoveAtStart(v) => {
                write!(f, "{v}: the side to move has no move at the start; no book")
            }
            BuildError::OtherVariant { book, asked } => {
                write!(f, "the book to resume is for {book}, not {asked}")
            }
            BuildError::OtherSettings { tag, book, asked } => write!(
                f,
                "the book to resume was built with {tag} {book}, not {asked}; use the same settings or another --out"
            ),
            BuildError::Search(e) => write!(f, "search failed: {e}"),
            BuildError::Save(e) => write!(f, "cannot save the book: {e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Tags that only choose which positions get searched: a resumed build may change them.
const FREE_TAGS: [&str; 2] = ["Plies", "DropOut"];

/// The tags a build writes, which a resumed book must match but for [`FREE_TAGS`] (a
/// resumed build can go deeper or wider, and the positions it shares are the same).
fn settings_tags(s: &BuildSettings) -> Vec<(String, String)> {
    let mut tags = vec![("Plies".to_string(), s.plies.to_string())];
    if let Some(d) = s.limits.depth {
        tags.push(("Depth".into(), d.to_string()));
    }
    if let Some(n) = s.limits.nodes {
        tags.push(("Nodes".into(), n.to_string()));
    }
    tags.push(("Margin".into(), format!("{:.2}", s.margin as f64 / 100.0)));
    tags.push((
        "DropOut".into(),
        format!("{:.2}", s.drop_out as f64 / 100.0),
    ));
    tags
}

/// Build a book, reusing the positions of `resume` (a book built before with the same
/// settings). `progress` hears of every search; `checkpoint` gets the book so far about
/// every `every`, so an interrupted build loses little.
pub fn build(
    settings: &BuildSettings,
    resume: Option<Book>,
    every: Duration,
    progress: &mut dyn FnMut(&Progress),
    checkpoint: &mut dyn FnMut(&Book) -> Result<(), String>,
) -> Result<Book, BuildError> {
    let tags = settings_tags(settings);
    let old = match resume {
        // An empty book (the placeholder of a variant not built yet) has nothing to keep.
        Some(b) if b.is_empty() => None,
        Some(b) => {
            if b.variant() != settings.variant {
                return Err(BuildError::OtherVariant {
                    book: b.variant(),
                    asked: settings.variant,
                });
            }
            for (name, value) in tags
                .iter()
                .filter(|(n, _)| !FREE_TAGS.contains(&n.as_str()))
            {
                let had = b.tag(name).unwrap_or("none");
                if had != value {
                    return Err(BuildError::OtherSettings {
                        tag: name.clone(),
                        book: had.to_string(),
                        asked: value.clone(),
                    });
                }
            }
            for name in ["Depth", "Nodes"] {
                if b.tag(name).is_some() && !tags.iter().any(|(n, _)| n == name) {
                    return Err(BuildError::OtherSettings {
                        tag: name.to_string(),
                        book: b.tag(name).unwrap_or_default().to_string(),
                        asked: "none".into(),
                    });
                }
            }
            Some(b)
        }
        None => None,
    };
    with_rules!(settings.variant, R => build_in::<R>(settings, tags, old, every, progress, checkpoint))
}

fn build_in<R: Rules>(
    settings: &BuildSettings,
    tags: Vec<(String, String)>,
    old: Option<Book>,
    every: Duration,
    progress: &mut dyn FnMut(&Progress),
    checkpoint: &mut dyn FnMut(&Book) -> Result<(), String>,
) -> Result<Book, BuildError> {
    let start = Position::<R>::start();
    if start.legal_moves().is_empty() {
        return Err(BuildError::NoMoveAtStart(settings.variant));
    }
    let mut book = Book::new(settings.variant, tags);
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(start.hash());
    // Each position of the ply with the least score given away on a line reaching it.
    let mut frontier: Vec<(Position<R>, Score)> = vec![(start, 0)];
    let mut searched = 0usize;
    let mut reused = 0usize;
    let mut last_save = Instant::now();
    // Growth of the number of searches from one ply to the next, for the estimate.
    let mut growth = 4.0f64;
    for ply in 0..settings.plies {
        // Positions already in the resumed book are taken as they are.
        let mut todo: Vec<Position<R>> = Vec::new();
        let mut kept = Vec::new();
        for (pos, _) in &frontier {
            match old.as_ref().and_then(|b| b.lookup(pos)) {
                Some(e) => kept.push((*pos, e.moves.clone())),
                None => todo.push(*pos),
            }
        }
        reused += kept.len();
        book.extend(kept);
        let left_plies = (settings.plies - ply - 1) as i32;
        let future: f64 = (1..=left_plies).map(|k| growth.powi(k)).sum();
        let todo_len = todo.len();
        let expected_searches = searched + todo_len + (todo_len as f64 * future) as usize;
        progress(&Progress {
            ply,
            plies: settings.plies,
            searched,
            reused,
            left_in_ply: todo_len,
            expected_searches,
        });
        let mut done_here = 0usize;
        let mut fresh = Vec::new();
        search_all::<R>(settings, &todo, &mut |pos, moves| {
            searched += 1;
            done_here += 1;
            fresh.push((pos, moves?));
            progress(&Progress {
                ply,
                plies: settings.plies,
                searched,
                reused,
                left_in_ply: todo_len - done_here,
                expected_searches,
            });
            if last_save.elapsed() >= every {
                book.extend(std::mem::take(&mut fresh));
                checkpoint(&book).map_err(BuildError::Save)?;
                last_save = Instant::now();
            }
            Ok(())
        })?;
        book.extend(fresh);
        if ply + 1 == settings.plies {
            break;
        }
        let mut next: HashMap<u64, (Position<R>, Score)> = HashMap::new();
        for (pos, lost) in &frontier {
            let Some(entry) = book.lookup(pos) else {
                continue;
            };
            let best = entry.moves.iter().map(|m| m.score).max().unwrap_or(0);
            for m in &entry.moves {
                let Ok(mv) = parse_move(pos, &m.text) else {
                    continue;
                };
                let lost = lost + (best - m.score).max(0);
                if lost > settings.drop_out {
                    continue;
                }
                let child = pos.after(&mv);
                if child.legal_moves().is_empty() || seen.contains(&child.hash()) {
                    continue;
                }
                let slot = next.entry(child.hash()).or_insert((child, lost));
                slot.1 = slot.1.min(lost);
            }
        }
        seen.extend(next.keys().copied());
        if !frontier.is_empty() {
            growth = (next.len() as f64 / frontier.len() as f64).max(1.0);
        }
        // The same order every run, whatever the order the searches finished in.
        let mut next: Vec<(Position<R>, Score)> = next.into_values().collect();
        next.sort_by_cached_key(|(p, _)| write_fen(p));
        frontier = next;
    }
    checkpoint(&book).map_err(BuildError::Save)?;
    Ok(book)
}

/// What [`search_all`] calls with each position and its scored moves; an error stops the work.
type OnSearched<'a, R> =
    dyn FnMut(Position<R>, Result<Vec<BookMove>, BuildError>) -> Result<(), BuildError> + 'a;

/// Search `positions` on `settings.workers` rayon threads, each with its own engine, and
/// hand each result to `done` on the calling thread as it comes.
fn search_all<R: Rules>(
    settings: &BuildSettings,
    positions: &[Position<R>],
    done: &mut OnSearched<'_, R>,
) -> Result<(), BuildError> {
    if positions.is_empty() {
        return Ok(());
    }
    let workers = settings.workers.clamp(1, positions.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .stack_size(32 << 20)
        .build()
        .map_err(|e| BuildError::Save(format!("cannot start the workers: {e}")))?;
    let next = AtomicUsize::new(0);
    let quit = std::sync::atomic::AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut outcome = Ok(());
    pool.in_place_scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, quit) = (&next, &quit);
            s.spawn(move |_| {
                let mut engine = Engine::new(settings.hash_mb);
                engine.book = false;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= positions.len() || quit.load(Ordering::Relaxed) {
                        break;
                    }
                    let result = score_moves::<R>(&mut engine, settings, &positions[i]);
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, result) in rx.iter() {
            if let Err(e) = done(positions[i], result) {
                quit.store(true, Ordering::Relaxed);
                outcome = Err(e);
                break;
            }
        }
    });
    outcome
}

/// Search `pos` with every move scored; the moves within the margin of the best, weighted
/// from 100 (the best) down to 50 (at the margin).
pub fn score_moves<R: Rules>(
    engine: &mut Engine,
    settings: &BuildSettings,
    pos: &Position<R>,
) -> Result<Vec<BookMove>, BuildError> {
    let legal = pos.legal_moves().len();
    engine.multipv = legal.max(1);
    engine.threads = 1;
    engine.clear();
    let fen = write_fen(pos);
    let mut lines: Vec<(String, Score)> = Vec::new();
    let mut depth = 0;
    let no_moves: [&str; 0] = [];
    engine
        .think(
            settings.variant,
            Start::Fen(&fen),
            &no_moves,
            settings.limits,
            &Control::new(false),
            &mut |info| {
                if info.depth != depth {
                    depth = info.depth;
                    lines.clear();
                }
                if let Some(first) = info.pv.first() {
                    lines.push((first.clone(), info.score));
                }
            },
        )
        .map_err(BuildError::Search)?;
    let best = lines.iter().map(|(_, s)| *s).max().unwrap_or(0);
    let margin = settings.margin.max(0);
    let moves: Vec<BookMove> = lines
        .into_iter()
        .filter(|(_, s)| *s >= best - margin)
        .map(|(text, score)| {
            let gap = (best - score) as i64;
            let weight = if margin == 0 || is_decided(best) {
                100
            } else {
                (100 - 50 * gap / margin as i64).clamp(1, 100) as u32
            };
            BookMove {
                text,
                score,
                weight,
            }
        })
        .collect();
    Ok(moves)
}
