//! The move generator: one generic routine, monomorphised per variant, reading only the
//! constants of `Rules`.

use crate::core::bitboard::{Bitboard, Word};
use crate::core::color::Color;
use crate::core::geometry::{each_dir, opposite, Dir, DirSet, Geometry, Shape};
use crate::core::mv::Move;
use crate::core::position::{MoveOf, Position, WordOf};
use crate::core::rules::{Landing, Precedence, Promotion, Removal, Rules};
use crate::core::square::Square;

/// How capture paths that reach the same result are counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Convention {
    /// One move per (from, to, captured set): the official notion of a move.
    #[default]
    Drop,
    /// One move per capture order ("keep duplicates", as Aart Bik and DCTL count).
    Keep,
}

/// Squares the sequence may pass through or land on, and the enemies it may still take.
/// With `COUNT` the moves are only counted, not listed (perft's and mobility's last ply).
struct Capture<'a, R: Rules, const COUNT: bool> {
    us: usize,
    from: Square,
    empty: WordOf<R>,
    enemies: WordOf<R>,
    enemy_kings: WordOf<R>,
    captured: WordOf<R>,
    count: u32,
    kings_taken: u32,
    king_order: u32,
    by_king: bool,
    crowned: bool,
    best: u64,
    start: usize,
    out: &'a mut Vec<MoveOf<R>>,
    /// Counting: moves of the best precedence key found so far.
    counted: u64,
    /// Counting: some counted move might repeat another (same start, end and captured set
    /// by another order), so only the listing with its merge gives the number.
    may_repeat: bool,
}

#[inline(always)]
fn bit<W: Word>(sq: Square) -> W {
    W::ONE << sq.index() as u32
}

