//! A tier's codes wherever they are: held whole a byte a slot ([`Codes`]),
//! kept compressed in memory a run of slots at a time ([`Packed`]: a pawn
//! ending's slices once no later slice reads them), or read back from the
//! tier's table a block at a time.

use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use tables::{Access, BlockCache, Codes, Table};

/// A tier's codes as a pass over them reads them.
pub trait TierCodes: Sync {
    /// The code of `slot`.
    fn code(&self, slot: u64) -> u16;
    /// How many slots the tier has.
    fn slots(&self) -> u64;
    /// The codes themselves where they are held whole: a writer reads them
    /// then without a call through this trait for every slot.
    fn held(&self) -> Option<&Codes> {
        None
    }
}

impl TierCodes for Codes {
    #[inline]
    fn code(&self, slot: u64) -> u16 {
        self.get(slot)
    }
    fn slots(&self) -> u64 {
        Codes::len(self)
    }
    fn held(&self) -> Option<&Codes> {
        Some(self)
    }
}

impl TierCodes for Table {
    fn code(&self, slot: u64) -> u16 {
        // The table was written by this run or checked sound before it.
        self.get(slot)
            .unwrap_or_else(|e| panic!("reading back a solved tier: {e}"))
    }
    fn slots(&self) -> u64 {
        self.header().index_size
    }
}

/// The most slots of a tier held whole a byte a slot where a pass can do
/// without: a larger one (KRPvKR's 710 million) is packed as its slices are
/// solved, and read from its table a block at a time where its exits are left.
pub const WHOLE_SLOTS: u64 = 1 << 28;

/// `table` opened again for a pass through its slots in order: its blocks read
/// from the file as they are needed, not through a map whose pages, once read,
/// would stay counted to the process (KRPvKR's draft: 159 MB) until the table
/// is closed.
pub fn read_in_order(table: &Table) -> Result<Table, tables::TableError> {
    table.open_again(BlockCache::shared(), Access::Read)
}

/// The slots of one compressed run of [`Packed`].
const RUN: u64 = 1 << 16;

/// The zstd level runs are packed at: the fastest, as they are read back a
/// few times and then dropped.
const PACK_LEVEL: i32 = 1;

/// The byte of a code kept apart (the codes of a run are a byte each).
const APART: u8 = u8::MAX;

/// A tier's codes compressed in memory, in runs of 65,536 slots, written in
/// slot order: a reader going through them in order decompresses each run
/// once (a thread keeps the last few it read), a reader jumping about pays a
/// run a jump (so the exits pass, whose writer weighs orders of the fields on
/// slots all over the table, reads through the blocks' cache instead).
#[derive(Debug)]
pub struct Packed {
    id: u64,
    len: u64,
    runs: Vec<Box<[u8]>>,
    /// The bytes of the slots after the last whole run.
    pending: Vec<u8>,
    /// The codes of [`APART`] bytes, by slot.
    apart: Vec<(u64, u16)>,
}

/// How many runs a thread keeps decompressed. The passes that write a packed
/// tier's draft (its values, counts and blocks) read it in order and find
/// their run at hand; a few are kept so that a thread going between two places
/// (a zugzwang count reading a slot and its other side to move, a lookup of
/// the solve that the window misses) does not decompress a run at each turn.
const UNPACKED: usize = 8;

/// What a thread decompresses runs with, and the runs it decompressed last,
/// each with the [`Packed`] and the run it is.
#[derive(Default)]
struct Unpacker {
    context: Option<zstd::bulk::Decompressor<'static>>,
    runs: Vec<(u64, usize, Vec<u8>)>,
    /// The run replaced next, once [`UNPACKED`] are kept.
    next: usize,
}

thread_local! {
    static UNPACKER: RefCell<Unpacker> = RefCell::new(Unpacker::default());
}

impl Packed {
    /// No slots yet.
    pub fn new() -> Packed {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Packed {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            len: 0,
            runs: Vec::new(),
            pending: Vec::new(),
            apart: Vec::new(),
        }
    }

