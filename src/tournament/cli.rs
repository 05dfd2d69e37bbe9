//! `damas match …`: play engines against each other.

/// Arguments of `damas match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {}

/// A failure of the match command, shown on one line.
#[derive(Debug)]
pub struct MatchCliError(String);

impl std::fmt::Display for MatchCliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Run a match.
pub fn run(_args: MatchArgs) -> Result<(), MatchCliError> {
    Err(MatchCliError("matches are not built yet".into()))
}
