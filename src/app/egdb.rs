//! `damas egdb …`: build, probe, count and verify endgame tables.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::app::args;
use crate::core::color::Color;
use crate::core::movegen::Convention;
use crate::core::notation::{move_text, parse_fen, write_fen};
use crate::core::position::Position;
use crate::core::variant::Variant;
use crate::egdb::{
    self, build, default_dir, list_slices, memory_estimate, variant_dir, verify, BuildOptions,
    Egdb, Event,
};
use crate::{with_rules, Rules};

/// Arguments of `damas egdb`.
#[derive(clap::Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub command: EgdbCommand,
}

/// Where the tables are and which variant's.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// The variant, by name or alias (`damas variants`).
    #[arg(long)]
    pub variant: String,
    /// Variant option, `name=value`; may repeat.
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// The tables' root directory (default: $XDG_DATA_HOME/damas/egdb, or
    /// ~/.local/share/damas/egdb).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// The endgame table commands.
#[derive(clap::Subcommand, Debug)]
pub enum EgdbCommand {
    /// Build every slice of up to --pieces pieces (resumes: slices on disk are kept).
    Build {
        #[command(flatten)]
        common: Common,
        /// Every slice of up to this many pieces.
        #[arg(long, value_parser = args::egdb_pieces, required_unless_present = "only")]
        pieces: Option<u32>,
        /// Only this slice and the slices it needs, named as its file (`w0m3k_b0m1k`: white
        /// no man and three kings, black one king).
        #[arg(long, value_parser = material_arg, conflicts_with = "pieces")]
        only: Option<egdb::Material>,
        /// Worker threads (default: the core count).
        #[arg(long, value_parser = args::threads)]
        threads: Option<usize>,
    },
    /// The value of a position for the side to move; last line `result=win|draw|loss`.
    Probe {
        #[command(flatten)]
        common: Common,
        /// PDN FEN of the position.
        #[arg(long)]
        fen: String,
    },
    /// Random positions of the tables with a given value, one PDN FEN a line (a file for
    /// `damas match --openings fen:FILE`): quiet ones (no capture for the side to move), at
    /// least --min-plies from the end of their slice where the distance is kept.
    Sample {
        #[command(flatten)]
        common: Common,
        /// Positions of exactly this many pieces, both sides having some.
        #[arg(long, value_parser = args::egdb_pieces)]
        pieces: u32,
        /// The value for the side to move: win, draw or loss.
        #[arg(long, default_value = "win", value_parser = value_arg)]
        result: egdb::Value,
        /// How many positions.
        #[arg(long, default_value = "30", value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// Seed of the random choice.
        #[arg(long, default_value = "1")]
        seed: u64,
        /// Fewest plies to the end of the slice (captures or crowning) under best play.
        #[arg(long, default_value = "0")]
        min_plies: u8,
    },
    /// Win, draw and loss counts of every slice on disk.
    Stats {
        #[command(flatten)]
        common: Common,
    },
    /// Check every stored value against its successors.
    Verify {
        #[command(flatten)]
        common: Common,
        #[arg(long, value_parser = args::threads)]
        threads: Option<usize>,
    },
}

/// A failure of an egdb command, shown on one line.
#[derive(Debug)]
pub struct EgdbCliError(pub String);

impl std::fmt::Display for EgdbCliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EgdbCliError {}

fn fail(e: impl std::fmt::Display) -> EgdbCliError {
    EgdbCliError(e.to_string())
}

fn variant_of(c: &Common) -> Result<Variant, EgdbCliError> {
    let mut v = Variant::from_name(&c.variant).map_err(fail)?;
    for o in &c.options {
        let (k, val) = o
            .split_once('=')
            .ok_or_else(|| fail(format!("option '{o}' is not name=value")))?;
        v = v.with_option(k.trim(), val.trim()).map_err(fail)?;
    }
    Ok(v)
}

fn root_of(c: &Common) -> PathBuf {
    c.dir.clone().unwrap_or_else(default_dir)
}

