//! Opening books: a diff-friendly text format, lookup with weighted choice, and building by search.

pub mod cli;
