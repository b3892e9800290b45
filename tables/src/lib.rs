//! The table file format: a self-describing header, 16-bit value codes in
//! independently compressed blocks with checksums, an atomic writer and a
//! memory-mapped reader. Knows no game's rules.

mod cache;
mod codes;
mod error;
mod fill;
pub mod format;
mod places;
mod reader;
mod writer;

pub use cache::{Block, BlockCache, DEFAULT_BUDGET_BYTES};
pub use codes::{Codes, CodesBuilder, Room};
pub use error::TableError;
pub use format::{
    DEFAULT_BLOCK_ENTRIES, Empty, Exits, FORMAT_VERSION, Header, ScoreCounts, Shared, Stats,
    file_name,
};
pub use places::{Digits, Places, Spelled, Speller, Spelling, permutations};
pub use reader::{Access, Figures, FileIdentity, Table, Tally};
pub use writer::{
    DEFAULT_LEVEL, Encoded, FAST_LEVEL, Frees, Slack, Weigher, encode_table, write_atomically,
    write_table, write_table_leaving, write_table_slack, write_table_spelled, write_table_with,
};
