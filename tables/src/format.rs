//! The layout of a table file.
//!
//! ```text
//! magic          8 bytes   b"TBASE\r\n\x1a"
//! version        u32 LE    FORMAT_VERSION
//! header length  u32 LE    H
//! header         H bytes   bincode 2 (standard configuration) of `Header`
//! dictionary     u32 LE    N, at most 256; then N codes, u16 LE each
//! values crc     u32 LE    crc32 of the header's game, variant and tier (each
//!                followed by a 0 byte) and index size (u64 LE), then of every
//!                value as stored, u16 LE, block after block: what `check`
//!                compares, so that a table's values under another's header
//!                are refused even with every other checksum made anew
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
//!
//! The values run through the blocks lane by lane ([`crate::Places`]): slot `i` lies in
//! lane `i % lanes`, the lanes one after another, so that slots apart in a
//! field the index varies fastest (chess: the side to move) are stored apart;
//! within a lane, the fields of the entry (chess: the king pair and each kind
//! of piece) in the order the header's [`Digits`] give, the one the writer
//! found to compress best; or, where the header names a [`Spelled`] order,
//! at the place the game's [`crate::Spelling`] of that name gives each slot
//! (a place may hold no slot, and a block holds `block_entries` places).
//! Where the header says [`Empty::Filled`], a slot that holds no position (code
//! 0) is stored as whatever code compresses its block best (the writer tries a
//! few fills: `tables/src/fill.rs`), which costs less than any mark; a reader
//! then learns from the game, not the table, which slots are empty. Where the header names a [`Shared`] code, the slots another table
//! of the same tier holds that code in (chess: DTM's draws, for DTZ) hold it
//! here too and are stored as empty slots are: a reader takes the code from
//! that table first. Where the header says [`Exits::Searched`], a slot
//! whose value a move out of the tier gives stores what compresses best within
//! a bound, and a reader searches those moves. Where the header names a lane
//! left ([`Header::lane_left`]), the blocks hold the other lanes' slots
//! alone, the lanes after it moved up into its places, and a reader values a
//! slot of that lane by a search of its moves. `docs/file-format.md` gives
//! the measurements behind these choices.

use bincode::{Decode, Encode};

use crate::places::{Digits, Spelled};

pub const MAGIC: [u8; 8] = *b"TBASE\r\n\x1a";
pub const FORMAT_VERSION: u32 = 8;
/// The code of a slot that holds no position.
pub const NO_POSITION: u16 = 0;
/// Magic, version and header length.
pub const PREAMBLE_BYTES: usize = 16;
pub const BLOCK_ENTRY_BYTES: usize = 16;
pub const DEFAULT_BLOCK_ENTRIES: u32 = 1 << 15;
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
    /// Lanes the slots are stored in (see [`crate::Places`]); 1 keeps slot order.
    pub lanes: u32,
    /// The fields of a lane's entry and the order they are stored in (see
    /// [`Digits`]).
    pub digits: Digits,
    /// Where the game places the slots itself (its [`crate::Spelling`] of
    /// this name), the lanes and fields aside; none where they place them.
    pub spelled: Option<Spelled>,
    /// What the table stores for slots without a position.
    pub empty: Empty,
    /// The code another table of the tier tells, which this one does not store.
    pub shared: Option<Shared>,
    /// Whether a reader searches the moves out of the tier (see [`Exits`]).
    pub exits: Exits,
    /// The lane whose slots the table does not store, where it leaves one
    /// (chess: a side to move): every move from a slot of one lane of the
    /// tier leads to another lane or out of the tier, so a reader values the
    /// positions of the lane left by a search of their moves.
    pub lane_left: Option<u32>,
    pub stats: Stats,
}

impl Header {
    /// How many values the blocks hold: a place each.
    pub fn places(&self) -> u64 {
        match &self.spelled {
            Some(spelled) => spelled.places,
            None => self.index_size - self.lane_left.map_or(0, |lane| self.lane_len(lane)),
        }
    }

    /// How many slots lane `lane` holds: the first `index_size % lanes`
    /// lanes one more than the others.
    pub fn lane_len(&self, lane: u32) -> u64 {
        let lanes = u64::from(self.lanes.max(1));
        self.index_size / lanes + u64::from(u64::from(lane) < self.index_size % lanes)
    }

