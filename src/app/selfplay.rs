//! `damas selfplay`: games of the engine against itself, every position recorded with the
//! game's result and the search's score, as training data for `damas train`.
//!
//! Game `g` of `--games N` is played from an opening and with node counts drawn from
//! `(seed, g)` alone, so a game is the same whichever machine, shard or thread plays it.
//! `--shard I/N` plays the games with `g % N == I`: the same command on N machines makes
//! disjoint files that `damas selfplay merge` joins into the file one whole run makes. A run
//! appends whole games to `--out` as they end and, started again, skips the games the file
//! already holds; a finished run leaves its games in order of number, so the file does not
//! depend on the threads or the machines that played them.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::app::args;
use crate::core::color::Color;
use crate::core::game::{Game, GameResult};
use crate::core::geometry::Geometry;
use crate::core::notation::{move_text, parse_move};
use crate::core::parallel;
use crate::core::position::Position;
use crate::core::variant::Variant;
use crate::engine::{Engine, Start};
use crate::search::limits::Limits;
use crate::search::trained::data::{variant_tag, Record, LAST, RECORD_BYTES};
use crate::search::trained::TrainedWeights;
use crate::search::{plies_to_end, Control};
use crate::{with_rules, Convention, Rules};

/// Arguments of `damas selfplay`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SelfplayArgs {
    #[command(subcommand)]
    pub command: Option<SelfplayCommand>,
    #[arg(long, default_value = "english")]
    pub variant: String,
    /// Games in all (over every shard).
    #[arg(long, value_parser = args::games, required = true)]
    pub games: Option<usize>,
    /// Nodes per move (default 4000); each game varies it by up to a quarter.
    #[arg(long, value_parser = args::nodes, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per move instead of nodes.
    #[arg(long, value_parser = args::depth)]
    pub depth: Option<u32>,
    /// `random:N`: N random plies, kept when a short search finds them balanced (default:
    /// random:6 on boards of 8 files or fewer, random:8 on larger ones).
    #[arg(long)]
    pub openings: Option<String>,
    /// Games played at once (default: the number of cores).
    #[arg(long, value_parser = args::threads)]
    pub threads: Option<usize>,
    #[arg(long, default_value = "1", value_parser = args::seed)]
    pub seed: u64,
    /// `I/N`: play only the games whose number is I modulo N.
    #[arg(long, default_value = "0/1", value_parser = args::shard)]
    pub shard: (usize, usize),
    /// Plies after which a game is a draw.
    #[arg(long, default_value = "300", value_parser = args::max_plies)]
    pub max_plies: usize,
    /// The data file; appended to, and resumed from, if it exists.
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
    /// Play with these weights instead of the shipped ones (the next generation's data).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

/// `damas selfplay merge`.
#[derive(clap::Subcommand, Debug)]
pub enum SelfplayCommand {
    /// Join the data files of a run's shards into the file one whole run makes: every game
    /// once, in order of number.
    Merge {
        /// The shards' data files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, default_value = "english")]
        variant: String,
        /// The merged file (written whole, then renamed into place).
        #[arg(long)]
        out: PathBuf,
    },
}

/// Why `selfplay` stopped.
#[derive(Debug)]
pub enum SelfplayError {
    Usage(String),
    Io(String),
}

