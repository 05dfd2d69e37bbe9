//! `damas dxp` against an initiator written here from the DamExchange Protocol's published
//! layouts (DXP 1.0, Harm Jetten and Wim Korteweg's description as the Dutch computer draughts
//! tournaments use it; also the messages pydraughts' DXP client sends), not from Damas's own
//! codec: GAMEREQ `R` version(2) initiator name(32) follower colour(W/Z) minutes(3) moves(3)
//! `A` or `B` colour-to-move board(50 × e/w/z/W/Z); GAMEACC `A` name(32) code(0–3); MOVE `M`
//! seconds(4) from(2) to(2) count(2) captured(2 each); GAMEEND `E` reason(1) stop(1);
//! CHAT `C` text; BACKREQ `B` move(3) colour; BACKACC `K` code. Every message ends with NUL.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use damas::core::color::Color;
use damas::core::game::{Game, GameResult};
use damas::core::notation::{square_from_number, square_number};
use damas::core::pdn;
use damas::core::position::{MoveOf, Position};
use damas::core::rules::International;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::support::hub_process::HubProcess;
use crate::support::run::damas;

type I = International;

const WAIT: Duration = Duration::from_secs(30);

/// A `damas dxp --listen 127.0.0.1:0` child and the address it listens on.
struct Follower {
    process: HubProcess,
    addr: String,
}

impl Follower {
    fn start(extra: &[&str]) -> Follower {
        let mut command = Command::new(env!("CARGO_BIN_EXE_damas"));
        command
            .args([
                "dxp",
                "--listen",
                "127.0.0.1:0",
                "--no-book",
                "--hash",
                "16",
            ])
            .args(extra);
        let process = HubProcess::spawn(command);
        let first = process
            .lines
            .recv_timeout(WAIT)
            .expect("damas dxp says where it listens");
        let addr = first
            .strip_prefix("dxp: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
            .to_string();
        Follower { process, addr }
    }

    fn connect(&self) -> Peer {
        Peer::connect(&self.addr)
    }

    /// A connection the follower takes: one busy with an earlier peer tells a new
    /// connection so at once and closes it, so wait for a connection it keeps quiet on.
    fn connect_when_free(&self) -> Peer {
        let deadline = Instant::now() + WAIT;
        loop {
            let mut peer = self.connect();
            peer.stream
                .set_read_timeout(Some(Duration::from_millis(300)))
                .expect("timeout");
            let mut byte = [0u8; 1];
            match peer.stream.read(&mut byte) {
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return peer
                }
                _ => assert!(Instant::now() < deadline, "{:?}", self.lines()),
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Every line logged so far.
    fn lines(&self) -> Vec<String> {
        self.process.lines.try_iter().collect()
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.process.child.kill();
        let _ = self.process.child.wait();
    }
}

/// The initiator's end of one connection: messages as text, NUL-framed.
struct Peer {
    stream: TcpStream,
    pending: Vec<u8>,
}

impl Peer {
    fn connect(addr: &str) -> Peer {
        let stream = TcpStream::connect(addr).expect("connect to damas dxp");
        Peer {
            stream,
            pending: Vec::new(),
        }
    }

    fn send(&mut self, message: &str) {
        let mut bytes = message.as_bytes().to_vec();
        bytes.push(0);
        self.stream.write_all(&bytes).expect("send");
    }

    /// The next message, or `None` when the follower closed the connection.
    fn receive(&mut self) -> Option<String> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == 0) {
                let message: Vec<u8> = self.pending.drain(..=end).collect();
                return Some(String::from_utf8_lossy(&message[..end]).into_owned());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no message from damas dxp within {WAIT:?}");
            self.stream.set_read_timeout(Some(left)).expect("timeout");
            let mut buf = [0u8; 4096];
            match self.stream.read(&mut buf) {
                Ok(0) => return None,
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => continue,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    eprintln!("read from damas dxp: {e}");
                    return None;
                }
            }
        }
    }

    /// The next message that is not a CHAT, with the CHATs before it.
    fn receive_past_chat(&mut self) -> (Option<String>, Vec<String>) {
        let mut chats = Vec::new();
        loop {
            match self.receive() {
                Some(m) if m.starts_with('C') => chats.push(m[1..].to_string()),
                other => return (other, chats),
            }
        }
    }

    /// The next message, which must be a CHAT reporting an error.
    fn expect_error_chat(&mut self, after: &str) -> String {
        let m = self
            .receive()
            .unwrap_or_else(|| panic!("closed after {after:?}"));
        assert!(
            m.starts_with("Cerror: "),
            "after {after:?} expected an error CHAT, got {m:?}"
        );
        m
    }

    /// Whether the follower closes the connection within [`WAIT`].
    fn closes(&mut self) -> bool {
        loop {
            match self.receive() {
                None => return true,
                Some(_) => continue,
            }
        }
    }
}

