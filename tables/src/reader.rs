//! Reads a table file. The header and block table are checked once at open; each
//! block is checked (crc32 and zstd checksum) and decompressed when a lookup needs
//! it, and kept in a [`BlockCache`] within its memory budget.
//!
//! Blocks are read through a memory map ([`Access::Mapped`]) or with one
//! positioned read each ([`Access::Read`]). A mapped file must not be overwritten
//! in place, truncated or extended while it is open, as with every memory-mapped
//! format: the bytes change under the reader, and a page past a new end stops the
//! process with SIGBUS. `tbgen` never does that (it writes a new file and renames
//! it into place), but a long-running server cannot trust every hand that touches
//! its folder, so it reads: a changed file then gives a checksum error for the
//! blocks that changed, never a crash, and [`FileIdentity`] lets it notice the
//! change and open the file again.

use crate::cache::{Block, BlockCache, next_table_id};
use crate::codes::{Codes, CodesBuilder};
use crate::error::TableError;
use crate::format::{
    BLOCK_ENTRY_BYTES, Empty, Exits, FORMAT_VERSION, Header, MAGIC, MAX_DICTIONARY,
    MAX_HEADER_BYTES, PREAMBLE_BYTES, bincode_read_config, block_count, digest_codes, file_name,
    values_digest,
};
use crate::places::{Digits, Places, Speller};
use memmap2::Mmap;
use rayon::prelude::*;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

/// Decompresses one block of at most `capacity` bytes with this thread's
/// decompression context, made once: making one per block took nearly half as
/// long as the decompression itself (a solve reading promotions block by block).
fn decompress(bytes: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
    thread_local! {
        static CONTEXT: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { RefCell::new(None) };
    }
    CONTEXT.with_borrow_mut(|context| {
        let context = match context {
            Some(context) => context,
            None => context.insert(zstd::bulk::Decompressor::new()?),
        };
        context.decompress(bytes, capacity)
    })
}

/// The blocks this thread read last, with their table's id and number. A pass
/// through a table in order (the generator reading back a tier it rewrites)
/// takes most codes from the block it took the last one from, and a lookup
/// in a table that leaves values to the one beside alternates between the
/// two: a few blocks at hand spare most trips to the shared cache.
#[derive(Default)]
struct Recent {
    blocks: [Option<(u64, u32, Block)>; RECENT],
    /// The block replaced next.
    next: usize,
}

/// How many blocks [`Recent`] keeps a thread.
const RECENT: usize = 4;

thread_local! {
    static RECENT_BLOCKS: RefCell<Recent> = RefCell::new(Recent::default());
}

impl Recent {
    /// Code `at` of block `b` of table `id`, if the block is at hand.
    #[inline]
    fn code(id: u64, b: u32, at: usize) -> Option<u16> {
        RECENT_BLOCKS.with_borrow(|recent| {
            recent
                .blocks
                .iter()
                .flatten()
                .find_map(|(table, number, block)| {
                    (*table == id && *number == b).then(|| block.get(at))
                })
        })
    }

    /// Keeps block `b` of table `id` at hand, in place of the one kept longest.
    fn keep(id: u64, b: u32, block: Block) {
        RECENT_BLOCKS.with_borrow_mut(|recent| {
            let next = recent.next;
            recent.blocks[next] = Some((id, b, block));
            recent.next = (next + 1) % RECENT;
        });
    }
}

/// Where one compressed block lies in the file.
#[derive(Debug, Clone, Copy)]
struct BlockSpan {
    offset: usize,
    len: usize,
    crc: u32,
}

/// Which file a path names, and how it stood: a file replaced (a new inode) or
/// changed in place (another size or time) has another identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileIdentity {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<SystemTime>,
}

impl FileIdentity {
    pub fn of(metadata: &Metadata) -> FileIdentity {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        FileIdentity {
            device,
            inode,
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }
}

/// How an open table reads its blocks from its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Through a memory map: no copy and no system call per block, for a process
    /// that owns its folder (the generator, the command line).
    Mapped,
    /// With a positioned read per block into memory: a file changed in place
    /// while open gives an error, never a crash (the server).
    Read,
}

/// Where the bytes of an open table come from.
#[derive(Debug)]
enum Source {
    Mapped(Mmap),
    Read(File),
}

/// An open table: lookups by index slot return the stored 16-bit code.
#[derive(Debug)]
pub struct Table {
    path: PathBuf,
    source: Source,
    /// The file's length when opened.
    len: u64,
    identity: FileIdentity,
    header: Header,
    /// The codes a value byte names; empty where values are 16-bit codes.
    dictionary: Arc<[u16]>,
    /// The checksum of the header's identity and the values as stored.
    values_crc: u32,
    /// Where each slot lies in the blocks; none until the game's spelling
    /// is given ([`Table::spelled_by`]) where the header names one.
    places: Option<Places>,
    blocks: Vec<BlockSpan>,
    /// This table's key in the block cache.
    id: u64,
    cache: BlockCache,
    /// The table beside it that tells the header's [`crate::Shared`] code.
    shared: Option<Box<Table>>,
}

