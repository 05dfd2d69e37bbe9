//! Search limits (`search::limits`).

use damas::search::limits::*;
use std::time::Duration;

#[test]
fn move_time_is_a_hard_limit_with_a_margin() {
    let b = Limits::move_time(Duration::from_millis(100)).budget();
    assert!(b.hard.expect("hard") < Duration::from_millis(100));
    assert!(b.hard.expect("hard") >= Duration::from_millis(90));
}

#[test]
fn a_clock_never_budgets_more_than_it_has() {
    for ms in [1u64, 10, 100, 1000, 60_000] {
        let l = Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(ms),
                moves_to_go: Some(1),
            }),
            ..Limits::default()
        };
        let b = l.budget();
        assert!(b.hard.expect("hard") <= Duration::from_millis(ms) / 2);
        assert!(b.soft.expect("soft") <= b.hard.expect("hard"));
    }
}

#[test]
fn infinite_has_no_budget() {
    let l = Limits {
        infinite: true,
        move_time: Some(Duration::from_millis(5)),
        ..Limits::default()
    };
    assert_eq!(l.budget().hard, None);
}
