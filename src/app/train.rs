//! `damas train`: fit the trained evaluation's weights to self-play data, and `damas eval`:
//! a position's static score and its main terms.

use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

use crate::app::args;

use crate::core::notation::parse_fen;
use crate::core::patterns::IndexedPosition;
use crate::core::position::Position;
use crate::core::variant::Variant;
use crate::search::eval;
use crate::search::trained::data::{variant_tag, Record, LAST};
use crate::search::trained::train::{samples, split, train, Model, Settings};
use crate::search::trained::{self, Frames, TrainedWeights, Visitor};
use crate::{with_rules, Color, Rules};

/// Arguments of `damas train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    #[arg(long, default_value = "english")]
    pub variant: String,
    /// Self-play data files (`damas selfplay --out`); may repeat.
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    #[arg(long, default_value = "20", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    #[arg(long, default_value = "1", value_parser = args::seed)]
    pub seed: u64,
    /// Start from these weights instead of material alone; `hand-made` starts from the
    /// hand-made evaluation's material, square values and king mobility.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Pull each weight toward its starting value by this much per update (0: no pull);
    /// 1e-8 keeps a board with few games near the evaluation it started from.
    #[arg(long, default_value = "0", value_parser = penalty)]
    pub l2: f32,
    /// Share of the game result in the target (the rest: the search's score), 0 to 1.
    #[arg(long, default_value = "0.75", value_parser = fraction)]
    pub result_weight: f32,
    /// The first epoch's step: weights move by this times the batch's mean gradient (each
    /// epoch's step is 0.7 times the last one's).
    #[arg(long, default_value = "100000", value_parser = step)]
    pub learning_rate: f32,
    /// The weights file to write; a note on how it was made goes beside it (`.txt`).
    #[arg(long)]
    pub out: PathBuf,
}

fn step(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x > 0.0 && x <= 1e7 => Ok(x),
        _ => Err(format!("'{s}' is not a step above 0 and at most 10000000")),
    }
}

fn penalty(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if (0.0..=1e-3).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a penalty from 0 to 0.001")),
    }
}

fn fraction(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
    }
}

/// The `--init` that starts from the hand-made evaluation instead of a file.
const HAND_MADE: &str = "hand-made";

/// Why `train` or `eval` stopped.
#[derive(Debug)]
pub struct TrainError(pub String);

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TrainError {}

pub fn run(a: TrainArgs) -> Result<(), TrainError> {
    let variant = Variant::from_name(&a.variant).map_err(|e| TrainError(e.to_string()))?;
    // The program's own path is machine-specific: the note says `damas`.
    let command: Vec<String> = std::iter::once("damas".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    with_rules!(variant, R => run_in::<R>(variant, &a, &command.join(" ")))
}

fn run_in<R: Rules>(variant: Variant, a: &TrainArgs, command: &str) -> Result<(), TrainError> {
    let started = Instant::now();
    let key = variant.key();
    let tag = variant_tag(&key);
    let mut records = Vec::new();
    for path in &a.data {
        let bytes =
            std::fs::read(path).map_err(|e| TrainError(format!("{}: {e}", path.display())))?;
        records.extend(
            Record::read_all(&bytes, tag)
                .map_err(|e| TrainError(format!("{}: {e}", path.display())))?,
        );
    }
    // Files from different seeds reuse game numbers: count the games' last positions.
    let games = records.iter().filter(|r| r.flags & LAST != 0).count();
    let settings = Settings {
        epochs: a.epochs,
        seed: a.seed,
        result_weight: a.result_weight,
        learning_rate: a.learning_rate,
        l2: a.l2,
        ..Settings::default()
    };
    let (train_records, validation_records) = split(&records, settings.validation_every);
    let train_set = samples::<R>(&train_records, settings.result_weight);
    let validation_set = samples::<R>(&validation_records, settings.result_weight);
    eprintln!(
        "train {}: {} games, {} positions, {} quiet for training and {} for validation",
        variant,
        games,
        records.len(),
        train_set.len(),
        validation_set.len()
    );
    if train_set.is_empty() {
        return Err(TrainError("no quiet positions to train on".into()));
    }
    let model = match &a.init {
        Some(path) if path.as_os_str() == HAND_MADE => Model::hand_made::<R>(),
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| TrainError(format!("{}: {e}", path.display())))?;
            let w = TrainedWeights::from_bytes::<R>(&bytes, &key)
                .map_err(|e| TrainError(format!("{}: {e}", path.display())))?;
            Model::from_weights(&w)
        }
        None => Model::new::<R>(),
    };
    let initial = model.loss(&validation_set);
    println!("epoch 0 validation {initial:.5}");
    let mut last = initial;
    let model = train(model, &train_set, &validation_set, &settings, &mut |e| {
        last = e.validation_loss;
        println!(
            "epoch {} train {:.5} validation {:.5}",
            e.epoch, e.train_loss, e.validation_loss
        );
    });
    let best = model.loss(&validation_set);
    let weights = model.to_weights(&key);
    std::fs::write(&a.out, weights.to_bytes())
        .map_err(|e| TrainError(format!("{}: {e}", a.out.display())))?;
    let note = format!(
        "# How {} was made\n\ncommand: {}\nseed: {}\ndata: {} games, {} positions ({} quiet training, {} quiet validation)\nepochs: {}\nvalidation loss: {:.5} ({} {:.5}; last epoch {:.5})\ntraining time: {:.1} s\nweights: {} of {} non-zero\n",
        a.out.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        command,
        a.seed,
        games,
        records.len(),
        train_set.len(),
        validation_set.len(),
        a.epochs,
        best,
        match &a.init {
            Some(p) if p.as_os_str() == HAND_MADE => "hand-made start",
            Some(_) => "--init weights",
            None => "material-only start",
        },
        initial,
        last,
        started.elapsed().as_secs_f64(),
        weights.values().iter().filter(|v| **v != [0, 0]).count(),
        weights.values().len(),
    );
    let mut note_path = a.out.clone().into_os_string();
    note_path.push(".txt");
    std::fs::write(&note_path, note).map_err(|e| TrainError(format!("{e}")))?;
    println!(
        "wrote {} (validation loss {best:.5}) in {:.1} s",
        a.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Sums the trained weights by feature group.
struct Terms<'a> {
    weights: &'a TrainedWeights,
    groups: [(i32, i32); 7],
}

