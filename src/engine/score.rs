//! Scores as text, in men with two decimals: what `info` lines, books and the CLI print.

use crate::search::eval::Score;
use crate::search::{plies_to_end, MATE};

/// A score in men with two decimals, sign included (`+0.25`, `-1.00`). A decided game is
/// written as Scan does, `±(100 - plies/100)`: `+99.97` wins in three plies.
pub fn score_text(score: Score) -> String {
    let centi = match plies_to_end(score) {
        Some(n) if n > 0 => 10_000 - n,
        Some(n) => -10_000 - n,
        None => score,
    };
    format!("{:+.2}", centi as f64 / 100.0)
}

/// The inverse of [`score_text`]: men with two decimals, `±(100 - plies/100)` for a decided game.
pub fn parse_score(text: &str) -> Option<Score> {
    let men: f64 = text.parse().ok()?;
    if !men.is_finite() || men.abs() > 100.0 {
        return None;
    }
    let centi = (men * 100.0).round() as Score;
    Some(if centi >= 9_000 {
        MATE - (10_000 - centi)
    } else if centi <= -9_000 {
        -(MATE - (10_000 + centi))
    } else {
        centi
    })
}
