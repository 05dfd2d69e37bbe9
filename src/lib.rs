//! Damas: a checkers/draughts engine for many variants.
//!
//! The library is three layers, each using only those before it:
//!
//! 1. [`core`]: the rules of the game — squares, bitboards, board geometries, each variant's
//!    rules as data, positions, the move generator, notation, draw rules and game records.
//! 2. [`search`]: the evaluation, the transposition table, move ordering and the alpha-beta
//!    search. It never parses text and never prints.
//! 3. [`engine`]: the façade that applications drive — a variant, a game, a search on its
//!    own thread, the opening book.
//!
//! The applications (Hub protocol, tournaments, book building, terminal play, bench, the
//! command line) live in the `damas` binary, on top of [`engine`].
//!
//! ```
//! use damas::core::notation::move_text;
//! use damas::core::perft::perft;
//! use damas::core::rules::English;
//! use damas::{Convention, Position};
//!
//! // The English start position: 7 moves, 49 two-ply sequences (RULES.md §5).
//! let start = Position::<English>::start();
//! assert_eq!(perft(&start, 2, Convention::Drop), 49);
//! let first: Vec<String> = start.legal_moves().iter().map(move_text::<English>).collect();
//! assert!(first.contains(&"11-15".to_string()));
//! ```

pub mod core;
pub mod engine;
pub mod search;

pub use crate::core::bitboard::Bitboard;
pub use crate::core::color::Color;
pub use crate::core::movegen::Convention;
pub use crate::core::mv::Move;
pub use crate::core::piece::{Kind, Piece};
pub use crate::core::position::{Position, PositionError, Setup};
pub use crate::core::rules::Rules;
pub use crate::core::square::Square;
pub use crate::core::variant::{Variant, VariantError};