    /// Appends the codes of the next slots, compressing every run they fill
    /// (in parallel, each from the codes: no copy of them whole).
    pub fn push(&mut self, codes: &impl TierCodes) {
        let start = self.len;
        let size = codes.slots();
        // A slot's byte, its code kept apart where a byte does not hold it.
        let byte = |slot: u64, apart: &mut Vec<(u64, u16)>| {
            let code = codes.code(slot);
            match u8::try_from(code) {
                Ok(byte) if byte != APART => byte,
                _ => {
                    apart.push((start + slot, code));
                    APART
                }
            }
        };
        // The slots that complete the pending run, then whole runs, then the rest.
        let head = match self.pending.is_empty() {
            true => 0,
            false => (RUN - self.pending.len() as u64).min(size),
        };
        for slot in 0..head {
            let b = byte(slot, &mut self.apart);
            self.pending.push(b);
        }
        if self.pending.len() as u64 == RUN {
            let run = std::mem::take(&mut self.pending);
            self.runs.push(compress(&run));
        }
        let whole = (size - head) / RUN;
        let packed: Vec<_> = (0..whole)
            .into_par_iter()
            .map(|r| {
                let mut apart = Vec::new();
                let first = head + r * RUN;
                let run: Vec<u8> = (first..first + RUN)
                    .map(|slot| byte(slot, &mut apart))
                    .collect();
                (compress(&run), apart)
            })
            .collect();
        for (run, apart) in packed {
            self.runs.push(run);
            self.apart.extend(apart);
        }
        for slot in head + whole * RUN..size {
            let b = byte(slot, &mut self.apart);
            self.pending.push(b);
        }
        self.len += size;
    }

    /// The byte of `slot`: from the pending bytes, or its run decompressed.
    fn byte(&self, slot: u64) -> u8 {
        let run = (slot / RUN) as usize;
        let at = (slot % RUN) as usize;
        if run == self.runs.len() {
            return self.pending[at];
        }
        UNPACKER.with_borrow_mut(|unpacker| {
            let kept = unpacker
                .runs
                .iter()
                .position(|&(id, r, _)| (id, r) == (self.id, run));
            let kept = match kept {
                Some(kept) => kept,
                None => unpacker.unpack(self.id, run, &self.runs[run]),
            };
            unpacker.runs[kept].2[at]
        })
    }
}

impl Unpacker {
    /// Decompresses run `run` of the [`Packed`] `id`, `bytes`, in place of
    /// the run kept longest once [`UNPACKED`] are kept; returns where.
    fn unpack(&mut self, id: u64, run: usize, bytes: &[u8]) -> usize {
        let at = match self.runs.len() < UNPACKED {
            true => {
                self.runs.push((id, run, Vec::with_capacity(RUN as usize)));
                self.runs.len() - 1
            }
            false => {
                let at = self.next;
                self.next = (self.next + 1) % UNPACKED;
                at
            }
        };
        let context = match &mut self.context {
            Some(context) => context,
            none => none.insert(zstd::bulk::Decompressor::new().expect("a zstd context")),
        };
        let kept = &mut self.runs[at];
        kept.2.clear();
        context
            .decompress_to_buffer(bytes, &mut kept.2)
            .expect("decompressing what was compressed in memory");
        (kept.0, kept.1) = (id, run);
        at
    }
}

impl Default for Packed {
    fn default() -> Self {
        Packed::new()
    }
}

impl TierCodes for Packed {
    fn code(&self, slot: u64) -> u16 {
        assert!(slot < self.len, "slot {slot} of {} packed", self.len);
        match self.byte(slot) {
            APART => {
                let at = self.apart.partition_point(|&(s, _)| s < slot);
                self.apart[at].1
            }
            byte => u16::from(byte),
        }
    }
    fn slots(&self) -> u64 {
        self.len
    }
}

/// One run compressed.
fn compress(run: &[u8]) -> Box<[u8]> {
    zstd::bulk::compress(run, PACK_LEVEL)
        .expect("compressing in memory")
        .into_boxed_slice()
}

/// A tier's codes as its solve hands them on, with the slots whose value a
/// move out of the tier gives, where the solve marked them.
#[derive(Debug)]
pub struct Solution {
    codes: Hold,
    /// The slots whose value a move out of the tier gives, a win or a loss,
    /// 64 a word, compressed: what the pass that leaves each table's exits
    /// would otherwise search for once every tier is solved.
    exits: Option<Marks>,
}

