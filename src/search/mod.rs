//! The search: iterative deepening over a principal-variation alpha-beta search with
//! aspiration windows, a shared transposition table, killer and history move ordering,
//! a capture quiescence search, late-move reductions and Lazy SMP threads.
//!
//! The search never parses or prints: it reads a position and limits, and reports
//! through [`Report`]. Scores are from the side to move, in hundredths of a man; a decided
//! game scores `MATE - plies to the end`.

pub mod eval;
pub mod limits;
pub mod ordering;
pub mod params;
pub mod trained;
pub mod tt;

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::core::bitboard::Word;
use crate::core::draw::{DrawCounters, DrawRules, Lone};
use crate::core::movegen::Convention;
use crate::core::mv::Move;
use crate::core::patterns::IndexedPosition;
use crate::core::position::{MoveOf, Position, WordOf};
use crate::core::rules::Rules;
use crate::egdb::{Egdb, Material, Value};
use crate::search::eval::{evaluate, Score};
use crate::search::limits::{Budget, Limits};
use crate::search::ordering::{pick, MoveOrdering};
use crate::search::params::*;
use crate::search::trained::TrainedWeights;
use crate::search::tt::{Bound, TranspositionTable};

/// The score of a side that wins now; a win in `n` plies scores `MATE - n`.
pub const MATE: Score = 30_000;
/// Deepest ply the search reaches, extensions included.
pub const MAX_PLY: usize = 128;
const WIN_BOUND: Score = MATE - 2 * MAX_PLY as Score;
const INFINITY: Score = MATE + 1;
const DRAW: Score = 0;
/// The best score of a win the endgame tables report: beyond any evaluation, below every
/// forced win the search sees itself (see `Worker::probe_tables`).
pub const TABLE_WIN: Score = WIN_BOUND - MAX_PLY as Score;
/// Pieces and men counted apart in table scores.
const TABLE_PIECES: Score = 8;
const TABLE_PIECE_STEP: Score = 256 * (TABLE_PIECES + 1);
/// The lowest table win: TABLE_WIN less the most work a table win can have left.
const TABLE_LOWEST: Score =
    TABLE_WIN - TABLE_PIECES * TABLE_PIECE_STEP - TABLE_PIECES * 256 - 256 - MAX_PLY as Score;

/// Whether a score is a win or loss the endgame tables reported.
pub fn is_table_result(score: Score) -> bool {
    !is_decided(score) && score.abs() >= TABLE_LOWEST
}

/// Whether a score says the game is decided (a forced win or loss).
pub fn is_decided(score: Score) -> bool {
    score.abs() >= WIN_BOUND
}

/// Plies to the end of a decided game (positive: the side to move wins).
pub fn plies_to_end(score: Score) -> Option<i32> {
    if !is_decided(score) {
        None
    } else if score > 0 {
        Some(MATE - score)
    } else {
        Some(-(MATE + score))
    }
}

/// Shared between the caller and every search thread: stop flag, ponder state, node count.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    origin: Instant,
    /// Milliseconds after `origin` from which the move's clock runs (moved by a ponder hit).
    clock_start_ms: AtomicU64,
    nodes: AtomicU64,
    /// Positions the endgame tables answered, by all threads.
    table_hits: AtomicU64,
}

impl Default for Control {
    fn default() -> Self {
        Control::new(false)
    }
}

impl Control {
    /// A fresh control; `pondering` searches without a clock until [`Control::ponder_hit`].
    pub fn new(pondering: bool) -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            origin: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
            table_hits: AtomicU64::new(0),
        }
    }
    /// Ask every search thread to stop; takes effect within about a thousand nodes.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: the clock starts now.
    pub fn ponder_hit(&self) {
        let now = self.origin.elapsed().as_millis() as u64;
        self.clock_start_ms.store(now, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }
    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.origin.elapsed()
    }
    /// Time charged to the clock (since the start, or since the ponder hit).
    fn clock_elapsed(&self) -> Duration {
        let start = Duration::from_millis(self.clock_start_ms.load(Ordering::Relaxed));
        self.origin.elapsed().saturating_sub(start)
    }
    /// Nodes searched so far, by all threads.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    /// Positions the endgame tables answered so far, by all threads.
    pub fn table_hits(&self) -> u64 {
        self.table_hits.load(Ordering::Relaxed)
    }
}

/// The deepest iteration any thread has completed, with its result. Lazy SMP threads
/// leapfrog: a thread overtaken mid-iteration takes the finished result and goes deeper, so
/// the first thread to finish a depth finishes it for all.
struct Progress<W: Word> {
    depth: AtomicU32,
    result: Mutex<Option<Completed<W>>>,
}

