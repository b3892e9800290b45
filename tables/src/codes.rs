//! A table's value codes in memory, a byte a slot where the codes allow it:
//! what a generator holds of a tier while it is solved, and of the tiers a
//! later one reads.

use rayon::prelude::*;

/// The byte that sends a reader to the codes kept apart.
const APART: u8 = u8::MAX;

/// The most slots in one a table's codes may keep apart before two bytes a
/// slot cost less than a byte a slot and the few kept apart (8 bytes each
/// while they are set in any order).
const APART_SHARE: u64 = 8;

/// The value codes of every slot of a table, in slot order. A code below 255
/// takes a byte (a win or a loss in up to 126 plies: every slot of most chess
/// endings), a longer one is kept apart, sorted by slot; where too many would
/// be (scores) every code takes two bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Codes(Repr);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Repr {
    Bytes { bytes: Vec<u8>, apart: Apart },
    Wide(Vec<u16>),
}

/// Slots of one block of the codes kept apart, as bits: an entry holds its
/// slot's place in its block.
const BLOCK_BITS: u32 = 16;

/// The codes kept apart, block by block of 2^16 slots, in slot order: each
/// entry four bytes, its slot's place in the block above its code (KRNvKNN's
/// 350 million codes past 126 plies: 1.4 GB, where eight bytes each, the
/// slot whole, took 2.8).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Apart {
    /// The first entry of each block, and one past the last block's.
    firsts: Vec<u32>,
    entries: Vec<u32>,
}

impl Apart {
    /// None kept apart of `size` slots.
    fn none(size: u64) -> Apart {
        Apart {
            firsts: vec![0; blocks(size) + 1],
            entries: Vec::new(),
        }
    }

    /// The codes kept apart of `size` slots, given in slot order.
    fn of_sorted(size: u64, kept: impl Iterator<Item = (u64, u16)>) -> Apart {
        let mut room = Room::new(size);
        let entries = kept
            .map(|(slot, code)| {
                room.add(slot);
                entry(slot, code)
            })
            .collect();
        let (firsts, _) = room.firsts();
        Apart { firsts, entries }
    }

    /// The codes kept apart of `size` slots from their list, sorted, each
    /// [`packed`] with its slot. The entries are filled from the end and the
    /// list let go behind them as it is read, so that the two are never both
    /// held whole (a table's codes read back: 12 bytes a code kept apart
    /// where 8 do).
    fn of_list(size: u64, mut listed: Vec<u64>) -> Apart {
        let mut room = Room::new(size);
        listed.iter().for_each(|&kept| room.add(unpacked(kept).0));
        let (firsts, _) = room.firsts();
        let mut entries = vec![0u32; listed.len()];
        while !listed.is_empty() {
            let from = listed.len().saturating_sub(1 << 20);
            for (at, &kept) in listed[from..].iter().enumerate() {
                let (slot, code) = unpacked(kept);
                entries[from + at] = entry(slot, code);
            }
            listed.truncate(from);
            listed.shrink_to_fit();
        }
        Apart { firsts, entries }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries of `slot`'s block.
    #[inline]
    fn block(&self, slot: u64) -> &[u32] {
        let block = (slot >> BLOCK_BITS) as usize;
        &self.entries[self.firsts[block] as usize..self.firsts[block + 1] as usize]
    }

    #[cold]
    fn code(&self, slot: u64) -> u16 {
        let block = self.block(slot);
        let at = block
            .binary_search_by_key(&place(slot), |&e| e >> 16)
            .expect("a slot marked apart has its code apart");
        block[at] as u16
    }

    /// Every slot kept apart with its code, in slot order.
    fn iter(&self) -> impl Iterator<Item = (u64, u16)> + '_ {
        self.firsts
            .windows(2)
            .enumerate()
            .flat_map(move |(block, ends)| {
                let first = (block as u64) << BLOCK_BITS;
                let entries = &self.entries[ends[0] as usize..ends[1] as usize];
                entries
                    .iter()
                    .map(move |&e| (first + u64::from(e >> 16), e as u16))
            })
    }
}

