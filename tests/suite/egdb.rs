//! Endgame tables: small tables built into temporary directories, checked against published
//! endgame results, against the move generator (one-ply minimax over the stored values of
//! the successors) and against damaged files.
//!
//! Published results used:
//! * English checkers: two kings beat one king, even in the double corner (every primer;
//!   e.g. mindsports.nl "Draughts dissected", king versus kings: "to ensure a win you need
//!   two kings").
//! * International draughts: two kings against one king is a draw; three kings against one
//!   is a draw when the lone king is not caught at once (the FMJD rules end such games after
//!   16 moves each; boardgamegeek "Mini Course 1 — Winning with three kings against one":
//!   in International checkers it is a draw, unless tricks work); a lone king trapped in
//!   the corner of the long diagonal by a king on that diagonal is lost.
//! * Russian draughts: three kings beat one king when they hold the main road (a1–h8) and
//!   the lone king is not on it (Petrov's triangle; the same mini course lists Russian among
//!   the variants where the three kings win holding the main line), and it is a draw when
//!   the lone king holds the main road.

use std::path::{Path, PathBuf};

use crate::support::run::damas;
use damas::core::rules::{AntiEnglish, Brazilian, English, International, Russian, Turkish};
use damas::egdb::{build, file, BuildOptions, Egdb, Indexer, Material, Value};
use damas::{Rules, Variant};

/// A fresh directory for one test's tables (the GUI's tests use it too).
pub(crate) fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("damas-egdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `damas egdb build` into `dir`, one thread, which must succeed.
pub(crate) fn cli_build(dir: &Path, variant: &str, what: &[&str]) {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "egdb",
        "build",
        "--variant",
        variant,
        "--threads",
        "1",
        "--dir",
        d,
    ];
    args.extend_from_slice(what);
    let (code, out, err) = damas(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.lines().last().unwrap().starts_with("built "), "{out}");
    assert!(out.starts_with("memory about "), "{out}");
}

