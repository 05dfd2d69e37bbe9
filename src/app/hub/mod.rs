//! The Hub protocol (version 2), as Scan speaks it, with extensions a client may ignore:
//! more variants and board sizes, `pos fen=…`, multi-PV and `seldepth` in `info` lines.
//!
//! [`Session`] owns the protocol state and handles one line at a time; the search runs on
//! its own thread and writes `info` and `done` through the shared [`Output`]. [`run`]
//! adds the reader thread that owns stdin, so `ping` and `stop` are answered mid-search.

pub mod message;
pub mod pydraughts;

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::core::variant::Variant;
use crate::engine::book::{self, Book};
use crate::engine::limits::{self, Whole};
use crate::engine::{hash_mb_ceiling, legal_move_count, Engine, Start, DEFAULT_BOOK_MARGIN};
use crate::search::limits::{Clock, Limits};
use crate::search::trained::TrainedWeights;
use crate::search::Control;
use crate::with_rules;
use message::{parse, quote, read_line, Line, Message};

const DEFAULT_HASH_MB: usize = 64;
/// Level used when a `go` comes without one.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// Where protocol lines go: the client, and the log file if one is kept.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Sink>>,
}

struct Sink {
    out: Box<dyn Write + Send>,
    log: Option<File>,
    origin: Instant,
}

impl Output {
    pub fn new(out: Box<dyn Write + Send>, log: Option<File>) -> Self {
        Output {
            inner: Arc::new(Mutex::new(Sink {
                out,
                log,
                origin: Instant::now(),
            })),
        }
    }

    /// Send one line to the client, flushed.
    pub fn line(&self, text: &str) {
        let mut s = match self.inner.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(s.out, "{text}");
        let _ = s.out.flush();
        s.log_line('>', text);
    }

    /// Record a line received from the client (log only).
    pub fn received(&self, text: &str) {
        let mut s = match self.inner.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        s.log_line('<', text);
    }

    fn error(&self, message: &str) {
        self.line(&format!("error message={}", quote(message)));
    }
}

impl Sink {
    fn log_line(&mut self, direction: char, text: &str) {
        let t = self.origin.elapsed().as_secs_f64();
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "{t:10.3} {direction} {text}");
        }
    }
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

#[derive(Clone, PartialEq, Eq, Debug)]
enum StartText {
    Initial,
    Board(String),
    Fen(String),
}

impl StartText {
    fn as_start(&self) -> Start<'_> {
        match self {
            StartText::Initial => Start::Initial,
            StartText::Board(b) => Start::Board(b),
            StartText::Fen(f) => Start::Fen(f),
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct GamePosition {
    start: StartText,
    moves: Vec<String>,
}

/// Printed on stderr when stdin is a terminal: a person, not a client, started the engine.
pub const TERMINAL_HINT: &str =
    "Damas speaks the Hub protocol here (for GUIs); type 'help' for its \
commands, 'quit' to leave, or run 'damas play' for a game at the terminal.";

/// The answer to `help`.
const HELP: &[&str] = &[
    "Hub protocol commands (one per line; values with blanks go in double quotes):",
    "  hub                                  the engine's name and its params, then wait",
    "  set-param name=N value=V             set a param (variant, threads, hash, ponder, multipv, book, ...)",
    "  init                                 size the hash table, load the book; answers ready",
    "  new-game                             forget the previous game",
    "  pos start | pos pos=BOARD | pos fen=\"FEN\"  [moves=\"M1 M2 ...\"]   the position to search",
    "  level depth=N | nodes=N | move-time=S | time=S [inc=S] [moves=N] | infinite",
    "  go think | go ponder | go analyze     search; info lines, then done move=M",
    "  ponder-hit                           the expected move came: go on under the clock",
    "  stop                                 answer now with the best move found",
    "  ping                                 answers pong",
    "  help                                 this list",
    "  quit                                 leave",
    "Example: pos start   then   level move-time=1   then   go think",
];

/// Whether to greet a person: only when stdin is a terminal, never on a pipe (clients read
/// stderr too).
pub fn terminal_hint(stdin_is_terminal: bool) -> Option<&'static str> {
    stdin_is_terminal.then_some(TERMINAL_HINT)
}

/// Boolean variant options and their defaults (announced as params).
const VARIANT_OPTIONS: &[(&str, bool)] = &[("mandatory-capture", true), ("crown-continues", false)];

struct Search {
    control: Arc<Control>,
    handle: JoinHandle<()>,
}

/// The protocol state of one client connection.
pub struct Session {
    out: Output,
    engine: Arc<Engine>,
    base_variant: Variant,
    options: Vec<(&'static str, bool)>,
    threads: usize,
    hash_mb: usize,
    multipv: usize,
    ponder: bool,
    /// Play book moves in `go think` and `go ponder` (never in `go analyze`).
    book: bool,
    book_margin: f64,
    /// `book-file`: a book replacing the shipped one (empty: the shipped books).
    book_path: String,
    book_file: Option<Arc<Book>>,
    /// `eval-file`: trained weights replacing the shipped ones for the variant they were
    /// read for (empty: the shipped weights).
    eval_path: String,
    eval_file: Option<(Variant, Arc<TrainedWeights>)>,
    /// `egdb-path`: the endgame tables' root directory (empty: the default directory).
    egdb_path: String,
    /// `egdb-pieces`: probe the tables up to this many pieces (0: off).
    egdb_pieces: u32,
    /// `pydraughts`: read and write 8×8 boards and moves as pydraughts' Hub client does.
    pydraughts: bool,
    position: Option<GamePosition>,
    level: Option<Limits>,
    search: Option<Search>,
}

impl Session {
    pub fn new(out: Output) -> Self {
        Session {
            out,
            engine: Arc::new(Engine::new(DEFAULT_HASH_MB)),
            base_variant: Variant::International,
            options: VARIANT_OPTIONS.to_vec(),
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            multipv: 1,
            ponder: false,
            book: true,
            book_margin: DEFAULT_BOOK_MARGIN,
            book_path: String::new(),
            book_file: None,
            eval_path: String::new(),
            eval_file: None,
            egdb_path: String::new(),
            egdb_pieces: 0,
            pydraughts: false,
            position: None,
            level: None,
            search: None,
        }
    }

