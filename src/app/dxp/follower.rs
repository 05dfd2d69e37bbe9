//! Damas as a DamExchange follower: it answers game requests and plays the games they ask
//! for, under their clocks, until the initiator stops or goes away.
//!
//! The session is a loop over one connection. On its own turn the engine thinks and sends
//! a MOVE (or a GAMEEND once the rules have ended the game); otherwise it waits for the
//! peer's next message. A message that is malformed, out of place or an illegal move is
//! answered with a CHAT saying so and changes nothing; only a stream that cannot be framed any more, a
//! closed connection or a silent peer end the session.

use std::fs::OpenOptions;
use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::board::{fits, move_message, resolve, start_position};
use super::link::{Link, LinkError};
use super::message::{
    Acceptance, BackAcceptance, EndReason, GameEnd, GameRequest, Message, VERSION,
};
use crate::core::color::Color;
use crate::core::game::{Game, GameResult};
use crate::core::notation::{move_text, parse_move, write_board_string};
use crate::core::pdn;
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::engine::{Engine, Start};
use crate::search::limits::{Clock, Limits};
use crate::search::Control;
use crate::with_rules;

/// How long the peer may take to acknowledge our GAMEEND.
const ACK_TIMEOUT: Duration = Duration::from_secs(10);
/// The least time a search is given, however little is left on the clock.
const MIN_THINK: Duration = Duration::from_millis(10);

/// What a follower needs besides the engine.
#[derive(Clone, Debug)]
pub struct FollowerSettings {
    pub variant: Variant,
    /// Our name in GAMEACC and in the PDN.
    pub name: String,
    /// Every finished game is appended here.
    pub pdn: Option<PathBuf>,
    /// Longest silence from the peer before the connection is closed.
    pub idle_timeout: Duration,
}

/// Why a session ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SessionEnd {
    /// The initiator said it wants no further games.
    Stopped,
    Closed,
    Idle,
    Broken(String),
}

/// A game under way.
struct Table<R: Rules> {
    game: Game<R>,
    ours: Color,
    opponent: String,
    /// Time left, by colour (White first).
    clocks: [Duration; 2],
    /// Time per control and moves per control (0: the whole game).
    control: Duration,
    moves: u32,
    number: usize,
}