#[derive(Clone)]
struct Completed<W: Word> {
    depth: u32,
    best: Move<W>,
    score: Score,
    pv: Vec<Move<W>>,
}

impl<W: Word> Progress<W> {
    fn new() -> Self {
        Progress {
            depth: AtomicU32::new(0),
            result: Mutex::new(None),
        }
    }
    fn depth(&self) -> u32 {
        self.depth.load(Ordering::Acquire)
    }
    fn publish(&self, c: Completed<W>) {
        let mut slot = self.result.lock().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_none_or(|old| old.depth < c.depth) {
            self.depth.store(c.depth, Ordering::Release);
            *slot = Some(c);
        }
    }
    fn result(&self) -> Option<Completed<W>> {
        self.result
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// One line of search progress.
pub struct Info<'a, W: Word> {
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Average ply of the leaves of this iteration.
    pub mean_depth: f64,
    /// 1 for the best line; 2… for the next best in multi-PV analysis.
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table used by this search.
    pub hashfull: u32,
    /// Positions the endgame tables answered so far.
    pub table_hits: u64,
    pub pv: &'a [Move<W>],
}

/// Where the search sends its progress.
pub trait Report<W: Word> {
    fn info(&mut self, info: &Info<'_, W>);
}

impl<W: Word, F: FnMut(&Info<'_, W>)> Report<W> for F {
    fn info(&mut self, info: &Info<'_, W>) {
        self(info)
    }
}

/// A reporter that drops everything.
pub struct Silent;
impl<W: Word> Report<W> for Silent {
    fn info(&mut self, _: &Info<'_, W>) {}
}

/// What to search.
pub struct Job<'a, R: Rules> {
    pub root: Position<R>,
    /// Hashes of the game's earlier positions back to its last irreversible move, oldest
    /// first; repetitions of them count as draws.
    pub history: &'a [u64],
    /// The draw counters at the root and the rules that read them.
    pub counters: DrawCounters,
    pub draw: DrawRules,
    pub limits: Limits,
    pub threads: usize,
    /// How many best lines to report (analysis); 1 for play.
    pub multipv: usize,
    /// Trained weights for this variant; `None`: the hand-made evaluation.
    pub eval: Option<&'a TrainedWeights>,
    /// Endgame tables to probe, if any.
    pub egdb: Option<&'a Egdb<R>>,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Outcome<W: Word> {
    /// `None` only when the root has no legal move.
    pub best: Option<Move<W>>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move<W>>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move<W>>,
}

#[derive(Clone)]
struct RootMove<W: Word> {
    m: Move<W>,
    score: Score,
    previous: Score,
    pv: Vec<Move<W>>,
}

/// The threads that search when `requested` are asked for: as many, but no more than the
/// machine runs at once.
///
/// Lazy SMP threads beyond the cores add no search, only waiting: the main thread, which
/// watches the clock every 1,024 nodes, would get a slice of a core now and then and see the
/// deadline late, and a stop would wait for every thread to be scheduled again (at 256
/// threads on two cores, 0.1 s a move took 2.4 s).
pub fn search_threads(requested: usize) -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    let cores =
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    requested.clamp(1, cores.max(1))
}

/// Search `job`, sharing `tt` between its threads; returns when a limit is reached or
/// `control` is stopped (for an infinite or pondering search: only when stopped).
pub fn search<R: Rules>(
    job: &Job<'_, R>,
    tt: &TranspositionTable,
    control: &Control,
    report: &mut dyn Report<WordOf<R>>,
) -> Outcome<WordOf<R>> {
    tt.new_search();
    let budget = job.limits.budget();
    let helpers = search_threads(job.threads) - 1;
    let progress = Progress::new();
    let progress = &progress;
    let outcome = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for id in 1..=helpers {
            handles.push(
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(job, tt, control, progress, budget, id);
                        w.iterate(&mut Silent);
                        w.flush();
                    }),
            );
        }
        let mut w = Worker::new(job, tt, control, progress, budget, 0);
        let outcome = w.iterate(report);
        w.flush();
        // An infinite search reports its move only when told to stop.
        while (job.limits.infinite || control.pondering()) && !control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        control.stop();
        for h in handles.into_iter().flatten() {
            let _ = h.join();
        }
        outcome
    });
    Outcome {
        nodes: control.nodes(),
        time: control.elapsed(),
        ..outcome
    }
}

