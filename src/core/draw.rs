//! Draw rules as data: each variant's `Rules::DRAW` says which counters end a game, and
//! `DrawCounters` is the small `Copy` state the game and the search carry ply by ply.

use std::fmt;

use crate::core::color::Color;
use crate::core::geometry::Geometry;
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;

pub use crate::core::rules::{DrawRules, Endgame, Lone};

impl DrawRules {
    /// The reason `position` is drawn by material or counters (repetition is the game's
    /// business: it needs the history).
    pub fn verdict<R: Rules>(
        &self,
        position: &Position<R>,
        counters: &DrawCounters,
    ) -> Option<DrawReason> {
        if counters.endgame_limit > 0 && counters.endgame >= counters.endgame_limit {
            return Some(DrawReason::Endgame);
        }
        if self.quiet_plies > 0 && counters.quiet >= self.quiet_plies {
            return Some(DrawReason::QuietMoves);
        }
        if self.lone != Lone::None {
            let w = position.pieces(Color::White);
            let b = position.pieces(Color::Black);
            if w.count() == 1 && b.count() == 1 {
                let kings = (w | b) & position.kings();
                if self.lone == Lone::PieceEach || kings.count() == 2 {
                    return Some(DrawReason::LonePieces);
                }
            }
        }
        None
    }

    /// Plies the endgame counter allows in `position`'s material class; 0 when no counter
    /// applies.
    pub fn endgame_limit<R: Rules>(&self, position: &Position<R>) -> u16 {
        if self.endgame == Endgame::None {
            return 0;
        }
        let side = |c: Color| {
            let p = position.pieces(c);
            let k = (p & position.kings()).count();
            (p.count(), k)
        };
        let (w, b) = (side(Color::White), side(Color::Black));
        if w.0 + b.0 > 14 {
            return 0;
        }
        let lone_king = |s: (u32, u32)| s == (1, 1);
        let (strong, weak, weak_color) = if w.0 >= b.0 {
            (w, b, Color::Black)
        } else {
            (b, w, Color::White)
        };
        match self.endgame {
            Endgame::None => 0,
            Endgame::Fmjd => {
                if !lone_king(weak) || strong.1 == 0 {
                    0
                } else if strong.0 == 3 {
                    32
                } else if strong.0 <= 2 {
                    10
                } else {
                    0
                }
            }
            Endgame::Frisian => {
                let kings_only = w.0 == w.1 && b.0 == b.1;
                match (kings_only, strong.0, weak.0) {
                    (true, 2, 1) => 14,
                    (true, 1, 1) => 4,
                    _ => 0,
                }
            }
            Endgame::Russian => {
                if lone_king(weak) && strong.1 >= 1 {
                    let on_main_road = (position.pieces(weak_color) & position.kings())
                        .first()
                        .and_then(|sq| R::G::LAYOUT.coords(sq.index() as u32))
                        .is_some_and(|(f, r)| f == r);
                    if strong.0 <= 2 || (strong.0 == 3 && on_main_road) {
                        10
                    } else if strong.1 >= 3 {
                        30
                    } else {
                        0
                    }
                } else if w.0 == b.0 && w.1 > 0 && b.1 > 0 {
                    match w.0 {
                        4 | 5 => 60,
                        6 | 7 => 120,
                        _ => 0,
                    }
                } else {
                    0
                }
            }
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawReason {
    Repetition,
    QuietMoves,
    Endgame,
    LonePieces,
    Agreement,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "repetition",
            DrawReason::QuietMoves => "no capture or man move",
            DrawReason::Endgame => "endgame move limit",
            DrawReason::LonePieces => "one piece each",
            DrawReason::Agreement => "agreement",
        })
    }
}

/// The counters the draw rules read, carried from ply to ply.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct DrawCounters {
    /// Plies since the last capture or man move.
    pub quiet: u16,
    /// Plies spent in the current endgame class.
    pub endgame: u16,
    /// That class's limit (0: none).
    pub endgame_limit: u16,
}

impl DrawCounters {
    /// Counters for a game that starts at `position`.
    pub fn start<R: Rules>(rules: &DrawRules, position: &Position<R>) -> Self {
        DrawCounters {
            quiet: 0,
            endgame: 0,
            endgame_limit: rules.endgame_limit(position),
        }
    }

    /// Counters after `m` took `parent` to `child`.
    #[inline]
    pub fn after<R: Rules>(
        self,
        rules: &DrawRules,
        parent: &Position<R>,
        m: &MoveOf<R>,
        child: &Position<R>,
    ) -> Self {
        let quiet = if is_irreversible(parent, m) {
            0
        } else {
            self.quiet.saturating_add(1)
        };
        let (endgame, endgame_limit) = if rules.endgame == Endgame::None {
            (0, 0)
        } else {
            let limit = rules.endgame_limit(child);
            if limit == self.endgame_limit && !m.is_capture() {
                (self.endgame.saturating_add(1), limit)
            } else {
                (0, limit)
            }
        };
        DrawCounters {
            quiet,
            endgame,
            endgame_limit,
        }
    }
}

/// A capture or a man move: no earlier position can come back after it.
#[inline]
pub fn is_irreversible<R: Rules>(parent: &Position<R>, m: &MoveOf<R>) -> bool {
    m.is_capture() || m.removes_own() || !parent.kings().contains(m.from)
}
