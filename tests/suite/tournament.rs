//! `damas match`: internal matches, faulty external engines, the result line, bad command
//! lines, games from a positions file. The ballot decks, random openings and the statistics
//! behind the result line are in `unit/tournament.rs`.

use std::path::PathBuf;
use std::process::{Command, Output};

use damas::core::notation::parse_fen;
use damas::core::pdn::{parse, replay, PdnGame};
use damas::core::rules::English;

const FAKE_ENGINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake.py");

fn temp_pdn(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("damas-match-{}-{name}.pdn", std::process::id()))
}

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .output()
        .expect("run damas")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The numbers of the `result …` line: games, wins, draws, losses, score, elo, error.
fn read_result_line(text: &str) -> (u32, u32, u32, u32, f64, String, String) {
    let line = text.lines().last().expect("a last line");
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "result", "{line}");
    let keys = ["games", "wins", "draws", "losses", "score", "elo", "error"];
    assert_eq!(words.len(), 1 + keys.len(), "{line}");
    let values: Vec<&str> = words[1..]
        .iter()
        .zip(keys)
        .map(|(w, k)| {
            w.strip_prefix(&format!("{k}="))
                .unwrap_or_else(|| panic!("{k} in {line}"))
        })
        .collect();
    let int = |s: &str| s.parse::<u32>().expect("an integer");
    let score: f64 = values[4].parse().expect("score");
    let score_text = values[4];
    assert_eq!(
        score_text.split('.').nth(1).map(str::len),
        Some(1),
        "one decimal: {line}"
    );
    assert!(values[6].starts_with('±'), "{line}");
    (
        int(values[0]),
        int(values[1]),
        int(values[2]),
        int(values[3]),
        score,
        values[5].to_string(),
        values[6].to_string(),
    )
}

fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read_pdn(path: &PathBuf) -> Vec<PdnGame> {
    let text = std::fs::read_to_string(path).expect("pdn written");
    let _ = std::fs::remove_file(path);
    parse(&text).expect("pdn parses")
}

#[test]
fn internal_match_runs_and_its_pdn_replays() {
    let pdn = temp_pdn("internal");
    let out = damas(&[
        "match",
        "--variant",
        "english",
        "--player",
        "name=deep depth=3",
        "--player",
        "name=shallow depth=1 hash=8",
        "--games",
        "4",
        "--openings",
        "english-3move",
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().expect("utf-8 path"),
    ]);
    assert_success(&out);
    let text = stdout(&out);
    let (games, wins, draws, losses, score, elo, error) = read_result_line(&text);
    assert_eq!(games, 4);
    assert_eq!(wins + draws + losses, 4);
    let expected = 100.0 * (wins as f64 + 0.5 * draws as f64) / 4.0;
    assert!((score - expected).abs() < 0.05, "{text}");
    assert!(elo.parse::<f64>().is_ok() || elo.ends_with("inf"), "{elo}");
    assert!(error.len() > 2, "{error}");
    assert!(text.contains("deep") && text.contains("shallow"), "{text}");

    let games = read_pdn(&pdn);
    assert_eq!(games.len(), 4);
    let mut openings = Vec::new();
    for g in &games {
        for tag in [
            "Event",
            "Round",
            "White",
            "Black",
            "Result",
            "GameType",
            "Opening",
            "Termination",
        ] {
            assert!(g.tag(tag).is_some(), "tag {tag} missing");
        }
        assert_eq!(g.tag("GameType"), Some("21"));
        let names = [
            g.tag("White").expect("white"),
            g.tag("Black").expect("black"),
        ];
        assert!(names.contains(&"deep") && names.contains(&"shallow"));
        let game = replay::<English>(g).expect("every move legal");
        let outcome = game.outcome().expect("finished");
        assert_eq!(Some(outcome.result), g.result);
        assert_eq!(g.tag("Result"), Some(outcome.result.pdn()));
        // The opening's three moves open the move text.
        let opening = g.tag("Opening").expect("opening");
        let moves: Vec<&str> = opening.split_whitespace().skip(1).take(3).collect();
        assert_eq!(
            g.moves[..3].iter().map(String::as_str).collect::<Vec<_>>(),
            moves
        );
        openings.push(opening.to_string());
    }
    // Two openings, each played twice with colours swapped.
    openings.sort();
    openings.dedup();
    assert_eq!(openings.len(), 2);
}

