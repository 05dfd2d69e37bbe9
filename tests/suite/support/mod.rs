//! Helpers for tests that drive the built `damas` binary as a child process.

pub mod hub_process;
pub mod run;
