//! Rules as data. A variant is a board geometry and one [`RuleSet`] value, built from its
//! family's set with only what differs (`RuleSet { .., ..CZECH }`). The move generator reads
//! the rules only through the constants of [`Rules`], so each variant gets its own
//! monomorphised copy of one generic generator.

use crate::core::color::Color;
use crate::core::geometry::*;

mod variants;
pub use variants::*;

/// When jumped pieces leave the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Removal {
    /// At the end of the move; until then they block and cannot be jumped again.
    Delayed,
    /// At once; their squares may be crossed again.
    Immediate,
}

/// What happens when a man reaches a promotion square during a capture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Promotion {
    /// Crowned at once; the move ends there.
    Stop,
    /// Goes on capturing as a man; crowned only if the move ends on a promotion square.
    EndOfMove,
    /// Crowned at once and goes on capturing as a king.
    Continue,
    /// Men never become kings.
    Never,
}

/// Which capture sequences are allowed when several exist.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Precedence {
    /// Free choice.
    Free,
    /// Most pieces.
    Count,
    /// Most pieces, then most kings.
    CountThenKings,
    /// Italian: most pieces, then with a king, then most kings, then kings met earliest.
    Italian,
    /// A king must capture if one can (Czech family).
    KingFirst,
    /// The highest value taken, each man worth `man` and each king `king`; between equal
    /// values a king's capture before a man's (Frisian).
    Value { man: u16, king: u16 },
}

/// Where a flying king may stop after jumping.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Landing {
    /// Any empty square beyond the victim (restricted to those that continue, if any do).
    Beyond,
    /// Only the square directly behind the victim (Thai).
    DirectlyBehind,
    /// Any empty square beyond, except that a capture ending by taking a king stops on the
    /// square directly behind it (Killer).
    BehindLastKing,
}

/// Who starts and the numbering of squares, for I/O.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Numbering {
    /// Dark squares from White's far edge, left to right (English, FMJD, Canadian).
    TopDown,
    /// Italian FID: the mirrored board read from the top left.
    Italian,
    /// Portuguese FPD: the mirrored board read from White's near right.
    Portuguese,
    /// Algebraic squares only (full boards and points).
    Algebraic,
}

/// Endgame counters that limit how long a small material edge may be played for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Endgame {
    None,
    /// FMJD: up to three pieces with a king against a lone king — 16 moves each; two pieces
    /// with a king, or king against king — 5 moves each.
    Fmjd,
    /// Russian federation: three kings or more against a lone king — 15 moves each; up to
    /// three pieces with a king against a lone king on the main road, or two against one —
    /// 5 moves each; equal material with kings on both sides, 4–5 pieces each — 30 moves
    /// each, 6–7 pieces each — 60 moves each.
    Russian,
    /// Frisian (KNDB): kings only, two against one — 7 moves each; one against one — 2 moves
    /// each.
    Frisian,
}

/// Material that is a draw at once.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lone {
    None,
    /// One king against one king and nothing else (Brazilian seed 002).
    KingEach,
    /// One piece against one piece, kings or men (Turkish).
    PieceEach,
}

/// How a variant's games are drawn without agreement. Every count is automatic: the game
/// ends when it is reached (a claim the engine would always make).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawRules {
    /// Occurrences of one position (same side to move) that draw; 0: no repetition rule.
    pub repetitions: u8,
    /// Consecutive plies without a capture or a man move that draw; 0: no such rule.
    pub quiet_plies: u16,
    pub endgame: Endgame,
    pub lone: Lone,
}

impl DrawRules {
    /// Third repetition only.
    pub const REPETITION: DrawRules = DrawRules {
        repetitions: 3,
        quiet_plies: 0,
        endgame: Endgame::None,
        lone: Lone::None,
    };
    /// No draws at all (Konane).
    pub const NONE: DrawRules = DrawRules {
        repetitions: 0,
        quiet_plies: 0,
        endgame: Endgame::None,
        lone: Lone::None,
    };
}

