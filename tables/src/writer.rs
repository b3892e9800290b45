//! Writes a table file atomically: everything goes to a temporary file in the
//! target folder, which is renamed into place only once complete and synced.

use crate::error::TableError;
use crate::fill::{FILLS, Place, fill_into};
use crate::format::{
    BLOCK_ENTRY_BYTES, Empty, FORMAT_VERSION, Header, MAGIC, MAX_DICTIONARY, NO_POSITION,
    bincode_config, digest_code_iter, values_digest,
};
use crate::places::{Digits, Places, Spelled, Spelling};
use rayon::prelude::*;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

/// zstd level for value blocks: tables are written once and read many times; above
/// 12, zstd's slower strategies take twice the time for under 1% fewer bytes.
pub const DEFAULT_LEVEL: i32 = 12;

/// zstd level for large tables, where the strongest level would take minutes:
/// on the KRBvKR chain (DTM and DTZ, 47 MB at level 3) level 9 writes 15%
/// fewer bytes for 9% more time in all, level 12 18% fewer for 36% more.
pub const FAST_LEVEL: i32 = 9;

/// Writes `values` (one 16-bit code per index slot) under `header` to `path`,
/// compressing blocks in parallel. Returns the file's size in bytes.
///
/// The bytes written depend only on the header and the values, never on the
/// number of threads.
pub fn write_table(
    path: &Path,
    header: &Header,
    values: &[u16],
    level: i32,
) -> Result<u64, TableError> {
    assert_eq!(
        header.index_size,
        values.len() as u64,
        "header.index_size must match the values"
    );
    write_table_with(path, header, |index| values[index as usize], level)
}

/// Like `write_table`, with the code of slot `i` given by `code(i)` for every
/// `i < header.index_size`: a solver can keep its own compact representation
/// instead of building a second copy of the table as codes.
pub fn write_table_with(
    path: &Path,
    header: &Header,
    code: impl Fn(u64) -> u16 + Sync,
    level: i32,
) -> Result<u64, TableError> {
    write_table_slack(path, header, code, Slack::none(), level)
}

/// Like `write_table_with`, the slots where `left(i)` is true left to the
/// table beside that tells the header's [`crate::Shared`] code: they are
/// stored as whatever compresses best, as empty slots of a filled table are.
pub fn write_table_leaving(
    path: &Path,
    header: &Header,
    code: impl Fn(u64) -> u16 + Sync,
    left: impl Fn(u64) -> bool + Sync,
    level: i32,
) -> Result<u64, TableError> {
    assert!(
        header.shared.is_some(),
        "only a table that names a shared code leaves slots"
    );
    let slack = Slack {
        left,
        bounded: |_| false,
        may_hold: |_, _| false,
    };
    write_table_slack(path, header, code, slack, level)
}

/// Which slots may be stored as another code than their own, whichever
/// compresses their block best (see `fill.rs`).
#[derive(Debug, Clone, Copy)]
pub struct Slack<L, B, W> {
    /// Slots left to the table beside (the header's [`crate::Shared`]): any code.
    pub left: L,
    /// Slots whose value a move out of the tier gives ([`crate::Exits::Searched`]):
    /// they may hold another code than their own where `may_hold` allows it.
    pub bounded: B,
    /// `may_hold(slot, code)`: whether bounded slot `slot` may hold `code`.
    /// The writer asks it of bounded slots only: each block's slots are
    /// read once, in one pass, and only the few bounded ones again.
    pub may_hold: W,
}

impl Slack<fn(u64) -> bool, fn(u64) -> bool, fn(u64, u16) -> bool> {
    /// No slack: every slot stores its code (an empty slot of a filled table
    /// still takes any).
    pub fn none() -> Self {
        Slack {
            left: |_| false,
            bounded: |_| false,
            may_hold: |_, _| false,
        }
    }
}

impl<W: Fn(u64, u16) -> bool + Sync> Slack<fn(u64) -> bool, fn(u64) -> bool, W> {
    /// Every slot bounded, `may_hold` saying what each may hold (none where
    /// it holds only its own code); none left to a table beside.
    pub fn bounded_by(may_hold: W) -> Self {
        Slack {
            left: |_| false,
            bounded: |_| true,
            may_hold,
        }
    }
}

