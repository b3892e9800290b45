use games::GameError;
use std::path::PathBuf;
use tables::TableError;

/// Why a query could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The position, move or variant given is wrong.
    #[error(transparent)]
    Input(#[from] GameError),
    /// The table that would answer has not been generated.
    #[error("{}: no such table; generate it with `{command}`", path.display())]
    MissingTable { path: PathBuf, command: String },
    /// The table exists but cannot be used.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The table opened but belongs to something else, or disagrees with the rules.
    #[error("{}: {problem}", path.display())]
    WrongTable { path: PathBuf, problem: String },
    /// Reading from or writing to the terminal failed.
    #[error("terminal: {0}")]
    Terminal(#[from] std::io::Error),
}
