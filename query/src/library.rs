//! Where queries find their tables: a folder, and the tables opened from it,
//! shared by every query of a long-running process.

use crate::tablebase::{TableCache, Tablebase};
use games::Game;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tables::BlockCache;

/// A folder of tables and the ones already open.
#[derive(Debug, Clone)]
pub struct Library {
    pub dir: PathBuf,
    pub cache: Arc<TableCache>,
}

impl Library {
    /// The tables in `dir`, their blocks in the process-wide cache.
    pub fn new(dir: impl AsRef<Path>) -> Self {
        Library {
            dir: dir.as_ref().to_path_buf(),
            cache: Arc::default(),
        }
    }

    /// The tables in `dir`, with a block cache of its own of `budget` bytes.
    pub fn with_budget(dir: impl AsRef<Path>, budget: u64) -> Self {
        Library {
            dir: dir.as_ref().to_path_buf(),
            cache: Arc::new(TableCache::new(BlockCache::new(budget))),
        }
    }

    /// A game's tables in this folder.
    pub fn tablebase<'g, G: Game>(&self, game: &'g G) -> Tablebase<'g, G> {
        Tablebase::with_cache(game, &self.dir, Arc::clone(&self.cache))
    }
}
