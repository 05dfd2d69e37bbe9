//! Building and verifying tables. The builder is value iteration over the move generator,
//! one slice at a time in dependency order: a position is won when a move leads to a
//! position lost for the opponent, lost when every move leads to one won for the opponent
//! (or it has no move: a loss, a win where the rules say so), and drawn when neither is
//! ever established. Successors in smaller slices (captures) and in slices with fewer men
//! (crowning) are already built; successors in the slice itself are iterated to the fixed
//! point. Captures, precedence and crowning come from the generator, the terminal rule and
//! material draws from the rules data: nothing here is written for one variant.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};
use std::time::Instant;

use super::file::{self, Counts, Packed};
use super::index::{slice_size, Indexer, Material};
use super::{
    distance_path, material_verdict, slice_path, value_with, variant_dir, EgdbError, Slice, Value,
};
use crate::core::movegen::Convention;
use crate::core::parallel;
use crate::core::position::{MoveOf, Position};
use crate::core::rules::Rules;
use crate::core::variant::Variant;

/// What `build` is asked for.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The root directory (the variant's directory is made below it).
    pub dir: PathBuf,
    /// Every slice of up to this many pieces.
    pub pieces: u32,
    /// Worker threads.
    pub threads: usize,
    /// Only this slice and those it needs (`pieces` is then ignored).
    pub only: Option<Material>,
}

/// Progress of a build, for a progress bar.
#[derive(Clone, Debug)]
pub enum Event {
    /// A slice is already on disk and reads back whole.
    Kept { material: Material, counts: Counts },
    /// A slice on disk could not be read and is built again.
    Rebuilt { error: EgdbError },
    /// A slice is started: its place in the list and its positions.
    Start {
        material: Material,
        number: usize,
        of: usize,
        positions: u64,
    },
    /// An iteration over the `todo` positions not yet decided starts.
    Pass { pass: u32, todo: u64 },
    /// Positions examined in the current pass since the last tick.
    Tick(u64),
    /// A slice is written.
    Done {
        material: Material,
        counts: Counts,
        seconds: f64,
        bytes: u64,
    },
}

/// Working codes during a build: undecided, won, lost, a hole, drawn for good.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const HOLE: u8 = 3;
const DRAW: u8 = 4;

/// Bytes a build of up to `pieces` (or of `only` and what it needs) needs at its peak, that
/// peak slice's positions, and all positions. A slice being built holds, per position, its
/// code, distance, two counters and a list start (`SLICE_BYTES`), four bytes per move that
/// stays in the slice and four for the frontier; every finished slice stays at two bits. The
/// moves in a slice are counted on a sample of its positions: flying kings have five times
/// the moves of short ones, so one figure for all variants is wrong by as much.
pub fn memory_estimate<R: Rules>(pieces: u32, only: Option<Material>) -> (u64, u64, u64) {
    let slices = match only {
        Some(m) => m.needed::<R>(),
        None => Material::all::<R>(pieces),
    };
    let mut sizes: Vec<(u64, Material)> = slices.iter().map(|m| (slice_size::<R>(m), *m)).collect();
    let total = sizes.iter().fold(0u64, |a, &(x, _)| a.saturating_add(x));
    sizes.sort_by_key(|s| std::cmp::Reverse(s.0));
    let (mut peak, mut at) = (0u64, 0u64);
    // Of the largest slices, the one needing most (more kings, more moves, may be smaller).
    for &(n, m) in sizes.iter().take(6) {
        let moves = moves_in_slice::<R>(m, n);
        let bytes = ((SLICE_BYTES + 4.0 + 4.0 * moves) * n as f64) as u64;
        if bytes > peak {
            (peak, at) = (bytes, n);
        }
    }
    (peak.saturating_add(total / 4), at, total)
}

/// Working bytes per position of a slice being built, apart from its moves: code and
/// distance, the pending and in-degree counters, the start of its predecessor list.
const SLICE_BYTES: f64 = 1.0 + 1.0 + 4.0 + 4.0 + 8.0;

