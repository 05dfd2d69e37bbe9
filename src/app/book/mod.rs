//! `damas book …`: build and inspect opening books.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

pub mod build;

use crate::app::args;
use crate::core::notation::{move_text, write_fen};
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::engine::book::{shipped, Book};
use crate::engine::{line, score_text, DEFAULT_BOOK_MARGIN};
use crate::search::eval::Score;
use crate::search::limits::Limits;
use crate::with_rules;
use build::{build, BuildSettings, Progress};

/// Arguments of `damas book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The book commands.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book by searching (drop-out expansion); re-running with the same --out resumes.
    Build(BuildArgs),
    /// Print the book moves of a position, with score and weight.
    Show(ShowArgs),
}

/// Arguments of `damas book build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The variant, by name or alias (`damas variants`).
    #[arg(long)]
    pub variant: String,
    /// Book moves go this many plies deep from the start.
    #[arg(long, default_value = "8", value_parser = args::book_plies)]
    pub plies: u32,
    /// Search each position to this depth (the default, 12, when --nodes is not given).
    #[arg(long, conflicts_with = "nodes", value_parser = args::depth)]
    pub depth: Option<u32>,
    /// Search each position this many nodes.
    #[arg(long, value_parser = args::nodes)]
    pub nodes: Option<u64>,
    /// Positions searched at once (default: the core count).
    #[arg(long, value_parser = args::threads)]
    pub threads: Option<usize>,
    /// Moves within this many men of the best are book moves, and are expanded.
    #[arg(long, default_value = "0.2", value_parser = args::book_margin)]
    pub margin: f64,
    /// A line drops out of the book when its moves gave away more than this many men in
    /// all (default: the margin).
    #[arg(long, value_parser = args::book_margin)]
    pub drop_out: Option<f64>,
    /// Hash table per worker, in MB.
    #[arg(long, default_value = "16", value_parser = args::hash_mb)]
    pub hash: usize,
    /// Where to write the book; an existing file there is resumed.
    #[arg(long)]
    pub out: PathBuf,
    /// Ignore an existing --out file and build from scratch.
    #[arg(long)]
    pub fresh: bool,
}

/// Arguments of `damas book show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The variant, by name or alias (`damas variants`).
    #[arg(long, default_value = "english")]
    pub variant: String,
    /// PDN FEN of the position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position first, blank-separated.
    #[arg(long)]
    pub moves: Option<String>,
    /// Read this book file instead of the shipped book.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Mark the moves the engine may play with this margin (men).
    #[arg(long, default_value_t = DEFAULT_BOOK_MARGIN, value_parser = args::book_margin)]
    pub margin: f64,
}

/// A failure of a book command, shown on one line.
#[derive(Debug)]
pub struct BookCliError(String);

impl std::fmt::Display for BookCliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BookCliError {}

fn fail(e: impl std::fmt::Display) -> BookCliError {
    BookCliError(e.to_string())
}

/// Run a book command.
pub fn run(args: BookArgs) -> Result<(), BookCliError> {
    match args.command {
        BookCommand::Build(a) => run_build(&a),
        BookCommand::Show(a) => run_show(&a),
    }
}

/// Men (already checked against the shared limits) as hundredths.
fn margin_centi(men: f64) -> Score {
    (men * 100.0).round() as Score
}