impl<R: Rules> Table<R> {
    fn moves_made(&self, side: Color) -> u32 {
        let first = self.game.start().side_to_move();
        let plies = self.game.moves().len() as u32;
        if side == first {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    }

    /// Charge `spent` to `side` and add a new period when it reaches a control.
    fn charge(&mut self, side: Color, spent: Duration) {
        let refill = self.moves > 0 && self.moves_made(side).is_multiple_of(self.moves);
        let clock = &mut self.clocks[side as usize];
        *clock = clock.saturating_sub(spent);
        if refill {
            *clock += self.control;
        }
    }
}

/// Play the games `link`'s initiator asks for.
pub fn session(
    link: &mut Link,
    engine: &Engine,
    settings: &FollowerSettings,
    log: &mut dyn FnMut(&str),
) -> SessionEnd {
    with_rules!(settings.variant, R => session_in::<R>(link, engine, settings, log))
}

/// Answers to messages that change nothing: said in a CHAT, logged.
fn complain(link: &mut Link, log: &mut dyn FnMut(&str), text: &str) {
    log(&format!("{}: {text}", link.peer()));
    let _ = link.send(&Message::Chat(format!("error: {text}")));
}

fn session_in<R: Rules>(
    link: &mut Link,
    engine: &Engine,
    settings: &FollowerSettings,
    log: &mut dyn FnMut(&str),
) -> SessionEnd {
    let mut table: Option<Table<R>> = None;
    let mut games = 0;
    // A GAMEEND of ours the peer has yet to acknowledge.
    let mut awaiting_ack = false;
    loop {
        if let Some(t) = table
            .as_mut()
            .filter(|t| t.game.position().side_to_move() == t.ours)
        {
            if let Some(outcome) = t.game.outcome() {
                let reason = if outcome.result == GameResult::Draw {
                    EndReason::Draw
                } else if outcome.result == GameResult::win_for(t.ours) {
                    EndReason::SenderWins
                } else {
                    EndReason::SenderLoses
                };
                let end = GameEnd {
                    reason,
                    stop: false,
                };
                if link.send(&Message::GameEnd(end)).is_err() {
                    return SessionEnd::Closed;
                }
                awaiting_ack = true;
                finish(t, settings, log, &outcome.termination.to_string());
                table = None;
                continue;
            }
            match think(t, engine, settings.variant) {
                Ok((m, spent)) => {
                    let seconds = spent.as_secs_f64().round().min(9999.0) as u16;
                    if link
                        .send(&Message::Move(move_message::<R>(&m, seconds)))
                        .is_err()
                    {
                        return SessionEnd::Closed;
                    }
                    t.game.force(&m);
                    t.charge(t.ours, spent);
                }
                Err(e) => {
                    complain(link, log, &format!("cannot move: {e}"));
                    let _ = link.send(&Message::GameEnd(GameEnd {
                        reason: EndReason::Unspecified,
                        stop: false,
                    }));
                    awaiting_ack = true;
                    finish(t, settings, log, "abandoned: no move");
                    table = None;
                }
            }
            continue;
        }
        let timeout = if awaiting_ack {
            ACK_TIMEOUT
        } else {
            settings.idle_timeout
        };
        let message = match link.receive(Instant::now() + timeout) {
            Ok(m) => m,
            Err(LinkError::Timeout) if awaiting_ack => {
                awaiting_ack = false;
                continue;
            }
            Err(LinkError::Timeout) => return SessionEnd::Idle,
            Err(LinkError::Closed) => return SessionEnd::Closed,
            Err(e) if e.is_fatal() => return SessionEnd::Broken(e.to_string()),
            Err(e) => {
                complain(link, log, &format!("{e}; message ignored"));
                continue;
            }
        };
        match message {
            Message::GameRequest(request) => {
                if let Some(t) = table.take() {
                    finish(&t, settings, log, "abandoned: a new game was requested");
                }
                awaiting_ack = false;
                match accept::<R>(&request) {
                    Ok(game) => {
                        let sent = link.send(&Message::GameAccept {
                            follower: settings.name.clone(),
                            acceptance: Acceptance::Accepted,
                        });
                        if sent.is_err() {
                            return SessionEnd::Closed;
                        }
                        games += 1;
                        let control = Duration::from_secs(u64::from(request.minutes) * 60);
                        log(&format!(
                            "game {games} against {}: Damas plays {}, {} min for {} moves",
                            request.initiator,
                            request.follower_color.name(),
                            request.minutes,
                            request.moves
                        ));
                        table = Some(Table {
                            game,
                            ours: request.follower_color,
                            opponent: request.initiator.clone(),
                            clocks: [control; 2],
                            control,
                            moves: request.moves.into(),
                            number: games,
                        });
                    }
                    Err((acceptance, why)) => {
                        log(&format!("declined a game: {why}"));
                        let _ = link.send(&Message::Chat(format!("declined: {why}")));
                        let sent = link.send(&Message::GameAccept {
                            follower: settings.name.clone(),
                            acceptance,
                        });
                        if sent.is_err() {
                            return SessionEnd::Closed;
                        }
                    }
                }
            }
            Message::Move(mv) => {
                let Some(t) = table.as_mut() else {
                    complain(link, log, "MOVE without a game; ignored");
                    continue;
                };
                let theirs = t.ours.opposite();
                if t.game.position().side_to_move() != theirs {
                    complain(link, log, "MOVE out of turn; ignored");
                    continue;
                }
                match resolve::<R>(t.game.position(), &mv) {
                    Ok(m) => {
                        t.game.force(&m);
                        t.charge(theirs, Duration::from_secs(mv.seconds.into()));
                    }
                    // Refused: the game stays where it was, for a legal move, a take-back
                    // or the end of the game.
                    Err(e) => complain(link, log, &format!("{e}; refused")),
                }
            }
            Message::GameEnd(end) => {
                if let Some(mut t) = table.take() {
                    let ack = GameEnd {
                        reason: EndReason::Unspecified,
                        stop: end.stop,
                    };
                    if link.send(&Message::GameEnd(ack)).is_err() {
                        return SessionEnd::Closed;
                    }
                    let theirs = t.ours.opposite();
                    let (result, how) = match end.reason {
                        EndReason::SenderLoses => (Some(GameResult::win_for(t.ours)), "resigned"),
                        EndReason::SenderWins => {
                            (Some(GameResult::win_for(theirs)), "claimed a win")
                        }
                        EndReason::Draw => (Some(GameResult::Draw), "claimed a draw"),
                        EndReason::Unspecified => (None, "ended the game"),
                    };
                    let termination = match t.game.outcome() {
                        Some(o) => o.termination.to_string(),
                        None => {
                            if let Some(r) = result {
                                let _ = t.game.adjudicate(r);
                            }
                            format!("{} {how}", t.opponent)
                        }
                    };
                    finish(&t, settings, log, &termination);
                } else {
                    awaiting_ack = false;
                }
                if end.stop {
                    return SessionEnd::Stopped;
                }
            }
            Message::Chat(text) => log(&format!("chat from {}: {text}", link.peer())),
            Message::BackRequest {
                move_number,
                to_move,
            } => {
                let answer = match table.as_mut() {
                    Some(t) => take_back(t, move_number, to_move),
                    None => BackAcceptance::Refused,
                };
                if link.send(&Message::BackAccept(answer)).is_err() {
                    return SessionEnd::Closed;
                }
            }
            Message::GameAccept { .. } | Message::BackAccept(_) => {
                complain(
                    link,
                    log,
                    &format!("{} to a follower; ignored", message.kind()),
                );
            }
        }
    }
}

/// The game a request asks for, or the answer that declines it.
fn accept<R: Rules>(request: &GameRequest) -> Result<Game<R>, (Acceptance, String)> {
    if request.version != VERSION {
        let why = format!("protocol version {:02}, not {VERSION:02}", request.version);
        return Err((Acceptance::WrongVersion, why));
    }
    if request.minutes == 0 {
        return Err((Acceptance::Declined, "no thinking time".into()));
    }
    if !fits::<R>() {
        return Err((
            Acceptance::NoGames,
            format!("{} is not played on DXP's board", R::NAME),
        ));
    }
    let start = start_position::<R>(&request.start)
        .map_err(|e| (Acceptance::Declined, format!("bad position: {e}")))?;
    if start.legal_moves().is_empty() {
        return Err((Acceptance::Declined, "no legal move in the position".into()));
    }
    Ok(Game::new(start))
}

/// Search the table's position under our clock.
fn think<R: Rules>(
    t: &Table<R>,
    engine: &Engine,
    variant: Variant,
) -> Result<(crate::core::position::MoveOf<R>, Duration), crate::engine::EngineError> {
    let started = Instant::now();
    let moves_to_go = (t.moves > 0).then(|| t.moves - t.moves_made(t.ours) % t.moves);
    let limits = Limits {
        clock: Some(Clock {
            time: t.clocks[t.ours as usize].max(MIN_THINK),
            increment: Duration::ZERO,
            moves_to_go,
        }),
        ..Limits::default()
    };
    let start = write_board_string(t.game.start());
    let moves: Vec<String> = t.game.moves().iter().map(move_text::<R>).collect();
    let done = engine.think(
        variant,
        Start::Board(&start),
        &moves,
        limits,
        &Control::new(false),
        &mut |_| {},
    )?;
    let m = parse_move(t.game.position(), &done.best).map_err(|reason| {
        crate::engine::EngineError::BadMove {
            index: moves.len(),
            text: done.best.clone(),
            reason,
        }
    })?;
    Ok((m, started.elapsed()))
}

/// Go back to the position of move `move_number` with `to_move` to play.
fn take_back<R: Rules>(t: &mut Table<R>, move_number: u16, to_move: Color) -> BackAcceptance {
    let first = t.game.start().side_to_move();
    let ply = 2 * (i64::from(move_number) - 1) + i64::from(to_move != Color::White)
        - i64::from(first != Color::White);
    if ply < 0 || ply as usize > t.game.moves().len() {
        return BackAcceptance::Refused;
    }
    let mut game = Game::new(*t.game.start());
    for m in &t.game.moves()[..ply as usize] {
        game.force(m);
    }
    t.game = game;
    BackAcceptance::Accepted
}

/// Log a game's end and append it to the PDN file.
fn finish<R: Rules>(
    t: &Table<R>,
    settings: &FollowerSettings,
    log: &mut dyn FnMut(&str),
    how: &str,
) {
    let result = t.game.outcome().map_or("*", |o| o.result.pdn());
    log(&format!("game {} ended {result} ({how})", t.number));
    let Some(path) = &settings.pdn else { return };
    let (white, black) = match t.ours {
        Color::White => (settings.name.as_str(), t.opponent.as_str()),
        Color::Black => (t.opponent.as_str(), settings.name.as_str()),
    };
    let round = t.number.to_string();
    let tags = [
        ("Event", "DXP game"),
        ("Round", round.as_str()),
        ("White", white),
        ("Black", black),
        ("Termination", how),
    ];
    let text = pdn::write_game(&t.game, &tags);
    let written = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| writeln!(f, "{text}"));
    if let Err(e) = written {
        log(&format!("cannot write {}: {e}", path.display()));
    }
}

