//! `damas selfplay`: shards of one command are disjoint and together make the same data as
//! the whole command, and a run that was cut off resumes to the same data.

use std::path::{Path, PathBuf};

use crate::support::run::damas;

const RECORD_BYTES: usize = 80;
const LAST: u8 = 2;
const GAMES: usize = 6;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-selfplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// `damas selfplay` of the tests' six English games, with `extra` arguments: exit code, stderr.
fn run_selfplay(out: &Path, extra: &[&str]) -> (i32, String) {
    let out = out.to_str().expect("utf-8 path");
    let games = GAMES.to_string();
    let mut args = vec![
        "selfplay",
        "--variant",
        "english",
        "--games",
        &games,
        "--nodes",
        "300",
        "--seed",
        "3",
        "--threads",
        "2",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    let (code, _, err) = damas(&args);
    (code, err)
}

fn selfplay(out: &Path, shard: &str) -> String {
    let (code, err) = run_selfplay(out, &["--shard", shard]);
    assert_eq!(code, 0, "selfplay failed: {err}");
    err
}

/// The records of a file, sorted by game and ply (games are appended as they finish).
fn records(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).expect("data file");
    assert_eq!(bytes.len() % RECORD_BYTES, 0, "whole records");
    let mut all: Vec<Vec<u8>> = bytes.chunks(RECORD_BYTES).map(<[u8]>::to_vec).collect();
    all.sort_by_key(|r| (game(r), u16::from_le_bytes([r[68], r[69]])));
    all
}

fn game(record: &[u8]) -> u32 {
    u32::from_le_bytes([record[64], record[65], record[66], record[67]])
}

fn games_in(records: &[Vec<u8>]) -> Vec<u32> {
    let mut games: Vec<u32> = records.iter().map(|r| game(r)).collect();
    games.dedup();
    games
}

#[test]
fn shards_are_disjoint_and_concatenate_to_the_whole() {
    let dir = scratch("shards");
    let whole = dir.join("whole.bin");
    selfplay(&whole, "0/1");
    let whole = records(&whole);
    assert_eq!(games_in(&whole), (0..GAMES as u32).collect::<Vec<_>>());
    for g in 0..GAMES as u32 {
        let last = whole.iter().filter(|r| game(r) == g && r[74] & LAST != 0);
        assert_eq!(last.count(), 1, "game {g} has exactly one last position");
    }

    let mut joined = Vec::new();
    for i in 0..3 {
        let path = dir.join(format!("shard{i}.bin"));
        selfplay(&path, &format!("{i}/3"));
        let part = records(&path);
        assert!(
            games_in(&part).iter().all(|g| *g % 3 == i),
            "shard {i}/3 holds only its own games: {:?}",
            games_in(&part)
        );
        joined.extend(part);
    }
    joined.sort_by_key(|r| (game(r), u16::from_le_bytes([r[68], r[69]])));
    assert_eq!(joined, whole, "the three shards together are the whole run");

    // Merged, they are the whole run's file byte for byte: two threads played it, but a
    // finished run leaves its games in order of number.
    let merged = dir.join("merged.bin");
    let arg = |p: PathBuf| p.to_str().expect("utf-8 path").to_string();
    let parts: Vec<String> = [2, 0, 1]
        .iter()
        .map(|i| arg(dir.join(format!("shard{i}.bin"))))
        .collect();
    let mut args = vec!["selfplay", "merge", "--variant", "english"];
    args.extend(parts.iter().map(String::as_str));
    let merged_arg = arg(merged.clone());
    args.extend(["--out", &merged_arg]);
    let (code, _, err) = damas(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("{GAMES} games")), "{err}");
    let whole_bytes = std::fs::read(dir.join("whole.bin")).expect("whole");
    assert_eq!(std::fs::read(&merged).expect("merged"), whole_bytes);

    // A shard cut short, or another variant's data, is refused with its path.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &whole_bytes[..whole_bytes.len() - RECORD_BYTES / 2]).expect("cut");
    let cut_arg = arg(cut);
    for (variant, file, says) in [
        ("english", &cut_arg, "whole number of records"),
        ("international", &parts[0], "another variant"),
    ] {
        let (code, _, err) = damas(&[
            "selfplay",
            "merge",
            "--variant",
            variant,
            file,
            "--out",
            &merged_arg,
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says) && err.contains(file.as_str()), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_run_resumes_to_the_same_data() {
    let dir = scratch("resume");
    let whole = dir.join("whole.bin");
    selfplay(&whole, "0/1");
    let bytes = std::fs::read(&whole).expect("data");
    let expected = records(&whole);

    // Cut the file in the middle of a record, past the first whole game.
    let first_end = bytes
        .chunks(RECORD_BYTES)
        .position(|r| r[74] & LAST != 0)
        .expect("a whole game")
        + 1;
    let cut = first_end * RECORD_BYTES + RECORD_BYTES * 3 / 2;
    assert!(cut < bytes.len());
    let partial = dir.join("partial.bin");
    std::fs::write(&partial, &bytes[..cut]).expect("write");
    let err = selfplay(&partial, "0/1");
    assert!(
        err.contains(&format!("{} games to play (1 already in", GAMES - 1)),
        "the finished game is kept: {err}"
    );
    assert_eq!(records(&partial), expected);

    // A finished file is left as it is.
    let err = selfplay(&partial, "0/1");
    assert!(
        err.contains(&format!("0 games to play ({GAMES} already in")),
        "{err}"
    );
    assert_eq!(records(&partial), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_file_plays_with_the_weights_it_names() {
    let dir = scratch("eval-file");
    let book = |v: &str| format!("{}/book/{v}.weights", env!("CARGO_MANIFEST_DIR"));
    let shipped = dir.join("shipped.bin");
    selfplay(&shipped, "0/1");
    let named = dir.join("named.bin");
    let (code, err) = run_selfplay(&named, &["--eval-file", &book("english")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        records(&named),
        records(&shipped),
        "the shipped weights, named"
    );

    let (code, err) = run_selfplay(&named, &["--eval-file", &book("international")]);
    assert_eq!(code, 2);
    assert!(err.contains("not english"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
