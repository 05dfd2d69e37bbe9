//! `damas match …`: play engines against each other.

use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::ballot::OpeningSet;
use super::shard::{self, Header};
use super::spec::{split_words, Level, PlayerSpec, SpecError};
use super::stats::{plus_minus, signed, Sprt, Tally};
use super::{run_match, DrawAdjudication, Event, GameReport, MatchConfig, MatchError, Standings};
use crate::app::args;
use crate::core::variant::Variant;

/// Arguments of `damas match`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// The variant played.
    #[arg(long, default_value = "english")]
    pub variant: String,
    /// Damas itself with its settings: `"name=A depth=12 book=false hash=64 threads=1"`
    /// (keys other than name, depth, nodes and movetime are sent as `set-param`); may repeat.
    #[arg(long = "player")]
    pub players: Vec<String>,
    /// An external Hub engine: `"name=X cmd='program args…'"` plus settings as for
    /// `--player`; or a DXP program: `"name=X dxp=HOST:PORT"` (already listening), with
    /// `cmd='…' [dir=…]` to start it first; may repeat.
    #[arg(long = "engine")]
    pub engines: Vec<String>,
    /// Seconds per move.
    #[arg(long, value_parser = args::move_time)]
    pub movetime: Option<Duration>,
    /// Seconds on each clock at the start of a game.
    #[arg(long, value_parser = args::seconds)]
    pub time: Option<Duration>,
    /// Seconds added to a clock after each move.
    #[arg(long, default_value = "0", value_parser = args::seconds)]
    pub inc: Duration,
    /// Moves per time control: after each N moves `--time` is added again (0: the time is
    /// for the whole game). DXP players get it in their game request.
    #[arg(long, default_value = "0")]
    pub moves: u32,
    /// Search depth per move.
    #[arg(long, value_parser = args::depth)]
    pub depth: Option<u32>,
    /// Nodes per move.
    #[arg(long, value_parser = args::nodes)]
    pub nodes: Option<u64>,
    /// `english-3move`, `english-2move`, `random:N` (N random plies, balanced), `none` or
    /// `fen:FILE` (a PDN FEN a line, optionally followed by a label; `#` comments) (default:
    /// english-3move for English, random:8 otherwise).
    #[arg(long)]
    pub openings: Option<String>,
    /// Games per pair of players (each opening is played twice, colours swapped).
    #[arg(long, default_value = "2", value_parser = args::games)]
    pub games: usize,
    /// Games played at once (default: the number of cores).
    #[arg(long, value_parser = args::threads)]
    pub concurrency: Option<usize>,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value = "300", value_parser = args::max_plies)]
    pub max_plies: usize,
    /// Seconds an engine may run over its move time or clock before it counts as hung.
    #[arg(long, default_value = "1", value_parser = args::seconds)]
    pub grace: Duration,
    /// Seconds an engine may take over a depth- or node-limited move.
    #[arg(long, default_value = "60", value_parser = args::seconds)]
    pub move_timeout: Duration,
    /// Write every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Seed for the opening order and random openings.
    #[arg(long, default_value = "1", value_parser = args::seed)]
    pub seed: u64,
    /// Stop early: `"elo0=0 elo1=10 [alpha=0.05 beta=0.05]"`.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Draw a game early: `"after=P plies=N score=S"` — from ply P on, once the scores both
    /// engines reported for the last N plies all lie within ±S men.
    #[arg(long)]
    pub adjudicate_draw: Option<String>,
    /// The PDN `Event` tag.
    #[arg(long, default_value = "Damas match")]
    pub event: String,
    /// `I/N`: play only part I of N of the match (games I+1, I+1+N, …, with the openings
    /// and colours the whole match gives them); the SPRT is left to `match merge`.
    #[arg(long, default_value = "0/1", value_parser = args::shard)]
    pub shard: (usize, usize),
    /// Write each game's result and record to this file as it ends, for `match merge`;
    /// a run with the same `--out` resumes after the games it already holds.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `damas match merge`.
