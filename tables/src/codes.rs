//! A table's value codes in memory, a byte a slot where the codes allow it:
//! what a generator holds of a tier while it is solved, and of the tiers a
//! later one reads.

use rayon::prelude::*;

/// The byte that sends a reader to the codes kept apart.
const APART: u8 = u8::MAX;

/// The most slots in one a table's codes may keep apart before two bytes a
/// slot cost less than a byte a slot and the few kept apart (8 bytes each).
const APART_SHARE: u64 = 8;

/// The value codes of every slot of a table, in slot order. A code below 255
/// takes a byte (a win or a loss in up to 126 plies: every slot of most chess
/// endings), a longer one is kept apart, sorted by slot; where too many would
/// be (scores) every code takes two bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Codes(Repr);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Repr {
    Bytes {
        bytes: Vec<u8>,
        /// The codes kept apart, each [`packed`] with its slot, in slot order.
        apart: Vec<u64>,
    },
    Wide(Vec<u16>),
}

impl Codes {
    /// `size` slots, each code 0.
    pub fn new(size: u64) -> Codes {
        Codes(Repr::Bytes {
            bytes: vec![0; size as usize],
            apart: Vec::new(),
        })
    }

    /// The code of `slot`.
    #[inline]
    pub fn get(&self, slot: u64) -> u16 {
        match &self.0 {
            Repr::Bytes { bytes, apart } => match bytes[slot as usize] {
                APART => apart_code(apart, slot),
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
            Repr::Bytes { bytes, apart } => bytes.len() + apart.len() * 8,
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
                assert!(
                    apart.last().is_none_or(|&kept| unpacked(kept).0 < start),
                    "parts kept apart come in slot order"
                );
                bytes[range]
                    .par_iter_mut()
                    .enumerate()
                    .for_each(|(i, byte)| *byte = byte_of(part.get(i as u64)));
                apart.extend(part.apart().map(|(slot, code)| packed(start + slot, code)));
            }
        }
    }

    /// The slots whose codes are 255 or more, with their codes, in slot order.
    fn apart(&self) -> Box<dyn Iterator<Item = (u64, u16)> + '_> {
        match &self.0 {
            Repr::Bytes { apart, .. } => Box::new(apart.iter().map(|&kept| unpacked(kept))),
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
        let apart = (codes.par_iter().enumerate())
            .filter(|&(_, &code)| !Codes::byte_holds(code))
            .map(|(slot, &code)| packed(slot as u64, code))
            .collect();
        Codes(Repr::Bytes { bytes, apart })
    }
}

/// Codes set slot by slot in any order: a byte a slot, turned into two where
/// too many are kept apart.
#[derive(Debug)]
pub struct CodesBuilder(Codes);

impl CodesBuilder {
    /// `size` slots, every code 0.
    pub fn new(size: u64) -> CodesBuilder {
        CodesBuilder(Codes::new(size))
    }

    /// The codes of `bytes`, a byte a slot that holds its code, before the
    /// slots it does not hold are set: the solver's bytes, then the long
    /// distances it kept apart.
    pub fn from_bytes(bytes: Vec<u8>) -> CodesBuilder {
        CodesBuilder(Codes(Repr::Bytes {
            bytes,
            apart: Vec::new(),
        }))
    }

    /// The code of `slot` as set so far.
    #[inline]
    pub fn get(&self, slot: u64) -> u16 {
        self.0.get(slot)
    }

    /// Sets the code of `slot`, set at most once.
    #[inline]
    pub fn set(&mut self, slot: u64, code: u16) {
        match &mut self.0.0 {
            Repr::Bytes { bytes, apart } => {
                bytes[slot as usize] = byte_of(code);
                if !Codes::byte_holds(code) {
                    apart.push(packed(slot, code));
                    if apart.len() as u64 > bytes.len() as u64 / APART_SHARE {
                        self.widen();
                    }
                }
            }
            Repr::Wide(codes) => codes[slot as usize] = code,
        }
    }

    #[cold]
    fn widen(&mut self) {
        self.0 = Codes(Repr::Wide(self.finish().to_vec()));
    }

    fn finish(&mut self) -> Codes {
        let mut codes = std::mem::take(&mut self.0);
        if let Repr::Bytes { apart, .. } = &mut codes.0 {
            apart.par_sort_unstable();
        }
        codes
    }

    /// The codes set.
    pub fn build(mut self) -> Codes {
        self.finish()
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

#[cold]
fn apart_code(apart: &[u64], slot: u64) -> u16 {
    let at = apart
        .binary_search_by_key(&slot, |&kept| unpacked(kept).0)
        .expect("a slot marked apart has its code apart");
    unpacked(apart[at]).1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(codes: &Codes) -> bool {
        matches!(codes.0, Repr::Wide(_))
    }

    #[test]
    fn long_codes_are_kept_apart_and_scores_take_two_bytes() {
        let mostly_short: Vec<u16> = (0..1000)
            .map(|s| if s % 100 == 7 { 300 + s } else { s % 255 })
            .collect();
        let codes = Codes::from(mostly_short.clone());
        assert!(!wide(&codes));
        assert_eq!(codes.bytes(), 1000 + 10 * 8);
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
}