/// The last line of `damas egdb probe`, which must be `result=…`.
fn probe(dir: &Path, variant: &str, fen: &str) -> String {
    let (code, out, err) = damas(&[
        "egdb",
        "probe",
        "--variant",
        variant,
        "--fen",
        fen,
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{fen}: {err}");
    let last = out.lines().last().unwrap_or("").to_string();
    assert!(
        ["result=win", "result=draw", "result=loss"].contains(&last.as_str()),
        "{out}"
    );
    last
}

#[test]
fn english_two_kings_beat_one() {
    let dir = temp("english");
    cli_build(&dir, "english", &["--pieces", "3"]);
    // The lone king in its double corner (1/5) and far away in the other (32).
    assert_eq!(probe(&dir, "english", "W:WK22,K23:BK1"), "result=win");
    assert_eq!(probe(&dir, "english", "B:WK22,K23:BK1"), "result=loss");
    assert_eq!(probe(&dir, "english", "W:WK1,K2:BK32"), "result=win");
    assert_eq!(probe(&dir, "english", "B:WK1,K2:BK28"), "result=loss");
    // The side colours do not matter: black kings win as well.
    assert_eq!(probe(&dir, "english", "B:WK32:BK1,K2"), "result=win");
    // And the whole slice: with the lone king to move and no capture, it loses nearly
    // always (the exceptions shut both kings in the single corner, as B:WK3,K4:BK7, where
    // the lone king's threats force a king into a capture).
    let db = Egdb::<English>::new(&dir, Variant::English, 3);
    let ix = Indexer::<English>::new(Material::new(0, 2, 0, 1));
    let (mut quiet, mut lost) = (0, 0);
    for i in ix.half..ix.len() {
        let Some(pos) = ix.position(i) else { continue };
        if pos.legal_moves().iter().any(|m| m.is_capture()) {
            continue;
        }
        quiet += 1;
        lost += usize::from(db.probe(&pos) == Some(Value::Loss));
    }
    assert!(
        quiet > 10_000 && lost * 100 > quiet * 97,
        "{lost} of {quiet}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn international_kings_against_one() {
    let dir = temp("international");
    cli_build(&dir, "international", &["--only", "w0m3k_b0m1k"]);
    // Two kings against one: a draw, whoever moves.
    assert_eq!(probe(&dir, "international", "W:WK1,K2:BK50"), "result=draw");
    assert_eq!(
        probe(&dir, "international", "B:WK46,K47:BK27"),
        "result=draw"
    );
    // ...except the lone king shut in the corner of the long diagonal (5) by a king on it
    // (46): it must step along that diagonal and is taken.
    assert_eq!(probe(&dir, "international", "W:WK46,K47:BK5"), "result=win");
    // Three kings against one: a draw with the lone king on the long diagonal or off it.
    assert_eq!(
        probe(&dir, "international", "W:WK1,K2,K3:BK28"),
        "result=draw"
    );
    assert_eq!(
        probe(&dir, "international", "W:WK46,K1,K2:BK27"),
        "result=draw"
    );
    assert_eq!(
        probe(&dir, "international", "B:WK1,K2,K3:BK27"),
        "result=draw"
    );
    // ...won only from particular positions, such as a capture at once.
    assert_eq!(
        probe(&dir, "international", "W:WK1,K2,K3:BK7"),
        "result=win"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "a 21-million-position slice: about a minute and 2 GB"]
fn international_four_kings_beat_one() {
    let dir = temp("international4");
    cli_build(&dir, "international", &["--only", "w0m4k_b0m1k"]);
    assert_eq!(
        probe(&dir, "international", "W:WK1,K2,K3,K4:BK28"),
        "result=win"
    );
    assert_eq!(
        probe(&dir, "international", "B:WK1,K2,K3,K4:BK28"),
        "result=loss"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn russian_petrov_triangle() {
    let dir = temp("russian");
    cli_build(&dir, "russian", &["--only", "w0m3k_b0m1k"]);
    // White holds the main road (a1), the lone king is off it: a win whoever moves.
    assert_eq!(probe(&dir, "russian", "W:WKa1,Kc1,Ke1:BKh2"), "result=win");
    assert_eq!(probe(&dir, "russian", "B:WKa1,Kc1,Ke1:BKh2"), "result=loss");
    // The lone king holds the main road: a draw.
    assert_eq!(probe(&dir, "russian", "B:WKc1,Ke1,Kg1:BKa1"), "result=draw");
    assert_eq!(probe(&dir, "russian", "W:WKc1,Ke1,Kg1:BKh8"), "result=draw");
    // Two kings against one: a draw.
    assert_eq!(probe(&dir, "russian", "W:WKc1,Ka3:BKh8"), "result=draw");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_and_stats_on_small_slices() {
    let dir = temp("verify");
    cli_build(&dir, "english", &["--pieces", "3"]);
    cli_build(&dir, "giveaway", &["--pieces", "3"]);
    let d = dir.to_str().unwrap();
    for v in ["english", "giveaway"] {
        let (code, out, err) = damas(&["egdb", "verify", "--variant", v, "--dir", d]);
        assert_eq!(code, 0, "{out}{err}");
        let last = out.lines().last().unwrap();
        assert!(last.starts_with("verify slices=16 "), "{last}");
        assert!(
            last.ends_with(" with_distances=16 distance_mismatches=0 mismatches=0"),
            "{last}"
        );
        let (code, out, _) = damas(&["egdb", "stats", "--variant", v, "--dir", d]);
        assert_eq!(code, 0);
        assert_eq!(out.lines().count(), 17, "{out}");
        assert!(out.contains("w0m2k_b0m1k positions="), "{out}");
    }
    // Rebuilding keeps what is there (resumable): nothing is built again.
    let (code, out, _) = damas(&[
        "egdb",
        "build",
        "--variant",
        "english",
        "--pieces",
        "3",
        "--dir",
        d,
    ]);
    assert_eq!(code, 0);
    assert!(!out.contains(" built "), "{out}");
    // One distance one ply too long is found, and named.
    let m = Material::new(0, 2, 0, 1);
    let n = Indexer::<English>::new(m).len();
    let path = dir.join("english").join("w0m2k_b0m1k.dtc");
    let key = Variant::from_name("english").unwrap().key();
    let mut plies =
        file::decode_distances(&path, &std::fs::read(&path).unwrap(), &key, m, n).unwrap();
    let longest = (0..plies.len()).max_by_key(|&i| plies[i]).unwrap();
    assert!(
        plies[longest] > 10,
        "two kings need more than {} plies",
        plies[longest]
    );
    plies[longest] += 1;
    std::fs::write(&path, file::encode_distances(&key, m, &plies)).unwrap();
    let (code, out, err) = damas(&["egdb", "verify", "--variant", "english", "--dir", d]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("w0m2k_b0m1k positions=") && out.contains("distance_mismatches=1 "),
        "{out}"
    );
    assert!(
        err.contains("1 stored distances contradict") && err.contains("w0m2k_b0m1k"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The value of `pos` by one ply of minimax over the tables' values of its successors.
fn one_ply<R: Rules>(db: &Egdb<R>, pos: &damas::Position<R>) -> Value {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if R::LOSER_WINS {
            Value::Win
        } else {
            Value::Loss
        };
    }
    let mut best = Value::Loss;
    for m in &moves {
        let v = db
            .probe(&pos.after(m))
            .expect("successor in the tables")
            .flip();
        best = match (best, v) {
            (_, Value::Win) | (Value::Win, _) => Value::Win,
            (_, Value::Draw) | (Value::Draw, _) => Value::Draw,
            _ => Value::Loss,
        };
    }
    best
}

fn agree_with_generator<R: Rules>(variant: Variant, name: &str) {
    let dir = temp(name);
    let opts = BuildOptions {
        dir: dir.clone(),
        pieces: 3,
        threads: 1,
        only: None,
    };
    build::<R>(variant, &opts, &|_| {}).unwrap();
    let db = Egdb::<R>::new(&dir, variant, 3);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut seen = [0usize; 3];
    for m in Material::all::<R>(3) {
        let ix = Indexer::<R>::new(m);
        for _ in 0..300 {
            let Some(pos) = ix.position(next() % ix.len()) else {
                continue;
            };
            let stored = db.probe(&pos).unwrap();
            // Lone-piece draws (Turkish) end the game whatever the moves.
            if damas::egdb::material_verdict::<R>(&m, pos.side_to_move()).is_none() {
                assert_eq!(stored, one_ply(&db, &pos), "{name} {m}");
            }
            seen[stored.code() as usize % 3] += 1;
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0) || name == "turkish",
        "{name}: {seen:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tables_agree_with_the_generator() {
    agree_with_generator::<English>(Variant::English, "gen-english");
    agree_with_generator::<AntiEnglish>(Variant::AntiEnglish, "gen-giveaway");
    agree_with_generator::<Russian>(Variant::Russian, "gen-russian");
    agree_with_generator::<Brazilian>(Variant::Brazilian, "gen-brazilian");
    agree_with_generator::<Turkish>(Variant::Turkish, "gen-turkish");
    agree_with_generator::<International>(Variant::International, "gen-international");
}

#[test]
fn damaged_or_missing_tables_are_named() {
    let dir = temp("corrupt");
    cli_build(&dir, "english", &["--pieces", "3"]);
    let d = dir.to_str().unwrap();
    let file = dir.join("english").join("w0m2k_b0m1k.wdl");
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let probe_args = |fen: &'static str| {
        [
            "egdb",
            "probe",
            "--variant",
            "english",
            "--fen",
            fen,
            "--dir",
            d,
        ]
    };
    let (code, _, err) = damas(&probe_args("W:WK22,K23:BK1"));
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(file.to_str().unwrap()), "{err}");
    assert!(err.contains("corrupt"), "{err}");
    // Verify names it too; a missing slice is named as missing.
    let (code, _, err) = damas(&["egdb", "verify", "--variant", "english", "--dir", d]);
    assert_eq!(code, 2);
    assert!(err.contains("checksum"), "{err}");
    std::fs::remove_file(&file).unwrap();
    let (code, _, err) = damas(&probe_args("W:WK22,K23:BK1"));
    assert_eq!(code, 2);
    assert!(
        err.contains("missing") && err.contains("w0m2k_b0m1k.wdl"),
        "{err}"
    );
    // A table of another variant in its place is refused by name.
    let other = dir.join("english").join("w0m1k_b0m1k.wdl");
    cli_build(&dir, "giveaway", &["--pieces", "2"]);
    std::fs::copy(dir.join("anti-english").join("w0m1k_b0m1k.wdl"), &other).unwrap();
    let (code, _, err) = damas(&probe_args("W:WK22:BK1"));
    assert_eq!(code, 2);
    assert!(err.contains("anti-english"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_requests_are_one_line() {
    let dir = temp("bad");
    let d = dir.to_str().unwrap();
    let cases: [&[&str]; 4] = [
        &[
            "egdb",
            "build",
            "--variant",
            "international",
            "--pieces",
            "9",
            "--dir",
            d,
        ],
        &[
            "egdb",
            "build",
            "--variant",
            "english",
            "--pieces",
            "1",
            "--dir",
            d,
        ],
        &[
            "egdb",
            "build",
            "--variant",
            "nosuch",
            "--pieces",
            "3",
            "--dir",
            d,
        ],
        &[
            "egdb",
            "probe",
            "--variant",
            "english",
            "--fen",
            "W:W99:B1",
            "--dir",
            d,
        ],
    ];
    for args in cases {
        let (code, _, err) = damas(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let (_, _, err) = damas(cases[0]);
    assert!(err.contains("memory"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine with tables converts a table win: both sides play the engine's move (the
/// defender with the tables too), and the winner takes the last piece well within the
/// English 40-ply no-progress count.
#[test]
fn search_converts_table_wins() {
    use damas::engine::{legal_move_count, Engine, Start};
    use damas::search::limits::Limits;
    use damas::search::Control;
    let dir = temp("convert");
    cli_build(&dir, "english", &["--pieces", "3"]);
    for fen in ["W:WK22,K23:BK1", "W:WK1,K2:BK32", "B:WK28:BK5,K6"] {
        let mut engine = Engine::new(16);
        engine.book = false;
        engine.egdb_pieces = 3;
        engine.egdb_path = Some(dir.clone());
        let mut moves: Vec<String> = Vec::new();
        let mut hits = 0;
        while moves.len() < 40 {
            if legal_move_count(Variant::English, Start::Fen(fen), &moves).unwrap() == 0 {
                break;
            }
            let done = engine
                .think(
                    Variant::English,
                    Start::Fen(fen),
                    &moves,
                    Limits::depth(8),
                    &Control::new(false),
                    &mut |i| hits = hits.max(i.table_hits),
                )
                .unwrap();
            moves.push(done.best);
        }
        assert!(
            legal_move_count(Variant::English, Start::Fen(fen), &moves).unwrap() == 0
                && moves.len() % 2 == 1,
            "{fen}: not won in 40 plies: {moves:?}"
        );
        assert!(hits > 0, "{fen}");
        assert!(engine.take_table_errors().is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Hub: `egdb-pieces` and `egdb-path` turn the tables on, `info` counts their hits, and
/// a damaged file is one `error` line, once, while the engine still answers with a move.
#[test]
fn hub_probes_and_reports_damage_once() {
    use crate::support::hub_process::HubProcess;
    let dir = temp("hub");
    cli_build(&dir, "english", &["--pieces", "3"]);
    let file = dir.join("english").join("w0m2k_b0m1k.wdl");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let mut e = HubProcess::start();
    e.send("hub");
    e.until("wait");
    for line in [
        "set-param name=variant value=english",
        "set-param name=book value=false",
        "set-param name=egdb-pieces value=3",
        &format!("set-param name=egdb-path value=\"{}\"", dir.display()),
        "init",
    ] {
        e.send(line);
    }
    e.until("ready");
    let mut errors = 0;
    for _ in 0..2 {
        e.send("pos fen=W:WK22,K23:BK1");
        e.send("level depth=12");
        e.send("go think");
        let lines = e.until("done");
        assert!(lines.iter().any(|l| l.contains(" tbhits=")), "{lines:?}");
        errors += lines
            .iter()
            .filter(|l| l.starts_with("error") && l.contains("w0m2k_b0m1k.wdl"))
            .count();
    }
    assert_eq!(errors, 1);
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `egdb sample` gives distinct quiet positions of the asked value and size, each of which
/// `egdb probe` gives that value, in a file `damas match --openings fen:` reads; the same
/// seed, the same list.
#[test]
fn samples_have_the_value_asked_for() {
    let dir = temp("sample");
    cli_build(&dir, "english", &["--pieces", "3"]);
    let d = dir.to_str().unwrap();
    for result in ["win", "loss", "draw"] {
        let args = [
            "egdb",
            "sample",
            "--variant",
            "english",
            "--pieces",
            "3",
            "--result",
            result,
            "--count",
            "6",
            "--seed",
            "3",
            "--dir",
            d,
        ];
        let (code, out, err) = damas(&args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(damas(&args).1, out, "seeded");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 6, "{out}");
        let mut fens: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
        for (fen, line) in fens.iter().zip(&lines) {
            assert!(line.contains(&format!(" {result} plies=")), "{line}");
            let (code, probe, err) = damas(&[
                "egdb",
                "probe",
                "--variant",
                "english",
                "--fen",
                fen,
                "--dir",
                d,
            ]);
            assert_eq!(code, 0, "{err}");
            assert!(
                probe.ends_with(&format!("result={result}\n")),
                "{fen}: {probe}"
            );
            let pos = damas::core::notation::parse_fen::<English>(fen).expect("a FEN");
            assert_eq!(Material::of(&pos).total(), 3);
            let mut captures = Vec::new();
            pos.generate_legal_captures(&mut captures, damas::Convention::Drop);
            assert!(captures.is_empty(), "{fen} is not quiet");
        }
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), 6, "distinct: {out}");
    }
    // Nothing of that size: one line, exit 2.
    let (code, _, err) = damas(&[
        "egdb",
        "sample",
        "--variant",
        "english",
        "--pieces",
        "5",
        "--dir",
        d,
    ]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