fn name(text: &str) -> String {
    format!("{text:<32}")
}

fn game_request(follower: char, minutes: u32, moves: u32, start: &str) -> String {
    format!(
        "R01{}{follower}{minutes:03}{moves:03}{start}",
        name("Damas test initiator")
    )
}

/// `B` and the side to move, then the 50 squares of `pos` in DXP's letters.
fn position_field(pos: &Position<I>) -> String {
    let mut s = String::from("B");
    s.push(if pos.side_to_move() == Color::White {
        'W'
    } else {
        'Z'
    });
    let board = damas::core::notation::write_board_string(pos);
    s.extend(board.chars().skip(1).map(|c| match c {
        'b' => 'z',
        'B' => 'Z',
        other => other,
    }));
    s
}

fn move_message(m: &MoveOf<I>) -> String {
    let mut s = format!(
        "M0000{:02}{:02}{:02}",
        square_number::<I>(m.from),
        square_number::<I>(m.to),
        m.captured.count()
    );
    for sq in m.captured {
        s.push_str(&format!("{:02}", square_number::<I>(sq)));
    }
    s
}

/// The legal move of `pos` a MOVE message describes; panics when there is none.
fn legal_move(pos: &Position<I>, message: &str) -> MoveOf<I> {
    assert!(message.starts_with('M'), "expected a MOVE, got {message:?}");
    let field = |at: usize, width: usize| -> u32 {
        message
            .get(at..at + width)
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("bad MOVE {message:?}"))
    };
    let count = field(9, 2) as usize;
    assert_eq!(message.len(), 11 + 2 * count, "MOVE length: {message:?}");
    let square = |n: u32| square_from_number::<I>(n).unwrap_or_else(|| panic!("square {n}"));
    let (from, to) = (square(field(5, 2)), square(field(7, 2)));
    let captured: Vec<_> = (0..count).map(|i| square(field(11 + 2 * i, 2))).collect();
    let fits: Vec<MoveOf<I>> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from && m.to == to)
        .filter(|m| {
            m.captured.count() as usize == captured.len()
                && captured.iter().all(|&c| m.captured.contains(c))
        })
        .collect();
    assert_eq!(fits.len(), 1, "{message:?} is not one legal move");
    fits[0]
}

/// Play a game from `start` with Damas on `damas_side`, the initiator choosing random legal
/// moves, to its end or `max_plies`; returns the game as the initiator saw it.
fn play_game(
    peer: &mut Peer,
    start: Position<I>,
    damas_side: Color,
    seed: u64,
    max_plies: usize,
) -> Game<I> {
    let start_field = if start == Position::start() {
        "A".to_string()
    } else {
        position_field(&start)
    };
    let follower = if damas_side == Color::White { 'W' } else { 'Z' };
    peer.send(&game_request(follower, 1, 999, &start_field));
    let (accept, chats) = peer.receive_past_chat();
    let accept = accept.expect("an answer to GAMEREQ");
    assert_eq!(accept.len(), 34, "GAMEACC length: {accept:?} {chats:?}");
    assert!(accept.starts_with("ADamas"), "{accept:?}");
    assert!(accept.ends_with('0'), "game refused: {accept:?} {chats:?}");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(start);
    while game.moves().len() < max_plies {
        if let Some(outcome) = game.outcome() {
            // Whoever is to move at the end sends GAMEEND; the other acknowledges.
            if game.position().side_to_move() == damas_side {
                let end = peer.receive_past_chat().0.expect("GAMEEND from Damas");
                let expected = match outcome.result {
                    GameResult::Draw => '2',
                    r if r == GameResult::win_for(damas_side) => '3',
                    _ => '1',
                };
                assert_eq!(end, format!("E{expected}0"), "{outcome:?}");
                peer.send("E00");
            } else {
                peer.send("E00");
                let ack = peer.receive_past_chat().0.expect("GAMEEND acknowledged");
                assert!(ack.starts_with('E') && ack.len() == 3, "{ack:?}");
            }
            return game;
        }
        let pos = *game.position();
        if pos.side_to_move() == damas_side {
            let message = peer.receive_past_chat().0.expect("a MOVE from Damas");
            let m = legal_move(&pos, &message);
            game.force(&m);
        } else {
            let moves = pos.legal_moves();
            let m = moves[rng.gen_range(0..moves.len())];
            peer.send(&move_message(&m));
            game.force(&m);
        }
    }
    peer.send("E00");
    // Damas may have sent its next move before it read the GAMEEND.
    let mut ack = peer.receive_past_chat().0.expect("GAMEEND acknowledged");
    if ack.starts_with('M') && game.position().side_to_move() == damas_side {
        ack = peer.receive_past_chat().0.expect("GAMEEND acknowledged");
    }
    assert!(ack.starts_with('E') && ack.len() == 3, "{ack:?}");
    game
}

