//! The `damas` command line.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use damas::app::args;
use damas::app::bench;
use damas::app::inspect;
use damas::app::play;
use damas::engine::{Engine, Start};
use damas::search::limits::Limits;
use damas::search::Control;
use damas::{Convention, Variant};

#[derive(Parser)]
#[command(
    name = "damas",
    version,
    about = "A checkers/draughts engine for many variants"
)]
struct Cli {
    /// With no command, speak the Hub protocol on stdin/stdout.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Hub protocol on stdin/stdout (what GUIs and pydraughts' HubEngine run).
    Hub {
        /// Write the whole dialogue, with timestamps, to this file.
        #[arg(long)]
        log: Option<std::path::PathBuf>,
    },
    /// List the variants, one per line.
    Variants {
        /// Also print each variant's options and rule assumptions.
        #[arg(long)]
        verbose: bool,
    },
    /// Show a position as text, with its legal moves.
    Show {
        #[arg(long, default_value = "english")]
        variant: String,
        /// PDN FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first, blank-separated.
        #[arg(long)]
        moves: Option<String>,
        /// Variant option, `name=value` (e.g. `mandatory-capture=false`); may repeat.
        #[arg(long = "option")]
        options: Vec<String>,
    },
    /// Search a position, printing protocol `info` lines, then `done move=M ponder=P`.
    #[command(alias = "analyze")]
    Analyse {
        #[arg(long, default_value = "english")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        #[arg(long)]
        moves: Option<String>,
        #[command(flatten)]
        search: SearchArgs,
        /// Report this many best lines.
        #[arg(long, default_value = "1", value_parser = args::multipv)]
        multipv: usize,
        #[arg(long = "option")]
        options: Vec<String>,
        /// Probe the endgame tables in positions of up to this many pieces (0: off).
        #[arg(long, default_value = "0", value_parser = args::egdb_probe_pieces)]
        egdb_pieces: u32,
        /// The endgame tables' root directory (default: as `damas egdb`).
        #[arg(long)]
        egdb_path: Option<std::path::PathBuf>,
    },
    /// Search fixed positions to fixed depths (one thread): a reproducible node count and speed.
    Bench,
    /// Play a game against the engine at the terminal.
    Play {
        #[arg(long, default_value = "english")]
        variant: String,
        /// Start from this PDN FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// The side you play: `white`, `black`, or `none` to watch the engine play itself.
        #[arg(long, default_value = "first")]
        side: String,
        /// Engine seconds per move.
        #[arg(long, default_value = "2", value_parser = args::move_time)]
        movetime: Duration,
        #[arg(long, default_value = "1", value_parser = args::threads)]
        threads: usize,
        #[arg(long, default_value = "64", value_parser = args::hash_mb)]
        hash: usize,
        /// Write the game to this PDN file when it ends.
        #[arg(long)]
        pdn: Option<std::path::PathBuf>,
        /// Search every move instead of playing from the opening book.
        #[arg(long)]
        no_book: bool,
        #[arg(long = "option")]
        options: Vec<String>,
    },
    /// Build or inspect an opening book.
    Book(damas::app::book::BookArgs),
    /// Build, probe, count and verify endgame tables (exact win/draw/loss).
    Egdb(damas::app::egdb::EgdbArgs),
    /// Play engines against each other over the Hub protocol (and DXP).
    Match(damas::app::tournament::cli::MatchArgs),
    /// Play International games over the DamExchange Protocol (TCP), as a follower: wait for
    /// an initiator (`--listen`, the default) or connect to one (`--connect`).
    Dxp(damas::app::dxp::DxpArgs),
    /// Serve a board in the browser (on loopback): play and analyse any variant.
    Gui(damas::app::gui::GuiArgs),
    /// Play the engine against itself and record every position, for `damas train`.
    Selfplay(damas::app::selfplay::SelfplayArgs),
    /// Fit the trained evaluation's weights to self-play data.
    Train(damas::app::train::TrainArgs),
    /// Print a position's static evaluation and its main terms.
    Eval {
        #[arg(long, default_value = "english")]
        variant: String,
        /// PDN FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Weights to use instead of the shipped ones.
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
        #[arg(long = "option")]
        options: Vec<String>,
    },
    /// Count the move paths of a given depth.
    Perft {
        #[arg(long, default_value = "english")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, value_parser = args::perft_depth)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Count every capture order apart ("keep duplicates").
        #[arg(long)]
        paths: bool,
        /// Worker threads for the root split (default: all cores).
        #[arg(long, value_parser = args::threads)]
        threads: Option<usize>,
        #[arg(long = "option")]
        options: Vec<String>,
    },
}