/// Opens `path` for reading only if it is a regular file: a FIFO or a device
/// is refused without waiting on it.
fn open_regular(path: &Path) -> Result<(File, Metadata), TableError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| TableError::io(path, "opening", e))?;
    let metadata = file
        .metadata()
        .map_err(|e| TableError::io(path, "reading metadata", e))?;
    if !metadata.is_file() {
        return Err(TableError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    Ok((file, metadata))
}

impl Table {
    /// Opens and checks a table file: magic, version, header, block table and its
    /// checksum, and that the blocks exactly fill the file.
    ///
    /// ```
    /// use tables::{DEFAULT_BLOCK_ENTRIES, Empty, Header, Stats, Table, TableError, write_table};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("demo.tb");
    /// let header = Header {
    ///     game: "demo".into(),
    ///     variant: String::new(),
    ///     tier: String::new(),
    ///     index_size: 3,
    ///     encoding: "wld16".into(),
    ///     block_entries: DEFAULT_BLOCK_ENTRIES,
    ///     lanes: 1,
    ///     digits: Default::default(),
    ///     spelled: None,
    ///     empty: Empty::Kept,
    ///     shared: None,
    ///     exits: Default::default(),
    ///     lane_left: None,
    ///     stats: Stats::default(),
    /// };
    /// write_table(&path, &header, &[1, 2, 3], 3).unwrap();
    ///
    /// let table = Table::open(&path).unwrap();
    /// assert_eq!(table.header().game, "demo");
    /// assert_eq!(table.get(2).unwrap(), 3);
    /// assert!(matches!(table.get(3), Err(TableError::OutOfRange { .. })));
    /// // A file that is not a table is refused, naming the file.
    /// std::fs::write(dir.path().join("notes.tb"), "hello, world").unwrap();
    /// let refused = Table::open(dir.path().join("notes.tb")).unwrap_err();
    /// assert!(refused.to_string().contains("notes.tb: not a table file"));
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Table, TableError> {
        Table::open_with(path, BlockCache::shared(), Access::Mapped)
    }

    /// Opens a table keeping its decompressed blocks in `cache`, reading them by
    /// `access`. Only regular files are opened.
    pub fn open_with(
        path: impl AsRef<Path>,
        cache: BlockCache,
        access: Access,
    ) -> Result<Table, TableError> {
        let path = path.as_ref();
        let (file, metadata) = open_regular(path)?;
        let len = metadata.len();
        if len < PREAMBLE_BYTES as u64 {
            // A short start of a table is a truncated table; anything else is foreign.
            let mut start = Vec::new();
            (&file)
                .take(MAGIC.len() as u64)
                .read_to_end(&mut start)
                .map_err(|e| TableError::io(path, "reading", e))?;
            let ours = start.iter().zip(MAGIC.iter()).all(|(a, b)| a == b);
            return Err(if ours {
                TableError::corrupt(
                    path,
                    format!("truncated: {len} bytes, shorter than the table preamble"),
                )
            } else {
                TableError::Foreign {
                    path: path.to_path_buf(),
                }
            });
        }
        let Layout {
            header,
            dictionary,
            values_crc,
            blocks,
        } = read_layout(path, &file, len)?;
        let source = match access {
            Access::Mapped => {
                // SAFETY: table files are only ever created whole by an atomic
                // rename and are never modified in place by this project; a
                // folder whose files others may change is opened with
                // `Access::Read`.
                #[allow(unsafe_code)]
                let map =
                    unsafe { Mmap::map(&file) }.map_err(|e| TableError::io(path, "mapping", e))?;
                Source::Mapped(map)
            }
            Access::Read => Source::Read(file),
        };
        let shared = match &header.shared {
            Some(shared) => Some(Box::new(open_shared(
                path, &header, shared, &cache, access,
            )?)),
            None => None,
        };
        Ok(Table {
            path: path.to_path_buf(),
            source,
            len,
            identity: FileIdentity::of(&metadata),
            places: header.spelled.is_none().then(|| Places::of_fields(&header)),
            header,
            dictionary: dictionary.into(),
            values_crc,
            blocks,
            id: next_table_id(),
            cache,
            shared,
        })
    }

    /// The table, and the table beside it, with the places of the
    /// [`crate::Spelling`] its header names, which `speller` makes from
    /// its name (the game's); a table whose fields place its slots is
    /// left as it is. Until then a table stored in its game's own order
    /// answers every lookup with [`TableError::Unspelled`] (its blocks can
    /// be checked without it).
    pub fn spelled_by(mut self, speller: Speller<'_>) -> Result<Table, TableError> {
        if let Some(spelled) = &self.header.spelled {
            let spelling = speller(&spelled.name).map_err(|why| {
                TableError::corrupt(&self.path, format!("order {}: {why}", spelled.name))
            })?;
            if spelling.places() != spelled.places {
                return Err(TableError::corrupt(
                    &self.path,
                    format!(
                        "order {} spells {} places, its header says {}",
                        spelled.name,
                        spelling.places(),
                        spelled.places
                    ),
                ));
            }
            self.places = Some(Places::spelled(self.header.index_size, spelling));
        }
        if let Some(beside) = self.shared.take() {
            self.shared = Some(Box::new(beside.spelled_by(speller)?));
        }
        Ok(self)
    }

    /// The same file opened again, its blocks kept in `cache` and read by
    /// `access`, with the spelling this one was given if the file still
    /// names it.
    pub fn open_again(&self, cache: BlockCache, access: Access) -> Result<Table, TableError> {
        let mut again = Table::open_with(&self.path, cache, access)?;
        if again.header.spelled == self.header.spelled {
            again.places = self.places.clone();
        }
        if let (Some(beside), Some(was)) = (&mut again.shared, &self.shared)
            && beside.header.spelled == was.header.spelled
        {
            beside.places = was.places.clone();
        }
        Ok(again)
    }

    /// Where each slot lies in the blocks, once known.
    fn places(&self) -> Result<&Places, TableError> {
        self.places.as_ref().ok_or_else(|| TableError::Unspelled {
            path: self.path.clone(),
            name: self
                .header
                .spelled
                .as_ref()
                .map_or_else(String::new, |s| s.name.clone()),
        })
    }

    /// Refuses a table whose file name is not the one its header gives (its
    /// game, variant and tier): a table copied over another's name.
    pub fn check_name(&self) -> Result<(), TableError> {
        let header = &self.header;
        let holds = file_name(&header.game, &header.variant, &header.tier);
        match self.path.file_name() {
            Some(name) if name.to_string_lossy() == holds => Ok(()),
            _ => Err(TableError::Misnamed {
                path: self.path.clone(),
                holds,
            }),
        }
    }

    /// The file as it stood when opened.
    pub fn identity(&self) -> FileIdentity {
        self.identity
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The table beside this one that tells the header's [`crate::Shared`]
    /// code, if it names one.
    pub fn beside(&self) -> Option<&Table> {
        self.shared.as_deref()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The checksum of the values as stored (format 4 on), which a table that
    /// leaves a code to this one records ([`crate::Shared::values`]).
    pub fn values_crc(&self) -> u32 {
        self.values_crc
    }

    /// Bytes per value before compression: 1 where the table holds at most 256
    /// distinct codes (each value names one in the file's dictionary), else 2.
    pub fn code_bytes(&self) -> usize {
        if self.dictionary.is_empty() { 2 } else { 1 }
    }

    /// The file's size in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.len
    }

    /// The compressed bytes of each lane's values (see [`crate::Places`]),
    /// a block that holds places of two lanes shared between them by its
    /// places; None where the table is stored in its game's own order, whose
    /// places the header does not divide into lanes.
    pub fn lane_bytes(&self) -> Option<Vec<f64>> {
        let lanes = self.places.as_ref()?.lane_places()?;
        let per_block = u64::from(self.header.block_entries);
        let mut bytes = vec![0.0; lanes.len()];
        for (b, block) in self.blocks.iter().enumerate() {
            let first = b as u64 * per_block;
            let places = first..(first + per_block).min(self.header.index_size);
            let held = places.end - places.start;
            for (lane, lane_bytes) in lanes.iter().zip(bytes.iter_mut()) {
                let shared = places
                    .end
                    .min(lane.end)
                    .saturating_sub(places.start.max(lane.start));
                *lane_bytes += block.len as f64 * shared as f64 / held as f64;
            }
        }
        Some(bytes)
    }

    /// The code of `index`: the [`crate::Shared`] code where the table beside
    /// holds it, else the code stored. Where the header says
    /// [`crate::Empty::Filled`], a slot without a position holds some code of
    /// the table.
    pub fn get(&self, index: u64) -> Result<u16, TableError> {
        if let (Some(beside), Some(shared)) = (&self.shared, &self.header.shared) {
            let told = beside.get(index)?;
            if told == shared.code {
                return Ok(told);
            }
        }
        self.get_stored(index)
    }

    /// The code stored at `index`.
    fn get_stored(&self, index: u64) -> Result<u16, TableError> {
        if index >= self.header.index_size {
            return Err(TableError::OutOfRange {
                path: self.path.clone(),
                index,
                size: self.header.index_size,
            });
        }
        if let Some(lane) = self.header.lane_left.filter(|_| !self.header.holds(index)) {
            return Err(TableError::LaneLeft {
                path: self.path.clone(),
                index,
                lane,
            });
        }
        let per_block = u64::from(self.header.block_entries);
        let place = self.places()?.place(index);
        let (b, at) = ((place / per_block) as u32, (place % per_block) as usize);
        if let Some(code) = Recent::code(self.id, b, at) {
            return Ok(code);
        }
        let values = self.block(b as usize)?;
        let code = values.get(at);
        Recent::keep(self.id, b, values);
        Ok(code)
    }

    /// Every code in the table, in index order, as [`Table::get`] gives them,
    /// each block checked (the blocks are not kept in the cache); a slot of
    /// the lane the table leaves reads [`crate::format::NO_POSITION`].
    pub fn read_all(&self) -> Result<Vec<u16>, TableError> {
        let mut all = vec![0; self.header.index_size as usize];
        self.for_each_code_in(0..self.header.index_size, |slot, code| {
            all[slot as usize] = code
        })?;
        Ok(all)
    }

    /// Every code in the table as [`Table::read_all`] gives them, a byte a
    /// slot where the codes allow it ([`Codes`]).
    pub fn read_codes(&self) -> Result<Codes, TableError> {
        // Where the table beside tells a code, a bit a slot says so first, so
        // that each slot is set once.
        let told = match (&self.shared, &self.header.shared) {
            (Some(beside), Some(shared)) => Some((beside.slots_holding(shared.code)?, shared.code)),
            _ => None,
        };
        if told.is_none()
            && let Some(codes) = self.read_codes_in_lanes()?
        {
            return Ok(codes);
        }
        let mut codes = CodesBuilder::new(self.header.index_size);
        self.for_each_stored_in(0..self.header.index_size, |slot, stored| {
            let code = match &told {
                Some((bits, code)) if bits[slot as usize / 64] >> (slot % 64) & 1 != 0 => *code,
                _ => stored,
            };
            codes.set(slot, code);
        })?;
        Ok(codes.build())
    }

    /// [`Table::read_codes`] in parallel, where each lane's entries are
    /// stored as spelled in whole blocks (a generator's drafts): the slots
    /// of the `k`-th block of every lane make one run of the codes, so each
    /// run is decoded apart from the others. None for any other table.
    fn read_codes_in_lanes(&self) -> Result<Option<Codes>, TableError> {
        let per_block = u64::from(self.header.block_entries);
        let Some((lanes, length)) = self.places()?.in_lanes() else {
            return Ok(None);
        };
        if length % per_block != 0 {
            return Ok(None);
        }
        let run = (per_block * lanes) as usize;
        let mut bytes = vec![0u8; self.header.index_size as usize];
        // Each run's codes past a byte, each above its slot in one number
        // (eight bytes, as the slot by slot read lists them), in slot order.
        let long: Vec<Vec<u64>> = bytes
            .par_chunks_mut(run)
            .enumerate()
            .map(|(k, chunk)| {
                let mut long = Vec::new();
                for lane in 0..lanes {
                    let block = self.decode_block((lane * length / per_block) as usize + k)?;
                    let bytes = chunk.iter_mut().skip(lane as usize).step_by(lanes as usize);
                    for (at, byte) in bytes.enumerate() {
                        let code = block.get(at);
                        match Codes::byte_holds(code) {
                            true => *byte = code as u8,
                            false => {
                                let slot = (k * run + at * lanes as usize) as u64 + lane;
                                long.push(slot << 16 | u64::from(code));
                            }
                        }
                    }
                }
                long.sort_unstable();
                Ok(long)
            })
            .collect::<Result<_, TableError>>()?;
        // Set as the slot by slot read sets them, each run's list let go
        // once read: the same codes, two bytes a slot where too many.
        let mut codes = CodesBuilder::from_bytes(bytes);
        for kept in long.into_iter().flatten() {
            codes.set(kept >> 16, kept as u16);
        }
        Ok(Some(codes.build()))
    }

    /// Which slots hold `code` as [`Table::read_all`] gives them, 64 a word
    /// (bit `slot % 64` of word `slot / 64`): read block by block, so that a
    /// writer asking where the table beside tells a value holds a bit a slot,
    /// not the whole table's codes.
    pub fn slots_holding(&self, code: u16) -> Result<Vec<u64>, TableError> {
        let size = self.header.index_size;
        // The blocks decoded in parallel, each slot that holds the code set
        // in a word others may set bits of too.
        let words: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        self.par_for_each_stored_in(0..size, |slot, held| {
            if held == code {
                words[slot as usize / 64].fetch_or(1 << (slot % 64), Ordering::Relaxed);
            }
        })?;
        let mut bits: Vec<u64> = words.into_iter().map(AtomicU64::into_inner).collect();
        // Then the codes the table beside tells, over those stored.
        self.for_each_told_in(0..size, |slot, told| {
            let (word, bit) = (slot as usize / 64, slot % 64);
            bits[word] = bits[word] & !(1 << bit) | u64::from(told == code) << bit;
        })?;
        Ok(bits)
    }

    /// `slots` cut into runs that [`Table::for_each_code_in`] may read apart,
    /// in parallel, decoding no block for more than two of them: runs of
    /// `blocks` blocks of every lane, each a multiple of 64 slots long, where
    /// each lane's entries are stored as spelled (a generator's drafts); else
    /// `slots` whole, since a read of any part of it decodes every block.
    /// Never no run: an empty range is one.
    pub fn runs_to_read(&self, slots: Range<u64>, blocks: u64) -> Vec<Range<u64>> {
        let Some((lanes, _)) = self.places.as_ref().and_then(Places::in_lanes) else {
            return vec![slots];
        };
        if slots.is_empty() {
            return vec![slots];
        }
        let run =
            (u64::from(self.header.block_entries) * lanes * blocks.max(1)).next_multiple_of(64);
        (slots.start..slots.end)
            .step_by(run as usize)
            .map(|start| start..(start + run).min(slots.end))
            .collect()
    }

    /// Calls `visit` with every slot of `slots` and its code as
    /// [`Table::get`] gives it, decoding only the blocks that hold them where
    /// each lane's entries are stored as spelled (every block where they are
    /// not); a slot the table beside tells is visited again with the told
    /// code. A solve reading a slice of a big table holds no more than it.
    pub fn for_each_code_in(
        &self,
        slots: Range<u64>,
        mut visit: impl FnMut(u64, u16),
    ) -> Result<(), TableError> {
        self.for_each_stored_in(slots.clone(), &mut visit)?;
        self.for_each_told_in(slots, visit)
    }

    /// Calls `visit` with every slot of `slots` the table beside tells the
    /// shared code of, and that code; none where no table is beside.
    fn for_each_told_in(
        &self,
        slots: Range<u64>,
        mut visit: impl FnMut(u64, u16),
    ) -> Result<(), TableError> {
        if let (Some(beside), Some(shared)) = (&self.shared, &self.header.shared) {
            beside.for_each_stored_in(slots, |slot, told| {
                if told == shared.code {
                    visit(slot, told);
                }
            })?;
        }
        Ok(())
    }

    /// [`Table::for_each_code_in`] of the codes stored.
    fn for_each_stored_in(
        &self,
        slots: Range<u64>,
        mut visit: impl FnMut(u64, u16),
    ) -> Result<(), TableError> {
        for piece in self.pieces(&slots)? {
            self.visit_piece(piece, &slots, &mut visit)?;
        }
        Ok(())
    }

    /// [`Table::for_each_stored_in`] with its blocks decoded in parallel:
    /// `visit` is called from several threads, each slot once, in no order.
    fn par_for_each_stored_in(
        &self,
        slots: Range<u64>,
        visit: impl Fn(u64, u16) + Sync,
    ) -> Result<(), TableError> {
        self.pieces(&slots)?.into_par_iter().try_for_each(|piece| {
            self.visit_piece(piece, &slots, &mut |slot, code| visit(slot, code))
        })
    }

    /// The pieces of blocks that hold the slots of `slots` (and, where the
    /// entries are not stored as spelled, others): a block and the places of
    /// it to read, in place order.
    fn pieces(&self, slots: &Range<u64>) -> Result<Vec<(u64, Range<u64>)>, TableError> {
        let per_block = u64::from(self.header.block_entries);
        let mut pieces = Vec::new();
        for places in self.places()?.holding(slots.clone()) {
            let Some(last) = places.end.checked_sub(1) else {
                continue;
            };
            for b in places.start / per_block..=last / per_block {
                let first = b * per_block;
                pieces.push((
                    b,
                    places.start.max(first)..places.end.min(first + per_block),
                ));
            }
        }
        Ok(pieces)
    }

    /// Calls `visit` with each slot of `slots` the places of block `b` given
    /// hold, and its stored code.
    fn visit_piece(
        &self,
        (b, places): (u64, Range<u64>),
        slots: &Range<u64>,
        visit: &mut impl FnMut(u64, u16),
    ) -> Result<(), TableError> {
        let block = self.decode_block(b as usize)?;
        let first = b * u64::from(self.header.block_entries);
        let held = (places.start - first) as usize..(places.end - first) as usize;
        let spelled = self.places()?;
        for (slot, code) in spelled
            .slots(places.start, places.end)
            .zip(held.map(|at| block.get(at)))
        {
            if let Some(slot) = slot.filter(|s| slots.contains(s)) {
                visit(slot, code);
            }
        }
        Ok(())
    }

    /// Checks every block (its checksum, its zstd frame and checksum, its
    /// length) without keeping any, and that the values are the ones the header
    /// was written with (the values checksum binds them to the game, variant
    /// and tier): what `tbquery check` does for each table.
    pub fn check(&self) -> Result<(), TableError> {
        self.check_with(None)
    }

    /// Checks the table whole, as [`Table::check`] does; and where its stored
    /// codes are its values (no empty slot filled, no code left to another
    /// table, no move out of the tier searched), that `tally` of how many
    /// slots hold each code (indexed by code) gives the header's statistics
    /// (positions, wins, losses, draws, longest): a table holding another's
    /// values under its header, every checksum made anew, is refused unless
    /// its statistics were forged too. Where they are not but the header
    /// counts its values' codes ([`crate::Stats::codes`]), that every code stored is
    /// one of them (a slot stored as another code holds a code stored
    /// elsewhere in its block, or 0 in a block of nothing else).
    pub fn check_counted(&self, tally: &Tally) -> Result<(), TableError> {
        self.check_with(Some(tally))
    }

    fn check_with(&self, tally: Option<&Tally>) -> Result<(), TableError> {
        let header = &self.header;
        let stores_values = header.empty == Empty::Kept
            && header.shared.is_none()
            && header.exits == Exits::Stored
            && header.lane_left.is_none();
        let recount = match tally {
            Some(tally) if stores_values => Recount::Figures(tally),
            Some(_) if !header.stats.codes.is_empty() => Recount::CodesHeld,
            _ => Recount::Nothing,
        };
        let mut counts = match recount {
            Recount::Nothing => Vec::new(),
            _ => vec![0u64; 1 << 16],
        };
        let mut values = values_digest(header);
        self.for_each_block(|codes| {
            digest_codes(&mut values, codes);
            if !counts.is_empty() {
                codes
                    .iter()
                    .for_each(|&code| counts[usize::from(code)] += 1);
            }
        })?;
        if values.finalize() != self.values_crc {
            return Err(TableError::corrupt(
                &self.path,
                "its values are not the ones its header was written with \
                 (another table's values under this one's header?)",
            ));
        }
        match recount {
            Recount::Nothing => Ok(()),
            Recount::Figures(tally) => self.check_figures(tally(&counts)),
            Recount::CodesHeld => self.check_codes_held(&counts),
        }
    }

    /// That the figures `found` counting the values are the header's.
    fn check_figures(&self, found: Figures) -> Result<(), TableError> {
        let stats = &self.header.stats;
        let said = (
            stats.positions,
            stats.wins,
            stats.losses,
            stats.draws,
            stats.longest,
        );
        if found == said {
            return Ok(());
        }
        let words = |(p, w, l, d, n): Figures| {
            format!("{p} positions ({w} wins, {l} losses, {d} draws, longest {n})")
        };
        Err(TableError::corrupt(
            &self.path,
            format!(
                "its values count {} where its header says {} \
                 (another table's values under this one's header?)",
                words(found),
                words(said)
            ),
        ))
    }

    /// That every code stored, `counts` of each, is one the header's values
    /// hold, code 0 (no position) or the code left to the table beside.
    fn check_codes_held(&self, counts: &[u64]) -> Result<(), TableError> {
        let header = &self.header;
        let mut held = vec![false; counts.len()];
        held[0] = true;
        for &(code, _) in &header.stats.codes {
            held[usize::from(code)] = true;
        }
        if let Some(shared) = &header.shared {
            held[usize::from(shared.code)] = true;
        }
        match (0..counts.len()).find(|&code| counts[code] > 0 && !held[code]) {
            None => Ok(()),
            Some(code) => Err(TableError::corrupt(
                &self.path,
                format!(
                    "it stores code {code} in {} slots, which none of its values holds \
                     (another table's values under this one's header?)",
                    counts[code]
                ),
            )),
        }
    }

    /// Calls `visit` with the codes of every block in order, each block checked
    /// and none kept: the whole table is read in a block's memory. The codes
    /// come in the order the blocks store them, lane by lane, as stored (a
    /// [`crate::Shared`] code's slots hold whatever compressed best).
    pub fn for_each_block(&self, mut visit: impl FnMut(&[u16])) -> Result<(), TableError> {
        (0..self.blocks.len()).try_for_each(|b| {
            let block = self.decode_block(b)?;
            let codes: Vec<u16> = (0..block.len()).map(|at| block.get(at)).collect();
            visit(&codes);
            Ok(())
        })
    }

    /// Lets go of the file's pages this process has read through a map: a
    /// reader streaming through a big table keeps only what it decoded. The
    /// pages are read from the file again if needed. Read blocks hold no pages.
    pub fn drop_pages(&self) {
        // SAFETY: the map is read-only and its file is never modified in place,
        // so a dropped page reads back the same bytes.
        #[cfg(unix)]
        #[allow(unsafe_code)]
        if let Source::Mapped(map) = &self.source {
            let _ = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        }
        if let Some(beside) = &self.shared {
            beside.drop_pages();
        }
    }

    /// The compressed bytes of block `b`.
    fn block_bytes(&self, b: usize) -> Result<Cow<'_, [u8]>, TableError> {
        let block = self.blocks[b];
        match &self.source {
            Source::Mapped(map) => Ok(Cow::Borrowed(&map[block.offset..block.offset + block.len])),
            Source::Read(file) => {
                let mut bytes = vec![0; block.len];
                read_at(file, &mut bytes, block.offset as u64).map_err(|e| {
                    TableError::corrupt(
                        &self.path,
                        format!("block {b}: cannot be read ({e}); was the file changed?"),
                    )
                })?;
                Ok(Cow::Owned(bytes))
            }
        }
    }

    fn block(&self, b: usize) -> Result<Block, TableError> {
        self.cache
            .get_or_load(self.id, b as u32, || self.decode_block(b))
    }

    fn decode_block(&self, b: usize) -> Result<Block, TableError> {
        let bytes = self.block_bytes(b)?;
        if crc32fast::hash(&bytes) != self.blocks[b].crc {
            return Err(TableError::corrupt(
                &self.path,
                format!("block {b}: checksum mismatch"),
            ));
        }
        let per_block = u64::from(self.header.block_entries);
        let entries = per_block.min(self.header.places() - b as u64 * per_block) as usize;
        let width = self.code_bytes();
        let raw = decompress(&bytes, entries * width).map_err(|e| {
            TableError::corrupt(&self.path, format!("block {b}: cannot decompress: {e}"))
        })?;
        if raw.len() != entries * width {
            return Err(TableError::corrupt(
                &self.path,
                format!(
                    "block {b}: holds {} bytes, expected {}",
                    raw.len(),
                    entries * width
                ),
            ));
        }
        if width == 2 {
            let codes = raw
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]));
            return Ok(Block::Codes(codes.collect()));
        }
        // A cold lookup decodes a whole block: its bytes are kept as they are,
        // a byte a value (half the memory of its codes in the cache), once
        // their largest, found in a pass that vectorises (`max` over
        // references keeps a pointer and does not), names an entry of the
        // dictionary.
        let named = raw.iter().fold(0, |most, &byte| most.max(byte));
        let entries = self.dictionary.len();
        if usize::from(named) >= entries {
            return Err(TableError::corrupt(
                &self.path,
                format!(
                    "block {b}: a value names entry {named} of a dictionary of {entries} codes"
                ),
            ));
        }
        Ok(Block::Named {
            names: raw.into(),
            dictionary: Arc::clone(&self.dictionary),
        })
    }
}

