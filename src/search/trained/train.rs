//! Training: logistic regression of game results (optionally blended with the search's
//! scores) on the features of quiet positions, by stochastic gradient descent on minibatches
//! (only the weights a batch touches are updated). Early stopping on the validation set keeps
//! the epoch that generalises best; an optional L2 penalty pulls each weight toward its
//! starting value, so that where data is thin (large boards, few games) the model stays near
//! the evaluation it started from.
//!
//! Deterministic for a seed: the shuffle is seeded, predictions are computed in parallel but
//! gradients are summed in a fixed order.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

use crate::core::color::Color;
use crate::core::parallel;
use crate::core::position::Position;
use crate::core::rules::Rules;
use crate::search::eval::linear_terms;
use crate::search::trained::data::Record;
use crate::search::trained::{features, phase, Frames, TrainedWeights, Visitor, FULL_PHASE};
use crate::search::trained::{KING_MOBILITY, KING_SQUARE, MAN_SQUARE, MOBILITY_BUCKETS, SCALE};

/// Scores are mapped to win chances by `1 / (1 + e^(-score / SCORE_SCALE))`: a man up
/// (100) is a 70% chance.
pub const SCORE_SCALE: f32 = 120.0;

#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub epochs: u32,
    pub seed: u64,
    /// The step in the first epoch: weights move by this times the batch's mean gradient.
    pub learning_rate: f32,
    /// Each epoch's step is the previous one's times this.
    pub decay: f32,
    /// L2 penalty per weight toward its starting value, applied when a batch touches it (the
    /// gradients are per hundredth of a man and tiny: 1e-6 toward zero dragged the material
    /// down).
    pub l2: f32,
    pub batch: usize,
    /// Share of the game result in the target; the rest is the search's score.
    pub result_weight: f32,
    /// One game in this many goes to the validation set.
    pub validation_every: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epochs: 20,
            seed: 1,
            learning_rate: 1e5,
            decay: 0.7,
            l2: 0.0,
            batch: 512,
            result_weight: 0.75,
            validation_every: 10,
        }
    }
}

/// One position as the trainer sees it.
pub struct Sample {
    /// Feature index × 2, plus 1 for a Black feature (sign -1).
    pub features: Vec<u32>,
    /// 0..=1: the opening weight's share.
    pub phase: f32,
    /// The target chance for White.
    pub target: f32,
}

impl Sample {
    /// The features of `pos` with the chance `target` for White.
    pub fn of<R: Rules>(pos: &Position<R>, target: f32) -> Sample {
        let mut f = Vec::with_capacity(96);
        features(pos, &mut Collect(&mut f));
        Sample {
            features: f,
            phase: phase(pos) as f32 / FULL_PHASE as f32,
            target,
        }
    }
}

