//! The families and the variants: each states only what differs from the set it is built on.

use super::*;
use crate::core::color::Color;

/// A variant with no options: a geometry and a rule set.
macro_rules! rules {
    ($(#[$m:meta])* $name:ident on $g:ty = $set:expr) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl Rules for $name {
            type G = $g;
            const SET: RuleSet = $set;
        }
    };
}

/// The English family: short kings, men forward only, Black moves first.
pub const ENGLISH: RuleSet = RuleSet {
    first: Color::Black,
    ..BASE
};

/// The Czech family: flying kings, men step and capture forward, a king must capture
/// when it can.
pub const CZECH: RuleSet = RuleSet {
    flying_kings: true,
    precedence: Precedence::KingFirst,
    ..BASE
};

/// The International family: flying kings, men capture backwards too, the longest
/// capture is compulsory, a man passing the crowning row mid-capture stays a man.
pub const INTERNATIONAL: RuleSet = RuleSet {
    man_jumps: ALL_DIAG,
    flying_kings: true,
    promotion: Promotion::EndOfMove,
    precedence: Precedence::Count,
    ..BASE
};

/// Games on every square of the board (or on points): squares are written algebraically.
pub const FULL_BOARD: RuleSet = RuleSet {
    numbering: Numbering::Algebraic,
    algebraic_output: true,
    ..BASE
};