/// Opens the table beside `path` that tells its header's `shared` code: the
/// same game, tier and size, a variant that leaves no code to another table.
fn open_shared(
    path: &Path,
    header: &Header,
    shared: &crate::Shared,
    cache: &BlockCache,
    access: Access,
) -> Result<Table, TableError> {
    let name = file_name(&header.game, &shared.variant, &header.tier);
    // A header names a file beside this one, never one elsewhere.
    if name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(TableError::corrupt(
            path,
            format!("names a table beside it, '{name}', outside its folder"),
        ));
    }
    let beside = path.with_file_name(name);
    let refuse = |problem: String| TableError::Shared {
        path: path.to_path_buf(),
        beside: beside.clone(),
        problem,
    };
    let table =
        Table::open_with(&beside, cache.clone(), access).map_err(|e| refuse(e.to_string()))?;
    let told = table.header();
    if !told.tells(
        &header.game,
        &shared.variant,
        &header.tier,
        header.index_size,
    ) {
        return Err(refuse(format!(
            "holds {} {} '{}' of {} slots{}",
            told.game,
            told.variant,
            told.tier,
            told.index_size,
            if told.shared.is_some() {
                ", itself told by another"
            } else {
                ""
            }
        )));
    }
    if table.values_crc != shared.values {
        return Err(refuse(
            "is not the table this one was made beside (its values checksum differs)".into(),
        ));
    }
    Ok(table)
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The figures of a table's statistics that its values are counted up to:
/// positions, wins, losses, draws and the longest ([`Table::check_counted`]).
pub type Figures = (u64, u64, u64, u64, u32);

