//! Text for people at a terminal: the board as a diagram.

use crate::core::geometry::Geometry;
use crate::core::notation::square_number;
use crate::core::position::Position;
use crate::core::rules::{Numbering, Rules};

/// The board as rows of piece letters (`w b W B`, `.` for an empty square), White at the
/// bottom, ranks on the left and files underneath.
pub fn diagram<R: Rules>(pos: &Position<R>) -> String {
    board::<R>(pos, false)
}

/// Whether the variant writes its moves with square numbers (`11-15`) rather than
/// algebraic names (`c3-d4`).
pub fn numbered<R: Rules>() -> bool {
    !R::ALGEBRAIC_OUTPUT && R::NUMBERING != Numbering::Algebraic
}

/// [`diagram`] with, for variants whose moves are written with numbers, each rank's square
/// numbers beside it, so that a newcomer can find square 11.
pub fn diagram_with_numbers<R: Rules>(pos: &Position<R>) -> String {
    board::<R>(pos, numbered::<R>())
}

fn board<R: Rules>(pos: &Position<R>, numbers: bool) -> String {
    let l = R::G::LAYOUT;
    // Mirrored numberings show the board as their players see it.
    let mirrored = matches!(R::NUMBERING, Numbering::Italian | Numbering::Portuguese);
    let width = l.squares().to_string().len() + 1;
    let mut s = String::new();
    for rank in (0..l.height as i32).rev() {
        s.push_str(&format!("{:>3} ", rank + 1));
        let mut key = String::new();
        for file in 0..l.width as i32 {
            let f = if mirrored {
                l.width as i32 - 1 - file
            } else {
                file
            };
            let square = R::G::square_at(f, rank);
            let c = match square {
                None => ' ',
                Some(sq) => pos.piece_at(sq).map_or('.', |p| p.to_char()),
            };
            s.push(' ');
            s.push(c);
            match square {
                Some(sq) => key.push_str(&format!("{:>width$}", square_number::<R>(sq))),
                None => key.push_str(&" ".repeat(width)),
            }
        }
        if numbers {
            s.push_str("  ");
            s.push_str(key.trim_end());
        }
        s.push('\n');
    }
    s.push_str("    ");
    for file in 0..l.width {
        s.push(' ');
        s.push((b'a' + file) as char);
    }
    if numbers {
        s.push_str("  (square numbers)");
    }
    s.push('\n');
    s
}
