//! Endgame databases: the exact win/draw/loss value of every position of a few pieces, for
//! any variant, built by value iteration over the move generator and stored per material
//! slice (see the README's *Endgame databases*).
//!
//! A table's value is the game-theoretic result with both sides playing perfectly under the
//! variant's move rules and its material draws (`Lone`: Brazilian's king against king,
//! Turkish piece against piece); the no-progress counters and repetition are not part of
//! it. This layer uses only [`crate::core`].

use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use crate::core::color::Color;
use crate::core::position::Position;
use crate::core::rules::{Lone, Rules};
use crate::core::variant::Variant;

pub mod build;
pub mod file;
pub mod index;

pub use build::{build, memory_estimate, verify, BuildOptions, Event, VerifyReport};
pub use file::{Counts, Header};
pub use index::{Indexer, Material};

/// A position's value for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    Win,
    Draw,
    Loss,
    /// Not a position (a hole of the index); never returned by a probe.
    Invalid,
}

impl Value {
    /// The two-bit code stored on disk.
    pub const fn code(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win => 1,
            Value::Loss => 2,
            Value::Invalid => 3,
        }
    }
    pub const fn from_code(c: u8) -> Value {
        match c & 3 {
            0 => Value::Draw,
            1 => Value::Win,
            2 => Value::Loss,
            _ => Value::Invalid,
        }
    }
    /// The value for the other side.
    pub const fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            v => v,
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
            Value::Invalid => "invalid",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a table could not be read, built or probed. Every variant names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgdbError {
    /// The slice's file is not there (not built yet).
    Missing { path: PathBuf },
    /// The file could not be read or written.
    Io { path: PathBuf, reason: String },
    /// The file's checksum does not match its contents.
    Checksum { path: PathBuf },
    /// The file is not a table or its contents contradict its header.
    Corrupt { path: PathBuf, reason: String },
    /// The file was built for another variant.
    WrongVariant {
        path: PathBuf,
        found: String,
        expected: String,
    },
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::Missing { path } => {
                write!(f, "endgame table '{}' is missing", path.display())
            }
            EgdbError::Io { path, reason } => {
                write!(f, "endgame table '{}': {reason}", path.display())
            }
            EgdbError::Checksum { path } => write!(
                f,
                "endgame table '{}' is corrupt: checksum mismatch",
                path.display()
            ),
            EgdbError::Corrupt { path, reason } => {
                write!(f, "endgame table '{}' is corrupt: {reason}", path.display())
            }
            EgdbError::WrongVariant {
                path,
                found,
                expected,
            } => write!(
                f,
                "endgame table '{}' is for {found}, not {expected}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for EgdbError {}

/// The default directory of the tables: `$XDG_DATA_HOME/damas/egdb`, or
/// `$HOME/.local/share/damas/egdb`, or `./damas-egdb` when neither is set.
pub fn default_dir() -> PathBuf {
    let xdg = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty());
    if let Some(x) = xdg {
        return PathBuf::from(x).join("damas").join("egdb");
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(h) => PathBuf::from(h)
            .join(".local")
            .join("share")
            .join("damas")
            .join("egdb"),
        None => PathBuf::from("damas-egdb"),
    }
}

/// The directory of one variant's tables under `root`: its key with blanks as `_`
/// (`english`, `english_mandatory-capture=false`).
pub fn variant_dir(root: &Path, variant: Variant) -> PathBuf {
    root.join(variant.key().replace(' ', "_"))
}

/// The file of one slice.
pub fn slice_path(dir: &Path, m: Material) -> PathBuf {
    dir.join(format!("{}.wdl", m.name()))
}

/// The distance file of one slice.
pub fn distance_path(dir: &Path, m: Material) -> PathBuf {
    dir.join(format!("{}.dtc", m.name()))
}

/// The material of a slice file name (`w0m2k_b0m1k.wdl`).
pub fn parse_slice_name(name: &str) -> Option<Material> {
    Material::parse(name.strip_suffix(".wdl")?)
}

/// The slice files present in a variant's directory, in build order.
pub fn list_slices(dir: &Path) -> Vec<(Material, PathBuf)> {
    let mut out: Vec<(Material, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some((parse_slice_name(&name)?, e.path()))
        })
        .collect();
    out.sort_by_key(|(m, _)| (m.total(), m.total_men(), *m));
    out
}