#[derive(clap::Subcommand, Debug)]
pub enum MatchCommand {
    /// Merge the result files of a match's parts (`--shard I/N --out FILE`) into the
    /// summary, result line and SPRT state the whole match prints.
    Merge {
        /// The parts' result files, one for each of 0/N … N-1/N.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the games, in match order, to this PDN file.
        #[arg(long)]
        pdn: Option<PathBuf>,
    },
}

/// A failure of the match command, shown on one line.
#[derive(Debug)]
pub enum MatchCliError {
    Spec(SpecError),
    /// A bad option value.
    Usage(String),
    Match(MatchError),
    Io(String),
}

impl fmt::Display for MatchCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchCliError::Spec(e) => write!(f, "{e}"),
            MatchCliError::Usage(e) => write!(f, "{e}"),
            MatchCliError::Match(e) => write!(f, "{e}"),
            MatchCliError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MatchCliError {}

impl From<SpecError> for MatchCliError {
    fn from(e: SpecError) -> Self {
        MatchCliError::Spec(e)
    }
}

impl From<MatchError> for MatchCliError {
    fn from(e: MatchError) -> Self {
        MatchCliError::Match(e)
    }
}

fn usage(text: String) -> MatchCliError {
    MatchCliError::Usage(text)
}

/// The `key=number` words of an option's value, in order; numbers must be finite.
fn numeric_pairs(option: &str, text: &str) -> Result<Vec<(String, f64)>, MatchCliError> {
    split_words(text)?
        .into_iter()
        .map(|word| {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| usage(format!("{option}: '{word}' is not key=value")))?;
            let x = value
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| usage(format!("{option}: bad value '{value}' for {key}")))?;
            Ok((key.to_string(), x))
        })
        .collect()
}

/// Read `after=P plies=N score=S` (all three needed).
pub fn parse_draw_adjudication(text: &str) -> Result<DrawAdjudication, MatchCliError> {
    let (mut after, mut plies, mut score) = (None, None, None);
    let count = |x: f64| (x >= 0.0 && x.fract() == 0.0 && x <= 1e9).then_some(x as usize);
    for (key, x) in numeric_pairs("--adjudicate-draw", text)? {
        match key.as_str() {
            "after" => after = count(x),
            "plies" => plies = count(x),
            "score" => score = (x >= 0.0).then_some(x),
            _ => return Err(usage(format!("--adjudicate-draw: unknown key '{key}'"))),
        }
    }
    match (after, plies, score) {
        (Some(after), Some(plies), Some(score)) if plies >= 2 => Ok(DrawAdjudication {
            after,
            plies,
            score,
        }),
        _ => Err(usage(
            "--adjudicate-draw needs whole after=P and plies=N (N at least 2), and score=S at least 0".into(),
        )),
    }
}

/// Read `elo0=… elo1=… [alpha=… beta=…]`.
pub fn parse_sprt(text: &str) -> Result<Sprt, MatchCliError> {
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
    };
    for (key, x) in numeric_pairs("--sprt", text)? {
        match key.as_str() {
            "elo0" => sprt.elo0 = x,
            "elo1" => sprt.elo1 = x,
            "alpha" => sprt.alpha = x,
            "beta" => sprt.beta = x,
            _ => return Err(usage(format!("--sprt: unknown key '{key}'"))),
        }
    }
    if sprt.elo0.is_nan() || sprt.elo1.is_nan() || sprt.elo0 >= sprt.elo1 {
        return Err(usage("--sprt needs elo0=… elo1=… with elo0 < elo1".into()));
    }
    if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
        return Err(usage(
            "--sprt: alpha and beta must lie between 0 and 0.5".into(),
        ));
    }
    Ok(sprt)
}