/// Serve one connection after another on `listener`; a connection that comes while a game
/// connection is open is told so and closed.
pub fn listen(
    listener: TcpListener,
    engine: Arc<Engine>,
    settings: FollowerSettings,
    log: Arc<dyn Fn(&str) + Send + Sync>,
) {
    let busy = Arc::new(AtomicBool::new(false));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                log(&format!("accept failed: {e}"));
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if busy.swap(true, Ordering::AcqRel) {
            refuse(stream, &*log);
            continue;
        }
        let (engine, settings, session_log, busy) =
            (engine.clone(), settings.clone(), log.clone(), busy.clone());
        let spawned = std::thread::Builder::new()
            .name("dxp-session".into())
            .spawn(move || {
                serve(stream, &engine, &settings, &mut |l| session_log(l));
                busy.store(false, Ordering::Release);
            });
        if let Err(e) = spawned {
            log(&format!("cannot start a session: {e}"));
        }
    }
}

/// Play one connection's games, then close it.
pub fn serve(
    stream: TcpStream,
    engine: &Engine,
    settings: &FollowerSettings,
    log: &mut dyn FnMut(&str),
) {
    let mut link = match Link::new(stream) {
        Ok(l) => l,
        Err(e) => {
            log(&format!("connection failed: {e}"));
            return;
        }
    };
    log(&format!("connection from {}", link.peer()));
    engine.clear();
    let end = session(&mut link, engine, settings, log);
    let why = match end {
        SessionEnd::Stopped => "the initiator stopped".to_string(),
        SessionEnd::Closed => "the peer closed the connection".to_string(),
        SessionEnd::Idle => format!("no message for {} s", settings.idle_timeout.as_secs()),
        SessionEnd::Broken(e) => e,
    };
    log(&format!("connection from {} closed: {why}", link.peer()));
    link.close();
}

fn refuse(mut stream: TcpStream, log: &dyn Fn(&str)) {
    let peer = stream
        .peer_addr()
        .map_or_else(|_| "peer".to_string(), |a: SocketAddr| a.to_string());
    log(&format!(
        "refused {peer}: a game connection is already open"
    ));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    if let Ok(mut bytes) =
        Message::Chat("Damas is playing on another connection; try again later".into()).encode()
    {
        bytes.push(0);
        let _ = stream.write_all(&bytes);
    }
    let _ = stream.shutdown(std::net::Shutdown::Both);
}
