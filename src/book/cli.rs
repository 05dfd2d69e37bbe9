//! `damas book …`: build and inspect opening books.

/// Arguments of `damas book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {}

/// A failure of a book command, shown on one line.
#[derive(Debug)]
pub struct BookCliError(String);

impl std::fmt::Display for BookCliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Run a book command.
pub fn run(_args: BookArgs) -> Result<(), BookCliError> {
    Err(BookCliError("book commands are not built yet".into()))
}
