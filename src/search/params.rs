//! The search's tuning constants, in one place. Each was kept because games said so (the
//! README's search section gives the matches); change one only with a match that shows it.

use crate::search::eval::Score;

/// Half-width of the first aspiration window around the previous iteration's score.
pub const ASPIRATION_DELTA: Score = 35;
/// Depth from which iterations start with an aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Past this width the window opens fully.
pub const ASPIRATION_MAX_DELTA: Score = 1000;

/// Late-move reductions apply from this remaining depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... to moves searched after this many others.
pub const LMR_MIN_INDEX: usize = 3;
/// Reduction = `LMR_BASE + ln(depth) · ln(index) / LMR_DIVISOR`, one less in PV nodes:
/// 55.0% over 60 International games at 0.1 s/move against fixed reductions; divisor 1.5
/// scored 46.7% and was dropped.
pub const LMR_BASE: f32 = 0.75;
pub const LMR_DIVISOR: f32 = 2.0;

/// ProbCut: from this remaining depth, a search this much shallower that clears beta by the
/// margin (hundredths of a man) cuts the node.
pub const PROBCUT_MIN_DEPTH: i32 = 6;
pub const PROBCUT_REDUCTION: i32 = 4;
pub const PROBCUT_MARGIN: Score = 40;

/// Reverse futility: up to this remaining depth, a quiet node whose static score exceeds
/// beta by the margin (hundredths of a man) per ply is cut.
pub const RFP_MAX_DEPTH: i32 = 3;
pub const RFP_MARGIN: Score = 50;

/// From this remaining depth, a node without a table move is searched a ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Ceiling of a history score; bonuses shrink as a score nears it.
pub const HISTORY_MAX: i32 = 16_000;

/// Move-ordering keys, highest first: the hash move, captures (bigger and king-taking
/// first), promotions, the two killers, then quiet moves by history.
pub const ORDER_HASH_MOVE: i32 = 1_000_000;
pub const ORDER_CAPTURE: i32 = 100_000;
pub const ORDER_PER_CAPTURED: i32 = 1000;
pub const ORDER_KING_CAPTURED: i32 = 500;
pub const ORDER_PROMOTION: i32 = 90_000;
pub const ORDER_KILLER: [i32; 2] = [80_000, 79_000];

/// Time management under a clock: the next iteration starts only while the time spent is
/// below this share of the move's budget (it takes a few times as long as the last one) ...
pub const TIME_ITERATION_SHARE: f64 = 0.7;
/// ... scaled by how unsure the search is: this much with a best move unchanged for
/// several iterations, this much more per recent change (halved each iteration), at most
/// `TIME_UNSURE_MAX` ...
pub const TIME_STABLE: f64 = 0.6;
pub const TIME_PER_CHANGE: f64 = 0.6;
pub const TIME_UNSURE_MAX: f64 = 1.8;
/// ... and up to `TIME_FALLING_MAX` times longer while the score falls, in full from a drop
/// of `TIME_DROP_MAX` (hundredths of a man) since the last iteration.
pub const TIME_FALLING_MAX: f64 = 1.5;
pub const TIME_DROP_MAX: Score = 50;