/// The match a command line asks for.
pub fn config_from(args: &MatchArgs) -> Result<MatchConfig, MatchCliError> {
    let variant = Variant::from_name(&args.variant).map_err(|e| usage(e.to_string()))?;
    let exe = std::env::current_exe()
        .map_err(|e| MatchCliError::Io(format!("cannot find the damas program: {e}")))?;
    let damas = vec![exe.to_string_lossy().into_owned(), "hub".to_string()];
    let mut players = Vec::new();
    for text in &args.players {
        players.push(PlayerSpec::parse(text, true, &damas, players.len())?);
    }
    for text in &args.engines {
        players.push(PlayerSpec::parse(text, false, &damas, players.len())?);
    }
    if players.len() < 2 {
        return Err(usage(
            "a match needs at least two players (--player, --engine)".into(),
        ));
    }
    for (i, p) in players.iter().enumerate() {
        if players[..i].iter().any(|q| q.name == p.name) {
            return Err(SpecError::DuplicateName(p.name.clone()).into());
        }
    }
    let limits = [
        args.movetime.is_some(),
        args.time.is_some(),
        args.depth.is_some(),
        args.nodes.is_some(),
    ];
    if limits.iter().filter(|&&b| b).count() > 1 {
        return Err(usage(
            "give one of --movetime, --time, --depth and --nodes".into(),
        ));
    }
    let level = if let Some(t) = args.movetime {
        Level::MoveTime(t)
    } else if let Some(t) = args.time {
        Level::Clock {
            time: t,
            increment: args.inc,
            moves: args.moves,
        }
    } else if let Some(d) = args.depth {
        Level::Depth(d)
    } else if let Some(n) = args.nodes {
        Level::Nodes(n)
    } else {
        Level::MoveTime(Duration::from_millis(100))
    };
    let openings = match &args.openings {
        Some(text) => OpeningSet::parse(text).map_err(|e| usage(e.to_string()))?,
        None => OpeningSet::default_for(variant),
    };
    // A DXP program plays one game at a time: one game at once unless told otherwise.
    let any_dxp = players.iter().any(|p| p.dxp.is_some());
    let concurrency = args.concurrency.unwrap_or_else(|| {
        if any_dxp {
            return 1;
        }
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let draw_adjudication = args
        .adjudicate_draw
        .as_deref()
        .map(parse_draw_adjudication)
        .transpose()?;
    Ok(MatchConfig {
        variant,
        players,
        level,
        openings,
        games: args.games,
        concurrency,
        max_plies: args.max_plies,
        grace: args.grace,
        move_timeout: args.move_timeout,
        seed: args.seed,
        sprt,
        draw_adjudication,
        event: args.event.clone(),
        shard: args.shard,
    })
}

/// A score as a percentage with one decimal (`81.5`).
pub fn percent(t: &Tally) -> String {
    t.score()
        .map_or("nan".to_string(), |s| format!("{:.1}", 100.0 * s))
}

/// The last line of a match, from the first player's side:
/// `result games=N wins=W draws=D losses=L score=81.5 elo=257.6 error=±70.8`.
pub fn result_line(t: &Tally) -> String {
    let (elo, error) = match t.elo() {
        Some(e) => {
            let elo = if e.elo.is_finite() {
                format!("{:.1}", e.elo)
            } else {
                signed(e.elo)
            };
            (elo, plus_minus(e.error))
        }
        None => ("nan".to_string(), "±nan".to_string()),
    };
    format!(
        "result games={} wins={} draws={} losses={} score={} elo={elo} error={error}",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        percent(t)
    )
}

fn progress_line(s: &Standings) -> String {
    let t = s.players[0];
    let mut line = format!(
        "games {}/{}  +{} ={} -{}  score {}%",
        s.played,
        s.scheduled,
        t.wins,
        t.draws,
        t.losses,
        percent(&t)
    );
    if let Some(e) = t.elo() {
        line.push_str(&format!("  elo {} {}", signed(e.elo), plus_minus(e.error)));
    }
    if let Some((llr, decision)) = s.sprt {
        line.push_str(&format!("  llr {llr:.2} ({decision})"));
    }
    line
}

/// The table per player, the faults, and the result line.
pub fn summary(names: &[String], s: &Standings, sprt: Option<&Sprt>) -> String {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
    let mut out = format!(
        "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>8}\n",
        "player", "games", "wins", "draws", "losses", "score%", "elo", "error"
    );
    for (name, t) in names.iter().zip(&s.players) {
        let (elo, error) = t.elo().map_or(("nan".into(), "±nan".into()), |e| {
            (signed(e.elo), plus_minus(e.error))
        });
        out.push_str(&format!(
            "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>8}\n",
            name,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            percent(t),
            elo,
            error
        ));
    }
    for (name, faults) in names.iter().zip(&s.faults) {
        if !faults.is_empty() {
            let list: Vec<String> = faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
            out.push_str(&format!("faults {name}: {}\n", list.join(", ")));
        }
    }
    if let (Some(sprt), Some((llr, decision))) = (sprt, s.sprt) {
        let (lower, upper) = sprt.bounds();
        out.push_str(&format!(
            "sprt elo0={} elo1={} alpha={} beta={} llr={llr:.2} bounds=[{lower:.2}, {upper:.2}] {decision}\n",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    out.push_str(&result_line(&s.players[0]));
    out.push('\n');
    out
}

fn create(path: &Path) -> Result<std::fs::File, MatchCliError> {
    std::fs::File::create(path)
        .map_err(|e| MatchCliError::Io(format!("cannot create '{}': {e}", path.display())))
}

/// The result file `--out` names, opened to append to: the games it already holds (of
/// this same match and part) are returned to be counted, not played again.
fn open_results(
    path: &Path,
    header: &Header,
) -> Result<(std::fs::File, Vec<GameReport>), MatchCliError> {
    let io = |e: std::io::Error| MatchCliError::Io(format!("{}: {e}", path.display()));
    let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if !exists {
        let mut file = create(path)?;
        file.write_all(shard::header_text(header).as_bytes())
            .map_err(io)?;
        return Ok((file, Vec::new()));
    }
    let results = shard::read(path).map_err(|e| MatchCliError::Io(e.to_string()))?;
    if !results.header.same_match(header) || results.header.shard != header.shard {
        return Err(MatchCliError::Io(format!(
            "{}: holds the results of another match or part; give a new --out",
            path.display()
        )));
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io)?;
    // Drop a record an interrupted run left cut short, then append.
    file.set_len(results.whole_bytes as u64).map_err(io)?;
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io)?;
    Ok((file, results.games))
}

/// Run a match, or merge the results of its parts.
pub fn run(args: MatchArgs) -> Result<(), MatchCliError> {
    if let Some(MatchCommand::Merge { files, pdn }) = &args.command {
        return merge(files, pdn.as_deref());
    }
    let mut config = config_from(&args)?;
    let header = Header::of(&config, super::scheduled_games(&config));
    // A part's SPRT is decided on the merged results.
    if config.shard.1 > 1 {
        config.sprt = None;
    }
    let (mut out, done) = match &args.out {
        Some(path) => {
            let (file, done) = open_results(path, &header)?;
            (Some(file), done)
        }
        None => (None, Vec::new()),
    };
    if !done.is_empty() {
        eprintln!(
            "match: {} games already in {}; playing the rest",
            done.len(),
            args.out
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string())
        );
    }
    let mut pdn = args.pdn.as_deref().map(create).transpose()?;
    if let Some(file) = pdn.as_mut() {
        let mut earlier: Vec<&GameReport> = done.iter().collect();
        earlier.sort_by_key(|r| r.number);
        for r in earlier {
            file.write_all(r.pdn.as_bytes())
                .map_err(|e| MatchCliError::Io(format!("cannot write the PDN file: {e}")))?;
        }
    }
    let names: Vec<String> = config.players.iter().map(|p| p.name.clone()).collect();
    let live = std::io::stderr().is_terminal();
    let mut write_error = None;
    let standings = run_match(&config, &done, &mut |event| match event {
        Event::Warning(w) => {
            if live {
                eprint!("\r\x1b[K");
            }
            eprintln!("warning: {w}");
        }
        Event::GameDone(report, standings) => {
            if let Some(file) = pdn.as_mut() {
                if let Err(e) = file.write_all(report.pdn.as_bytes()) {
                    write_error.get_or_insert(format!("cannot write the PDN file: {e}"));
                }
            }
            if let Some(file) = out.as_mut() {
                let record = shard::game_record(report);
                if let Err(e) = file
                    .write_all(record.as_bytes())
                    .and_then(|()| file.flush())
                {
                    write_error.get_or_insert(format!("cannot write the result file: {e}"));
                }
            }
            if live {
                eprint!("\r\x1b[K{}", progress_line(standings));
            } else {
                eprintln!("{}", progress_line(standings));
            }
        }
    })?;
    if live {
        eprintln!();
    }
    if let Some(e) = write_error {
        return Err(MatchCliError::Io(e));
    }
    print!("{}", summary(&names, &standings, config.sprt.as_ref()));
    Ok(())
}

/// `damas match merge`: the parts' games counted in match order, as one run at
/// `--concurrency 1` counts them, stopping where its SPRT would have stopped.
fn merge(files: &[PathBuf], pdn: Option<&Path>) -> Result<(), MatchCliError> {
    let mut parts = Vec::with_capacity(files.len());
    for path in files {
        parts.push(shard::read(path).map_err(|e| MatchCliError::Io(e.to_string()))?);
    }
    let Some(first) = parts.first() else {
        return Err(usage("match merge needs the parts' result files".into()));
    };
    let header = first.header.clone();
    let n = header.shard.1;
    let mut seen = vec![None; n];
    for (part, path) in parts.iter().zip(files) {
        if !part.header.same_match(&header) {
            return Err(MatchCliError::Io(format!(
                "{}: not a part of the same match as {}",
                path.display(),
                files[0].display()
            )));
        }
        let i = part.header.shard.0;
        if let Some(other) = seen[i].replace(path) {
            return Err(MatchCliError::Io(format!(
                "{} and {} both hold part {i}/{n}",
                other.display(),
                path.display()
            )));
        }
        let expected = (1..=header.scheduled)
            .filter(|&g| super::in_shard(g, part.header.shard))
            .count();
        if part.games.len() < expected && header.sprt.is_none() {
            return Err(MatchCliError::Io(format!(
                "{}: part {i}/{n} holds {} of its {expected} games; finish it (run it again with the same --out)",
                path.display(),
                part.games.len()
            )));
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|&i| seen[i].is_none())
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(MatchCliError::Io(format!(
            "missing parts {}",
            missing.join(", ")
        )));
    }
    let mut games: Vec<GameReport> = parts.into_iter().flat_map(|p| p.games).collect();
    games.sort_by_key(|g| g.number);
    let mut standings = Standings::new(header.players.len(), header.scheduled);
    let mut counted = 0;
    for g in &games {
        // Under an SPRT, a game is counted only if all before it were played.
        if header.sprt.is_some() && g.number != counted + 1 {
            return Err(MatchCliError::Io(format!(
                "game {} is missing and the SPRT had not decided before it; finish the parts",
                counted + 1
            )));
        }
        counted += 1;
        if standings.record_and_test(g, header.sprt.as_ref()) {
            break;
        }
    }
    if counted < games.len() {
        eprintln!(
            "match merge: the SPRT decided at game {counted}; {} later games not counted",
            games.len() - counted
        );
    }
    if let Some(path) = pdn {
        let mut file = create(path)?;
        for g in &games[..counted] {
            file.write_all(g.pdn.as_bytes())
                .map_err(|e| MatchCliError::Io(format!("cannot write the PDN file: {e}")))?;
        }
    }
    print!(
        "{}",
        summary(&header.players, &standings, header.sprt.as_ref())
    );
    Ok(())
}