/// What a [`Slack`] frees, as the writer asks it.
pub trait Frees: Sync {
    /// Whether `slot` is left to the table beside.
    fn left(&self, slot: u64) -> bool;
    /// Whether `slot`'s value a move out of the tier gives.
    fn bounded(&self, slot: u64) -> bool;
    /// Whether bounded slot `slot` may hold `code`.
    fn may_hold(&self, slot: u64, code: u16) -> bool;
}

impl<L, B, W> Frees for Slack<L, B, W>
where
    L: Fn(u64) -> bool + Sync,
    B: Fn(u64) -> bool + Sync,
    W: Fn(u64, u16) -> bool + Sync,
{
    #[inline]
    fn left(&self, slot: u64) -> bool {
        (self.left)(slot)
    }

    #[inline]
    fn bounded(&self, slot: u64) -> bool {
        (self.bounded)(slot)
    }

    #[inline]
    fn may_hold(&self, slot: u64, code: u16) -> bool {
        (self.may_hold)(slot, code)
    }
}

/// Like `write_table_with`, with the slots `slack` frees stored as whatever
/// compresses their block best within their bounds: slots left only where the header names
/// a [`crate::Shared`] code, bounded ones only where it says
/// [`crate::Exits::Searched`] (the writer cannot tell; a reader would read wrong
/// values).
pub fn write_table_slack<S>(
    path: &Path,
    header: &Header,
    code: impl Fn(u64) -> u16 + Sync,
    slack: S,
    level: i32,
) -> Result<u64, TableError>
where
    S: Frees,
{
    write_table_spelled(path, header, None, code, slack, level)
}

/// Like `write_table_slack`, the places given by the game's `spelling`
/// where there is one (the header then names it, and its fields are none):
/// a place that holds no slot is stored as an empty slot of a filled table
/// is.
pub fn write_table_spelled<S>(
    path: &Path,
    header: &Header,
    spelling: Option<(String, Arc<dyn Spelling>)>,
    code: impl Fn(u64) -> u16 + Sync,
    slack: S,
    level: i32,
) -> Result<u64, TableError>
where
    S: Frees,
{
    encode_table(path, header, spelling, code, slack, level)?.write(path)
}

/// A table's file, made in a temporary file beside its place and not yet
/// in it: a writer may make two ways of storing a table and keep the smaller.
#[derive(Debug)]
pub struct Encoded {
    file: tempfile::NamedTempFile,
    bytes: u64,
}

impl Encoded {
    /// The file's bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Puts the file at `path`, atomically; returns its bytes.
    pub fn write(self, path: &Path) -> Result<u64, TableError> {
        put_in_place(self.file, path)?;
        Ok(self.bytes)
    }
}

/// How many blocks the writer compresses at once before writing them: a
/// table's blocks are not all held until the file is written (KRBvKRN's
/// draft: 2 GB of them).
const BLOCKS_AT_ONCE: u64 = 1024;

