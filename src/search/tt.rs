//! The transposition table: shared by every search thread without locks.
//!
//! Each entry is two 64-bit words, the key stored XOR-ed with the data, so a torn write
//! from two threads reads back as a miss rather than as a wrong hit. Four entries make a
//! 64-byte bucket; a bucket is chosen by the hash, and replacement prefers shallow and
//! old entries.
//!
//! The memory is asked for fallibly and zeroed by the allocator, which on Linux maps fresh
//! zero pages only when they are first written: a table costs resident memory as the
//! search fills it, not when it is sized, and a size that cannot be had is an error, never
//! an abort. On Linux the table is advised to use huge pages (2 MB), which saves most of
//! the address-translation misses of random probes.

use std::alloc::{self, Layout};
use std::fmt;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// What an entry's score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this (no move raised alpha).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// A table hit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Index of the best move in the generator's order, if one is known.
    pub move_index: Option<u8>,
    pub depth: i32,
    pub bound: Bound,
    pub score: i32,
}

const ENTRIES: usize = 4;

#[repr(C, align(64))]
struct Bucket {
    words: [AtomicU64; 2 * ENTRIES],
}

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();
pub const MB: usize = 1 << 20;
/// The size of a huge page on x86-64 and most 64-bit Arm Linux systems.
const HUGE_PAGE: usize = 2 * MB;

/// Ask Linux to back the table with huge pages where it can: a probe at every node lands on
/// a random bucket, and with 4 KB pages most probes also miss the address-translation cache.
/// Only advice: without transparent huge pages the table works as before.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    // SAFETY: the range lies inside one live allocation of ours; the advice changes how
    // its pages are backed, never their contents.
    unsafe {
        libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

/// The largest table size accepted, in MB; bigger requests are refused before any
/// allocation is tried.
pub const MAX_MEGABYTES: usize = 1 << 20;

/// A table of the size asked for could not be allocated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AllocError {
    pub megabytes: usize,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot allocate {} MB", self.megabytes)
    }
}

impl std::error::Error for AllocError {}

/// Zeroed memory holding `len` 64-byte-aligned buckets, freed when dropped.
///
/// It is allocated with the alignment of a word (the allocator's `calloc` path, which hands
/// out fresh zero pages untouched) and 64 bytes more, and the buckets start at the first
/// 64-byte boundary inside, so that no bucket straddles two cache lines.
struct Buckets {
    base: NonNull<u8>,
    layout: Layout,
    first: NonNull<Bucket>,
    len: usize,
}

// SAFETY: the memory is owned by `Buckets` alone and only reached through `&[Bucket]`,
// whose atomics may be shared and sent between threads.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