fn pdn_path(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn whole_games_against_an_initiator_are_legal_and_written_to_pdn() {
    let pdn = pdn_path("dxp-follower.pdn");
    let follower = Follower::start(&["--pdn", pdn.to_str().expect("utf-8 path")]);
    let mut peer = follower.connect();
    // A game from a position the request carries: kings and men, Black to move.
    let given =
        damas::core::notation::parse_fen::<I>("B:W28,33,K46:B12,19,K5").expect("a valid position");
    let games = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        [
            play_game(&mut peer, Position::start(), Color::White, 1, 400),
            play_game(&mut peer, Position::start(), Color::Black, 2, 400),
            play_game(&mut peer, given, Color::Black, 3, 60),
        ]
    }));
    let [first, second, third] = games.unwrap_or_else(|e| {
        std::thread::sleep(Duration::from_millis(500));
        eprintln!("damas dxp said: {:#?}", follower.lines());
        std::panic::resume_unwind(e)
    });
    assert_eq!(third.start(), &given);
    peer.send("E01");
    assert!(peer.closes(), "GAMEEND with stop set ends the connection");

    // Each game the follower wrote replays to the moves played here.
    let text = std::fs::read_to_string(&pdn).expect("the PDN file is written");
    let games = pdn::parse(&text).expect("the PDN file parses");
    assert_eq!(games.len(), 3, "{text}");
    for (written, played) in games.iter().zip([&first, &second, &third]) {
        let replayed = pdn::replay::<I>(written).expect("the PDN game replays");
        assert_eq!(replayed.start(), played.start());
        assert_eq!(replayed.moves(), played.moves());
    }
}

#[test]
fn hostile_messages_are_answered_and_change_nothing() {
    let follower = Follower::start(&[]);
    let mut peer = follower.connect();
    peer.send("M0001322800");
    peer.expect_error_chat("MOVE without a game");
    peer.send("R01Truncated");
    peer.expect_error_chat("a truncated GAMEREQ");
    peer.send("X1234");
    peer.expect_error_chat("an unknown message type");
    peer.send("");
    peer.expect_error_chat("an empty message");
    peer.send("E2");
    peer.expect_error_chat("a GAMEEND of wrong length");
    peer.send("Aname");
    peer.expect_error_chat("a truncated GAMEACC");

    // Requests that decode but cannot be played are declined with the published codes.
    let answer = |peer: &mut Peer, request: &str| -> String {
        peer.send(request);
        let (a, _) = peer.receive_past_chat();
        a.expect("GAMEACC")
    };
    let wrong_version = format!("R02{}W001999A", name("x"));
    assert!(answer(&mut peer, &wrong_version).ends_with('1'));
    assert!(answer(&mut peer, &game_request('W', 0, 0, "A")).ends_with('2'));
    // A white man on square 3, its crowning row: not a position of the game.
    let mut squares: Vec<char> = "e".repeat(50).chars().collect();
    squares[2] = 'w';
    squares[40] = 'z';
    let bad_position = format!("BW{}", squares.iter().collect::<String>());
    assert!(answer(&mut peer, &game_request('W', 1, 999, &bad_position)).ends_with('2'));
    // A board with a letter outside e/w/z/W/Z does not decode at all.
    let garbled = format!("BW{}", "q".repeat(50));
    peer.send(&game_request('W', 1, 999, &garbled));
    peer.expect_error_chat("a GAMEREQ with a garbled board");

    // In a game with Damas as Black, refused moves leave the position where it was.
    assert!(answer(&mut peer, &game_request('Z', 1, 999, "A")).ends_with('0'));
    let mut game = Game::new(Position::<I>::start());
    for bad in [
        "M0000322600",   // no such move: 32 is not next to 26
        "M0000992800",   // no square 99
        "M00003228",     // no capture count
        "M000032280122", // a capture count for a quiet move
        "M00ab322800",   // letters in the time field
    ] {
        peer.send(bad);
        peer.expect_error_chat(bad);
    }
    peer.send("K0");
    peer.expect_error_chat("BACKACC to a follower");
    let opening = *game
        .position()
        .legal_moves()
        .iter()
        .find(|m| square_number::<I>(m.from) == 32 && square_number::<I>(m.to) == 28)
        .expect("32-28 opens the game");
    peer.send(&move_message(&opening));
    game.force(&opening);
    let reply = peer.receive_past_chat().0.expect("Damas answers 32-28");
    let m = legal_move(game.position(), &reply);
    game.force(&m);
    // A take-back to the start is accepted: the game goes on from there.
    peer.send("B001W");
    assert_eq!(peer.receive_past_chat().0.as_deref(), Some("K0"));
    peer.send(&move_message(&opening));
    let after_take_back = peer.receive_past_chat().0.expect("Damas moves again");
    let mut restarted = Game::new(Position::<I>::start());
    restarted.force(&opening);
    legal_move(restarted.position(), &after_take_back);
    peer.send("E10");
    assert_eq!(peer.receive_past_chat().0.as_deref(), Some("E00"));
}

