//! The trained evaluation's invariants: colour symmetry, the weights file, training.

use damas::core::bitboard::Word;
use damas::core::color::Color;
use damas::core::geometry::Geometry;
use damas::core::patterns::IndexedPosition;
use damas::core::position::{Position, WordOf};
use damas::core::rules::Rules;
use damas::search::eval::Score;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use damas::core::bitboard::Bitboard;
use damas::core::notation::parse_fen;
use damas::core::patterns::WINDOW_SQUARES;
use damas::core::position::Setup;
use damas::core::rules::{Czech, English, International, OneWay, Turkish};
use damas::search::trained::data::{variant_tag, Record, RECORD_BYTES};
use damas::search::trained::train::{samples, train, Model, Sample, Settings};
use damas::search::trained::*;

/// Weights drawn at random, so no symmetry comes from the weights themselves.
fn random_weights<R: Rules>(seed: u64) -> TrainedWeights {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = TrainedWeights::zero::<R>(R::NAME);
    for v in w.values_mut() {
        *v = [rng.gen_range(-800..800), rng.gen_range(-800..800)];
    }
    w
}

/// `pos` turned 180° with the colours swapped (for One-way, where both sides move the same
/// way: the colours swapped only).
fn mirror<R: Rules>(pos: &Position<R>) -> Position<R> {
    let s = pos.setup();
    let turn = |b: Bitboard<WordOf<R>>| {
        let mut out = <WordOf<R> as Word>::ZERO;
        let mut x = b.0;
        while x != <WordOf<R> as Word>::ZERO {
            let i = x.lsb();
            x ^= <WordOf<R> as Word>::ONE << i;
            let j = if R::BLACK_TURNED {
                R::TURNED[i as usize] as u32
            } else {
                i
            };
            out |= <WordOf<R> as Word>::ONE << j;
        }
        Bitboard(out)
    };
    Position::from_setup(&Setup {
        side: s.side.opposite(),
        by_color: [turn(s.by_color[1]), turn(s.by_color[0])],
        kings: turn(s.kings),
        parachutists: turn(s.parachutists),
    })
    .expect("the mirror of a legal position is legal")
}

/// Positions of random games from the start, their pattern indices updated move by move as
/// the search's are.
fn random_positions<R: Rules>(seed: u64, n: usize) -> Vec<IndexedPosition<R>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = IndexedPosition::new(Position::<R>::start());
        for _ in 0..rng.gen_range(0..60) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(&moves[rng.gen_range(0..moves.len())]);
        }
        let c = damas::core::color::Color::White;
        if pos.pieces(c).count() > 0 && pos.pieces(c.opposite()).count() > 0 {
            out.push(pos);
        }
    }
    out
}

fn symmetric<R: Rules>() {
    let w = random_weights::<R>(7);
    for pos in random_positions::<R>(3, 200) {
        let m = IndexedPosition::new(mirror(&pos));
        assert_eq!(
            white_score(&m, &w),
            -white_score(&pos, &w),
            "{pos:?} / {m:?}"
        );
        assert_eq!(evaluate(&m, &w), evaluate(&pos, &w), "{pos:?}");
    }
}

#[test]
fn a_position_and_its_mirror_score_opposite() {
    symmetric::<English>();
    symmetric::<International>();
    symmetric::<Czech>();
    symmetric::<Turkish>();
    symmetric::<OneWay>();
}

#[test]
fn windows_hold_eight_squares_and_turn_into_windows() {
    fn check<R: Rules>(count: usize) {
        let w = R::WINDOWS;
        assert_eq!(w.count, count, "{}", R::NAME);
        for j in 0..w.count {
            let t = w.turned[j] as usize;
            assert_eq!(w.turned[t] as usize, j);
            for k in 0..WINDOW_SQUARES {
                assert_eq!(
                    R::TURNED[w.squares[j][k] as usize],
                    w.squares[t][WINDOW_SQUARES - 1 - k],
                    "{} window {j}",
                    R::NAME
                );
            }
        }
    }
    check::<English>(9);
    check::<International>(16);
    check::<damas::core::rules::Canadian>(25);
    check::<Turkish>(12);
    check::<damas::core::rules::Alquerque>(8);
}

/// Records every feature visited, as training's visitors see them (empty windows left out).
struct Listed(Vec<(usize, i32)>);

impl Visitor for Listed {
    fn add(&mut self, index: usize, sign: i32) {
        self.0.push((index, sign));
    }
}

/// `white_score` computed from the listed features, one by one.
fn listed_score<R: Rules>(pos: &Position<R>, w: &TrainedWeights) -> Score {
    let mut listed = Listed(Vec::new());
    features(pos, &mut listed);
    let (mut open, mut end) = (0, 0);
    for (i, sign) in listed.0 {
        open += sign * w.values()[i][0] as i32;
        end += sign * w.values()[i][1] as i32;
    }
    let p = phase(pos);
    (open * p + end * (FULL_PHASE - p)) / (FULL_PHASE * SCALE)
}

/// The search's summing path (which is also shown the empty windows) scores as the features
/// listed for training do.
#[test]
fn white_score_sums_the_listed_features() {
    fn check<R: Rules>() {
        let w = random_weights::<R>(17);
        for pos in random_positions::<R>(19, 300) {
            assert_eq!(white_score(&pos, &w), listed_score(&pos, &w), "{pos:?}");
        }
    }
    check::<English>();
    check::<International>();
    check::<damas::core::rules::Canadian>();
    check::<Turkish>();
    check::<OneWay>();
    check::<damas::core::rules::Dameo>();
    check::<damas::core::rules::Parachute>();
    check::<damas::core::rules::Gothic>();
    check::<damas::core::rules::Alquerque>();
}