impl Buckets {
    fn allocate(len: usize) -> Option<Buckets> {
        let table = len.checked_mul(BUCKET_BYTES)?;
        // Tables of a huge page or more start on a huge-page boundary, so that every huge
        // page lies whole inside them; the spare bytes before it are never touched.
        let align = if table >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            BUCKET_BYTES
        };
        let bytes = table.checked_add(align)?;
        let layout = Layout::from_size_align(bytes, std::mem::align_of::<u64>()).ok()?;
        // SAFETY: the layout's size is not zero.
        let base = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })?;
        let offset = base.as_ptr().align_offset(align);
        if offset >= align {
            // SAFETY: allocated just above with this layout.
            unsafe { alloc::dealloc(base.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset < align`, and the `align` spare bytes keep `len` buckets inside
        // the block.
        let first = unsafe { NonNull::new_unchecked(base.as_ptr().add(offset) as *mut Bucket) };
        if align == HUGE_PAGE {
            advise_huge_pages(first.as_ptr() as *mut u8, table);
        }
        Some(Buckets {
            base,
            layout,
            first,
            len,
        })
    }

    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `first` is aligned for `Bucket` and `len` buckets lie inside the block,
        // zeroed at allocation; all-zero bytes are valid atomics, which are only ever
        // changed through shared references.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `Buckets::allocate` with this layout, freed once.
        unsafe { alloc::dealloc(self.base.as_ptr(), self.layout) };
    }
}

/// A lock-free hash table of search results, sized in megabytes.
pub struct TranspositionTable {
    memory: Buckets,
    generation: AtomicU8,
    /// Whether anything was stored since the table was allocated or cleared: clearing an
    /// unused table must not touch (and so make resident) its pages.
    written: AtomicBool,
}

/// The machine's memory in MB, where the system tells (Linux: `MemTotal` in
/// `/proc/meminfo`).
pub fn physical_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// Buckets in a table of at most `megabytes` MB: a power of two, at least one.
fn bucket_count(megabytes: usize) -> Option<usize> {
    let buckets = megabytes.max(1).checked_mul(MB)? / BUCKET_BYTES;
    Some(1usize << (usize::BITS - 1 - buckets.leading_zeros()))
}

fn pack(move_index: Option<u8>, depth: i32, bound: Bound, generation: u8, score: i32) -> u64 {
    let m = move_index.map_or(0xff, |i| i as u64);
    let d = depth.clamp(0, 255) as u64;
    let bg = (bound as u64) | ((generation as u64 & 0x3f) << 2);
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    m | (d << 8) | (bg << 16) | (s << 24)
}

fn unpack(data: u64) -> Option<(Entry, u8)> {
    let m = (data & 0xff) as u8;
    let bound = match (data >> 16) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let entry = Entry {
        move_index: (m != 0xff).then_some(m),
        depth: ((data >> 8) & 0xff) as i32,
        bound,
        score: ((data >> 24) & 0xffff) as u16 as i16 as i32,
    };
    Some((entry, ((data >> 18) & 0x3f) as u8))
}

impl TranspositionTable {
    /// A table of at most `megabytes` MB (rounded down to a power of two buckets; at least
    /// one MB), or an error when the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<Self, AllocError> {
        let fail = AllocError { megabytes };
        if megabytes > MAX_MEGABYTES {
            return Err(fail);
        }
        let len = bucket_count(megabytes).ok_or(fail)?;
        let memory = Buckets::allocate(len).ok_or(fail)?;
        Ok(TranspositionTable {
            memory,
            generation: AtomicU8::new(0),
            written: AtomicBool::new(false),
        })
    }

    /// A table of at most `megabytes` MB, or of the largest size below that can be had
    /// (halving down to 1 MB); `None` only when not even 1 MB can be allocated.
    pub fn with_fallback(megabytes: usize) -> Option<Self> {
        let mut mb = megabytes.clamp(1, MAX_MEGABYTES);
        loop {
            match TranspositionTable::try_new(mb) {
                Ok(t) => return Some(t),
                Err(_) if mb > 1 => mb /= 2,
                Err(_) => return None,
            }
        }
    }

    /// A table of at most `megabytes` MB, smaller if that much cannot be had.
    ///
    /// # Panics
    ///
    /// When not even 1 MB can be allocated.
    pub fn new(megabytes: usize) -> Self {
        match TranspositionTable::with_fallback(megabytes) {
            Some(t) => t,
            None => panic!("cannot allocate a 1 MB hash table"),
        }
    }

    /// The size in bytes of a table of `megabytes` MB, if it can be asked for.
    pub fn bytes_for(megabytes: usize) -> Option<usize> {
        if megabytes > MAX_MEGABYTES {
            return None;
        }
        bucket_count(megabytes)?.checked_mul(BUCKET_BYTES)
    }

    fn buckets(&self) -> &[Bucket] {
        self.memory.as_slice()
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.memory.len * BUCKET_BYTES
    }

    /// Size in MB (whole; a table is always at least 1 MB).
    pub fn megabytes(&self) -> usize {
        self.bytes() / MB
    }

    /// Forget everything (a new game). Only words holding data are written, so pages the
    /// search never reached stay unmapped.
    pub fn clear(&self) {
        if self.written.swap(false, Ordering::Relaxed) {
            for b in self.buckets() {
                for w in &b.words {
                    if w.load(Ordering::Relaxed) != 0 {
                        w.store(0, Ordering::Relaxed);
                    }
                }
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Mark the start of a new search, so entries of older searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let buckets = self.buckets();
        let i = ((hash as u128 * buckets.len() as u128) >> 64) as usize;
        &buckets[i]
    }

    /// Start loading `hash`'s bucket into the cache for a probe a little later: the bucket
    /// is almost never cached, and the child's own work before its probe hides part of the
    /// wait.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(hash) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; it never faults and changes no memory.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let b = self.bucket(hash);
        for e in 0..ENTRIES {
            let key = b.words[2 * e].load(Ordering::Relaxed);
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            if key ^ data == hash {
                if let Some((entry, _)) = unpack(data) {
                    return Some(entry);
                }
            }
        }
        None
    }

    pub fn store(&self, hash: u64, move_index: Option<u8>, depth: i32, bound: Bound, score: i32) {
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let b = self.bucket(hash);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for e in 0..ENTRIES {
            let key = b.words[2 * e].load(Ordering::Relaxed);
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            let Some((old, old_gen)) = unpack(data) else {
                victim = e;
                break;
            };
            if key ^ data == hash {
                // Same position: keep a deeper result of this search, but keep its move.
                if old.depth > depth + 2 && old_gen == generation && bound != Bound::Exact {
                    return;
                }
                let move_index = move_index.or(old.move_index);
                let d = pack(move_index, depth, bound, generation, score);
                b.words[2 * e].store(hash ^ d, Ordering::Relaxed);
                b.words[2 * e + 1].store(d, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(old_gen) & 0x3f) as i32;
            let worth = old.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let d = pack(move_index, depth, bound, generation, score);
        b.words[2 * victim].store(hash ^ d, Ordering::Relaxed);
        b.words[2 * victim + 1].store(d, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search (the protocol's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let buckets = self.buckets();
        let sample = buckets.len().min(250);
        let mut used = 0;
        for b in &buckets[..sample] {
            for e in 0..ENTRIES {
                if let Some((_, g)) = unpack(b.words[2 * e + 1].load(Ordering::Relaxed)) {
                    used += (g == generation) as u32;
                }
            }
        }
        used * 1000 / (sample as u32 * ENTRIES as u32)
    }
}
