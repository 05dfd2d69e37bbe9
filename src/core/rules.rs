//! Rules as data: one small type per variant whose constants say what differs.
//! The move generator reads only these constants, so each variant gets its own
//! monomorphised copy of one generic generator.

use crate::core::color::Color;
use crate::core::draw::{DrawRules, Endgame, Lone};
use crate::core::geometry::*;

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
}

/// Where a flying king may stop after jumping.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Landing {
    /// Any empty square beyond the victim (restricted to those that continue, if any do).
    Beyond,
    /// Only the square directly behind the victim (Thai).
    DirectlyBehind,
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

/// Everything that distinguishes one variant's rules from another's.
pub trait Rules: Copy + Send + Sync + Default + 'static {
    type G: Geometry;
    /// Canonical name, as the CLI and the protocol accept it.
    const NAME: &'static str;
    const NUMBERING: Numbering;
    /// Whether algebraic squares are written on output (they are always accepted on dark boards).
    const ALGEBRAIC_OUTPUT: bool = false;
    const FIRST: Color = Color::White;
    /// Men's plain steps, per colour (absolute directions).
    const MAN_STEPS: [DirSet; 2];
    /// Directions of a man's first jump, per colour.
    const MAN_JUMPS: [DirSet; 2];
    /// Directions of a man's later jumps in the same sequence, per colour.
    const MAN_LATER_JUMPS: [DirSet; 2] = Self::MAN_JUMPS;
    const KING_STEPS: DirSet = DirSet::DIAGONAL;
    const KING_JUMPS: DirSet = DirSet::DIAGONAL;
    const FLYING_KINGS: bool;
    const LANDING: Landing = Landing::Beyond;
    const REMOVAL: Removal = Removal::Delayed;
    /// Forbid a 180° turn between two jumps.
    const NO_REVERSE: bool = false;
    const PROMOTION: Promotion;
    const PRECEDENCE: Precedence;
    const MANDATORY_CAPTURE: bool = true;
    const MEN_CAPTURE_KINGS: bool = true;
    /// A sequence keeps one direction and may stop after any jump (Konane).
    const STRAIGHT_OPTIONAL_SEQUENCES: bool = false;
    /// Men move as lines (Dameo).
    const LINE_MOVES: bool = false;
    /// Men on the far rank make no plain moves (Alquerque).
    const FAR_RANK_FROZEN: bool = false;
    /// Parachutists: capture-only pieces that become men after their jump.
    const PARACHUTISTS: bool = false;
    /// Directions of a parachutist's jump, per colour: towards its own side.
    const PARACHUTIST_JUMPS: [DirSet; 2] = [Self::MAN_JUMPS[1], Self::MAN_JUMPS[0]];
    /// Whether a parachutist's new man goes on jumping.
    const PARACHUTE_CONTINUES: bool = false;
    /// The game opens with two removals of own pieces (Konane): on the full board the first
    /// player lifts one of its pieces from `FIRST_REMOVALS`; with one hole, the second player
    /// lifts one of its pieces next to the hole in a direction of `SECOND_REMOVAL_DIRS`.
    const OPENING_REMOVALS: bool = false;
    const FIRST_REMOVALS: u128 = 0;
    const SECOND_REMOVAL_DIRS: DirSet = DirSet::ORTHOGONAL;
    /// Whether the search follows captures past its horizon (quiescence). Off where every
    /// move is a capture (Konane): there it would search every game to its end.
    const QUIESCENCE_CAPTURES: bool = true;
    /// The side with no legal move wins instead of losing.
    const LOSER_WINS: bool = false;
    /// The PDN `GameType` number, where the PDN standard has one.
    const PDN_GAME_TYPE: Option<u8> = None;
    /// How games are drawn (agreement aside).
    const DRAW: DrawRules = DrawRules::REPETITION;
    /// Promotion squares per colour.
    const PROMOTION_SQUARES: [u128; 2] = far_ranks(&Self::G::LAYOUT);
    /// Start position: men per colour, then parachutists per colour.
    const START_MEN: [u128; 2];
    const START_PARACHUTISTS: [u128; 2] = [0, 0];
    /// The assumptions this variant's data makes where the rules are not verified.
    const ASSUMPTIONS: &'static [&'static str] = &[];
    /// One line for `damas variants`.
    const SUMMARY: &'static str;
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