impl<R: Rules, const COUNT: bool> Capture<'_, R, COUNT> {
    /// Squares a jump may land on or pass over: with immediate removal the pieces already
    /// taken are gone.
    #[inline(always)]
    fn open(&self) -> WordOf<R> {
        match R::REMOVAL {
            Removal::Delayed => self.empty,
            Removal::Immediate => self.empty | self.captured,
        }
    }
    /// Enemies a man (or with `by_king` a king) may still take.
    #[inline(always)]
    fn prey(&self, by_king: bool) -> WordOf<R> {
        let mut t = self.enemies & !self.captured;
        if !by_king && !R::MEN_CAPTURE_KINGS {
            t &= !self.enemy_kings;
        }
        t
    }
    #[inline(always)]
    fn is_empty(&self, sq: Square) -> bool {
        self.open() & bit::<WordOf<R>>(sq) != <WordOf<R> as Word>::ZERO
    }
    #[inline(always)]
    fn takeable(&self, sq: Square, by_king: bool) -> bool {
        self.prey(by_king) & bit::<WordOf<R>>(sq) != <WordOf<R> as Word>::ZERO
    }
    /// A quick necessary condition for a king's short jump from `sq`: an enemy still to take
    /// next to it and an open square two steps away.
    #[inline(always)]
    fn may_jump_from(&self, sq: Square) -> bool {
        let zero = <WordOf<R> as Word>::ZERO;
        let i = sq.index();
        self.prey(true) & R::G::mask(R::G::RING1[i]) != zero
            && self.open() & R::G::mask(R::G::RING2[i]) != zero
    }
    #[inline(always)]
    fn take(&mut self, v: Square) {
        let b = bit::<WordOf<R>>(v);
        self.captured |= b;
        if self.enemy_kings & b != <WordOf<R> as Word>::ZERO {
            self.kings_taken += 1;
            self.king_order |= 1 << (15u32.saturating_sub(self.count));
        }
        self.count += 1;
    }
    #[inline(always)]
    fn untake(&mut self, v: Square) {
        let b = bit::<WordOf<R>>(v);
        self.captured ^= b;
        self.count -= 1;
        if self.enemy_kings & b != <WordOf<R> as Word>::ZERO {
            self.kings_taken -= 1;
            self.king_order &= !(1 << (15u32.saturating_sub(self.count)));
        }
    }

    fn key(&self) -> u64 {
        let c = self.count as u64;
        match R::PRECEDENCE {
            Precedence::Free => 0,
            Precedence::Count => c,
            Precedence::CountThenKings => c << 8 | self.kings_taken as u64,
            Precedence::Italian => {
                c << 32
                    | (self.by_king as u64) << 31
                    | (self.kings_taken as u64) << 24
                    | self.king_order as u64
            }
            Precedence::KingFirst => self.by_king as u64,
            Precedence::Value { man, king } => {
                let kings = self.kings_taken as u64;
                ((c - kings) * man as u64 + kings * king as u64) << 1 | self.by_king as u64
            }
        }
    }

    #[inline]
    fn emit(&mut self, to: Square, promotes: bool) {
        let key = self.key();
        if key < self.best {
            return;
        }
        if COUNT {
            if key > self.best {
                self.best = key;
                self.counted = 0;
                self.may_repeat = false;
            }
            self.counted += 1;
            // The fewest captures two orders of the same pieces need: a king turns more
            // freely than a man, and a man jumping only diagonally on the dark squares needs
            // a closed loop of four.
            let diagonal_men = (R::MAN_JUMPS[0].0 | R::MAN_JUMPS[1].0) & DirSet::ORTHOGONAL.0 == 0;
            let fewest = if self.by_king || self.crowned {
                2
            } else if R::G::LAYOUT.shape == Shape::Dark && diagonal_men {
                4
            } else {
                3
            };
            self.may_repeat |= self.count >= fewest;
            return;
        }
        if key > self.best {
            self.out.truncate(self.start);
            self.best = key;
        }
        self.out.push(Move {
            from: self.from,
            to,
            captured: Bitboard(self.captured),
            flags: if promotes {
                Move::<WordOf<R>>::PROMOTES
            } else {
                0
            },
        });
    }

    /// Short jumps of a man (or parachutist) standing on `sq`; true if any was found.
    /// Each direction is two board-wide steps of the one bit, so no square is looked up.
    fn man_jumps(&mut self, sq: Square, dirs: DirSet, parachutist: bool) -> bool {
        let zero = <WordOf<R> as Word>::ZERO;
        let prey = self.prey(false);
        let open = self.open();
        let here = bit::<WordOf<R>>(sq);
        let mut found = false;
        each_dir!(for d {
            if !dirs.has(d) {
                continue;
            }
            let victim = R::G::step(here, d) & prey;
            if victim == zero {
                continue;
            }
            let landing = R::G::step(victim, d) & open;
            if landing == zero {
                continue;
            }
            found = true;
            let v = Square::new(victim.lsb() as u8);
            self.take(v);
            self.man_landed(Square::new(landing.lsb() as u8), d, parachutist);
            self.untake(v);
        });
        found
    }

    fn man_landed(&mut self, t: Square, d: Dir, parachutist: bool) {
        if R::STRAIGHT_OPTIONAL_SEQUENCES {
            self.emit(t, false);
            self.man_jumps(t, DirSet::of(&[d]), false);
            return;
        }
        if parachutist && !R::PARACHUTE_CONTINUES {
            self.emit(t, false);
            return;
        }
        let promo = R::G::mask(R::PROMOTION_SQUARES[self.us]) & bit::<WordOf<R>>(t)
            != <WordOf<R> as Word>::ZERO;
        if promo {
            match R::PROMOTION {
                Promotion::Stop => {
                    self.emit(t, true);
                    return;
                }
                Promotion::Continue => {
                    self.crowned = true;
                    if !self.king_jumps(t, Self::king_dirs_after(d)) {
                        self.emit(t, true);
                    }
                    self.crowned = false;
                    return;
                }
                Promotion::EndOfMove | Promotion::Never => {}
            }
        }
        let mut later = R::MAN_LATER_JUMPS[self.us];
        if R::NO_REVERSE {
            later = later.without(opposite(d));
        }
        if !self.man_jumps(t, later, false) {
            self.emit(t, promo && R::PROMOTION == Promotion::EndOfMove);
        }
    }

    /// Directions a king may jump in next after jumping in direction `d`
    /// (continuing straight is handled from the last landing square).
    #[inline(always)]
    fn king_dirs_after(d: Dir) -> DirSet {
        let mut dirs = R::KING_JUMPS;
        if R::NO_REVERSE || R::REMOVAL == Removal::Delayed {
            dirs = dirs.without(opposite(d));
        }
        dirs
    }

    /// Jumps of a king standing on `sq`; true if any was found.
    fn king_jumps(&mut self, sq: Square, dirs: DirSet) -> bool {
        // The rings follow only the diagonals of a dark-square board.
        let rings_cover =
            R::G::LAYOUT.shape != Shape::Dark || R::KING_JUMPS.0 & DirSet::ORTHOGONAL.0 == 0;
        if !R::FLYING_KINGS && rings_cover && !self.may_jump_from(sq) {
            return false;
        }
        let mut found = false;
        each_dir!(for d {
            if !dirs.has(d) {
                continue;
            }
            let mut p = R::G::neighbour(sq, d);
            if R::FLYING_KINGS {
                while let Some(x) = p {
                    if !self.is_empty(x) {
                        break;
                    }
                    p = R::G::neighbour(x, d);
                }
            }
            let Some(v) = p else {
                continue;
            };
            if !self.takeable(v, true) {
                continue;
            }
            let Some(l0) = R::G::neighbour(v, d) else {
                continue;
            };
            if !self.is_empty(l0) {
                continue;
            }
            found = true;
            let took_king = self.enemy_kings & bit::<WordOf<R>>(v) != <WordOf<R> as Word>::ZERO;
            self.take(v);
            self.king_landed(l0, d, took_king);
            self.untake(v);
        });
        found
    }

    fn king_landed(&mut self, l0: Square, d: Dir, took_king: bool) {
        let mut landings = [l0; 16];
        let mut n = 1;
        if R::FLYING_KINGS && R::LANDING != Landing::DirectlyBehind {
            let mut p = R::G::neighbour(l0, d);
            while let Some(x) = p {
                if !self.is_empty(x) || n == landings.len() {
                    break;
                }
                landings[n] = x;
                n += 1;
                p = R::G::neighbour(x, d);
            }
        }
        let turns = Self::king_dirs_after(d).without(d);
        let mut found = false;
        for (i, &l) in landings[..n].iter().enumerate() {
            let dirs = if i + 1 == n {
                turns.union(DirSet::of(&[d]))
            } else {
                turns
            };
            found |= self.king_jumps(l, dirs);
        }
        if !found {
            let crowned = self.crowned;
            if R::LANDING == Landing::BehindLastKing && took_king {
                n = 1;
            }
            for &l in &landings[..n] {
                self.emit(l, crowned);
            }
        }
    }
}

