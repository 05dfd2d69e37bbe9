//! The bitboard generator against the simple reference generator in tests/suite/common:
//! identical legal move sets along random games (from the start and from random setups, for
//! every variant), identical start positions, identical perft from the start and from random
//! positions, and the per-variant perft files of the variants without published numbers.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::reference::{self as reference, RefColor, RefKind, RefPos, Sq};
use damas::core::geometry::Geometry;
use damas::core::notation::{parse_fen, square_algebraic, square_from_algebraic, write_fen};
use damas::core::perft::perft;
use damas::core::rules::Promotion;
use damas::{
    with_rules, Bitboard, Color, Convention, Kind, Piece, Position, Rules, Setup, Square, Variant,
};

fn coords<R: Rules>(sq: Square) -> Sq {
    let name = square_algebraic::<R>(sq);
    let b = name.as_bytes();
    (b[0] - b'a', name[1..].parse::<u8>().expect("rank") - 1)
}

fn to_ref<R: Rules>(name: &str, pos: &Position<R>) -> RefPos {
    let mut pieces = BTreeMap::new();
    for sq in pos.occupied() {
        let p = pos.piece_at(sq).expect("occupied");
        let color = match p.color {
            Color::White => RefColor::White,
            Color::Black => RefColor::Black,
        };
        let kind = match p.kind {
            Kind::Man => RefKind::Man,
            Kind::King => RefKind::King,
            Kind::Parachutist => RefKind::Parachutist,
        };
        pieces.insert(coords::<R>(sq), (color, kind));
    }
    RefPos {
        variant: name.to_string(),
        to_move: match pos.side_to_move() {
            Color::White => RefColor::White,
            Color::Black => RefColor::Black,
        },
        pieces,
    }
}

type MoveKey = (Sq, Sq, Vec<Sq>);

fn engine_moves<R: Rules>(pos: &Position<R>) -> BTreeSet<MoveKey> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut c: Vec<Sq> = m.captured.map(coords::<R>).collect();
            c.sort();
            (coords::<R>(m.from), coords::<R>(m.to), c)
        })
        .collect()
}

fn reference_moves(pos: &RefPos) -> BTreeSet<MoveKey> {
    reference::legal_moves(pos)
        .into_iter()
        .map(|m| {
            let mut c = m.captured;
            c.sort();
            (m.from, m.to, c)
        })
        .collect()
}

