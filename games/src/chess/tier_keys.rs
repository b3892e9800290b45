//! The tier of a board's material, found by a hash of its piece counts: a
//! probe asks it for every position it looks up (and for each capture a
//! lookup searches), `verify` for every move of every position. A search of
//! the sorted counts took some 25 ns a question over the 290 counts of every
//! ending of up to five pieces, a fifth of a lookup's time.

use super::board::Board;
use super::material::{Counts, count_at};

/// Piece counts as one number, four bits a count, the first count highest.
/// None where a count does not fit (a board of more pieces than any table
/// has).
pub(super) fn packed(counts: &Counts) -> Option<u64> {
    counts.iter().try_fold(0u64, |key, &count| {
        (count < 16).then_some(key << 4 | u64::from(count))
    })
}

/// [`packed`] of a board's counts, counted straight into the number: with at
/// most fifteen pieces, no count passes its four bits.
#[inline]
pub(super) fn packed_of(board: &Board) -> Option<u64> {
    if board.occupied().count_ones() > 15 {
        return None;
    }
    let nibble = |at: usize| 1u64 << (4 * (11 - at));
    let key = board
        .pieces()
        .map(|(_, p)| nibble(count_at(p.color, p.role)));
    Some(key.sum())
}

/// A table from packed counts to a tier and whether its colours are
/// swapped, open addressing in a power of two at least four times the
/// entries, so that most questions read one entry. A key of 0 (no pieces,
/// not even kings) marks an empty entry.
#[derive(Debug, Clone)]
pub(super) struct TierKeys {
    entries: Box<[(u64, (u32, bool))]>,
    shift: u32,
}

impl TierKeys {
    /// The table of `pairs`, each key once and none of them 0.
    pub(super) fn new(pairs: &[(u64, (u32, bool))]) -> TierKeys {
        let size = (pairs.len() * 4).next_power_of_two().max(8);
        let mut keys = TierKeys {
            entries: vec![(0, (0, false)); size].into_boxed_slice(),
            shift: 64 - size.trailing_zeros(),
        };
        for &(key, found) in pairs {
            assert_ne!(key, 0, "a material has its kings");
            let at = keys.place(key);
            assert_ne!(keys.entries[at].0, key, "each key once");
            keys.entries[at] = (key, found);
        }
        keys
    }

    /// Where `key` is, or the empty entry where it would go.
    #[inline]
    fn place(&self, key: u64) -> usize {
        let mask = self.entries.len() - 1;
        let mut at = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        while self.entries[at].0 != key && self.entries[at].0 != 0 {
            at = (at + 1) & mask;
        }
        at
    }

    /// The tier with the counts `key` packs, and whether its colours are
    /// swapped.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<(u32, bool)> {
        if key == 0 {
            return None;
        }
        let (found, tier) = self.entries[self.place(key)];
        (found == key).then_some(tier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_found_and_no_other() {
        let pairs: Vec<(u64, (u32, bool))> = (1..=300u64)
            .map(|k| (k * 0x1_0001, (k as u32, k % 2 == 0)))
            .collect();
        let keys = TierKeys::new(&pairs);
        for &(key, found) in &pairs {
            assert_eq!(keys.get(key), Some(found));
        }
        assert_eq!(keys.get(0), None);
        assert_eq!(keys.get(0x1_0000), None);
        assert_eq!(keys.get(301 * 0x1_0001), None);
    }
}
