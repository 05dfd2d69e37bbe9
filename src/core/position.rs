//! Positions: an unchecked `Setup` and the validated `Position` built from it.

use std::fmt;
use std::marker::PhantomData;

use crate::core::bitboard::{Bitboard, Word};
use crate::core::color::Color;
use crate::core::geometry::Geometry;
use crate::core::mv::Move;
use crate::core::notation::square_name;
use crate::core::piece::{Kind, Piece};
use crate::core::rules::{Promotion, Rules};
use crate::core::square::Square;
use crate::core::zobrist;

/// The word holding a variant's bitboards.
pub type WordOf<R> = <<R as Rules>::G as Geometry>::W;
pub type BoardOf<R> = Bitboard<WordOf<R>>;
pub type MoveOf<R> = Move<WordOf<R>>;

/// Pieces and side to move, not yet checked against the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup<W: Word> {
    pub side: Color,
    pub by_color: [Bitboard<W>; 2],
    pub kings: Bitboard<W>,
    pub parachutists: Bitboard<W>,
}

impl<W: Word> Setup<W> {
    pub fn empty(side: Color) -> Self {
        Setup {
            side,
            by_color: [Bitboard::EMPTY; 2],
            kings: Bitboard::EMPTY,
            parachutists: Bitboard::EMPTY,
        }
    }
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else if self.by_color[1].contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.kings.contains(sq) {
            Kind::King
        } else if self.parachutists.contains(sq) {
            Kind::Parachutist
        } else {
            Kind::Man
        };
        Some(Piece::new(color, kind))
    }
    /// Put a piece on a square, replacing what was there.
    pub fn put(&mut self, sq: Square, p: Piece) {
        self.remove(sq);
        self.by_color[p.color.index()] = self.by_color[p.color.index()].with(sq);
        match p.kind {
            Kind::King => self.kings = self.kings.with(sq),
            Kind::Parachutist => self.parachutists = self.parachutists.with(sq),
            Kind::Man => {}
        }
    }
    pub fn remove(&mut self, sq: Square) {
        for b in self
            .by_color
            .iter_mut()
            .chain([&mut self.kings, &mut self.parachutists])
        {
            *b = b.without(sq);
        }
    }
}

/// Why a setup is not a position of its variant.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A piece stands on a square that is not part of the board.
    OffBoard,
    /// A square holds pieces of both colours.
    BothColors,
    /// A king or parachutist mark without a piece under it, or both marks on one square.
    BadKind,
    /// More pieces than the side starts with.
    TooManyPieces { color: Color, count: u32, max: u32 },
    /// Parachutists in a variant that has none.
    NoParachutists,
    /// Kings in a variant whose men are never crowned.
    NoKings,
    /// A side without any piece: no game starts or goes on from there.
    NoPieces(Color),
    /// A man on one of its own crowning squares, where the rules never leave a man (it is
    /// crowned on arrival); the square as the variant writes it.
    ManOnCrowningSquare { color: Color, square: String },
    /// The side to move has a king where the first king wins (Breakthrough): the game
    /// ended before its turn.
    CrownedToMove(Color),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::OffBoard => write!(f, "a piece stands off the board"),
            PositionError::BothColors => write!(f, "a square holds pieces of both colours"),
            PositionError::BadKind => write!(f, "inconsistent piece kinds"),
            PositionError::TooManyPieces { color, count, max } => write!(
                f,
                "{} has {count} pieces, more than the {max} it starts with",
                color.name()
            ),
            PositionError::NoParachutists => write!(f, "this variant has no parachutists"),
            PositionError::NoKings => {
                write!(f, "this variant has no kings (men are never crowned)")
            }
            PositionError::NoPieces(c) => write!(f, "{} has no pieces", c.name()),
            PositionError::CrownedToMove(c) => write!(
                f,
                "{} is to move with a king: in this variant the game ended when it crowned",
                c.name()
            ),
            PositionError::ManOnCrowningSquare { color, square } => write!(
                f,
                "a {} man on {square}, a square where it would have been crowned",
                color.name()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Per side, the king that made that side's last non-capturing moves in a row and how
/// many (Frisian's king-move limit). Always empty in variants without the limit, and for a
/// side without men, to which the limit does not apply.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct KingRuns {
    pub square: [u8; 2],
    pub count: [u8; 2],
}

