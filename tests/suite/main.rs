//! Every integration test in one binary: one link instead of one per file, and the tests of
//! all modules run in one process, in parallel.
//!
//! Run one module with a filter, e.g. `cargo test --profile ci --test suite perft::`. The
//! pydraughts checks are `#[ignore]`d and need `DAMAS_PYTHON` (`.ci/run` sets it up):
//! `cargo test --profile ci --test suite pydraughts:: -- --ignored`.

mod common;
mod support;

mod book;
mod cli;
mod differential;
mod draw;
mod dxp;
mod egdb;
mod gui;
mod hardening_cli;
mod hardening_engine;
mod hardening_one_way;
mod hardening_positions;
mod hub;
mod lidraughts;
mod pdn;
mod perft;
mod properties;
mod pydraughts;
mod reference_selftest;
mod search;
mod selfplay;
mod shards;
mod tournament;
mod unit;