#[derive(clap::Args)]
struct SearchArgs {
    /// Search to this depth (plies).
    #[arg(long, value_parser = args::depth)]
    depth: Option<u32>,
    /// Search this many seconds (decimals allowed).
    #[arg(long, value_parser = args::move_time)]
    movetime: Option<Duration>,
    /// Search this many nodes.
    #[arg(long, value_parser = args::nodes)]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value = "1", value_parser = args::threads)]
    threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value = "64", value_parser = args::hash_mb)]
    hash: usize,
}

impl SearchArgs {
    /// The limits asked for; five seconds when none is given.
    fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            move_time: self.movetime,
            ..Limits::default()
        };
        if l.depth.is_none() && l.nodes.is_none() && l.move_time.is_none() {
            l.move_time = Some(Duration::from_secs(5));
        }
        l
    }
}

/// A user-facing failure: one line on stderr, exit code 2.
struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

fn variant_with_options(name: &str, options: &[String]) -> Result<Variant, Failure> {
    let mut v = Variant::from_name(name)?;
    for o in options {
        let (k, val) = o
            .split_once('=')
            .ok_or_else(|| Failure(format!("option '{o}' is not name=value")))?;
        v = v.with_option(k.trim(), val.trim())?;
    }
    Ok(v)
}

fn run_analyse(
    variant: Variant,
    fen: Option<&str>,
    moves: Option<&str>,
    search: &SearchArgs,
    multipv: usize,
    (egdb_pieces, egdb_path): (u32, Option<std::path::PathBuf>),
) -> Result<(), Failure> {
    let limits = search.limits();
    let mut engine = Engine::new(search.hash);
    engine.egdb_pieces = egdb_pieces;
    engine.egdb_path = egdb_path;
    // Allocate the table now: a size the machine cannot give is one line and exit code 2.
    engine.set_hash(engine.hash_mb())?;
    engine.threads = search.threads;
    engine.multipv = multipv;
    // Analysis shows what the search thinks, never a book move.
    engine.book = false;
    let moves: Vec<&str> = moves.unwrap_or("").split_whitespace().collect();
    let start = fen.map_or(Start::Initial, Start::Fen);
    let control = Control::new(false);
    let mut out = std::io::stdout().lock();
    let done = engine.think(variant, start, &moves, limits, &control, &mut |i| {
        let _ = writeln!(out, "{}", i.hub_line());
    })?;
    if let Some(r) = engine.table_result(variant, start, &moves) {
        println!("egdb result={r}");
    }
    for e in engine.take_table_errors() {
        eprintln!("damas: warning: {e}");
    }
    let mut line = format!("done move={}", done.best);
    if let Some(p) = &done.ponder {
        line.push_str(&format!(" ponder={p}"));
    }
    println!("{line}");
    Ok(())
}

fn run_bench() {
    let mut out = std::io::stdout().lock();
    let (nodes, time) = bench::run(&mut |b| {
        let _ = writeln!(
            out,
            "{:<14} {:<10} depth {:>2}  nodes {:>10}  time {:>7.3}  best {}",
            b.variant.name(),
            if b.fen.is_some() { "position" } else { "start" },
            b.depth,
            b.nodes,
            b.time.as_secs_f64(),
            b.best
        );
    });
    let secs = time.as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    let _ = writeln!(out, "bench nodes={nodes} time={secs:.3} nps={nps}");
}

fn run_hub(log: Option<&std::path::Path>) -> Result<(), Failure> {
    let file = match log {
        Some(p) => Some(
            std::fs::File::create(p)
                .map_err(|e| Failure(format!("cannot create log '{}': {e}", p.display())))?,
        ),
        None => None,
    };
    damas::app::hub::run(file)?;
    Ok(())
}