struct Worker<'a, R: Rules> {
    id: usize,
    eval: Option<&'a TrainedWeights>,
    egdb: Option<&'a Egdb<R>>,
    root: IndexedPosition<R>,
    tt: &'a TranspositionTable,
    control: &'a Control,
    progress: &'a Progress<WordOf<R>>,
    limits: Limits,
    budget: Budget,
    multipv: usize,
    stopped: bool,
    /// The depth of the iteration under way.
    iteration: u32,
    /// Another thread completed this iteration's depth first (`stopped` is set too).
    overtaken: bool,
    /// How often the best move changed lately (halved each iteration), and the last
    /// iteration's best move and score: the clock is spent where the search is unsure.
    best_changes: f64,
    last_best: Option<MoveOf<R>>,
    last_score: Option<Score>,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    leaf_plies: u64,
    leaves: u64,
    /// Hashes of the game before the root, then of each ply of the current line.
    hashes: Vec<u64>,
    draw: DrawRules,
    /// Draw counters per ply of the current line.
    counters: [DrawCounters; MAX_PLY + 2],
    ordering: MoveOrdering<R>,
    lists: Vec<Vec<MoveOf<R>>>,
    keys: Vec<Vec<i32>>,
    pv: Vec<Vec<MoveOf<R>>>,
    root_moves: Vec<RootMove<WordOf<R>>>,
    /// The root's material when the root is a table win or loss without a distance: the
    /// positions one ply on in that slice are searched, not scored by the table alone (see
    /// `probe_tables`).
    root_slice: Option<Material>,
}

impl<'a, R: Rules> Worker<'a, R> {
    fn new(
        job: &Job<'a, R>,
        tt: &'a TranspositionTable,
        control: &'a Control,
        progress: &'a Progress<WordOf<R>>,
        budget: Budget,
        id: usize,
    ) -> Self {
        let mut hashes = job.history.to_vec();
        hashes.push(job.root.hash());
        let mut counters = [DrawCounters::default(); MAX_PLY + 2];
        counters[0] = DrawCounters {
            quiet: job.counters.quiet.max(job.history.len() as u16),
            ..job.counters
        };
        let root_moves = job
            .root
            .legal_moves()
            .into_iter()
            .map(|m| RootMove {
                m,
                score: -INFINITY,
                previous: -INFINITY,
                pv: vec![m],
            })
            .collect();
        let egdb = job.egdb.filter(|e| e.pieces >= 2);
        if let Some(db) = egdb {
            db.prepare_distances(&job.root);
        }
        let root_slice = egdb
            .and_then(|db| db.probe_ready(&job.root))
            .filter(|&(value, distance)| value != Value::Draw && distance.is_none())
            .map(|_| Material::of(&job.root));
        Worker {
            id,
            root_slice,
            eval: job.eval,
            egdb,
            root: IndexedPosition::new(job.root),
            tt,
            control,
            progress,
            limits: job.limits,
            budget,
            multipv: job.multipv.max(1),
            stopped: false,
            iteration: 0,
            overtaken: false,
            best_changes: 0.0,
            last_best: None,
            last_score: None,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            leaf_plies: 0,
            leaves: 0,
            hashes,
            draw: job.draw,
            counters,
            ordering: MoveOrdering::new(),
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            keys: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            root_moves,
        }
    }

    fn flush(&mut self) {
        self.control
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Count a node; every 1024 nodes, share the count and look at the clock.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed < 1024 {
            return;
        }
        self.flush();
        if self.control.stopped() {
            self.stopped = true;
            return;
        }
        if self.id == 0 {
            if let Some(n) = self.limits.nodes {
                if self.control.nodes() >= n {
                    self.control.stop();
                    self.stopped = true;
                    return;
                }
            }
            if let Some(hard) = self.budget.hard {
                // A forced move on the clock is played at once, also when a ponder hit turns
                // a ponder search into one mid-iteration.
                if !self.control.pondering()
                    && (self.control.clock_elapsed() >= hard || self.forced_on_the_clock())
                {
                    self.control.stop();
                    self.stopped = true;
                    return;
                }
            }
        }
        if self.leapfrogs() && self.progress.depth() >= self.iteration {
            self.stopped = true;
            self.overtaken = true;
        }
    }

    /// Threads share iterations only for a single best line (multi-PV analysis keeps each
    /// thread's own lines).
    fn leapfrogs(&self) -> bool {
        self.multipv == 1
    }

