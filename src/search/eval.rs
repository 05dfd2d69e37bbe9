//! The static evaluation: hand-written, cheap, and the same code for every variant.
//!
//! Scores are in hundredths of a man, from the side to move. Every weight lives in
//! [`Weights`], so a tuner can replace them in one place; the per-square tables are built
//! from the weights and the board layout at compile time, once per variant.

use crate::core::bitboard::Word;
use crate::core::color::Color;
use crate::core::geometry::{Geometry, Layout, DELTA};
use crate::core::movegen::Convention;
use crate::core::patterns::IndexedPosition;
use crate::core::position::{Position, WordOf};
use crate::core::rules::{Promotion, Rules};
use crate::search::trained::TrainedWeights;

/// Hundredths of a man.
pub type Score = i32;

/// Every number the evaluation uses.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub man: Score,
    /// A king that moves one square (English, Czech, Italian...).
    pub short_king: Score,
    /// A flying king on a board of 8 files.
    pub flying_king_small: Score,
    /// A flying king on a board of 10 files or more.
    pub flying_king_large: Score,
    /// Per rank advanced, growing quadratically toward the promotion row.
    pub man_advance: Score,
    /// Per file away from the edge (up to three), for men.
    pub man_centre: Score,
    /// A man still on its own back rank, while the opponent has men that could crown there.
    pub back_guard: Score,
    /// Per file and rank away from the edges (each up to three), for kings.
    pub king_centre: Score,
    /// Per square a king could step to.
    pub king_mobility: Score,
    /// A king with no square to go to.
    pub trapped_king: Score,
    /// A man one step from crowning with the square in front free.
    pub near_crown: Score,
    /// Divisor of the score when the stronger side cannot usually win (one king each...).
    pub drawish_divisor: Score,
    /// Per move more than the opponent, where every move is a capture (Konane).
    pub capture_mobility: Score,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        man: 100,
        short_king: 140,
        flying_king_small: 250,
        flying_king_large: 300,
        man_advance: 3,
        man_centre: 3,
        back_guard: 6,
        king_centre: 3,
        king_mobility: 2,
        trapped_king: 25,
        near_crown: 20,
        drawish_divisor: 16,
        capture_mobility: 20,
    };
}

/// Whether colour `c`'s men advance toward the top rank (true), the bottom rank (false).
const fn advances_north(l: &Layout, promotion: u128) -> bool {
    promotion & l.rank_mask(l.height - 1) != 0
}

const fn centrality(x: u8, size: u8) -> i32 {
    let d = if x < size - 1 - x { x } else { size - 1 - x };
    if d > 3 {
        3
    } else {
        d as i32
    }
}