/// How many blocks of the codes kept apart `size` slots span.
fn blocks(size: u64) -> usize {
    size.div_ceil(1 << BLOCK_BITS) as usize
}

/// A count of entries as a block's first.
fn counted(entries: usize) -> u32 {
    u32::try_from(entries).expect("fewer than 2^32 codes kept apart")
}

/// `slot`'s place in its block.
#[inline]
fn place(slot: u64) -> u32 {
    (slot & ((1 << BLOCK_BITS) - 1)) as u32
}

/// The entry of `slot` kept apart with `code`.
fn entry(slot: u64, code: u16) -> u32 {
    place(slot) << 16 | u32::from(code)
}

impl Codes {
    /// `size` slots, each code 0.
    pub fn new(size: u64) -> Codes {
        Codes::of_bytes(vec![0; size as usize])
    }

    /// The codes of `bytes`, none kept apart.
    fn of_bytes(bytes: Vec<u8>) -> Codes {
        let apart = Apart::none(bytes.len() as u64);
        Codes(Repr::Bytes { bytes, apart })
    }

    /// The code of `slot`.
    #[inline]
    pub fn get(&self, slot: u64) -> u16 {
        match &self.0 {
            Repr::Bytes { bytes, apart } => match bytes[slot as usize] {
                APART => apart.code(slot),
                byte => u16::from(byte),
            },
            Repr::Wide(codes) => codes[slot as usize],
        }
    }

    /// How many slots there are.
    pub fn len(&self) -> u64 {
        match &self.0 {
            Repr::Bytes { bytes, .. } => bytes.len() as u64,
            Repr::Wide(codes) => codes.len() as u64,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes the codes hold in memory.
    pub fn bytes(&self) -> usize {
        match &self.0 {
            Repr::Bytes { bytes, apart } => bytes.len() + 4 * (apart.len() + apart.firsts.len()),
            Repr::Wide(codes) => codes.len() * 2,
        }
    }

    /// Whether a slot's byte holds `code` itself (a code below 255), so that
    /// a [`CodesBuilder::from_bytes`] need not be told it.
    pub fn byte_holds(code: u16) -> bool {
        code < u16::from(APART)
    }

    /// Every code, two bytes a slot.
    pub fn to_vec(&self) -> Vec<u16> {
        (0..self.len())
            .into_par_iter()
            .map(|s| self.get(s))
            .collect()
    }

    /// Writes `part`'s codes into the slots from `start` on. Parts with codes
    /// kept apart are written in slot order.
    pub fn write_at(&mut self, start: u64, part: &Codes) {
        let range = start as usize..(start + part.len()) as usize;
        match &mut self.0 {
            Repr::Wide(codes) => codes[range]
                .par_iter_mut()
                .enumerate()
                .for_each(|(i, code)| *code = part.get(i as u64)),
            Repr::Bytes { bytes, apart } => {
                bytes[range]
                    .par_iter_mut()
                    .enumerate()
                    .for_each(|(i, byte)| *byte = byte_of(part.get(i as u64)));
                let mut added = part
                    .apart()
                    .map(|(slot, code)| (start + slot, code))
                    .peekable();
                if added.peek().is_some() {
                    assert!(
                        apart.iter().last().is_none_or(|(kept, _)| kept < start),
                        "parts kept apart come in slot order"
                    );
                    let size = bytes.len() as u64;
                    *apart = Apart::of_sorted(size, apart.iter().chain(added));
                }
            }
        }
    }

    /// Replaces the code of every slot by `to(slot, code)`, in place and in
    /// parallel: a reader's values made from the codes a table stores (its
    /// exits searched) without a second copy of them.
    pub fn update(&mut self, to: impl Fn(u64, u16) -> u16 + Sync) {
        let (bytes, apart) = match &mut self.0 {
            Repr::Wide(codes) => {
                let each = |(slot, code): (usize, &mut u16)| *code = to(slot as u64, *code);
                return codes.par_iter_mut().enumerate().for_each(each);
            }
            Repr::Bytes { bytes, apart } => (bytes, apart),
        };
        let old = &*apart;
        // The codes past a byte, listed in slot order as a builder lists
        // them (8 bytes each): few, as they were.
        let listed: Vec<u64> = bytes
            .par_chunks_mut(1 << BLOCK_BITS)
            .enumerate()
            .flat_map_iter(|(block, chunk)| {
                let first = (block as u64) << BLOCK_BITS;
                let mut listed = Vec::new();
                for (at, byte) in chunk.iter_mut().enumerate() {
                    let slot = first + at as u64;
                    let code = match *byte {
                        APART => old.code(slot),
                        byte => u16::from(byte),
                    };
                    let code = to(slot, code);
                    *byte = byte_of(code);
                    if !Codes::byte_holds(code) {
                        listed.push(packed(slot, code));
                    }
                }
                listed
            })
            .collect();
        let size = bytes.len() as u64;
        let widen = listed.len() as u64 > size / APART_SHARE;
        *apart = Apart::of_list(size, listed);
        if widen {
            *self = Codes(Repr::Wide(self.to_vec()));
        }
    }

    /// The slots whose codes are 255 or more, with their codes, in slot order.
    fn apart(&self) -> Box<dyn Iterator<Item = (u64, u16)> + '_> {
        match &self.0 {
            Repr::Bytes { apart, .. } => Box::new(apart.iter()),
            Repr::Wide(codes) => Box::new(
                codes
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| !Codes::byte_holds(c))
                    .map(|(s, &c)| (s as u64, c)),
            ),
        }
    }
}

