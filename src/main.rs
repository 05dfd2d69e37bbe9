//! The `damas` command line.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use damas::notation::{move_text, parse_fen, parse_move, write_board_string, write_fen};
use damas::perft::{divide, perft};
use damas::position::Position;
use damas::{with_rules, Convention, Rules, Variant};

#[derive(Parser)]
#[command(
    name = "damas",
    version,
    about = "A checkers/draughts engine for many variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
    /// Count the move paths of a given depth.
    Perft {
        #[arg(long, default_value = "english")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        #[arg(long)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Count every capture order apart ("keep duplicates").
        #[arg(long)]
        paths: bool,
        /// Worker threads for the root split (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long = "option")]
        options: Vec<String>,
    },
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

fn load<R: Rules>(fen: Option<&str>, moves: Option<&str>) -> Result<Position<R>, Failure> {
    let mut pos = match fen {
        Some(f) => parse_fen::<R>(f)?,
        None => Position::<R>::start(),
    };
    for text in moves.unwrap_or("").split_whitespace() {
        let m = parse_move(&pos, text).map_err(|e| {
            let legal: Vec<String> = pos.legal_moves().iter().map(move_text::<R>).collect();
            Failure(format!("{e}; legal moves: {}", legal.join(" ")))
        })?;
        pos.play(&m);
    }
    Ok(pos)
}

fn show<R: Rules>(pos: &Position<R>) -> String {
    use damas::geometry::Geometry;
    let l = R::G::LAYOUT;
    let mut s = String::new();
    for rank in (0..l.height as i32).rev() {
        s.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..l.width as i32 {
            // Mirrored numberings show the board as their players see it.
            let f = if matches!(
                R::NUMBERING,
                damas::rules::Numbering::Italian | damas::rules::Numbering::Portuguese
            ) {
                l.width as i32 - 1 - file
            } else {
                file
            };
            let c = match R::G::square_at(f, rank) {
                None => ' ',
                Some(sq) => pos.piece_at(sq).map_or('.', |p| p.to_char()),
            };
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
    }
    s.push_str("    ");
    for file in 0..l.width {
        s.push(' ');
        s.push((b'a' + file) as char);
    }
    s.push('\n');
    s
}

fn run_show<R: Rules>(fen: Option<&str>, moves: Option<&str>) -> Result<(), Failure> {
    let pos = load::<R>(fen, moves)?;
    print!("{}", show(&pos));
    println!("fen: {}", write_fen(&pos));
    println!("board: {}", write_board_string(&pos));
    println!("to move: {}", pos.side_to_move().name());
    let moves: Vec<String> = pos.legal_moves().iter().map(move_text::<R>).collect();
    println!("legal moves ({}): {}", moves.len(), moves.join(" "));
    Ok(())
}

fn run_perft<R: Rules>(
    fen: Option<&str>,
    depth: u32,
    show_divide: bool,
    convention: Convention,
) -> Result<(), Failure> {
    let pos = load::<R>(fen, None)?;
    let start = Instant::now();
    let nodes = if depth == 0 {
        1
    } else if show_divide || rayon::current_num_threads() > 1 {
        // Progress on stderr once a run has taken more than a second.
        let report = |done: usize, all: usize| {
            let t = start.elapsed().as_secs_f64();
            if t > 1.0 {
                eprintln!("perft: {done}/{all} root moves done, {t:.1} s");
            }
        };
        let mut parts = divide(&pos, depth, convention, &report);
        if show_divide {
            parts.sort_by_key(|(m, _)| move_text::<R>(m));
            let mut out = std::io::stdout().lock();
            for (m, n) in &parts {
                let _ = writeln!(out, "{} {}", move_text::<R>(m), n);
            }
        }
        parts.iter().map(|(_, n)| n).sum()
    } else {
        perft(&pos, depth, convention)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("nodes={nodes} time={secs:.3} nps={nps}");
    Ok(())
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
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
            with_rules!(v, R => run_show::<R>(fen.as_deref(), moves.as_deref()))
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
                    .num_threads(n.max(1))
                    .build_global()
                    .map_err(|e| Failure(e.to_string()))?;
            }
            let conv = if paths {
                Convention::Keep
            } else {
                Convention::Drop
            };
            with_rules!(v, R => run_perft::<R>(fen.as_deref(), depth, divide, conv))
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("damas: {msg}");
            ExitCode::from(2)
        }
    }
}
