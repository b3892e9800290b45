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

/// How many slots hold each score (score games), kept in the header as one
/// of the [`Stats::extra`] figures, written and read here only.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreCounts(pub Vec<(i64, u64)>);

impl ScoreCounts {
    /// The figure's name among the extras.
    pub const NAME: &'static str = "slots by score";

    /// The figure as an extra: `-2: 5, +0: 17, +3: 1`.
    pub fn to_extra(&self) -> (String, String) {
        let text: Vec<String> = self
            .0
            .iter()
            .map(|(score, count)| format!("{score:+}: {count}"))
            .collect();
        (Self::NAME.to_string(), text.join(", "))
    }
}

impl Stats {
    /// The slots by score, where the table keeps them (score games).
    pub fn score_counts(&self) -> Option<ScoreCounts> {
        let (_, text) = self.extra.iter().find(|(k, _)| k == ScoreCounts::NAME)?;
        let counts = text
            .split(", ")
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (score, count) = pair.split_once(": ")?;
                Some((score.parse().ok()?, count.parse().ok()?))
            })
            .collect::<Option<Vec<(i64, u64)>>>()?;
        Some(ScoreCounts(counts))
    }
}

#[cfg(test)]
mod score_tests {
    use super::*;

    #[test]
    fn score_counts_read_back_as_written() {
        let counts = ScoreCounts(vec![(-2, 5), (0, 17), (3, 1)]);
        let stats = Stats {
            extra: vec![counts.to_extra()],
            ..Stats::default()
        };
        assert_eq!(stats.extra[0].1, "-2: 5, +0: 17, +3: 1");
        assert_eq!(stats.score_counts(), Some(counts));
        assert_eq!(Stats::default().score_counts(), None);
    }
}