impl fmt::Display for SelfplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfplayError::Usage(e) | SelfplayError::Io(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for SelfplayError {}

/// Largest score a random opening may have after the balance search, hundredths of a man.
const BALANCE_MARGIN: i32 = 30;
const BALANCE_DEPTH: u32 = 6;
/// A game is adjudicated once one side has led by this much for `ADJUDICATE_PLIES` plies.
const ADJUDICATE_SCORE: i32 = 400;
const ADJUDICATE_PLIES: usize = 6;

struct Setup {
    variant: Variant,
    games: usize,
    nodes: u64,
    depth: Option<u32>,
    opening_plies: u32,
    seed: u64,
    shard: (usize, usize),
    max_plies: usize,
    eval_file: Option<(Variant, Arc<TrainedWeights>)>,
}

pub fn run(a: SelfplayArgs) -> Result<(), SelfplayError> {
    let usage = |e: String| SelfplayError::Usage(e);
    if let Some(SelfplayCommand::Merge {
        files,
        variant,
        out,
    }) = &a.command
    {
        let variant = Variant::from_name(variant).map_err(|e| usage(e.to_string()))?;
        return merge(variant, files, out);
    }
    let (Some(games), Some(out)) = (a.games, a.out.clone()) else {
        return Err(usage("selfplay needs --games and --out".into()));
    };
    let variant = Variant::from_name(&a.variant).map_err(|e| usage(e.to_string()))?;
    let wide = with_rules!(variant, R => board_width::<R>()) > 8;
    let opening_plies = match a.openings.as_deref() {
        None => {
            if wide {
                8
            } else {
                6
            }
        }
        Some(text) => text
            .strip_prefix("random:")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| n <= 40)
            .ok_or_else(|| {
                usage(format!(
                    "--openings '{text}': expected random:N, N up to 40"
                ))
            })?,
    };
    let eval_file = match &a.eval_file {
        None => None,
        Some(path) => {
            let mut engine = Engine::new(1);
            engine
                .load_eval_file(variant, path)
                .map_err(|e| usage(format!("--eval-file: {e}")))?;
            engine.eval_file
        }
    };
    let setup = Setup {
        variant,
        games,
        nodes: a.nodes.unwrap_or(4000),
        depth: a.depth,
        opening_plies,
        seed: a.seed,
        shard: a.shard,
        max_plies: a.max_plies,
        eval_file,
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(usage(format!("--out: no folder {}", dir.display())));
        }
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SelfplayError::Io(e.to_string()))?;
    pool.install(|| with_rules!(variant, R => play_all::<R>(&setup, &out)))
}

/// Each game's records in `bytes` (whole games only), by game number.
fn games_of(path: &Path, bytes: &[u8], tag: u32) -> Result<BTreeMap<u32, Vec<u8>>, SelfplayError> {
    let bad = |why: String| SelfplayError::Io(format!("{}: {why}", path.display()));
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        return Err(bad(format!(
            "{} bytes is not a whole number of records (an interrupted run? run it again with the same --out)",
            bytes.len()
        )));
    }
    let mut games: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    let mut open: Option<u32> = None;
    for i in 0..bytes.len() / RECORD_BYTES {
        let r = Record::read(bytes, i, tag)
            .map_err(|e| bad(format!("{e} (another variant's data?)")))?;
        let chunk = &bytes[i * RECORD_BYTES..(i + 1) * RECORD_BYTES];
        // Games are written whole, so a game's records are contiguous.
        if open != Some(r.game) {
            if games.contains_key(&r.game) {
                return Err(bad(format!("game {} is written twice", r.game)));
            }
            open = Some(r.game);
        }
        games.entry(r.game).or_default().extend_from_slice(chunk);
        if r.flags & LAST != 0 {
            open = None;
        }
    }
    if let Some(g) = open {
        return Err(bad(format!("game {g} is cut short")));
    }
    Ok(games)
}

/// Write `games` in order of number to `path`, whole or not at all.
fn write_in_order(path: &Path, games: &BTreeMap<u32, Vec<u8>>) -> Result<(), SelfplayError> {
    let io = |e: std::io::Error| SelfplayError::Io(format!("{}: {e}", path.display()));
    let mut temp = path.as_os_str().to_owned();
    temp.push(".partial");
    let temp = PathBuf::from(temp);
    let mut bytes = Vec::with_capacity(games.values().map(Vec::len).sum());
    for g in games.values() {
        bytes.extend_from_slice(g);
    }
    std::fs::write(&temp, &bytes).map_err(io)?;
    std::fs::rename(&temp, path).map_err(io)
}

