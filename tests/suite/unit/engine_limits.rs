//! Time allocation (`engine::limits`).

use damas::engine::limits::*;
use std::time::Duration;

#[test]
fn whole_numbers_outside_the_range_are_refused_with_the_range() {
    assert_eq!(THREADS.parse("4"), Ok(4));
    assert_eq!(THREADS.parse(" 256 "), Ok(256));
    for bad in ["0", "257", "-1", "x", "", "1.5"] {
        let e = THREADS.parse(bad).expect_err(bad);
        assert_eq!(e.to_string(), "expected a whole number from 1 to 256");
    }
    assert_eq!(DEPTH.max, 120);
}

#[test]
fn seconds_outside_the_range_are_refused() {
    assert_eq!(
        MOVE_TIME.parse_duration("0.5"),
        Ok(Duration::from_millis(500))
    );
    assert_eq!(MOVE_TIME.parse_duration("0"), Ok(Duration::ZERO));
    for bad in ["-1", "nan", "inf", "1e7", "soon"] {
        assert_eq!(
            MOVE_TIME.parse_duration(bad).expect_err(bad).to_string(),
            "expected seconds from 0 to 1000000"
        );
    }
}
