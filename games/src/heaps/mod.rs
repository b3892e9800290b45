//! The heap games, one module each (Nim and its relatives from the Nim
//! thesis), and what they share: heaps written as numbers, a take written
//! `h<i>-<k>`, the stones left, the search key that forgets heap order, the
//! slots of heap multisets (the `multiset_slots!` macro, [`multiset`]), and
//! the numbers their formulas count with ([`partition`], [`compositions`],
//! [`zeckendorf`]) and their pictures ([`heap_picture`]). The crate root
//! re-exports each module.

pub mod building;
pub mod circular_kayles;
pub mod compositions;
pub mod divisor;
pub mod end_rows;
pub mod fibonacci;
pub mod greedy;
pub mod grundy;
pub mod heap_picture;
pub mod moore;
pub mod multiset;
pub mod nim;
pub mod partition;
pub mod poker;
pub mod wythoff;
pub mod zeckendorf;

use crate::game::GameError;

/// How heaps are written, for every heap game.
pub const HEAP_NOTATION: &str = "heap sizes separated by spaces or commas: 3 4 5; \
                                 a move takes from one heap, counted from 1: h2-3";

/// Heap sizes separated by spaces or commas; empty means no heaps left.
pub fn parse_heaps(text: &str) -> Result<Vec<u64>, GameError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, s)| {
            s.parse::<u64>().map_err(|_| {
                GameError::position(
                    text,
                    format!(
                        "heap {} is '{s}': heap sizes are whole numbers from 0 to {}",
                        i + 1,
                        u64::MAX
                    ),
                )
            })
        })
        .collect()
}

/// The heap (counted from 1) and the stones of one take written `h<i>-<k>`, in
/// either case; None where it is not written so.
pub fn split_take(part: &str) -> Option<(usize, u64)> {
    let (heap, take) = part.trim().strip_prefix(['h', 'H'])?.split_once('-')?;
    Some((heap.parse().ok()?, take.parse().ok()?))
}

/// The stones on the heaps, saturating at `u64::MAX`: the play left by the
/// formulas' measure in the games that take stones.
pub fn stones(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |sum, &h| sum.saturating_add(h))
}

pub fn write_heaps(heaps: &[u64]) -> String {
    heaps
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A move: take `take` stones from heap `heap` (0-based; written 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Take {
    pub heap: usize,
    pub take: u64,
}

impl Take {
    /// `h<i>-<k>`: take `k` from heap `i`, counting heaps from 1.
    pub fn write(self) -> String {
        format!("h{}-{}", self.heap + 1, self.take)
    }
}

/// The heaps sorted, empty ones dropped: the search key of games where heap
/// order does not matter and an empty heap is no heap.
pub fn sorted_key(heaps: &[u64]) -> Vec<u64> {
    let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    key
}

/// The [`crate::Game`] methods of a heap game whose one tier is every multiset
/// of heaps its `Multisets` field (named here) covers: heaps in any order share
/// a slot, empty heaps are left out, and search forgets the order too.
macro_rules! multiset_slots {
    ($slots:ident) => {
        fn index_size(&self, _tier: u32) -> u64 {
            self.$slots.size()
        }

        fn index(&self, heaps: &Vec<u64>) -> u64 {
            self.$slots.rank_heaps(heaps)
        }

        fn position_at(&self, _tier: u32, index: u64) -> Option<Vec<u64>> {
            (index < self.$slots.size()).then(|| self.$slots.unrank_heaps(index))
        }

        fn class_size(&self, _tier: u32, index: u64) -> u64 {
            self.$slots.class_size(index)
        }

        fn coverage(&self, heaps: &Vec<u64>) -> Result<(), String> {
            self.$slots.covers(heaps)
        }

        fn search_key(&self, heaps: &Vec<u64>) -> Vec<u64> {
            $crate::heaps::sorted_key(heaps)
        }
    };
}
pub(crate) use multiset_slots;