/// `--openings fen:FILE`: each position of the file is played twice, colours swapped, from
/// that position (the PDN carries it as `FEN`, the label as `Opening`); both positions are
/// English wins for White that a depth-10 search sees to the end, so White wins every game.
#[test]
fn games_start_from_the_positions_of_a_file() {
    let file = temp_pdn("positions.txt");
    std::fs::write(
        &file,
        "# two English wins for White\nW:W18,K27:B3 king and man against a man\n\nW:WK18,26:B3\n",
    )
    .expect("write");
    let pdn = temp_pdn("positions");
    let openings = format!("fen:{}", file.display());
    let out = damas(&[
        "match",
        "--player",
        "name=a depth=10",
        "--player",
        "name=b depth=10",
        "--games",
        "4",
        "--openings",
        &openings,
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().expect("utf-8 path"),
    ]);
    assert_success(&out);
    let text = stdout(&out);
    let (games, wins, draws, losses, ..) = read_result_line(&text);
    assert_eq!((games, wins, draws, losses), (4, 2, 0, 2), "{text}");
    let games = read_pdn(&pdn);
    assert_eq!(games.len(), 4);
    let mut seen = Vec::new();
    for g in &games {
        let fen = g.tag("FEN").expect("FEN tag");
        let label = g.tag("Opening").expect("Opening tag");
        let given = match label {
            "king and man against a man" => "W:W18,K27:B3",
            // Without a label, the FEN is the label.
            "W:WK18,26:B3" => "W:WK18,26:B3",
            other => panic!("Opening {other}"),
        };
        assert_eq!(
            parse_fen::<English>(fen).expect("FEN tag"),
            parse_fen::<English>(given).expect("the file's FEN"),
            "{label}"
        );
        seen.push(label.to_string());
        let game = replay::<English>(g).expect("every move legal");
        assert_eq!(game.start().side_to_move(), damas::Color::White);
        assert_eq!(g.tag("Result"), Some("2-0"), "{fen}: white wins");
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 2);
    // A missing file, a bad FEN, an empty file: one line, exit 2.
    for (name, content) in [
        ("missing", None),
        ("bad", Some("W:W99:B1\n")),
        ("empty", Some("# none\n")),
    ] {
        let path = temp_pdn(&format!("{name}.txt"));
        if let Some(c) = content {
            std::fs::write(&path, c).expect("write");
        }
        let arg = format!("fen:{}", path.display());
        let out = damas(&[
            "match",
            "--player",
            "a",
            "--player",
            "b",
            "--openings",
            &arg,
        ]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(&path.display().to_string()) || err.contains("W99"),
            "{name}: {err}"
        );
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn round_robin_pairs_every_player() {
    let out = damas(&[
        "match",
        "--player",
        "name=a depth=3",
        "--player",
        "name=b depth=2",
        "--player",
        "name=c depth=1",
        "--games",
        "2",
        "--openings",
        "english-2move",
        "--concurrency",
        "2",
    ]);
    assert_success(&out);
    let text = stdout(&out);
    // Three pairs of two games: four games for each player.
    for name in ["a", "b", "c"] {
        let row = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("row {name} in {text}"));
        let cells: Vec<u32> = row
            .split_whitespace()
            .skip(1)
            .take(4)
            .map(|c| c.parse().expect("count"))
            .collect();
        assert_eq!(cells[0], 4, "{row}");
        assert_eq!(cells[1] + cells[2] + cells[3], 4, "{row}");
    }
    assert_eq!(read_result_line(&text).0, 4);
}

/// A match of Damas against a faulty fake engine: Damas wins every game, and each PDN
/// game ends `<kind> by fake`.
fn faulty_engine_loses(mode: &str, kind: &str, level: &[&str]) {
    let pdn = temp_pdn(mode);
    let cmd = format!("name=fake cmd='python3 {FAKE_ENGINE} {mode}'");
    let mut args = vec![
        "match",
        "--variant",
        "english",
        "--player",
        "name=damas depth=2",
        "--engine",
        &cmd,
        "--games",
        "2",
        "--concurrency",
        "1",
        "--pdn",
        pdn.to_str().expect("utf-8 path"),
    ];
    args.extend(level);
    let out = damas(&args);
    assert_success(&out);
    let text = stdout(&out);
    let (games, wins, draws, losses, score, elo, _) = read_result_line(&text);
    assert_eq!((games, wins, draws, losses), (2, 2, 0, 0), "{text}");
    assert_eq!(score, 100.0);
    assert_eq!(elo, "inf");
    assert!(text.contains(&format!("faults fake: {kind} 2")), "{text}");
    let games = read_pdn(&pdn);
    assert_eq!(games.len(), 2);
    for g in &games {
        let termination = g.tag("Termination").expect("termination");
        assert!(
            termination.starts_with(&format!("{kind} by fake")),
            "{termination}"
        );
        let game = replay::<English>(g).expect("legal moves only");
        assert_eq!(Some(game.outcome().expect("over").result), g.result);
        let winner = if g.result == Some(damas::core::game::GameResult::WhiteWins) {
            g.tag("White")
        } else {
            g.tag("Black")
        };
        assert_eq!(winner, Some("damas"));
    }
}

#[test]
fn crashing_engine_loses() {
    faulty_engine_loses("crash", "crash", &["--move-timeout", "1"]);
}

#[test]
fn hanging_engine_loses() {
    faulty_engine_loses("hang", "hang", &["--move-timeout", "1"]);
}

#[test]
fn illegal_move_loses() {
    faulty_engine_loses("illegal", "illegal move", &["--move-timeout", "1"]);
}

#[test]
fn garbage_output_loses() {
    faulty_engine_loses("garbage", "garbage output", &["--move-timeout", "1"]);
}

#[test]
fn time_loss_loses() {
    // The fake answers after half a second; its clock holds a tenth (Damas searches to
    // depth 2, off the clock).
    faulty_engine_loses("slow", "time forfeit", &["--time", "0.1", "--grace", "2"]);
}

/// A level run of reported scores ends a game as an adjudicated draw: with any score
/// allowed, each game ends once the engines have made the plies asked after the opening.
#[test]
fn draw_adjudication_ends_level_games() {
    let pdn = temp_pdn("adjudicated");
    let out = damas(&[
        "match",
        "--variant",
        "english",
        "--player",
        "name=a depth=2",
        "--player",
        "name=b depth=2",
        "--games",
        "2",
        "--concurrency",
        "1",
        "--adjudicate-draw",
        "after=6 plies=4 score=100",
        "--pdn",
        pdn.to_str().expect("utf-8 path"),
    ]);
    assert_success(&out);
    let text = stdout(&out);
    assert_eq!(read_result_line(&text).2, 2, "two draws: {text}");
    for g in read_pdn(&pdn) {
        let term = g.tag("Termination").expect("termination");
        assert!(term.starts_with("adjudication: drawn"), "{term}");
        // The 3-move opening, then four plies by the engines.
        assert_eq!(replay::<English>(&g).expect("legal").moves().len(), 7);
    }
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let cmd = format!("name=fake cmd='python3 {FAKE_ENGINE} crash'");
    let out = damas(&[
        "match",
        "--player",
        "name=damas depth=1",
        "--engine",
        &cmd,
        "--games",
        "40",
        "--concurrency",
        "1",
        "--sprt",
        "elo0=0 elo1=50",
    ]);
    assert_success(&out);
    let text = stdout(&out);
    // Seven straight wins take the log-likelihood ratio past ln(0.95/0.05) = 2.94.
    assert_eq!(read_result_line(&text).0, 7, "{text}");
    assert!(text.contains("H1 accepted"), "{text}");
}

#[test]
fn bad_command_lines_give_one_line_and_exit_code_2() {
    for args in [
        vec!["match", "--player", "name=a depth=x", "--player", "name=b"],
        vec!["match", "--player", "name=a"],
        vec![
            "match",
            "--player",
            "a",
            "--player",
            "b",
            "--openings",
            "sometimes",
        ],
        vec![
            "match",
            "--variant",
            "international",
            "--player",
            "a",
            "--player",
            "b",
            "--openings",
            "english-3move",
        ],
        vec!["match", "--player", "name=a", "--engine", "name=b cmd='"],
        vec![
            "match",
            "--player",
            "name=a",
            "--engine",
            "name=b cmd=/nonexistent/engine",
        ],
        vec![
            "match",
            "--player",
            "a",
            "--player",
            "b",
            "--sprt",
            "elo0=5 elo1=1",
        ],
        vec![
            "match",
            "--player",
            "a",
            "--player",
            "b",
            "--adjudicate-draw",
            "after=40 plies=8",
        ],
    ] {
        let out = damas(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("damas: "), "{err}");
    }
}
