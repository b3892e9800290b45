use std::path::{Path, PathBuf};

/// Why a table file could not be written, opened or read. Every error names the file.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The operating system's error is part of the message, not a separate
    /// cause, so that it is said once.
    #[error("{}: {action}: {cause}", path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        cause: std::io::Error,
    },
    #[error("{}: not a regular file (a table is a file written by tbgen)", path.display())]
    NotAFile { path: PathBuf },
    #[error("{}: not a table file (no table magic bytes at the start)", path.display())]
    Foreign { path: PathBuf },
    #[error("{}: table format version {found}; this build reads version {expected}: make the table again with this build's tbgen", path.display())]
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    #[error("{}: holds the table named {holds}, not this one", path.display())]
    Misnamed { path: PathBuf, holds: String },
    #[error("{}: corrupt table: {problem}", path.display())]
    Corrupt { path: PathBuf, problem: String },
    #[error("{}: reads part of its values from {} beside it, which cannot be used: {problem}; make it again with tbgen", path.display(), beside.display())]
    Shared {
        path: PathBuf,
        beside: PathBuf,
        problem: String,
    },
    #[error("{}: stores its values in {name}, an order of its game's own, which it was not read with", path.display())]
    Unspelled { path: PathBuf, name: String },
    #[error("{}: index {index} is outside the table's {size} slots", path.display())]
    OutOfRange {
        path: PathBuf,
        index: u64,
        size: u64,
    },
    #[error(
        "{}: slot {index} is in lane {lane}, which the table does not store \
         (its positions are valued by a search of their moves)",
        path.display()
    )]
    LaneLeft {
        path: PathBuf,
        index: u64,
        lane: u32,
    },
}

impl TableError {
    /// The file the error is about.
    pub fn path_mut(&mut self) -> &mut PathBuf {
        match self {
            TableError::Io { path, .. }
            | TableError::NotAFile { path }
            | TableError::Foreign { path }
            | TableError::Version { path, .. }
            | TableError::Misnamed { path, .. }
            | TableError::Corrupt { path, .. }
            | TableError::Shared { path, .. }
            | TableError::Unspelled { path, .. }
            | TableError::OutOfRange { path, .. }
            | TableError::LaneLeft { path, .. } => path,
        }
    }

    pub(crate) fn io(path: &Path, action: &'static str, cause: std::io::Error) -> Self {
        TableError::Io {
            path: path.to_path_buf(),
            action,
            cause,
        }
    }

    pub(crate) fn corrupt(path: &Path, problem: impl Into<String>) -> Self {
        TableError::Corrupt {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }
}