    /// One legal move at the root, and a clock (not a depth) to stop the search.
    fn forced_on_the_clock(&self) -> bool {
        self.budget.hard.is_some() && self.root_moves.len() == 1 && self.limits.depth.is_none()
    }

    fn iterate(&mut self, report: &mut dyn Report<WordOf<R>>) -> Outcome<WordOf<R>> {
        let mut outcome = Outcome {
            best: self.root_moves.first().map(|r| r.m),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
        };
        if self.root_moves.is_empty() {
            outcome.score = self.terminal(0);
            return outcome;
        }
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_PLY as u32 - 8, |d| d.clamp(1, MAX_PLY as u32 - 8));
        let lines = self.multipv.min(self.root_moves.len());
        // Half the threads start one ply deeper, so two depths are always under way.
        let lead = (self.id % 2) as u32;
        let mut depth = 1 + lead;
        while depth <= max_depth {
            self.iteration = depth;
            self.seldepth = 0;
            self.leaf_plies = 0;
            self.leaves = 0;
            for r in &mut self.root_moves {
                r.previous = r.score;
            }
            if self.leapfrogs() && self.progress.depth() >= depth {
                // Another thread already finished this depth.
                self.overtaken = true;
            } else {
                for line in 0..lines {
                    self.aspiration(depth as i32, line);
                    if self.stopped {
                        break;
                    }
                }
            }
            if self.overtaken {
                self.overtaken = false;
                self.stopped = self.control.stopped();
                match self.progress.result() {
                    Some(c) if !self.stopped => depth = self.adopt(c),
                    _ => break,
                }
            } else if self.stopped && depth > 1 {
                // Keep a move found better in the unfinished iteration (it is first when it
                // beat the previous best); otherwise the last full iteration stands.
                break;
            } else if self.leapfrogs() && !self.stopped {
                let best = &self.root_moves[0];
                self.progress.publish(Completed {
                    depth,
                    best: best.m,
                    score: best.score,
                    pv: best.pv.clone(),
                });
            }
            outcome.depth = depth;
            let best = &self.root_moves[0];
            outcome.best = Some(best.m);
            outcome.score = best.score;
            outcome.pv = best.pv.clone();
            if self.id == 0 {
                self.flush();
                for (i, r) in self.root_moves[..lines].iter().enumerate() {
                    report.info(&Info {
                        depth,
                        seldepth: self.seldepth as u32,
                        mean_depth: if self.leaves == 0 {
                            0.0
                        } else {
                            self.leaf_plies as f64 / self.leaves as f64
                        },
                        multipv: i + 1,
                        score: r.score,
                        nodes: self.control.nodes(),
                        time: self.control.elapsed(),
                        hashfull: self.tt.hashfull(),
                        table_hits: self.control.table_hits(),
                        pv: &r.pv,
                    });
                }
            }
            if self.stopped || self.id == 0 && self.enough(depth, &outcome) {
                break;
            }
            depth += 1;
            if self.leapfrogs() {
                depth = depth.max((self.progress.depth() + 1 + lead).min(max_depth));
            }
        }
        if self.stopped {
            // The unfinished iteration may have put a better move first.
            let best = &self.root_moves[0];
            if best.score > -INFINITY && best.m != outcome.best.unwrap_or(best.m) {
                outcome.best = Some(best.m);
                outcome.score = best.score;
                outcome.pv = best.pv.clone();
            }
        }
        outcome.ponder = outcome
            .pv
            .get(1)
            .copied()
            .or_else(|| self.ponder_from_table(&outcome));
        outcome
    }

    /// Take another thread's completed iteration as this one's; returns its depth.
    fn adopt(&mut self, c: Completed<WordOf<R>>) -> u32 {
        if let Some(i) = self.root_moves.iter().position(|r| r.m == c.best) {
            self.root_moves[..=i].rotate_right(1);
            let r = &mut self.root_moves[0];
            r.score = c.score;
            r.pv = c.pv;
        }
        c.depth
    }

    /// Whether to stop deepening (the caller's limits, not a stop request).
    fn enough(&mut self, depth: u32, outcome: &Outcome<WordOf<R>>) -> bool {
        let score = outcome.score;
        self.best_changes /= 2.0;
        if self.last_best.is_some_and(|m| Some(m) != outcome.best) {
            self.best_changes += 1.0;
        }
        let drop = self.last_score.map_or(0, |s| s - score);
        self.last_best = outcome.best;
        self.last_score = Some(score);
        if self.limits.infinite || self.control.pondering() {
            return false;
        }
        // A forced move on the clock: play it at once.
        if self.forced_on_the_clock() {
            return true;
        }
        // The next iteration takes a few times as long as this one: start it only well
        // inside the budget, more so when the best move is settled, less when it keeps
        // changing or the score is falling.
        if let Some(soft) = self.budget.soft {
            let unsure = (TIME_STABLE + TIME_PER_CHANGE * self.best_changes).min(TIME_UNSURE_MAX);
            let falling = 1.0
                + (drop.clamp(0, TIME_DROP_MAX) as f64 / TIME_DROP_MAX as f64)
                    * (TIME_FALLING_MAX - 1.0);
            let share = TIME_ITERATION_SHARE * unsure * falling;
            if self.control.clock_elapsed().as_secs_f64() >= soft.as_secs_f64() * share {
                return true;
            }
        }
        // A decided game seen to its end: deeper search cannot change it.
        if let Some(n) = plies_to_end(score) {
            if self.limits.depth.is_none() && depth as i32 > n.abs() + 2 {
                return true;
            }
        }
        false
    }

    fn ponder_from_table(&mut self, outcome: &Outcome<WordOf<R>>) -> Option<MoveOf<R>> {
        let best = outcome.best?;
        let after = self.root.position().after(&best);
        let e = self.tt.probe(after.hash())?;
        let i = e.move_index? as usize;
        let moves = after.legal_moves();
        moves.get(i).copied()
    }

    fn aspiration(&mut self, depth: i32, line: usize) {
        let previous = self.root_moves[line].previous;
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH && !is_decided(previous) && previous > -INFINITY {
                (previous - delta, previous + delta)
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let score = self.root_search(depth, alpha, beta, line);
            if self.stopped {
                return;
            }
            if score <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            delta += delta;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn root_search(&mut self, depth: i32, mut alpha: Score, beta: Score, line: usize) -> Score {
        let root = self.root;
        let mut best = -INFINITY;
        for i in line..self.root_moves.len() {
            let m = self.root_moves[i].m;
            let child = root.after(&m);
            self.enter(1, &root, &m, &child);
            let d = depth - 1;
            let mut score;
            if i == line {
                score = -self.search(&child, d, -beta, -alpha, 1, true);
            } else {
                score = -self.search(&child, d, -alpha - 1, -alpha, 1, false);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, d, -beta, -alpha, 1, true);
                }
            }
            self.hashes.pop();
            if self.stopped {
                break;
            }
            let r = &mut self.root_moves[i];
            if i == line || score > alpha {
                r.score = score;
                r.pv.clear();
                r.pv.push(m);
                r.pv.extend_from_slice(&self.pv[1]);
            } else {
                r.score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                // Move the new best up front at once, so a stop keeps it.
                self.root_moves[line..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
        }
        if !self.stopped {
            self.root_moves[line..]
                .sort_by(|a, b| b.score.cmp(&a.score).then(b.previous.cmp(&a.previous)));
        }
        best
    }

    /// Push the child's hash and its draw counters.
    #[inline]
    fn enter(&mut self, ply: usize, parent: &Position<R>, m: &MoveOf<R>, child: &Position<R>) {
        self.hashes.push(child.hash());
        self.counters[ply] = self.counters[ply - 1].after(&self.draw, parent, m, child);
    }

    /// The variant's draw rules end the game at `ply` (a side without a move still loses).
    #[inline]
    fn drawn(&self, pos: &Position<R>, ply: usize) -> bool {
        self.draw.verdict(pos, &self.counters[ply]).is_some() && !pos.legal_moves().is_empty()
    }

    /// The position at `ply` repeats one earlier in the game or the line.
    #[inline]
    fn repeated(&self, ply: usize) -> bool {
        let n = self.hashes.len() - 1;
        let h = self.hashes[n];
        if self.draw.repetitions == 0 {
            return false;
        }
        let back = self.counters[ply].quiet as usize;
        let mut k = 4;
        while k <= back && k <= n {
            if self.hashes[n - k] == h {
                return true;
            }
            k += 2;
        }
        false
    }

    /// The tables' score of `pos`, when it is in them. A table win scores below the
    /// forced wins the search finds itself and above any evaluation, lower the more work is
    /// left: more pieces, more men, then more plies to the end of the slice (its distance
    /// file) or, without one, a worse evaluation for the winner. The winner thus heads for
    /// captures, crowning and the slice's end, the loser the other way.
    #[inline]
    fn probe_tables(&mut self, pos: &IndexedPosition<R>, ply: usize) -> Option<Score> {
        let db = self.egdb?;
        let pieces = pos.occupied().count();
        if pieces > db.pieces {
            return None;
        }
        let (value, distance) = db.probe_ready(pos)?;
        // Without a distance, table scores alone rank a won slice's positions by the
        // evaluation only, and a move whose every reply is scored so may let the loser
        // repeat: one ply on from such a root the replies are searched, and repetitions
        // and the counters seen.
        if ply == 1
            && distance.is_none()
            && value != Value::Draw
            && self.root_slice == Some(Material::of(pos))
        {
            return None;
        }
        self.tick();
        self.control.table_hits.fetch_add(1, Ordering::Relaxed);
        let winner_left = |winner_eval: Score| {
            let plies = match distance {
                Some(d) => d as Score,
                None => (128 - winner_eval / 8).clamp(0, 255),
            };
            let men = (pos.occupied() & !pos.kings()).count() as Score;
            (pieces as Score).min(TABLE_PIECES) * TABLE_PIECE_STEP
                + men.min(TABLE_PIECES) * 256
                + plies
        };
        Some(match value {
            Value::Win => TABLE_WIN - winner_left(evaluate(pos, self.eval)) - ply as Score,
            Value::Loss => -TABLE_WIN + winner_left(-evaluate(pos, self.eval)) + ply as Score,
            _ => DRAW,
        })
    }

    fn terminal(&self, ply: usize) -> Score {
        if R::LOSER_WINS {
            MATE - ply as Score
        } else {
            -(MATE - ply as Score)
        }
    }

    fn search(
        &mut self,
        pos: &IndexedPosition<R>,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
    ) -> Score {
        self.pv[ply].clear();
        if self.repeated(ply) || self.drawn(pos, ply) {
            return DRAW;
        }
        // Mate-distance pruning: nothing here beats a win found nearer the root.
        alpha = alpha.max(-(MATE - ply as Score));
        beta = beta.min(MATE - ply as Score);
        if alpha >= beta {
            return alpha;
        }
        if ply > 0 {
            if let Some(score) = self.probe_tables(pos, ply) {
                return score;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, QuietNode::Horizon);
        }
        self.tick();
        if self.stopped {
            return DRAW;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }

        let hash = pos.hash();
        // Where no ProbCut can run, list the moves first: the table's answer is on its way
        // from memory meanwhile.
        let listed = depth < PROBCUT_MIN_DEPTH;
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        if listed {
            pos.generate(&mut moves, Convention::Drop);
        }
        let mut tt_index = None;
        if let Some(e) = self.tt.probe(hash) {
            tt_index = e.move_index;
            let s = score_from_table(e.score, ply);
            if !pv_node && e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    self.lists[ply] = moves;
                    return s;
                }
            }
        }

        // No table move: this node's first search was cut short or never made, so search it
        // a ply shallower; the next visit has a move to start from.
        let depth = if tt_index.is_none() && depth >= IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };

        // ProbCut: when a shallower search already clears beta by a margin, the full-depth
        // one almost surely clears beta too.
        if !listed {
            // ProbCut's search of this position uses this ply's list.
            self.lists[ply] = std::mem::take(&mut moves);
        }
        if !pv_node && depth >= PROBCUT_MIN_DEPTH && !is_decided(beta) {
            let raised = beta + PROBCUT_MARGIN;
            let s = self.search(
                pos,
                depth - PROBCUT_REDUCTION,
                raised - 1,
                raised,
                ply,
                false,
            );
            if self.stopped {
                return DRAW;
            }
            if s >= raised {
                return beta;
            }
        }

        if !listed {
            moves = std::mem::take(&mut self.lists[ply]);
            moves.clear();
            pos.generate(&mut moves, Convention::Drop);
        }
        let mut keys = std::mem::take(&mut self.keys[ply]);
        if moves.is_empty() {
            self.lists[ply] = moves;
            self.keys[ply] = keys;
            return self.terminal(ply);
        }
        let forced = moves.len() == 1;
        let captures = moves[0].is_capture();
        // One legal move: it costs nothing to look one ply further.
        let new_depth = if forced { depth } else { depth - 1 };
        // The table's move comes first: start its child's probe on the way now.
        if let Some(m) = tt_index.and_then(|i| moves.get(i as usize)) {
            if new_depth > 0 {
                self.tt.prefetch(pos.position().after(m).hash());
            }
        }
        // Reverse futility: near the leaves, a quiet position standing far above beta stays
        // above it.
        if !pv_node && !captures && depth <= RFP_MAX_DEPTH && !is_decided(beta) {
            let e = evaluate(pos, self.eval);
            if e - RFP_MARGIN * depth >= beta {
                self.lists[ply] = moves;
                self.keys[ply] = keys;
                return e;
            }
        }
        self.ordering.keys(pos, &moves, &mut keys, tt_index, ply);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_index = None;
        let us = pos.side_to_move().index();
        // The next move's child, made while this one is searched so that its table bucket
        // is on its way into the cache before it is probed.
        let mut ahead: Option<IndexedPosition<R>> = None;
        for i in 0..moves.len() {
            let child = match ahead.take() {
                Some(child) => child,
                None => {
                    pick(&mut moves, &mut keys, i);
                    let child = pos.after(&moves[i]);
                    // (The table move's child was prefetched above.)
                    if new_depth > 0 && !(i == 0 && tt_index.is_some()) {
                        self.tt.prefetch(child.hash());
                    }
                    child
                }
            };
            let m = moves[i];
            let index = (keys[i] & 0xff) as u8;
            let quiet = !m.is_capture() && !m.promotes();
            // Not while the table's move is searched: it cuts off often enough that making
            // the next child then costs more than its early probe saves.
            if new_depth > 0 && i + 1 < moves.len() && (i > 0 || tt_index.is_none()) {
                pick(&mut moves, &mut keys, i + 1);
                let next = pos.after(&moves[i + 1]);
                self.tt.prefetch(next.hash());
                ahead = Some(next);
            }
            self.enter(ply + 1, pos, &m, &child);
            let mut score;
            if i == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                let reduction = if quiet
                    && !captures
                    && depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_INDEX
                    && !self.ordering.is_killer(ply, &m)
                {
                    late_move_reduction(depth, i, pv_node).min(new_depth - 1)
                } else {
                    0
                };
                score = -self.search(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            self.hashes.pop();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_index = (index != 0xff).then_some(index);
                    // Only a principal-variation node's line is ever shown.
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.ordering.reward(ply, us, &m, depth, &moves[..i]);
                        }
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.keys[ply] = keys;
        if self.stopped {
            return DRAW;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, best_index, depth, bound, score_to_table(best, ply));
        best
    }

    /// Search captures until none is left; a side without a capture may stand pat (unless
    /// it has no move at all), or crown a man, or, at the horizon itself, offer a man for
    /// an exchange.
    fn quiesce(
        &mut self,
        pos: &IndexedPosition<R>,
        alpha: Score,
        beta: Score,
        ply: usize,
        node: QuietNode,
    ) -> Score {
        self.pv[ply].clear();
        self.tick();
        if self.stopped {
            return DRAW;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        // Captures reset every counter; only the material rule can draw here.
        if self.draw.lone != Lone::None
            && self.draw.verdict(pos, &DrawCounters::default()).is_some()
            && !pos.legal_moves().is_empty()
        {
            return DRAW;
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        // The static score, once computed (only where the side to move has a move).
        let mut stand = None;
        if node != QuietNode::Offered {
            moves.clear();
            if R::QUIESCENCE_CAPTURES {
                pos.generate_legal_captures(&mut moves, Convention::Drop);
            }
        }
        if R::QUIESCENCE_CAPTURES && moves.is_empty() && ply < MAX_PLY {
            if pos.can_crown_quietly() {
                // A man about to crown changes the score more than any static term says.
                pos.generate(&mut moves, Convention::Drop);
                moves.retain(|m| m.promotes());
                if !moves.is_empty() {
                    let stand = evaluate(pos, self.eval);
                    let score = self.quiescence_moves(pos, &moves, Some(stand), alpha, beta, ply);
                    self.lists[ply] = moves;
                    return score;
                }
            }
            if node == QuietNode::Horizon
                && R::MANDATORY_CAPTURE
                && !R::LOSER_WINS
                && self.has_move(pos)
            {
                // Offers are dear to find and matter only below beta: stand pat first.
                let e = evaluate(pos, self.eval);
                stand = Some(e);
                if e < beta {
                    let offers = self.exchange_offers(pos, &mut moves, e, alpha, beta, ply);
                    moves.clear();
                    if let Some(score) = offers {
                        self.lists[ply] = moves;
                        return score;
                    }
                }
            }
        }
        if moves.is_empty() || ply >= MAX_PLY {
            self.lists[ply] = moves;
            self.leaves += 1;
            self.leaf_plies += ply as u64;
            return match stand {
                Some(e) => e,
                None if ply >= MAX_PLY || self.has_move(pos) => evaluate(pos, self.eval),
                None => self.terminal(ply),
            };
        }
        // Bigger captures first.
        moves.sort_by_key(|m| std::cmp::Reverse(m.captured.count()));
        let stand = (!R::MANDATORY_CAPTURE).then(|| evaluate(pos, self.eval));
        let best = self.quiescence_moves(pos, &moves, stand, alpha, beta, ply);
        self.lists[ply] = moves;
        best
    }

    /// Whether the side to move has any move, where the quiescence search found no capture.
    #[inline]
    fn has_move(&self, pos: &Position<R>) -> bool {
        if R::OPENING_REMOVALS || !R::QUIESCENCE_CAPTURES {
            !pos.legal_moves().is_empty()
        } else {
            pos.count_quiet() > 0
        }
    }

    /// Searches the quiet moves of a position without kings after which the opponent must
    /// take one man, and no more: the exchanges that decide draughts middlegames, which a
    /// search of captures alone sees only a ply too late. The side to move may keep `stand`
    /// instead. Each offer is searched as soon as it is found, so the opponent's captures are
    /// listed once; `None` when there is no offer. `moves` is scratch space.
    fn exchange_offers(
        &mut self,
        pos: &IndexedPosition<R>,
        moves: &mut Vec<MoveOf<R>>,
        stand: Score,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        if pos.kings != <WordOf<R> as Word>::ZERO || ply + 4 >= MAX_PLY {
            return None;
        }
        pos.generate(moves, Convention::Drop);
        // Without parachutists, only the opponent's men can capture: a shift test rules out
        // most moves before they are played.
        let pretest = pos.paras == <WordOf<R> as Word>::ZERO;
        let pv_node = beta - alpha > 1;
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut found = false;
        for &m in moves.iter() {
            if pretest && !pos.may_offer_capture(&m) {
                continue;
            }
            let child = pos.after(&m);
            let mut replies = std::mem::take(&mut self.lists[ply + 1]);
            replies.clear();
            child.generate_legal_captures(&mut replies, Convention::Drop);
            let offer = !replies.is_empty() && replies.iter().all(|c| c.captured.count() == 1);
            self.lists[ply + 1] = replies;
            if !offer {
                continue;
            }
            found = true;
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, QuietNode::Offered);
            if self.stopped || self.raise(score, m, &mut best, &mut alpha, beta, pv_node, ply) {
                break;
            }
        }
        found.then_some(best)
    }

    /// The quiescence search's move loop: captures, or crowning moves; with a `stand`
    /// score, the side to move may also keep that static score.
    fn quiescence_moves(
        &mut self,
        pos: &IndexedPosition<R>,
        moves: &[MoveOf<R>],
        stand: Option<Score>,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        // A null window's line is never shown.
        let pv_node = beta - alpha > 1;
        let mut best = -INFINITY;
        if let Some(s) = stand {
            best = s;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        for &m in moves {
            let child = pos.after(&m);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, QuietNode::Inside);
            if self.stopped || self.raise(score, m, &mut best, &mut alpha, beta, pv_node, ply) {
                break;
            }
        }
        best
    }

    /// Takes move `m`'s score into the node's `best` and `alpha`; true on a cut-off.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn raise(
        &mut self,
        score: Score,
        m: MoveOf<R>,
        best: &mut Score,
        alpha: &mut Score,
        beta: Score,
        pv_node: bool,
        ply: usize,
    ) -> bool {
        if score > *best {
            *best = score;
            if score > *alpha {
                *alpha = score;
                if pv_node {
                    self.update_pv(ply, m);
                }
                return score >= beta;
            }
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: MoveOf<R>) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }
}

/// How the quiescence search came to a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum QuietNode {
    /// From the main search's horizon: exchange offers are looked at.
    Horizon,
    /// After a capture or a crowning move.
    Inside,
    /// After an exchange offer, its captures already listed in the ply's move list.
    Offered,
}

/// Decided scores are stored relative to the node, so they stay right at another ply.
fn score_to_table(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s + ply as Score
    } else if s <= -WIN_BOUND {
        s - ply as Score
    } else {
        s
    }
}

fn score_from_table(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s - ply as Score
    } else if s <= -WIN_BOUND {
        s + ply as Score
    } else {
        s
    }
}

/// Plies a late quiet move is searched shallower: growing with depth and with how late the
/// move comes, one less in principal-variation nodes.
fn late_move_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    let r = LMR_BASE + (depth as f32).ln() * (index as f32).ln() / LMR_DIVISOR;
    (r as i32 - pv_node as i32).max(1)
}