/// The [`Figures`] that the counts of each code, indexed by code, give.
pub type Tally<'a> = dyn Fn(&[u64]) -> Figures + 'a;

/// What [`Table::check_with`] counts the stored codes for.
enum Recount<'a> {
    /// Nothing: the checksums alone.
    Nothing,
    /// The header's figures, where the stored codes are the values.
    Figures(&'a Tally<'a>),
    /// That every code stored is one the values hold, where they are not.
    CodesHeld,
}

/// What a table file's prefix holds.
struct Layout {
    header: Header,
    dictionary: Vec<u16>,
    values_crc: u32,
    blocks: Vec<BlockSpan>,
}

/// A parsed prefix, or how many bytes of the file parsing it needs.
enum Parsed {
    Layout(Box<Layout>),
    Needs(usize),
}

/// Reads `bytes.len()` bytes of `file` from `offset`.
fn read_at(file: &File, bytes: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(bytes, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom};
        let mut file = file;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(bytes)
    }
}

/// Reads as much of the start of a `len`-byte file as its layout needs, and
/// parses it; whichever way its blocks are read later.
fn read_layout(path: &Path, file: &File, len: u64) -> Result<Layout, TableError> {
    let mut want = len.min(64 << 10) as usize;
    loop {
        let mut prefix = vec![0; want];
        read_at(file, &mut prefix, 0).map_err(|e| TableError::io(path, "reading", e))?;
        match parse_layout(path, &prefix, len)? {
            Parsed::Layout(layout) => return Ok(*layout),
            Parsed::Needs(more) => want = more,
        }
    }
}