/// The value material alone decides: the side to move without pieces has no move (a loss,
/// or a win where the side without moves wins), and the variant's lone-piece draws.
pub fn material_verdict<R: Rules>(m: &Material, side: Color) -> Option<Value> {
    if m.pieces(side) == 0 {
        return Some(if R::LOSER_WINS {
            Value::Win
        } else {
            Value::Loss
        });
    }
    if m.pieces(side.opposite()) == 0 {
        // Not reachable by a move (the mover never loses all its pieces); kept total.
        return Some(if R::LOSER_WINS {
            Value::Loss
        } else {
            Value::Win
        });
    }
    let one_each = m.pieces(Color::White) == 1 && m.pieces(Color::Black) == 1;
    match R::DRAW.lone {
        Lone::PieceEach if one_each => Some(Value::Draw),
        Lone::KingEach if one_each && m.kings == [1, 1] => Some(Value::Draw),
        _ => None,
    }
}

/// One loaded slice: its index and values.
pub struct Slice<R: Rules> {
    pub index: Indexer<R>,
    pub values: file::Packed,
    pub header: Header,
    /// Plies to the slice's end under best play, once its distance file is read (a byte a
    /// position: read only where the search needs it, see [`Egdb`]).
    pub distance: OnceLock<Vec<u8>>,
}

impl<R: Rules> Slice<R> {
    /// Read a slice's values, checking checksum, variant, material and size.
    pub fn load(dir: &Path, variant: Variant, m: Material) -> Result<Self, EgdbError> {
        let path = slice_path(dir, m);
        let data = file::read_bytes(&path)?;
        let index = Indexer::<R>::new(m);
        let (header, values) = file::decode(&path, &data, &variant.key(), m, index.len())?;
        Ok(Slice {
            index,
            values,
            header,
            distance: OnceLock::new(),
        })
    }

    /// Read the slice's distance file, once.
    pub fn read_distances(&self, dir: &Path, variant: Variant) -> Result<(), EgdbError> {
        if self.distance.get().is_some() {
            return Ok(());
        }
        let m = self.header.material;
        let path = distance_path(dir, m);
        let data = file::read_bytes(&path)?;
        let d = file::decode_distances(&path, &data, &variant.key(), m, self.index.len())?;
        let _ = self.distance.set(d);
        Ok(())
    }

    /// The value of `pos` and, once read, its plies to the slice's end.
    #[inline]
    pub fn value_distance(&self, pos: &Position<R>) -> (Value, Option<u8>) {
        let i = self.index.index(pos);
        let v = Value::from_code(self.values.get(i));
        (v, self.distance.get().map(|d| d[i as usize]))
    }
    #[inline]
    pub fn value(&self, pos: &Position<R>) -> Value {
        Value::from_code(self.values.get(self.index.index(pos)))
    }
}

/// The value of `pos` from loaded slices (`get`), or `None` when its slice is not there.
#[inline]
pub fn value_with<'a, R: Rules>(
    pos: &Position<R>,
    get: impl Fn(&Material) -> Option<&'a Slice<R>>,
) -> Option<Value> {
    let m = Material::of(pos);
    if let Some(v) = material_verdict::<R>(&m, pos.side_to_move()) {
        return Some(v);
    }
    get(&m).map(|s| s.value(pos))
}