fn run_build(a: &BuildArgs) -> Result<(), BookCliError> {
    let variant = Variant::from_name(&a.variant).map_err(fail)?;
    let limits = match (a.depth, a.nodes) {
        (_, Some(n)) => Limits::nodes(n),
        (d, None) => Limits::depth(d.unwrap_or(12)),
    };
    let workers = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let settings = BuildSettings {
        variant,
        plies: a.plies,
        limits,
        workers,
        margin: margin_centi(a.margin),
        drop_out: margin_centi(a.drop_out.unwrap_or(a.margin)),
        hash_mb: a.hash,
    };
    // Fail now, not at the first checkpoint after minutes of searching.
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(fail(format!("no directory '{}' for --out", dir.display())));
        }
    }
    let resume = if a.out.exists() && !a.fresh {
        let b = Book::load(&a.out).map_err(|e| fail(format!("cannot resume: {e}")))?;
        eprintln!(
            "resuming {} ({} positions)",
            a.out.display(),
            b.entries().len()
        );
        Some(b)
    } else {
        None
    };
    let started = Instant::now();
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} searched, {elapsed_precise}, ETA {eta_precise}",
        )
        .map_err(fail)?
        .progress_chars("=> "),
    );
    // Without a terminal the bar draws nothing: a plain line now and then instead.
    let plain = !std::io::stderr().is_terminal();
    let mut last_line = Instant::now();
    let mut on_progress = |p: &Progress| {
        bar.set_length(p.expected_searches.max(p.searched) as u64);
        bar.set_position(p.searched as u64);
        bar.set_message(format!("ply {}/{}", p.ply + 1, p.plies));
        if plain && (last_line.elapsed() >= Duration::from_secs(15) || p.left_in_ply == 0) {
            last_line = Instant::now();
            let t = started.elapsed().as_secs_f64();
            let eta = if p.searched > 0 {
                t / p.searched as f64 * p.expected_searches.saturating_sub(p.searched) as f64
            } else {
                0.0
            };
            eprintln!(
                "ply {}/{}: {} searched, {} reused, {} left at this ply, about {} in all; {:.0} s, ETA {:.0} s",
                p.ply + 1,
                p.plies,
                p.searched,
                p.reused,
                p.left_in_ply,
                p.expected_searches,
                t,
                eta
            );
        }
    };
    let out = a.out.clone();
    let mut save = |b: &Book| write_atomically(&out, &b.write());
    let book = build(
        &settings,
        resume,
        Duration::from_secs(30),
        &mut on_progress,
        &mut save,
    )
    .map_err(fail)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let moves: usize = book.entries().iter().map(|e| e.moves.len()).sum();
    let bytes = std::fs::metadata(&a.out).map(|m| m.len()).unwrap_or(0);
    println!(
        "book variant={} positions={} moves={} bytes={} time={:.1}s out={}",
        variant.name(),
        book.entries().len(),
        moves,
        bytes,
        secs,
        a.out.display()
    );
    Ok(())
}

/// Write through a temporary file and a rename, so an interrupted build leaves a whole book.
fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn run_show(a: &ShowArgs) -> Result<(), BookCliError> {
    let variant = Variant::from_name(&a.variant).map_err(fail)?;
    let margin = margin_centi(a.margin);
    let loaded;
    let book = match &a.file {
        Some(path) => {
            loaded = Book::load(path).map_err(fail)?;
            if loaded.variant() != variant {
                return Err(fail(format!(
                    "{} is a book for {}, not for {}",
                    path.display(),
                    loaded.variant(),
                    variant
                )));
            }
            Some(&loaded)
        }
        None => shipped(variant),
    };
    with_rules!(variant, R => show_in::<R>(book, a, margin))
}

fn show_in<R: Rules>(book: Option<&Book>, a: &ShowArgs, margin: Score) -> Result<(), BookCliError> {
    let start = a
        .fen
        .as_deref()
        .map_or(crate::engine::Start::Initial, crate::engine::Start::Fen);
    let moves: Vec<&str> = a
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let game = line::<R, &str>(start, &moves, R::DRAW).map_err(fail)?;
    let pos = game.position();
    println!("fen: {}", write_fen(pos));
    let Some(book) = book else {
        println!("no book for {}", R::NAME);
        return Ok(());
    };
    let Some(entry) = book.lookup(pos) else {
        println!("not in the book ({} positions)", book.entries().len());
        return Ok(());
    };
    let best = entry
        .moves
        .iter()
        .filter(|m| m.weight > 0)
        .map(|m| m.score)
        .max();
    println!("book moves ({}):", entry.moves.len());
    for m in &entry.moves {
        let playable = m.weight > 0 && best.is_some_and(|b| m.score >= b - margin);
        let legal = crate::core::notation::parse_move(pos, &m.text)
            .map(|mv| move_text::<R>(&mv))
            .unwrap_or_else(|_| m.text.clone());
        println!(
            "  {:<12} {:>7} weight {:>3}{}",
            legal,
            score_text(m.score),
            m.weight,
            if playable { "  *" } else { "" }
        );
    }
    println!(
        "* may be played with book-margin {:.2}",
        margin as f64 / 100.0
    );
    Ok(())
}