    /// Why the table cannot leave the lane it names, if it cannot: only a
    /// table of two lanes or more leaves one, and only one of its own.
    pub fn lane_left_misfit(&self) -> Option<String> {
        self.lane_left
            .filter(|&lane| lane >= self.lanes || self.lanes < 2)
            .map(|lane| format!("lane {lane} of {} lanes", self.lanes))
    }

    /// Whether the table stores slot `slot` (it is not in the lane left).
    #[inline]
    pub fn holds(&self, slot: u64) -> bool {
        self.lane_left
            .is_none_or(|lane| slot % u64::from(self.lanes.max(1)) != u64::from(lane))
    }

    /// Whether this table can tell another's [`Shared`] code: it is the table
    /// of this game, variant, tier and size, and leaves no code and no lane
    /// itself.
    pub fn tells(&self, game: &str, variant: &str, tier: &str, index_size: u64) -> bool {
        (
            self.game.as_str(),
            self.variant.as_str(),
            self.tier.as_str(),
            self.index_size,
        ) == (game, variant, tier, index_size)
            && self.shared.is_none()
            && self.lane_left.is_none()
    }
}

/// A code a table leaves to another table of the same game and tier, whose
/// file lies beside it: every slot that table holds `code` in holds `code` in
/// this one too, and is stored here as whatever compresses best (as an empty
/// slot of an [`Empty::Filled`] table is). Chess's DTZ tables leave their
/// draws to the WDL50 tables beside them (those made before WDL50 tables
/// were, to the DTM tables: a position drawn without the 50-move rule is
/// drawn with it).
#[derive(Debug, Clone, PartialEq, Eq, Encode, Decode)]
pub struct Shared {
    /// The variant of the table that tells (its game and tier are this one's).
    pub variant: String,
    pub code: u16,
    /// That table's values checksum when this one was written: a table beside
    /// made again, which may store other codes, is refused.
    pub values: u32,
}

/// What a table stores for the slots whose value a move out of the tier gives
/// (a capture or a promotion in chess: its value is read from a smaller table).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Encode, Decode)]
pub enum Exits {
    /// Every slot stores its value.
    #[default]
    Stored,
    /// Such a slot may store any value no better for the side to move than
    /// its own, and a draw only where it is one; a reader takes the better
    /// of the stored value and the best move out of the tier. The table's
    /// stored codes are what its checksums cover; the values a reader
    /// resolves are the game's.
    Searched,
}

/// What a table stores for its slots without a position (code 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Encode, Decode)]
pub enum Empty {
    /// Code 0: a reader learns from the table which slots hold no position.
    Kept,
    /// Whatever code compresses best (the code stored before it): the game tells
    /// which slots hold no position, and a lookup never asks for one.
    Filled,
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
    /// How many slots hold each code but 0, in increasing order of code, where
    /// the writer counted them (a table that fills its empty slots, which can
    /// no longer be counted from its values); else empty.
    pub codes: Vec<(u16, u64)>,
}

/// The values checksum of a table of `header`, before its values are added.
pub(crate) fn values_digest(header: &Header) -> crc32fast::Hasher {
    let mut digest = crc32fast::Hasher::new();
    for part in [&header.game, &header.variant, &header.tier] {
        digest.update(part.as_bytes());
        digest.update(&[0]);
    }
    digest.update(&header.index_size.to_le_bytes());
    digest
}

/// The bytes a block's codes add to the values checksum.
pub(crate) fn digest_codes(digest: &mut crc32fast::Hasher, codes: &[u16]) {
    digest_code_iter(digest, codes.iter().copied());
}

/// [`digest_codes`] of codes as they come, a few thousand bytes at a time.
pub(crate) fn digest_code_iter(digest: &mut crc32fast::Hasher, codes: impl Iterator<Item = u16>) {
    let mut bytes = [0u8; 4096];
    let mut held = 0;
    for code in codes {
        bytes[held..held + 2].copy_from_slice(&code.to_le_bytes());
        held += 2;
        if held == bytes.len() {
            digest.update(&bytes);
            held = 0;
        }
    }
    digest.update(&bytes[..held]);
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