impl KingRuns {
    fn key(&self) -> u64 {
        let mut h = 0;
        for c in 0..2 {
            if self.count[c] > 0 {
                h ^= zobrist::king_run(c, self.square[c], self.count[c]);
            }
        }
        h
    }
}

/// A legal position of variant `R`, with its Zobrist hash kept up to date.
pub struct Position<R: Rules> {
    pub(crate) by_color: [WordOf<R>; 2],
    pub(crate) kings: WordOf<R>,
    pub(crate) paras: WordOf<R>,
    pub(crate) side: Color,
    pub(crate) runs: KingRuns,
    pub(crate) hash: u64,
    _rules: PhantomData<R>,
}

impl<R: Rules> Clone for Position<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Rules> Copy for Position<R> {}
impl<R: Rules> PartialEq for Position<R> {
    fn eq(&self, o: &Self) -> bool {
        self.by_color == o.by_color
            && self.kings == o.kings
            && self.paras == o.paras
            && self.side == o.side
            && self.runs == o.runs
    }
}
impl<R: Rules> Eq for Position<R> {}

fn piece_key(p: Piece, sq: Square) -> u64 {
    zobrist::PIECE_SQUARE[p.index()][sq.index()]
}

impl<R: Rules> Position<R> {
    /// The variant's start position.
    pub fn start() -> Self {
        let m = |x: u128| Bitboard(<WordOf<R> as Word>::from_u128(x));
        let mut s = Setup::empty(R::FIRST);
        s.by_color = [
            m(R::START_MEN[0] | R::START_PARACHUTISTS[0]),
            m(R::START_MEN[1] | R::START_PARACHUTISTS[1]),
        ];
        s.parachutists = m(R::START_PARACHUTISTS[0] | R::START_PARACHUTISTS[1]);
        Self::from_setup_unchecked(&s)
    }

    fn from_setup_unchecked(s: &Setup<WordOf<R>>) -> Self {
        let mut p = Position {
            by_color: [s.by_color[0].0, s.by_color[1].0],
            kings: s.kings.0,
            paras: s.parachutists.0,
            side: s.side,
            runs: KingRuns::default(),
            hash: 0,
            _rules: PhantomData,
        };
        p.hash = p.compute_hash();
        p
    }

    /// A position from its boards, without a hash (for table builders that only generate
    /// moves; the caller guarantees the setup is valid for the variant).
    #[inline]
    pub(crate) fn from_boards_unhashed(
        by_color: [WordOf<R>; 2],
        kings: WordOf<R>,
        side: Color,
    ) -> Self {
        Position {
            by_color,
            kings,
            paras: <WordOf<R> as Word>::ZERO,
            side,
            runs: KingRuns::default(),
            hash: 0,
            _rules: PhantomData,
        }
    }

    /// Check a setup against the variant's rules.
    pub fn from_setup(s: &Setup<WordOf<R>>) -> Result<Self, PositionError> {
        let valid = Bitboard(R::G::VALID);
        let all = s.by_color[0] | s.by_color[1];
        if (all & !valid).any() {
            return Err(PositionError::OffBoard);
        }
        if (s.by_color[0] & s.by_color[1]).any() {
            return Err(PositionError::BothColors);
        }
        if (s.kings & !all).any()
            || (s.parachutists & !all).any()
            || (s.kings & s.parachutists).any()
        {
            return Err(PositionError::BadKind);
        }
        if !R::PARACHUTISTS && s.parachutists.any() {
            return Err(PositionError::NoParachutists);
        }
        if R::PROMOTION == Promotion::Never && s.kings.any() {
            return Err(PositionError::NoKings);
        }
        for c in [Color::White, Color::Black] {
            let max = (R::START_MEN[c.index()] | R::START_PARACHUTISTS[c.index()]).count_ones();
            let count = s.by_color[c.index()].count();
            if count > max {
                return Err(PositionError::TooManyPieces {
                    color: c,
                    count,
                    max,
                });
            }
            if count == 0 {
                return Err(PositionError::NoPieces(c));
            }
        }
        if R::CROWNING_WINS && (s.kings & s.by_color[s.side.index()]).any() {
            return Err(PositionError::CrownedToMove(s.side));
        }
        if R::PROMOTION != Promotion::Never {
            for c in [Color::White, Color::Black] {
                let crowning = Bitboard(<R::G as Geometry>::mask(R::PROMOTION_SQUARES[c.index()]));
                let men = s.by_color[c.index()] & !s.kings & !s.parachutists;
                if let Some(sq) = (men & crowning).into_iter().next() {
                    return Err(PositionError::ManOnCrowningSquare {
                        color: c,
                        square: square_name::<R>(sq),
                    });
                }
            }
        }
        Ok(Self::from_setup_unchecked(s))
    }