const fn per_color(white: DirSet) -> [DirSet; 2] {
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

const FORWARD_DIAG: [DirSet; 2] = per_color(DirSet::of(&[NE, NW]));
const ALL_DIAG: [DirSet; 2] = [DirSet::DIAGONAL, DirSet::DIAGONAL];

macro_rules! variant {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
    };
}

variant!(
    /// English/American checkers (seed 000), mandatory capture.
    English
);
impl Rules for English {
    type G = Dark8;
    const NAME: &'static str = "english";
    const NUMBERING: Numbering = Numbering::TopDown;
    const FIRST: Color = Color::Black;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = false;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::Free;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const DRAW: DrawRules = DrawRules {
        quiet_plies: 40,
        ..DrawRules::REPETITION
    };
    const PDN_GAME_TYPE: Option<u8> = Some(21);
    const SUMMARY: &'static str =
        "English/American checkers: short kings, men forward only, free choice of capture";
}

variant!(
    /// English checkers with the seed-000 table option "mandatory capture" off.
    EnglishFreeCapture
);
impl Rules for EnglishFreeCapture {
    type G = Dark8;
    const NAME: &'static str = "english";
    const NUMBERING: Numbering = Numbering::TopDown;
    const FIRST: Color = Color::Black;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = false;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::Free;
    const MANDATORY_CAPTURE: bool = false;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const DRAW: DrawRules = DrawRules {
        quiet_plies: 40,
        ..DrawRules::REPETITION
    };
    const PDN_GAME_TYPE: Option<u8> = Some(21);
    const SUMMARY: &'static str = "English checkers, capture optional at the start of a turn";
}

variant!(
    /// Giveaway checkers: English moves, the side left without a move wins.
    AntiEnglish
);
impl Rules for AntiEnglish {
    type G = Dark8;
    const NAME: &'static str = "anti-english";
    const NUMBERING: Numbering = Numbering::TopDown;
    const FIRST: Color = Color::Black;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = false;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::Free;
    const LOSER_WINS: bool = true;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const SUMMARY: &'static str = "Giveaway checkers: English moves, the side without a move wins";
}

variant!(
    /// Czech draughts: flying kings, men capture forward, a king must capture if it can.
    Czech
);
impl Rules for Czech {
    type G = Dark8;
    const NAME: &'static str = "czech";
    const NUMBERING: Numbering = Numbering::TopDown;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::KingFirst;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const DRAW: DrawRules = DrawRules {
        quiet_plies: 30,
        ..DrawRules::REPETITION
    };
    const ASSUMPTIONS: &'static [&'static str] = &["draw after 15 moves by each side (30 plies) without a capture or man move (the rule text does not say whether per side)"];
    const PDN_GAME_TYPE: Option<u8> = Some(29);
    const SUMMARY: &'static str =
        "Czech draughts: flying kings, men capture forward, kings capture first";
}

variant!(
    /// Russian draughts: men capture backwards, a man crowned mid-capture goes on as a king.
    Russian
);
impl Rules for Russian {
    type G = Dark8;
    const NAME: &'static str = "russian";
    const NUMBERING: Numbering = Numbering::TopDown;
    const ALGEBRAIC_OUTPUT: bool = true;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = ALL_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::Continue;
    const PRECEDENCE: Precedence = Precedence::Free;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const DRAW: DrawRules = DrawRules {
        quiet_plies: 30,
        endgame: Endgame::Russian,
        ..DrawRules::REPETITION
    };
    const ASSUMPTIONS: &'static [&'static str] = &["draw counters as implemented in pydraughts (15 moves each of king moves; endgame limits 5/15/30/60 moves each)"];
    const PDN_GAME_TYPE: Option<u8> = Some(25);
    const SUMMARY: &'static str =
        "Russian draughts: flying kings, free choice, crowned men capture on as kings";
}

variant!(
    /// Brazilian draughts (seed 002): International rules on 8×8.
    Brazilian
);
impl Rules for Brazilian {
    type G = Dark8;
    const NAME: &'static str = "brazilian";
    const NUMBERING: Numbering = Numbering::TopDown;
    const ALGEBRAIC_OUTPUT: bool = true;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = ALL_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::EndOfMove;
    const PRECEDENCE: Precedence = Precedence::Count;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const DRAW: DrawRules = DrawRules {
        lone: Lone::KingEach,
        ..DrawRules::REPETITION
    };
    const PDN_GAME_TYPE: Option<u8> = Some(26);
    const SUMMARY: &'static str =
        "Brazilian draughts: International rules on 8x8 (majority capture)";
}

