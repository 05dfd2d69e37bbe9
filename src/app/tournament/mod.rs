//! Engine-versus-engine matches driven over the Hub protocol or DXP.
//!
//! Every player, Damas included, is a subprocess spoken to exactly as a GUI would
//! ([`client`]), or a DXP program for which the match is the initiator ([`dxp`]). Games are jobs: each opening is played twice with colours swapped, every
//! pair of players meets (round robin), and `concurrency` worker threads each keep their
//! own engine processes. A faulty engine loses the game, is killed and restarted.

pub mod ballot;
pub mod cli;
pub mod client;
pub mod dxp;
pub mod shard;
pub mod spec;
pub mod stats;

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use crate::app::dxp::message::EndReason;
use crate::core::color::Color;
use crate::core::game::{Game, GameResult};
use crate::core::notation::{move_text, parse_move, write_board_string};
use crate::core::pdn;
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::with_rules;
use ballot::{play_opening, BallotError, Opening, OpeningSet};
use client::{Fault, HubClient};
use dxp::{DxpPlayer, Reply};
use spec::{Level, PlayerSpec};
use stats::{Sprt, SprtDecision, Tally};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: Variant,
    pub players: Vec<PlayerSpec>,
    /// The level of players without one of their own.
    pub level: Level,
    pub openings: OpeningSet,
    /// Games per pair of players.
    pub games: usize,
    pub concurrency: usize,
    /// A game still going after this many plies (opening included) is drawn.
    pub max_plies: usize,
    /// Time an engine may take beyond its move time or clock before it counts as hung.
    pub grace: Duration,
    /// Longest wait for a move searched to a depth or node count.
    pub move_timeout: Duration,
    pub seed: u64,
    pub sprt: Option<Sprt>,
    /// Draw a game early when both engines agree it is level.
    pub draw_adjudication: Option<DrawAdjudication>,
    /// The PDN `Event` tag.
    pub event: String,
    /// `(i, n)`: play only the games whose number is `i + 1` modulo `n` (part `i` of `n`).
    pub shard: (usize, usize),
}

/// A game is adjudicated a draw from ply `after` on (opening included), once the scores the
/// engines reported for the last `plies` moves (each engine's own, in men) all lie within
/// ±`score`. A move reported without a score breaks the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdjudication {
    pub after: usize,
    pub plies: usize,
    pub score: f64,
}

impl DrawAdjudication {
    /// Whether the game, `scores` long (a score or `None` per ply played by the engines) and
    /// now at `ply`, is to be drawn.
    pub fn agreed(&self, ply: usize, scores: &[Option<f64>]) -> bool {
        ply >= self.after
            && scores.len() >= self.plies
            && scores[scores.len() - self.plies..]
                .iter()
                .all(|s| s.is_some_and(|s| s.abs() <= self.score))
    }
}