    pub fn setup(&self) -> Setup<WordOf<R>> {
        Setup {
            side: self.side,
            by_color: [Bitboard(self.by_color[0]), Bitboard(self.by_color[1])],
            kings: Bitboard(self.kings),
            parachutists: Bitboard(self.paras),
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn pieces(&self, c: Color) -> BoardOf<R> {
        Bitboard(self.by_color[c.index()])
    }
    pub fn kings(&self) -> BoardOf<R> {
        Bitboard(self.kings)
    }
    pub fn parachutists(&self) -> BoardOf<R> {
        Bitboard(self.paras)
    }
    pub fn occupied(&self) -> BoardOf<R> {
        Bitboard(self.by_color[0] | self.by_color[1])
    }
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.setup().piece_at(sq)
    }

    /// The hash computed from scratch; equal to the incremental one.
    pub fn compute_hash(&self) -> u64 {
        let s = self.setup();
        let mut h = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for sq in s.by_color[0] | s.by_color[1] {
            if let Some(p) = s.piece_at(sq) {
                h ^= piece_key(p, sq);
            }
        }
        h ^ self.runs.key()
    }

    /// Each side's run of non-capturing king moves (Frisian's king-move limit).
    pub fn king_runs(&self) -> KingRuns {
        self.runs
    }

    /// The same position with the king-move runs given (e.g. read from a FEN); a run is
    /// kept only where it names a king of its side, within the limit, while that side has
    /// men.
    pub fn with_king_runs(&self, runs: KingRuns) -> Self {
        let mut p = *self;
        p.runs = KingRuns::default();
        if R::KING_MOVE_LIMIT > 0 {
            for c in 0..2 {
                let own = self.by_color[c];
                let men = own & !self.kings;
                let sq = runs.square[c];
                let on_king = sq < 128 && (own & self.kings).to_u128() >> sq & 1 == 1;
                if runs.count[c] > 0 && on_king && men != <WordOf<R> as Word>::ZERO {
                    p.runs.square[c] = sq;
                    p.runs.count[c] = runs.count[c].min(R::KING_MOVE_LIMIT);
                }
            }
        }
        p.hash = p.compute_hash();
        p
    }

    /// The king of the side to move that has made as many non-capturing moves in a row as
    /// the rules allow, as a bit (none: zero).
    #[inline(always)]
    pub(crate) fn king_at_move_limit(&self) -> WordOf<R> {
        let zero = <WordOf<R> as Word>::ZERO;
        if R::KING_MOVE_LIMIT == 0 {
            return zero;
        }
        let us = self.side.index();
        if self.runs.count[us] < R::KING_MOVE_LIMIT {
            return zero;
        }
        <WordOf<R> as Word>::ONE << self.runs.square[us] as u32
    }

    /// The runs after a move of `kind` from `from` to `to` that took `captured`, given the
    /// men each side has after it.
    #[inline(always)]
    fn runs_after(
        &self,
        kind: Kind,
        from: Square,
        to: Square,
        captured: WordOf<R>,
        men: [bool; 2],
    ) -> KingRuns {
        let us = self.side.index();
        let zero = <WordOf<R> as Word>::ZERO;
        let quiet = captured == zero;
        let mut runs = self.runs;
        if kind == Kind::King && quiet && men[us] {
            let go_on = runs.count[us] > 0 && runs.square[us] == from.index() as u8;
            runs.count[us] = if go_on {
                (runs.count[us] + 1).min(R::KING_MOVE_LIMIT)
            } else {
                1
            };
            runs.square[us] = to.index() as u8;
        } else {
            runs.count[us] = 0;
            runs.square[us] = 0;
        }
        let their_king = <WordOf<R> as Word>::ONE << runs.square[1 - us] as u32;
        if !men[1 - us] || captured & their_king != zero {
            runs.count[1 - us] = 0;
            runs.square[1 - us] = 0;
        }
        runs
    }

    #[inline(always)]
    fn kind_at(&self, bit: WordOf<R>) -> Kind {
        if self.kings & bit != <WordOf<R> as Word>::ZERO {
            Kind::King
        } else if self.paras & bit != <WordOf<R> as Word>::ZERO {
            Kind::Parachutist
        } else {
            Kind::Man
        }
    }

    /// Play a legal move (one produced by the move generator for this position).
    #[inline]
    pub fn play(&mut self, m: &MoveOf<R>) {
        *self = self.after(m);
    }

    /// The position after a legal move.
    #[inline]
    pub fn after(&self, m: &MoveOf<R>) -> Self {
        self.after_hashed::<true>(m)
    }

    /// The position after a move without updating the hash (perft never reads it).
    #[inline]
    pub(crate) fn after_unhashed(&self, m: &MoveOf<R>) -> Self {
        self.after_hashed::<false>(m)
    }

    /// The child is built field by field from values held in registers, not copied and then
    /// patched: a patched copy is stored in pieces and read back whole, which stalls the
    /// store forwarding of the CPU (a quarter of perft's time before).
    #[inline(always)]
    fn after_hashed<const HASH: bool>(&self, m: &MoveOf<R>) -> Self {
        let zero = <WordOf<R> as Word>::ZERO;
        let one = <WordOf<R> as Word>::ONE;
        let us = self.side;
        let them = us.opposite();
        let from = one << m.from.index() as u32;
        let to = one << m.to.index() as u32;
        let kind = self.kind_at(from);
        let mut hash = self.hash;
        if HASH {
            hash ^= piece_key(Piece::new(us, kind), m.from) ^ zobrist::BLACK_TO_MOVE;
        }
        let mut own = self.by_color[us.index()];
        let mut other = self.by_color[them.index()];
        let mut kings = self.kings;
        let mut paras = self.paras;
        if m.removes_own() {
            own ^= from;
            kings &= !from;
            paras &= !from;
        } else {
            let captured = m.captured.0;
            if captured != zero {
                if HASH {
                    for sq in m.captured {
                        let bit = one << sq.index() as u32;
                        hash ^= piece_key(Piece::new(them, self.kind_at(bit)), sq);
                    }
                }
                other ^= captured;
                kings &= !captured;
                paras &= !captured;
            }
            own ^= from ^ to;
            let new_kind = if kind == Kind::King {
                kings ^= from ^ to;
                Kind::King
            } else {
                paras &= !from;
                if m.promotes() {
                    kings |= to;
                    Kind::King
                } else {
                    Kind::Man
                }
            };
            if HASH {
                hash ^= piece_key(Piece::new(us, new_kind), m.to);
            }
        }
        let by_color = if us == Color::White {
            [own, other]
        } else {
            [other, own]
        };
        let runs = if R::KING_MOVE_LIMIT == 0 {
            self.runs
        } else {
            let men = [by_color[0] & !kings != zero, by_color[1] & !kings != zero];
            let runs = self.runs_after(kind, m.from, m.to, m.captured.0, men);
            if HASH {
                hash ^= self.runs.key() ^ runs.key();
            }
            runs
        };
        Position {
            by_color,
            kings,
            paras,
            side: them,
            runs,
            hash,
            _rules: PhantomData,
        }
    }
}