#[test]
fn a_megabyte_without_nul_closes_the_connection_and_the_next_one_plays() {
    let follower = Follower::start(&[]);
    let mut flood = follower.connect();
    let megabyte = vec![b'C'; 1 << 20];
    // The follower may close before all of it is written.
    let _ = flood.stream.write_all(&megabyte);
    assert!(flood.closes(), "an oversized message closes the connection");
    let mut peer = follower.connect_when_free();
    play_game(&mut peer, Position::start(), Color::White, 4, 6);
}

#[test]
fn one_connection_at_a_time_and_a_dropped_peer_frees_the_follower() {
    let follower = Follower::start(&[]);
    let mut first = follower.connect();
    first.send(&game_request('Z', 1, 999, "A"));
    assert!(first.receive_past_chat().0.expect("GAMEACC").ends_with('0'));
    let mut second = follower.connect();
    let told = second.receive().expect("the second connection is told why");
    assert!(told.starts_with('C'), "{told:?}");
    assert!(second.closes(), "the second connection is closed");
    // The first peer disconnects mid-game; the follower takes the next connection.
    first.stream.shutdown(Shutdown::Both).expect("shutdown");
    drop(first);
    let deadline = Instant::now() + WAIT;
    loop {
        let mut peer = follower.connect();
        peer.send(&game_request('W', 1, 999, "A"));
        match peer.receive_past_chat().0 {
            Some(a) if a.starts_with('A') => {
                assert!(a.ends_with('0'), "{a:?}");
                let m = peer.receive_past_chat().0.expect("Damas opens");
                legal_move(&Position::start(), &m);
                break;
            }
            // Still busy with the dropped session: told and closed; try again.
            _ => assert!(Instant::now() < deadline, "{:?}", follower.lines()),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn dxp_refuses_boards_it_cannot_describe_and_bad_addresses() {
    for args in [
        &["dxp", "--variant", "english"][..],
        &["dxp", "--variant", "nonsense"],
        &["dxp", "--listen", "not an address:x"],
        &["dxp", "--connect", "127.0.0.1:1"],
    ] {
        let (code, out, err) = damas(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

#[test]
fn a_match_against_a_dxp_engine_it_starts() {
    let port = free_port();
    let pdn = pdn_path("dxp-match.pdn");
    let bin = env!("CARGO_BIN_EXE_damas");
    let engine = format!(
        "name=follower dxp=127.0.0.1:{port} cmd='{bin} dxp --listen 127.0.0.1:{port} --no-book --hash 16'"
    );
    let pdn_arg = pdn.to_str().expect("utf-8 path");
    let (code, out, err) = damas(&[
        "match",
        "--variant",
        "international",
        "--player",
        "name=hub hash=16",
        "--engine",
        &engine,
        "--time",
        "60",
        "--moves",
        "999",
        "--games",
        "2",
        "--max-plies",
        "60",
        "--pdn",
        pdn_arg,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let result = out
        .lines()
        .rfind(|l| l.starts_with("result "))
        .unwrap_or_else(|| panic!("no result line: {out}"));
    assert!(result.starts_with("result games=2 "), "{result}");
    let games = pdn::parse(&std::fs::read_to_string(&pdn).expect("PDN")).expect("parses");
    assert_eq!(games.len(), 2);
    for g in &games {
        let replayed = pdn::replay::<I>(g).expect("every move legal");
        assert!(!replayed.moves().is_empty());
    }
}

#[test]
fn a_match_with_a_dxp_engine_refuses_what_dxp_cannot_say() {
    let engine = "name=x dxp=127.0.0.1:1";
    for (extra, why) in [
        (&["--movetime", "0.1"][..], "move time"),
        (&["--time", "90"], "not whole minutes"),
        (&["--time", "60", "--inc", "1"], "increment"),
    ] {
        let mut args = vec![
            "match",
            "--variant",
            "international",
            "--player",
            "name=a",
            "--engine",
            engine,
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = damas(&args);
        assert_eq!(code, 2, "{why}: {out} {err}");
        assert_eq!(err.trim().lines().count(), 1, "{why}: {err}");
    }
    let (code, _, err) = damas(&[
        "match",
        "--variant",
        "english",
        "--player",
        "name=a",
        "--engine",
        engine,
        "--time",
        "60",
    ]);
    assert_eq!(code, 2, "{err}");
}
