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
    /// A request's parameters are missing or not in their form.
    #[error("bad request: {0}")]
    Request(String),
    /// A position (or other value of a request) longer than is answered.
    #[error(
        "bad position '{shown}...': {bytes} bytes; positions of up to {limit} bytes are answered"
    )]
    TooLong {
        shown: String,
        bytes: usize,
        limit: usize,
    },
    /// The rules contradict themselves, or a worker failed: a bug, not the input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl QueryError {
    /// A value too long to answer, shown by its first 40 characters.
    pub fn too_long(text: &str, limit: usize) -> QueryError {
        QueryError::TooLong {
            shown: text.chars().take(40).collect(),
            bytes: text.len(),
            limit,
        }
    }

    /// The position the error is about, where it names one.
    pub fn position(&self) -> &str {
        match self {
            QueryError::Input(GameError::BadPosition { text, .. })
            | QueryError::Input(GameError::BeyondTables { text, .. }) => text,
            QueryError::TooLong { shown, .. } => shown,
            _ => "",
        }
    }
}