/// Merge capture paths with the same from, to and captured set.
fn dedupe<W: Word>(moves: &mut Vec<Move<W>>, start: usize) {
    let mut i = start;
    while i < moves.len() {
        let m = moves[i];
        if m.captured.count() >= 2 && moves[start..i].iter().any(|o| o.same_as(&m)) {
            moves.swap_remove(i);
        } else {
            i += 1;
        }
    }
}

impl<R: Rules> Position<R> {
    /// All legal moves, appended to `out`.
    pub fn generate(&self, out: &mut Vec<MoveOf<R>>, convention: Convention) {
        if R::OPENING_REMOVALS && self.generate_removals(out) {
            return;
        }
        let start = out.len();
        self.generate_legal_captures(out, convention);
        if out.len() == start || !R::MANDATORY_CAPTURE {
            self.generate_quiet(out);
        }
    }

    /// Konane's opening: on the full board the first player lifts one of its pieces from
    /// `FIRST_REMOVALS`; with a single hole the second player lifts one of its pieces next to
    /// it. Returns whether the position is in that phase (the removals are then all its moves).
    fn generate_removals(&self, out: &mut Vec<MoveOf<R>>) -> bool {
        let zero = <WordOf<R> as Word>::ZERO;
        let own = self.by_color[self.side.index()];
        let empty = R::G::VALID & !(self.by_color[0] | self.by_color[1]);
        let lift = if empty == zero && self.side == R::FIRST {
            own & R::G::mask(R::FIRST_REMOVALS)
        } else if empty.popcount() == 1 && self.side != R::FIRST {
            let mut next = zero;
            each_dir!(for d {
                if R::SECOND_REMOVAL_DIRS.has(d) {
                    next |= R::G::step(empty, d);
                }
            });
            own & next
        } else {
            return false;
        };
        for sq in Bitboard(lift) {
            out.push(Move {
                from: sq,
                to: sq,
                captured: Bitboard::EMPTY,
                flags: Move::<WordOf<R>>::REMOVES_OWN,
            });
        }
        true
    }