/// The tables of one variant, loaded on first use, for probing. A file that cannot be read
/// is remembered with its error (reported once by [`Egdb::take_errors`]; of missing files
/// only the first) and not tried again. The search's probes ([`Egdb::probe_ready`]) load a
/// large slice on a thread of its own and answer "unknown" until it is in: reading and
/// checking hundreds of megabytes takes longer than a fast move. Distances (a byte a
/// position, four times the values) are read with the values for small slices; for a large
/// one only once a search starts in it ([`Egdb::prepare_distances`]), beside the search.
pub struct Egdb<R: Rules> {
    /// Probe positions of at most this many pieces.
    pub pieces: u32,
    shared: Arc<Loaded<R>>,
}

/// What an [`Egdb`] shares with its loading threads.
struct Loaded<R: Rules> {
    dir: PathBuf,
    variant: Variant,
    slices: RwLock<HashMap<Material, SliceState<R>>>,
    errors: Mutex<Vec<EgdbError>>,
    missing_said: AtomicBool,
    distances_asked: Mutex<HashSet<Material>>,
}

enum SliceState<R: Rules> {
    Loading,
    Ready(Arc<Slice<R>>),
    Failed,
}

/// Slices of up to this many positions are loaded where first probed, even by the search
/// (a few milliseconds); larger ones beside it.
const LOAD_IN_PLACE_POSITIONS: u64 = 1 << 24;

impl<R: Rules> Loaded<R> {
    fn load(&self, m: Material) -> Result<Arc<Slice<R>>, EgdbError> {
        let loaded = Slice::<R>::load(&self.dir, self.variant, m).map(Arc::new);
        if let Ok(s) = &loaded {
            if s.index.len() <= LOAD_IN_PLACE_POSITIONS && self.ask_distances(s) {
                self.distances(s);
            }
        }
        let state = match &loaded {
            Ok(s) => SliceState::Ready(s.clone()),
            Err(_) => SliceState::Failed,
        };
        self.slices.write().unwrap().insert(m, state);
        if let Err(e) = &loaded {
            // One missing file says the tables are not (all) built; the next ones add
            // nothing. Damaged files are each said.
            let missing = matches!(e, EgdbError::Missing { .. });
            if !missing || !self.missing_said.swap(true, Ordering::Relaxed) {
                self.errors.lock().unwrap().push(e.clone());
            }
        }
        loaded
    }

    /// Whether a slice's distances are still to be read, marking them asked for: each
    /// slice's distance file is tried once.
    fn ask_distances(&self, s: &Slice<R>) -> bool {
        s.distance.get().is_none()
            && self
                .distances_asked
                .lock()
                .unwrap()
                .insert(s.header.material)
    }

    /// Read a slice's distances; a damaged file is reported (a missing one is not: the
    /// values alone still serve).
    fn distances(&self, s: &Slice<R>) {
        match s.read_distances(&self.dir, self.variant) {
            Ok(()) | Err(EgdbError::Missing { .. }) => {}
            Err(e) => self.errors.lock().unwrap().push(e),
        }
    }
}