/// Per-square values of a man of each colour: advancement and centre.
const fn man_table(l: &Layout, promotion: [u128; 2], w: &Weights) -> [[i16; 128]; 2] {
    let mut t = [[0i16; 128]; 2];
    let h = l.height as i32;
    let mut c = 0;
    while c < 2 {
        let north = advances_north(l, promotion[c]);
        let mut i = 0;
        while i < 128 {
            if let Some((f, r)) = l.coords(i as u32) {
                let p = if north { r as i32 } else { h - 1 - r as i32 };
                let v = w.man_advance * p * p / (h - 1) + w.man_centre * centrality(f, l.width);
                t[c][i] = v as i16;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

const fn king_table(l: &Layout, w: &Weights) -> [i16; 128] {
    let mut t = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        if let Some((f, r)) = l.coords(i as u32) {
            t[i] = (w.king_centre * (centrality(f, l.width) + centrality(r, l.height))) as i16;
        }
        i += 1;
    }
    t
}

/// Squares of each colour's own back rank (the rank its opponent crowns on).
const fn back_ranks(l: &Layout, promotion: [u128; 2]) -> [u128; 2] {
    let top = l.rank_mask(l.height - 1);
    let bottom = l.rank_mask(0);
    let mut out = [0u128; 2];
    let mut c = 0;
    while c < 2 {
        out[c] = if advances_north(l, promotion[c]) {
            bottom
        } else {
            top
        };
        c += 1;
    }
    out
}

/// Squares one step short of crowning, per colour.
pub const fn before_crown(l: &Layout, promotion: [u128; 2]) -> [u128; 2] {
    let mut out = [0u128; 2];
    let mut c = 0;
    while c < 2 {
        out[c] = if advances_north(l, promotion[c]) {
            l.rank_mask(l.height - 2)
        } else {
            l.rank_mask(1)
        };
        c += 1;
    }
    out
}

/// The tables of one variant, evaluated at compile time.
trait Tables: Rules {
    const W: Weights = Weights::DEFAULT;
    const MAN: [[i16; 128]; 2] = man_table(&Self::G::LAYOUT, Self::PROMOTION_SQUARES, &Self::W);
    const KING: [i16; 128] = king_table(&Self::G::LAYOUT, &Self::W);
    const BACK: [u128; 2] = back_ranks(&Self::G::LAYOUT, Self::PROMOTION_SQUARES);
    const BEFORE_CROWN: [u128; 2] = before_crown(&Self::G::LAYOUT, Self::PROMOTION_SQUARES);
    const KING_VALUE: Score = if !Self::FLYING_KINGS {
        Self::W.short_king
    } else if Self::G::LAYOUT.width >= 10 {
        Self::W.flying_king_large
    } else {
        Self::W.flying_king_small
    };
    const HAS_KINGS: bool = !matches!(Self::PROMOTION, Promotion::Never);
    /// No piece ever makes a plain move: every move is a capture (or Konane's opening removal).
    const CAPTURES_ONLY: bool =
        Self::MAN_STEPS[0].0 == 0 && Self::MAN_STEPS[1].0 == 0 && Self::KING_STEPS.0 == 0;
}

impl<R: Rules> Tables for R {}

/// The hand-made evaluation's terms that a sum of per-feature weights can hold, from White's
/// side: training starts from them where its data is too thin to find values of its own.
pub struct LinearTerms {
    /// A white man on each square: material, advance, centre, back-rank guard and half the
    /// near-crowning bonus (which needs a free square ahead).
    pub man: [Score; 128],
    /// A king on each square: material and centre.
    pub king: [Score; 128],
    /// Per square a king reaches.
    pub king_reach: Score,
    /// A king that reaches none.
    pub trapped_king: Score,
}

/// The hand-made evaluation of `R` as [`LinearTerms`].
pub fn linear_terms<R: Rules>() -> LinearTerms {
    let w = &R::W;
    let mut t = LinearTerms {
        man: [0; 128],
        king: [0; 128],
        king_reach: if R::LOSER_WINS { 0 } else { w.king_mobility },
        trapped_king: if R::LOSER_WINS { 0 } else { w.trapped_king },
    };
    for i in 0..128 {
        if R::G::LAYOUT.coords(i as u32).is_none() {
            continue;
        }
        if R::LOSER_WINS {
            // Giveaway: material only, and fewer pieces is better.
            t.man[i] = -w.man;
            t.king[i] = -R::KING_VALUE;
            continue;
        }
        let bit = 1u128 << i;
        t.man[i] = w.man + R::MAN[0][i] as Score;
        if R::HAS_KINGS {
            if R::BACK[0] & bit != 0 {
                t.man[i] += w.back_guard;
            }
            if R::BEFORE_CROWN[0] & bit != 0 {
                t.man[i] += w.near_crown / 2;
            }
        }
        t.king[i] = R::KING_VALUE + R::KING[i] as Score;
    }
    t
}

/// Directions in which colour `c`'s men step one square (forward, toward crowning).
fn forward_dirs<R: Rules>(c: usize) -> impl Iterator<Item = usize> {
    (0..8).filter(move |&d| R::MAN_STEPS[c].has(d) && DELTA[d].1 != 0)
}

struct Side {
    material: Score,
    position: Score,
    force: Force,
}

fn side<R: Rules>(pos: &Position<R>, c: Color) -> Side {
    let zero = <WordOf<R> as Word>::ZERO;
    let us = c.index();
    let own = pos.by_color[us];
    let them = pos.by_color[1 - us];
    let kings = own & pos.kings;
    let men = own & !pos.kings;
    let empty = R::G::VALID & !(own | them);
    let w = &R::W;

    let mut position = 0;
    let mut b = men;
    while b != zero {
        let i = b.lsb() as usize;
        b ^= <WordOf<R> as Word>::ONE << i as u32;
        position += R::MAN[us][i] as Score;
    }
    let mut b = kings;
    while b != zero {
        let i = b.lsb() as usize;
        b ^= <WordOf<R> as Word>::ONE << i as u32;
        position += R::KING[i] as Score;
    }

    // Guard the back rank while the opponent still has men that could crown there.
    if R::HAS_KINGS && (them & !pos.kings) != zero {
        let guards = (men & R::G::mask(R::BACK[us])).popcount() as Score;
        position += guards * w.back_guard;
    }

    // A man about to crown with a free square ahead.
    if R::HAS_KINGS {
        let ready = men & R::G::mask(R::BEFORE_CROWN[us]);
        if ready != zero {
            let mut free = zero;
            for d in forward_dirs::<R>(us) {
                free |= R::G::step(empty, crate::core::geometry::opposite(d));
            }
            position += (ready & free).popcount() as Score * w.near_crown;
        }
    }

    // King mobility: squares reachable in one step (or along the line, for flying kings).
    if kings != zero {
        let mut reach = zero;
        let mut stuck = kings;
        for d in 0..8 {
            if !R::KING_STEPS.has(d) {
                continue;
            }
            let mut s = R::G::step(kings, d) & empty;
            let back = crate::core::geometry::opposite(d);
            stuck &= !R::G::step(s, back);
            while s != zero {
                reach |= s;
                if !R::FLYING_KINGS {
                    break;
                }
                s = R::G::step(s, d) & empty;
            }
        }
        position += reach.popcount() as Score * w.king_mobility;
        position -= stuck.popcount() as Score * w.trapped_king;
    }

    let men_n = men.popcount();
    let kings_n = kings.popcount();
    Side {
        material: men_n as Score * w.man + kings_n as Score * R::KING_VALUE,
        position,
        force: Force {
            men: men_n,
            kings: kings_n,
        },
    }
}

/// Men and kings of one side.
#[derive(Clone, Copy)]
struct Force {
    men: u32,
    kings: u32,
}

fn force<R: Rules>(pos: &Position<R>, c: Color) -> Force {
    let own = pos.by_color[c.index()];
    Force {
        men: (own & !pos.kings).popcount(),
        kings: (own & pos.kings).popcount(),
    }
}

/// Endings the stronger side cannot usually win, by piece counts alone.
fn drawish<R: Rules>(strong: Force, weak: Force) -> bool {
    if weak.men > 0 || weak.kings == 0 || strong.men > 0 {
        return false;
    }
    let (s, k) = (strong.kings, weak.kings);
    if R::FLYING_KINGS {
        // Flying kings: a lone king holds against two, and against three on the large board.
        k == 1 && (s <= 2 || (s == 3 && R::G::LAYOUT.width >= 10)) || s <= k + 1 && k >= 2
    } else {
        s <= k
    }
}

/// The evaluation of `pos` from the side to move: the trained one where there are weights,
/// the hand-made one otherwise and where every move is a capture (Konane), which material
/// and patterns cannot judge. Endings the stronger side cannot usually win are pulled
/// toward 0 either way.
#[inline]
pub fn evaluate<R: Rules>(pos: &IndexedPosition<R>, trained: Option<&TrainedWeights>) -> Score {
    match trained {
        Some(w) if !R::CAPTURES_ONLY => {
            let score = crate::search::trained::evaluate(pos, w);
            if R::LOSER_WINS || !R::HAS_KINGS {
                return score;
            }
            // Only the piece counts are needed here, not the hand-made terms.
            let us = pos.side_to_move();
            let (a, b) = (force(pos, us), force(pos, us.opposite()));
            let (s, weak) = if score > 0 { (a, b) } else { (b, a) };
            if drawish::<R>(s, weak) {
                score / R::W.drawish_divisor
            } else {
                score
            }
        }
        _ => hand_made(pos),
    }
}

/// The hand-made evaluation of `pos` from the side to move.
pub fn hand_made<R: Rules>(pos: &Position<R>) -> Score {
    let us = pos.side_to_move();
    let a = side(pos, us);
    let b = side(pos, us.opposite());
    if R::LOSER_WINS {
        // Giveaway: fewer pieces is better.
        return b.material - a.material;
    }
    if R::CAPTURES_ONLY {
        // Material says little when every move is a capture; the side with more moves is
        // better off (the side without one has lost).
        let mut buf = Vec::with_capacity(32);
        let ours = pos.count_moves(Convention::Drop, &mut buf) as Score;
        let mut other = *pos;
        other.side = us.opposite();
        let theirs = other.count_moves(Convention::Drop, &mut buf) as Score;
        return (ours - theirs) * R::W.capture_mobility;
    }
    let score = a.material - b.material + a.position - b.position;
    let strong_is_us = score > 0;
    let (s, w) = if strong_is_us { (&a, &b) } else { (&b, &a) };
    if drawish::<R>(s.force, w.force) {
        return score / R::W.drawish_divisor;
    }
    score
}
