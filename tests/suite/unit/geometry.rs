//! Board geometries (`core::geometry`).

use damas::core::geometry::*;

#[test]
fn dark_layouts_round_trip() {
    for l in [
        Dark8::LAYOUT,
        Dark10::LAYOUT,
        Dark12::LAYOUT,
        Full8::LAYOUT,
        Points5::LAYOUT,
    ] {
        let mut seen = 0;
        for i in 0..l.span() {
            if let Some((f, r)) = l.coords(i) {
                assert_eq!(l.index(f as i32, r as i32), Some(i));
                seen += 1;
            }
        }
        assert_eq!(seen, l.squares());
    }
}

#[test]
fn international_square_one_is_b10() {
    assert_eq!(Dark10::LAYOUT.coords(0), Some((1, 9)));
    assert_eq!(Dark10::LAYOUT.index(0, 0), Some(49));
}
