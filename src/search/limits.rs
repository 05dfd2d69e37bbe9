//! What bounds a search, and how a clock turns into a time budget.

use std::time::Duration;

/// A player's clock: time left, increment per move, and moves left to the next time control.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// The limits of one search; those given all apply, the first reached stops it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until told to stop (analysis, pondering).
    pub infinite: bool,
}

/// Time kept back for the protocol round trip and the thread join after a stop.
const SAFETY: Duration = Duration::from_millis(8);
/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u32 = 30;

/// When to stop: `soft` is when not to start another iteration, `hard` when to stop at once.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Budget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl Limits {
    pub fn depth(d: u32) -> Self {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    pub fn move_time(t: Duration) -> Self {
        Limits {
            move_time: Some(t),
            ..Limits::default()
        }
    }
    pub fn nodes(n: u64) -> Self {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// The time budget these limits allow.
    pub fn budget(&self) -> Budget {
        if self.infinite {
            return Budget {
                soft: None,
                hard: None,
            };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(t) = self.move_time {
            // A fixed time per move is spent whole: no early stop between iterations.
            let t = t.saturating_sub(SAFETY.min(t / 4));
            hard = Some(t);
        }
        if let Some(c) = self.clock {
            let left = c.time.saturating_sub(SAFETY.min(c.time / 4));
            let mtg = c.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
            let share = left / mtg + c.increment * 3 / 4;
            let s = share.min(left / 2);
            let h = (share * 4).min(left * 2 / 5).max(s);
            soft = Some(s);
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        Budget { soft, hard }
    }
}
