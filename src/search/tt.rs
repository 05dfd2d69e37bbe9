//! The transposition table: shared by every search thread without locks.
//!
//! Each entry is two 64-bit words, the key stored XOR-ed with the data, so a torn write
//! from two threads reads back as a miss rather than as a wrong hit. Four entries make a
//! 64-byte bucket; a bucket is chosen by the hash, and replacement prefers shallow and
//! old entries.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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

/// A lock-free hash table of search results, sized in megabytes.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
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
    /// A table of at most `megabytes` MB (rounded down to a power of two buckets; at least one).
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let mut n = 1usize;
        while n * 2 * std::mem::size_of::<Bucket>() <= bytes {
            n *= 2;
        }
        let buckets = (0..n)
            .map(|_| Bucket {
                words: Default::default(),
            })
            .collect();
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything (a new game).
    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.words {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Mark the start of a new search, so entries of older searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let i = ((hash as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
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
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in 0..ENTRIES {
                if let Some((_, g)) = unpack(b.words[2 * e + 1].load(Ordering::Relaxed)) {
                    used += (g == generation) as u32;
                }
            }
        }
        used * 1000 / (sample as u32 * ENTRIES as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1);
        assert!(tt.probe(42).is_none());
        tt.store(42, Some(3), 7, Bound::Lower, -1234);
        let e = tt.probe(42).expect("stored");
        assert_eq!(e.move_index, Some(3));
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert_eq!(e.score, -1234);
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn size_is_a_power_of_two_within_the_limit() {
        let tt = TranspositionTable::new(3);
        assert!(tt.bytes() <= 3 * 1024 * 1024);
        assert!(tt.buckets.len().is_power_of_two());
    }

    #[test]
    fn a_bucket_keeps_four_positions() {
        let tt = TranspositionTable::new(1);
        // Same bucket: equal high bits of the hash.
        let keys: Vec<u64> = (1..=4).map(|i| (7u64 << 60) | i).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, None, i as i32, Bound::Exact, i as i32);
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(tt.probe(k).map(|e| e.score), Some(i as i32));
        }
    }
}
