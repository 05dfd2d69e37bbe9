//! Engine-versus-engine matches driven over the Hub protocol.

pub mod cli;
