//! Endgame table files (`egdb::file`): blocks round-trip, a flipped bit fails the checksum.

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