/// Which men each side starts with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StartMen {
    /// White fills its first `n` ranks, Black its last `n`.
    Rows(u8),
    /// White fills ranks `[a, b)`, Black ranks `[c, d)` (0-based).
    Ranks([(u8, u8); 2]),
    /// Squares named in algebraic notation, White then Black.
    Named([&'static [u8]; 2]),
    /// Every square of a full board, White on the squares whose file + rank is even.
    Checkered,
}

/// Where men are crowned.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Crowning {
    /// Each side on the opponent's back rank.
    FarRank,
    /// Squares named in algebraic notation, White's then Black's.
    Named([&'static [u8]; 2]),
}

/// Everything that distinguishes one variant's rules from another's, as one `const` value.
/// Families ([`ENGLISH`], [`CZECH`], [`INTERNATIONAL`], [`FULL_BOARD`]) give the defaults;
/// a variant states only what differs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleSet {
    /// Canonical name, as the CLI and the protocol accept it.
    pub name: &'static str,
    /// One line for `damas variants`.
    pub summary: &'static str,
    /// How squares are numbered in I/O.
    pub numbering: Numbering,
    /// Whether algebraic squares are written on output (always accepted on dark boards).
    pub algebraic_output: bool,
    /// Who moves first.
    pub first: Color,
    /// Men's plain steps, per colour (absolute directions).
    pub man_steps: [DirSet; 2],
    /// Directions of a man's first jump, per colour.
    pub man_jumps: [DirSet; 2],
    /// Directions of a man's later jumps in the same sequence; `None`: as the first.
    pub man_later_jumps: Option<[DirSet; 2]>,
    pub king_steps: DirSet,
    pub king_jumps: DirSet,
    /// Kings move and capture over any distance along a line.
    pub flying_kings: bool,
    /// Where a flying king may stop after a jump.
    pub landing: Landing,
    /// When jumped pieces leave the board.
    pub removal: Removal,
    /// A 180° turn between two jumps is forbidden.
    pub no_reverse: bool,
    /// What a man reaching the crowning squares during a capture does.
    pub promotion: Promotion,
    /// Which capture sequences are allowed when several exist.
    pub precedence: Precedence,
    /// A capture must be taken when one exists.
    pub mandatory_capture: bool,
    /// Men may capture kings.
    pub men_capture_kings: bool,
    /// A sequence keeps one direction and may stop after any jump (Konane).
    pub straight_optional_sequences: bool,
    /// Men move as lines (Dameo).
    pub line_moves: bool,
    /// Men on the far rank make no plain moves (Alquerque).
    pub far_rank_frozen: bool,
    /// Parachutists: capture-only pieces that become men after their jump.
    pub parachutists: bool,
    /// Whether a parachutist's new man goes on jumping.
    pub parachute_continues: bool,
    /// The game opens with two removals of own pieces (Konane): on the full board the first
    /// player lifts one of its pieces from `first_removals`; with one hole, the second player
    /// lifts one of its pieces next to the hole in a direction of `second_removal_dirs`.
    pub opening_removals: bool,
    /// Squares named in algebraic notation.
    pub first_removals: &'static [u8],
    pub second_removal_dirs: DirSet,
    /// Whether the search follows captures past its horizon. Off where every move is a
    /// capture (Konane): there it would search every game to its end.
    pub quiescence_captures: bool,
    /// The side with no legal move wins instead of losing.
    pub loser_wins: bool,
    /// The first side to crown a man wins (Breakthrough): the side to move has lost when
    /// the other side has a king.
    pub crowning_wins: bool,
    /// A king may make at most this many non-capturing moves in a row while its side still
    /// has men (Frisian: 3); 0: no limit.
    pub king_move_limit: u8,
    /// The PDN `GameType` number, where the PDN standard has one.
    pub pdn_game_type: Option<u8>,
    /// How games are drawn (agreement aside).
    pub draw: DrawRules,
    pub crowning: Crowning,
    pub start: StartMen,
    /// Parachutists at the start, squares named White's then Black's.
    pub start_parachutists: Option<[&'static [u8]; 2]>,
    /// The assumptions this variant's data makes where the rules are not verified.
    pub assumptions: &'static [&'static str],
}

/// What every family starts from: short diagonal kings, men stepping and jumping forward
/// diagonally, White first, mandatory capture with free choice, third repetition draws.
pub const BASE: RuleSet = RuleSet {
    name: "",
    summary: "",
    numbering: Numbering::TopDown,
    algebraic_output: false,
    first: Color::White,
    man_steps: FORWARD_DIAG,
    man_jumps: FORWARD_DIAG,
    man_later_jumps: None,
    king_steps: DirSet::DIAGONAL,
    king_jumps: DirSet::DIAGONAL,
    flying_kings: false,
    landing: Landing::Beyond,
    removal: Removal::Delayed,
    no_reverse: false,
    promotion: Promotion::Stop,
    precedence: Precedence::Free,
    mandatory_capture: true,
    men_capture_kings: true,
    straight_optional_sequences: false,
    line_moves: false,
    far_rank_frozen: false,
    parachutists: false,
    parachute_continues: false,
    opening_removals: false,
    first_removals: b"",
    second_removal_dirs: DirSet::ORTHOGONAL,
    quiescence_captures: true,
    loser_wins: false,
    crowning_wins: false,
    king_move_limit: 0,
    pdn_game_type: None,
    draw: DrawRules::REPETITION,
    crowning: Crowning::FarRank,
    start: StartMen::Rows(3),
    start_parachutists: None,
    assumptions: &[],
};

/// A variant's rules: a board geometry and a [`RuleSet`]. The other constants are read off
/// those two once, at compile time, for the generator and the search.
pub trait Rules: Copy + Send + Sync + Default + 'static {
    type G: Geometry;
    const SET: RuleSet;

    const NAME: &'static str = Self::SET.name;
    const NUMBERING: Numbering = Self::SET.numbering;
    const ALGEBRAIC_OUTPUT: bool = Self::SET.algebraic_output;
    const FIRST: Color = Self::SET.first;
    const MAN_STEPS: [DirSet; 2] = Self::SET.man_steps;
    const MAN_JUMPS: [DirSet; 2] = Self::SET.man_jumps;
    const MAN_LATER_JUMPS: [DirSet; 2] = match Self::SET.man_later_jumps {
        Some(dirs) => dirs,
        None => Self::SET.man_jumps,
    };
    const KING_STEPS: DirSet = Self::SET.king_steps;
    const KING_JUMPS: DirSet = Self::SET.king_jumps;
    const FLYING_KINGS: bool = Self::SET.flying_kings;
    const LANDING: Landing = Self::SET.landing;
    const REMOVAL: Removal = Self::SET.removal;
    const NO_REVERSE: bool = Self::SET.no_reverse;
    const PROMOTION: Promotion = Self::SET.promotion;
    const PRECEDENCE: Precedence = Self::SET.precedence;
    const MANDATORY_CAPTURE: bool = Self::SET.mandatory_capture;
    const MEN_CAPTURE_KINGS: bool = Self::SET.men_capture_kings;
    const STRAIGHT_OPTIONAL_SEQUENCES: bool = Self::SET.straight_optional_sequences;
    const LINE_MOVES: bool = Self::SET.line_moves;
    const FAR_RANK_FROZEN: bool = Self::SET.far_rank_frozen;
    const PARACHUTISTS: bool = Self::SET.parachutists;
    /// A parachutist jumps towards its own side.
    const PARACHUTIST_JUMPS: [DirSet; 2] = [Self::SET.man_jumps[1], Self::SET.man_jumps[0]];
    const PARACHUTE_CONTINUES: bool = Self::SET.parachute_continues;
    const OPENING_REMOVALS: bool = Self::SET.opening_removals;
    const FIRST_REMOVALS: u128 = Self::G::LAYOUT.named(Self::SET.first_removals);
    const SECOND_REMOVAL_DIRS: DirSet = Self::SET.second_removal_dirs;
    const QUIESCENCE_CAPTURES: bool = Self::SET.quiescence_captures;
    const LOSER_WINS: bool = Self::SET.loser_wins;
    const CROWNING_WINS: bool = Self::SET.crowning_wins;
    const KING_MOVE_LIMIT: u8 = Self::SET.king_move_limit;
    const PDN_GAME_TYPE: Option<u8> = Self::SET.pdn_game_type;
    const DRAW: DrawRules = Self::SET.draw;
    /// Promotion squares per colour.
    const PROMOTION_SQUARES: [u128; 2] = match Self::SET.crowning {
        Crowning::FarRank => far_ranks(&Self::G::LAYOUT),
        Crowning::Named([w, b]) => [Self::G::LAYOUT.named(w), Self::G::LAYOUT.named(b)],
    };
    /// Start position: men per colour.
    const START_MEN: [u128; 2] = start_men(&Self::G::LAYOUT, Self::SET.start);
    /// Start position: parachutists per colour.
    const START_PARACHUTISTS: [u128; 2] = match Self::SET.start_parachutists {
        Some([w, b]) => [Self::G::LAYOUT.named(w), Self::G::LAYOUT.named(b)],
        None => [0, 0],
    };
    const ASSUMPTIONS: &'static [&'static str] = Self::SET.assumptions;
    const SUMMARY: &'static str = Self::SET.summary;
}