/// The file [`write_table_spelled`] writes, made beside `path` (which names
/// the table in errors) and not yet in place.
pub fn encode_table<S>(
    path: &Path,
    header: &Header,
    spelling: Option<(String, Arc<dyn Spelling>)>,
    code: impl Fn(u64) -> u16 + Sync,
    slack: S,
    level: i32,
) -> Result<Encoded, TableError>
where
    S: Frees,
{
    assert!(header.block_entries > 0, "block_entries must be positive");
    if let Some(why) = header.lane_left_misfit() {
        return Err(TableError::corrupt(path, format!("cannot leave {why}")));
    }
    let filled = header.empty == Empty::Filled;
    let dictionary = dictionary(header.index_size, &code, filled);
    let mut header = header.clone();
    header.spelled = None;
    let shape = BlockShape::of(&header, filled);
    if header.digits.to_weigh() {
        header.digits = best_digits(path, &header, &code, &slack, &dictionary, &shape, level)?;
    }
    let mut places = Places::of_fields(&header);
    if let Some((name, spelling)) = spelling {
        assert!(filled, "a table its game spells fills its empty places");
        let spelled = Header {
            digits: Digits::default(),
            spelled: Some(Spelled {
                name,
                places: spelling.places(),
            }),
            ..header.clone()
        };
        let by_game = Places::spelled(header.index_size, spelling);
        // Kept where its blocks (a sample of them in a large table) are
        // smaller than the fields' in their best order.
        let spelled_shape = BlockShape::of(&spelled, filled);
        let blocks = Blocks::new(by_game.clone(), &code, &slack, &dictionary, &spelled_shape);
        let game_bytes = weight(path, &blocks, level)?;
        let blocks = Blocks::new(places.clone(), &code, &slack, &dictionary, &shape);
        if game_bytes < weight(path, &blocks, level)? {
            header = spelled;
            places = by_game;
        }
    }
    let header = &header;
    let shape = BlockShape::of(header, filled);
    let blocks = Blocks::new(places, &code, &slack, &dictionary, &shape);
    let header_bytes = bincode::encode_to_vec(header, bincode_config())
        .map_err(|e| TableError::corrupt(path, format!("cannot encode header: {e}")))?;
    let count = blocks.count();
    let mut prefix = Vec::with_capacity(
        16 + header_bytes.len() + 8 + 2 * dictionary.len() + count as usize * BLOCK_ENTRY_BYTES + 4,
    );
    prefix.extend_from_slice(&MAGIC);
    prefix.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    prefix.extend_from_slice(&(header_bytes.len() as u32).to_le_bytes());
    prefix.extend_from_slice(&header_bytes);
    prefix.extend_from_slice(&(dictionary.len() as u32).to_le_bytes());
    prefix.extend(dictionary.iter().flat_map(|c| c.to_le_bytes()));
    // The values checksum, then an entry a block, are known once the blocks
    // are written after them: the blocks go to the file as they are made.
    let blocks_at = (prefix.len() + 4 + count as usize * BLOCK_ENTRY_BYTES + 4) as u64;
    let file = partial_beside(path)?;
    let mut values = values_digest(header);
    let mut entries = Vec::with_capacity(count as usize * BLOCK_ENTRY_BYTES);
    let mut offset = blocks_at;
    let writing = |e| TableError::io(path, "writing", e);
    let mut out = std::io::BufWriter::new(file.as_file());
    out.seek(SeekFrom::Start(blocks_at)).map_err(writing)?;
    for start in (0..count).step_by(BLOCKS_AT_ONCE as usize) {
        let which = (start..(start + BLOCKS_AT_ONCE).min(count)).into_par_iter();
        for (block, digest) in compress_blocks(path, &blocks, which, level)? {
            values.combine(&digest);
            entries.extend_from_slice(&offset.to_le_bytes());
            entries.extend_from_slice(&(block.len() as u32).to_le_bytes());
            entries.extend_from_slice(&crc32fast::hash(&block).to_le_bytes());
            out.write_all(&block).map_err(writing)?;
            offset += block.len() as u64;
        }
    }
    prefix.extend_from_slice(&values.finalize().to_le_bytes());
    prefix.extend_from_slice(&entries);
    let crc = crc32fast::hash(&prefix);
    prefix.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(prefix.len() as u64, blocks_at);
    out.seek(SeekFrom::Start(0)).map_err(writing)?;
    out.write_all(&prefix).map_err(writing)?;
    out.flush().map_err(writing)?;
    drop(out);
    Ok(Encoded {
        file,
        bytes: offset,
    })
}