/// Why a match could not be played.
#[derive(Debug)]
pub enum MatchError {
    TooFewPlayers,
    Ballot(BallotError),
    /// A player's engine failed before the first game.
    Engine {
        player: String,
        fault: Fault,
    },
    /// The engine does not list the match's variant.
    Variant {
        player: String,
        variant: String,
    },
    /// A DXP player in a match whose rules or clock DXP cannot carry.
    Dxp {
        player: String,
        reason: String,
    },
    NoGames,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::TooFewPlayers => write!(f, "a match needs at least two players"),
            MatchError::Ballot(e) => write!(f, "{e}"),
            MatchError::Engine { player, fault } => write!(f, "engine '{player}': {fault}"),
            MatchError::Variant { player, variant } => {
                write!(f, "engine '{player}' does not play {variant}")
            }
            MatchError::Dxp { player, reason } => write!(f, "DXP player '{player}': {reason}"),
            MatchError::NoGames => write!(f, "no games to play"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<BallotError> for MatchError {
    fn from(e: BallotError) -> Self {
        MatchError::Ballot(e)
    }
}

/// One game to play: `first` has the colour that moves first in the variant.
#[derive(Clone, Debug)]
struct Job {
    number: usize,
    first: usize,
    second: usize,
    opening: Opening,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number in the whole match (its PDN `Round`), from 1.
    pub number: usize,
    /// Player indices: who had the first move, who the second.
    pub first: usize,
    pub second: usize,
    /// Points of `first`: 1, 0.5 or 0.
    pub first_points: f64,
    /// The player at fault and the kind of fault, when an engine lost by one.
    pub fault: Option<(usize, &'static str)>,
    /// Warnings met on the way (refused params of a restarted engine).
    pub warnings: Vec<String>,
    /// The game as PDN text.
    pub pdn: String,
}

/// Results so far, per player and for the pair of the first two.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    /// Per player, against everyone.
    pub players: Vec<Tally>,
    /// Per player, fault kinds with their counts.
    pub faults: Vec<Vec<(&'static str, u32)>>,
    pub played: usize,
    pub scheduled: usize,
    /// The SPRT's log-likelihood ratio and decision on the first player's results.
    pub sprt: Option<(f64, SprtDecision)>,
}

impl Standings {
    /// Count a finished game.
    pub fn record(&mut self, r: &GameReport) {
        let first = match r.first_points {
            p if p > 0.75 => Tally {
                wins: 1,
                ..Tally::default()
            },
            p if p < 0.25 => Tally {
                losses: 1,
                ..Tally::default()
            },
            _ => Tally {
                draws: 1,
                ..Tally::default()
            },
        };
        self.players[r.first].add(first);
        self.players[r.second].add(first.mirrored());
        if let Some((who, kind)) = r.fault {
            let list = &mut self.faults[who];
            match list.iter_mut().find(|(k, _)| *k == kind) {
                Some(entry) => entry.1 += 1,
                None => list.push((kind, 1)),
            }
        }
        self.played += 1;
    }
}

/// What a running match tells its caller.
pub enum Event<'a> {
    /// Something to tell the user once (a param an engine refused).
    Warning(String),
    /// A game ended; the standings include it.
    GameDone(&'a GameReport, &'a Standings),
}

impl Standings {
    /// Nothing played yet of `scheduled` games among `players`.
    pub fn new(players: usize, scheduled: usize) -> Standings {
        Standings {
            players: vec![Tally::default(); players],
            faults: vec![Vec::new(); players],
            played: 0,
            scheduled,
            sprt: None,
        }
    }

    /// Count a game and, until it has decided, update the SPRT; true once it has decided.
    /// A decision stands: games that were under way when it came (concurrency above 1)
    /// still count in the tally, but do not reopen the test.
    pub fn record_and_test(&mut self, r: &GameReport, sprt: Option<&Sprt>) -> bool {
        self.record(r);
        if self.decided() {
            return true;
        }
        if let Some(sprt) = sprt {
            let t = self.players[0];
            let decision = sprt.decide(t);
            self.sprt = Some((sprt.llr(t), decision));
        }
        self.decided()
    }

    fn decided(&self) -> bool {
        self.sprt.is_some_and(|(_, d)| d != SprtDecision::Continue)
    }
}

/// The numbers of a match's games in part `i` of `n`: every `n`-th from `i + 1`.
pub fn in_shard(number: usize, (i, n): (usize, usize)) -> bool {
    (number - 1) % n == i
}

/// Play a match; `on_event` sees warnings and each finished game (in the calling thread).
/// `done` are games of this match (and shard) already played, counted but not played again.
pub fn run_match(
    config: &MatchConfig,
    done: &[GameReport],
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Standings, MatchError> {
    with_rules!(config.variant, R => run_match_in::<R>(config, done, on_event))
}

/// The number of games a whole match schedules: `games` per pair of players.
pub fn scheduled_games(config: &MatchConfig) -> usize {
    let n = config.players.len();
    config.games * n * n.saturating_sub(1) / 2
}

/// A player's connection: a Hub engine process, or a DXP program.
enum Seat {
    Hub(HubClient),
    Dxp(DxpPlayer),
}

/// Start a player's engine: a DXP program is connected to; a Hub engine is told the
/// variant, its params and `init`, and the params it refused come back as warnings.
fn open_engine(spec: &PlayerSpec, variant: Variant) -> Result<(Seat, Vec<String>), MatchError> {
    let fail = |fault| MatchError::Engine {
        player: spec.name.clone(),
        fault,
    };
    if spec.dxp.is_some() {
        return Ok((Seat::Dxp(DxpPlayer::open(spec).map_err(fail)?), Vec::new()));
    }
    let mut client = HubClient::start(&spec.command).map_err(fail)?;
    let mut params: Vec<(String, String)> = Vec::new();
    if client.has_variant_param() {
        let listed = client.variants().is_empty()
            || client
                .variants()
                .iter()
                .any(|v| Variant::from_name(v).is_ok_and(|w| w.name() == variant.name()));
        if !listed {
            return Err(MatchError::Variant {
                player: spec.name.clone(),
                variant: variant.name().into(),
            });
        }
        params.push(("variant".into(), variant.name().into()));
        for (name, value) in variant.options() {
            params.push((name.into(), value.to_string()));
        }
    }
    params.extend(spec.params.iter().cloned());
    let errors = client.configure(&params).map_err(fail)?;
    let warnings = errors
        .into_iter()
        .map(|e| {
            format!(
                "{}: the engine answered error '{e}' to its settings",
                spec.name
            )
        })
        .collect();
    Ok((Seat::Hub(client), warnings))
}

/// DXP carries one board and whole minutes of game time: the match must fit.
fn check_dxp<R: Rules>(config: &MatchConfig) -> Result<(), MatchError> {
    for spec in config.players.iter().filter(|p| p.dxp.is_some()) {
        let refuse = |reason: &str| MatchError::Dxp {
            player: spec.name.clone(),
            reason: reason.to_string(),
        };
        if !crate::app::dxp::board::fits::<R>() {
            return Err(refuse(
                "DXP has no board for this variant (International only)",
            ));
        }
        let Level::Clock {
            time,
            increment,
            moves,
        } = spec.level.unwrap_or(config.level)
        else {
            return Err(refuse(
                "DXP games are played on a clock: give --time (whole minutes) and --moves",
            ));
        };
        let minutes = time.as_secs() / 60;
        if time.subsec_nanos() != 0 || time.as_secs() % 60 != 0 || !(1..=999).contains(&minutes) {
            return Err(refuse(
                "DXP clocks count whole minutes: give --time as 60, 120, ... seconds",
            ));
        }
        if !increment.is_zero() {
            return Err(refuse("DXP clocks have no increment (--inc 0)"));
        }
        if moves > 999 {
            return Err(refuse("at most 999 --moves per control"));
        }
        if config.concurrency > 1 {
            return Err(refuse(
                "a DXP program plays one game at a time: use --concurrency 1",
            ));
        }
    }
    Ok(())
}

fn run_match_in<R: Rules>(
    config: &MatchConfig,
    done: &[GameReport],
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Standings, MatchError> {
    let n = config.players.len();
    if n < 2 {
        return Err(MatchError::TooFewPlayers);
    }
    if config.games == 0 {
        return Err(MatchError::NoGames);
    }
    // Each warning once, however many times engines are started.
    let mut warned: Vec<String> = Vec::new();
    let mut warn = |w: &String, on_event: &mut dyn FnMut(Event<'_>)| {
        if !warned.contains(w) {
            warned.push(w.clone());
            on_event(Event::Warning(w.clone()));
        }
    };
    check_dxp::<R>(config)?;
    // Each engine once before the first game: a wrong command stops the match here. The
    // first worker plays on with them (a DXP program may take just one connection).
    let mut opened = Vec::with_capacity(n);
    for spec in &config.players {
        let (seat, warnings) = open_engine(spec, config.variant)?;
        for w in &warnings {
            warn(w, on_event);
        }
        opened.push(Some(seat));
    }
    let opened = Mutex::new(Some(opened));
    let openings =
        config
            .openings
            .openings::<R>(config.variant, config.games.div_ceil(2), config.seed)?;
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let mut jobs = VecDeque::new();
    let mut number = 0;
    for k in 0..config.games {
        for &(i, j) in &pairs {
            let (first, second) = if k % 2 == 0 { (i, j) } else { (j, i) };
            number += 1;
            if in_shard(number, config.shard) {
                jobs.push_back(Job {
                    number,
                    first,
                    second,
                    opening: openings[k / 2].clone(),
                });
            }
        }
    }
    let mut standings = Standings::new(n, jobs.len());
    let mut decided = false;
    let mut earlier: Vec<&GameReport> = done.iter().collect();
    earlier.sort_by_key(|r| r.number);
    for r in earlier {
        decided = standings.record_and_test(r, config.sprt.as_ref());
    }
    jobs.retain(|j| !done.iter().any(|r| r.number == j.number));
    if decided || jobs.is_empty() {
        return Ok(standings);
    }
    let workers = config.concurrency.clamp(1, jobs.len());
    let queue = Mutex::new(jobs);
    let stop = AtomicBool::new(false);
    // Each report carries the worker's acknowledgement channel: a worker takes its next
    // game only once the report is counted, so an SPRT stop is exact.
    let (tx, rx) = mpsc::channel::<(GameReport, mpsc::Sender<()>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (queue, stop, opened) = (&queue, &stop, &opened);
            scope.spawn(move || {
                let mut seats: Vec<Option<Seat>> = opened
                    .lock()
                    .ok()
                    .and_then(|mut o| o.take())
                    .unwrap_or_else(|| (0..n).map(|_| None).collect());
                let (ack_tx, ack_rx) = mpsc::channel();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let job = match queue.lock() {
                        Ok(mut q) => q.pop_front(),
                        Err(_) => None,
                    };
                    let Some(job) = job else { break };
                    let report = play_game::<R>(config, &job, &mut seats);
                    if tx.send((report, ack_tx.clone())).is_err() || ack_rx.recv().is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (report, ack) in rx {
            if standings.record_and_test(&report, config.sprt.as_ref()) {
                stop.store(true, Ordering::Relaxed);
            }
            for w in &report.warnings {
                warn(w, on_event);
            }
            on_event(Event::GameDone(&report, &standings));
            let _ = ack.send(());
        }
    });
    Ok(standings)
}

fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// What a player did when asked to move.
enum Turn<R: Rules> {
    /// A move, the score it reported (in men, from its side) and the time it took.
    Move(MoveOf<R>, Option<f64>, Duration),
    /// A DXP player ended the game instead.
    Ended(EndReason),
}

/// The player's connection, opened (again) if need be.
fn open_seat<'a>(
    config: &MatchConfig,
    spec: &PlayerSpec,
    seat: &'a mut Option<Seat>,
    warnings: &mut Vec<String>,
) -> Result<&'a mut Seat, Fault> {
    if seat.is_none() {
        let (opened, w) = open_engine(spec, config.variant).map_err(|e| match e {
            MatchError::Engine { fault, .. } => fault,
            other => Fault::Spawn(other.to_string()),
        })?;
        warnings.extend(w);
        *seat = Some(opened);
    }
    seat.as_mut().ok_or(Fault::Crash)
}

/// Ask the player at `seat` for a move; `clock` is its time left under a clock, and
/// `made` the moves it has made since the opening.
#[allow(clippy::too_many_arguments)]
fn ask_move<R: Rules>(
    config: &MatchConfig,
    spec: &PlayerSpec,
    seat: &mut Option<Seat>,
    game: &Game<R>,
    clock: &mut Duration,
    made: u32,
    warnings: &mut Vec<String>,
) -> Result<Turn<R>, Fault> {
    let level = spec.level.unwrap_or(config.level);
    let (line, limit) = match level {
        Level::Depth(d) => (format!("level depth={d}"), config.move_timeout),
        Level::Nodes(n) => (format!("level nodes={n}"), config.move_timeout),
        Level::MoveTime(t) => (format!("level move-time={}", seconds(t)), t + config.grace),
        Level::Clock {
            increment, moves, ..
        } => {
            let mut line = format!("level time={} inc={}", seconds(*clock), seconds(increment));
            if moves > 0 {
                line.push_str(&format!(" moves={}", moves - made % moves));
            }
            (line, *clock + config.grace)
        }
    };
    let started = Instant::now();
    let (m, score, elapsed) = match open_seat(config, spec, seat, warnings)? {
        Seat::Hub(client) => {
            let mut position = format!("pos pos={}", write_board_string(game.start()));
            if !game.moves().is_empty() {
                let moves: Vec<String> = game.moves().iter().map(move_text::<R>).collect();
                position.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
            }
            let answer = client.think(&position, &line, limit)?;
            // Over the clock loses on time, whatever the move.
            if matches!(level, Level::Clock { .. }) && answer.elapsed > *clock {
                return Err(Fault::TimeForfeit);
            }
            let m = parse_move(game.position(), &answer.best)
                .map_err(|_| Fault::IllegalMove(answer.best))?;
            (m, answer.score, answer.elapsed)
        }
        Seat::Dxp(player) => match player.await_move(game.position(), limit)? {
            Reply::Move(m) => (m, None, started.elapsed()),
            Reply::End(reason) => return Ok(Turn::Ended(reason)),
        },
    };
    if let Level::Clock {
        time,
        increment,
        moves,
    } = level
    {
        if elapsed > *clock {
            return Err(Fault::TimeForfeit);
        }
        *clock = *clock - elapsed + increment;
        if moves > 0 && (made + 1).is_multiple_of(moves) {
            *clock += time;
        }
    }
    Ok(Turn::Move(m, score, elapsed))
}

/// Ask each DXP player of the game for it: its colour, the clock and the start.
fn request_games<R: Rules>(
    config: &MatchConfig,
    players: [usize; 2],
    seats: &mut [Option<Seat>],
    game: &Game<R>,
    warnings: &mut Vec<String>,
) -> Result<(), (usize, Fault)> {
    for (index, &p) in players.iter().enumerate() {
        let spec = &config.players[p];
        if spec.dxp.is_none() {
            continue;
        }
        let Level::Clock { time, moves, .. } = spec.level.unwrap_or(config.level) else {
            return Err((p, Fault::Spawn("DXP needs a clock".into())));
        };
        let color = if index == 0 {
            R::FIRST
        } else {
            R::FIRST.opposite()
        };
        let minutes = (time.as_secs() / 60).min(999) as u16;
        let asked = match open_seat(config, spec, &mut seats[p], warnings) {
            Ok(Seat::Dxp(player)) => {
                player.start_game(color, minutes, moves.min(999) as u16, game.position())
            }
            Ok(Seat::Hub(_)) => Err(Fault::Spawn("not a DXP player".into())),
            Err(f) => Err(f),
        };
        if let Err(f) = asked {
            seats[p] = None;
            return Err((p, f));
        }
    }
    Ok(())
}

/// Play one game between the players of `job` with the worker's engines.
fn play_game<R: Rules>(config: &MatchConfig, job: &Job, seats: &mut [Option<Seat>]) -> GameReport {
    let mut game = play_opening::<R>(&job.opening).unwrap_or_else(|_| Game::new(Position::start()));
    let opening_plies = game.moves().len();
    let mut warnings = Vec::new();
    let players = [job.first, job.second];
    for &p in &players {
        if let Some(Seat::Hub(client)) = seats[p].as_mut() {
            if client.send("new-game").is_err() {
                seats[p] = None;
            }
        }
    }
    let mut clocks = players.map(|p| match config.players[p].level.unwrap_or(config.level) {
        Level::Clock { time, .. } => time,
        _ => Duration::ZERO,
    });
    let mut fault = None;
    let mut scores = Vec::new();
    let seat_of = |c: Color| usize::from(c != R::FIRST);
    let termination = if let Err((p, f)) =
        request_games::<R>(config, players, seats, &game, &mut warnings)
    {
        let loser = if p == players[0] {
            R::FIRST
        } else {
            R::FIRST.opposite()
        };
        let _ = game.adjudicate(GameResult::win_for(loser.opposite()));
        fault = Some((p, f.kind()));
        format!(
            "{} by {} ({})",
            f.kind(),
            config.players[p].name,
            f.detail()
        )
    } else {
        loop {
            if let Some(o) = game.outcome() {
                break o.termination.to_string();
            }
            if let Some(a) = config.draw_adjudication {
                if a.agreed(game.moves().len(), &scores) {
                    let _ = game.adjudicate(GameResult::Draw);
                    break format!(
                        "adjudication: drawn, both engines within ±{:.2} for {} plies",
                        a.score, a.plies
                    );
                }
            }
            if game.moves().len() >= config.max_plies {
                let _ = game.adjudicate(GameResult::Draw);
                break format!("adjudication: drawn after {} plies", config.max_plies);
            }
            let side = game.position().side_to_move();
            let seat = seat_of(side);
            let player = players[seat];
            let spec = &config.players[player];
            let made = ((game.moves().len() - opening_plies) / 2) as u32;
            match ask_move::<R>(
                config,
                spec,
                &mut seats[player],
                &game,
                &mut clocks[seat],
                made,
                &mut warnings,
            ) {
                Ok(Turn::Move(m, score, spent)) => {
                    scores.push(score);
                    if game.play(&m).is_err() {
                        // Cannot happen: the move was resolved among the legal ones.
                        let _ = game.adjudicate(GameResult::win_for(side.opposite()));
                        fault = Some((player, "illegal move"));
                        break format!("illegal move by {}", spec.name);
                    }
                    let other = players[1 - seat];
                    if let Some(Seat::Dxp(d)) = seats[other].as_mut() {
                        if let Err(f) = d.tell::<R>(&m, spent) {
                            seats[other] = None;
                            let _ = game.adjudicate(GameResult::win_for(side));
                            fault = Some((other, f.kind()));
                            let name = &config.players[other].name;
                            break format!("{} by {name} ({})", f.kind(), f.detail());
                        }
                    }
                }
                Ok(Turn::Ended(reason)) => {
                    // The rules have not ended the game (it would not have been asked):
                    // only a resignation is taken as it stands.
                    let name = &spec.name;
                    break match reason {
                        EndReason::SenderLoses => {
                            let _ = game.resign(side);
                            format!("{name} resigned over DXP")
                        }
                        EndReason::Draw => {
                            let _ = game.agree_draw();
                            format!("{name} claimed a draw over DXP")
                        }
                        EndReason::SenderWins | EndReason::Unspecified => {
                            let _ = game.adjudicate(GameResult::Draw);
                            format!("{name} ended the game over DXP without a result the rules show: drawn")
                        }
                    };
                }
                Err(f) => {
                    seats[player] = None;
                    let _ = game.adjudicate(GameResult::win_for(side.opposite()));
                    fault = Some((player, f.kind()));
                    break format!("{} by {} ({})", f.kind(), spec.name, f.detail());
                }
            }
        }
    };
    let result = game.outcome().map_or(GameResult::Draw, |o| o.result);
    // DXP players still in the game are told it is over.
    for (index, &p) in players.iter().enumerate() {
        if let Some(Seat::Dxp(d)) = seats[p].as_mut() {
            let color = if index == 0 {
                R::FIRST
            } else {
                R::FIRST.opposite()
            };
            let reason = if result == GameResult::Draw {
                EndReason::Draw
            } else if result == GameResult::win_for(color) {
                EndReason::SenderLoses
            } else {
                EndReason::SenderWins
            };
            d.end_game(game.position().side_to_move() == color, reason);
        }
    }
    let first_points = if result == GameResult::win_for(R::FIRST) {
        1.0
    } else if result == GameResult::Draw {
        0.5
    } else {
        0.0
    };
    let name_of = |c: Color| config.players[players[seat_of(c)]].name.clone();
    let round = job.number.to_string();
    let opening = job.opening.label.clone();
    let white = name_of(Color::White);
    let black = name_of(Color::Black);
    let tags: Vec<(&str, &str)> = vec![
        ("Event", &config.event),
        ("Round", &round),
        ("White", &white),
        ("Black", &black),
        ("Opening", &opening),
        ("Termination", &termination),
    ];
    let text = pdn::write_game(&game, &tags);
    GameReport {
        number: job.number,
        first: job.first,
        second: job.second,
        first_points,
        fault,
        warnings,
        pdn: text,
    }
}
