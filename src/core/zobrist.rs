//! Zobrist keys, built at compile time.

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build() -> [[u64; 128]; 6] {
    let mut t = [[0u64; 128]; 6];
    let mut p = 0;
    while p < 6 {
        let mut s = 0;
        while s < 128 {
            t[p][s] = splitmix((p * 128 + s) as u64 * 0x1000_0001 + 7);
            s += 1;
        }
        p += 1;
    }
    t
}

/// Key of a piece (by `Piece::index`) on a square.
pub static PIECE_SQUARE: [[u64; 128]; 6] = build();
/// Key added when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0x5D58_8B65_6C07_8965;

/// Key of a side's run of `count` (1 to 3) non-capturing moves by the king now on `square`
/// (Frisian's king-move limit).
pub const fn king_run(color: usize, square: u8, count: u8) -> u64 {
    splitmix(0x4B49_4E47_0000 + ((color as u64 * 4 + count as u64) << 8) + square as u64)
}