/// The distinct codes of the `size` slots in increasing order, if there are at
/// most [`MAX_DICTIONARY`]; else none (the values are written as 16-bit codes).
/// A table that fills its empty slots stores code 0 only if it holds nothing
/// else.
fn dictionary(size: u64, code: &(impl Fn(u64) -> u16 + Sync), filled: bool) -> Vec<u16> {
    // A run of slots a task: the codes read in a loop of their own, not a
    // call through rayon's fold each.
    const RUN: u64 = 1 << 16;
    let mut seen = (0..size.div_ceil(RUN))
        .into_par_iter()
        .map(|run| {
            let mut seen = [0u64; 1 << 10];
            for i in run * RUN..((run + 1) * RUN).min(size) {
                let c = code(i);
                seen[c as usize / 64] |= 1 << (c % 64);
            }
            seen
        })
        .reduce(
            || [0u64; 1 << 10],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(a, b)| *a |= b);
                a
            },
        );
    let others = seen[0] & !1 != 0 || seen[1..].iter().any(|&w| w != 0);
    if filled && others {
        seen[0] &= !1;
    }
    let count: u32 = seen.iter().map(|w| w.count_ones()).sum();
    if count as usize > MAX_DICTIONARY {
        return Vec::new();
    }
    (0..=u16::MAX)
        .filter(|&c| seen[c as usize / 64] & 1 << (c % 64) != 0)
        .collect()
}

/// How the values fall into blocks.
struct BlockShape {
    /// Places the blocks hold.
    size: u64,
    /// Values per block.
    entries: u64,
    /// Whether empty slots may be stored as any code ([`Empty::Filled`]).
    filled: bool,
}

/// A table's values as the blocks of one order of its slots store them.
struct Blocks<'a, C, S> {
    places: Places,
    code: &'a C,
    slack: &'a S,
    /// The table's codes (none: 16-bit codes are stored).
    dictionary: &'a [u16],
    /// Each code's place in the dictionary (indexed by any code: no bounds
    /// to check).
    byte_of: Box<[u8; 1 << 16]>,
    shape: &'a BlockShape,
}

impl BlockShape {
    fn of(header: &Header, filled: bool) -> BlockShape {
        BlockShape {
            size: header.places(),
            entries: header.block_entries.into(),
            filled,
        }
    }
}

impl<'a, C, S> Blocks<'a, C, S>
where
    C: Fn(u64) -> u16,
    S: Frees,
{
    fn new(
        places: Places,
        code: &'a C,
        slack: &'a S,
        dictionary: &'a [u16],
        shape: &'a BlockShape,
    ) -> Self {
        let mut byte_of = Box::new([0u8; 1 << 16]);
        for (i, &c) in dictionary.iter().enumerate() {
            byte_of[c as usize] = i as u8;
        }
        Blocks {
            places,
            code,
            slack,
            dictionary,
            byte_of,
            shape,
        }
    }

    fn count(&self) -> u64 {
        self.shape.size.div_ceil(self.shape.entries)
    }

    /// The codes of the places of block `block` into `scratch`, in place
    /// order, and how each may be stored: a slot left to the table beside,
    /// and where the table fills them an empty one, is free; a slot a move
    /// out of the tier bounds holds its code or one its bound allows; the
    /// others hold their code. Each slot is read here once.
    fn places(&self, block: u64, scratch: &mut Scratch) {
        let start = block * self.shape.entries;
        let end = (start + self.shape.entries).min(self.shape.size);
        let Scratch {
            slots,
            codes,
            places,
            ..
        } = scratch;
        let filled = self.shape.filled;
        slots.clear();
        codes.clear();
        places.clear();
        for slot in self.places.slots(start, end) {
            let code = slot.map_or(NO_POSITION, self.code);
            slots.push(slot.unwrap_or(0));
            codes.push(code);
            places.push(match slot {
                _ if filled && code == NO_POSITION => Place::Free,
                Some(slot) if self.slack.left(slot) => Place::Free,
                Some(slot) if self.slack.bounded(slot) => Place::Bounded,
                _ => Place::Fixed,
            });
        }
    }

    /// Block `block` compressed with each fill, the smallest kept (the first
    /// of equals), and the checksum its codes, as a reader decodes them, add
    /// to the values checksum.
    fn compress(
        &self,
        block: u64,
        compressor: &mut zstd::bulk::Compressor<'_>,
        scratch: &mut Scratch,
    ) -> std::io::Result<(Vec<u8>, crc32fast::Hasher)> {
        self.places(block, scratch);
        let Scratch {
            slots,
            codes,
            places,
            stored,
            raw,
            kept,
        } = scratch;
        let may = |i: usize, code: u16| self.slack.may_hold(slots[i], code);
        let mut best: Option<Vec<u8>> = None;
        for how in FILLS {
            fill_into(codes, places, may, how, stored);
            raw.clear();
            match self.dictionary.is_empty() {
                true => raw.extend(stored.iter().flat_map(|c| c.to_le_bytes())),
                false => raw.extend(stored.iter().map(|&c| self.byte_of[c as usize])),
            }
            if best.is_some() && kept == raw {
                continue;
            }
            let compressed = compressor.compress(raw)?;
            if best
                .as_ref()
                .is_none_or(|kept| compressed.len() < kept.len())
            {
                best = Some(compressed);
                std::mem::swap(kept, raw);
            }
        }
        let compressed = best.expect("at least one fill");
        // The codes as a reader decodes them: a filled block of nothing
        // but empty slots holds the dictionary's first code, not 0.
        let mut digest = crc32fast::Hasher::new();
        match self.dictionary.is_empty() {
            true => digest.update(kept),
            false => {
                let decoded = kept.iter().map(|&b| self.dictionary[usize::from(b)]);
                digest_code_iter(&mut digest, decoded);
            }
        }
        Ok((compressed, digest))
    }
}