fn material_arg(s: &str) -> Result<egdb::Material, String> {
    egdb::Material::parse(s).ok_or_else(|| {
        "expected a slice such as w0m3k_b0m1k (white men, kings; black men, kings)".to_string()
    })
}

fn value_arg(s: &str) -> Result<egdb::Value, String> {
    match s {
        "win" => Ok(egdb::Value::Win),
        "draw" => Ok(egdb::Value::Draw),
        "loss" => Ok(egdb::Value::Loss),
        _ => Err("expected win, draw or loss".to_string()),
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Run an egdb command.
pub fn run(args: EgdbArgs) -> Result<(), EgdbCliError> {
    match args.command {
        EgdbCommand::Build {
            common,
            pieces,
            only,
            threads,
        } => {
            let v = variant_of(&common)?;
            let root = root_of(&common);
            let pieces = pieces.unwrap_or_else(|| only.map_or(2, |m| m.total()));
            let threads = threads.unwrap_or_else(cores);
            with_rules!(v, R => run_build::<R>(v, root, pieces, only, threads))
        }
        EgdbCommand::Probe { common, fen } => {
            let v = variant_of(&common)?;
            let root = root_of(&common);
            with_rules!(v, R => run_probe::<R>(v, root, &fen))
        }
        EgdbCommand::Sample {
            common,
            pieces,
            result,
            count,
            seed,
            min_plies,
        } => {
            let v = variant_of(&common)?;
            let root = root_of(&common);
            let want = Wanted {
                pieces,
                value: result,
                count: count as usize,
                seed,
                min_plies,
            };
            with_rules!(v, R => run_sample::<R>(v, root, &want))
        }
        EgdbCommand::Stats { common } => run_stats(variant_of(&common)?, root_of(&common)),
        EgdbCommand::Verify { common, threads } => {
            let v = variant_of(&common)?;
            let root = root_of(&common);
            with_rules!(v, R => run_verify::<R>(v, root, threads.unwrap_or_else(cores)))
        }
    }
}

/// Memory the machine can give now (MemAvailable), if known.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn human_bytes(b: u64) -> String {
    let b = b as f64;
    if b >= 1e12 {
        format!("{:.1} TB", b / 1e12)
    } else if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.0} kB", b / 1e3)
    }
}

