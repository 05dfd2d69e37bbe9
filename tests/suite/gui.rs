//! `damas gui` over real HTTP: the server is started on port 0, the first stdout line gives
//! its address, and every request is written by hand over a `TcpStream`.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use damas::core::game::Game;
use damas::core::notation::{move_text, parse_fen, parse_move, write_fen};
use damas::core::position::Position;
use damas::core::rules::{Dameo, English, International, Rules};
use serde_json::{json, Value};

/// A running `damas gui`, killed when dropped.
struct Gui {
    child: Child,
    port: u16,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Gui {
    fn start() -> Gui {
        Gui::start_with(&[])
    }

    fn start_with(extra: &[&str]) -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
            .args(["gui", "--port", "0", "--hash", "8"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start damas gui");
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        stdout.read_line(&mut first).expect("first line");
        let rest = first
            .trim_end()
            .strip_prefix("gui: open http://127.0.0.1:")
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
        let port = rest
            .strip_suffix('/')
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {first:?}"));
        assert_ne!(port, 0);
        Gui {
            child,
            port,
            stdout,
        }
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Status, headers and body of one request with the given `Host` and extra headers.
    fn raw(
        &self,
        method: &str,
        path: &str,
        host: &str,
        extra: &str,
        body: &[u8],
    ) -> (u16, String, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        // The server may refuse before reading a large body: a failed write is not an error.
        let _ = s.write_all(body);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        (status, head.to_string(), body.to_string())
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let bytes = body.map(|b| b.to_string()).unwrap_or_default();
        let extra = if body.is_some() {
            "Content-Type: application/json\r\n"
        } else {
            ""
        };
        let (status, head, text) = self.raw(method, path, &self.host(), extra, bytes.as_bytes());
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{path}: {head}"
        );
        let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
        (status, v)
    }

    fn get(&self, path: &str) -> Value {
        let (status, v) = self.call("GET", path, None);
        assert_eq!(status, 200, "{path}: {v}");
        v
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let (status, v) = self.call("POST", path, Some(&body));
        assert_eq!(status, 200, "{path} {body}: {v}");
        v
    }

    /// A refused request: its status, and the error message.
    fn refused(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
        let (status, v) = self.call(method, path, body);
        assert!((400..500).contains(&status), "{path}: {status} {v}");
        let msg = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {v}"));
        assert!(!msg.is_empty());
        (status, msg.to_string())
    }

    /// Wait until no search runs, polling the state, for at most `limit`; whether it ended.
    fn until_idle(&self, limit: Duration) -> bool {
        let start = std::time::Instant::now();
        while self.get("/api/state")["searching"] == true {
            if start.elapsed() > limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    }

    /// Open the analysis stream; returns the stream after its headers.
    fn analyse(&self, query: &str) -> BufReader<TcpStream> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "GET /api/analyse{query} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.host()
        );
        s.write_all(head.as_bytes()).unwrap();
        let mut r = BufReader::new(s);
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        let mut head = String::new();
        loop {
            line.clear();
            r.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            head.push_str(&line);
        }
        assert!(
            head.to_ascii_lowercase().contains("text/event-stream"),
            "{head}"
        );
        r
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next event of a stream: its name and data.
fn event(r: &mut BufReader<TcpStream>) -> (String, Value) {
    let (mut name, mut data) = (String::new(), String::new());
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the stream ended");
        let line = line.trim_end();
        if line.is_empty() && !data.is_empty() {
            return (name, serde_json::from_str(&data).expect("event JSON"));
        }
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            data.push_str(d);
        }
    }
}

/// The data of a stream's `done` event, the events before it skipped.
fn until_done(r: &mut BufReader<TcpStream>) -> Value {
    loop {
        let (name, data) = event(r);
        if name == "done" {
            return data;
        }
    }
}

fn texts(state: &Value) -> BTreeSet<String> {
    state["legal"]
        .as_array()
        .expect("legal moves")
        .iter()
        .map(|m| m["text"].as_str().expect("text").to_string())
        .collect()
}

#[test]
fn every_variant_is_drawn_from_its_geometry_and_notation() {
    use damas::core::geometry::Geometry;
    use damas::core::notation::square_name;
    let gui = Gui::start();
    for &v in damas::Variant::ALL {
        let s = gui.post("/api/new", json!({"variant": v.name()}));
        damas::with_rules!(v, R => {
            let layout = <R as Rules>::G::LAYOUT;
            assert_eq!(s["board"]["width"], layout.width, "{}", v.name());
            assert_eq!(s["board"]["height"], layout.height, "{}", v.name());
            let want: Vec<(u64, u64, String)> = <R as Rules>::G::squares()
                .into_iter()
                .map(|sq| {
                    let (f, r) = <R as Rules>::G::coords(sq).expect("on the board");
                    (f as u64, r as u64, square_name::<R>(sq))
                })
                .collect();
            let got: Vec<(u64, u64, String)> = s["squares"]
                .as_array()
                .unwrap()
                .iter()
                .map(|q| {
                    (
                        q["file"].as_u64().unwrap(),
                        q["rank"].as_u64().unwrap(),
                        q["name"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            assert_eq!(got, want, "{}", v.name());
            let start: Position<R> = Position::start();
            assert_eq!(s["fen"], write_fen(&start), "{}", v.name());
        });
    }
}

#[test]
fn sigterm_stops_the_server_cleanly() {
    let mut gui = Gui::start();
    assert_eq!(gui.get("/api/state")["variant"], "english");
    let status = Command::new("kill")
        .args(["-TERM", &gui.child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let mut rest = String::new();
    gui.stdout
        .read_to_string(&mut rest)
        .expect("the rest of stdout");
    assert_eq!(rest, "gui: stopped\n");
    let code = gui.child.wait().expect("wait");
    assert!(code.success(), "{code:?}");
}

#[test]
fn serves_the_page_and_its_files() {
    let gui = Gui::start();
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let (status, head, body) = gui.raw("GET", path, &gui.host(), "", b"");
        assert_eq!(status, 200, "{path}");
        assert!(head.to_ascii_lowercase().contains(kind), "{path}: {head}");
        // Only the SVG namespace names a URL; nothing is loaded from outside.
        let body = body.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !body.contains("http://") && !body.contains("https://"),
            "{path} loads nothing from outside"
        );
    }
    let (_, _, html) = gui.raw("GET", "/", &gui.host(), "", b"");
    assert!(html.contains("/app.js") && html.contains("id=\"board\""));
    // localhost names the same server.
    let (status, _, _) = gui.raw("GET", "/", &format!("localhost:{}", gui.port), "", b"");
    assert_eq!(status, 200);
}

#[test]
fn every_endpoint_answers() {
    let gui = Gui::start();
    let variants = gui.get("/api/variants");
    let names: Vec<&str> = variants["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for v in damas::Variant::ALL {
        assert!(names.contains(&v.name()), "{} listed", v.name());
    }

    let s = gui.post(
        "/api/new",
        json!({"variant": "international", "white": "human", "black": "human", "movetime": 0.05}),
    );
    let start: Position<International> = Position::start();
    assert_eq!(s["fen"], write_fen(&start));
    assert_eq!(s["board"]["width"], 10);
    assert_eq!(s["squares"].as_array().unwrap().len(), 50);
    let local: BTreeSet<String> = start
        .legal_moves()
        .iter()
        .map(move_text::<International>)
        .collect();
    assert_eq!(texts(&s), local);

    let s = gui.post("/api/move", json!({"move": "32-28"}));
    assert_eq!(s["side"], "black");
    assert_eq!(s["history"][0]["short"], "32-28");
    let s = gui.post("/api/undo", json!({}));
    assert_eq!(s["history"].as_array().unwrap().len(), 0);
    assert_eq!(s["redo"], 1);
    let s = gui.post("/api/redo", json!({}));
    assert_eq!(s["history"][0]["text"], "32-28");
    let s = gui.post("/api/move", json!({"move": "19-23"}));
    let fen = s["fen"].as_str().unwrap().to_string();
    assert_eq!(gui.get("/api/fen")["fen"], fen);
    let s = gui.post("/api/undo", json!({"to": 0}));
    assert_eq!(s["redo"], 2);
    let s = gui.post("/api/redo", json!({"to": 2}));
    assert_eq!(s["fen"], fen);

    // Engine move: one legal move of the position, played.
    let before = gui.get("/api/state");
    let s = gui.post("/api/engine-move", json!({}));
    let played = s["engine"]["move"].as_str().unwrap();
    assert!(texts(&before).contains(played), "{played}");
    assert_eq!(s["history"].as_array().unwrap().len(), 3);

    // PDN out and back in.
    let pdn = gui.get("/api/pdn")["pdn"].as_str().unwrap().to_string();
    assert!(pdn.contains("[GameType \"20\"]"), "{pdn}");
    let after = gui.get("/api/state");
    gui.post("/api/new", json!({"variant": "english"}));
    let s = gui.post("/api/pdn", json!({"pdn": pdn}));
    assert_eq!(s["variant"], "international");
    assert_eq!(s["fen"], after["fen"]);
    assert_eq!(s["history"], after["history"]);

    // A FEN set-up.
    let s = gui.post(
        "/api/fen",
        json!({"fen": "B:WK16,26,40,46:B5,6,10,14,15,19,24,K36"}),
    );
    assert_eq!(s["side"], "black");
    assert_eq!(s["history"].as_array().unwrap().len(), 0);
    let pos: Position<International> =
        parse_fen("B:WK16,26,40,46:B5,6,10,14,15,19,24,K36").unwrap();
    let local: BTreeSet<String> = pos
        .legal_moves()
        .iter()
        .map(move_text::<International>)
        .collect();
    assert_eq!(texts(&s), local);

    // Analysis to a fixed depth: info events, then done with a legal best move.
    let mut r = gui.analyse("?multipv=2&depth=5");
    let mut infos = 0;
    let done = loop {
        let (name, data) = event(&mut r);
        match name.as_str() {
            "info" => {
                infos += 1;
                assert!(data["depth"].as_u64().is_some() && data["score"].is_string());
                assert!(data["pv"].as_array().is_some_and(|p| !p.is_empty()));
            }
            "done" => break data,
            other => panic!("unexpected event {other}"),
        }
    };
    assert!(infos > 0);
    assert!(local.contains(done["best"].as_str().unwrap()), "{done}");

    // Resignation and a draw by agreement end the game; undo takes them back.
    let s = gui.post("/api/resign", json!({}));
    assert_eq!(s["outcome"]["result"], "2-0");
    assert_eq!(s["outcome"]["reason"], "black resigned");
    assert!(s["legal"].as_array().unwrap().is_empty());
    let s = gui.post("/api/undo", json!({}));
    assert!(s["outcome"].is_null());
    let s = gui.post("/api/draw", json!({}));
    assert_eq!(s["outcome"]["result"], "1-1");
    let (status, _) = gui.refused("POST", "/api/draw", Some(&json!({})));
    assert_eq!(status, 409);

    // Engine settings.
    assert_eq!(gui.get("/api/settings")["hash"], 8);
    let st = gui.post("/api/settings", json!({"hash": 16, "threads": 2}));
    assert_eq!(st, json!({"hash": 16, "threads": 2}));
    for bad in [
        json!({"hash": 0}),
        json!({"threads": 1000}),
        json!({"hash": "big"}),
    ] {
        let (status, msg) = gui.refused("POST", "/api/settings", Some(&bad));
        assert_eq!(status, 400, "{msg}");
    }
    assert_eq!(gui.get("/api/settings"), json!({"hash": 16, "threads": 2}));

    // Stop with nothing running says so.
    assert_eq!(gui.post("/api/stop", json!({}))["stopped"], false);
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let gui = Gui::start();
    gui.post(
        "/api/new",
        json!({"variant": "english", "white": "human", "black": "human"}),
    );
    gui.post("/api/move", json!({"move": "11-15"}));
    let before = gui.get("/api/state");
    let unchanged = || {
        let now = gui.get("/api/state");
        assert_eq!(now["fen"], before["fen"]);
        assert_eq!(now["history"], before["history"]);
        assert_eq!(now["variant"], before["variant"]);
    };

    let (_, _, body) = gui.raw("POST", "/api/move", &gui.host(), "", b"{\"move\": ");
    assert!(body.contains("bad JSON"), "{body}");
    let (status, _, _) = gui.raw("POST", "/api/move", &gui.host(), "", b"[1, 2]");
    assert_eq!(status, 400);
    unchanged();
    for (path, body, needle) in [
        ("/api/move", json!({"move": "11-16"}), "illegal"),
        ("/api/move", json!({"move": "zz-99"}), "square"),
        ("/api/move", json!({"move": 12}), "string"),
        ("/api/move", json!({}), "missing"),
        ("/api/fen", json!({"fen": "W:W33:B1"}), "FEN"),
        ("/api/fen", json!({"fen": "not a fen"}), "FEN"),
        ("/api/new", json!({"variant": "chess"}), "chess"),
        (
            "/api/new",
            json!({"variant": "english", "fen": "W:W1:B2"}),
            "FEN",
        ),
        (
            "/api/new",
            json!({"variant": "english", "options": {"no-such": true}}),
            "no-such",
        ),
        ("/api/new", json!({"white": "robot"}), "white"),
        ("/api/new", json!({"movetime": -1}), "movetime"),
        ("/api/pdn", json!({"pdn": "1. 11-17 *"}), "PDN"),
        ("/api/redo", json!({}), "redo"),
        ("/api/undo", json!({"to": 5}), "back"),
        ("/api/resign", json!({"side": "green"}), "side"),
    ] {
        let (status, msg) = gui.refused("POST", path, Some(&body));
        assert_eq!(status, 400, "{path} {body}: {msg}");
        assert!(msg.contains(needle), "{path} {body}: {msg}");
        unchanged();
    }
    let (status, msg) = gui.refused("GET", "/api/analyse?multipv=99", None);
    assert_eq!(status, 400, "{msg}");

    // Another Host (DNS rebinding) or Origin: 403.
    let (status, _, body) = gui.raw("GET", "/api/state", "evil.example:80", "", b"");
    assert_eq!(status, 403);
    assert!(body.contains("Host"), "{body}");
    let (status, _, _) = gui.raw("GET", "/", &format!("evil.example:{}", gui.port), "", b"");
    assert_eq!(status, 403);
    let (status, _, body) = gui.raw(
        "POST",
        "/api/move",
        &gui.host(),
        "Origin: http://evil.example\r\n",
        b"{\"move\": \"22-18\"}",
    );
    assert_eq!(status, 403);
    assert!(body.contains("Origin"), "{body}");
    unchanged();
    // Our own Origin is fine.
    let (status, _, _) = gui.raw(
        "GET",
        "/api/state",
        &gui.host(),
        &format!("Origin: http://{}\r\n", gui.host()),
        b"",
    );
    assert_eq!(status, 200);

    // Too big a body: 413.
    let big = vec![b' '; 300 * 1024];
    let (status, _, body) = gui.raw("POST", "/api/pdn", &gui.host(), "", &big);
    assert_eq!(status, 413);
    assert!(body.contains("larger"), "{body}");
    unchanged();

    // Unknown paths and methods.
    let (status, _) = gui.refused("GET", "/api/nothing", None);
    assert_eq!(status, 404);
    let (status, _) = gui.refused("GET", "/etc/passwd", None);
    assert_eq!(status, 404);
    let (status, _) = gui.refused("GET", "/api/move", None);
    assert_eq!(status, 405);
    let (status, _) = gui.refused("DELETE", "/api/state", None);
    assert_eq!(status, 405);
    unchanged();
}

#[test]
fn one_search_at_a_time_and_analysis_stops() {
    let gui = Gui::start();
    gui.post(
        "/api/new",
        json!({"variant": "english", "white": "human", "black": "human"}),
    );
    let mut r = gui.analyse("?multipv=1");
    let (name, _) = event(&mut r);
    assert_eq!(name, "info");
    let (status, msg) = gui.refused("POST", "/api/engine-move", Some(&json!({})));
    assert_eq!(status, 409, "{msg}");
    assert!(msg.contains("already running"), "{msg}");
    let (status, _) = gui.refused("GET", "/api/analyse", None);
    assert_eq!(status, 409);
    assert_eq!(gui.get("/api/state")["searching"], true);
    assert_eq!(gui.post("/api/stop", json!({}))["stopped"], true);
    let done = until_done(&mut r);
    let start: Position<English> = Position::start();
    let legal: BTreeSet<String> = start
        .legal_moves()
        .iter()
        .map(move_text::<English>)
        .collect();
    assert!(legal.contains(done["best"].as_str().unwrap()), "{done}");
    // The slot is free again.
    gui.until_idle(Duration::from_secs(2));
    let s = gui.post("/api/engine-move", json!({}));
    assert!(legal.contains(s["engine"]["move"].as_str().unwrap()));
}

/// A page that goes away mid-analysis stops the search: the search slot is free again
/// without a `POST /api/stop`.
#[test]
fn analysis_stops_when_the_page_goes_away() {
    let gui = Gui::start();
    gui.post(
        "/api/new",
        json!({"variant": "international", "white": "human", "black": "human"}),
    );
    let mut r = gui.analyse("?multipv=4");
    let (name, _) = event(&mut r);
    assert_eq!(name, "info");
    assert_eq!(gui.get("/api/state")["searching"], true);
    drop(r);
    assert!(
        gui.until_idle(Duration::from_secs(60)),
        "the search went on after its page left"
    );
    gui.post("/api/engine-move", json!({}));
}

/// With endgame tables, analysis of a position they hold first says its value (`egdb`
/// event, and again in `done`): two English kings against a man win. A position of more
/// pieces than the tables have gets no `egdb` event.
#[test]
fn analysis_gives_the_endgame_tables_result() {
    let dir = crate::egdb::temp("gui");
    crate::egdb::cli_build(&dir, "english", &["--pieces", "3"]);
    let d = dir.to_str().unwrap();
    let gui = Gui::start_with(&["--egdb-pieces", "3", "--egdb-path", d]);
    let won = "W:WK10,K20:B3";
    gui.post(
        "/api/new",
        json!({"variant": "english", "white": "human", "black": "human", "fen": won}),
    );
    let mut r = gui.analyse("?depth=3");
    let (name, data) = event(&mut r);
    assert_eq!(
        (name.as_str(), &data["result"]),
        ("egdb", &json!("win")),
        "{data}"
    );
    let done = until_done(&mut r);
    assert_eq!(done["egdb"], "win", "{done}");
    // Black to move in the same ending loses.
    gui.post("/api/fen", json!({"fen": "B:WK10,K20:B3"}));
    let mut r = gui.analyse("?depth=3");
    assert_eq!(event(&mut r).1["result"], "loss");
    assert_eq!(until_done(&mut r)["egdb"], "loss");
    // Four pieces: beyond the tables.
    gui.post("/api/fen", json!({"fen": "W:WK10,K20:B3,4"}));
    let mut r = gui.analyse("?depth=3");
    assert_eq!(event(&mut r).0, "info");
    assert_eq!(until_done(&mut r)["egdb"], Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game to its end through the API: moves picked from the API's legal list (seeded),
/// every step checked against a local `Game` of the same rules, and the outcome compared.
fn whole_game<R: Rules>(variant: &str, seed: u64) {
    let gui = Gui::start();
    let mut s = gui.post(
        "/api/new",
        json!({"variant": variant, "white": "human", "black": "human"}),
    );
    let mut game: Game<R> = Game::new(Position::start());
    let mut rng = seed;
    let mut plies = 0;
    loop {
        assert_eq!(s["fen"], write_fen(game.position()), "ply {plies}");
        if let Some(o) = game.outcome() {
            assert_eq!(s["outcome"]["result"], o.result.pdn(), "{variant}: {s}");
            assert_eq!(
                s["outcome"]["reason"],
                o.termination.to_string(),
                "{variant}: the rule that ended it"
            );
            eprintln!(
                "{variant}: {plies} plies, {} ({})",
                o.result.pdn(),
                o.termination
            );
            assert!(s["legal"].as_array().unwrap().is_empty());
            let (status, _) = gui.refused("POST", "/api/engine-move", Some(&json!({})));
            assert_eq!(status, 409);
            break;
        }
        assert!(
            s["outcome"].is_null(),
            "{variant} ply {plies}: {}",
            s["outcome"]
        );
        let local: BTreeSet<String> = game
            .position()
            .legal_moves()
            .iter()
            .map(move_text::<R>)
            .collect();
        assert_eq!(texts(&s), local, "{variant} ply {plies}");
        let legal = s["legal"].as_array().unwrap();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let pick = &legal[(rng % legal.len() as u64) as usize];
        let text = pick["text"].as_str().unwrap().to_string();
        // The squares a click would use: from, path, and the destination at its end.
        let path = pick["path"].as_array().unwrap();
        assert_eq!(path.last(), Some(&pick["to"]));
        s = gui.post("/api/move", json!({"move": text}));
        let m = parse_move(game.position(), &text).expect("legal here");
        game.play(&m).expect("legal");
        plies += 1;
        assert!(plies < 3000, "{variant}: no end after {plies} plies");
    }
    // The record reads back to the same game.
    let pdn = gui.get("/api/pdn")["pdn"].as_str().unwrap().to_string();
    let r = gui.post("/api/pdn", json!({"pdn": pdn}));
    assert_eq!(r["history"].as_array().unwrap().len(), plies);
    assert_eq!(r["outcome"]["result"], s["outcome"]["result"]);
}

#[test]
fn a_whole_english_game() {
    whole_game::<English>("english", 0x9e37_79b9_7f4a_7c15);
}

#[test]
fn a_whole_international_game() {
    whole_game::<International>("international", 0x2545_f491_4f6c_dd1d);
}

#[test]
fn a_whole_dameo_game() {
    whole_game::<Dameo>("dameo", 0x1234_5678_9abc_def1);
}

/// The page in a real browser: headless Debian `chromium` with `chromium-driver`, driven by
/// Selenium from the Python named by `DAMAS_SELENIUM_PYTHON` (default `target/venv/bin/python`;
/// `.ci/run` installs all three). Screenshots go to `target/gui-screens/`; with
/// `DAMAS_GUI_SCREENSHOTS=1` the README's are refreshed in `src/app/gui/screenshots/`.
mod browser {
    use super::Gui;
    use std::path::PathBuf;
    use std::process::Command;

    #[test]
    #[ignore = "needs chromium, chromium-driver and selenium; run by .ci/run"]
    fn clicks_moves_sees_the_engine_and_loads_a_fen() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let python = std::env::var("DAMAS_SELENIUM_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|_| root.join("target/venv/bin/python"));
        let gui = Gui::start();
        let mut command = Command::new(&python);
        command
            .arg(root.join("tests/gui/browser_check.py"))
            .arg(format!("http://{}/", gui.host()))
            .arg(root.join("target/gui-screens"));
        if std::env::var("DAMAS_GUI_SCREENSHOTS").is_ok_and(|v| v == "1") {
            command.arg(root.join("src/app/gui/screenshots"));
        }
        let out = command
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "browser check failed\n{stdout}\n{stderr}"
        );
        assert!(stdout.contains("browser check passed"), "{stdout}");
    }
}
