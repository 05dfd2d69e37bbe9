//! The `damas` binary: output formats and clean failures on bad input.

use crate::support::run::damas;

#[test]
fn perft_last_line_format() {
    let (code, out, _) = damas(&["perft", "--variant", "international", "--depth", "4"]);
    assert_eq!(code, 0);
    let last = out.lines().last().expect("a line");
    assert!(last.starts_with("nodes=4265 time="), "{last}");
    assert!(last.contains(" nps="));
}

#[test]
fn divide_sums_to_total() {
    let (code, out, _) = damas(&["perft", "--variant", "english", "--depth", "3", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8);
    let sum: u64 = lines[..7]
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(sum, 302);
}

#[test]
fn paths_counts_capture_orders() {
    let (_, out, _) = damas(&[
        "perft",
        "--variant",
        "english",
        "--fen",
        "B:W6,7,8,14,15,16,22,23,24:BK2",
        "--depth",
        "4",
        "--paths",
    ]);
    assert!(out.contains("nodes=2026 "), "{out}");
}

#[test]
fn variants_lists_every_variant_with_aliases_accepted() {
    let (code, out, _) = damas(&["variants"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 23);
    for alias in ["american", "checkers", "normal", "standard"] {
        let (code, _, _) = damas(&["perft", "--variant", alias, "--depth", "1"]);
        assert_eq!(code, 0, "{alias}");
    }
}

#[test]
fn show_lists_legal_moves() {
    let (code, out, _) = damas(&["show", "--variant", "english", "--moves", "11-15 24-19"]);
    assert_eq!(code, 0);
    assert!(out.contains("legal moves (1): 15x24x19"), "{out}");
}

#[test]
fn optional_capture_option() {
    let (_, out, _) = damas(&[
        "show",
        "--variant",
        "english",
        "--option",
        "mandatory-capture=false",
        "--moves",
        "11-15 24-19",
    ]);
    assert!(out.contains("legal moves (8)"), "{out}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["perft", "--variant", "chess", "--depth", "2"],
        vec![
            "perft",
            "--variant",
            "english",
            "--fen",
            "W:W99",
            "--depth",
            "2",
        ],
        vec![
            "perft",
            "--variant",
            "english",
            "--fen",
            "W:W1,2,3,4,5,6,7,8,9,10,11,12,13:B",
            "--depth",
            "1",
        ],
        vec!["show", "--variant", "english", "--moves", "1-2"],
        vec!["show", "--variant", "english", "--moves", "11x"],
        vec![
            "show",
            "--variant",
            "english",
            "--option",
            "mandatory-capture=maybe",
        ],
        vec![
            "show",
            "--variant",
            "italian",
            "--option",
            "mandatory-capture=false",
        ],
        vec!["perft", "--depth", "x"],
    ] {
        let (code, out, err) = damas(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?}");
    }
}