/// The buffers a thread compressing blocks reuses from one to the next: a
/// block's slots (0 where a place holds none), codes, places, a fill of it
/// and its bytes, and the bytes of the fill kept.
#[derive(Debug, Default)]
struct Scratch {
    slots: Vec<u64>,
    codes: Vec<u16>,
    places: Vec<Place>,
    stored: Vec<u16>,
    raw: Vec<u8>,
    kept: Vec<u8>,
}

/// Blocks `which` of `blocks`, compressed in parallel, each with the
/// checksum its codes add to the values checksum.
fn compress_blocks<C, S>(
    path: &Path,
    blocks: &Blocks<'_, C, S>,
    which: impl ParallelIterator<Item = u64>,
    level: i32,
) -> Result<Vec<(Vec<u8>, crc32fast::Hasher)>, TableError>
where
    C: Fn(u64) -> u16 + Sync,
    S: Frees,
{
    which
        .map_init(
            || {
                let mut compressor = zstd::bulk::Compressor::new(level)?;
                compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
                Ok::<_, std::io::Error>((compressor, Scratch::default()))
            },
            |state, block| {
                let (compressor, scratch) = state
                    .as_mut()
                    .map_err(|e| std::io::Error::new(e.kind(), e.to_string()))?;
                let (mut compressed, digest) = blocks.compress(block, compressor, scratch)?;
                // zstd hands back a block with room for its worst case, a
                // little more than the raw bytes: a thousand blocks are held
                // until they are written, so keep only its length.
                compressed.shrink_to_fit();
                Ok((compressed, digest))
            },
        )
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TableError::io(path, "compressing blocks", e))
}

/// About how many blocks of each order the writer compresses to weigh it:
/// on KRBvKR the orders differ by up to a third, and this many blocks spread
/// over the table rank them as the whole table does.
const SAMPLE_BLOCKS: u64 = 256;

/// A smaller table is weighed on every so many of its blocks, not all of
/// them: six orders of each of the chain's small tables would otherwise cost
/// more than their writing.
const SAMPLE_STEP: u64 = 4;

/// The blocks of a table of `count` blocks that weigh an order: one in each
/// stretch of `count / SAMPLE_BLOCKS` blocks (at least [`SAMPLE_STEP`]), at a
/// place within it that a hash of the stretch's number picks. Blocks evenly
/// spaced can meet a field's period: in KRPvKR's blocks of 65,536 values,
/// one every 43rd saw about every twelfth square of Black's rook where the
/// order stores it second slowest, and ranked that order (26% larger than
/// the spelled one) as the best.
fn sampled_blocks(count: u64, most: u64) -> Vec<u64> {
    let step = count.div_ceil(most.max(1)).max(SAMPLE_STEP);
    (0..count.div_ceil(step))
        .map(|i| {
            // splitmix64's finaliser: the same blocks on every run.
            let mut x = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^= x >> 31;
            (i * step + x % step).min(count - 1)
        })
        .collect()
}