#[test]
fn weights_round_trip_and_bad_files_are_refused() {
    let w = random_weights::<English>(1);
    let bytes = w.to_bytes();
    assert_eq!(
        TrainedWeights::from_bytes::<English>(&bytes, "english"),
        Ok(w)
    );
    assert_eq!(
        TrainedWeights::from_bytes::<English>(&bytes, "czech"),
        Err(WeightsError::WrongVariant {
            file: "english".into(),
            wanted: "czech".into()
        })
    );
    assert!(matches!(
        TrainedWeights::from_bytes::<International>(&bytes, "english"),
        Err(WeightsError::WrongSize { .. })
    ));
    assert_eq!(
        TrainedWeights::from_bytes::<English>(&bytes[..bytes.len() - 3], "english"),
        Err(WeightsError::Truncated)
    );
    assert_eq!(
        TrainedWeights::from_bytes::<English>(b"hello", "english"),
        Err(WeightsError::NotAWeightsFile)
    );
    // An entry count the file cannot hold is refused before anything is allocated.
    let mut huge = TrainedWeights::zero::<English>("english").to_bytes();
    let n = huge.len();
    huge[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        TrainedWeights::from_bytes::<English>(&huge, "english"),
        Err(WeightsError::Truncated)
    );
}

#[test]
fn every_shipped_weights_file_matches_its_variant() {
    for &v in damas::core::variant::Variant::ALL {
        let bytes = damas::engine::weights::shipped_bytes(v).expect("a file per variant");
        damas::with_rules!(v, R => {
            let w = TrainedWeights::from_bytes::<R>(bytes, &v.key());
            assert!(w.is_ok(), "{v}: {w:?}");
        });
    }
}

#[test]
fn records_round_trip() {
    let pos: Position<English> = parse_fen("W:WK10,22,23:B3,K30").expect("fen");
    let mut r = Record::of(&pos, 17, 33, -45, true);
    r.result = 2;
    let tag = variant_tag("english");
    let mut bytes = Vec::new();
    r.write(tag, &mut bytes);
    assert_eq!(bytes.len(), RECORD_BYTES);
    let back = Record::read_all(&bytes, tag).expect("read");
    assert_eq!(back, vec![r]);
    assert_eq!(back[0].position::<English>(), Ok(pos));
    assert!(Record::read_all(&bytes, variant_tag("czech")).is_err());
    assert!(Record::read_all(&bytes[1..], tag).is_err());
}

/// Training on positions whose result is decided by material learns to prefer material,
/// and lowers the loss.
#[test]
fn training_lowers_the_loss() {
    let mut records = Vec::new();
    let mut rng = StdRng::seed_from_u64(5);
    for (i, pos) in random_positions::<English>(11, 3000)
        .into_iter()
        .enumerate()
    {
        let w = pos.pieces(damas::core::color::Color::White).count() as i32;
        let b = pos.pieces(damas::core::color::Color::Black).count() as i32;
        let mut r = Record::of(&pos, i as u32, 0, 0, true);
        // Mostly the side with more pieces wins; some noise.
        r.result = if rng.gen_range(0..10) == 0 {
            1
        } else if w > b {
            2
        } else if w < b {
            0
        } else {
            1
        };
        records.push(r);
    }
    let settings = Settings {
        epochs: 5,
        result_weight: 1.0,
        ..Settings::default()
    };
    let (tr, va) = damas::search::trained::train::split(&records, settings.validation_every);
    let (tr, va) = (samples::<English>(&tr, 1.0), samples::<English>(&va, 1.0));
    let zero = Model {
        w: vec![[0.0; 2]; English::WEIGHT_COUNT],
    };
    let before = zero.loss(&va);
    let mut losses = Vec::new();
    let model = train(zero, &tr, &va, &settings, &mut |e| {
        losses.push(e.validation_loss)
    });
    let after = model.loss(&va);
    assert!(after < before - 0.05, "{before} -> {after}");
    assert_eq!(losses.len(), 5);
    // Deterministic for a seed.
    let again = train(
        Model {
            w: vec![[0.0; 2]; English::WEIGHT_COUNT],
        },
        &tr,
        &va,
        &settings,
        &mut |_| {},
    );
    assert_eq!(again.w, model.w);
}

/// Started from the hand-made evaluation, the model scores a position as the hand-made
/// evaluation does wherever the latter's terms are all linear: men only, none a step from
/// crowning (that bonus needs a free square ahead).
#[test]
fn a_hand_made_start_scores_as_the_hand_made_evaluation() {
    fn check<R: Rules>() {
        let model = Model::hand_made::<R>();
        let mut checked = 0;
        for pos in random_positions::<R>(9, 300) {
            let rows = damas::search::eval::before_crown(&R::G::LAYOUT, R::PROMOTION_SQUARES);
            let near = (pos.pieces(Color::White).0.to_u128() & rows[0])
                | (pos.pieces(Color::Black).0.to_u128() & rows[1]);
            if pos.kings().0 != <WordOf<R> as Word>::ZERO || near != 0 {
                continue;
            }
            let white = damas::search::eval::hand_made(&pos)
                * if pos.side_to_move() == Color::White {
                    1
                } else {
                    -1
                };
            let s = model.score(&Sample::of(&pos, 0.5));
            assert!(
                (s - white as f32).abs() < 0.01,
                "{}: {s} against {white}",
                R::NAME
            );
            checked += 1;
        }
        assert!(checked > 50, "{}: {checked}", R::NAME);
    }
    check::<English>();
    check::<International>();
    check::<Czech>();
    check::<Turkish>();
}
