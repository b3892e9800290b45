//! Every table file in the folder with its size and SHA-256, as a download
//! page lists them, so that a copy can be checked (`sha256sum -c`). A file's
//! digest is worked out once and kept while its size and modification time
//! stay the same; the work checks for cancellation between megabytes, so an
//! answer cut short by its deadline keeps what it finished for the next.

use crate::error::QueryError;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// One table file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableFile {
    pub file: String,
    /// The game whose table it is, by its name; none for a file of no game.
    pub game: Option<String>,
    pub bytes: u64,
    /// Lowercase hex, as `sha256sum` writes it.
    pub sha256: String,
}

/// The answer of `GET /api/v1/tables`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableFiles {
    /// By file name.
    pub tables: Vec<TableFile>,
    /// Their bytes together.
    pub bytes: u64,
}

/// What a file was when its digest was worked out.
type Stamp = (u64, Option<SystemTime>);

/// The digests worked out so far, by path.
#[derive(Debug, Default)]
pub struct Digests {
    kept: Mutex<HashMap<PathBuf, (Stamp, String)>>,
}

/// How much of a file is read between checks for cancellation.
const CHUNK: usize = 1 << 20;

impl Digests {
    /// Every `.tb` file in `dir` with its size and digest, by name; `owner`
    /// names the game of a file name.
    pub fn list(
        &self,
        dir: &Path,
        owner: impl Fn(&str) -> Option<&'static str>,
    ) -> Result<TableFiles, QueryError> {
        let read_dir = std::fs::read_dir(dir).map_err(|e| io_error(dir, e))?;
        let mut names: Vec<String> = read_dir
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".tb"))
            .collect();
        names.sort();
        let mut tables = Vec::with_capacity(names.len());
        for file in names {
            let path = dir.join(&file);
            let Ok(meta) = std::fs::metadata(&path) else {
                continue; // removed since the listing
            };
            let stamp = (meta.len(), meta.modified().ok());
            tables.push(TableFile {
                game: owner(&file).map(str::to_string),
                bytes: meta.len(),
                sha256: self.digest(&path, stamp)?,
                file,
            });
        }
        let bytes = tables.iter().map(|t| t.bytes).sum();
        Ok(TableFiles { tables, bytes })
    }

    /// The digest of the file at `path`, kept where its stamp is unchanged.
    fn digest(&self, path: &Path, stamp: Stamp) -> Result<String, QueryError> {
        let kept = self.kept.lock().expect("digests lock").get(path).cloned();
        if let Some((_, digest)) = kept.filter(|(was, _)| *was == stamp) {
            return Ok(digest);
        }
        let mut file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
        let mut hasher = Sha256::new();
        let mut chunk = vec![0u8; CHUNK];
        loop {
            crate::cancel::checkpoint()?;
            let n = file.read(&mut chunk).map_err(|e| io_error(path, e))?;
            if n == 0 {
                break;
            }
            hasher.update(&chunk[..n]);
        }
        let digest: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let mut kept = self.kept.lock().expect("digests lock");
        kept.insert(path.to_path_buf(), (stamp, digest.clone()));
        Ok(digest)
    }
}

fn io_error(path: &Path, error: std::io::Error) -> QueryError {
    QueryError::Internal(format!("{}: {error}", path.display()))
}