/// Checks the preamble, header, dictionary and block table of a `len`-byte file
/// whose first bytes are `bytes`, at least its preamble.
fn parse_layout(path: &Path, bytes: &[u8], len: u64) -> Result<Parsed, TableError> {
    let corrupt = |problem: String| TableError::corrupt(path, problem);
    // The bytes up to `$end`, which the caller checked lie in the file.
    macro_rules! need {
        ($end:expr) => {
            if $end > bytes.len() {
                return Ok(Parsed::Needs($end));
            }
        };
    }
    if bytes[..MAGIC.len()] != MAGIC {
        return Err(TableError::Foreign {
            path: path.to_path_buf(),
        });
    }
    let version = read_u32(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(TableError::Version {
            path: path.to_path_buf(),
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let header_len = read_u32(bytes, 12);
    if header_len > MAX_HEADER_BYTES || (PREAMBLE_BYTES + header_len as usize) as u64 > len {
        return Err(corrupt(format!(
            "header length {header_len} does not fit the file"
        )));
    }
    let header_end = PREAMBLE_BYTES + header_len as usize;
    need!(header_end);
    let (header, used): (Header, usize) =
        bincode::decode_from_slice(&bytes[PREAMBLE_BYTES..header_end], bincode_read_config())
            .map_err(|e| corrupt(format!("unreadable header: {e}")))?;
    if used != header_len as usize {
        return Err(corrupt(format!(
            "header is {used} bytes, preamble says {header_len}"
        )));
    }
    let count = block_count(header.places(), header.block_entries)
        .ok_or_else(|| corrupt("header gives a block size of 0".into()))?;
    if header.lanes == 0 {
        return Err(corrupt("header gives 0 lanes".into()));
    }
    if let Some(why) = header.lane_left_misfit() {
        return Err(corrupt(format!("header leaves {why}")));
    }
    let lanes = u64::from(header.lanes);
    let lane = header.index_size / lanes;
    if let Some(why) = header.digits.misfit(lane, header.index_size % lanes == 0) {
        return Err(corrupt(format!("header's fields: {why}")));
    }
    if header.spelled.is_some() && header.digits != Digits::default() {
        return Err(corrupt(
            "header names both fields and its game's order".into(),
        ));
    }
    if (header_end + 4) as u64 > len {
        return Err(corrupt("truncated: no dictionary after the header".into()));
    }
    need!(header_end + 4);
    let codes = read_u32(bytes, header_end) as usize;
    let table_start = header_end + 4 + 2 * codes.min(MAX_DICTIONARY) + 4;
    if codes > MAX_DICTIONARY || table_start as u64 > len {
        return Err(corrupt(format!(
            "a dictionary of {codes} codes does not fit (at most {MAX_DICTIONARY})"
        )));
    }
    let table_end = (count as u128) * (BLOCK_ENTRY_BYTES as u128) + table_start as u128 + 4;
    if table_end > len as u128 {
        return Err(corrupt(format!(
            "truncated: {count} blocks need a block table up to byte {table_end}, file has {len} bytes"
        )));
    }
    let table_end = table_end as usize;
    need!(table_end);
    let values_crc = read_u32(bytes, table_start - 4);
    let dictionary = bytes[header_end + 4..table_start - 4]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let stored_crc = read_u32(bytes, table_end - 4);
    if crc32fast::hash(&bytes[..table_end - 4]) != stored_crc {
        return Err(corrupt("header or block table checksum mismatch".into()));
    }
    let mut blocks = Vec::with_capacity(count as usize);
    let mut expected_offset = table_end as u64;
    for b in 0..count as usize {
        let at = table_start + b * BLOCK_ENTRY_BYTES;
        let offset = read_u64(bytes, at);
        let block_len = u64::from(read_u32(bytes, at + 8));
        if offset != expected_offset || offset + block_len > len {
            return Err(corrupt(format!(
                "truncated or malformed: block {b} at bytes {offset}..{} of a {len}-byte file",
                offset + block_len,
            )));
        }
        blocks.push(BlockSpan {
            offset: offset as usize,
            len: block_len as usize,
            crc: read_u32(bytes, at + 12),
        });
        expected_offset = offset + block_len;
    }
    if expected_offset != len {
        return Err(corrupt(format!(
            "blocks end at byte {expected_offset} but the file has {len} bytes"
        )));
    }
    Ok(Parsed::Layout(Box::new(Layout {
        header,
        dictionary,
        values_crc,
        blocks,
    })))
}
