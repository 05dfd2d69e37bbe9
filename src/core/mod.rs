//! The rules of the game: types, board geometries, rules as data, positions, the move
//! generator, notation, draw rules and game records. Nothing here searches or prints.

pub mod bitboard;
pub mod color;
pub mod draw;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod parallel;
pub mod patterns;
pub mod pdn;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rules;
pub mod square;
pub mod variant;
pub mod zobrist;