/// No slots.
impl Default for Codes {
    fn default() -> Codes {
        Codes(Repr::Wide(Vec::new()))
    }
}

impl From<Vec<u16>> for Codes {
    fn from(codes: Vec<u16>) -> Codes {
        let apart = codes.par_iter().filter(|&&c| !Codes::byte_holds(c)).count() as u64;
        if apart > codes.len() as u64 / APART_SHARE {
            return Codes(Repr::Wide(codes));
        }
        let bytes = codes.par_iter().map(|&code| byte_of(code)).collect();
        let kept = (codes.iter().enumerate())
            .filter(|&(_, &code)| !Codes::byte_holds(code))
            .map(|(slot, &code)| (slot as u64, code));
        let apart = Apart::of_sorted(codes.len() as u64, kept);
        Codes(Repr::Bytes { bytes, apart })
    }
}

/// Codes set slot by slot in any order: a byte a slot, turned into two where
/// too many are kept apart.
#[derive(Debug)]
pub struct CodesBuilder {
    codes: Codes,
    kept: Kept,
}

/// How many codes a [`CodesBuilder`] will keep apart in each block of its
/// slots, counted before they are set.
#[derive(Debug)]
pub struct Room(Vec<u32>);

impl Room {
    /// No room yet among `size` slots.
    pub fn new(size: u64) -> Room {
        // Each block's count one place on, to be summed into its first.
        Room(vec![0; blocks(size) + 1])
    }

    /// Room for the code of `slot`, to be set once.
    pub fn add(&mut self, slot: u64) {
        let block = (slot >> BLOCK_BITS) as usize;
        assert!(
            block + 1 < self.0.len(),
            "slot {slot} is past the codes' slots"
        );
        self.0[block + 1] += 1;
    }

    /// The first entry of each block, and one past the last block's, and
    /// how many codes there is room for.
    fn firsts(self) -> (Vec<u32>, u64) {
        let Room(mut firsts) = self;
        let mut first = 0u64;
        for count in &mut firsts {
            first += u64::from(*count);
            *count = counted(first as usize);
        }
        (firsts, first)
    }
}

