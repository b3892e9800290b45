//! The layout of a table file.
//!
//! ```text
//! magic          8 bytes   b"TBASE\r\n\x1a"
//! version        u32 LE    FORMAT_VERSION
//! header length  u32 LE    H
//! header         H bytes   bincode 2 (standard configuration) of `Header`
//! dictionary     u32 LE    N, at most 256; then N codes, u16 LE each
//! block table    16 bytes per block: offset u64 LE, length u32 LE, crc32 u32 LE
//!                of the block's compressed bytes
//! prefix crc     u32 LE    crc32 of everything before it
//! blocks         zstd frames, each with its content checksum, back to back up to
//!                the end of the file
//! ```
//!
//! A block holds `block_entries` values (the last one fewer) before compression,
//! so one lookup decompresses one block: each value is a byte, the place of its
//! code in the dictionary, when the table holds at most 256 distinct codes (most
//! do: a win/loss/draw table's codes are its distances), else its code as u16 LE
//! and the dictionary is empty.

use bincode::{Decode, Encode};

pub const MAGIC: [u8; 8] = *b"TBASE\r\n\x1a";
pub const FORMAT_VERSION: u32 = 2;
/// Magic, version and header length.
pub const PREAMBLE_BYTES: usize = 16;
pub const BLOCK_ENTRY_BYTES: usize = 16;
pub const DEFAULT_BLOCK_ENTRIES: u32 = 1 << 14;
/// The most codes a dictionary holds: one byte tells them apart.
pub const MAX_DICTIONARY: usize = 256;
/// Largest header accepted when reading; a real one is a few hundred bytes.
pub const MAX_HEADER_BYTES: u32 = 1 << 20;

/// What a table holds: which game and tier, how values are coded, how they were made.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct Header {
    /// Game identifier, e.g. `euler`.
    pub game: String,
    /// Variant parameters, e.g. a board size; empty when there are none.
    pub variant: String,
    /// Tier name, e.g. a chess material signature; empty for single-tier games.
    pub tier: String,
    /// Number of index slots (values) in the table.
    pub index_size: u64,
    /// Value encoding tag, e.g. `wld16`; a reader checks it before decoding values.
    pub encoding: String,
    /// Values per compressed block.
    pub block_entries: u32,
    pub stats: Stats,
}

/// Solve statistics, for `tbquery info` and for checks against published figures.
#[derive(Debug, Clone, Default, PartialEq, Encode, Decode)]
pub struct Stats {
    /// Slots holding a legal position.
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Longest distance to the end in plies (score games: largest absolute score).
    pub longest: u32,
    /// Wall-clock seconds the solve took.
    pub solve_seconds: f64,
    /// Game-specific figures as name/value pairs, e.g. counts over unfolded positions.
    pub extra: Vec<(String, String)>,
}

pub(crate) fn bincode_config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// The same configuration for reading, which also refuses any length claimed
/// inside a header larger than a header may be, before allocating for it.
pub(crate) fn bincode_read_config() -> impl bincode::config::Config {
    bincode_config().with_limit::<{ MAX_HEADER_BYTES as usize }>()
}

/// The number of blocks for a table of `index_size` values.
pub fn block_count(index_size: u64, block_entries: u32) -> Option<u64> {
    (block_entries > 0).then(|| index_size.div_ceil(u64::from(block_entries)))
}

/// The file name of a table: `<game>[-<variant>][-<tier>].tb`, e.g. `euler.tb`,
/// `dots-3x3.tb`, `chess-KQvKR.tb`.
pub fn file_name(game: &str, variant: &str, tier: &str) -> String {
    let mut name = game.to_string();
    for part in [variant, tier] {
        if !part.is_empty() {
            name.push('-');
            name.push_str(part);
        }
    }
    name.push_str(".tb");
    name
}
