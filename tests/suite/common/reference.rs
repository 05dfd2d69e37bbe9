//! Deliberately simple reference move generator for differential testing.
//!
//! Written from the rules reference (RULES.md) only. Squares are plain `(file, rank)`
//! pairs (0-based, file 0 = 'a', rank 0 = White's edge); the board is a plain
//! grid rebuilt for every call. No bitboards, no speed tricks.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum RefColor {
    White,
    Black,
}

impl RefColor {
    pub fn other(self) -> RefColor {
        match self {
            RefColor::White => RefColor::Black,
            RefColor::Black => RefColor::White,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum RefKind {
    Man,
    King,
    Parachutist,
}

/// (file, rank), 0-based.
pub type Sq = (u8, u8);

#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct RefPos {
    pub variant: String,
    pub to_move: RefColor,
    pub pieces: BTreeMap<Sq, (RefColor, RefKind)>,
}

#[derive(Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct RefMove {
    pub from: Sq,
    pub to: Sq,
    /// Captured squares in capture order.
    pub captured: Vec<Sq>,
    pub promotes: bool,
}

// ---------------------------------------------------------------------------
// Variant description
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum V {
    English,
    AntiEnglish,
    EnglishFree,
    Czech,
    Russian,
    Brazilian,
    International,
    Canadian,
    Thai,
    Portuguese,
    Italian,
    Turkish,
    Gothic,
    Dameo,
    Hawaiian,
    Alquerque,
    Corner,
    OneWay,
    Parachute,
    Killer,
}

const NAMES: &[&str] = &[
    "english",
    "anti-english",
    "english-free",
    "czech",
    "russian",
    "brazilian",
    "international",
    "canadian",
    "thai",
    "portuguese",
    "italian",
    "turkish",
    "gothic",
    "dameo",
    "hawaiian",
    "alquerque",
    "corner",
    "one-way",
    "parachute",
    "killer",
];

const ALL_V: &[V] = &[
    V::English,
    V::AntiEnglish,
    V::EnglishFree,
    V::Czech,
    V::Russian,
    V::Brazilian,
    V::International,
    V::Canadian,
    V::Thai,
    V::Portuguese,
    V::Italian,
    V::Turkish,
    V::Gothic,
    V::Dameo,
    V::Hawaiian,
    V::Alquerque,
    V::Corner,
    V::OneWay,
    V::Parachute,
    V::Killer,
];

pub fn variants() -> &'static [&'static str] {
    NAMES
}

fn variant_of(name: &str) -> Option<V> {
    NAMES.iter().position(|n| *n == name).map(|i| ALL_V[i])
}

fn must_variant(name: &str) -> V {
    variant_of(name).unwrap_or_else(|| panic!("unknown variant {name}"))
}

type Dir = (i8, i8);
type P = (i8, i8);