/// The order of the header's fields ([`Digits::orders`]) whose blocks, a
/// sample of them spread over the table, compress smallest (the first of
/// equals). What it costs: each order's sample compressed, about
/// `SAMPLE_BLOCKS` blocks.
fn best_digits<C, S>(
    path: &Path,
    header: &Header,
    code: &C,
    slack: &S,
    dictionary: &[u16],
    shape: &BlockShape,
    level: i32,
) -> Result<Digits, TableError>
where
    C: Fn(u64) -> u16 + Sync,
    S: Frees,
{
    let mut orders = header.digits.orders();
    if orders.len() == 1 {
        return Ok(orders.remove(0));
    }
    let mut best: Option<(u64, Digits)> = None;
    for digits in orders {
        let places =
            Places::new(header.index_size, header.lanes, &digits).leaving(header.lane_left);
        let blocks = Blocks::new(places, code, slack, dictionary, shape);
        let sample = sampled_blocks(blocks.count(), SAMPLE_BLOCKS);
        let bytes = compressed_bytes(path, &blocks, sample, level)?;
        if best.as_ref().is_none_or(|(least, _)| bytes < *least) {
            best = Some((bytes, digits));
        }
    }
    Ok(best.expect("at least one order").1)
}

/// The bytes the blocks of a table would take: all of them compressed, or
/// where there are more than `SAMPLE_BLOCKS`, as a sample of about that
/// many foretells.
fn weight<C, S>(path: &Path, blocks: &Blocks<'_, C, S>, level: i32) -> Result<u64, TableError>
where
    C: Fn(u64) -> u16 + Sync,
    S: Frees,
{
    let count = blocks.count();
    let sample = weighed_blocks(count, SAMPLE_BLOCKS);
    let taken = (sample.len() as u64).max(1);
    Ok(compressed_bytes(path, blocks, sample, level)? * count / taken)
}

/// The blocks a weighing of a table of `count` blocks compresses: every one
/// where they are at most `most`, else about `most` of them spread over the
/// table ([`sampled_blocks`]).
fn weighed_blocks(count: u64, most: u64) -> Vec<u64> {
    match count <= most {
        true => (0..count).collect(),
        false => sampled_blocks(count, most),
    }
}

/// The compressed bytes of blocks `which` of `blocks`.
fn compressed_bytes<C, S>(
    path: &Path,
    blocks: &Blocks<'_, C, S>,
    which: Vec<u64>,
    level: i32,
) -> Result<u64, TableError>
where
    C: Fn(u64) -> u16 + Sync,
    S: Frees,
{
    let compressed = compress_blocks(path, blocks, which.into_par_iter(), level)?;
    Ok(compressed.iter().map(|(block, _)| block.len() as u64).sum())
}

/// Weighs a game's spellings of one table ([`write_table_spelled`]) on a
/// sample of the blocks each would store, filled and compressed as the
/// writer fills and compresses them: what a game's search for the order
/// that compresses best asks of each order it tries.
pub struct Weigher<'a, C, S> {
    path: &'a Path,
    header: Header,
    code: &'a C,
    slack: &'a S,
    dictionary: Vec<u16>,
    level: i32,
}

impl<C, S> std::fmt::Debug for Weigher<'_, C, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Weigher")
            .field("path", &self.path)
            .field("tier", &self.header.tier)
            .finish_non_exhaustive()
    }
}

impl<'a, C, S> Weigher<'a, C, S>
where
    C: Fn(u64) -> u16 + Sync,
    S: Frees,
{
    /// The weigher of the table `write_table_spelled` would write with
    /// these arguments.
    pub fn new(path: &'a Path, header: &Header, code: &'a C, slack: &'a S, level: i32) -> Self {
        let filled = header.empty == Empty::Filled;
        Weigher {
            path,
            header: header.clone(),
            code,
            slack,
            dictionary: dictionary(header.index_size, code, filled),
            level,
        }
    }

    /// The compressed bytes of about `most` blocks of the places `spelling`
    /// gives (spread over them as the writer's own weighing spreads its
    /// sample), or of all of them where they are fewer.
    pub fn bytes(&self, spelling: Arc<dyn Spelling>, most: u64) -> Result<u64, TableError> {
        let header = Header {
            spelled: Some(Spelled {
                name: String::new(),
                places: spelling.places(),
            }),
            ..self.header.clone()
        };
        let shape = BlockShape::of(&header, header.empty == Empty::Filled);
        let places = Places::spelled(header.index_size, spelling);
        let blocks = Blocks::new(places, self.code, self.slack, &self.dictionary, &shape);
        let sample = weighed_blocks(blocks.count(), most);
        compressed_bytes(self.path, &blocks, sample, self.level)
    }
}

