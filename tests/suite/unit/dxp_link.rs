//! NUL framing of DXP messages (`app::dxp::link`): split anywhere, bounded buffering.

use damas::app::dxp::link::*;
use damas::app::dxp::message::{DxpError, MAX_LEN};

#[test]
fn frames_split_anywhere() {
    let wire = b"E00\0M0012061100\0K0\0";
    for cut in 0..wire.len() {
        let mut f = Framer::default();
        f.push(&wire[..cut]);
        f.push(&wire[cut..]);
        let frames: Vec<_> = std::iter::from_fn(|| f.next_message()).collect();
        assert_eq!(
            frames,
            vec![
                Ok(b"E00".to_vec()),
                Ok(b"M0012061100".to_vec()),
                Ok(b"K0".to_vec())
            ]
        );
    }
}

#[test]
fn a_megabyte_without_nul_stays_small() {
    let mut f = Framer::default();
    let chunk = vec![b'C'; 4096];
    for _ in 0..256 {
        f.push(&chunk);
        assert!(f.buffered() <= MAX_LEN + 1);
    }
    assert!(f.overflowing());
    f.push(b"\0E00\0");
    assert_eq!(f.next_message(), Some(Err(DxpError::TooLong(1 << 20))));
    assert_eq!(f.next_message(), Some(Ok(b"E00".to_vec())));
}

#[test]
fn longest_message_passes() {
    let mut f = Framer::default();
    let mut m = vec![b'C'; MAX_LEN];
    m.push(0);
    f.push(&m);
    assert_eq!(f.next_message(), Some(Ok(vec![b'C'; MAX_LEN])));
    let mut long = vec![b'C'; MAX_LEN + 1];
    long.push(0);
    f.push(&long);
    assert!(matches!(f.next_message(), Some(Ok(v)) if v.len() == MAX_LEN + 1));
}
