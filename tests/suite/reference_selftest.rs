//! Self-test of the reference generator (tests/suite/common/reference.rs) against the
//! published perft numbers of RULES.md (the rules reference) §5, the positions of
//! the shared perft/positions.tsv (smallest listed depth) and a few
//! hand-checked positions for the variants without published numbers.
use crate::common::reference::*;

fn alg(s: &str) -> Sq {
    let b = s.as_bytes();
    (b[0] - b'a', s[1..].parse::<u8>().unwrap() - 1)
}

fn pos(variant: &str, fen: &str) -> RefPos {
    from_fen(variant, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

fn check_start(variant: &str, drop: bool, expected: &[u64]) {
    let p = start(variant);
    for (i, &n) in expected.iter().enumerate() {
        let d = i as u32 + 1;
        assert_eq!(
            perft(&p, d, drop),
            n,
            "{variant} start perft({d}) drop={drop}"
        );
    }
}

/// Sorted (from, to, captured) triples in algebraic notation.
fn moves_of(p: &RefPos) -> Vec<String> {
    let a = |s: Sq| format!("{}{}", (b'a' + s.0) as char, s.1 + 1);
    let mut v: Vec<String> = legal_moves(p)
        .iter()
        .map(|m| {
            let caps: Vec<String> = m.captured.iter().map(|&s| a(s)).collect();
            let promo = if m.promotes { "=K" } else { "" };
            if caps.is_empty() {
                format!("{}-{}{}", a(m.from), a(m.to), promo)
            } else {
                format!("{}x{}{}:{}", a(m.from), a(m.to), promo, caps.join(","))
            }
        })
        .collect();
    v.sort();
    v
}

// ---- RULES.md §5: start positions -------------------------------------------

#[test]
fn start_english_family() {
    check_start("english", false, &[7, 49, 302, 1469, 7361, 36768]);
    check_start("anti-english", false, &[7, 49, 302, 1469]);
}

#[test]
fn start_czech() {
    check_start("czech", false, &[7, 49, 302, 1469, 7361, 36768]);
}

#[test]
fn start_italian() {
    check_start("italian", false, &[7, 49, 302, 1469, 7361, 36473]);
}

#[test]
fn start_portuguese() {
    check_start("portuguese", false, &[7, 49, 302, 1469, 7361, 36473]);
}

#[test]
fn start_brazilian() {
    check_start("brazilian", false, &[7, 49, 302, 1469, 7473, 37628]);
}

#[test]
fn start_russian() {
    check_start("russian", false, &[7, 49, 302, 1469, 7482, 37986]);
}

#[test]
fn start_international() {
    check_start("international", false, &[9, 81, 658, 4265]);
}

#[test]
fn start_canadian() {
    check_start("canadian", true, &[11, 121, 1222]);
}

#[test]
fn start_thai() {
    check_start("thai", true, &[7, 49, 392, 3136, 26592]);
}

#[test]
fn start_turkish() {
    check_start("turkish", true, &[8, 64, 708, 7538, 85090]);
}

#[test]
fn start_derived_counts() {
    // RULES.md §5.11 hand-derived sanity values
    assert_eq!(perft(&start("gothic"), 1, false), 22);
    assert_eq!(perft(&start("dameo"), 1, false), 52);
    assert_eq!(perft(&start("alquerque"), 1, false), 4);
    assert_eq!(perft(&start("parachute"), 1, false), 7);
    assert_eq!(perft(&start("hawaiian"), 1, false), 4);
    assert_eq!(perft(&start("hawaiian"), 2, false), 12);
    assert_eq!(start("english").to_move, RefColor::Black);
    assert_eq!(start("hawaiian").to_move, RefColor::Black);
    assert_eq!(start("czech").to_move, RefColor::White);
}

// ---- the shared perft/positions.tsv, smallest listed depth --------------

/// (variant, fen, depth, nodes, drop). Rows marked "same" are checked with both
/// conventions.
const TSV: &[(&str, &str, u32, u64, Option<bool>)] = &[
    (
        "english",
        "B:W17,21,23,25,29,30,31,32:B1,3,4,5,7,9,10,12,24",
        4,
        3743,
        None,
    ),
    (
        "english",
        "W:WK2,18,26,29:B4,6,8,9,13,K24,K30",
        6,
        12762,
        None,
    ),
    ("english", "W:WK14,21,26,29:BK5", 7, 15250, None),
    (
        "english",
        "W:WK18,27,30,31:B1,3,6,7,8,14,15",
        6,
        29966,
        Some(false),
    ),
    (
        "english",
        "W:WK18,27,30,31:B1,3,6,7,8,14,15",
        6,
        20910,
        Some(true),
    ),
    (
        "international",
        "B:W28,29,35,36,37,38,39,40,41,42,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,10,11,14,15,16,17",
        3,
        1531,
        None,
    ),
    (
        "international",
        "B:WK16,26,40,46:B5,6,10,14,15,19,24,K36",
        4,
        13929,
        None,
    ),
    (
        "international",
        "B:WK8,K12,36,37,38,40,42,43,45,46,50:B3,5,6",
        4,
        4783,
        None,
    ),
    (
        "international",
        "B:WK4,21,K27,31,32:B15,30,35",
        4,
        2199,
        None,
    ),
    (
        "international",
        "W:WK1,K10,K28,33,K46:BK5,18,K23,K41,K50",
        5,
        2421,
        None,
    ),
    (
        "russian",
        "B:Wa1,g1,h2,a3,e3,g3,d4,f4,h6:Bb6,d6,c7,e7,g7,b8,d8,f8,h8",
        5,
        4530,
        Some(true),
    ),
    (
        "russian",
        "B:Wa1,g1,h2,a3,e3,g3,d4,f4,h6:Bb6,d6,c7,e7,g7,b8,d8,f8,h8",
        5,
        4536,
        Some(false),
    ),
    (
        "russian",
        "B:Wc1,g1,b2,h2,a3,Kc3:BKh4,a7,b8,f8,h8",
        4,
        6730,
        None,
    ),
    ("russian", "B:Wa1,Ka7:BKg5,b8", 5, 36105, None),
    (
        "russian",
        "W:Wc1,e1,f2,Kd4:Bc5,e5,c7,e7,g7,b8,f8",
        5,
        9899,
        Some(true),
    ),
    (
        "russian",
        "W:Wc1,e1,f2,Kd4:Bc5,e5,c7,e7,g7,b8,f8",
        5,
        10904,
        Some(false),
    ),
    (
        "brazilian",
        "W:Wa1,c1,e1,g1,b2,d2,h2,a3,e3,g3:Bb4,c5,f6,h6,e7,g7,b8,d8,f8,h8",
        5,
        5750,
        None,
    ),
    (
        "brazilian",
        "W:Wh2,a3,c3,e3,h4,a7,Kb8:Bg5,d6,f6",
        11,
        17328,
        None,
    ),
    ("brazilian", "B:Wd2,h4,Ka5:BKb2", 5, 20728, None),
    (
        "brazilian",
        "W:Wc1,e1,f2,Kd4:Bc5,e5,c7,e7,g7,b8,f8",
        5,
        6888,
        Some(true),
    ),
    (
        "brazilian",
        "W:Wc1,e1,f2,Kd4:Bc5,e5,c7,e7,g7,b8,f8",
        5,
        7893,
        Some(false),
    ),
    (
        "turkish",
        "W:Wc2,d2,e2,f2,g2,h2,d3,g3,c4:Bf5,a6,b6,c6,d6,e6,g6,h6,a7,b7,d7,e7,h7",
        3,
        2717,
        None,
    ),
    (
        "turkish",
        "B:Wa2,b2,c2,d2,h2,c3,d3,h3,a4,e4,g4,Kd8:BKf1,h5,a6,b6,f6,g6,a7,b7,c7,f7,g7,h7",
        3,
        7951,
        Some(true),
    ),
    (
        "turkish",
        "B:Wa2,b2,d2,e2,g2,a3,b3,h4,Kd8:BKc1,b6,d7,e7",
        4,
        16183,
        Some(true),
    ),
    (
        "turkish",
        "W:Wb2,c2,g2,d3,e3,a6:Bf6,a7,g7,h7,c8",
        4,
        426,
        None,
    ),
    ("turkish", "W:WKa1,g3,h3:BKb1,Ke1,d7,h7", 2, 31, Some(true)),
    (
        "italian",
        "W:W14,17,19,23,25,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,12,24",
        5,
        3873,
        None,
    ),
    (
        "italian",
        "W:WK9,14,17,25,29,32:B1,4,15,18,K30",
        5,
        13260,
        None,
    ),
    ("italian", "B:WK1,13,24:BK7", 7, 8255, None),
    ("italian", "W:WK19,29,31:B4,5,K7,K14,15", 6, 6046, None),
];

#[test]
fn tsv_positions() {
    for &(variant, fen, depth, nodes, drop) in TSV {
        let p = pos(variant, fen);
        let convs: &[bool] = match drop {
            Some(true) => &[true],
            Some(false) => &[false],
            None => &[false, true],
        };
        for &d in convs {
            assert_eq!(
                perft(&p, depth, d),
                nodes,
                "{variant} {fen} depth {depth} drop={d}"
            );
        }
    }
}

// ---- root move lists of the hand-made tsv positions --------------------------

#[test]
fn tsv_root_moves() {
    // English king ring: both directions round the ring are separate (keep) moves.
    let p = pos("english", "W:WK18,27,30,31:B1,3,6,7,8,14,15");
    assert_eq!(
        moves_of(&p),
        [
            "d4xd4:c5,c7,e7,e5",
            "d4xd4:e5,e7,c7,c5",
            "d4xh8:c5,c7,e7,g7",
            "d4xh8:e5,g7"
        ]
    );
    assert_eq!(perft(&p, 1, true), 3);
    // Italian: the capture meeting the king first is compulsory (19x10x1).
    let p = pos("italian", "W:WK19,29,31:B4,5,K7,K14,15");
    assert_eq!(moves_of(&p), ["e4xa8:d5,b7"]);
    // Turkish: a man reaching the back row mid-capture stays a man (1 move).
    let p = pos("turkish", "W:Wb2,c2,g2,d3,e3,a6:Bf6,a7,g7,h7,c8");
    assert_eq!(moves_of(&p), ["a6xa8=K:a7"]);
    // Turkish: straight-line double capture, intermediate landings merged (Black's pieces
    // on its own crowning row are kings: a man cannot stand there).
    let p = pos("turkish", "W:WKa1,g3,h3:BKb1,Ke1,d7,h7");
    assert_eq!(
        moves_of(&p),
        ["a1xd8:b1,d7", "a1xf1:b1,e1", "a1xg1:b1,e1", "a1xh1:b1,e1"]
    );
}

// ---- numbering ----------------------------------------------------------------

#[test]
fn numbering_schemes() {
    let one = |v: &str, n: u32| -> Sq {
        let p = pos(v, &format!("W:W{n}:B"));
        *p.pieces.keys().next().unwrap()
    };
    assert_eq!(one("english", 1), alg("b8"));
    assert_eq!(one("english", 5), alg("a7"));
    assert_eq!(one("english", 29), alg("a1"));
    assert_eq!(one("english", 32), alg("g1"));
    assert_eq!(one("italian", 1), alg("a8"));
    assert_eq!(one("italian", 5), alg("b7"));
    assert_eq!(one("italian", 32), alg("h1"));
    assert_eq!(one("portuguese", 1), alg("h1"));
    assert_eq!(one("portuguese", 8), alg("a2"));
    assert_eq!(one("portuguese", 32), alg("a8"));
    assert_eq!(one("international", 1), alg("b10"));
    assert_eq!(one("international", 5), alg("j10"));
    assert_eq!(one("international", 46), alg("a1"));
    assert_eq!(one("international", 50), alg("i1"));
    assert_eq!(one("canadian", 1), alg("b12"));
    assert_eq!(one("canadian", 67), alg("a1"));
    assert_eq!(one("canadian", 72), alg("k1"));
    let p = pos("international", "W:W31-35,K45:B1-20");
    assert_eq!(p.pieces.len(), 26);
    assert_eq!(p.pieces[&alg("j2")], (RefColor::White, RefKind::King));
    assert_eq!(
        pos("italian", "W:W21-32:B1-12").pieces,
        start("italian").pieces
    );
    assert_eq!(
        pos("portuguese", "W:W1-12:B21-32").pieces,
        start("portuguese").pieces
    );
    assert_eq!(pos("english", "B:W21-32:B1-12"), start("english"));
    assert!(from_fen("english", "W:Wa2:B").is_err()); // light square
}

// ---- variants without published numbers: hand-checked positions ------------

#[test]
fn english_free_capture_optional() {
    let fen = "B:W18:B14,1";
    assert_eq!(moves_of(&pos("english", fen)), ["c5xe3:d4"]);
    assert_eq!(
        moves_of(&pos("english-free", fen)),
        ["b8-a7", "b8-c7", "c5-b4", "c5xe3:d4"]
    );
}

#[test]
fn czech_king_preference() {
    // the man c3 could take d4, but the king h2 can capture, so it must
    let p = pos("czech", "W:Wc3,Kh2:Bd4,f4");
    assert_eq!(
        moves_of(&p),
        ["h2xb8:f4", "h2xc7:f4", "h2xd6:f4", "h2xe5:f4"]
    );
}

#[test]
fn corner_promotion_squares() {
    // promotion only on a7/b8; the man on d8 is frozen
    let p = pos("corner", "W:Wb6,c7,d8:Bh8");
    assert_eq!(moves_of(&p), ["b6-a7=K", "c7-b8=K"]);
    assert_eq!(perft(&start("corner"), 1, false), 6);
}

#[test]
fn parachute_rules() {
    // parachutist jumps once towards its own side and becomes a man
    let p = pos("parachute", "W:Wc3,Pd8:Be7,c5,g7");
    assert_eq!(moves_of(&p), ["d8xf6:e7"]);
    let m = &legal_moves(&p)[0];
    assert_eq!(
        play(&p, m).pieces[&alg("f6")],
        (RefColor::White, RefKind::Man)
    );
    // a queen capture takes precedence over the parachutist
    let p = pos("parachute", "W:WKa1,Pd8:Bb2,e7,g7");
    assert_eq!(moves_of(&p), ["a1xh8:b2,g7"]);
    assert_eq!(
        start("parachute").pieces[&alg("b8")],
        (RefColor::White, RefKind::Parachutist)
    );
}

#[test]
fn one_way_direction() {
    // both colours move and capture towards rank 8 and promote there
    assert_eq!(moves_of(&pos("one-way", "B:Wa1:Bc3")), ["c3-b4", "c3-d4"]);
    assert_eq!(moves_of(&pos("one-way", "B:Wd4:Bc3")), ["c3xe5:d4"]);
    assert_eq!(moves_of(&pos("one-way", "B:Wd4:Ba7")), ["a7-b8=K"]);
}

#[test]
fn gothic_rules() {
    assert_eq!(moves_of(&pos("gothic", "W:Wd4:Be4")), ["d4xf4:e4"]);
    assert_eq!(
        moves_of(&pos("gothic", "W:WKd4:Bd3,e5")),
        ["d4xd2:d3", "d4xf6:e5"]
    );
}

#[test]
fn dameo_rules() {
    // linear moves along a column
    assert_eq!(
        moves_of(&pos("dameo", "W:Wa1,a2,a3:Bh8")),
        ["a1-a4", "a1-b2", "a2-a4", "a2-b3", "a3-a4", "a3-b4"]
    );
    // kings capture orthogonally only
    assert_eq!(
        moves_of(&pos("dameo", "W:WKd4:Be5,d6")),
        ["d4xd7:d6", "d4xd8:d6"]
    );
}

#[test]
fn alquerque_rules() {
    // later jumps may go backwards
    assert_eq!(
        moves_of(&pos("alquerque", "W:Wc3:Bc4,d4")),
        ["c3xe3:c4,d4", "c3xe5:d4"]
    );
    // a piece on the far row makes no plain move
    assert_eq!(
        moves_of(&pos("alquerque", "W:Wa5,c1:Be5")),
        ["c1-b1", "c1-b2", "c1-c2", "c1-d1", "c1-d2"]
    );
}

#[test]
fn hawaiian_rules() {
    // continuing is optional, the line must stay straight
    assert_eq!(
        moves_of(&pos("hawaiian", "W:Wa1:Bb1,d1")),
        ["a1xc1:b1", "a1xe1:b1,d1"]
    );
    assert_eq!(moves_of(&pos("hawaiian", "W:Wa1:Bb1,c2")), ["a1xc1:b1"]);
    // opening removals are from == to moves
    let s = start("hawaiian");
    let first = legal_moves(&s);
    assert!(first
        .iter()
        .all(|m| m.from == m.to && m.captured.is_empty()));
    let after = play(&s, &first[0]);
    assert_eq!(after.pieces.len(), 63);
}