    /// The engine this session drives.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The variant with its options applied.
    fn variant(&self) -> Variant {
        let mut v = self.base_variant;
        for (name, value) in &self.options {
            if let Ok(w) = v.with_option(name, if *value { "true" } else { "false" }) {
                v = w;
            }
        }
        v
    }

    fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.handle.is_finished())
    }

    /// Stop a running search and wait for its `done`.
    pub fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.control.stop();
            let _ = s.handle.join();
        }
    }

    /// A line longer than [`message::MAX_LINE`] came, `length` bytes, and was thrown away
    /// as it was read: one error, as for any bad line.
    pub fn too_long(&mut self, length: usize) -> Flow {
        self.out.received(&format!("<a line of {length} bytes>"));
        self.out
            .error(&message::MessageError::TooLong(length).to_string());
        Flow::Continue
    }

    /// Handle one line from the client.
    pub fn handle(&mut self, bytes: &[u8]) -> Flow {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(2000)]).into_owned();
        self.out.received(&shown);
        let msg = match parse(bytes) {
            Ok(m) => m,
            Err(message::MessageError::Empty) => return Flow::Continue,
            Err(e) => {
                self.out.error(&e.to_string());
                return Flow::Continue;
            }
        };
        if self.searching() {
            match msg.command.as_str() {
                "ping" => {
                    self.out.line("pong");
                    return Flow::Continue;
                }
                "help" => {
                    self.help();
                    return Flow::Continue;
                }
                "ponder-hit" => {
                    if let Some(s) = &self.search {
                        s.control.ponder_hit();
                    }
                    return Flow::Continue;
                }
                // Anything else stops the search first, as Scan does.
                _ => self.stop_search(),
            }
        } else if let Some(s) = self.search.take() {
            let _ = s.handle.join();
        }
        match self.dispatch(&msg) {
            Ok(flow) => flow,
            Err(e) => {
                self.out.error(&e);
                Flow::Continue
            }
        }
    }

    fn dispatch(&mut self, m: &Message) -> Result<Flow, String> {
        match m.command.as_str() {
            "hub" => self.handshake(),
            "init" => {
                // The table is sized here; a failure is reported and the session goes on.
                if let Err(e) = self.apply_hash() {
                    self.out.error(&e);
                }
                // Parse the book now, not in the first search.
                if self.book && self.book_file.is_none() {
                    let _ = book::shipped(self.variant());
                }
                self.out.line("ready");
            }
            "set-param" => self.set_param(m)?,
            "new-game" => self.engine.clear(),
            "pos" => self.set_position(m)?,
            "level" => self.level = Some(parse_level(m)?),
            "go" => self.go(m)?,
            "ping" => self.out.line("pong"),
            "help" => self.help(),
            "stop" | "ponder-hit" => {}
            "quit" => return Ok(Flow::Quit),
            other => return Err(format!("unknown command '{}'", clip(other))),
        }
        Ok(Flow::Continue)
    }

    /// The commands, for a person at the keyboard (a client never sends `help`).
    fn help(&self) {
        for line in HELP {
            self.out.line(line);
        }
    }

    fn handshake(&self) {
        self.out.line(&format!(
            "id name=Damas version={} author={} country={}",
            env!("CARGO_PKG_VERSION"),
            quote("Damas developers"),
            quote("")
        ));
        self.out.line(&format!(
            "param name=variant value={} type=enum values={}",
            self.base_variant.name(),
            quote(&Variant::NAMES.join(" "))
        ));
        self.out.line(&format!(
            "param name=threads value={} type=int min={} max={}",
            self.threads,
            limits::THREADS.min,
            limits::THREADS.max
        ));
        self.out.line(&format!(
            "param name=hash value={} type=int min={} max={}",
            self.hash_mb,
            limits::HASH_MB.min,
            hash_mb_ceiling(limits::HASH_MB.max as usize)
        ));
        self.out.line(&format!(
            "param name=ponder value={} type=bool",
            self.ponder
        ));
        self.out.line(&format!(
            "param name=multipv value={} type=int min={} max={}",
            self.multipv,
            limits::MULTIPV.min,
            limits::MULTIPV.max
        ));
        self.out
            .line(&format!("param name=book value={} type=bool", self.book));
        self.out.line(&format!(
            "param name=pydraughts value={} type=bool",
            self.pydraughts
        ));
        self.out.line(&format!(
            "param name=book-margin value={:.2} type=real min={} max={}",
            self.book_margin,
            limits::BOOK_MARGIN.min,
            limits::BOOK_MARGIN.max
        ));
        self.out.line(&format!(
            "param name=book-file value={} type=string",
            quote(&self.book_path)
        ));
        self.out.line(&format!(
            "param name=eval-file value={} type=string",
            quote(&self.eval_path)
        ));
        self.out.line(&format!(
            "param name=egdb-path value={} type=string",
            quote(&self.egdb_path)
        ));
        self.out.line(&format!(
            "param name=egdb-pieces value={} type=int min={} max={}",
            self.egdb_pieces,
            limits::EGDB_PROBE_PIECES.min,
            limits::EGDB_PROBE_PIECES.max
        ));
        for (name, value) in &self.options {
            self.out
                .line(&format!("param name={name} value={value} type=bool"));
        }
        self.out.line("wait");
    }

    /// Give the engine a table of the size asked for (freeing the old one first). When that
    /// much memory cannot be had the engine keeps a working table, the `hash` param falls
    /// back to its size, and the error says so.
    fn apply_hash(&mut self) -> Result<(), String> {
        if Arc::get_mut(&mut self.engine).is_none() {
            // Only this session holds the engine once its search has ended; should a search
            // thread still hold it, start afresh (the table is allocated on first use).
            self.engine = Arc::new(Engine::new(self.hash_mb));
        }
        let Some(engine) = Arc::get_mut(&mut self.engine) else {
            return Ok(());
        };
        match engine.set_hash(self.hash_mb) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.hash_mb = engine.hash_mb();
                Err(format!("{e}; keeping {} MB", self.hash_mb))
            }
        }
    }

    fn set_param(&mut self, m: &Message) -> Result<(), String> {
        let name = m.get("name").ok_or("set-param needs name=")?;
        let value = m.get("value").ok_or("set-param needs value=")?;
        match name {
            "variant" => {
                let v = Variant::from_name(value).map_err(|e| e.to_string())?;
                if v != self.base_variant {
                    self.base_variant = v;
                    self.position = None;
                }
            }
            "threads" => self.threads = parse_int(name, value, limits::THREADS)?,
            "hash" => {
                self.hash_mb = parse_int(name, value, limits::HASH_MB)?;
                self.apply_hash()?;
            }
            "multipv" => self.multipv = parse_int(name, value, limits::MULTIPV)?,
            "ponder" => self.ponder = parse_bool(name, value)?,
            "book" => self.book = parse_bool(name, value)?,
            "pydraughts" => self.pydraughts = parse_bool(name, value)?,
            "book-margin" => {
                self.book_margin = limits::BOOK_MARGIN
                    .parse(value)
                    .map_err(|e| format!("bad value '{}' for {name} ({e})", clip(value)))?
            }
            "book-file" => {
                let path = value.trim();
                self.book_file = if path.is_empty() {
                    None
                } else {
                    let b = Book::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
                    Some(Arc::new(b))
                };
                self.book_path = path.to_string();
            }
            "egdb-path" => self.egdb_path = value.trim().to_string(),
            "egdb-pieces" => {
                self.egdb_pieces = parse_int(name, value, limits::EGDB_PROBE_PIECES)? as u32
            }
            "eval-file" => {
                let path = value.trim();
                self.eval_file = if path.is_empty() {
                    None
                } else {
                    // Read for the variant set now: set the variant first.
                    let variant = self.variant();
                    let mut probe = Engine::new(1);
                    probe
                        .load_eval_file(variant, std::path::Path::new(path))
                        .map_err(|e| e.to_string())?;
                    probe.eval_file.take()
                };
                self.eval_path = path.to_string();
            }
            _ => {
                let slot = self
                    .options
                    .iter_mut()
                    .find(|(n, _)| *n == name)
                    .ok_or_else(|| format!("unknown param '{}'", clip(name)))?;
                slot.1 = parse_bool(name, value)?;
            }
        }
        Ok(())
    }

    fn set_position(&mut self, m: &Message) -> Result<(), String> {
        let variant = self.variant();
        let dialect = self.pydraughts;
        let start = if let Some(b) = m.get("pos") {
            StartText::Board(if dialect {
                with_rules!(variant, R => pydraughts::board_in::<R>(b))
            } else {
                b.to_string()
            })
        } else if let Some(f) = m.get("fen") {
            StartText::Fen(f.to_string())
        } else if m.has("start") {
            StartText::Initial
        } else {
            return Err("pos needs pos=, fen= or start".into());
        };
        let moves: Vec<String> = m
            .get("moves")
            .unwrap_or("")
            .split_whitespace()
            .map(|t| {
                if dialect {
                    with_rules!(variant, R => pydraughts::move_in::<R>(t))
                } else {
                    Ok(t.to_string())
                }
            })
            .collect::<Result<_, _>>()?;
        legal_move_count(variant, start.as_start(), &moves).map_err(|e| e.to_string())?;
        self.position = Some(GamePosition { start, moves });
        // Scan resets the level at each position.
        self.level = None;
        Ok(())
    }

    fn go(&mut self, m: &Message) -> Result<(), String> {
        let mode = m.args.first().map(|(n, _)| n.as_str()).unwrap_or("think");
        let pondering = match mode {
            "think" => false,
            "ponder" => true,
            "analyze" | "analyse" => false,
            other => return Err(format!("unknown go mode '{}'", clip(other))),
        };
        let position = self.position.clone().ok_or("no position: send pos first")?;
        let variant = self.variant();
        let legal = legal_move_count(variant, position.start.as_start(), &position.moves)
            .map_err(|e| e.to_string())?;
        if legal == 0 {
            return Err("no legal move in this position: the game is over".into());
        }
        let mut limits = self.level.take().unwrap_or_else(|| {
            if mode == "think" || mode == "ponder" {
                Limits::move_time(DEFAULT_MOVE_TIME)
            } else {
                Limits::default()
            }
        });
        if mode == "analyze" || mode == "analyse" {
            limits.infinite = true;
        }
        if let Err(e) = self.apply_hash() {
            self.out.error(&e);
        }
        if let Some(e) = Arc::get_mut(&mut self.engine) {
            e.threads = self.threads;
            e.book = self.book && !mode.starts_with("analy");
            e.book_margin = self.book_margin;
            e.book_file = self.book_file.clone();
            e.eval_file = self.eval_file.clone();
            e.egdb_path = (!self.egdb_path.is_empty()).then(|| self.egdb_path.clone().into());
            e.egdb_pieces = self.egdb_pieces;
            e.multipv = if mode.starts_with("analy") {
                self.multipv
            } else {
                1
            };
        }
        let control = Arc::new(Control::new(pondering));
        let engine = Arc::clone(&self.engine);
        let out = self.out.clone();
        let c = Arc::clone(&control);
        let dialect = self.pydraughts;
        let said = move |text: &str| {
            if dialect {
                with_rules!(variant, R => pydraughts::move_out::<R>(text))
            } else {
                text.to_string()
            }
        };
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let result = engine.think(
                    variant,
                    position.start.as_start(),
                    &position.moves,
                    limits,
                    &c,
                    &mut |i| {
                        if dialect {
                            let mut i = i.clone();
                            i.pv = i.pv.iter().map(|m| said(m)).collect();
                            out.line(&i.hub_line());
                        } else {
                            out.line(&i.hub_line());
                        }
                    },
                );
                // A table file that cannot be read is said once; the search went on without.
                for e in engine.take_table_errors() {
                    out.error(&e);
                }
                match result {
                    Ok(d) => {
                        let mut line = format!("done move={}", said(&d.best));
                        if let Some(p) = d.ponder {
                            line.push_str(&format!(" ponder={}", said(&p)));
                        }
                        out.line(&line);
                    }
                    Err(e) => out.error(&e.to_string()),
                }
            })
            .map_err(|e| format!("cannot start the search: {e}"))?;
        self.search = Some(Search { control, handle });
        Ok(())
    }
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// A whole number within the engine's shared limits.
fn parse_int(name: &str, value: &str, range: Whole) -> Result<usize, String> {
    range
        .parse_usize(value)
        .map_err(|e| format!("bad value '{}' for {name} ({e})", clip(value)))
}

fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        _ => Err(format!(
            "bad value '{}' for {name} (expected true or false)",
            clip(value)
        )),
    }
}

fn parse_seconds(name: &str, value: &str) -> Result<Duration, String> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.0 && *t < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("bad time '{}' for {name}", clip(value)))
}

/// The time left on the clock. Zero or less means none: pydraughts sends `time=-0.02` when
/// less than the increment is left, and the move is then made at once, as Scan does.
fn parse_time_left(value: &str) -> Result<Duration, String> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t < 1e9)
        .map(|t| Duration::from_secs_f64(t.max(0.0)))
        .ok_or_else(|| format!("bad time '{}' for time", clip(value)))
}

fn parse_level(m: &Message) -> Result<Limits, String> {
    let mut l = Limits::default();
    let mut any = false;
    if let Some(d) = m.get("depth") {
        l.depth = Some(parse_int("depth", d, limits::DEPTH)? as u32);
        any = true;
    }
    if let Some(n) = m.get("nodes") {
        l.nodes = Some(
            limits::NODES
                .parse(n)
                .map_err(|e| format!("bad value '{}' for nodes ({e})", clip(n)))?,
        );
        any = true;
    }
    if let Some(t) = m.get("move-time") {
        l.move_time = Some(
            limits::MOVE_TIME
                .parse_duration(t)
                .map_err(|e| format!("bad value '{}' for move-time ({e})", clip(t)))?,
        );
        any = true;
    }
    if let Some(t) = m.get("time") {
        let increment = match m.get("inc") {
            Some(i) => parse_seconds("inc", i)?,
            None => Duration::ZERO,
        };
        let moves_to_go = match m.get("moves") {
            Some(n) => Some(parse_int("moves", n, limits::MOVES_TO_GO)? as u32),
            None => None,
        };
        l.clock = Some(Clock {
            time: parse_time_left(t)?,
            increment,
            moves_to_go,
        });
        any = true;
    }
    if m.has("infinite") {
        l.infinite = true;
        any = true;
    }
    if !any {
        return Err("level needs depth=, nodes=, move-time=, time= or infinite".into());
    }
    Ok(l)
}

/// Speak the protocol on stdin/stdout until `quit` or the end of input.
pub fn run(log: Option<File>) -> io::Result<()> {
    if let Some(hint) = terminal_hint(io::stdin().is_terminal()) {
        eprintln!("{hint}");
    }
    let out = Output::new(Box::new(io::stdout()), log);
    let mut session = Session::new(out);
    let (tx, rx) = mpsc::channel::<Line>();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            let mut buf = Vec::new();
            while let Ok(Some(line)) = read_line(&mut input, &mut buf) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        })?;
    while let Ok(line) = rx.recv() {
        let flow = match line {
            Line::Text(bytes) => session.handle(&bytes),
            Line::TooLong(length) => session.too_long(length),
        };
        if flow == Flow::Quit {
            break;
        }
    }
    session.stop_search();
    Ok(())
}