    /// The legal moves as a new vector (official convention).
    pub fn legal_moves(&self) -> Vec<MoveOf<R>> {
        let mut v = Vec::new();
        self.generate(&mut v, Convention::Drop);
        v
    }

    /// The captures allowed by the precedence rule, merged per `convention`.
    pub fn generate_legal_captures(&self, out: &mut Vec<MoveOf<R>>, convention: Convention) {
        let start = out.len();
        self.generate_captures(out);
        if convention == Convention::Drop && out.len() > start + 1 {
            dedupe(out, start);
        }
    }

    /// Men that have a jump available, found with board-wide shifts.
    #[inline]
    fn men_that_can_jump(&self, men: WordOf<R>, dirs: DirSet, empty: WordOf<R>) -> WordOf<R> {
        let us = self.side.index();
        let mut targets = self.by_color[1 - us];
        if !R::MEN_CAPTURE_KINGS {
            targets &= !self.kings;
        }
        men_with_a_jump::<R>(men, targets, empty, dirs)
    }

    fn generate_captures(&self, out: &mut Vec<MoveOf<R>>) {
        self.captures::<false>(out);
    }

    /// The number of legal captures without listing them, or `None` when two of them might
    /// be one move reached by two orders and `convention` merges those.
    fn count_captures(&self, convention: Convention) -> Option<u64> {
        let (n, may_repeat) = self.captures::<true>(&mut Vec::new());
        (!may_repeat || convention == Convention::Keep).then_some(n)
    }

    /// Lists the captures into `out`, or with `COUNT` returns their number and whether two
    /// might be the same move.
    #[inline(always)]
    fn captures<const COUNT: bool>(&self, out: &mut Vec<MoveOf<R>>) -> (u64, bool) {
        let zero = <WordOf<R> as Word>::ZERO;
        if self.lost_by_crowning() {
            return (0, false);
        }
        let us = self.side.index();
        let own = self.by_color[us];
        let enemies = self.by_color[1 - us];
        let empty = R::G::VALID & !(own | enemies);
        let kings = own & self.kings;
        let paras = own & self.paras;
        let men = own & !self.kings & !self.paras;
        let jumping_men = if men != zero {
            self.men_that_can_jump(men, R::MAN_JUMPS[us], empty)
        } else {
            zero
        };
        let para_dirs = R::PARACHUTIST_JUMPS[us];
        let jumping_paras = if R::PARACHUTISTS && paras != zero {
            self.men_that_can_jump(paras, para_dirs, empty)
        } else {
            zero
        };
        if kings == zero && jumping_men == zero && jumping_paras == zero {
            return (0, false);
        }
        let mut cap = Capture::<R, COUNT> {
            us,
            from: Square::new(0),
            empty,
            enemies,
            enemy_kings: enemies & self.kings,
            captured: zero,
            count: 0,
            kings_taken: 0,
            king_order: 0,
            by_king: false,
            crowned: false,
            best: 0,
            start: out.len(),
            out,
            counted: 0,
            may_repeat: false,
        };
        for sq in Bitboard(jumping_men) {
            cap.from = sq;
            cap.empty = empty | bit::<WordOf<R>>(sq);
            cap.man_jumps(sq, R::MAN_JUMPS[us], false);
        }
        for sq in Bitboard(jumping_paras) {
            cap.from = sq;
            cap.empty = empty | bit::<WordOf<R>>(sq);
            cap.man_jumps(sq, para_dirs, true);
        }
        cap.by_king = true;
        for sq in Bitboard(kings) {
            cap.from = sq;
            cap.empty = empty | bit::<WordOf<R>>(sq);
            cap.king_jumps(sq, R::KING_JUMPS);
        }
        (cap.counted, cap.may_repeat)
    }

