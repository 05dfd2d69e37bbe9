//! Damas: a checkers/draughts engine for many variants.
//!
//! Layers, each using only those before it: types (`square`, `bitboard`, `color`, `piece`,
//! `mv`), `geometry` and `rules`, then `position`, `movegen` and `notation`, then `perft`.

pub mod bench;
pub mod bitboard;
pub mod book;
pub mod color;
pub mod draw;
pub mod engine;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod hub;
pub mod limits;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod piece;
pub mod play;
pub mod position;
pub mod rules;
pub mod search;
pub mod square;
pub mod terminal;
pub mod tournament;
pub mod tt;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use movegen::Convention;
pub use mv::Move;
pub use piece::{Kind, Piece};
pub use position::{Position, PositionError, Setup};
pub use rules::Rules;
pub use square::Square;
pub use variant::{Variant, VariantError};
