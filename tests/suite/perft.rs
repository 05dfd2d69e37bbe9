//! Perft against published tables and the shared position file (tests/perft/*.tsv).

use damas::core::notation::parse_fen;
use damas::core::perft::perft;
use damas::{with_rules, Convention, Position, Rules, Variant};

/// Rows up to this many nodes run in `cargo test`; the rest with `--ignored`.
const QUICK: u64 = 3_000_000;

struct Row {
    line: usize,
    fen: String,
    depth: u32,
    nodes: u64,
    conventions: Vec<Convention>,
}

fn rows(variant: &str) -> Vec<Row> {
    let path = format!("{}/tests/perft/{variant}.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("perft data file");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "{path}:{}: four columns expected", i + 1);
        let conventions = match f[3] {
            "drop" => vec![Convention::Drop],
            "keep" => vec![Convention::Keep],
            "same" => vec![Convention::Drop, Convention::Keep],
            c => panic!("{path}:{}: unknown convention {c}", i + 1),
        };
        out.push(Row {
            line: i + 1,
            fen: f[0].to_string(),
            depth: f[1].parse().expect("depth"),
            nodes: f[2].parse().expect("nodes"),
            conventions,
        });
    }
    assert!(!out.is_empty());
    out
}

fn check<R: Rules>(variant: &str, quick: bool) {
    for row in rows(variant) {
        if (row.nodes <= QUICK) != quick {
            continue;
        }
        let pos: Position<R> = if row.fen == "start" {
            Position::start()
        } else {
            parse_fen(&row.fen).unwrap_or_else(|e| panic!("line {}: {e}", row.line))
        };
        for &c in &row.conventions {
            assert_eq!(
                perft(&pos, row.depth, c),
                row.nodes,
                "{variant} line {} ({}, depth {}, {c:?})",
                row.line,
                row.fen,
                row.depth
            );
        }
    }
}

fn run(name: &str, quick: bool) {
    let v = Variant::from_name(name).expect("variant");
    with_rules!(v, R => check::<R>(name, quick));
}

macro_rules! perft_tests {
    ($($t:ident, $deep:ident, $name:literal;)*) => {$(
        #[test]
        fn $t() {
            run($name, true);
        }
        #[test]
        #[ignore = "deep perft: run with --ignored in release"]
        fn $deep() {
            run($name, false);
        }
    )*};
}

perft_tests! {
    english, english_deep, "english";
    anti_english, anti_english_deep, "anti-english";
    czech, czech_deep, "czech";
    russian, russian_deep, "russian";
    brazilian, brazilian_deep, "brazilian";
    international, international_deep, "international";
    canadian, canadian_deep, "canadian";
    thai, thai_deep, "thai";
    portuguese, portuguese_deep, "portuguese";
    italian, italian_deep, "italian";
    turkish, turkish_deep, "turkish";
    gothic, gothic_deep, "gothic";
    dameo, dameo_deep, "dameo";
    hawaiian, hawaiian_deep, "hawaiian";
    alquerque, alquerque_deep, "alquerque";
    corner, corner_deep, "corner";
    one_way, one_way_deep, "one-way";
    parachute, parachute_deep, "parachute";
    frisian, frisian_deep, "frisian";
    frysk, frysk_deep, "frysk";
    antidraughts, antidraughts_deep, "antidraughts";
    breakthrough, breakthrough_deep, "breakthrough";
    killer, killer_deep, "killer";
}