const DIAG4: &[Dir] = &[(1, 1), (-1, 1), (1, -1), (-1, -1)];
const ORTH4: &[Dir] = &[(0, 1), (0, -1), (1, 0), (-1, 0)];
const ALL8: &[Dir] = &[
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// Board width and height.
fn size(v: V) -> (i8, i8) {
    match v {
        V::International | V::Killer => (10, 10),
        V::Canadian => (12, 12),
        V::Alquerque => (5, 5),
        _ => (8, 8),
    }
}

/// Whether a square is used by the variant.
fn playable(v: V, (f, r): P) -> bool {
    match v {
        V::Turkish | V::Gothic | V::Dameo | V::Hawaiian | V::Alquerque => true,
        V::Italian | V::Portuguese => (f + r) % 2 == 1,
        _ => (f + r) % 2 == 0,
    }
}

/// Rank direction in which `c`'s men move.
fn fwd(v: V, c: RefColor) -> i8 {
    if v == V::OneWay {
        return 1;
    }
    match c {
        RefColor::White => 1,
        RefColor::Black => -1,
    }
}

fn promo_sq(v: V, c: RefColor, (f, r): P) -> bool {
    let (_, h) = size(v);
    match v {
        V::Hawaiian | V::Alquerque => false,
        V::Corner => match c {
            RefColor::White => (f, r) == (0, 6) || (f, r) == (1, 7),
            RefColor::Black => (f, r) == (6, 0) || (f, r) == (7, 1),
        },
        _ => {
            if fwd(v, c) > 0 {
                r == h - 1
            } else {
                r == 0
            }
        }
    }
}

fn far_row(v: V, c: RefColor, r: i8) -> bool {
    let (_, h) = size(v);
    if fwd(v, c) > 0 {
        r == h - 1
    } else {
        r == 0
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Timing {
    /// Reaching the promotion square crowns and ends the move.
    Stop,
    /// Crowned at once; goes on capturing as a king.
    Continue,
    /// Crowned only if the move ends on the promotion row.
    End,
}

fn timing(v: V) -> Timing {
    match v {
        V::Russian => Timing::Continue,
        V::Brazilian | V::International | V::Killer | V::Canadian | V::Dameo | V::Turkish => {
            Timing::End
        }
        _ => Timing::Stop,
    }
}

fn immediate_removal(v: V) -> bool {
    matches!(v, V::Turkish | V::Thai | V::Hawaiian | V::Alquerque)
}

fn no_reversal(v: V) -> bool {
    // Turkish explicitly; Portuguese states it too (moot with delayed removal).
    matches!(v, V::Turkish | V::Portuguese)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prec {
    Free,
    Quantity,
    QuantityKings,
    Italian,
    KingFirst,
}

fn precedence(v: V) -> Prec {
    match v {
        V::Brazilian | V::International | V::Killer | V::Canadian | V::Turkish | V::Dameo => {
            Prec::Quantity
        }
        V::Portuguese => Prec::QuantityKings,
        V::Italian => Prec::Italian,
        V::Czech | V::Corner | V::OneWay | V::Parachute => Prec::KingFirst,
        _ => Prec::Free,
    }
}

enum KingType {
    Short(&'static [Dir]),
    Flying {
        moves: &'static [Dir],
        caps: &'static [Dir],
        land_behind: bool,
    },
}

fn king_type(v: V) -> KingType {
    match v {
        V::English | V::AntiEnglish | V::EnglishFree | V::Italian => KingType::Short(DIAG4),
        V::Gothic => KingType::Short(ALL8),
        V::Hawaiian | V::Alquerque => KingType::Short(&[]),
        V::Turkish => KingType::Flying {
            moves: ORTH4,
            caps: ORTH4,
            land_behind: false,
        },
        V::Dameo => KingType::Flying {
            moves: ALL8,
            caps: ORTH4,
            land_behind: false,
        },
        V::Thai => KingType::Flying {
            moves: DIAG4,
            caps: DIAG4,
            land_behind: true,
        },
        _ => KingType::Flying {
            moves: DIAG4,
            caps: DIAG4,
            land_behind: false,
        },
    }
}

/// Directions of a man's plain step (Dameo: directions of linear moves).
fn man_step_dirs(v: V, c: RefColor) -> Vec<Dir> {
    let f = fwd(v, c);
    match v {
        V::Gothic | V::Alquerque => vec![(0, f), (-1, f), (1, f), (-1, 0), (1, 0)],
        V::Turkish => vec![(0, f), (-1, 0), (1, 0)],
        V::Dameo => vec![(0, f), (-1, f), (1, f)],
        V::Hawaiian => vec![],
        _ => vec![(-1, f), (1, f)],
    }
}

/// Directions of a man's capture; `first` = first jump of the sequence.
fn man_cap_dirs(v: V, c: RefColor, first: bool) -> Vec<Dir> {
    let f = fwd(v, c);
    match v {
        V::Russian | V::Brazilian | V::International | V::Killer | V::Canadian => DIAG4.to_vec(),
        V::Gothic => vec![(0, f), (-1, f), (1, f), (-1, 0), (1, 0)],
        V::Alquerque => {
            if first {
                vec![(0, f), (-1, f), (1, f), (-1, 0), (1, 0)]
            } else {
                ALL8.to_vec()
            }
        }
        V::Turkish => vec![(0, f), (-1, 0), (1, 0)],
        V::Dameo | V::Hawaiian => ORTH4.to_vec(),
        _ => vec![(-1, f), (1, f)],
    }
}

/// Alquerque: a step along `d` from `p` follows a line of the board.
fn on_line(v: V, p: P, d: Dir) -> bool {
    if v != V::Alquerque || d.0 == 0 || d.1 == 0 {
        return true;
    }
    (p.0 + p.1) % 2 == 0
}

// ---------------------------------------------------------------------------
// Grid
// ---------------------------------------------------------------------------

type Piece = (RefColor, RefKind);

#[derive(Clone)]
struct Grid {
    w: i8,
    h: i8,
    cells: Vec<Option<Piece>>,
}

impl Grid {
    fn new(pos: &RefPos, v: V) -> Grid {
        let (w, h) = size(v);
        let mut g = Grid {
            w,
            h,
            cells: vec![None; (w as usize) * (h as usize)],
        };
        for (&(f, r), &p) in &pos.pieces {
            g.set((f as i8, r as i8), Some(p));
        }
        g
    }
    fn on(&self, (f, r): P) -> bool {
        f >= 0 && r >= 0 && f < self.w && r < self.h
    }
    fn idx(&self, (f, r): P) -> usize {
        (r as usize) * (self.w as usize) + (f as usize)
    }
    fn get(&self, p: P) -> Option<Piece> {
        if self.on(p) {
            self.cells[self.idx(p)]
        } else {
            None
        }
    }
    fn empty(&self, p: P) -> bool {
        self.on(p) && self.get(p).is_none()
    }
    fn set(&mut self, p: P, v: Option<Piece>) {
        let i = self.idx(p);
        self.cells[i] = v;
    }
}

fn add(p: P, d: Dir) -> P {
    (p.0 + d.0, p.1 + d.1)
}

fn sq(p: P) -> Sq {
    (p.0 as u8, p.1 as u8)
}

fn pt(s: Sq) -> P {
    (s.0 as i8, s.1 as i8)
}

// ---------------------------------------------------------------------------
// Capture search
// ---------------------------------------------------------------------------

struct Jump {
    dir: Dir,
    victim: P,
    landings: Vec<P>,
}

struct Search {
    v: V,
    color: RefColor,
    origin: P,
    grid: Grid,
    /// Captured pieces so far, in order (with delayed removal they stay on
    /// the grid as blockers).
    taken: Vec<P>,
    out: Vec<RefMove>,
}

impl Search {
    fn can_take(&self, p: P, mover: RefKind) -> bool {
        match self.grid.get(p) {
            Some((c, k)) if c != self.color => {
                if self.taken.contains(&p) {
                    return false;
                }
                // Italian men may not capture kings.
                !(self.v == V::Italian && mover == RefKind::Man && k == RefKind::King)
            }
            _ => false,
        }
    }

    fn jumps(&self, cur: P, kind: RefKind, last: Option<Dir>, first: bool) -> Vec<Jump> {
        let v = self.v;
        let mut res = Vec::new();
        let reversal = |d: Dir| no_reversal(v) && last == Some((-d.0, -d.1));
        let short = |dirs: &[Dir], res: &mut Vec<Jump>| {
            for &d in dirs {
                if reversal(d) || !on_line(v, cur, d) {
                    continue;
                }
                let victim = add(cur, d);
                let land = add(victim, d);
                if self.can_take(victim, kind) && self.grid.empty(land) {
                    res.push(Jump {
                        dir: d,
                        victim,
                        landings: vec![land],
                    });
                }
            }
        };
        match kind {
            RefKind::Man => short(&man_cap_dirs(v, self.color, first), &mut res),
            RefKind::Parachutist => {
                if first {
                    let b = -fwd(v, self.color);
                    short(&[(-1, b), (1, b)], &mut res);
                }
            }
            RefKind::King => match king_type(v) {
                KingType::Short(dirs) => short(dirs, &mut res),
                KingType::Flying {
                    caps, land_behind, ..
                } => {
                    for &d in caps {
                        if reversal(d) {
                            continue;
                        }
                        let mut s = add(cur, d);
                        while self.grid.empty(s) {
                            s = add(s, d);
                        }
                        if !self.can_take(s, kind) {
                            continue;
                        }
                        let mut landings = Vec::new();
                        let mut t = add(s, d);
                        while self.grid.empty(t) {
                            landings.push(t);
                            if land_behind {
                                break;
                            }
                            t = add(t, d);
                        }
                        if !landings.is_empty() {
                            res.push(Jump {
                                dir: d,
                                victim: s,
                                landings,
                            });
                        }
                    }
                }
            },
        }
        res
    }

    /// State after landing on `l`: (new kind, promoted so far, sequence must stop).
    fn after_landing(&self, kind: RefKind, l: P, promoted: bool) -> (RefKind, bool, bool) {
        match kind {
            RefKind::Parachutist => (RefKind::Man, promoted, true),
            RefKind::Man if promo_sq(self.v, self.color, l) => match timing(self.v) {
                Timing::Stop => (RefKind::King, true, true),
                Timing::Continue => (RefKind::King, true, false),
                Timing::End => (RefKind::Man, promoted, false),
            },
            _ => (kind, promoted, false),
        }
    }

    fn record(&mut self, l: P, kind: RefKind, promoted: bool) {
        let promotes = promoted
            || (timing(self.v) == Timing::End
                && kind == RefKind::Man
                && promo_sq(self.v, self.color, l));
        self.out.push(RefMove {
            from: sq(self.origin),
            to: sq(l),
            captured: self.taken.iter().map(|&p| sq(p)).collect(),
            promotes,
        });
    }

    fn search(&mut self, cur: P, kind: RefKind, last: Option<Dir>, first: bool, promoted: bool) {
        let immediate = immediate_removal(self.v);
        for j in self.jumps(cur, kind, last, first) {
            self.taken.push(j.victim);
            let saved = self.grid.get(j.victim);
            if immediate {
                self.grid.set(j.victim, None);
            }
            let mut conts = Vec::new();
            let mut terms = Vec::new();
            for &l in &j.landings {
                let (nk, np, stop) = self.after_landing(kind, l, promoted);
                if !stop && !self.jumps(l, nk, Some(j.dir), false).is_empty() {
                    conts.push((l, nk, np));
                } else {
                    terms.push((l, nk, np));
                }
            }
            if conts.is_empty() {
                // Killer: a king whose capture ends by taking a king stops right behind it.
                let took_king = matches!(saved, Some((_, RefKind::King)));
                if self.v == V::Killer && kind == RefKind::King && took_king {
                    terms.truncate(1);
                }
                for (l, nk, np) in terms {
                    self.record(l, nk, np);
                }
            } else {
                for (l, nk, np) in conts {
                    self.search(l, nk, Some(j.dir), false, np);
                }
            }
            if immediate {
                self.grid.set(j.victim, saved);
            }
            self.taken.pop();
        }
    }
}

fn captures(pos: &RefPos, v: V) -> Vec<RefMove> {
    let base = Grid::new(pos, v);
    let mut out = Vec::new();
    for (&s, &(c, k)) in &pos.pieces {
        if c != pos.to_move {
            continue;
        }
        let mut grid = base.clone();
        grid.set(pt(s), None); // origin is empty during the sequence
        let mut se = Search {
            v,
            color: c,
            origin: pt(s),
            grid,
            taken: Vec::new(),
            out: Vec::new(),
        };
        se.search(pt(s), k, None, true, false);
        out.extend(se.out);
    }
    apply_precedence(pos, v, out)
}

fn is_king_at(pos: &RefPos, s: Sq) -> bool {
    matches!(pos.pieces.get(&s), Some((_, RefKind::King)))
}

fn apply_precedence(pos: &RefPos, v: V, mut caps: Vec<RefMove>) -> Vec<RefMove> {
    if caps.is_empty() {
        return caps;
    }
    let keep_max = |caps: &mut Vec<RefMove>, key: &dyn Fn(&RefMove) -> usize| {
        let best = caps.iter().map(key).max().unwrap_or(0);
        caps.retain(|m| key(m) == best);
    };
    let kings_taken = |m: &RefMove| m.captured.iter().filter(|&&c| is_king_at(pos, c)).count();
    let by_king = |m: &RefMove| usize::from(is_king_at(pos, m.from));
    match precedence(v) {
        Prec::Free => {}
        Prec::Quantity => keep_max(&mut caps, &|m| m.captured.len()),
        Prec::QuantityKings => {
            keep_max(&mut caps, &|m| m.captured.len());
            keep_max(&mut caps, &kings_taken);
        }
        Prec::KingFirst => keep_max(&mut caps, &by_king),
        Prec::Italian => {
            keep_max(&mut caps, &|m| m.captured.len());
            keep_max(&mut caps, &by_king);
            keep_max(&mut caps, &kings_taken);
            let pattern = |m: &RefMove| -> Vec<bool> {
                m.captured.iter().map(|&c| is_king_at(pos, c)).collect()
            };
            let best = caps.iter().map(pattern).max().unwrap_or_default();
            caps.retain(|m| pattern(m) == best);
        }
    }
    caps
}

// ---------------------------------------------------------------------------
// Plain moves
// ---------------------------------------------------------------------------

fn quiet_moves(pos: &RefPos, v: V) -> Vec<RefMove> {
    let g = Grid::new(pos, v);
    let mut out = Vec::new();
    let mk = |from: P, to: P, promotes: bool| RefMove {
        from: sq(from),
        to: sq(to),
        captured: Vec::new(),
        promotes,
    };
    for (&s, &(c, k)) in &pos.pieces {
        if c != pos.to_move {
            continue;
        }
        let p = pt(s);
        match k {
            RefKind::Parachutist => {}
            RefKind::Man => {
                if v == V::Alquerque && far_row(v, c, p.1) {
                    continue;
                }
                for d in man_step_dirs(v, c) {
                    if !on_line(v, p, d) {
                        continue;
                    }
                    let mut t = add(p, d);
                    if v == V::Dameo {
                        // linear move: jump over an unbroken line of own men
                        while g.get(t) == Some((c, RefKind::Man)) {
                            t = add(t, d);
                        }
                    }
                    if g.empty(t) {
                        out.push(mk(p, t, promo_sq(v, c, t)));
                    }
                }
            }
            RefKind::King => match king_type(v) {
                KingType::Short(dirs) => {
                    for &d in dirs {
                        let t = add(p, d);
                        if g.empty(t) {
                            out.push(mk(p, t, false));
                        }
                    }
                }
                KingType::Flying { moves, .. } => {
                    for &d in moves {
                        let mut t = add(p, d);
                        while g.empty(t) {
                            out.push(mk(p, t, false));
                            t = add(t, d);
                        }
                    }
                }
            },
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Hawaiian (Konane)
// ---------------------------------------------------------------------------

fn hawaiian_moves(pos: &RefPos) -> Vec<RefMove> {
    let v = V::Hawaiian;
    let g = Grid::new(pos, v);
    let me = pos.to_move;
    let removal = |s: Sq| RefMove {
        from: s,
        to: s,
        captured: Vec::new(),
        promotes: false,
    };
    let n = pos.pieces.len();
    if n == 64 && me == RefColor::Black {
        return [(0, 7), (7, 0), (3, 4), (4, 3)]
            .iter()
            .filter(|s| pos.pieces.get(s).map(|p| p.0) == Some(me))
            .map(|&s| removal(s))
            .collect();
    }
    if n == 63 && me == RefColor::White {
        let mut out = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                if g.get((f, r)).is_some() {
                    continue;
                }
                for &d in ORTH4 {
                    let t = add((f, r), d);
                    if g.get(t).map(|p| p.0) == Some(me) {
                        out.push(removal(sq(t)));
                    }
                }
            }
        }
        return out;
    }
    let mut out = Vec::new();
    for (&s, &(c, _)) in &pos.pieces {
        if c != me {
            continue;
        }
        for &d in ORTH4 {
            let mut cur = pt(s);
            let mut taken = Vec::new();
            loop {
                let victim = add(cur, d);
                let land = add(victim, d);
                let enemy = matches!(g.get(victim), Some((vc, _)) if vc != me);
                // the origin is empty once the piece has left it
                let land_free = g.empty(land) || land == pt(s);
                if !(enemy && land_free) {
                    break;
                }
                taken.push(sq(victim));
                cur = land;
                out.push(RefMove {
                    from: s,
                    to: sq(cur),
                    captured: taken.clone(),
                    promotes: false,
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

pub fn legal_moves(pos: &RefPos) -> Vec<RefMove> {
    let v = must_variant(&pos.variant);
    let moves = if v == V::Hawaiian {
        hawaiian_moves(pos)
    } else {
        let caps = captures(pos, v);
        let mandatory = v != V::EnglishFree;
        if mandatory && !caps.is_empty() {
            caps
        } else {
            let mut all = caps;
            all.extend(quiet_moves(pos, v));
            all
        }
    };
    // one entry per distinct (from, to, ordered captured list)
    let set: BTreeSet<RefMove> = moves.into_iter().collect();
    set.into_iter().collect()
}

pub fn play(pos: &RefPos, m: &RefMove) -> RefPos {
    let mut p = pos.clone();
    if m.from == m.to && m.captured.is_empty() {
        // Hawaiian opening removal
        p.pieces.remove(&m.from);
    } else {
        let (c, k) = p
            .pieces
            .remove(&m.from)
            .unwrap_or_else(|| panic!("no piece on {:?}", m.from));
        for s in &m.captured {
            p.pieces.remove(s);
        }
        let nk = if m.promotes {
            RefKind::King
        } else if k == RefKind::Parachutist && !m.captured.is_empty() {
            RefKind::Man
        } else {
            k
        };
        p.pieces.insert(m.to, (c, nk));
    }
    p.to_move = p.to_move.other();
    p
}

fn drop_duplicates(moves: Vec<RefMove>) -> Vec<RefMove> {
    let mut seen = BTreeSet::new();
    moves
        .into_iter()
        .filter(|m| {
            let mut set = m.captured.clone();
            set.sort();
            seen.insert((m.from, m.to, set))
        })
        .collect()
}

pub fn perft(pos: &RefPos, depth: u32, drop: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = legal_moves(pos);
    if drop {
        moves = drop_duplicates(moves);
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(&play(pos, m), depth - 1, drop))
        .sum()
}

// ---------------------------------------------------------------------------
// Start positions
// ---------------------------------------------------------------------------

fn parse_alg(s: &str) -> Option<P> {
    let mut chars = s.chars();
    let file = chars.next()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: i8 = chars.as_str().parse().ok()?;
    Some(((file as u8 - b'a') as i8, rank - 1))
}

pub fn start(variant: &str) -> RefPos {
    let v = must_variant(variant);
    let (w, h) = size(v);
    let mut pieces = BTreeMap::new();
    let rows = |c: RefColor, ranks: std::ops::Range<i8>, pieces: &mut BTreeMap<Sq, Piece>| {
        for r in ranks {
            for f in 0..w {
                if playable(v, (f, r)) {
                    pieces.insert(sq((f, r)), (c, RefKind::Man));
                }
            }
        }
    };
    let list = |c: RefColor, k: RefKind, sqs: &str, pieces: &mut BTreeMap<Sq, Piece>| {
        for s in sqs.split_whitespace() {
            pieces.insert(sq(parse_alg(s).expect("bad square")), (c, k));
        }
    };
    use RefColor::{Black, White};
    use RefKind::{Man, Parachutist};
    match v {
        V::International | V::Killer => {
            rows(White, 0..4, &mut pieces);
            rows(Black, 6..10, &mut pieces);
        }
        V::Canadian => {
            rows(White, 0..5, &mut pieces);
            rows(Black, 7..12, &mut pieces);
        }
        V::Thai | V::Gothic => {
            rows(White, 0..2, &mut pieces);
            rows(Black, 6..8, &mut pieces);
        }
        V::Turkish => {
            rows(White, 1..3, &mut pieces);
            rows(Black, 5..7, &mut pieces);
        }
        V::OneWay => {
            // RULES.md C5: side by side on ranks 1-6, White on files e-h, Black on a-d.
            list(
                White,
                Man,
                "e1 g1 f2 h2 e3 g3 f4 h4 e5 g5 f6 h6",
                &mut pieces,
            );
            list(
                Black,
                Man,
                "a1 c1 b2 d2 a3 c3 b4 d4 a5 c5 b6 d6",
                &mut pieces,
            );
        }
        V::Corner => {
            list(
                White,
                Man,
                "g1 h2 e1 f2 g3 h4 c1 d2 e3 f4 g5 h6",
                &mut pieces,
            );
            list(
                Black,
                Man,
                "b8 a7 d8 c7 b6 a5 f8 e7 d6 c5 b4 a3",
                &mut pieces,
            );
        }
        V::Parachute => {
            list(White, Man, "b2 d2 f2 h2 a3 c3 e3 g3", &mut pieces);
            list(White, Parachutist, "b8 d8 f8 h8", &mut pieces);
            list(Black, Man, "a7 c7 e7 g7 b6 d6 f6 h6", &mut pieces);
            list(Black, Parachutist, "a1 c1 e1 g1", &mut pieces);
        }
        V::Dameo => {
            list(
                White,
                Man,
                "a1 b1 c1 d1 e1 f1 g1 h1 b2 c2 d2 e2 f2 g2 c3 d3 e3 f3",
                &mut pieces,
            );
            list(
                Black,
                Man,
                "a8 b8 c8 d8 e8 f8 g8 h8 b7 c7 d7 e7 f7 g7 c6 d6 e6 f6",
                &mut pieces,
            );
        }
        V::Hawaiian => {
            for r in 0..8 {
                for f in 0..8 {
                    let c = if (f + r) % 2 == 0 { White } else { Black };
                    pieces.insert(sq((f, r)), (c, Man));
                }
            }
        }
        V::Alquerque => {
            list(
                White,
                Man,
                "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 d3 e3",
                &mut pieces,
            );
            list(
                Black,
                Man,
                "a4 b4 c4 d4 e4 a5 b5 c5 d5 e5 a3 b3",
                &mut pieces,
            );
        }
        _ => {
            rows(White, 0..3, &mut pieces);
            rows(Black, h - 3..h, &mut pieces);
        }
    }
    let to_move = match v {
        V::English | V::AntiEnglish | V::EnglishFree | V::Hawaiian => Black,
        _ => White,
    };
    RefPos {
        variant: variant.to_string(),
        to_move,
        pieces,
    }
}

// ---------------------------------------------------------------------------
// FEN
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Numbering {
    /// Dark squares from the top-left (White's view), standard colouring.
    Top,
    /// Italian FID: same reading order on the mirrored board.
    Fid,
    /// Portuguese FPD: 33 - FID.
    Fpd,
    None,
}

fn numbering(v: V) -> Numbering {
    match v {
        V::Italian => Numbering::Fid,
        V::Portuguese => Numbering::Fpd,
        V::Turkish | V::Gothic | V::Dameo | V::Hawaiian | V::Alquerque => Numbering::None,
        _ => Numbering::Top,
    }
}

/// Square of a PDN number in the variant's own numbering.
pub fn square_of_number(variant: &str, n: u32) -> Option<Sq> {
    let v = variant_of(variant)?;
    num_to_sq(v, n).map(sq)
}

fn num_to_sq(v: V, n: u32) -> Option<P> {
    let (w, h) = size(v);
    let per = (w / 2) as u32;
    let total = per * h as u32;
    if n == 0 || n > total {
        return None;
    }
    let n = match numbering(v) {
        Numbering::None => return None,
        Numbering::Fpd => total + 1 - n,
        _ => n,
    };
    let idx = n - 1;
    let rank = h - 1 - (idx / per) as i8;
    let k = (idx % per) as i8;
    let f = match numbering(v) {
        Numbering::Top => 2 * k + (rank & 1),
        _ => 2 * k + ((rank + 1) & 1),
    };
    Some((f, rank))
}

/// Parse a PDN FEN such as `W:W31-35,K45:B1-20` or `B:Wa2,Kd8:BKc1,b6`.
pub fn from_fen(variant: &str, fen: &str) -> Result<RefPos, String> {
    let v = variant_of(variant).ok_or_else(|| format!("unknown variant {variant}"))?;
    let (w, h) = size(v);
    let fen = fen.trim().trim_end_matches('.').trim();
    let mut parts = fen.split(':');
    let to_move = match parts.next().map(str::trim) {
        Some("W") => RefColor::White,
        Some("B") => RefColor::Black,
        other => return Err(format!("bad side to move {other:?}")),
    };
    let mut pieces = BTreeMap::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let color = match &part[..1] {
            "W" => RefColor::White,
            "B" => RefColor::Black,
            _ => return Err(format!("bad colour in {part:?}")),
        };
        for tok in part[1..].split(',') {
            let mut tok = tok.trim();
            if tok.is_empty() {
                continue;
            }
            let mut kind = RefKind::Man;
            if let Some(rest) = tok.strip_prefix('K') {
                kind = RefKind::King;
                tok = rest;
            } else if let Some(rest) = tok.strip_prefix('P') {
                kind = RefKind::Parachutist;
                tok = rest;
            }
            let squares: Vec<P> = if let Some((a, b)) = tok.split_once('-') {
                let a: u32 = a.parse().map_err(|_| format!("bad range {tok:?}"))?;
                let b: u32 = b.parse().map_err(|_| format!("bad range {tok:?}"))?;
                (a..=b)
                    .map(|n| num_to_sq(v, n).ok_or_else(|| format!("bad square {n}")))
                    .collect::<Result<_, _>>()?
            } else if let Ok(n) = tok.parse::<u32>() {
                vec![num_to_sq(v, n).ok_or_else(|| format!("bad square {n}"))?]
            } else {
                vec![parse_alg(tok).ok_or_else(|| format!("bad square {tok:?}"))?]
            };
            for p in squares {
                if p.0 < 0 || p.1 < 0 || p.0 >= w || p.1 >= h || !playable(v, p) {
                    return Err(format!("square {tok:?} not playable"));
                }
                pieces.insert(sq(p), (color, kind));
            }
        }
    }
    Ok(RefPos {
        variant: variant.to_string(),
        to_move,
        pieces,
    })
}
