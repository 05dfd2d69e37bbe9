//! The engine façade: variant chosen at run time, positions and moves as text in, moves
//! and progress as text out. The command line and the protocol talk only to this.

pub mod book;
pub mod limits;
mod score;
pub mod weights;

pub use score::{parse_score, score_text};

use std::any::Any;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use book::Book;

use crate::core::draw::DrawRules;
use crate::core::game::Game;
use crate::core::notation::{
    self, move_text, parse_board_string, parse_fen, parse_move, NotationError,
};
use crate::core::position::Position;
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::egdb::{self, Egdb, EgdbError};
use crate::search::eval::Score;
use crate::search::limits::Limits;
use crate::search::trained::{TrainedWeights, WeightsError};
use crate::search::tt::TranspositionTable;
use crate::search::{self, plies_to_end, Control, Info, Job};
use crate::with_rules;

/// Where a game starts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Start<'a> {
    Initial,
    /// A PDN FEN (`W:W31,32:BK1`).
    Fen(&'a str),
    /// A Hub board string (`W` + one character per square).
    Board(&'a str),
}

/// Why a request could not be served; the engine's state is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineError {
    BadPosition(NotationError),
    /// The move at this index (0-based) of the list is not legal there.
    BadMove {
        index: usize,
        text: String,
        reason: NotationError,
    },
    /// The side to move has no legal move: the game is over.
    NoLegalMove,
    /// A hash table of this many MB cannot be allocated.
    HashAllocation {
        megabytes: usize,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadPosition(e) => write!(f, "bad position: {e}"),
            EngineError::BadMove {
                index,
                text,
                reason,
            } => {
                write!(f, "move {} '{text}': {reason}", index + 1)
            }
            EngineError::NoLegalMove => write!(f, "no legal move: the game is over"),
            EngineError::HashAllocation { megabytes } => {
                write!(f, "cannot allocate {megabytes} MB for the hash table")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Search progress in text form.
#[derive(Clone, PartialEq, Debug)]
pub struct TextInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub mean_depth: f64,
    /// Which of the best lines this is (1: the best).
    pub multipv: usize,
    /// How many best lines the search reports (the engine's `multipv`): with more than one,
    /// every line says which it is, the best one too.
    pub lines: usize,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Positions the endgame tables answered (0 without tables).
    pub table_hits: u64,
    pub pv: Vec<String>,
}

impl TextInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }

    /// The protocol's `info` line: `key=value` tokens only. `multipv` and `seldepth`
    /// are extensions that key-value parsers skip.
    pub fn hub_line(&self) -> String {
        let mut s = format!(
            "info depth={} mean-depth={:.1} seldepth={} score={} nodes={} time={:.3} nps={:.2}",
            self.depth,
            self.mean_depth,
            self.seldepth,
            score_text(self.score),
            self.nodes,
            self.time.as_secs_f64(),
            self.nps() as f64 / 1e6,
        );
        if self.lines > 1 {
            s.push_str(&format!(" multipv={}", self.multipv));
        }
        if self.table_hits > 0 {
            s.push_str(&format!(" tbhits={}", self.table_hits));
        }
        s.push_str(&format!(" pv=\"{}\"", self.pv.join(" ")));
        s
    }
}

/// The result of a search, in text.
#[derive(Clone, PartialEq, Debug)]
pub struct Done {
    pub best: String,
    pub ponder: Option<String>,
    pub score: Score,
    /// Plies to the end when the search saw a forced result (positive: the mover wins).
    pub plies_to_end: Option<i32>,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<String>,
}

/// Search settings kept between searches.
pub struct Engine {
    /// Allocated when first needed (or by [`Engine::set_hash`]), so an idle engine is small.
    tt: OnceLock<TranspositionTable>,
    /// The variant whose positions the table holds (`Variant as usize + 1`; 0: none). The
    /// hash covers pieces and side to move only, so another rule set must not read them.
    tt_variant: AtomicUsize,
    hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    /// Draw counts replacing the variant's own (`None`: the variant's).
    pub draw: Option<DrawRules>,
    /// Play a book move when the book has the position (for play; analysis turns it off).
    pub book: bool,
    /// Book moves scoring within this many men of the best book move may be played: 0
    /// always plays the best, more gives variety.
    pub book_margin: f64,
    /// A book used instead of the shipped one for its variant.
    pub book_file: Option<Arc<Book>>,
    /// Trained weights used instead of the shipped ones for their variant (`eval-file`).
    pub eval_file: Option<(Variant, Arc<TrainedWeights>)>,
    /// Where the endgame tables are (`None`: [`egdb::default_dir`]).
    pub egdb_path: Option<PathBuf>,
    /// Probe the tables in positions of at most this many pieces (0: no tables).
    pub egdb_pieces: u32,
    /// The tables of the variant last searched, with their errors not yet reported.
    tables: Mutex<Option<Tables>>,
}

