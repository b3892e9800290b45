use games::GameError;
use std::path::{Path, PathBuf};
use tables::TableError;

/// Why a query could not be answered: the domain's errors, the same from the
/// command line and the server (whose own are [`crate::serve::ServeError`]).
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
    /// The work was stopped: its request timed out or was abandoned.
    #[error("stopped: {0}")]
    Cancelled(String),
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

    /// The error with the paths of tables in `dir` written from `dir`, as a
    /// server answers, so that its clients are not told where it keeps its files.
    pub fn within(mut self, dir: &Path) -> QueryError {
        let relative = |path: &mut PathBuf| {
            if let Ok(inside) = path.strip_prefix(dir) {
                *path = inside.to_path_buf();
            }
        };
        match &mut self {
            QueryError::MissingTable { path, command } => {
                relative(path);
                *command = command.replace(&format!(" --dir {}", dir.display()), "");
            }
            QueryError::WrongTable { path, .. } => relative(path),
            QueryError::Table(e) => relative(e.path_mut()),
            _ => {}
        }
        self
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
