//! Endgame table indexing (`egdb::index`): every index round-trips, sizes are binomials.

use damas::core::rules::Rules;
use damas::core::rules::{English, International};
use damas::egdb::index::*;

fn round_trip<R: Rules>(m: Material) {
    let ix = Indexer::<R>::new(m);
    let mut holes = 0;
    for i in 0..ix.len() {
        match ix.position(i) {
            Some(p) => {
                assert_eq!(ix.index(&p), i);
                assert_eq!(Material::of(&p), m);
            }
            None => holes += 1,
        }
    }
    assert!(holes < ix.len());
}

#[test]
fn index_round_trips() {
    round_trip::<English>(Material::new(1, 1, 1, 0));
    round_trip::<English>(Material::new(0, 2, 0, 1));
    round_trip::<English>(Material::new(2, 0, 1, 1));
    round_trip::<International>(Material::new(1, 1, 0, 1));
}

#[test]
fn sizes_are_binomials() {
    // Three kings against one on 32 squares: C(32,3) · 29, twice.
    assert_eq!(
        Indexer::<English>::new(Material::new(0, 3, 0, 1)).len(),
        4960 * 29 * 2
    );
    assert_eq!(
        slice_size::<English>(&Material::new(1, 1, 1, 0)),
        Indexer::<English>::new(Material::new(1, 1, 1, 0)).len()
    );
}
