//! Match statistics: score, Elo difference with its 95% error bar, and the sequential
//! probability ratio test (SPRT) that can stop a match early.

use std::fmt;

/// Two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_985;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same games from the opponent's side.
    pub fn mirrored(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Add the games of another tally.
    pub fn add(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Points per game, 0 to 1 (a draw is half a point); `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Elo difference and its 95% half-width, from the score and its standard error
    /// (per-game variance of the results over the number of games).
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let n = self.games() as f64;
        let variance = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let margin = Z95 * (variance / n).sqrt();
        let error = (elo_of_score(s + margin) - elo_of_score(s - margin)) / 2.0;
        Some(EloEstimate {
            elo: elo_of_score(s),
            error,
        })
    }
}

/// An Elo difference with the half-width of its 95% confidence interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    pub elo: f64,
    pub error: f64,
}

/// The Elo difference that gives an expected score `s` under the logistic model:
/// `-400 log10(1/s - 1)`; infinite at 0 and 1.
pub fn elo_of_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // `+ 0.0` turns the -0 of an even score into 0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The expected score of a side `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A number with one decimal and its sign (`+190.8`, `-12.0`, `inf`, `-inf`).
pub fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else if x.is_nan() {
        "nan".to_string()
    } else {
        format!("{x:+.1}")
    }
}

/// A half-width with one decimal, `±70.8` (`±inf` when unbounded).
pub fn plus_minus(x: f64) -> String {
    if x.is_finite() {
        format!("±{x:.1}")
    } else {
        "±inf".to_string()
    }
}

/// The hypotheses and error rates of an SPRT: H0 `elo = elo0` against H1 `elo = elo1`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// H1 accepted: the first player is at least `elo1` stronger.
    AcceptH1,
    /// H0 accepted: the first player is no more than `elo0` stronger.
    AcceptH0,
    Continue,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::Continue => "undecided",
        })
    }
}

impl Sprt {
    /// Lower and upper bounds of the log-likelihood ratio (Wald's).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these results: the generalised SPRT's
    /// normal approximation `n (s1 - s0) (2 x - s0 - s1) / (2 var)`, with the counts
    /// regularised by half a game each so that a one-sided start has a variance.
    pub fn llr(&self, t: Tally) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let (w, d, l) = (
            t.wins as f64 + 0.5,
            t.draws as f64 + 0.5,
            t.losses as f64 + 0.5,
        );
        let n = w + d + l;
        let x = (w + 0.5 * d) / n;
        let var = (w * (1.0 - x).powi(2) + d * (0.5 - x).powi(2) + l * x.powi(2)) / n;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * var)
    }

    /// Accept H1, accept H0, or go on.
    pub fn decide(&self, t: Tally) -> SprtDecision {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}