struct Collect<'a>(&'a mut Vec<u32>);
impl Visitor for Collect<'_> {
    fn add(&mut self, index: usize, sign: i32) {
        self.0.push((index as u32) << 1 | (sign < 0) as u32);
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The samples of the quiet records that make legal positions of `R`.
pub fn samples<R: Rules>(records: &[Record], result_weight: f32) -> Vec<Sample> {
    parallel::filter_map(records.len(), &|i| {
        let r = &records[i];
        if !r.quiet() {
            return None;
        }
        let pos = r.position::<R>().ok()?;
        let white_score = if r.side == Color::White {
            r.score as f32
        } else {
            -(r.score as f32)
        };
        let target = result_weight * r.white_result()
            + (1.0 - result_weight) * sigmoid(white_score / SCORE_SCALE);
        Some(Sample::of(&pos, target))
    })
}

/// Weights during training: opening and ending values per feature, in hundredths of a man.
pub struct Model {
    pub w: Vec<[f32; 2]>,
}

impl Model {
    /// Starting values: a man is worth 1, a king 2.5.
    pub fn new<R: Rules>() -> Model {
        let mut w = vec![[0.0f32; 2]; R::WEIGHT_COUNT];
        for i in 0..128 {
            w[MAN_SQUARE + i] = [100.0, 100.0];
            w[KING_SQUARE + i] = [250.0, 250.0];
        }
        Model { w }
    }

    /// Starting values that reproduce the hand-made evaluation's square values, material and
    /// king mobility; everything else starts at zero.
    pub fn hand_made<R: Rules>() -> Model {
        let t = linear_terms::<R>();
        let mut w = vec![[0.0f32; 2]; R::WEIGHT_COUNT];
        for i in 0..128 {
            w[MAN_SQUARE + i] = [t.man[i] as f32; 2];
            w[KING_SQUARE + i] = [t.king[i] as f32; 2];
        }
        for (reach, v) in w[KING_MOBILITY..KING_MOBILITY + MOBILITY_BUCKETS]
            .iter_mut()
            .enumerate()
        {
            let x = if reach == 0 {
                -t.trapped_king
            } else {
                reach as i32 * t.king_reach
            };
            *v = [x as f32; 2];
        }
        Model { w }
    }

    pub fn from_weights(t: &TrainedWeights) -> Model {
        let s = SCALE as f32;
        Model {
            w: t.values()
                .iter()
                .map(|v| [v[0] as f32 / s, v[1] as f32 / s])
                .collect(),
        }
    }

    /// White's score of a sample, hundredths of a man.
    pub fn score(&self, s: &Sample) -> f32 {
        let (mut open, mut end) = (0.0f32, 0.0f32);
        for &f in &s.features {
            let w = self.w[(f >> 1) as usize];
            let sign = if f & 1 == 0 { 1.0 } else { -1.0 };
            open += sign * w[0];
            end += sign * w[1];
        }
        open * s.phase + end * (1.0 - s.phase)
    }

    /// Mean cross-entropy of the predictions against the targets.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let total: f64 = samples
            .par_iter()
            .map(|s| {
                let p = sigmoid(self.score(s) / SCORE_SCALE).clamp(1e-6, 1.0 - 1e-6) as f64;
                let t = s.target as f64;
                -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
            })
            .sum();
        total / samples.len() as f64
    }

    pub fn to_weights(&self, variant: &str) -> TrainedWeights {
        let q = |x: f32| (x * SCALE as f32).round().clamp(-32767.0, 32767.0) as i16;
        TrainedWeights::new(variant, self.w.iter().map(|v| [q(v[0]), q(v[1])]).collect())
    }
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: u32,
    pub train_loss: f64,
    pub validation_loss: f64,
}

/// Split records into training and validation by game number.
pub fn split(records: &[Record], every: u32) -> (Vec<Record>, Vec<Record>) {
    records
        .iter()
        .partition(|r| every == 0 || r.game % every != 0)
}

/// Train `model` on `train`, reporting each epoch; returns the model with the best
/// validation loss.
pub fn train(
    mut model: Model,
    train: &[Sample],
    validation: &[Sample],
    settings: &Settings,
    report: &mut dyn FnMut(Epoch),
) -> Model {
    let n = model.w.len();
    let mut grad = vec![[0.0f32; 2]; n];
    let mut touched: Vec<u32> = Vec::new();
    let mut seen = vec![false; n];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut best: Option<(f64, Vec<[f32; 2]>)> = None;
    let start = model.w.clone();
    let mut rate = settings.learning_rate;
    for epoch in 1..=settings.epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(settings.batch.max(1)) {
            // Predictions in parallel, gradients summed in batch order.
            let errors: Vec<f32> = batch
                .par_iter()
                .map(|&i| {
                    let s = &train[i];
                    (sigmoid(model.score(s) / SCORE_SCALE) - s.target) / SCORE_SCALE
                })
                .collect();
            for (&i, &e) in batch.iter().zip(&errors) {
                let s = &train[i];
                for &f in &s.features {
                    let k = (f >> 1) as usize;
                    let sign = if f & 1 == 0 { e } else { -e };
                    grad[k][0] += sign * s.phase;
                    grad[k][1] += sign * (1.0 - s.phase);
                    if !seen[k] {
                        seen[k] = true;
                        touched.push(k as u32);
                    }
                }
            }
            let scale = 1.0 / batch.len() as f32;
            for &k in &touched {
                let k = k as usize;
                for ((w, g), p) in model.w[k].iter_mut().zip(grad[k].iter_mut()).zip(start[k]) {
                    *w -= rate * (*g * scale + settings.l2 * (*w - p));
                    *g = 0.0;
                }
                seen[k] = false;
            }
            touched.clear();
        }
        rate *= settings.decay;
        let train_loss = model.loss(train);
        let validation_loss = if validation.is_empty() {
            train_loss
        } else {
            model.loss(validation)
        };
        report(Epoch {
            epoch,
            train_loss,
            validation_loss,
        });
        if best.as_ref().is_none_or(|b| validation_loss < b.0) {
            best = Some((validation_loss, model.w.clone()));
        }
    }
    if let Some((_, w)) = best {
        model.w = w;
    }
    model
}