/// English/American checkers (seed 000). `MANDATORY_CAPTURE` is the seed's table option
/// "mandatory capture" (on by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnglishRules<const MANDATORY_CAPTURE: bool>;
/// English checkers with its options at their defaults.
pub type English = EnglishRules<true>;
impl<const MANDATORY_CAPTURE: bool> Rules for EnglishRules<MANDATORY_CAPTURE> {
    type G = Dark8;
    const SET: RuleSet = RuleSet {
        name: "english",
        summary: if MANDATORY_CAPTURE {
            "English/American checkers: short kings, men forward only, free choice of capture"
        } else {
            "English checkers, capture optional at the start of a turn"
        },
        mandatory_capture: MANDATORY_CAPTURE,
        // 40 moves (both sides) without a capture or a man move draw.
        draw: DrawRules {
            quiet_plies: 40,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(21),
        ..ENGLISH
    };
}

rules!(
    /// Giveaway checkers: English moves, the side left without a move wins.
    AntiEnglish on Dark8 = RuleSet {
        name: "anti-english",
        summary: "Giveaway checkers: English moves, the side without a move wins",
        loser_wins: true,
        ..ENGLISH
    }
);

rules!(
    /// Italian draughts: short kings, men may not take kings, the FID precedence chain.
    Italian on Dark8 = RuleSet {
        name: "italian",
        summary: "Italian draughts: short kings, men cannot take kings, FID precedence",
        numbering: Numbering::Italian,
        first: Color::White,
        precedence: Precedence::Italian,
        men_capture_kings: false,
        // Fourth repetition; 40 moves each without a capture or a man move.
        draw: DrawRules {
            repetitions: 4,
            quiet_plies: 80,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(22),
        assumptions: &["fourth repetition and 40 moves each (80 plies) without a capture or man move draw (FID technical rules as DCTL encodes them); both counts are options"],
        ..ENGLISH
    }
);

rules!(
    /// Czech draughts: flying kings, men capture forward, a king must capture if it can.
    Czech on Dark8 = RuleSet {
        name: "czech",
        summary: "Czech draughts: flying kings, men capture forward, kings capture first",
        draw: DrawRules {
            quiet_plies: 30,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(29),
        assumptions: &["draw after 15 moves by each side (30 plies) without a capture or man move (the rule text does not say whether per side)"],
        ..CZECH
    }
);

rules!(
    /// Thai draughts (Mak-hot): kings land directly behind, immediate removal.
    Thai on Dark8 = RuleSet {
        name: "thai",
        summary: "Thai draughts: 8 men, kings land right behind the victim, immediate removal",
        landing: Landing::DirectlyBehind,
        removal: Removal::Immediate,
        precedence: Precedence::Free,
        start: StartMen::Rows(2),
        pdn_game_type: Some(31),
        ..CZECH
    }
);

rules!(
    /// Portuguese draughts: mirrored board, flying kings, most pieces then most kings.
    Portuguese on Dark8 = RuleSet {
        name: "portuguese",
        summary: "Portuguese draughts: flying kings, men forward only, most pieces then most kings",
        numbering: Numbering::Portuguese,
        precedence: Precedence::CountThenKings,
        draw: DrawRules {
            quiet_plies: 40,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(28),
        assumptions: &["limited-moves law read as 20 moves each (40 plies) without a capture or man move"],
        ..CZECH
    }
);

rules!(
    /// Corner checkers: Czech rules, promotion only on the two squares of the far-left corner.
    Corner on Dark8 = RuleSet {
        name: "corner",
        summary: "Corner checkers: Czech rules, men crown only on a7/b8 (Black g1/h2)",
        crowning: Crowning::Named([b"a7 b8", b"g1 h2"]),
        // UNVERIFIED (RULES.md C4): each side fills the twelve dark squares nearest its
        // right-hand corner.
        start: StartMen::Named([
            b"g1 h2 e1 f2 g3 h4 c1 d2 e3 f4 g5 h6",
            b"b8 a7 d8 c7 b6 a5 f8 e7 d6 c5 b4 a3",
        ]),
        assumptions: &[
            "UNVERIFIED start: each side's 12 men on the dark squares nearest its right-hand corner (White g1 h2 e1 f2 g3 h4 c1 d2 e3 f4 g5 h6)",
            "White moves first",
            "a man on the far rank outside a7/b8 (g1/h2 for Black) is frozen",
        ],
        ..CZECH
    }
);

rules!(
    /// One-way checkers: Czech rules with both colours moving and crowning towards rank 8.
    OneWay on Dark8 = RuleSet {
        name: "one-way",
        summary: "One-way checkers: Czech rules, both colours move and crown towards rank 8",
        man_steps: [DirSet::of(&[NE, NW]), DirSet::of(&[NE, NW])],
        man_jumps: [DirSet::of(&[NE, NW]), DirSet::of(&[NE, NW])],
        crowning: Crowning::Named([b"b8 d8 f8 h8", b"b8 d8 f8 h8"]),
        // RULES.md C5: the colours side by side on ranks 1-6, White on files e-h, Black on
        // files a-d (W:W11,12,15,16,19,20,23,24,27,28,31,32:B9,10,13,14,17,18,21,22,25,26,29,30).
        start: StartMen::Named([
            b"e1 g1 f2 h2 e3 g3 f4 h4 e5 g5 f6 h6",
            b"a1 c1 b2 d2 a3 c3 b4 d4 a5 c5 b6 d6",
        ]),
        // UNVERIFIED (RULES.md C5): who moves first; kept here, not inherited.
        first: Color::White,
        assumptions: &[
            "UNVERIFIED: men of both colours step and capture towards rank 8 and crown there",
            "start: the colours side by side on ranks 1-6, White on files e-h, Black on files a-d (RULES.md C5, from the one independent implementation found; BrainKing shows it only as a picture)",
            "UNVERIFIED: White moves first (its opening move is then a forced double capture)",
        ],
        ..CZECH
    }
);

rules!(
    /// Parachute checkers: Czech rules plus parachutists that only capture, then become men.
    Parachute on Dark8 = RuleSet {
        name: "parachute",
        summary: "Parachute checkers: Czech rules plus parachutists that capture once, then become men",
        parachutists: true,
        // UNVERIFIED (RULES.md C6): the move ends after the parachutist's jump.
        parachute_continues: false,
        start: StartMen::Named([b"b2 d2 f2 h2 a3 c3 e3 g3", b"a7 c7 e7 g7 b6 d6 f6 h6"]),
        start_parachutists: Some([b"b8 d8 f8 h8", b"a1 c1 e1 g1"]),
        assumptions: &[
            "UNVERIFIED: a parachutist's move ends after its one jump (the new man does not go on capturing)",
            "men on the 2nd and 3rd rows (checkerschest; BrainKing shows the setup only as a picture)",
            "parachutist captures rank with men's: a queen capture, if any, comes first",
            "White moves first",
        ],
        ..CZECH
    }
);

rules!(
    /// International (FMJD) draughts on 10×10.
    International on Dark10 = RuleSet {
        name: "international",
        summary: "International draughts 10x10: flying kings, majority capture",
        start: StartMen::Rows(4),
        // 25 moves each without a capture or a man move; the FMJD 16/5-move endgames.
        draw: DrawRules {
            quiet_plies: 50,
            endgame: Endgame::Fmjd,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(20),
        ..INTERNATIONAL
    }
);

rules!(
    /// Frisian draughts (KNDB rules, as lidraughts plays them): International moves, and men
    /// and kings also capture along the ranks and files (over the next dark square of the
    /// line); the capture of the highest value is compulsory, a king worth 199 and a man 100
    /// (lidraughts' values: a king counts more than a man, less than two, and two kings more
    /// than three men), a king's capture before a man's of equal value; a king makes at most
    /// three non-capturing moves in a row while its side has men.
    Frisian on Dark10 = RuleSet {
        name: "frisian",
        summary: "Frisian draughts 10x10: captures along ranks and files too, the most valuable capture",
        start: StartMen::Rows(4),
        man_jumps: [DirSet::ALL, DirSet::ALL],
        king_jumps: DirSet::ALL,
        precedence: Precedence::Value { man: 100, king: 199 },
        king_move_limit: 3,
        // Kings only: two against one draw after 7 moves each, one against one after 2.
        draw: DrawRules {
            endgame: Endgame::Frisian,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(40),
        assumptions: &["one king against one draws after 2 moves each even where a capture is forced (the KNDB rule draws at once unless a capture must follow; lidraughts and pydraughts count 2 moves)"],
        ..INTERNATIONAL
    }
);

rules!(
    /// Frysk!: Frisian from five men each on the back rank (lidraughts).
    Frysk on Dark10 = RuleSet {
        name: "frysk",
        summary: "Frysk!: Frisian draughts from five men each on the back rank",
        start: StartMen::Rows(1),
        ..Frisian::SET
    }
);

rules!(
    /// Antidraughts (lidraughts): International moves; the side that cannot move wins.
    Antidraughts on Dark10 = RuleSet {
        name: "antidraughts",
        summary: "Antidraughts 10x10: International moves, the side without a move wins",
        start: StartMen::Rows(4),
        loser_wins: true,
        ..INTERNATIONAL
    }
);

rules!(
    /// Breakthrough (lidraughts): International moves; the first side to crown a man wins.
    Breakthrough on Dark10 = RuleSet {
        name: "breakthrough",
        summary: "Breakthrough 10x10: International moves, the first king wins",
        start: StartMen::Rows(4),
        crowning_wins: true,
        // Men only ever advance and a crowning ends the game: no position repeats.
        draw: DrawRules::NONE,
        ..INTERNATIONAL
    }
);

rules!(
    /// Killer draughts (Christian Freeling; as Scan 3.1 plays it): International, except
    /// that a king whose capture ends by taking a king stops directly behind it.
    Killer on Dark10 = RuleSet {
        name: "killer",
        summary: "Killer draughts 10x10: International, a king that ends a capture on a king stops behind it",
        start: StartMen::Rows(4),
        landing: Landing::BehindLastKing,
        draw: DrawRules {
            quiet_plies: 50,
            ..DrawRules::REPETITION
        },
        assumptions: &["draws by third repetition and 25 moves each without a capture or man move, without the FMJD 16/5-move endgame counters (the rule makes small king endings winnable)"],
        ..INTERNATIONAL
    }
);

rules!(
    /// Brazilian draughts (seed 002): International rules on 8×8.
    Brazilian on Dark8 = RuleSet {
        name: "brazilian",
        summary: "Brazilian draughts: International rules on 8x8 (majority capture)",
        algebraic_output: true,
        // One king against one king is drawn at once.
        draw: DrawRules {
            lone: Lone::KingEach,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(26),
        ..INTERNATIONAL
    }
);

rules!(
    /// Canadian draughts: International rules on 12×12.
    Canadian on Dark12 = RuleSet {
        name: "canadian",
        summary: "Canadian draughts 12x12: International rules, 30 men each",
        start: StartMen::Rows(5),
        draw: DrawRules {
            endgame: Endgame::Fmjd,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(27),
        assumptions: &["FMJD endgame counters (16 and 5 moves each) applied by analogy; no 25-move rule"],
        ..INTERNATIONAL
    }
);

rules!(
    /// Russian draughts: men capture backwards, a man crowned mid-capture goes on as a king.
    Russian on Dark8 = RuleSet {
        name: "russian",
        summary: "Russian draughts: flying kings, free choice, crowned men capture on as kings",
        algebraic_output: true,
        promotion: Promotion::Continue,
        precedence: Precedence::Free,
        draw: DrawRules {
            quiet_plies: 30,
            endgame: Endgame::Russian,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(25),
        assumptions: &["draw counters as implemented in pydraughts (15 moves each of king moves; endgame limits 5/15/30/60 moves each)"],
        ..INTERNATIONAL
    }
);

/// Turkish draughts: orthogonal moves, rook-like kings, immediate removal, no 180° turns.
/// `CROWN_CONTINUES` is the option that a man crowned mid-capture goes on as a king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurkishRules<const CROWN_CONTINUES: bool>;
/// Turkish draughts with its options at their defaults.
pub type Turkish = TurkishRules<false>;
impl<const CROWN_CONTINUES: bool> Rules for TurkishRules<CROWN_CONTINUES> {
    type G = Full8;
    const SET: RuleSet = RuleSet {
        name: "turkish",
        summary: if CROWN_CONTINUES {
            "Turkish draughts, a man crowned mid-capture continues as a king"
        } else {
            "Turkish draughts: orthogonal men and flying kings, majority capture, immediate removal"
        },
        man_steps: per_color(DirSet::of(&[N, E, W])),
        man_jumps: per_color(DirSet::of(&[N, E, W])),
        king_steps: DirSet::ORTHOGONAL,
        king_jumps: DirSet::ORTHOGONAL,
        flying_kings: true,
        removal: Removal::Immediate,
        no_reverse: true,
        promotion: if CROWN_CONTINUES {
            Promotion::Continue
        } else {
            Promotion::EndOfMove
        },
        precedence: Precedence::Count,
        start: StartMen::Ranks([(1, 3), (5, 7)]),
        // One piece against one piece is drawn at once.
        draw: DrawRules {
            lone: Lone::PieceEach,
            ..DrawRules::REPETITION
        },
        pdn_game_type: Some(30),
        ..FULL_BOARD
    };
}

rules!(
    /// Gothic checkers (BrainKing): all 64 squares, men step and jump in five directions,
    /// short kings in eight.
    Gothic on Full8 = RuleSet {
        name: "gothic",
        summary: "Gothic checkers: 64 squares, men in five directions, short kings in eight, free choice",
        man_steps: per_color(DirSet::of(&[N, NE, E, W, NW])),
        man_jumps: per_color(DirSet::of(&[N, NE, E, W, NW])),
        king_steps: DirSet::ALL,
        king_jumps: DirSet::ALL,
        start: StartMen::Rows(2),
        assumptions: &[
            "White moves first (BrainKing does not say; the German sources have White start)",
            "delayed removal, each piece jumped once (BrainKing does not state the removal timing)",
        ],
        ..FULL_BOARD
    }
);

rules!(
    /// Dameo (Freeling): orthogonal captures, queen-like kings, linear moves of men.
    Dameo on Full8 = RuleSet {
        name: "dameo",
        summary: "Dameo: linear moves of men, orthogonal captures, queen-like kings, majority capture",
        man_steps: per_color(DirSet::of(&[N, NE, NW])),
        man_jumps: [DirSet::ORTHOGONAL, DirSet::ORTHOGONAL],
        king_steps: DirSet::ALL,
        king_jumps: DirSet::ORTHOGONAL,
        flying_kings: true,
        promotion: Promotion::EndOfMove,
        precedence: Precedence::Count,
        line_moves: true,
        start: StartMen::Named([
            b"a1 b1 c1 d1 e1 f1 g1 h1 b2 c2 d2 e2 f2 g2 c3 d3 e3 f3",
            b"a8 b8 c8 d8 e8 f8 g8 h8 b7 c7 d7 e7 f7 g7 c6 d6 e6 f6",
        ]),
        ..FULL_BOARD
    }
);

rules!(
    /// Hawaiian checkers (Konane): a full board, two opening removals, then captures only.
    Hawaiian on Full8 = RuleSet {
        name: "hawaiian",
        summary: "Hawaiian checkers (Konane): full board, two opening removals, straight orthogonal jumps only",
        first: Color::Black,
        man_steps: [DirSet::NONE, DirSet::NONE],
        man_jumps: [DirSet::ORTHOGONAL, DirSet::ORTHOGONAL],
        king_steps: DirSet::NONE,
        king_jumps: DirSet::NONE,
        removal: Removal::Immediate,
        promotion: Promotion::Never,
        straight_optional_sequences: true,
        opening_removals: true,
        first_removals: b"a8 h1 d5 e4",
        quiescence_captures: false,
        start: StartMen::Checkered,
        draw: DrawRules::NONE,
        ..FULL_BOARD
    }
);

rules!(
    /// Alquerque (BrainKing): 5×5 points, no promotion, later jumps in any direction.
    Alquerque on Points5 = RuleSet {
        name: "alquerque",
        summary: "Alquerque: 5x5 points, no promotion, first jump forward or sideways, later jumps any way",
        man_steps: per_color(DirSet::of(&[N, NE, E, W, NW])),
        man_jumps: per_color(DirSet::of(&[N, NE, E, W, NW])),
        man_later_jumps: Some([DirSet::ALL, DirSet::ALL]),
        king_steps: DirSet::NONE,
        king_jumps: DirSet::NONE,
        removal: Removal::Immediate,
        promotion: Promotion::Never,
        far_rank_frozen: true,
        start: StartMen::Named([
            b"a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 d3 e3",
            b"a4 b4 c4 d4 e4 a5 b5 c5 d5 e5 a3 b3",
        ]),
        assumptions: &[
            "standard Alquerque setup (BrainKing shows it only as a picture): White rows 1-2 plus d3 e3",
            "White moves first (BrainKing's statistics list White first)",
            "third repetition draws (BrainKing records draws but states no rule)",
            "immediate removal of jumped pieces (as BrainKing's page shows)",
        ],
        ..FULL_BOARD
    }
);