/// The codes a builder keeps apart as they are set.
#[derive(Debug)]
enum Kept {
    /// Each slot above its code, 8 bytes, in the order set.
    Listed(Vec<u64>),
    /// Into room made for them in their blocks ([`Room`]), the next free
    /// entry of each block.
    Placed(Vec<u32>),
}

impl CodesBuilder {
    /// `size` slots, every code 0.
    pub fn new(size: u64) -> CodesBuilder {
        CodesBuilder::from_bytes(vec![0; size as usize])
    }

    /// The codes of `bytes`, a byte a slot that holds its code, before the
    /// slots it does not hold are set: the solver's bytes, then the long
    /// distances it kept apart.
    pub fn from_bytes(bytes: Vec<u8>) -> CodesBuilder {
        CodesBuilder {
            codes: Codes::of_bytes(bytes),
            kept: Kept::Listed(Vec::new()),
        }
    }

    /// The codes of `bytes`, as [`CodesBuilder::from_bytes`], with room made
    /// for the codes it will keep apart: each is then set once, four bytes,
    /// with no list of them made first. Where they are too many, every code
    /// takes two bytes from the start.
    pub fn from_bytes_with(bytes: Vec<u8>, room: Room) -> CodesBuilder {
        assert_eq!(
            room.0.len(),
            blocks(bytes.len() as u64) + 1,
            "room for these slots"
        );
        let (firsts, first) = room.firsts();
        if first > bytes.len() as u64 / APART_SHARE {
            let mut builder = CodesBuilder::from_bytes(bytes);
            builder.widen();
            return builder;
        }
        let next = firsts[..firsts.len() - 1].to_vec();
        let apart = Apart {
            entries: vec![0; first as usize],
            firsts,
        };
        CodesBuilder {
            codes: Codes(Repr::Bytes { bytes, apart }),
            kept: Kept::Placed(next),
        }
    }

    /// The code of `slot` as set so far, where it is not kept apart.
    #[inline]
    pub fn get(&self, slot: u64) -> u16 {
        self.codes.get(slot)
    }

    /// Sets the code of `slot`, set at most once.
    #[inline]
    pub fn set(&mut self, slot: u64, code: u16) {
        match &mut self.codes.0 {
            Repr::Bytes { bytes, apart } => {
                bytes[slot as usize] = byte_of(code);
                if Codes::byte_holds(code) {
                    return;
                }
                match &mut self.kept {
                    Kept::Placed(next) => {
                        let block = (slot >> BLOCK_BITS) as usize;
                        let at = next[block];
                        assert!(
                            at < apart.firsts[block + 1],
                            "slot {slot} was not expected apart"
                        );
                        apart.entries[at as usize] = entry(slot, code);
                        next[block] += 1;
                    }
                    Kept::Listed(listed) => {
                        listed.push(packed(slot, code));
                        if listed.len() as u64 > bytes.len() as u64 / APART_SHARE {
                            self.widen();
                        }
                    }
                }
            }
            Repr::Wide(codes) => codes[slot as usize] = code,
        }
    }

    #[cold]
    fn widen(&mut self) {
        let codes = std::mem::take(self).build();
        self.codes = Codes(Repr::Wide(codes.to_vec()));
    }

    /// The codes set.
    pub fn build(self) -> Codes {
        let CodesBuilder { mut codes, kept } = self;
        if let Repr::Bytes { bytes, apart } = &mut codes.0 {
            match kept {
                Kept::Listed(mut listed) => {
                    listed.par_sort_unstable();
                    *apart = Apart::of_list(bytes.len() as u64, listed);
                }
                Kept::Placed(next) => {
                    assert!(
                        next == apart.firsts[1..],
                        "every slot expected apart is set"
                    );
                    let mut blocks = Vec::with_capacity(next.len());
                    let mut rest = &mut apart.entries[..];
                    for ends in apart.firsts.windows(2) {
                        let (block, after) = rest.split_at_mut((ends[1] - ends[0]) as usize);
                        blocks.push(block);
                        rest = after;
                    }
                    blocks
                        .par_iter_mut()
                        .for_each(|block| block.sort_unstable());
                }
            }
        }
        codes
    }
}

