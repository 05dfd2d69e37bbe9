//! Text for people at a terminal: the board as a diagram.

use damas::core::geometry::Geometry;
use damas::core::position::Position;
use damas::core::rules::{Numbering, Rules};

/// The board as rows of piece letters (`w b W B`, `.` for an empty square), White at the
/// bottom, ranks on the left and files underneath.
pub fn diagram<R: Rules>(pos: &Position<R>) -> String {
    let l = R::G::LAYOUT;
    // Mirrored numberings show the board as their players see it.
    let mirrored = matches!(R::NUMBERING, Numbering::Italian | Numbering::Portuguese);
    let mut s = String::new();
    for rank in (0..l.height as i32).rev() {
        s.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..l.width as i32 {
            let f = if mirrored {
                l.width as i32 - 1 - file
            } else {
                file
            };
            let c = match R::G::square_at(f, rank) {
                None => ' ',
                Some(sq) => pos.piece_at(sq).map_or('.', |p| p.to_char()),
            };
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
    }
    s.push_str("    ");
    for file in 0..l.width {
        s.push(' ');
        s.push((b'a' + file) as char);
    }
    s.push('\n');
    s
}