/// `damas selfplay merge`: the shards' games, each once, in order of number.
fn merge(variant: Variant, files: &[PathBuf], out: &Path) -> Result<(), SelfplayError> {
    let tag = variant_tag(&variant.key());
    let mut all: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    for path in files {
        let bytes = std::fs::read(path)
            .map_err(|e| SelfplayError::Io(format!("{}: {e}", path.display())))?;
        for (g, records) in games_of(path, &bytes, tag)? {
            match all.get(&g) {
                Some(earlier) if *earlier != records => {
                    return Err(SelfplayError::Io(format!(
                        "{}: game {g} differs from the same game in another file (another seed or build?)",
                        path.display()
                    )))
                }
                Some(_) => {}
                None => {
                    all.insert(g, records);
                }
            }
        }
    }
    write_in_order(out, &all)?;
    let positions: usize = all.values().map(|g| g.len() / RECORD_BYTES).sum();
    eprintln!(
        "selfplay merge: {} games, {positions} positions from {} files into {}",
        all.len(),
        files.len(),
        out.display()
    );
    Ok(())
}

/// Games already in `path`; the file is cut back to its last whole game.
fn resume(path: &PathBuf, tag: u32) -> Result<HashSet<u32>, SelfplayError> {
    let io = |e: std::io::Error| SelfplayError::Io(format!("{}: {e}", path.display()));
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(HashSet::new());
    };
    let whole = bytes.len() / RECORD_BYTES;
    let mut done = HashSet::new();
    let mut keep = 0;
    for i in 0..whole {
        let r = Record::read(&bytes, i, tag).map_err(|e| {
            SelfplayError::Io(format!("{}: {e} (another variant's data?)", path.display()))
        })?;
        if r.flags & LAST != 0 {
            done.insert(r.game);
            keep = (i + 1) * RECORD_BYTES;
        }
    }
    if keep != bytes.len() {
        let f = OpenOptions::new().write(true).open(path).map_err(io)?;
        f.set_len(keep as u64).map_err(io)?;
    }
    Ok(done)
}

