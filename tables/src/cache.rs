//! Decompressed blocks, shared by every table opened with the same cache and
//! bounded by a memory budget: the least useful blocks are dropped first (S3-FIFO,
//! a refinement of LRU), and a dropped block is decompressed again when needed.

use quick_cache::Weighter;
use quick_cache::sync::Cache;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// The budget of the process-wide cache that tables use unless given another:
/// as many values of a table with a dictionary as 256 MiB held when a block
/// was kept as its codes.
pub const DEFAULT_BUDGET_BYTES: u64 = 128 << 20;

/// A block's values: where its table has a dictionary (most tables), a byte
/// a value naming one of the dictionary's codes, half the memory of the codes
/// themselves; else the codes.
#[derive(Debug, Clone)]
pub enum Block {
    Named {
        names: Arc<[u8]>,
        dictionary: Arc<[u16]>,
    },
    Codes(Arc<[u16]>),
}

impl Block {
    /// The code of value `at`.
    #[inline]
    pub fn get(&self, at: usize) -> u16 {
        match self {
            Block::Named { names, dictionary } => dictionary[usize::from(names[at])],
            Block::Codes(codes) => codes[at],
        }
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        match self {
            Block::Named { names, .. } => names.len(),
            Block::Codes(codes) => codes.len(),
        }
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes its values take.
    fn bytes(&self) -> u64 {
        match self {
            Block::Named { names, .. } => names.len() as u64,
            Block::Codes(codes) => codes.len() as u64 * 2,
        }
    }
}

/// Which block of which opened table.
type Key = (u64, u32);

#[derive(Debug, Clone, Copy)]
struct Bytes;

impl Weighter<Key, Block> for Bytes {
    fn weight(&self, _key: &Key, block: &Block) -> u64 {
        // At least 1: an empty block still takes a slot.
        block.bytes().max(1)
    }
}

/// A cache of decompressed blocks with a byte budget; cloning shares it.
#[derive(Clone)]
pub struct BlockCache {
    blocks: Arc<Cache<Key, Block, Bytes>>,
    budget: u64,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockCache")
            .field("budget", &self.budget)
            .field("bytes", &self.bytes())
            .finish()
    }
}

impl BlockCache {
    /// A cache holding at most about `budget` bytes of decompressed values.
    pub fn new(budget: u64) -> Self {
        let budget = budget.max(1);
        // A guess at how many blocks fit, for sizing; blocks are 32 KiB by default.
        let blocks = (budget / (32 << 10)).clamp(16, 1 << 20) as usize;
        BlockCache {
            blocks: Arc::new(Cache::with_weighter(blocks, budget, Bytes)),
            budget,
        }
    }

    /// The process-wide cache of [`DEFAULT_BUDGET_BYTES`].
    pub fn shared() -> BlockCache {
        static SHARED: OnceLock<BlockCache> = OnceLock::new();
        SHARED
            .get_or_init(|| BlockCache::new(DEFAULT_BUDGET_BYTES))
            .clone()
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The bytes of decompressed values held now.
    pub fn bytes(&self) -> u64 {
        self.blocks.weight()
    }

    /// Drops every block held. A block is keyed by the table opened, so the
    /// blocks of tables no longer open are never asked for again: a generator
    /// that has let go of the tables it read clears them rather than carry
    /// them (up to the whole budget) through its next tier.
    pub fn clear(&self) {
        self.blocks.clear();
    }

    /// The block of table `table`, computing it with `load` when absent.
    pub(crate) fn get_or_load<E>(
        &self,
        table: u64,
        block: u32,
        load: impl FnOnce() -> Result<Block, E>,
    ) -> Result<Block, E> {
        self.blocks.get_or_insert_with(&(table, block), load)
    }
}

/// A number no other table opened by this process has, to key its blocks.
pub(crate) fn next_table_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
