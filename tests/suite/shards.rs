//! A match or a self-play run split into parts (`--shard I/N`) and merged gives what the
//! whole run gives: the same summary and result line, the same games, the same data.

use std::path::{Path, PathBuf};

use crate::support::run::damas;

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("shards-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Twelve games of depth 3 against depth 2, English, from the 3-move deck; without their
/// books (which choose at random) the players are deterministic.
fn match_args(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "match",
        "--variant",
        "english",
        "--player",
        "name=d3 depth=3 book=false",
        "--player",
        "name=d2 depth=2 book=false",
        "--games",
        "12",
        "--seed",
        "3",
        "--concurrency",
        "1",
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn run(args: &[String]) -> String {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = damas(&words);
    assert_eq!(code, 0, "{args:?}\n{out}\n{err}");
    out
}

/// The whole match once, then in three parts merged: the same stdout and PDN.
fn parts_merge_to_the_whole(name: &str, sprt: &[&str]) {
    let d = dir(name);
    let whole_pdn = d.join("whole.pdn");
    let mut whole_args = sprt.to_vec();
    whole_args.extend(["--pdn", path(&whole_pdn)]);
    let whole = run(&match_args(&whole_args));
    let mut files = Vec::new();
    for i in 0..3 {
        let out = d.join(format!("part{i}.results"));
        let shard = format!("{i}/3");
        let mut part_args = sprt.to_vec();
        part_args.extend(["--shard", &shard, "--out", path(&out)]);
        let part = run(&match_args(&part_args));
        assert!(part.contains("games=4 "), "{part}");
        files.push(out);
    }
    // Interrupt part 1 in the middle of a record: run again, it plays only what is missing.
    let bytes = std::fs::read(&files[1]).expect("part 1");
    std::fs::write(&files[1], &bytes[..bytes.len() - 40]).expect("cut");
    let mut again = sprt.to_vec();
    again.extend(["--shard", "1/3", "--out", path(&files[1])]);
    let words: Vec<String> = match_args(&again);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let (code, _, err) = damas(&words);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("3 games already in"), "{err}");
    assert_eq!(std::fs::read(&files[1]).expect("part 1"), bytes);
    let merged_pdn = d.join("merged.pdn");
    // The parts in any order.
    let merged = run(&[
        "match".to_string(),
        "merge".into(),
        path(&files[2]).into(),
        path(&files[0]).into(),
        path(&files[1]).into(),
        "--pdn".into(),
        path(&merged_pdn).into(),
    ]);
    assert_eq!(merged, whole);
    assert_eq!(
        std::fs::read_to_string(&merged_pdn).expect("merged pdn"),
        std::fs::read_to_string(&whole_pdn).expect("whole pdn")
    );
}

#[test]
fn three_parts_of_a_match_merge_to_the_whole_match() {
    parts_merge_to_the_whole("match", &[]);
}

#[test]
fn three_parts_of_an_sprt_match_merge_to_its_decision() {
    parts_merge_to_the_whole("sprt", &["--sprt", "elo0=-100 elo1=300 alpha=0.2 beta=0.2"]);
}

#[test]
fn merge_refuses_missing_doubled_and_foreign_parts() {
    let d = dir("refusals");
    let part = |i: usize, n: usize, seed: &str| {
        let out = d.join(format!("p{i}of{n}-{seed}"));
        let shard = format!("{i}/{n}");
        let mut args = match_args(&["--shard", &shard, "--out", path(&out)]);
        let at = args.iter().position(|a| a == "--games").expect("games") + 1;
        args[at] = "4".into();
        let s = args.iter().position(|a| a == "--seed").expect("seed") + 1;
        args[s] = seed.into();
        run(&args);
        out
    };
    let a0 = part(0, 2, "3");
    let a1 = part(1, 2, "3");
    let b1 = part(1, 2, "4");
    let garbage = d.join("garbage");
    std::fs::write(&garbage, "not a result file\n").expect("write");
    for (files, says) in [
        (vec![&a0], "missing parts 1/2"),
        (vec![&a0, &a0], "both hold part 0/2"),
        (vec![&a0, &b1], "not a part of the same match"),
        (vec![&a0, &garbage], "not a damas match result file"),
    ] {
        let mut args = vec!["match", "merge"];
        args.extend(files.iter().map(|f| path(f)));
        let (code, out, err) = damas(&args);
        assert_eq!(code, 2, "{out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{says}: {err}");
    }
    let (code, _, err) = damas(&["match", "merge", path(&a0), path(&a1)]);
    assert_eq!(code, 0, "{err}");
    // A part's --out of another match is refused, not mixed in.
    let mut args = match_args(&["--shard", "1/2", "--out", path(&b1)]);
    let at = args.iter().position(|a| a == "--games").expect("games") + 1;
    args[at] = "4".into();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = damas(&words);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another match or part"), "{err}");
    for bad in ["3/3", "1/0", "x", "1/x"] {
        let words = match_args(&["--shard", bad]);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let (code, _, err) = damas(&words);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--shard"), "{err}");
    }
}