fn group(index: usize) -> usize {
    use crate::search::trained::*;
    match index {
        i if i < KING_SQUARE => 0,
        i if i < KING_MOBILITY => 1,
        i if i < BALANCE => 2,
        i if i < KINGS_HELD => 3,
        i if i < TEMPO => 4,
        i if i < PATTERN => 5,
        _ => 6,
    }
}

const GROUP_NAMES: [&str; 7] = [
    "men",
    "kings",
    "king-mobility",
    "balance",
    "kings-held",
    "tempo",
    "patterns",
];

impl Visitor for Terms<'_> {
    fn add(&mut self, index: usize, sign: i32) {
        let w = self.weights.values()[index];
        let g = &mut self.groups[group(index)];
        g.0 += sign * w[0] as i32;
        g.1 += sign * w[1] as i32;
    }
}

/// `damas eval`: the static score of a position and the terms it is made of.
pub fn eval(
    variant: Variant,
    fen: Option<&str>,
    weights: Option<&TrainedWeights>,
) -> Result<String, TrainError> {
    with_rules!(variant, R => eval_in::<R>(variant, fen, weights))
}

fn eval_in<R: Rules>(
    variant: Variant,
    fen: Option<&str>,
    file: Option<&TrainedWeights>,
) -> Result<String, TrainError> {
    let pos: Position<R> = match fen {
        Some(f) => parse_fen(f).map_err(|e| TrainError(e.to_string()))?,
        None => Position::start(),
    };
    let sign = if pos.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    let mut out = format!(
        "hand-made {:+} (from the side to move)\n",
        eval::hand_made(&pos)
    );
    let shipped = crate::engine::weights::shipped(variant);
    let Some(w) = file.or(shipped) else {
        out.push_str("trained: no weights for this variant\n");
        let evaluation = eval::evaluate(&IndexedPosition::new(pos), None);
        out.push_str(&format!("evaluation {evaluation:+}\n"));
        return Ok(out);
    };
    let p = trained::phase(&pos);
    let mut terms = Terms {
        weights: w,
        groups: [(0, 0); 7],
    };
    trained::features(&pos, &mut terms);
    out.push_str(&format!(
        "trained, phase {p}/{} ({} weights)\n",
        trained::FULL_PHASE,
        R::WEIGHT_COUNT
    ));
    for (name, (o, e)) in GROUP_NAMES.iter().zip(terms.groups) {
        let blended =
            (o * p + e * (trained::FULL_PHASE - p)) / (trained::FULL_PHASE * trained::SCALE);
        out.push_str(&format!("  {name:<14} {:+}\n", sign * blended));
    }
    out.push_str(&format!(
        "  total          {:+}\nevaluation {:+}\n",
        trained::evaluate(&IndexedPosition::new(pos), w),
        eval::evaluate(&IndexedPosition::new(pos), Some(w))
    ));
    Ok(out)
}
