//! The applications built on the engine façade: the Hub and DXP protocols, tournaments, book
//! building, terminal play and the bench. They own stdin, stdout and files.

pub mod args;
pub mod bench;
pub mod book;
pub mod dxp;
pub mod egdb;
pub mod gui;
pub mod hub;
pub mod inspect;
pub mod play;
pub mod selfplay;
pub mod terminal;
pub mod tournament;
pub mod train;