variant!(
    /// International (FMJD) draughts on 10×10.
    International
);
impl Rules for International {
    type G = Dark10;
    const NAME: &'static str = "international";
    const NUMBERING: Numbering = Numbering::TopDown;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = ALL_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::EndOfMove;
    const PRECEDENCE: Precedence = Precedence::Count;
    const START_MEN: [u128; 2] = rows_start(&Dark10::LAYOUT, 4);
    const DRAW: DrawRules = DrawRules {
        quiet_plies: 50,
        endgame: Endgame::Fmjd,
        ..DrawRules::REPETITION
    };
    const PDN_GAME_TYPE: Option<u8> = Some(20);
    const SUMMARY: &'static str = "International draughts 10x10: flying kings, majority capture";
}

variant!(
    /// Canadian draughts: International rules on 12×12.
    Canadian
);
impl Rules for Canadian {
    type G = Dark12;
    const NAME: &'static str = "canadian";
    const NUMBERING: Numbering = Numbering::TopDown;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = ALL_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::EndOfMove;
    const PRECEDENCE: Precedence = Precedence::Count;
    const START_MEN: [u128; 2] = rows_start(&Dark12::LAYOUT, 5);
    const DRAW: DrawRules = DrawRules {
        endgame: Endgame::Fmjd,
        ..DrawRules::REPETITION
    };
    const ASSUMPTIONS: &'static [&'static str] =
        &["FMJD endgame counters (16 and 5 moves each) applied by analogy; no 25-move rule"];
    const PDN_GAME_TYPE: Option<u8> = Some(27);
    const SUMMARY: &'static str = "Canadian draughts 12x12: International rules, 30 men each";
}

variant!(
    /// Thai draughts (Mak-hot): kings land directly behind, immediate removal.
    Thai
);
impl Rules for Thai {
    type G = Dark8;
    const NAME: &'static str = "thai";
    const NUMBERING: Numbering = Numbering::TopDown;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = true;
    const LANDING: Landing = Landing::DirectlyBehind;
    const REMOVAL: Removal = Removal::Immediate;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::Free;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 2);
    const PDN_GAME_TYPE: Option<u8> = Some(31);
    const SUMMARY: &'static str =
        "Thai draughts: 8 men, kings land right behind the victim, immediate removal";
}

variant!(
    /// Portuguese draughts: mirrored board, flying kings, most pieces then most kings.
    Portuguese
);
impl Rules for Portuguese {
    type G = Dark8;
    const NAME: &'static str = "portuguese";
    const NUMBERING: Numbering = Numbering::Portuguese;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::CountThenKings;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const DRAW: DrawRules = DrawRules {
        quiet_plies: 40,
        ..DrawRules::REPETITION
    };
    const ASSUMPTIONS: &'static [&'static str] =
        &["limited-moves law read as 20 moves each (40 plies) without a capture or man move"];
    const PDN_GAME_TYPE: Option<u8> = Some(28);
    const SUMMARY: &'static str =
        "Portuguese draughts: flying kings, men forward only, most pieces then most kings";
}

variant!(
    /// Italian draughts: short kings, men may not take kings, the FID precedence chain.
    Italian
);
impl Rules for Italian {
    type G = Dark8;
    const NAME: &'static str = "italian";
    const NUMBERING: Numbering = Numbering::Italian;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = false;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::Italian;
    const MEN_CAPTURE_KINGS: bool = false;
    const START_MEN: [u128; 2] = rows_start(&Dark8::LAYOUT, 3);
    const DRAW: DrawRules = DrawRules {
        repetitions: 4,
        quiet_plies: 80,
        ..DrawRules::REPETITION
    };
    const ASSUMPTIONS: &'static [&'static str] = &["fourth repetition and 40 moves each (80 plies) without a capture or man move draw (FID technical rules as DCTL encodes them); both counts are options"];
    const PDN_GAME_TYPE: Option<u8> = Some(22);
    const SUMMARY: &'static str =
        "Italian draughts: short kings, men cannot take kings, FID precedence";
}

