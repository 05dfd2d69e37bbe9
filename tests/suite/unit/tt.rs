//! The transposition table (`search::tt`): store and probe, sizes, buckets.

use damas::search::tt::*;

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
fn sizes_beyond_the_limit_are_errors_not_aborts() {
    for mb in [MAX_MEGABYTES + 1, usize::MAX / MB + 1, usize::MAX] {
        assert_eq!(
            TranspositionTable::try_new(mb).err(),
            Some(AllocError { megabytes: mb })
        );
        assert_eq!(TranspositionTable::bytes_for(mb), None);
    }
    assert_eq!(
        AllocError { megabytes: 32768 }.to_string(),
        "cannot allocate 32768 MB"
    );
    assert_eq!(TranspositionTable::bytes_for(3), Some(2 * MB));
    assert_eq!(TranspositionTable::bytes_for(0), Some(MB));
}

#[test]
fn size_is_a_power_of_two_within_the_limit() {
    let tt = TranspositionTable::new(3);
    assert!(tt.bytes() <= 3 * 1024 * 1024);
    assert!(tt.bytes().is_power_of_two());
    assert_eq!(tt.bytes(), 2 * 1024 * 1024);
    assert_eq!(tt.megabytes(), 2);
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
