//! Where queries find their tables: a folder, and the tables opened from it,
//! shared by every query of a long-running process.

use crate::tablebase::{TableCache, Tablebase};
use games::Game;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A folder of tables and the ones already open.
#[derive(Debug, Clone)]
pub struct Library {
    pub dir: PathBuf,
    pub cache: Arc<TableCache>,
}

impl Library {
    pub fn new(dir: impl AsRef<Path>) -> Self {
        Library {
            dir: dir.as_ref().to_path_buf(),
            cache: Arc::default(),
        }
    }

    /// A game's tables in this folder.
    pub fn tablebase<'g, G: Game>(&self, game: &'g G) -> Tablebase<'g, G> {
        Tablebase::with_cache(game, &self.dir, Arc::clone(&self.cache))
    }
}