variant!(
    /// Turkish draughts: orthogonal moves, rook-like kings, immediate removal, no 180° turns.
    Turkish
);
impl Rules for Turkish {
    type G = Full8;
    const NAME: &'static str = "turkish";
    const NUMBERING: Numbering = Numbering::Algebraic;
    const ALGEBRAIC_OUTPUT: bool = true;
    const MAN_STEPS: [DirSet; 2] = per_color(DirSet::of(&[N, E, W]));
    const MAN_JUMPS: [DirSet; 2] = per_color(DirSet::of(&[N, E, W]));
    const KING_STEPS: DirSet = DirSet::ORTHOGONAL;
    const KING_JUMPS: DirSet = DirSet::ORTHOGONAL;
    const FLYING_KINGS: bool = true;
    const REMOVAL: Removal = Removal::Immediate;
    const NO_REVERSE: bool = true;
    const PROMOTION: Promotion = Promotion::EndOfMove;
    const PRECEDENCE: Precedence = Precedence::Count;
    const START_MEN: [u128; 2] = [
        Full8::LAYOUT.ranks_mask(1, 3),
        Full8::LAYOUT.ranks_mask(5, 7),
    ];
    const DRAW: DrawRules = DrawRules {
        lone: Lone::PieceEach,
        ..DrawRules::REPETITION
    };
    const PDN_GAME_TYPE: Option<u8> = Some(30);
    const SUMMARY: &'static str =
        "Turkish draughts: orthogonal men and flying kings, majority capture, immediate removal";
}

variant!(
    /// Turkish draughts with the option that a man crowned mid-capture goes on as a king.
    TurkishCrownContinues
);
impl Rules for TurkishCrownContinues {
    type G = Full8;
    const NAME: &'static str = "turkish";
    const NUMBERING: Numbering = Numbering::Algebraic;
    const ALGEBRAIC_OUTPUT: bool = true;
    const MAN_STEPS: [DirSet; 2] = Turkish::MAN_STEPS;
    const MAN_JUMPS: [DirSet; 2] = Turkish::MAN_JUMPS;
    const KING_STEPS: DirSet = DirSet::ORTHOGONAL;
    const KING_JUMPS: DirSet = DirSet::ORTHOGONAL;
    const FLYING_KINGS: bool = true;
    const REMOVAL: Removal = Removal::Immediate;
    const NO_REVERSE: bool = true;
    const PROMOTION: Promotion = Promotion::Continue;
    const PRECEDENCE: Precedence = Precedence::Count;
    const START_MEN: [u128; 2] = Turkish::START_MEN;
    const DRAW: DrawRules = DrawRules {
        lone: Lone::PieceEach,
        ..DrawRules::REPETITION
    };
    const PDN_GAME_TYPE: Option<u8> = Some(30);
    const SUMMARY: &'static str = "Turkish draughts, a man crowned mid-capture continues as a king";
}

variant!(
    /// Gothic checkers (BrainKing): all 64 squares, men step and jump in five directions,
    /// short kings in eight.
    Gothic
);
impl Rules for Gothic {
    type G = Full8;
    const NAME: &'static str = "gothic";
    const NUMBERING: Numbering = Numbering::Algebraic;
    const ALGEBRAIC_OUTPUT: bool = true;
    const MAN_STEPS: [DirSet; 2] = per_color(DirSet::of(&[N, NE, E, W, NW]));
    const MAN_JUMPS: [DirSet; 2] = Self::MAN_STEPS;
    const KING_STEPS: DirSet = DirSet::ALL;
    const KING_JUMPS: DirSet = DirSet::ALL;
    const FLYING_KINGS: bool = false;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::Free;
    const START_MEN: [u128; 2] = rows_start(&Full8::LAYOUT, 2);
    const ASSUMPTIONS: &'static [&'static str] = &[
        "White moves first (BrainKing does not say; the German sources have White start)",
        "delayed removal, each piece jumped once (BrainKing does not state the removal timing)",
    ];
    const SUMMARY: &'static str =
        "Gothic checkers: 64 squares, men in five directions, short kings in eight, free choice";
}

variant!(
    /// Dameo (Freeling): orthogonal captures, queen-like kings, linear moves of men.
    Dameo
);
impl Rules for Dameo {
    type G = Full8;
    const NAME: &'static str = "dameo";
    const NUMBERING: Numbering = Numbering::Algebraic;
    const ALGEBRAIC_OUTPUT: bool = true;
    const MAN_STEPS: [DirSet; 2] = per_color(DirSet::of(&[N, NE, NW]));
    const MAN_JUMPS: [DirSet; 2] = [DirSet::ORTHOGONAL, DirSet::ORTHOGONAL];
    const KING_STEPS: DirSet = DirSet::ALL;
    const KING_JUMPS: DirSet = DirSet::ORTHOGONAL;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::EndOfMove;
    const PRECEDENCE: Precedence = Precedence::Count;
    const LINE_MOVES: bool = true;
    const START_MEN: [u128; 2] = [
        Full8::LAYOUT.named(b"a1 b1 c1 d1 e1 f1 g1 h1 b2 c2 d2 e2 f2 g2 c3 d3 e3 f3"),
        Full8::LAYOUT.named(b"a8 b8 c8 d8 e8 f8 g8 h8 b7 c7 d7 e7 f7 g7 c6 d6 e6 f6"),
    ];
    const SUMMARY: &'static str =
        "Dameo: linear moves of men, orthogonal captures, queen-like kings, majority capture";
}

