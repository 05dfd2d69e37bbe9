//! Tests of the library's parts, kept out of the library itself: `cargo test` then compiles
//! the library once, for the binary and this suite alike, instead of a second time with
//! `cfg(test)`. The files follow the source tree (`hub_session` tests `app/hub`, …).

mod book_build;
mod dxp_board;
mod dxp_link;
mod dxp_message;
mod egdb_file;
mod egdb_index;
mod engine_limits;
mod eval;
mod geometry;
mod hub_fuzz;
mod hub_message;
mod hub_pydraughts;
mod hub_session;
mod play;
mod play_scripted;
mod search_limits;
mod tournament;
mod tournament_shard;
mod tournament_spec;
mod tournament_stats;
mod trained;
mod tt;