    fn generate_quiet(&self, out: &mut Vec<MoveOf<R>>) {
        let zero = <WordOf<R> as Word>::ZERO;
        if self.lost_by_crowning() {
            return;
        }
        let us = self.side.index();
        let own = self.by_color[us];
        let empty = R::G::VALID & !(own | self.by_color[1 - us]);
        let promo = R::G::mask(R::PROMOTION_SQUARES[us]);
        let mut men = own & !self.kings & !self.paras;
        if R::FAR_RANK_FROZEN {
            men &= !promo;
        }
        let promo_flag = |t: Square| {
            if R::PROMOTION != Promotion::Never && promo & bit::<WordOf<R>>(t) != zero {
                Move::<WordOf<R>>::PROMOTES
            } else {
                0
            }
        };
        each_dir!(for d {
            if !R::MAN_STEPS[us].has(d) {
                continue;
            }
            let shift = R::G::SHIFT[d];
            for to in Bitboard(R::G::step(men, d) & empty) {
                let from = Square::new((to.index() as i32 - shift) as u8);
                out.push(Move {
                    from,
                    to,
                    captured: Bitboard::EMPTY,
                    flags: promo_flag(to),
                });
            }
            if R::LINE_MOVES {
                // Lines of k men advancing one square: the rearmost man lands on the empty
                // square in front of the leading one, k squares ahead.
                let back = opposite(d);
                let mut from = R::G::step(R::G::step(empty, back) & men, back) & men;
                let mut k = 2;
                while from != zero {
                    for f in Bitboard(from) {
                        let to = Square::new((f.index() as i32 + k * shift) as u8);
                        out.push(Move {
                            from: f,
                            to,
                            captured: Bitboard::EMPTY,
                            flags: promo_flag(to),
                        });
                    }
                    from = R::G::step(from, back) & men;
                    k += 1;
                }
            }
        });
        for from in Bitboard(own & self.kings & !self.king_at_move_limit()) {
            each_dir!(for d {
                if !R::KING_STEPS.has(d) {
                    continue;
                }
                let mut p = R::G::neighbour(from, d);
                while let Some(to) = p {
                    if empty & bit::<WordOf<R>>(to) == zero {
                        break;
                    }
                    out.push(Move {
                        from,
                        to,
                        captured: Bitboard::EMPTY,
                        flags: 0,
                    });
                    if !R::FLYING_KINGS {
                        break;
                    }
                    p = R::G::neighbour(to, d);
                }
            });
        }
    }

    /// Number of legal moves; plain moves are counted with board-wide shifts, not listed.
    pub fn count_moves(&self, convention: Convention, buf: &mut Vec<MoveOf<R>>) -> u64 {
        buf.clear();
        if R::OPENING_REMOVALS && self.generate_removals(buf) {
            return buf.len() as u64;
        }
        if R::STRAIGHT_OPTIONAL_SEQUENCES
            && R::PRECEDENCE == Precedence::Free
            && (self.kings | self.paras) == <WordOf<R> as Word>::ZERO
        {
            let n = self.count_straight_captures();
            if n > 0 && R::MANDATORY_CAPTURE {
                return n;
            }
            return n + self.count_quiet();
        }
        if matches!(
            R::PRECEDENCE,
            Precedence::Free | Precedence::KingFirst | Precedence::Count
        ) {
            if let Some(n) = self.count_single_jumps() {
                if n > 0 && R::MANDATORY_CAPTURE {
                    return n;
                }
                return n + self.count_quiet();
            }
        }
        let captures = match self.count_captures(convention) {
            Some(n) => n,
            None => {
                self.generate_legal_captures(buf, convention);
                buf.len() as u64
            }
        };
        if captures > 0 && R::MANDATORY_CAPTURE {
            return captures;
        }
        captures + self.count_quiet()
    }

    /// Number of captures, counted with board-wide shifts, when the side to move has no king
    /// and no jump of its men can go on: each single jump is then one move, and under the
    /// precedence rules that admit this path (free choice, king first, most pieces) every one
    /// is legal. `None` when some landing square allows a further jump (or a crowning that goes
    /// on as a king): the caller then lists the captures.
    ///
    /// The test for a further jump reads the board before the move; the squares the move
    /// empties (its origin, and with immediate removal its victim) cannot be the landing square
    /// of a next short jump, since only a jump back over the victim reaches the origin.
    fn count_single_jumps(&self) -> Option<u64> {
        if R::STRAIGHT_OPTIONAL_SEQUENCES {
            return None;
        }
        if self.lost_by_crowning() {
            return Some(0);
        }
        // One copy per side, so that each side's direction sets are constants.
        match self.side {
            Color::White => self.count_single_jumps_of::<0>(),
            Color::Black => self.count_single_jumps_of::<1>(),
        }
    }