impl<R: Rules> Egdb<R> {
    /// The tables of `variant` under `root` (the variant's directory is below it).
    pub fn new(root: &Path, variant: Variant, pieces: u32) -> Self {
        Egdb {
            pieces,
            shared: Arc::new(Loaded {
                dir: variant_dir(root, variant),
                variant,
                slices: RwLock::new(HashMap::new()),
                errors: Mutex::new(Vec::new()),
                missing_said: AtomicBool::new(false),
                distances_asked: Mutex::new(HashSet::new()),
            }),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.shared.dir
    }

    /// Slice `m`, read now if it is not loaded.
    fn slice(&self, m: Material) -> Result<Arc<Slice<R>>, EgdbError> {
        match self.shared.slices.read().unwrap().get(&m) {
            Some(SliceState::Ready(s)) => return Ok(s.clone()),
            Some(SliceState::Failed) => {
                return Err(EgdbError::Missing {
                    path: slice_path(&self.shared.dir, m),
                })
            }
            _ => {}
        }
        self.shared.load(m)
    }

    /// Slice `m` if it is loaded; a large one not yet asked for starts loading beside.
    fn slice_ready(&self, m: Material) -> Option<Arc<Slice<R>>> {
        match self.shared.slices.read().unwrap().get(&m) {
            Some(SliceState::Ready(s)) => return Some(s.clone()),
            Some(_) => return None,
            None => {}
        }
        if index::slice_size::<R>(&m) <= LOAD_IN_PLACE_POSITIONS {
            return self.shared.load(m).ok();
        }
        {
            let mut map = self.shared.slices.write().unwrap();
            if map.contains_key(&m) {
                return None;
            }
            map.insert(m, SliceState::Loading);
        }
        let shared = self.shared.clone();
        let started = std::thread::Builder::new()
            .name("egdb-load".into())
            .spawn(move || {
                let _ = shared.load(m);
            });
        if started.is_err() {
            return self.shared.load(m).ok();
        }
        None
    }

    /// The value of `pos`, an error if its slice cannot be read, `Ok(None)` if it is beyond
    /// the tables (more pieces than `pieces`, or parachutists).
    pub fn probe_checked(&self, pos: &Position<R>) -> Result<Option<Value>, EgdbError> {
        let Some(m) = self.material_in_tables(pos) else {
            return Ok(None);
        };
        if let Some(v) = material_verdict::<R>(&m, pos.side_to_move()) {
            return Ok(Some(v));
        }
        let s = self.slice(m)?;
        Ok(Some(s.value(pos)))
    }

    /// The value of `pos` with its plies to the end of its slice where kept (0 for values
    /// material alone decides); `None` if it is not in a readable table. Reads the slice's
    /// distances now if they are not in.
    pub fn probe_distance(&self, pos: &Position<R>) -> Option<(Value, Option<u8>)> {
        self.lookup(pos, |m| {
            let s = self.slice(m).ok()?;
            if self.shared.ask_distances(&s) {
                self.shared.distances(&s);
            }
            Some(s)
        })
    }

    /// Start reading the distances of `pos`'s slice beside the search, if it is loaded and
    /// they are not: a search in a won slice makes progress by them.
    pub fn prepare_distances(&self, pos: &Position<R>) {
        let Some(m) = self.material_in_tables(pos) else {
            return;
        };
        let s = match self.shared.slices.read().unwrap().get(&m) {
            Some(SliceState::Ready(s)) => s.clone(),
            _ => return,
        };
        if !self.shared.ask_distances(&s) {
            return;
        }
        let shared = self.shared.clone();
        let _ = std::thread::Builder::new()
            .name("egdb-distances".into())
            .spawn(move || shared.distances(&s));
    }

    /// As [`Egdb::probe_distance`], for the search: `None` also while the position's slice
    /// is still being loaded beside it.
    pub fn probe_ready(&self, pos: &Position<R>) -> Option<(Value, Option<u8>)> {
        self.lookup(pos, |m| self.slice_ready(m))
    }

    fn lookup(
        &self,
        pos: &Position<R>,
        slice: impl FnOnce(Material) -> Option<Arc<Slice<R>>>,
    ) -> Option<(Value, Option<u8>)> {
        let m = self.material_in_tables(pos)?;
        if let Some(v) = material_verdict::<R>(&m, pos.side_to_move()) {
            return Some((v, Some(0)));
        }
        slice(m).map(|s| s.value_distance(pos))
    }

    /// The material of `pos` if the tables cover it: at most `pieces` pieces and no
    /// parachutists (the tables do not index them).
    #[inline]
    fn material_in_tables(&self, pos: &Position<R>) -> Option<Material> {
        let m = Material::of(pos);
        (!pos.parachutists().any() && m.total() <= self.pieces).then_some(m)
    }

    /// The value of `pos`, or `None` if it is not in a readable table.
    #[inline]
    pub fn probe(&self, pos: &Position<R>) -> Option<Value> {
        self.probe_checked(pos).ok().flatten()
    }

    /// Errors met since the last call, each once.
    pub fn take_errors(&self) -> Vec<EgdbError> {
        std::mem::take(&mut *self.shared.errors.lock().unwrap())
    }
}