/// The mean number of moves that stay in slice `m` (of `n` indices), over a sample of its
/// positions; slices too large to index at all count as the worst case.
fn moves_in_slice<R: Rules>(m: Material, n: u64) -> f64 {
    const SAMPLE: u64 = 4000;
    if n == 0 {
        return 0.0;
    }
    if n >= u32::MAX as u64 {
        return 100.0;
    }
    let index = Indexer::<R>::new(m);
    let (mut positions, mut moves) = (0u64, 0u64);
    let mut buf = Vec::new();
    let step = (n / SAMPLE).max(1);
    // An odd multiplier spreads the sample over both sides to move and every man square.
    for k in 0..SAMPLE.min(n) {
        let i = (k * step + (k * 0x9E37) % step) % n;
        if let Some(pos) = index.position(i) {
            buf.clear();
            pos.generate(&mut buf, Convention::Drop);
            positions += 1;
            moves += buf
                .iter()
                .filter(|mv| Material::of(&pos.after_unhashed(mv)) == m)
                .count() as u64;
        }
    }
    if positions == 0 {
        0.0
    } else {
        moves as f64 / positions as f64
    }
}

/// The evaluation of one position from its successors. `inner` reads the working code of a
/// successor in the slice being built; `outer` the value of one in another slice. Leaves the
/// position's moves in `buf`.
#[inline]
fn evaluate<R: Rules>(
    pos: &Position<R>,
    material: Material,
    buf: &mut Vec<MoveOf<R>>,
    inner: &impl Fn(&Position<R>) -> u8,
    outer: &impl Fn(&Position<R>) -> Option<Value>,
) -> u8 {
    buf.clear();
    pos.generate(buf, Convention::Drop);
    if buf.is_empty() {
        return if R::LOSER_WINS { WIN } else { LOSS };
    }
    let mut all_won = true;
    let mut open = false;
    for m in buf.iter() {
        let child = pos.after_unhashed(m);
        let code = if Material::of(&child) == material {
            inner(&child)
        } else {
            match outer(&child) {
                Some(Value::Win) => WIN,
                Some(Value::Loss) => LOSS,
                Some(Value::Draw) => DRAW,
                _ => panic!("endgame builder: a successor outside the built slices"),
            }
        };
        match code {
            LOSS => return WIN,
            WIN => {}
            UNKNOWN => {
                all_won = false;
                open = true;
            }
            _ => all_won = false,
        }
    }
    if all_won {
        LOSS
    } else if open {
        UNKNOWN
    } else {
        DRAW
    }
}

/// One position's moves, seen before anything of its own slice is known: its code if the
/// other slices already decide it (a move to a lost position, no move at all, or only moves
/// out of the slice), else `UNKNOWN`, with its successors in the slice in `inner` and
/// whether it can still be lost (every move out of the slice leads to a won position).
#[inline]
fn scan<R: Rules>(
    pos: &Position<R>,
    material: Material,
    index: &Indexer<R>,
    buf: &mut Vec<MoveOf<R>>,
    inner: &mut Vec<u32>,
    outer: &impl Fn(&Position<R>) -> Option<Value>,
) -> (u8, bool) {
    buf.clear();
    inner.clear();
    pos.generate(buf, Convention::Drop);
    if buf.is_empty() {
        return (if R::LOSER_WINS { WIN } else { LOSS }, false);
    }
    let mut can_lose = true;
    for m in buf.iter() {
        let child = pos.after_unhashed(m);
        if Material::of(&child) == material {
            inner.push(index.index(&child) as u32);
            continue;
        }
        match outer(&child) {
            Some(Value::Loss) => return (WIN, false),
            Some(Value::Win) => {}
            Some(Value::Draw) => can_lose = false,
            _ => panic!("endgame builder: a successor outside the built slices"),
        }
    }
    if !inner.is_empty() {
        (UNKNOWN, can_lose)
    } else if can_lose {
        (LOSS, false)
    } else {
        (DRAW, false)
    }
}