/// A small deterministic generator, so every run checks the same games.
struct Rng(u64);
impl Rng {
    fn new(seed: &str) -> Rng {
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        for b in seed.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01B3);
        }
        Rng(h | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Every variant with its reference name (options at their defaults, plus English with
/// optional capture). The lidraughts variants pydraughts plays (Frisian, Frysk!,
/// Antidraughts, Breakthrough) are checked against pydraughts instead (`lidraughts::`,
/// `perft::`).
fn variants() -> Vec<(Variant, &'static str)> {
    let pydraughts = [
        Variant::Frisian,
        Variant::Frysk,
        Variant::Antidraughts,
        Variant::Breakthrough,
    ];
    let mut v: Vec<(Variant, &str)> = Variant::ALL
        .iter()
        .filter(|v| !pydraughts.contains(v))
        .map(|&v| (v, v.name()))
        .collect();
    v.push((Variant::EnglishFreeCapture, "english-free"));
    v
}

fn setup_of<R: Rules>(side: Color, white: &str, black: &str) -> Position<R> {
    let mut s = Setup::empty(side);
    for (c, names) in [(Color::White, white), (Color::Black, black)] {
        for n in names.split_whitespace() {
            let sq = square_from_algebraic::<R>(n).expect("square");
            s.put(sq, Piece::new(c, Kind::Man));
        }
    }
    Position::from_setup(&s).expect("setup")
}

/// Positions the random games start from besides the start position: One-way's games also
/// start from a test layout with a free rank between the sides (White ranks 1-3, Black ranks
/// 5-7; not a claim about the real start), where both colours' men meet head-on.
fn extra_starts<R: Rules>() -> Vec<Position<R>> {
    if R::NAME == "one-way" {
        vec![setup_of::<R>(
            Color::White,
            "a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3",
            "a5 c5 e5 g5 b6 d6 f6 h6 a7 c7 e7 g7",
        )]
    } else {
        Vec::new()
    }
}

/// A random legal-looking setup: about a third of the squares filled with men, kings where
/// the variant has them and parachutists where it has them; no man on its own crowning square;
/// both sides with pieces (drawn again otherwise).
fn random_setup<R: Rules>(rng: &mut Rng) -> Position<R> {
    loop {
        if let Some(p) = random_setup_once::<R>(rng) {
            return p;
        }
    }
}

fn random_setup_once<R: Rules>(rng: &mut Rng) -> Option<Position<R>> {
    let side = if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    };
    let mut s = Setup::<<R::G as Geometry>::W>::empty(side);
    let limit =
        |c: Color| (R::START_MEN[c.index()] | R::START_PARACHUTISTS[c.index()]).count_ones();
    let mut count = [0u32; 2];
    let density = 15 + rng.below(40);
    for sq in R::G::squares() {
        if !rng.chance(density) {
            continue;
        }
        let c = if rng.chance(50) {
            Color::White
        } else {
            Color::Black
        };
        if count[c.index()] >= limit(c) {
            continue;
        }
        let crowning = Bitboard(<R::G as Geometry>::mask(R::PROMOTION_SQUARES[c.index()]));
        let kind = if R::PARACHUTISTS && rng.chance(12) {
            Kind::Parachutist
        } else if R::PROMOTION != Promotion::Never && (rng.chance(25) || crowning.contains(sq)) {
            Kind::King
        } else {
            Kind::Man
        };
        s.put(sq, Piece::new(c, kind));
        count[c.index()] += 1;
    }
    if s.by_color.iter().any(|b| b.count() == 0) {
        return None;
    }
    Some(Position::from_setup(&s).expect("random setup"))
}

/// Play random games from `from`, comparing move sets and the positions after each move;
/// returns the number of positions compared.
fn random_game<R: Rules>(name: &str, from: Position<R>, plies: usize, rng: &mut Rng) -> usize {
    let mut pos = from;
    let mut checked = 0;
    for _ in 0..plies {
        let rpos = to_ref(name, &pos);
        let ours = engine_moves(&pos);
        let theirs = reference_moves(&rpos);
        assert_eq!(
            ours,
            theirs,
            "{name}: move sets differ in {}",
            write_fen(&pos)
        );
        checked += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        pos.play(&m);
        assert_eq!(pos.hash(), pos.compute_hash(), "{name}: incremental hash");
        let key = {
            let mut c: Vec<Sq> = m.captured.map(coords::<R>).collect();
            c.sort();
            (coords::<R>(m.from), coords::<R>(m.to), c)
        };
        let rm = reference::legal_moves(&rpos)
            .into_iter()
            .find(|r| {
                let mut c = r.captured.clone();
                c.sort();
                (r.from, r.to, c) == key
            })
            .expect("reference has the move");
        assert_eq!(
            to_ref(name, &pos),
            reference::play(&rpos, &rm),
            "{name}: positions differ after {rm:?} from {}",
            write_fen(&pos)
        );
    }
    checked
}

/// Games from the start (and the extra starts), then from random setups, until at least
/// `want` positions of each kind have been compared.
fn random_games<R: Rules>(name: &str, want: usize) -> (usize, usize) {
    let mut rng = Rng::new(name);
    assert_eq!(
        to_ref(name, &Position::<R>::start()),
        reference::start(name),
        "{name}: start positions differ"
    );
    let mut starts = vec![Position::<R>::start()];
    starts.extend(extra_starts::<R>());
    let (mut from_start, mut from_random) = (0, 0);
    let mut games = 0;
    while from_start < want && games < 400 {
        let from = starts[games % starts.len()];
        from_start += random_game(name, from, 150, &mut rng);
        games += 1;
    }
    games = 0;
    while from_random < want && games < 2000 {
        let from = random_setup::<R>(&mut rng);
        from_random += random_game(name, from, 60, &mut rng);
        games += 1;
    }
    (from_start, from_random)
}

fn perft_both<R: Rules>(name: &str, pos: &Position<R>, depth: u32) {
    let rpos = to_ref(name, pos);
    for (conv, drop) in [(Convention::Drop, true), (Convention::Keep, false)] {
        assert_eq!(
            perft(pos, depth, conv),
            reference::perft(&rpos, depth, drop),
            "{name} perft {depth} {conv:?} from {}",
            write_fen(pos)
        );
    }
}

/// The deepest depth in `min..=max` whose reference work (the nodes one ply above the leaves)
/// stays within `budget`, but at least `min`.
fn depth_within<R: Rules>(pos: &Position<R>, min: u32, max: u32, budget: u64) -> u32 {
    let mut d = min;
    while d < max && perft(pos, d, Convention::Keep) <= budget {
        d += 1;
    }
    d
}

fn start_perft<R: Rules>(name: &str, min: u32, max: u32, budget: u64) -> u32 {
    let pos = Position::<R>::start();
    let d = depth_within(&pos, min, max, budget);
    perft_both(name, &pos, d);
    for p in extra_starts::<R>() {
        perft_both(name, &p, depth_within(&p, min, max, budget));
    }
    d
}

/// Perft from positions of random games (plies 6 to 40 from the start) and random setups.
fn random_perft<R: Rules>(name: &str, positions: usize, min: u32, max: u32, budget: u64) {
    let mut rng = Rng::new(&format!("perft {name}"));
    let mut starts = vec![Position::<R>::start()];
    starts.extend(extra_starts::<R>());
    for i in 0..positions {
        let mut pos = if i % 2 == 0 {
            let mut p = starts[i / 2 % starts.len()];
            for _ in 0..6 + rng.below(35) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play(&moves[rng.below(moves.len())]);
            }
            p
        } else {
            random_setup::<R>(&mut rng)
        };
        if pos.legal_moves().is_empty() {
            pos = random_setup::<R>(&mut rng);
        }
        let d = depth_within(&pos, min, max, budget);
        perft_both(name, &pos, d);
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    for (v, name) in variants() {
        let (start, random) = with_rules!(v, R => random_games::<R>(name, 2000));
        assert!(
            start >= 2000,
            "{name}: only {start} positions from the start"
        );
        assert!(
            random >= 2000,
            "{name}: only {random} positions from random setups"
        );
    }
}

#[test]
fn start_perft_agrees_with_the_reference() {
    for (v, name) in variants() {
        let min = if v == Variant::Canadian { 3 } else { 4 };
        with_rules!(v, R => start_perft::<R>(name, min, 7, 30_000));
    }
}

#[test]
fn random_position_perft_agrees_with_the_reference() {
    for (v, name) in variants() {
        let min = if v == Variant::Canadian { 2 } else { 3 };
        with_rules!(v, R => random_perft::<R>(name, 30, min, 5, 3_000));
    }
}

#[test]
#[ignore = "deep differential perft: run with --ignored in release"]
fn deep_start_perft_agrees_with_the_reference() {
    for (v, name) in variants() {
        let d = with_rules!(v, R => start_perft::<R>(name, 5, 12, 1_000_000));
        println!("{name}: start perft agrees to depth {d}");
    }
}

#[test]
#[ignore = "deep differential perft: run with --ignored in release"]
fn deep_random_position_perft_agrees_with_the_reference() {
    for (v, name) in variants() {
        with_rules!(v, R => random_perft::<R>(name, 100, 4, 8, 100_000));
    }
}

/// The hand-derived first-move counts of RULES.md §5.11, on both generators.
#[test]
fn hand_derived_first_move_counts() {
    for (name, depth, nodes) in [
        ("gothic", 1, 22),
        ("dameo", 1, 52),
        ("alquerque", 1, 4),
        ("parachute", 1, 7),
        ("hawaiian", 1, 4),
        ("hawaiian", 2, 12),
    ] {
        let v = Variant::from_name(name).expect("variant");
        for conv in [Convention::Drop, Convention::Keep] {
            let n = with_rules!(v, R => perft(&Position::<R>::start(), depth, conv));
            assert_eq!(n, nodes, "{name} perft {depth} {conv:?}");
        }
        assert_eq!(
            reference::perft(&reference::start(name), depth, true),
            nodes
        );
    }
}

/// Rows of tests/perft/<variant>.tsv for the variants without published numbers, each
/// recomputed by the reference (rows up to `budget` nodes).
fn tsv_rows<R: Rules>(name: &str, budget: u64) -> usize {
    let path = format!("{}/tests/perft/{name}.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("perft file");
    let mut checked = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let nodes: u64 = f[2].parse().expect("nodes");
        if nodes > budget {
            continue;
        }
        let depth: u32 = f[1].parse().expect("depth");
        let pos: Position<R> = if f[0] == "start" {
            Position::start()
        } else {
            parse_fen(f[0]).expect("fen")
        };
        let rpos = to_ref(name, &pos);
        let drops: &[bool] = match f[3] {
            "drop" => &[true],
            "keep" => &[false],
            _ => &[true, false],
        };
        for &drop in drops {
            assert_eq!(
                reference::perft(&rpos, depth, drop),
                nodes,
                "{name}: {line}"
            );
        }
        checked += 1;
    }
    checked
}

const UNPUBLISHED: &[&str] = &[
    "gothic",
    "dameo",
    "hawaiian",
    "alquerque",
    "corner",
    "one-way",
    "parachute",
];

#[test]
fn perft_files_agree_with_the_reference() {
    for name in UNPUBLISHED {
        let v = Variant::from_name(name).expect("variant");
        let n = with_rules!(v, R => tsv_rows::<R>(name, 300_000));
        assert!(n > 0, "{name}: no row checked");
    }
}

#[test]
#[ignore = "deep differential perft: run with --ignored in release"]
fn deep_perft_files_agree_with_the_reference() {
    for name in UNPUBLISHED {
        let v = Variant::from_name(name).expect("variant");
        with_rules!(v, R => tsv_rows::<R>(name, u64::MAX));
    }
}

#[test]
fn geometry_sizes() {
    assert_eq!(damas::core::geometry::Dark10::squares().len(), 50);
    assert_eq!(damas::core::geometry::Full8::squares().len(), 64);
    assert_eq!(damas::core::geometry::Points5::squares().len(), 25);
}