/// One variant's tables, typed away so the engine holds any variant's.
struct Tables {
    variant: Variant,
    root: PathBuf,
    pieces: u32,
    db: Arc<dyn Any + Send + Sync>,
    errors: Arc<dyn Fn() -> Vec<EgdbError> + Send + Sync>,
}

/// Default of [`Engine::book_margin`], in men. Narrow on purpose: the book's scores come from
/// the engine's own search, and in English matches from the start at 0.05 s a move against
/// book-off play it scored 39.5% with 0.10 (drifting into openings its evaluation only thinks
/// equal) and 45.5%, within the error bar, with 0.02.
pub const DEFAULT_BOOK_MARGIN: f64 = 0.02;

/// The largest hash size worth offering, in MB, where sizes up to `cap` are accepted: the
/// biggest table (a power of two of MB) that fits in the machine's memory, or `cap` where
/// the memory is not known. Bigger sizes are still accepted, and answered with
/// [`EngineError::HashAllocation`] when the memory cannot be had.
pub fn hash_mb_ceiling(cap: usize) -> usize {
    let cap = cap.max(1);
    match crate::search::tt::physical_memory_mb() {
        Some(mb) if mb > 0 => cap.min(1 << (usize::BITS - 1 - mb.leading_zeros())),
        _ => cap,
    }
}

/// The start position `start` names.
pub fn start_position<R: Rules>(start: Start<'_>) -> Result<Position<R>, EngineError> {
    Ok(match start {
        Start::Initial => Position::start(),
        Start::Fen(f) => parse_fen(f).map_err(EngineError::BadPosition)?,
        Start::Board(b) => parse_board_string(b).map_err(EngineError::BadPosition)?,
    })
}

/// Set up a start position and play `moves` (text, in the variant's notation) from it.
/// Moves after the rules have ended the game are still played (a GUI may go on after a
/// draw the engine would have claimed); only legality is checked.
pub fn line<R: Rules, S: AsRef<str>>(
    start: Start<'_>,
    moves: &[S],
    draw: DrawRules,
) -> Result<Game<R>, EngineError> {
    let mut game = Game::with_draw_rules(start_position::<R>(start)?, draw);
    for (index, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let bad = |reason| EngineError::BadMove {
            index,
            text: text.to_string(),
            reason,
        };
        let m = notation::parse_move(game.position(), text).map_err(bad)?;
        game.force(&m);
    }
    Ok(game)
}

impl Engine {
    /// An engine with a hash table of `hash_mb` MB, allocated when the first search needs
    /// it (smaller if that much cannot be had then; [`Engine::set_hash`] says so).
    pub fn new(hash_mb: usize) -> Self {
        Engine {
            tt: OnceLock::new(),
            tt_variant: AtomicUsize::new(0),
            hash_mb: hash_mb.max(1),
            threads: 1,
            multipv: 1,
            draw: None,
            book: true,
            book_margin: DEFAULT_BOOK_MARGIN,
            book_file: None,
            eval_file: None,
            egdb_path: None,
            egdb_pieces: 0,
            tables: Mutex::new(None),
        }
    }

    /// The endgame tables of `variant` as configured (opened once, files read on first use).
    fn tables_for<R: Rules>(&self, variant: Variant) -> Option<Arc<Egdb<R>>> {
        if self.egdb_pieces < 2 {
            return None;
        }
        let root = self.egdb_path.clone().unwrap_or_else(egdb::default_dir);
        let mut slot = self.tables.lock().unwrap();
        if let Some(t) = slot.as_ref() {
            if t.variant == variant && t.root == root && t.pieces == self.egdb_pieces {
                if let Ok(db) = Arc::clone(&t.db).downcast::<Egdb<R>>() {
                    return Some(db);
                }
            }
        }
        let db = Arc::new(Egdb::<R>::new(&root, variant, self.egdb_pieces));
        let handle = Arc::clone(&db);
        *slot = Some(Tables {
            variant,
            root,
            pieces: self.egdb_pieces,
            db: Arc::clone(&db) as Arc<dyn Any + Send + Sync>,
            errors: Arc::new(move || handle.take_errors()),
        });
        Some(db)
    }

