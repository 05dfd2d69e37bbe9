//! Damas: a checkers/draughts engine for many variants.
//!
//! The library is layers, each using only those before it:
//!
//! 1. [`core`]: the rules of the game — squares, bitboards, board geometries, each variant's
//!    rules as data, positions, the move generator, notation, draw rules and game records.
//! 2. [`egdb`]: endgame databases, built by retrograde analysis and probed by the search.
//! 3. [`search`]: the evaluation, the transposition table, move ordering and the alpha-beta
//!    search. It never parses text and never prints.
//! 4. [`engine`]: the façade that applications drive — a variant, a game, a search on its
//!    own thread, the opening book.
//! 5. [`app`]: the applications on top of [`engine`] — the Hub and DXP protocols, the GUI
//!    server, tournaments, self-play and training, book and database building, terminal
//!    play, the bench. The `damas` binary is only their command line: every generic
//!    instance is compiled once, here, and the binary links it.
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
//!
//! Searching with the [`engine::Engine`]: create it with a hash table size, name the variant,
//! the start position (the initial one, a PDN FEN or a Hub board string) and the moves played
//! from it as text, and search to a fixed depth:
//!
//! ```
//! use damas::engine::{legal_move_count, Engine, Start};
//! use damas::search::limits::Limits;
//! use damas::search::Control;
//! use damas::Variant;
//!
//! let mut engine = Engine::new(16); // a 16 MB transposition table
//! engine.book = false; // search even where the opening book knows the position
//!
//! // English, after 11-15 23-19: Black to move, searched to depth 6.
//! let moves = ["11-15", "23-19"];
//! let mut depths = Vec::new();
//! let done = engine
//!     .think(
//!         Variant::English,
//!         Start::Initial,
//!         &moves,
//!         Limits::depth(6),
//!         &Control::new(false),
//!         &mut |info| depths.push(info.depth),
//!     )
//!     .expect("a legal position with moves");
//! assert_eq!(done.depth, 6);
//! assert_eq!(depths, [1, 2, 3, 4, 5, 6]); // one report per completed iteration
//! assert_eq!(done.pv[0], done.best);
//! // The best move is legal there: playing it leaves a position the engine accepts.
//! let after = [moves[0], moves[1], done.best.as_str()];
//! assert!(legal_move_count(Variant::English, Start::Initial, &after).is_ok());
//!
//! // A won ending given as a FEN (White: a man on 18, a king on 27; Black: a man on 3):
//! // the search sees the forced win, and says in how many plies.
//! let done = engine
//!     .think::<&str>(
//!         Variant::English,
//!         Start::Fen("W:W18,K27:B3"),
//!         &[],
//!         Limits::depth(10),
//!         &Control::new(false),
//!         &mut |_| {},
//!     )
//!     .expect("a legal position");
//! assert!(done.plies_to_end.is_some_and(|plies| plies > 0), "{done:?}");
//!
//! // Moves that are not legal are refused, naming the culprit.
//! let bad = engine.think(
//!     Variant::English,
//!     Start::Initial,
//!     &["11-15", "11-15"],
//!     Limits::depth(1),
//!     &Control::new(false),
//!     &mut |_| {},
//! );
//! assert!(bad.unwrap_err().to_string().starts_with("move 2 '11-15'"));
//! ```

pub mod app;
pub mod core;
pub mod egdb;
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