fn run(cli: Cli) -> Result<(), Failure> {
    let Some(command) = cli.command else {
        return run_hub(None);
    };
    match command {
        Command::Hub { log } => run_hub(log.as_deref()),
        Command::Book(args) => Ok(damas::app::book::run(args)?),
        Command::Egdb(args) => Ok(damas::app::egdb::run(args)?),
        Command::Match(args) => Ok(damas::app::tournament::cli::run(args)?),
        Command::Dxp(args) => Ok(damas::app::dxp::run(args)?),
        Command::Gui(args) => Ok(damas::app::gui::run(args)?),
        Command::Selfplay(args) => {
            damas::app::selfplay::run(args).map_err(|e| Failure(e.to_string()))
        }
        Command::Train(args) => damas::app::train::run(args).map_err(|e| Failure(e.to_string())),
        Command::Eval {
            variant,
            fen,
            eval_file,
            options,
        } => {
            let v = variant_with_options(&variant, &options)?;
            let mut engine = Engine::new(1);
            if let Some(path) = &eval_file {
                engine
                    .load_eval_file(v, path)
                    .map_err(|e| Failure(e.to_string()))?;
            }
            let weights = eval_file.is_some().then(|| engine.weights_for(v)).flatten();
            let text = damas::app::train::eval(v, fen.as_deref(), weights)
                .map_err(|e| Failure(e.to_string()))?;
            print!("{text}");
            Ok(())
        }
        Command::Analyse {
            variant,
            fen,
            moves,
            search,
            multipv,
            options,
            egdb_pieces,
            egdb_path,
        } => {
            let v = variant_with_options(&variant, &options)?;
            let tables = (egdb_pieces, egdb_path);
            run_analyse(
                v,
                fen.as_deref(),
                moves.as_deref(),
                &search,
                multipv,
                tables,
            )
        }
        Command::Bench => {
            run_bench();
            Ok(())
        }
        Command::Play {
            variant,
            fen,
            side,
            movetime,
            threads,
            hash,
            pdn,
            no_book,
            options,
        } => {
            let v = variant_with_options(&variant, &options)?;
            let settings = play::Settings {
                variant: v,
                fen,
                side,
                move_time: movetime,
                threads,
                hash,
                pdn,
                book: !no_book,
            };
            play::run_variant(
                &settings,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout(),
            )
            .map_err(|e| Failure(e.to_string()))
        }
        Command::Variants { verbose } => {
            for &v in Variant::ALL {
                println!("{:<14} {}", v.name(), v.summary());
                if verbose {
                    for (name, value) in v.options() {
                        println!("{:<14}   option {name} (default {value})", "");
                    }
                    for a in v.assumptions() {
                        println!("{:<14}   assumption: {a}", "");
                    }
                }
            }
            Ok(())
        }
        Command::Show {
            variant,
            fen,
            moves,
            options,
        } => {
            let v = variant_with_options(&variant, &options)?;
            Ok(inspect::show(v, fen.as_deref(), moves.as_deref())?)
        }
        Command::Perft {
            variant,
            fen,
            depth,
            divide,
            paths,
            threads,
            options,
        } => {
            let v = variant_with_options(&variant, &options)?;
            if let Some(n) = threads {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build_global()
                    .map_err(|e| Failure(e.to_string()))?;
            }
            let conv = if paths {
                Convention::Keep
            } else {
                Convention::Drop
            };
            Ok(inspect::perft(v, fen.as_deref(), depth, divide, conv)?)
        }
    }
}

/// Read the command line. Help and version print in full; every mistake is one line
/// naming the option (and its accepted range), as every other failure is.
fn parse_command_line() -> Result<Cli, ExitCode> {
    let command = args::negative_numbers_as_values(Cli::command());
    let parsed = command
        .try_get_matches()
        .and_then(|mut m| Cli::from_arg_matches_mut(&mut m));
    parsed.map_err(|e| {
        if !e.use_stderr() {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        eprintln!("damas: {} (see damas --help)", usage_error_line(&e));
        ExitCode::from(2)
    })
}

/// Clap's message on one line: its first paragraph (the error and, for missing
/// arguments, their names), without the `error: ` prefix, tips and usage.
fn usage_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let line = first.join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).to_string()
}

fn main() -> ExitCode {
    let cli = match parse_command_line() {
        Ok(c) => c,
        Err(code) => return code,
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("damas: {msg}");
            ExitCode::from(2)
        }
    }
}