    #[inline(always)]
    fn count_single_jumps_of<const US: usize>(&self) -> Option<u64> {
        let zero = <WordOf<R> as Word>::ZERO;
        let us = US;
        let own = self.by_color[us];
        if own & self.kings != zero {
            return None;
        }
        let enemies = self.by_color[1 - us];
        let mut targets = enemies;
        if !R::MEN_CAPTURE_KINGS {
            targets &= !self.kings;
        }
        let empty = R::G::VALID & !(own | enemies);
        let men = own & !self.paras;
        let paras = own & self.paras;
        let promo = R::G::mask(R::PROMOTION_SQUARES[us]);
        // Squares from which a man has a jump in each direction.
        let mut from = [zero; 8];
        each_dir!(for d {
            let back = opposite(d);
            from[d] = R::G::step(R::G::step(empty, back) & targets, back);
        });
        let mut goes_on = zero;
        each_dir!(for e {
            if R::MAN_LATER_JUMPS[us].has(e) {
                goes_on |= from[e];
            }
        });
        let mut n = 0;
        each_dir!(for d {
            let f = from[d];
            if R::MAN_JUMPS[us].has(d) {
                let jumpers = men & f;
                if jumpers != zero {
                    let land = R::G::step(R::G::step(jumpers, d), d);
                    let open = match R::PROMOTION {
                        Promotion::Stop => land & !promo,
                        Promotion::Continue if land & promo != zero => return None,
                        _ => land,
                    };
                    if open & goes_on != zero {
                        return None;
                    }
                    n += jumpers.popcount() as u64;
                }
            }
            if R::PARACHUTISTS && R::PARACHUTIST_JUMPS[us].has(d) {
                let jumpers = paras & f;
                if jumpers != zero {
                    if R::PARACHUTE_CONTINUES {
                        return None;
                    }
                    n += jumpers.popcount() as u64;
                }
            }
        });
        Some(n)
    }

    /// Number of capture moves when every sequence keeps one direction and may stop after any
    /// jump, and only men stand on the board: a man that can make `k` jumps in a row in one
    /// direction has `k` moves there, counted with board-wide shifts. (The squares it leaves
    /// and the pieces it removes lie behind it, so the removal timing does not matter.)
    fn count_straight_captures(&self) -> u64 {
        let zero = <WordOf<R> as Word>::ZERO;
        let us = self.side.index();
        let men = self.by_color[us];
        let mut targets = self.by_color[1 - us];
        if !R::MEN_CAPTURE_KINGS {
            targets &= !self.kings;
        }
        let empty = R::G::VALID & !(men | self.by_color[1 - us]);
        let mut n = 0;
        each_dir!(for d {
            if !R::MAN_JUMPS[us].has(d) {
                continue;
            }
            let back = opposite(d);
            // Squares from which one jump in direction d lands on an empty square.
            let jump = R::G::step(R::G::step(empty, back) & targets, back);
            let mut chain = jump;
            let mut from = men & chain;
            while from != zero {
                n += from.popcount() as u64;
                // Squares from which k + 1 jumps in a row exist.
                chain = jump & R::G::step(R::G::step(chain, back), back);
                from = men & chain;
            }
        });
        n
    }

    /// Whether a man of the side to move can step onto an empty crowning square: a test by board-wide shifts, cheaper than listing the
    /// moves, for the quiescence search to look at crowning moves only where there are some.
    pub fn can_crown_quietly(&self) -> bool {
        if matches!(R::PROMOTION, Promotion::Never) {
            return false;
        }
        match self.side {
            Color::White => self.can_crown_quietly_of::<0>(),
            Color::Black => self.can_crown_quietly_of::<1>(),
        }
    }