fn run_build<R: Rules>(
    v: Variant,
    root: PathBuf,
    pieces: u32,
    only: Option<egdb::Material>,
    threads: usize,
) -> Result<(), EgdbCliError> {
    let max = egdb::index::MAX_PIECES as u32;
    let (bytes, largest, total) = memory_estimate::<R>(pieces.min(max), only);
    if pieces > max {
        return Err(fail(format!(
            "--pieces {pieces} is too large: tables hold at most {max} pieces \
             ({max} pieces of {} alone need about {} of memory)",
            v.name(),
            human_bytes(bytes)
        )));
    }
    let available = available_memory().unwrap_or(4 << 30);
    if bytes > available / 10 * 9 {
        return Err(fail(format!(
            "--pieces {pieces} is too large for {}: about {} of memory ({largest} positions \
             in the largest slice, {total} in all), more than the {} available",
            v.name(),
            human_bytes(bytes),
            human_bytes(available)
        )));
    }
    let started = Instant::now();
    let bar = ProgressBar::new(1);
    let plain = !std::io::stderr().is_terminal();
    if plain {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed_precise}")
            .map_err(fail)?
            .progress_chars("=> "),
    );
    let current = Mutex::new(String::new());
    // Result lines go to stdout, above the bar when one is drawn.
    let say = |line: String| bar.suspend(|| println!("{line}"));
    say(format!(
        "memory about {} at the peak ({largest} positions in that slice, {total} in all)",
        human_bytes(bytes)
    ));
    let on_event = |e: &Event| match e {
        Event::Kept { material, counts } => say(format!(
            "{material} kept win={} draw={} loss={}",
            counts[0], counts[1], counts[2]
        )),
        Event::Rebuilt { error } => say(format!("rebuilding: {error}")),
        Event::Start {
            material,
            number,
            of,
            positions,
        } => {
            *current.lock().unwrap() = format!("{material} ({number}/{of}, {positions} positions)");
        }
        Event::Pass { pass, todo } => {
            bar.set_length(*todo);
            bar.set_position(0);
            bar.set_message(format!("{} pass {}", current.lock().unwrap(), pass + 1));
        }
        Event::Tick(n) => bar.inc(*n),
        Event::Done {
            material,
            counts,
            seconds,
            bytes,
        } => say(format!(
            "{material} built win={} draw={} loss={} time={seconds:.2}s bytes={bytes}",
            counts[0], counts[1], counts[2]
        )),
    };
    let opts = BuildOptions {
        dir: root,
        pieces,
        threads,
        only,
    };
    let dir = build::<R>(v, &opts, &on_event).map_err(fail)?;
    bar.finish_and_clear();
    let slices = list_slices(&dir);
    let size: u64 = slices
        .iter()
        .filter_map(|(_, p)| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    println!(
        "built variant={} pieces={pieces} dir={} slices={} bytes={size} time={:.2}s",
        v.name(),
        dir.display(),
        slices.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_probe<R: Rules>(v: Variant, root: PathBuf, fen: &str) -> Result<(), EgdbCliError> {
    let pos = parse_fen::<R>(fen).map_err(fail)?;
    let db = Egdb::<R>::new(&root, v, egdb::index::MAX_PIECES as u32);
    let m = egdb::Material::of(&pos);
    let value = match db.probe_checked(&pos).map_err(fail)? {
        Some(v) => v,
        None => {
            return Err(fail(format!(
                "the position ({m}) is beyond the tables ({} pieces at most, no parachutists)",
                egdb::index::MAX_PIECES
            )))
        }
    };
    let plies = |p: &Position<R>| match db.probe_distance(p) {
        Some((_, Some(d))) => format!(" plies={d}"),
        _ => String::new(),
    };
    println!("material={m} side={}", pos.side_to_move().name());
    for mv in pos.legal_moves() {
        let after = pos.after(&mv);
        match db.probe_checked(&after) {
            Ok(Some(w)) => println!(
                "move {} result={}{}",
                move_text::<R>(&mv),
                w.flip(),
                plies(&after)
            ),
            Ok(None) => println!("move {} result=unknown", move_text::<R>(&mv)),
            Err(e) => return Err(fail(e)),
        }
    }
    let here = plies(&pos);
    if !here.is_empty() {
        println!("distance{here}");
    }
    for e in db.take_errors() {
        eprintln!("warning: {e}");
    }
    println!("result={value}");
    Ok(())
}

/// What `egdb sample` looks for.
struct Wanted {
    pieces: u32,
    value: egdb::Value,
    count: usize,
    seed: u64,
    min_plies: u8,
}

fn run_sample<R: Rules>(v: Variant, root: PathBuf, want: &Wanted) -> Result<(), EgdbCliError> {
    let dir = variant_dir(&root, v);
    let slices: Vec<egdb::Material> = list_slices(&dir)
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| {
            m.total() == want.pieces && m.pieces(Color::White) > 0 && m.pieces(Color::Black) > 0
        })
        .collect();
    if slices.is_empty() {
        return Err(fail(format!(
            "no tables of {} pieces in '{}' (damas egdb build --variant {} --pieces {})",
            want.pieces,
            dir.display(),
            v.name(),
            want.pieces
        )));
    }
    let db = Egdb::<R>::new(&root, v, want.pieces);
    let indexers: Vec<egdb::Indexer<R>> = slices.iter().map(|&m| egdb::Indexer::new(m)).collect();
    let mut rng = StdRng::seed_from_u64(want.seed);
    let mut seen = HashSet::new();
    let mut captures = Vec::new();
    // Each try picks a slice, then a position in it: every material split is as likely.
    let tries = want.count.saturating_mul(100_000);
    for _ in 0..tries {
        if seen.len() == want.count {
            break;
        }
        let k = rng.gen_range(0..slices.len());
        let i = rng.gen_range(0..indexers[k].len());
        let Some(pos) = indexers[k].position(i) else {
            continue;
        };
        captures.clear();
        pos.generate_legal_captures(&mut captures, Convention::Drop);
        if !captures.is_empty() || pos.legal_moves().is_empty() {
            continue;
        }
        let Some((value, plies)) = db.probe_distance(&pos) else {
            return Err(fail(db.take_errors().first().map_or_else(
                || format!("cannot read the {} table", slices[k]),
                |e| e.to_string(),
            )));
        };
        if value != want.value || plies.is_some_and(|p| p < want.min_plies) {
            continue;
        }
        if seen.insert((k, i)) {
            let plies = plies.map_or("?".to_string(), |p| p.to_string());
            println!("{} {} {value} plies={plies}", write_fen(&pos), slices[k]);
        }
    }
    if seen.len() < want.count {
        return Err(fail(format!(
            "found only {} of the {} positions asked for in {tries} tries",
            seen.len(),
            want.count
        )));
    }
    Ok(())
}

fn run_stats(v: Variant, root: PathBuf) -> Result<(), EgdbCliError> {
    let dir = variant_dir(&root, v);
    let slices = list_slices(&dir);
    if slices.is_empty() {
        return Err(fail(format!("no endgame tables in '{}'", dir.display())));
    }
    let mut sum = [0u64; 4];
    let mut bytes = 0;
    for (m, path) in &slices {
        let h = egdb::file::read_file_header(path).map_err(fail)?;
        if h.variant != v.key() {
            return Err(fail(egdb::EgdbError::WrongVariant {
                path: path.clone(),
                found: h.variant,
                expected: v.key(),
            }));
        }
        let size = std::fs::metadata(path).map_or(0, |x| x.len());
        bytes += size;
        for (s, c) in sum.iter_mut().zip(h.counts) {
            *s += c;
        }
        println!(
            "{m} positions={} win={} draw={} loss={} bytes={size}",
            h.counts[0] + h.counts[1] + h.counts[2],
            h.counts[0],
            h.counts[1],
            h.counts[2]
        );
    }
    println!(
        "total slices={} positions={} win={} draw={} loss={} bytes={bytes}",
        slices.len(),
        sum[0] + sum[1] + sum[2],
        sum[0],
        sum[1],
        sum[2]
    );
    Ok(())
}

fn run_verify<R: Rules>(v: Variant, root: PathBuf, threads: usize) -> Result<(), EgdbCliError> {
    let dir = variant_dir(&root, v);
    if list_slices(&dir).is_empty() {
        return Err(fail(format!("no endgame tables in '{}'", dir.display())));
    }
    let reports = verify::<R>(&root, v, threads, &mut |r| {
        let distances = if r.distances {
            format!(" distance_mismatches={}", r.distance_mismatches)
        } else {
            " distances=none".to_string()
        };
        println!(
            "{} positions={} mismatches={}{distances} time={:.2}s",
            r.material, r.positions, r.mismatches, r.seconds
        );
    })
    .map_err(fail)?;
    let bad: u64 = reports.iter().map(|r| r.mismatches).sum();
    let bad_distance: u64 = reports.iter().map(|r| r.distance_mismatches).sum();
    let positions: u64 = reports.iter().map(|r| r.positions).sum();
    let with = reports.iter().filter(|r| r.distances).count();
    println!(
        "verify slices={} positions={positions} with_distances={with} distance_mismatches={bad_distance} mismatches={bad}",
        reports.len()
    );
    if let Some(first) = reports.iter().find(|r| r.mismatches > 0) {
        return Err(fail(format!(
            "{bad} stored values contradict their successors (first in {} at index {})",
            first.material, first.first[0]
        )));
    }
    if let Some(first) = reports.iter().find(|r| r.distance_mismatches > 0) {
        return Err(fail(format!(
            "{bad_distance} stored distances contradict their successors (first in {} at index {})",
            first.material, first.first_distance[0]
        )));
    }
    Ok(())
}
