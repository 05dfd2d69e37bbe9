//! Issue 12, items 11, 12, 18 and 19: command-line numbers refused in one line naming the
//! option and its range (one set of limits with the Hub), text slips, and the README's word
//! on clients. Helpers shared by the other `hardening_*` modules.

use std::io::Write;
use std::process::{Command, Stdio};

use damas::engine::limits;

/// Exit code, stdout and stderr of `damas args…` with `stdin` as its input.
pub fn damas_with_input(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run damas");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("damas output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Exit code, stdout and stderr of `damas args…`.
pub fn damas(args: &[&str]) -> (i32, String, String) {
    damas_with_input(args, "")
}

/// The lines `damas hub` answers to a script (its input ends after the script).
pub fn hub(script: &str) -> Vec<String> {
    let (code, out, err) = damas_with_input(&["hub"], script);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "stderr: {err}");
    out.lines().map(str::to_string).collect()
}

/// `damas args…` must fail with exit code 2 and one line on stderr containing every piece of
/// `expected`.
fn refused(args: &[&str], expected: &[&str]) {
    let (code, out, err) = damas(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err}");
    for e in expected {
        assert!(err.contains(e), "{args:?}: '{e}' not in {err}");
    }
}

#[test]
fn negative_numbers_and_unknown_commands_are_one_line_naming_the_option() {
    refused(
        &["analyse", "--movetime", "-1"],
        &["'--movetime <MOVETIME>'", "seconds from 0 to 1000000"],
    );
    refused(
        &["analyse", "--depth", "-1"],
        &["'--depth <DEPTH>'", "a whole number from 1 to 120"],
    );
    refused(
        &["match", "--games", "-1"],
        &["'--games <GAMES>'", "a whole number from 1 to 1000000"],
    );
    refused(&["frobnicate"], &["unrecognized subcommand 'frobnicate'"]);
    refused(&["perft"], &["--depth <DEPTH>"]);
    refused(&["play", "--movetime", "nan"], &["'--movetime <MOVETIME>'"]);
    refused(&["match", "--seed", "-3"], &["'--seed <SEED>'"]);
}

#[test]
fn numbers_past_the_shared_limits_are_refused() {
    refused(
        &["analyse", "--threads", "0"],
        &["'--threads <THREADS>'", "from 1 to 256"],
    );
    refused(&["analyse", "--threads", "500"], &["from 1 to 256"]);
    refused(
        &["analyse", "--hash", "0"],
        &["'--hash <HASH>'", "from 1 to 65536"],
    );
    refused(
        &["analyse", "--multipv", "1000"],
        &["'--multipv <MULTIPV>'", "from 1 to 64"],
    );
    // perft --depth 1000 would never end; analyse --depth 1000 was silently cut to 120.
    refused(&["perft", "--depth", "1000"], &["from 0 to 40"]);
    refused(&["analyse", "--depth", "1000"], &["from 1 to 120"]);
    refused(&["analyse", "--depth", "121"], &["from 1 to 120"]);
    refused(&["play", "--threads", "0"], &["from 1 to 256"]);
    refused(&["match", "--concurrency", "0"], &["from 1 to 256"]);
    refused(&["book", "show", "--margin", "11"], &["men from 0 to 10"]);
    // The limits themselves: the search's deepest ply less its room for extensions.
    assert_eq!(limits::DEPTH.max, damas::search::MAX_PLY as u64 - 8);
    assert_eq!((limits::THREADS.min, limits::THREADS.max), (1, 256));
    assert_eq!((limits::MULTIPV.min, limits::MULTIPV.max), (1, 64));
    // The largest accepted values still work.
    let (code, out, err) = damas(&["perft", "--variant", "alquerque", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("nodes=4 "), "{out}");
}

#[test]
fn the_hub_accepts_the_same_numbers_as_the_command_line() {
    let lines = hub(
        "hub\nset-param name=threads value=257\nset-param name=multipv value=65\n\
         set-param name=threads value=256\nset-param name=multipv value=64\n\
         set-param name=variant value=english\ninit\npos start\nlevel depth=121\n\
         level depth=120\nlevel nodes=0\nlevel move-time=-1\nping\n",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(
        errors,
        [
            "error message=\"bad value '257' for threads (expected a whole number from 1 to 256)\"",
            "error message=\"bad value '65' for multipv (expected a whole number from 1 to 64)\"",
            "error message=\"bad value '121' for depth (expected a whole number from 1 to 120)\"",
            "error message=\"bad value '0' for nodes (expected a whole number from 1 to 1000000000000000)\"",
            "error message=\"bad value '-1' for move-time (expected seconds from 0 to 1000000)\"",
        ],
        "{lines:?}"
    );
    // The handshake advertises the same ranges.
    assert!(lines
        .iter()
        .any(|l| l == "param name=threads value=1 type=int min=1 max=256"));
    assert!(lines
        .iter()
        .any(|l| l == "param name=multipv value=1 type=int min=1 max=64"));
}

#[test]
fn a_book_for_another_variant_is_named_properly() {
    let book = format!("{}/book/english.book", env!("CARGO_MANIFEST_DIR"));
    let (code, _, err) = damas(&["book", "show", "--variant", "russian", "--file", &book]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("is a book for english, not for russian"),
        "{err}"
    );
}

/// Item 19 and issue 30: the README tells a GUI author which clients work, and the Hub reads
/// pydraughts' 8×8 dialect only when told to.
#[test]
fn the_readme_says_which_clients_work() {
    let readme = std::fs::read_to_string(format!("{}/README.md", env!("CARGO_MANIFEST_DIR")))
        .expect("README");
    let start = readme
        .find("### Clients: which work, and why some do not")
        .expect("a Clients section");
    let section = &readme[start..];
    let section = &section[..section[4..].find("\n## ").map_or(section.len(), |i| i + 4)];
    for needed in [
        "International, Italian, Frisian",
        "English, Russian, Brazilian and Turkish work with `set-param name=pydraughts value=true`",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "a1 = 1, c1 = 2, b2 = 5, a3 = 9",
    ] {
        assert!(section.contains(needed), "README Clients lacks: {needed}");
    }
    // pydraughts' English start with its first move: refused without the param ...
    let line = "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"12-16\"";
    let lines = hub(&format!(
        "hub\nset-param name=variant value=english\ninit\n{line}\nping\n"
    ));
    assert!(
        lines
            .iter()
            .any(|l| l == "error message=\"move 1 '12-16': illegal move '12-16'\""),
        "{lines:?}"
    );
    // ... and read as pydraughts means it with the param: the engine answers a move.
    let lines = hub(&format!(
        "hub\nset-param name=variant value=english\nset-param name=pydraughts value=true\n\
         init\n{line}\nlevel depth=2\ngo think\n"
    ));
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("done move=")),
        "{lines:?}"
    );
}
