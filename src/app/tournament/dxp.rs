//! A match player spoken to over DXP: the match is the initiator. It asks the program for
//! each game (its colour, the clock, the start position), passes it the opponent's moves and
//! waits for its own; the match's rules, not the program, decide how a game ends.
//!
//! DXP programs listen for one connection (Scan closes its listening socket once a peer is
//! in), so a player keeps its connection for the whole match, and a program the match
//! started itself (`cmd=`) is restarted when its connection breaks.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::client::Fault;
use super::spec::PlayerSpec;
use crate::app::dxp::board::{move_message, request_start, resolve};
use crate::app::dxp::link::{Link, LinkError};
use crate::app::dxp::message::{Acceptance, EndReason, GameEnd, GameRequest, Message, VERSION};
use crate::app::dxp::parse_address;
use crate::core::color::Color;
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;

/// Longest wait for a program to start listening, and for its GAMEACC.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a program to move may take to end a game the rules have ended.
const END_WAIT: Duration = Duration::from_secs(2);
/// How long it may take to acknowledge our GAMEEND.
const ACK_WAIT: Duration = Duration::from_secs(5);
/// The name the match gives itself in GAMEREQ.
const INITIATOR: &str = "Damas match";

/// What a DXP player answered when asked to move.
pub enum Reply<R: Rules> {
    Move(MoveOf<R>),
    /// It ended the game instead (its GAMEEND is acknowledged).
    End(EndReason),
}

/// A DXP program in a match, connected.
pub struct DxpPlayer {
    link: Link,
    child: Option<Child>,
    /// The name it gave in its last GAMEACC.
    pub name: String,
    in_game: bool,
}

fn fault(e: LinkError, limit: Duration) -> Fault {
    match e {
        LinkError::Timeout => Fault::Hang(limit),
        LinkError::Closed | LinkError::Io(_) => Fault::Crash,
        LinkError::Protocol(p) => Fault::Garbage(p.to_string()),
    }
}

impl DxpPlayer {
    /// Start the player's program if it has one, and connect.
    pub fn open(spec: &PlayerSpec) -> Result<DxpPlayer, Fault> {
        let text = spec.dxp.as_deref().unwrap_or_default();
        let addr = parse_address(text).map_err(|e| Fault::Spawn(e.to_string()))?;
        let mut child = match spec.command.split_first() {
            Some((program, args)) => {
                let mut command = Command::new(program);
                command
                    .args(args)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null());
                if let Some(dir) = &spec.dir {
                    command.current_dir(dir);
                }
                Some(
                    command
                        .spawn()
                        .map_err(|e| Fault::Spawn(format!("{program}: {e}")))?,
                )
            }
            None => None,
        };
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let link = loop {
            match Link::connect(&addr, Duration::from_secs(2)) {
                Ok(l) => break l,
                Err(e) => {
                    let exited = child
                        .as_mut()
                        .is_some_and(|c| matches!(c.try_wait(), Ok(Some(_))));
                    // Without a program of ours, nobody is going to start listening.
                    if exited || child.is_none() || Instant::now() >= deadline {
                        if let Some(c) = child.as_mut() {
                            let _ = c.kill();
                            let _ = c.wait();
                        }
                        return Err(Fault::Spawn(format!("cannot connect to {addr}: {e}")));
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        };
        Ok(DxpPlayer {
            link,
            child,
            name: String::new(),
            in_game: false,
        })
    }

    /// Ask for a game from `start` in which the player has `color`.
    pub fn start_game<R: Rules>(
        &mut self,
        color: Color,
        minutes: u16,
        moves: u16,
        start: &Position<R>,
    ) -> Result<(), Fault> {
        let request = GameRequest {
            version: VERSION,
            initiator: INITIATOR.into(),
            follower_color: color,
            minutes,
            moves,
            start: request_start(start),
        };
        self.link
            .send(&Message::GameRequest(request))
            .map_err(|e| fault(e, STARTUP_TIMEOUT))?;
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            match self.link.receive(deadline) {
                Ok(Message::GameAccept {
                    follower,
                    acceptance,
                }) => {
                    self.name = follower;
                    return match acceptance {
                        Acceptance::Accepted => {
                            self.in_game = true;
                            Ok(())
                        }
                        other => Err(Fault::EngineError(format!("declined the game ({other:?})"))),
                    };
                }
                Ok(Message::Chat(_)) => {}
                Ok(other) => {
                    return Err(Fault::Garbage(format!("{} before GAMEACC", other.kind())))
                }
                Err(e) => return Err(fault(e, STARTUP_TIMEOUT)),
            }
        }
    }

    /// Pass the opponent's move, played in `spent`.
    pub fn tell<R: Rules>(&mut self, m: &MoveOf<R>, spent: Duration) -> Result<(), Fault> {
        let seconds = spent.as_secs_f64().round().min(9999.0) as u16;
        self.link
            .send(&Message::Move(move_message::<R>(m, seconds)))
            .map_err(|e| fault(e, Duration::ZERO))
    }

    /// The player's move in `pos`, within `limit`.
    pub fn await_move<R: Rules>(
        &mut self,
        pos: &Position<R>,
        limit: Duration,
    ) -> Result<Reply<R>, Fault> {
        let deadline = Instant::now() + limit;
        loop {
            match self.link.receive(deadline) {
                Ok(Message::Move(m)) => {
                    return resolve::<R>(pos, &m)
                        .map(Reply::Move)
                        .map_err(|e| Fault::IllegalMove(e.to_string()))
                }
                Ok(Message::GameEnd(end)) => {
                    self.acknowledge();
                    return Ok(Reply::End(end.reason));
                }
                Ok(Message::Chat(_)) => {}
                Ok(other) => return Err(Fault::Garbage(other.kind().into())),
                Err(e) => return Err(fault(e, limit)),
            }
        }
    }

    fn acknowledge(&mut self) {
        self.in_game = false;
        let ack = GameEnd {
            reason: EndReason::Unspecified,
            stop: false,
        };
        let _ = self.link.send(&Message::GameEnd(ack));
    }

    /// End the game the match has decided, if the player is still in it. `reason` is the
    /// result from the side of the player's opponent, whose turn it may not be: a player
    /// to move is first given a moment to end the game itself.
    pub fn end_game(&mut self, to_move: bool, reason: EndReason) {
        if !self.in_game {
            return;
        }
        if to_move {
            // A move past the end, or nothing: the match ends the game.
            if let Ok(Message::GameEnd(_)) = self.link.receive(Instant::now() + END_WAIT) {
                self.acknowledge();
                return;
            }
        }
        self.in_game = false;
        let end = GameEnd {
            reason,
            stop: false,
        };
        if self.link.send(&Message::GameEnd(end)).is_err() {
            return;
        }
        let deadline = Instant::now() + ACK_WAIT;
        while let Ok(m) = self.link.receive(deadline) {
            if matches!(m, Message::GameEnd(_)) {
                break;
            }
        }
    }
}

impl Drop for DxpPlayer {
    fn drop(&mut self) {
        // No further games: the program may stop.
        let stop = GameEnd {
            reason: EndReason::Unspecified,
            stop: true,
        };
        let _ = self.link.send(&Message::GameEnd(stop));
        self.link.close();
        if let Some(child) = self.child.as_mut() {
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
