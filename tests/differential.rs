//! The bitboard generator against the simple reference generator in tests/common:
//! identical legal move sets along random games, identical start positions and perft.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::reference::{self as reference, RefColor, RefKind, RefPos, Sq};
use damas::geometry::Geometry;
use damas::notation::square_algebraic;
use damas::{with_rules, Color, Convention, Kind, Position, Rules, Square, Variant};

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
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn random_games<R: Rules>(name: &str, games: usize, plies: usize) -> usize {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ name.len() as u64);
    let mut checked = 0;
    assert_eq!(
        to_ref(name, &Position::<R>::start()),
        reference::start(name),
        "{name}: start positions differ"
    );
    for _ in 0..games {
        let mut pos = Position::<R>::start();
        for _ in 0..plies {
            let rpos = to_ref(name, &pos);
            let ours = engine_moves(&pos);
            let theirs = reference_moves(&rpos);
            assert_eq!(
                ours,
                theirs,
                "{name}: move sets differ in {}",
                damas::notation::write_fen(&pos)
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
                "{name}: positions differ after a move"
            );
        }
    }
    checked
}

fn perft_both<R: Rules>(name: &str, depth: u32) {
    let pos = Position::<R>::start();
    let rpos = reference::start(name);
    for (conv, drop) in [(Convention::Drop, true), (Convention::Keep, false)] {
        assert_eq!(
            damas::perft::perft(&pos, depth, conv),
            reference::perft(&rpos, depth, drop),
            "{name} perft {depth} {conv:?}"
        );
    }
}

fn variants() -> Vec<(Variant, &'static str)> {
    let mut v: Vec<(Variant, &str)> = Variant::ALL.iter().map(|&v| (v, v.name())).collect();
    v.push((Variant::EnglishFreeCapture, "english-free"));
    v
}

#[test]
fn random_games_agree_with_the_reference() {
    for (v, name) in variants() {
        let checked = with_rules!(v, R => random_games::<R>(name, 40, 150));
        assert!(checked > 1000, "{name}: only {checked} positions");
    }
}

#[test]
fn start_perft_agrees_with_the_reference() {
    for (v, name) in variants() {
        let depth = if v == Variant::Canadian { 3 } else { 4 };
        with_rules!(v, R => perft_both::<R>(name, depth));
    }
}

#[test]
fn geometry_sizes() {
    assert_eq!(damas::geometry::Dark10::squares().len(), 50);
}