    #[inline(always)]
    fn can_crown_quietly_of<const US: usize>(&self) -> bool {
        let zero = <WordOf<R> as Word>::ZERO;
        let own = self.by_color[US];
        let empty = R::G::VALID & !(own | self.by_color[1 - US]);
        let men = own & !self.kings & !self.paras;
        let target = R::G::mask(R::PROMOTION_SQUARES[US]) & empty;
        let mut found = zero;
        each_dir!(for d {
            if R::MAN_STEPS[US].has(d) {
                let back = opposite(d);
                // Where men move along lines, the last of a line of men steps past the
                // others onto the square beyond.
                let mut s = R::G::step(target, back) & men;
                while s != zero {
                    found |= s;
                    if !R::LINE_MOVES {
                        break;
                    }
                    s = R::G::step(s, back) & men;
                }
            }
        });
        found != zero
    }

    /// Whether, after the quiet move `m`, a man of the opponent stands next to one of the
    /// mover's pieces with an empty square beyond, in a direction it jumps: true whenever the
    /// opponent, without kings or parachutists, then has a capture (a cheap test by shifts
    /// before playing the move and listing the captures).
    pub fn may_offer_capture(&self, m: &MoveOf<R>) -> bool {
        let zero = <WordOf<R> as Word>::ZERO;
        let one = <WordOf<R> as Word>::ONE;
        let us = self.side.index();
        let them = 1 - us;
        let from = one << m.from.index() as u32;
        let to = one << m.to.index() as u32;
        let mut targets = (self.by_color[us] & !from) | to;
        if !R::MEN_CAPTURE_KINGS {
            targets &= !self.kings;
        }
        let empty = ((R::G::VALID & !(self.by_color[0] | self.by_color[1])) | from) & !to;
        let jumpers = self.by_color[them] & !self.kings & !self.paras;
        men_with_a_jump::<R>(jumpers, targets, empty, R::MAN_JUMPS[them]) != zero
    }

    /// Whether the other side has crowned a man where that wins the game (Breakthrough):
    /// the side to move then has no move.
    #[inline(always)]
    pub fn lost_by_crowning(&self) -> bool {
        R::CROWNING_WINS
            && self.by_color[self.side.opposite().index()] & self.kings != <WordOf<R> as Word>::ZERO
    }

    /// Number of plain (non-capturing) moves, counted with board-wide shifts where it can.
    pub fn count_quiet(&self) -> u64 {
        match self.side {
            Color::White => self.count_quiet_of::<0>(),
            Color::Black => self.count_quiet_of::<1>(),
        }
    }

    #[inline(always)]
    fn count_quiet_of<const US: usize>(&self) -> u64 {
        let us = US;
        if self.lost_by_crowning() {
            return 0;
        }
        let own = self.by_color[us];
        let empty = R::G::VALID & !(own | self.by_color[1 - us]);
        let mut men = own & !self.kings & !self.paras;
        if R::FAR_RANK_FROZEN {
            men &= !R::G::mask(R::PROMOTION_SQUARES[us]);
        }
        let kings = own & self.kings & !self.king_at_move_limit();
        let mut n = 0;
        each_dir!(for d {
            if R::MAN_STEPS[us].has(d) {
                let back = opposite(d);
                let mut from = R::G::step(empty, back) & men;
                while from != <WordOf<R> as Word>::ZERO {
                    n += from.popcount() as u64;
                    if !R::LINE_MOVES {
                        break;
                    }
                    from = R::G::step(from, back) & men;
                }
            }
            if R::KING_STEPS.has(d) {
                let mut s = R::G::step(kings, d) & empty;
                while s != <WordOf<R> as Word>::ZERO {
                    n += s.popcount() as u64;
                    if !R::FLYING_KINGS {
                        break;
                    }
                    s = R::G::step(s, d) & empty;
                }
            }
        });
        n
    }
}

/// The men among `men` with a jump over one of `targets` onto an empty square, in one of
/// `dirs`, found with board-wide shifts.
#[inline(always)]
fn men_with_a_jump<R: Rules>(
    men: WordOf<R>,
    targets: WordOf<R>,
    empty: WordOf<R>,
    dirs: DirSet,
) -> WordOf<R> {
    let mut can = <WordOf<R> as Word>::ZERO;
    each_dir!(for d {
        if dirs.has(d) {
            let back = opposite(d);
            can |= R::G::step(R::G::step(empty, back) & targets, back) & men;
        }
    });
    can
}