    /// The endgame tables' value (`win`, `draw`, `loss` for the side to move) of the
    /// position reached from `start` by `moves`, when tables are on and hold it.
    pub fn table_result<S: AsRef<str>>(
        &self,
        variant: Variant,
        start: Start<'_>,
        moves: &[S],
    ) -> Option<&'static str> {
        let moves: Vec<&str> = moves.iter().map(AsRef::as_ref).collect();
        self.table_result_text(variant, start, &moves)
    }

    fn table_result_text(
        &self,
        variant: Variant,
        start: Start<'_>,
        moves: &[&str],
    ) -> Option<&'static str> {
        with_rules!(variant, R => {
            let game = line::<R, &str>(start, moves, self.draw.unwrap_or(R::DRAW)).ok()?;
            let db = self.tables_for::<R>(variant)?;
            db.probe(game.position()).map(|v| v.name())
        })
    }

    /// Table files that could not be read since the last call, each reported once (the
    /// search goes on without them).
    pub fn take_table_errors(&self) -> Vec<String> {
        let slot = self.tables.lock().unwrap();
        slot.as_ref()
            .map(|t| (t.errors)().iter().map(|e| e.to_string()).collect())
            .unwrap_or_default()
    }

    /// Allocate a hash table of `mb` MB now (its contents are lost), freeing the old table
    /// first so that the two never take memory together. Nothing happens when the table
    /// already has that size.
    ///
    /// When `mb` MB cannot be allocated, the engine goes on with a table of its previous
    /// size (or the largest below it that can be had; [`Engine::hash_mb`] tells) and the
    /// error says how much was asked for.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), EngineError> {
        let mb = mb.max(1);
        if mb == self.hash_mb && self.tt.get().is_some() {
            return Ok(());
        }
        let previous = self.hash_mb;
        self.tt = OnceLock::new();
        self.tt_variant.store(0, Ordering::Relaxed);
        let (table, result) = match TranspositionTable::try_new(mb) {
            Ok(t) => {
                self.hash_mb = mb;
                (Some(t), Ok(()))
            }
            Err(e) => {
                let wanted = previous.min(mb);
                let kept = TranspositionTable::with_fallback(wanted);
                // The size asked for before, when its table could be had again.
                self.hash_mb = match &kept {
                    Some(t) if Some(t.bytes()) == TranspositionTable::bytes_for(wanted) => wanted,
                    Some(t) => t.megabytes(),
                    None => 1,
                };
                let error = EngineError::HashAllocation {
                    megabytes: e.megabytes,
                };
                (kept, Err(error))
            }
        };
        if let Some(t) = table {
            let _ = self.tt.set(t);
        }
        result
    }

    /// The hash table's size in MB, as asked for (the table itself is the largest power of
    /// two of 64-byte buckets that fits).
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The size in MB of the hash table as allocated (a power of two of buckets within
    /// [`Engine::hash_mb`]); `None` before it is first needed.
    pub fn table_megabytes(&self) -> Option<usize> {
        self.tt.get().map(TranspositionTable::megabytes)
    }

    /// The hash table, allocated on first use.
    fn table(&self) -> &TranspositionTable {
        self.tt
            .get_or_init(|| TranspositionTable::new(self.hash_mb))
    }

    /// Forget what earlier searches learnt (a new game; a reproducible benchmark).
    pub fn clear(&self) {
        if let Some(t) = self.tt.get() {
            t.clear();
        }
    }

    /// The trained weights this engine evaluates `variant` with, if any.
    pub fn weights_for(&self, variant: Variant) -> Option<&TrainedWeights> {
        match &self.eval_file {
            Some((v, w)) if *v == variant => Some(w),
            _ => weights::shipped(variant),
        }
    }

    /// Read weights for `variant` from `path` and evaluate with them from now on.
    pub fn load_eval_file(
        &mut self,
        variant: Variant,
        path: &std::path::Path,
    ) -> Result<(), WeightsError> {
        let bytes = std::fs::read(path)
            .map_err(|e| WeightsError::Io(format!("{}: {e}", path.display())))?;
        let w = with_rules!(variant, R => TrainedWeights::from_bytes::<R>(&bytes, &variant.key()))?;
        self.eval_file = Some((variant, Arc::new(w)));
        self.tt_variant.store(0, Ordering::Relaxed);
        Ok(())
    }

    /// The book this engine plays from in `variant`, if any (loaded on first use).
    pub fn book_for(&self, variant: Variant) -> Option<&Book> {
        match &self.book_file {
            Some(b) if b.variant() == variant => Some(b),
            _ => book::shipped(variant),
        }
    }

    /// Search the position reached from `start` by `moves`, reporting progress to `on_info`.
    /// With [`Engine::book`] on and the position in the book, a book move is played at once
    /// instead (reported as a depth-0 `info`); otherwise the search runs.
    pub fn think<S: AsRef<str>>(
        &self,
        variant: Variant,
        start: Start<'_>,
        moves: &[S],
        limits: Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&TextInfo),
    ) -> Result<Done, EngineError> {
        let moves: Vec<&str> = moves.iter().map(AsRef::as_ref).collect();
        self.think_text(variant, start, &moves, limits, control, on_info)
    }

    /// [`Engine::think`] for one type of move list: generic callers stay small, and the
    /// search is compiled once, here, for each variant, not again in every crate that calls
    /// it with its own kind of strings.
    fn think_text(
        &self,
        variant: Variant,
        start: Start<'_>,
        moves: &[&str],
        limits: Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&TextInfo),
    ) -> Result<Done, EngineError> {
        with_rules!(variant, R => self.think_in::<R>(variant, start, moves, limits, control, on_info))
    }

    fn think_in<R: Rules>(
        &self,
        variant: Variant,
        start: Start<'_>,
        moves: &[&str],
        limits: Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&TextInfo),
    ) -> Result<Done, EngineError> {
        let game = line::<R, &str>(start, moves, self.draw.unwrap_or(R::DRAW))?;
        if self.book {
            if let Some(done) = self.book_move(variant, game.position(), &limits, control, on_info)
            {
                return Ok(done);
            }
        }
        let tables = self.tables_for::<R>(variant);
        let job = Job {
            egdb: tables.as_deref(),
            eval: self.weights_for(variant),
            root: *game.position(),
            history: game.reversible_history(),
            counters: game.counters(),
            draw: game.draw_rules(),
            limits,
            threads: self.threads,
            multipv: self.multipv,
        };
        let mut report = |i: &Info<'_, _>| {
            on_info(&TextInfo {
                depth: i.depth,
                seldepth: i.seldepth,
                mean_depth: i.mean_depth,
                multipv: i.multipv,
                lines: self.multipv,
                score: i.score,
                nodes: i.nodes,
                time: i.time,
                hashfull: i.hashfull,
                table_hits: i.table_hits,
                pv: i.pv.iter().map(move_text::<R>).collect(),
            })
        };
        if self
            .tt_variant
            .swap(variant as usize + 1, Ordering::Relaxed)
            != variant as usize + 1
        {
            self.table().clear();
        }
        let out = search::search(&job, self.table(), control, &mut report);
        let best = out.best.ok_or(EngineError::NoLegalMove)?;
        Ok(Done {
            best: move_text::<R>(&best),
            ponder: out.ponder.map(|m| move_text::<R>(&m)),
            score: out.score,
            plies_to_end: plies_to_end(out.score),
            depth: out.depth,
            nodes: out.nodes,
            time: out.time,
            pv: out.pv.iter().map(move_text::<R>).collect(),
        })
    }
}

