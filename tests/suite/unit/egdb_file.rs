//! Endgame table files (`egdb::file`): blocks and distance chunks round-trip, a flipped bit
//! fails the checksum, a file of another slice is refused.

use damas::egdb::file::*;
use damas::egdb::{EgdbError, Material};
use std::path::Path;

#[test]
fn blocks_round_trip() {
    let mut v = Packed::new(100_000);
    for i in 0..100_000u64 {
        let x = if i < 40_000 { 0 } else { ((i * 7919) >> 3) % 4 };
        v.set(i, x as u8);
    }
    let m = Material::new(0, 2, 0, 1);
    let bytes = encode("english", m, &v);
    let p = Path::new("x");
    let (h, w) = decode(p, &bytes, "english", m, 100_000).unwrap();
    assert_eq!(h.positions, 100_000);
    assert_eq!(w.bytes, v.bytes);
    let mut bad = bytes.clone();
    bad[bytes.len() / 2] ^= 1;
    assert!(matches!(
        decode(p, &bad, "english", m, 100_000),
        Err(EgdbError::Checksum { .. })
    ));
}

#[test]
fn distances_round_trip_over_chunks() {
    // Three chunks, the last one short.
    let n = 2 * DISTANCE_CHUNK + 12_345;
    let d: Vec<u8> = (0..n)
        .map(|i| if i % 3 == 0 { 0 } else { (i * 31 % 97) as u8 })
        .collect();
    let m = Material::new(1, 1, 0, 2);
    let bytes = encode_distances("international", m, &d);
    assert!(
        bytes.len() < n / 2,
        "{} bytes for {n} distances",
        bytes.len()
    );
    let p = Path::new("x.dtc");
    assert_eq!(
        decode_distances(p, &bytes, "international", m, n as u64).unwrap(),
        d
    );
    let mut bad = bytes.clone();
    bad[bytes.len() / 2] ^= 4;
    assert!(matches!(
        decode_distances(p, &bad, "international", m, n as u64),
        Err(EgdbError::Checksum { .. })
    ));
    for (variant, material, size) in [
        ("english", m, n as u64),
        ("international", Material::new(1, 1, 1, 1), n as u64),
        ("international", m, n as u64 + 1),
    ] {
        assert!(matches!(
            decode_distances(p, &bytes, variant, material, size),
            Err(EgdbError::Corrupt { .. })
        ));
    }
}