fn play_all<R: Rules>(s: &Setup, out: &PathBuf) -> Result<(), SelfplayError> {
    let io = |e: std::io::Error| SelfplayError::Io(format!("{}: {e}", out.display()));
    let tag = variant_tag(&s.variant.key());
    let done = resume(out, tag)?;
    let todo: Vec<u32> = (0..s.games as u32)
        .filter(|g| *g as usize % s.shard.1 == s.shard.0 && !done.contains(g))
        .collect();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(io)?;
    let file = Mutex::new(file);
    let bar = ProgressBar::new(todo.len() as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:30}] {pos}/{len} games, {elapsed_precise}, ETA {eta_precise}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let plain = !std::io::stderr().is_terminal();
    let started = Instant::now();
    let last_line = Mutex::new(Instant::now());
    let positions = std::sync::atomic::AtomicU64::new(0);
    eprintln!(
        "selfplay {}: {} games to play ({} already in {})",
        s.variant,
        todo.len(),
        done.len(),
        out.display()
    );
    parallel::try_for_each(todo.len(), &|k| -> Result<(), SelfplayError> {
        let g = todo[k];
        let records = play_game::<R>(s, g);
        let mut bytes = Vec::with_capacity(records.len() * RECORD_BYTES);
        for r in &records {
            r.write(tag, &mut bytes);
        }
        {
            let mut f = file.lock().map_err(|_| SelfplayError::Io("lock".into()))?;
            f.write_all(&bytes).map_err(io)?;
        }
        let n = positions.fetch_add(records.len() as u64, std::sync::atomic::Ordering::Relaxed)
            + records.len() as u64;
        bar.inc(1);
        let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("{n} positions, {rate:.0}/s"));
        if plain {
            if let Ok(mut t) = last_line.lock() {
                if t.elapsed() >= Duration::from_secs(30) {
                    *t = Instant::now();
                    eprintln!(
                        "{}/{} games, {n} positions, {rate:.0} positions/s",
                        bar.position(),
                        todo.len()
                    );
                }
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    drop(file);
    let bytes = std::fs::read(out).map_err(io)?;
    write_in_order(out, &games_of(out, &bytes, tag)?)?;
    let n = positions.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!(
        "selfplay {}: {} games, {n} positions in {:.1} s ({:.0} positions/s)",
        s.variant,
        todo.len(),
        started.elapsed().as_secs_f64(),
        n as f64 / started.elapsed().as_secs_f64().max(1e-3)
    );
    Ok(())
}

fn game_rng(seed: u64, game: u32) -> StdRng {
    StdRng::seed_from_u64(seed ^ (game as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A balanced random opening for game `g` (falls back to the start after many tries).
fn opening<R: Rules>(s: &Setup, engine: &Engine, rng: &mut StdRng) -> Vec<String> {
    for _ in 0..200 {
        let mut game = Game::new(Position::<R>::start());
        let mut moves = Vec::new();
        for _ in 0..s.opening_plies {
            if game.outcome().is_some() {
                break;
            }
            let legal = game.position().legal_moves();
            let Some(m) = legal.choose(rng) else {
                break;
            };
            moves.push(move_text::<R>(m));
            let _ = game.play(m);
        }
        if game.outcome().is_some() {
            continue;
        }
        let done = engine.think(
            s.variant,
            Start::Initial,
            &moves,
            Limits::depth(BALANCE_DEPTH),
            &Control::new(false),
            &mut |_| {},
        );
        if done.is_ok_and(|d| d.score.abs() <= BALANCE_MARGIN) {
            return moves;
        }
    }
    Vec::new()
}

/// Play game `g` and return its positions, each with the result.
fn play_game<R: Rules>(s: &Setup, g: u32) -> Vec<Record> {
    let mut rng = game_rng(s.seed, g);
    let mut engine = Engine::new(8);
    engine.book = false;
    engine.eval_file.clone_from(&s.eval_file);
    let moves = opening::<R>(s, &engine, &mut rng);
    let mut game = Game::new(Position::<R>::start());
    for m in &moves {
        if let Ok(mv) = parse_move(game.position(), m) {
            let _ = game.play(&mv);
        }
    }
    let mut line = moves;
    let mut records = Vec::new();
    let mut buf = Vec::new();
    let mut leader: Option<(Color, usize)> = None;
    let result = loop {
        if let Some(o) = game.outcome() {
            break o.result;
        }
        if line.len() >= s.max_plies {
            break GameResult::Draw;
        }
        let limits = match s.depth {
            Some(d) => Limits::depth(d),
            None => Limits::nodes(s.nodes * 3 / 4 + rng.gen_range(0..=s.nodes / 2)),
        };
        let Ok(done) = engine.think(
            s.variant,
            Start::Initial,
            &line,
            limits,
            &Control::new(false),
            &mut |_| {},
        ) else {
            break GameResult::Draw;
        };
        let pos = *game.position();
        buf.clear();
        pos.generate_legal_captures(&mut buf, Convention::Drop);
        let score = done.score.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16;
        records.push(Record::of(
            &pos,
            g,
            line.len() as u16,
            score,
            buf.is_empty(),
        ));
        // Adjudicate a game one side has clearly won.
        let mover = pos.side_to_move();
        let lead = if done.score >= ADJUDICATE_SCORE
            || plies_to_end(done.score).is_some_and(|n| n > 0)
        {
            Some(mover)
        } else if done.score <= -ADJUDICATE_SCORE || plies_to_end(done.score).is_some_and(|n| n < 0)
        {
            Some(mover.opposite())
        } else {
            None
        };
        leader = match (lead, leader) {
            (Some(c), Some((l, n))) if c == l => Some((l, n + 1)),
            (Some(c), _) => Some((c, 1)),
            (None, _) => None,
        };
        if let Some((c, n)) = leader {
            if n >= ADJUDICATE_PLIES {
                break GameResult::win_for(c);
            }
        }
        let Ok(mv) = parse_move(game.position(), &done.best) else {
            break GameResult::Draw;
        };
        let _ = game.play(&mv);
        line.push(done.best);
    };
    let code = match result {
        GameResult::WhiteWins => 2,
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
    };
    for r in &mut records {
        r.result = code;
    }
    if let Some(last) = records.last_mut() {
        last.flags |= LAST;
    } else {
        // A game that ended before its first search still marks its number as played.
        let mut r = Record::of(game.position(), g, line.len() as u16, 0, false);
        r.result = code;
        r.flags = LAST;
        records.push(r);
    }
    records
}

fn board_width<R: Rules>() -> u8 {
    R::G::LAYOUT.width
}