/// No slots.
impl Default for CodesBuilder {
    fn default() -> CodesBuilder {
        CodesBuilder {
            codes: Codes::default(),
            kept: Kept::Listed(Vec::new()),
        }
    }
}

#[inline]
fn byte_of(code: u16) -> u8 {
    u8::try_from(code).unwrap_or(APART)
}

/// A slot and its code kept apart as one number, the slot above the code:
/// such numbers sort by slot. Slots stay below 2^48 (a six-piece chess tier
/// has 2^34).
fn packed(slot: u64, code: u16) -> u64 {
    assert!(
        slot < 1 << 48,
        "slot {slot} is past what a code kept apart holds"
    );
    slot << 16 | u64::from(code)
}

fn unpacked(kept: u64) -> (u64, u16) {
    (kept >> 16, kept as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(codes: &Codes) -> bool {
        matches!(codes.0, Repr::Wide(_))
    }

    /// Codes updated in place read as the function gives them, long codes
    /// kept apart, gained and lost across blocks; too many long ones take
    /// two bytes a slot; two-byte codes stay so.
    #[test]
    fn codes_update_in_place() {
        let size = 3 * (1 << BLOCK_BITS) + 77;
        let start: Vec<u16> = (0..size)
            .map(|s| {
                if s % 1000 == 3 {
                    400 + (s % 7) as u16
                } else {
                    (s % 200) as u16
                }
            })
            .collect();
        let to = |slot: u64, code: u16| match slot % 999 {
            0 => 300 + (slot % 11) as u16,
            1 => code / 2,
            _ => code,
        };
        let want: Vec<u16> = (0..size).map(|s| to(s as u64, start[s])).collect();
        let mut codes = Codes::from(start.clone());
        codes.update(to);
        assert!(!wide(&codes));
        assert_eq!(codes.to_vec(), want);
        assert_eq!(codes, Codes::from(want.clone()));

        codes.update(|slot, code| if slot % 4 == 0 { 1000 } else { code });
        assert!(wide(&codes));
        let many: Vec<u16> = (0..size)
            .map(|s| if s % 4 == 0 { 1000 } else { want[s] })
            .collect();
        assert_eq!(codes.to_vec(), many);
        codes.update(|slot, code| code + (slot % 2) as u16);
        let more: Vec<u16> = (0..size).map(|s| many[s] + (s % 2) as u16).collect();
        assert_eq!(codes.to_vec(), more);
    }

    #[test]
    fn long_codes_are_kept_apart_and_scores_take_two_bytes() {
        let mostly_short: Vec<u16> = (0..1000)
            .map(|s| if s % 100 == 7 { 300 + s } else { s % 255 })
            .collect();
        let codes = Codes::from(mostly_short.clone());
        assert!(!wide(&codes));
        assert_eq!(codes.bytes(), 1000 + 10 * 4 + 4 * 2);
        assert_eq!(codes.to_vec(), mostly_short);
        // The same from bytes with the long codes (and one short one) set
        // apart, out of order, their bytes anything.
        let bytes = mostly_short
            .iter()
            .map(|&c| u8::try_from(c).unwrap_or(9))
            .collect();
        let mut builder = CodesBuilder::from_bytes(bytes);
        for s in (0..1000u64).rev().filter(|s| s % 100 == 7 || *s == 5) {
            builder.set(s, mostly_short[s as usize]);
        }
        assert_eq!(builder.build(), codes);
        let scores: Vec<u16> = (0..1000).map(|s| 0x8000 + s).collect();
        let codes = Codes::from(scores.clone());
        assert!(wide(&codes));
        assert_eq!(codes.to_vec(), scores);
    }

    #[test]
    fn a_builder_takes_slots_in_any_order_and_widens() {
        let short: Vec<u16> = (0..1000)
            .map(|s| if s % 50 == 3 { 1000 + s } else { s % 7 })
            .collect();
        let mut builder = CodesBuilder::new(1000);
        for slot in (0..1000).rev() {
            builder.set(slot, short[slot as usize]);
        }
        let codes = builder.build();
        assert!(!wide(&codes));
        assert_eq!(codes.to_vec(), short);
        let mut builder = CodesBuilder::new(1000);
        for slot in 0..1000 {
            builder.set(slot, 0x8000 + slot as u16);
        }
        let codes = builder.build();
        assert!(wide(&codes));
        assert_eq!(codes.get(999), 0x8000 + 999);
    }

    #[test]
    fn parts_are_written_in_slot_order() {
        let whole: Vec<u16> = (0..900)
            .map(|s| if s % 90 == 1 { 500 } else { s % 200 })
            .collect();
        let mut codes = Codes::new(900);
        for start in (0..900).step_by(300) {
            let part = Codes::from(whole[start..start + 300].to_vec());
            codes.write_at(start as u64, &part);
        }
        assert_eq!(codes.to_vec(), whole);
        assert_eq!(codes, Codes::from(whole));
    }

    /// Codes kept apart across many blocks of slots, past what an entry's
    /// place holds: made whole, set in any order into room counted first or
    /// listed, and written in parts, the same codes.
    #[test]
    fn codes_apart_in_many_blocks_read_back_however_made() {
        let size = 300_000u64;
        let long = |s: u64| s % 977 == 5 || s == 65_535 || s == 65_536 || s == size - 1;
        let whole: Vec<u16> = (0..size)
            .map(|s| {
                if long(s) {
                    255 + (s % 700) as u16
                } else {
                    (s % 250) as u16
                }
            })
            .collect();
        let codes = Codes::from(whole.clone());
        assert!(!wide(&codes));
        assert_eq!(codes.to_vec(), whole);
        let bytes = || {
            whole
                .iter()
                .map(|&c| u8::try_from(c).unwrap_or(0))
                .collect::<Vec<u8>>()
        };
        let mut room = Room::new(size);
        (0..size).filter(|&s| long(s)).for_each(|s| room.add(s));
        let mut placed = CodesBuilder::from_bytes_with(bytes(), room);
        let mut listed = CodesBuilder::from_bytes(bytes());
        for s in (0..size).rev().filter(|&s| long(s)) {
            placed.set(s, whole[s as usize]);
            listed.set(s, whole[s as usize]);
        }
        assert_eq!(placed.build(), codes);
        assert_eq!(listed.build(), codes);
        let mut parts = Codes::new(size);
        for start in (0..size).step_by(70_000) {
            let end = (start + 70_000).min(size);
            parts.write_at(
                start,
                &Codes::from(whole[start as usize..end as usize].to_vec()),
            );
        }
        assert_eq!(parts, codes);
        // Room for more than an eighth of the slots: two bytes each from the start.
        let mut room = Room::new(16);
        (0..3).for_each(|s| room.add(s));
        let mut builder = CodesBuilder::from_bytes_with(vec![1; 16], room);
        (0..3).for_each(|s| builder.set(s, 900 + s as u16));
        let codes = builder.build();
        assert!(wide(&codes));
        assert_eq!(codes.get(2), 902);
        assert_eq!(codes.get(3), 1);
    }

    #[test]
    #[should_panic(expected = "every slot expected apart is set")]
    fn room_left_unset_is_a_mistake() {
        let mut room = Room::new(100);
        room.add(7);
        room.add(8);
        let mut builder = CodesBuilder::from_bytes_with(vec![1; 100], room);
        builder.set(8, 300);
        builder.build();
    }
}