impl Engine {
    /// A move from the book for `pos`, drawn among those within the margin; `None` off the
    /// book. Like a search, it waits for a ponder hit or a stop when pondering or infinite.
    fn book_move<R: Rules>(
        &self,
        variant: Variant,
        pos: &Position<R>,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&TextInfo),
    ) -> Option<Done> {
        let book = self.book_for(variant)?;
        let entry = book.lookup(pos)?;
        let margin = (self.book_margin.clamp(0.0, 100.0) * 100.0).round() as Score;
        let chosen = book::choose(&entry.moves, margin, &mut rand::thread_rng())?;
        let m = parse_move(pos, &chosen.text).ok()?;
        let after = pos.after(&m);
        // The expected reply: the best book move of the position after ours.
        let ponder = book
            .lookup(&after)
            .and_then(|e| e.moves.first())
            .and_then(|b| parse_move(&after, &b.text).ok())
            .map(|r| move_text::<R>(&r));
        let mut pv = vec![move_text::<R>(&m)];
        pv.extend(ponder.clone());
        on_info(&TextInfo {
            depth: 0,
            seldepth: 0,
            mean_depth: 0.0,
            multipv: 1,
            lines: 1,
            score: chosen.score,
            nodes: 0,
            time: control.elapsed(),
            hashfull: 0,
            table_hits: 0,
            pv: pv.clone(),
        });
        while (limits.infinite || control.pondering()) && !control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        Some(Done {
            best: pv[0].clone(),
            ponder,
            score: chosen.score,
            plies_to_end: plies_to_end(chosen.score),
            depth: 0,
            nodes: 0,
            time: control.elapsed(),
            pv,
        })
    }
}

/// Check a start and moves in `variant`; returns the number of legal moves at the end.
pub fn legal_move_count<S: AsRef<str>>(
    variant: Variant,
    start: Start<'_>,
    moves: &[S],
) -> Result<usize, EngineError> {
    let moves: Vec<&str> = moves.iter().map(AsRef::as_ref).collect();
    legal_move_count_text(variant, start, &moves)
}

fn legal_move_count_text(
    variant: Variant,
    start: Start<'_>,
    moves: &[&str],
) -> Result<usize, EngineError> {
    with_rules!(variant, R => line::<R, &str>(start, moves, R::DRAW).map(|g| g.position().legal_moves().len()))
}
