//! The slots decided at each distance past what a state's byte holds
//! ([`crate::states::SHORT`] plies), kept by the plies for the codes made at
//! the end. Few in a five-piece tier (41,372 of KRBvKR's 242 million slots
//! under DTM), but some 500 million of KRNvKNN's 7.6 billion, whose mates run
//! to 523 plies: at eight bytes a slot, gigabytes held through the plies. So
//! each distance's slots are kept rising, as the gaps between them, seven
//! bits a byte (some two bytes a slot there).

use crate::states::Slot;
use rayon::prelude::*;

/// The slots of each long distance, in the order the plies decided them.
#[derive(Default)]
pub(crate) struct Long {
    /// Each distance with its slots: the gap from the slot after the one
    /// before (from slot 0 for the first), seven bits a byte from the lowest,
    /// the high bit set on every byte of a gap but its last.
    plies: Vec<(u16, Box<[u8]>)>,
}

impl Long {
    /// Keeps `slots`, decided at `ply` plies, in any order.
    pub(crate) fn push(&mut self, ply: u16, mut slots: Vec<Slot>) {
        slots.par_sort_unstable();
        slots.dedup();
        let mut bytes = Vec::with_capacity(slots.len() * 2);
        let mut next = 0;
        for slot in slots {
            let mut gap = slot - next;
            next = slot + 1;
            while gap >= 0x80 {
                bytes.push(gap as u8 | 0x80);
                gap >>= 7;
            }
            bytes.push(gap as u8);
        }
        self.plies.push((ply, bytes.into_boxed_slice()));
    }

    /// Calls `visit` with each distance and slot kept, distance by distance,
    /// each distance's slots rising; each distance's bytes let go once read.
    pub(crate) fn drain(self, mut visit: impl FnMut(u16, Slot)) {
        for (ply, bytes) in self.plies {
            each_slot(&bytes, |slot| visit(ply, slot));
        }
    }

    /// Calls `visit` as [`Long::drain`] does, keeping every slot.
    pub(crate) fn each(&self, mut visit: impl FnMut(u16, Slot)) {
        for (ply, bytes) in &self.plies {
            each_slot(bytes, |slot| visit(*ply, slot));
        }
    }
}

/// Calls `visit` with each slot of one distance's gaps, rising.
fn each_slot(bytes: &[u8], mut visit: impl FnMut(Slot)) {
    let (mut next, mut gap, mut shift) = (0, 0, 0);
    for &byte in bytes {
        gap |= Slot::from(byte & 0x7f) << shift;
        shift += 7;
        if byte < 0x80 {
            let slot = next + gap;
            visit(slot);
            (next, gap, shift) = (slot + 1, 0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots next to each other, far apart (past 2^32 and near the top of 64
    /// bits), and given twice come back once each, rising, ply by ply.
    #[test]
    fn every_slot_comes_back_with_its_distance() {
        let mut long = Long::default();
        let far = [0, 1, 2, 129, 130, 1 << 32, (1 << 40) + 3, u64::MAX - 1];
        long.push(77, far.iter().rev().copied().collect());
        long.push(78, Vec::new());
        long.push(300, vec![5, 5, 4]);
        let mut kept = Vec::new();
        long.each(|ply, slot| kept.push((ply, slot)));
        let mut given = Vec::new();
        long.drain(|ply, slot| given.push((ply, slot)));
        assert_eq!(kept, given);
        let mut expected: Vec<(u16, Slot)> = far.iter().map(|&s| (77, s)).collect();
        expected.extend([(300, 4), (300, 5)]);
        assert_eq!(given, expected);
    }
}