/// Removes the temporary files an interrupted write of the same table left in
/// `dir` (`.<name>.<random>.partial`), but this process's own (those starting
/// `own`: a table written two ways, the smaller kept, holds both at once).
/// Two processes writing one table at once are not supported: the later one
/// removes the earlier one's file.
fn remove_leftovers(dir: &Path, prefix: &str, own: &str) -> Result<(), TableError> {
    let entries = std::fs::read_dir(dir).map_err(|e| TableError::io(dir, "listing", e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(prefix) && !name.starts_with(own) && name.ends_with(".partial") {
            let leftover = entry.path();
            std::fs::remove_file(&leftover)
                .map_err(|e| TableError::io(&leftover, "removing a leftover", e))?;
        }
    }
    Ok(())
}

/// Runs `fill` on a temporary file beside `path`, syncs it and renames it to `path`.
/// On any error nothing appears at `path`; if the process dies first, only a
/// `.partial` file is left, which the next write of the same table removes.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> Result<(), TableError> {
    let temp = partial_beside(path)?;
    {
        let mut out = std::io::BufWriter::new(temp.as_file());
        fill(&mut out)
            .and_then(|()| out.flush())
            .map_err(|e| TableError::io(path, "writing", e))?;
    }
    put_in_place(temp, path)
}

/// A new temporary file beside `path`, for its table (`.<name>.<pid>.<random>.partial`,
/// removed if dropped), the files another process's write of it left
/// removed first.
fn partial_beside(path: &Path) -> Result<tempfile::NamedTempFile, TableError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| TableError::io(dir, "creating the folder", e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let own = format!("{prefix}{}.", std::process::id());
    remove_leftovers(dir, &prefix, &own)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(&own).suffix(".partial");
    // Temporary files are private by default; a table is meant to be read by others.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    builder
        .tempfile_in(dir)
        .map_err(|e| TableError::io(path, "creating a temporary file", e))
}

/// Syncs `temp` and renames it to `path`.
fn put_in_place(temp: tempfile::NamedTempFile, path: &Path) -> Result<(), TableError> {
    temp.as_file()
        .sync_all()
        .map_err(|e| TableError::io(path, "syncing", e))?;
    temp.persist(path)
        .map_err(|e| TableError::io(path, "renaming into place", e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sample is one block in each stretch, in order, within the table, and
    /// not in step with a period of the blocks: over KRPvKR's 10,836 blocks of
    /// 65,536 values (a stretch of 43), the blocks sampled fall on most
    /// remainders of 12, 16 and 43 (every 43rd block falls on one of 43).
    #[test]
    fn sampled_blocks_spread_without_a_period() {
        for count in [1, 3, 4, 5, 255, 1024, 10_836, 21_672] {
            let sample = sampled_blocks(count, SAMPLE_BLOCKS);
            let step = count.div_ceil(SAMPLE_BLOCKS).max(SAMPLE_STEP);
            assert_eq!(sample.len() as u64, count.div_ceil(step), "{count}");
            for (i, &block) in sample.iter().enumerate() {
                assert!(block < count, "{count}: {block}");
                assert_eq!(block / step, i as u64, "{count}: one in each stretch");
            }
        }
        let sample = sampled_blocks(10_836, SAMPLE_BLOCKS);
        for period in [12, 16, 43] {
            let remainders: std::collections::BTreeSet<u64> =
                sample.iter().map(|block| block % period).collect();
            assert!(
                remainders.len() as u64 * 4 >= period * 3,
                "{period}: {remainders:?}"
            );
        }
    }
}