variant!(
    /// Hawaiian checkers (Konane): a full board, two opening removals, then captures only.
    Hawaiian
);
impl Rules for Hawaiian {
    type G = Full8;
    const NAME: &'static str = "hawaiian";
    const NUMBERING: Numbering = Numbering::Algebraic;
    const ALGEBRAIC_OUTPUT: bool = true;
    const FIRST: Color = Color::Black;
    const MAN_STEPS: [DirSet; 2] = [DirSet::NONE, DirSet::NONE];
    const MAN_JUMPS: [DirSet; 2] = [DirSet::ORTHOGONAL, DirSet::ORTHOGONAL];
    const KING_STEPS: DirSet = DirSet::NONE;
    const KING_JUMPS: DirSet = DirSet::NONE;
    const FLYING_KINGS: bool = false;
    const REMOVAL: Removal = Removal::Immediate;
    const PROMOTION: Promotion = Promotion::Never;
    const PRECEDENCE: Precedence = Precedence::Free;
    const STRAIGHT_OPTIONAL_SEQUENCES: bool = true;
    const OPENING_REMOVALS: bool = true;
    const QUIESCENCE_CAPTURES: bool = false;
    const FIRST_REMOVALS: u128 = Full8::LAYOUT.named(b"a8 h1 d5 e4");
    const START_MEN: [u128; 2] = [checkered(&Full8::LAYOUT, 0), checkered(&Full8::LAYOUT, 1)];
    const DRAW: DrawRules = DrawRules::NONE;
    const SUMMARY: &'static str =
        "Hawaiian checkers (Konane): full board, two opening removals, straight orthogonal jumps only";
}

variant!(
    /// Alquerque (BrainKing): 5×5 points, no promotion, later jumps in any direction.
    Alquerque
);
impl Rules for Alquerque {
    type G = Points5;
    const NAME: &'static str = "alquerque";
    const NUMBERING: Numbering = Numbering::Algebraic;
    const ALGEBRAIC_OUTPUT: bool = true;
    const MAN_STEPS: [DirSet; 2] = per_color(DirSet::of(&[N, NE, E, W, NW]));
    const MAN_JUMPS: [DirSet; 2] = Self::MAN_STEPS;
    const MAN_LATER_JUMPS: [DirSet; 2] = [DirSet::ALL, DirSet::ALL];
    const KING_STEPS: DirSet = DirSet::NONE;
    const KING_JUMPS: DirSet = DirSet::NONE;
    const FLYING_KINGS: bool = false;
    const REMOVAL: Removal = Removal::Immediate;
    const PROMOTION: Promotion = Promotion::Never;
    const PRECEDENCE: Precedence = Precedence::Free;
    const FAR_RANK_FROZEN: bool = true;
    const START_MEN: [u128; 2] = [
        Points5::LAYOUT.named(b"a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 d3 e3"),
        Points5::LAYOUT.named(b"a4 b4 c4 d4 e4 a5 b5 c5 d5 e5 a3 b3"),
    ];
    const ASSUMPTIONS: &'static [&'static str] = &[
        "standard Alquerque setup (BrainKing shows it only as a picture): White rows 1-2 plus d3 e3",
        "White moves first (BrainKing's statistics list White first)",
        "third repetition draws (BrainKing records draws but states no rule)",
        "immediate removal of jumped pieces (as BrainKing's page shows)",
    ];
    const SUMMARY: &'static str =
        "Alquerque: 5x5 points, no promotion, first jump forward or sideways, later jumps any way";
}