pub const fn far_ranks(l: &Layout) -> [u128; 2] {
    [l.rank_mask(l.height - 1), l.rank_mask(0)]
}

/// White's men on the first `rows` ranks, Black's on the last `rows`.
pub const fn rows_start(l: &Layout, rows: u8) -> [u128; 2] {
    [
        l.ranks_mask(0, rows),
        l.ranks_mask(l.height - rows, l.height),
    ]
}

const fn start_men(l: &Layout, start: StartMen) -> [u128; 2] {
    match start {
        StartMen::Rows(n) => rows_start(l, n),
        StartMen::Ranks([(a, b), (c, d)]) => [l.ranks_mask(a, b), l.ranks_mask(c, d)],
        StartMen::Named([w, b]) => [l.named(w), l.named(b)],
        StartMen::Checkered => [checkered(l, 0), checkered(l, 1)],
    }
}

/// White's directions and the same seen from Black's side.
pub const fn per_color(white: DirSet) -> [DirSet; 2] {
    [white, white.turned()]
}

/// Every square of a full board whose file + rank (0-based) has the given parity.
pub const fn checkered(l: &Layout, parity: i32) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < l.height as i32 {
        let mut f = 0;
        while f < l.width as i32 {
            if (f + r) % 2 == parity {
                if let Some(i) = l.index(f, r) {
                    m |= 1 << i;
                }
            }
            f += 1;
        }
        r += 1;
    }
    m
}

/// Forward diagonals for each side.
pub const FORWARD_DIAG: [DirSet; 2] = per_color(DirSet::of(&[NE, NW]));
/// All four diagonals for each side.
pub const ALL_DIAG: [DirSet; 2] = [DirSet::DIAGONAL, DirSet::DIAGONAL];