/// How a solve hands its codes on.
#[derive(Debug)]
enum Hold {
    /// A byte a slot: kept for the later tiers that read it.
    Whole(Codes),
    /// Compressed: written, then read back from its table by a later tier.
    Packed(Packed),
}

impl Solution {
    /// Codes held a byte a slot.
    pub fn held(codes: Codes) -> Solution {
        Solution {
            codes: Hold::Whole(codes),
            exits: None,
        }
    }

    /// Codes compressed in memory.
    pub fn packed(packed: Packed) -> Solution {
        Solution {
            codes: Hold::Packed(packed),
            exits: None,
        }
    }

    /// The same codes, with the slots a move out of the tier decides, 64 a
    /// word, as the solve marked them (held compressed: the table is written
    /// while they wait).
    pub fn marking(self, exits: Vec<u64>) -> Solution {
        Solution {
            exits: Some(Marks::pack(&exits)),
            ..self
        }
    }

    /// Whether the codes are compressed, for a later tier to read back from
    /// the table.
    pub fn is_packed(&self) -> bool {
        matches!(self.codes, Hold::Packed(_))
    }

    /// The codes held whole, made from packed ones where need be.
    pub fn into_codes(self) -> Codes {
        match self.codes {
            Hold::Whole(codes) => codes,
            Hold::Packed(packed) => {
                let mut codes = tables::CodesBuilder::new(packed.slots());
                (0..packed.slots()).for_each(|slot| codes.set(slot, packed.code(slot)));
                codes.build()
            }
        }
    }

    /// The codes as a pass reads them.
    pub fn codes(&self) -> &dyn TierCodes {
        match &self.codes {
            Hold::Whole(codes) => codes,
            Hold::Packed(packed) => packed,
        }
    }

    /// The slots a move out of the tier decides, where the solve marked them.
    pub fn exits(&self) -> Option<&Marks> {
        self.exits.as_ref()
    }
}

/// A tier's exit marks, 64 slots a word, compressed as its file keeps them:
/// a solve holds them so while its draft is written (KRBvKRN's 1.9 GB of
/// marks take 318 MB).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marks {
    words: usize,
    /// The words, little-endian, in one zstd frame with its checksum.
    frame: Vec<u8>,
}

impl Marks {
    /// `words` compressed.
    pub fn pack(words: &[u64]) -> Marks {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut compressor = zstd::bulk::Compressor::new(1).expect("a zstd level");
        compressor
            .set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))
            .expect("a zstd parameter");
        let frame = compressor.compress(&bytes).expect("compressing in memory");
        Marks {
            words: words.len(),
            frame,
        }
    }

    /// How many words were packed.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The words' zstd frame, as the marks' file keeps it.
    pub(crate) fn frame(&self) -> &[u8] {
        &self.frame
    }

    /// The words as packed.
    pub fn unpack(&self) -> Vec<u64> {
        let bytes = zstd::bulk::decompress(&self.frame, self.words * 8)
            .expect("marks packed in memory unpack");
        bytes
            .chunks_exact(8)
            .map(|w| u64::from_le_bytes(w.try_into().unwrap()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes pushed in parts of any length read back the same, the long ones
    /// kept apart included, in order and out of it.
    #[test]
    fn packed_codes_read_back_as_pushed() {
        let size = 5 * RUN + 123;
        let code = |slot: u64| match slot % 1009 {
            0 => 300 + (slot % 7) as u16,
            r if r < 600 => 7,
            r => (r % 200) as u16,
        };
        let mut packed = Packed::new();
        let mut start = 0;
        for part in [1, RUN - 1, 3 * RUN + 17, 5, size] {
            let end = (start + part).min(size);
            let codes = Codes::from((start..end).map(code).collect::<Vec<u16>>());
            packed.push(&codes);
            start = end;
        }
        assert_eq!(packed.slots(), size);
        assert!(packed.runs.len() == 5 && packed.pending.len() == 123);
        assert!((0..size).all(|slot| packed.code(slot) == code(slot)));
        let jumps: Vec<u64> = (0..size).step_by(3001).collect();
        assert!(jumps.len() > 100);
        assert!(
            jumps
                .iter()
                .rev()
                .all(|&slot| packed.code(slot) == code(slot))
        );
        let held = Solution::packed(packed).into_codes();
        assert!((0..size).all(|slot| held.get(slot) == code(slot)));
    }
}