variant!(
    /// Corner checkers: Czech rules, promotion only on the two squares of the far-left corner.
    Corner
);
impl Rules for Corner {
    type G = Dark8;
    const NAME: &'static str = "corner";
    const NUMBERING: Numbering = Numbering::TopDown;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::KingFirst;
    const PROMOTION_SQUARES: [u128; 2] =
        [Dark8::LAYOUT.named(b"a7 b8"), Dark8::LAYOUT.named(b"g1 h2")];
    /// UNVERIFIED (RULES.md C4): each side fills the twelve dark squares nearest its
    /// right-hand corner.
    const START_MEN: [u128; 2] = [
        Dark8::LAYOUT.named(b"g1 h2 e1 f2 g3 h4 c1 d2 e3 f4 g5 h6"),
        Dark8::LAYOUT.named(b"b8 a7 d8 c7 b6 a5 f8 e7 d6 c5 b4 a3"),
    ];
    const ASSUMPTIONS: &'static [&'static str] = &[
        "UNVERIFIED start: each side's 12 men on the dark squares nearest its right-hand corner (White g1 h2 e1 f2 g3 h4 c1 d2 e3 f4 g5 h6)",
        "White moves first",
        "a man on the far rank outside a7/b8 (g1/h2 for Black) is frozen",
    ];
    const SUMMARY: &'static str =
        "Corner checkers: Czech rules, men crown only on a7/b8 (Black g1/h2)";
}

variant!(
    /// One-way checkers: Czech rules with both colours moving and crowning towards rank 8.
    OneWay
);
impl Rules for OneWay {
    type G = Dark8;
    const NAME: &'static str = "one-way";
    const NUMBERING: Numbering = Numbering::TopDown;
    const MAN_STEPS: [DirSet; 2] = [DirSet::of(&[NE, NW]), DirSet::of(&[NE, NW])];
    const MAN_JUMPS: [DirSet; 2] = Self::MAN_STEPS;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::KingFirst;
    const PROMOTION_SQUARES: [u128; 2] = [Dark8::LAYOUT.rank_mask(7), Dark8::LAYOUT.rank_mask(7)];
    /// UNVERIFIED (RULES.md C5): White on ranks 1-3, Black on ranks 4-6.
    const START_MEN: [u128; 2] = [
        Dark8::LAYOUT.ranks_mask(0, 3),
        Dark8::LAYOUT.ranks_mask(3, 6),
    ];
    const ASSUMPTIONS: &'static [&'static str] = &[
        "UNVERIFIED: men of both colours step and capture towards rank 8 and crown there",
        "UNVERIFIED start: White on ranks 1-3, Black on ranks 4-6 (BrainKing shows it only as a picture); with it White has no move and loses at once",
        "White moves first",
    ];
    const SUMMARY: &'static str =
        "One-way checkers: Czech rules, both colours move and crown towards rank 8";
}

variant!(
    /// Parachute checkers: Czech rules plus parachutists that only capture, then become men.
    Parachute
);
impl Rules for Parachute {
    type G = Dark8;
    const NAME: &'static str = "parachute";
    const NUMBERING: Numbering = Numbering::TopDown;
    const MAN_STEPS: [DirSet; 2] = FORWARD_DIAG;
    const MAN_JUMPS: [DirSet; 2] = FORWARD_DIAG;
    const FLYING_KINGS: bool = true;
    const PROMOTION: Promotion = Promotion::Stop;
    const PRECEDENCE: Precedence = Precedence::KingFirst;
    const PARACHUTISTS: bool = true;
    /// UNVERIFIED (RULES.md C6): the move ends after the parachutist's jump.
    const PARACHUTE_CONTINUES: bool = false;
    const START_MEN: [u128; 2] = [
        Dark8::LAYOUT.named(b"b2 d2 f2 h2 a3 c3 e3 g3"),
        Dark8::LAYOUT.named(b"a7 c7 e7 g7 b6 d6 f6 h6"),
    ];
    const START_PARACHUTISTS: [u128; 2] = [
        Dark8::LAYOUT.named(b"b8 d8 f8 h8"),
        Dark8::LAYOUT.named(b"a1 c1 e1 g1"),
    ];
    const ASSUMPTIONS: &'static [&'static str] = &[
        "UNVERIFIED: a parachutist's move ends after its one jump (the new man does not go on capturing)",
        "men on the 2nd and 3rd rows (checkerschest; BrainKing shows the setup only as a picture)",
        "parachutist captures rank with men's: a queen capture, if any, comes first",
        "White moves first",
    ];
    const SUMMARY: &'static str =
        "Parachute checkers: Czech rules plus parachutists that capture once, then become men";
}