/// Build one slice by retrograde analysis on the successor graph: one scan finds each
/// position's successors in the slice (and decides those the other slices decide), a
/// second records each successor's predecessors, then wins and losses spread backwards
/// ply by ply: a position with a lost successor is won, one whose successors are all won
/// (and may be lost at all) is lost. What is left undecided is drawn.
fn build_slice<R: Rules>(
    material: Material,
    done: &HashMap<Material, Slice<R>>,
    progress: &(dyn Fn(&Event) + Sync),
) -> (Packed, Vec<u8>) {
    let index = Indexer::<R>::new(material);
    let n = index.len();
    assert!(
        n < u32::MAX as u64,
        "slice {material} too large for 32-bit links"
    );
    let codes: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(UNKNOWN)).collect();
    // Moves into the slice that are still to be found won before a position is lost; a
    // position that cannot be lost starts beyond reach.
    let pending: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let indegree: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let lone = material_verdict::<R>(&material, crate::core::color::Color::White).is_some();
    let outer = |p: &Position<R>| value_with(p, |m| done.get(m));
    const CHUNK: u64 = 4096;
    const NEVER: u32 = 1 << 30;
    progress(&Event::Pass { pass: 0, todo: n });
    parallel::for_each_chunk(n, CHUNK, &|range| {
        let (mut buf, mut inner) = (Vec::new(), Vec::new());
        let size = range.end - range.start;
        for i in range {
            let code = match index.position(i) {
                None => HOLE,
                Some(_) if lone => DRAW,
                Some(pos) => {
                    let (code, can_lose) =
                        scan(&pos, material, &index, &mut buf, &mut inner, &outer);
                    if code == UNKNOWN {
                        let extra = if can_lose { 0 } else { NEVER };
                        pending[i as usize].store(inner.len() as u32 + extra, Ordering::Relaxed);
                        for &ch in inner.iter() {
                            indegree[ch as usize].fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    code
                }
            };
            codes[i as usize].store(code, Ordering::Relaxed);
        }
        progress(&Event::Tick(size));
    });
    // Predecessor lists, in one array: `start[c]..start[c + 1]`.
    let mut start = Vec::with_capacity(n as usize + 1);
    let mut total = 0u64;
    for d in &indegree {
        start.push(total);
        total += d.load(Ordering::Relaxed) as u64;
        d.store(0, Ordering::Relaxed);
    }
    start.push(total);
    let preds: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
    let cursor = indegree;
    progress(&Event::Pass { pass: 1, todo: n });
    parallel::for_each_chunk(n, CHUNK, &|range| {
        let (mut buf, mut inner) = (Vec::new(), Vec::new());
        let size = range.end - range.start;
        for i in range {
            if codes[i as usize].load(Ordering::Relaxed) != UNKNOWN {
                continue;
            }
            let pos = index
                .position(i)
                .expect("an undecided position is a position");
            scan(&pos, material, &index, &mut buf, &mut inner, &outer);
            for &ch in inner.iter() {
                let k = cursor[ch as usize].fetch_add(1, Ordering::Relaxed) as u64;
                preds[(start[ch as usize] + k) as usize].store(i as u32, Ordering::Relaxed);
            }
        }
        progress(&Event::Tick(size));
    });
    drop(cursor);
    // Spread wins and losses backwards, one ply a round.
    let mut frontier: Vec<u32> = parallel::chunks(n, CHUNK, &|range| {
        range
            .filter(|&i| matches!(codes[i as usize].load(Ordering::Relaxed), WIN | LOSS))
            .map(|i| i as u32)
            .collect()
    });
    // Plies to the slice's end (a capture or crowning that leaves it, or no move) under best
    // play: the round that decided each position, 0 for those the other slices decide.
    let distance: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    let mut round = 2;
    while !frontier.is_empty() {
        let plies = (round - 1).min(255) as u8;
        progress(&Event::Pass {
            pass: round,
            todo: frontier.len() as u64,
        });
        round += 1;
        const PART: u64 = 1024;
        let now = &frontier;
        frontier = parallel::chunks(now.len() as u64, PART, &|range| {
            let part = &now[range.start as usize..range.end as usize];
            let mut next = Vec::new();
            for &c in part {
                let lost = codes[c as usize].load(Ordering::Relaxed) == LOSS;
                let (a, b) = (start[c as usize], start[c as usize + 1]);
                for k in a..b {
                    let p = preds[k as usize].load(Ordering::Relaxed) as usize;
                    let slot = &codes[p];
                    if slot.load(Ordering::Relaxed) != UNKNOWN {
                        continue;
                    }
                    let decided = if lost {
                        Some(WIN)
                    } else if pending[p].fetch_sub(1, Ordering::Relaxed) == 1 {
                        Some(LOSS)
                    } else {
                        None
                    };
                    if let Some(code) = decided {
                        if slot
                            .compare_exchange(UNKNOWN, code, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                        {
                            distance[p].store(plies, Ordering::Relaxed);
                            next.push(p as u32);
                        }
                    }
                }
            }
            progress(&Event::Tick(part.len() as u64));
            next
        });
    }
    let mut values = Packed::new(n);
    for (i, c) in codes.iter().enumerate() {
        let v = match c.load(Ordering::Relaxed) {
            WIN => Value::Win,
            LOSS => Value::Loss,
            HOLE => Value::Invalid,
            _ => Value::Draw,
        };
        values.set(i as u64, v.code());
    }
    let distance = distance.into_iter().map(AtomicU8::into_inner).collect();
    (values, distance)
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), EgdbError> {
    let io = |e: std::io::Error| EgdbError::Io {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(bytes).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    std::fs::rename(&tmp, path).map_err(io)
}

/// Build every slice of up to `opts.pieces` pieces not already on disk (a slice that reads
/// back whole is kept: an interrupted build resumes), writing each to a temporary file
/// renamed into place when complete. Returns the variant's directory.
pub fn build<R: Rules>(
    variant: Variant,
    opts: &BuildOptions,
    progress: &(dyn Fn(&Event) + Sync),
) -> Result<PathBuf, EgdbError> {
    let dir = variant_dir(&opts.dir, variant);
    std::fs::create_dir_all(&dir).map_err(|e| EgdbError::Io {
        path: dir.clone(),
        reason: e.to_string(),
    })?;
    let key = variant.key();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .map_err(|e| EgdbError::Io {
            path: dir.clone(),
            reason: format!("cannot start threads: {e}"),
        })?;
    let all = match opts.only {
        Some(m) => m.needed::<R>(),
        None => Material::all::<R>(opts.pieces),
    };
    let mut done: HashMap<Material, Slice<R>> = HashMap::new();
    for (number, &m) in all.iter().enumerate() {
        // A slice is kept when its values are whole and its distance file names it.
        let kept = Slice::<R>::load(&dir, variant, m).and_then(|s| {
            file::distance_file_names(&distance_path(&dir, m), &key, m, s.index.len())?;
            Ok(s)
        });
        match kept {
            Ok(s) => {
                progress(&Event::Kept {
                    material: m,
                    counts: s.header.counts,
                });
                done.insert(m, s);
                continue;
            }
            Err(EgdbError::Missing { .. }) => {}
            Err(error) => progress(&Event::Rebuilt { error }),
        }
        let index = Indexer::<R>::new(m);
        progress(&Event::Start {
            material: m,
            number: number + 1,
            of: all.len(),
            positions: index.len(),
        });
        let t = Instant::now();
        let (values, distance) = pool.install(|| build_slice::<R>(m, &done, progress));
        // Distances, for the search to make progress in won endings; written first, so a
        // slice whose values are on disk has its distances too.
        let distances = pool.install(|| file::encode_distances(&key, m, &distance));
        write_atomically(&distance_path(&dir, m), &distances)?;
        let bytes = file::encode(&key, m, &values);
        let path = slice_path(&dir, m);
        write_atomically(&path, &bytes)?;
        let (header, values) = file::decode(&path, &bytes, &key, m, index.len())?;
        progress(&Event::Done {
            material: m,
            counts: header.counts,
            seconds: t.elapsed().as_secs_f64(),
            bytes: bytes.len() as u64,
        });
        done.insert(
            m,
            Slice {
                index,
                values,
                header,
                distance: std::sync::OnceLock::new(),
            },
        );
    }
    Ok(dir)
}

/// The result of verifying one slice.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    pub material: Material,
    pub positions: u64,
    /// Positions whose stored value differs from the one its successors give, with the
    /// first few indices.
    pub mismatches: u64,
    pub first: Vec<u64>,
    /// Positions whose stored distance differs from the one its successors give (0 when the
    /// slice has no distance file: see `distances`).
    pub distance_mismatches: u64,
    pub first_distance: Vec<u64>,
    /// Whether the slice's distance file was there and checked.
    pub distances: bool,
    pub seconds: f64,
}

/// The distance of `pos` (value `v`) that its successors give: 0 for a draw and for a
/// position the other slices decide (no move, a move out of the slice to a lost position, a
/// loss with every move out of it); otherwise one more than the nearest lost successor in
/// the slice (a win) or the farthest won one (a loss), at most 255.
fn expected_distance<R: Rules>(
    pos: &Position<R>,
    moves: &[MoveOf<R>],
    v: Value,
    s: &Slice<R>,
    distance: &[u8],
    outer: &impl Fn(&Position<R>) -> Option<Value>,
) -> u8 {
    if v == Value::Draw || moves.is_empty() {
        return 0;
    }
    let m = s.header.material;
    let (mut nearest, mut farthest, mut inner) = (u8::MAX, 0u8, false);
    for mv in moves {
        let child = pos.after_unhashed(mv);
        if Material::of(&child) != m {
            if v == Value::Win && outer(&child) == Some(Value::Loss) {
                return 0;
            }
            continue;
        }
        inner = true;
        let i = s.index.index(&child);
        let d = distance[i as usize];
        if Value::from_code(s.values.get(i)) == Value::Loss {
            nearest = nearest.min(d);
        }
        farthest = farthest.max(d);
    }
    match v {
        Value::Win => nearest.saturating_add(1),
        _ if !inner => 0,
        _ => farthest.saturating_add(1),
    }
}

/// Check every stored value of every slice in the variant's directory against its
/// successors (one ply, from the stored values): a win needs a successor lost for the
/// opponent, a loss every successor won for it (or no move), a draw neither; holes must be
/// exactly the index's holes; where a distance file is there, each distance must be the one
/// its successors give ([`expected_distance`]). A slice whose successors lie in a slice not
/// on disk is an error naming that file.
pub fn verify<R: Rules>(
    root: &Path,
    variant: Variant,
    threads: usize,
    report: &mut dyn FnMut(&VerifyReport),
) -> Result<Vec<VerifyReport>, EgdbError> {
    let dir = variant_dir(root, variant);
    let present = super::list_slices(&dir);
    let mut slices: HashMap<Material, Slice<R>> = HashMap::new();
    for (m, _) in &present {
        slices.insert(*m, Slice::<R>::load(&dir, variant, *m)?);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| EgdbError::Io {
            path: dir.clone(),
            reason: format!("cannot start threads: {e}"),
        })?;
    let mut out = Vec::new();
    for (m, _) in &present {
        let t = Instant::now();
        let s = &slices[m];
        // Every successor slice must be there.
        for dep in m.needed::<R>() {
            if !slices.contains_key(&dep)
                && material_verdict::<R>(&dep, crate::core::color::Color::White).is_none()
            {
                return Err(EgdbError::Missing {
                    path: slice_path(&dir, dep),
                });
            }
        }
        let n = s.index.len();
        let distances = match s.read_distances(&dir, variant) {
            Ok(()) => true,
            Err(EgdbError::Missing { .. }) => false,
            Err(e) => return Err(e),
        };
        // One pass: each position's moves give both its value and its distance.
        let distance = s.distance.get();
        let outer = |p: &Position<R>| value_with(p, |mm| slices.get(mm));
        let bad: Vec<(u64, bool, bool)> = pool.install(|| {
            parallel::chunks(n, 4096, &|range| {
                let mut buf = Vec::new();
                range
                    .filter_map(|i| {
                        let stored = s.values.get(i);
                        let Some(pos) = s.index.position(i) else {
                            let bad = stored != Value::Invalid.code();
                            return bad.then_some((i, true, false));
                        };
                        let (want, want_distance) =
                            match material_verdict::<R>(m, pos.side_to_move()) {
                                Some(v) => (v.code(), 0),
                                None => {
                                    let code = evaluate(
                                        &pos,
                                        *m,
                                        &mut buf,
                                        &|p| match s.value(p) {
                                            Value::Win => WIN,
                                            Value::Loss => LOSS,
                                            _ => DRAW,
                                        },
                                        &outer,
                                    );
                                    let want = match code {
                                        WIN => Value::Win.code(),
                                        LOSS => Value::Loss.code(),
                                        _ => Value::Draw.code(),
                                    };
                                    // `evaluate` leaves the position's moves in `buf`.
                                    let d = distance.map_or(0, |d| {
                                        let v = Value::from_code(stored);
                                        expected_distance(&pos, &buf, v, s, d, &outer)
                                    });
                                    (want, d)
                                }
                            };
                        let bad_value = stored != want;
                        let bad_distance = distance.is_some_and(|d| d[i as usize] != want_distance);
                        (bad_value || bad_distance).then_some((i, bad_value, bad_distance))
                    })
                    .collect()
            })
        });
        let bad_values: Vec<u64> = bad.iter().filter(|b| b.1).map(|b| b.0).collect();
        let bad_distance: Vec<u64> = bad.iter().filter(|b| b.2).map(|b| b.0).collect();
        let r = VerifyReport {
            material: *m,
            positions: n,
            mismatches: bad_values.len() as u64,
            first: bad_values.iter().take(5).copied().collect(),
            distance_mismatches: bad_distance.len() as u64,
            first_distance: bad_distance.iter().take(5).copied().collect(),
            distances,
            seconds: t.elapsed().as_secs_f64(),
        };
        report(&r);
        out.push(r);
        // The distances, four times the values, are needed for this slice only.
        if let Some(s) = slices.get_mut(m) {
            s.distance.take();
        }
    }
    Ok(out)
}
