//! The slots of a piece of a tier due at each ply, as the scans leave them for
//! the plies: each slot decided before the plies, visited at its distance; each
//! floor, counted down then; each win through a move out of the tier, made
//! then. A ply takes its own, once.
//!
//! They are a tier's largest holding after its states (KQRvKR: 51 million
//! slots due of 242 million), so they are kept small: in runs of one ply and
//! one kind, each slot as the gap from the one before it in a byte. At two
//! bytes a slot due they were 0.42 bytes a slot of KQRvKR, and of a six-piece
//! tier some gigabytes.

use crate::states::Slot;
use std::ops::Range;

/// What a slot is due for at a ply: a visit (of a win, or of a loss), a
/// count down, or a win.
pub(crate) const VISIT: u16 = 0;
pub(crate) const COUNT_DOWN: u16 = 1;
pub(crate) const WIN: u16 = 2;
pub(crate) const VISIT_LOSS: u16 = 3;

/// Slots a piece holds.
pub(crate) const PIECE: usize = 1 << 12;

/// A gap that does not fit a byte: the offset follows in two bytes.
const ESCAPE: u8 = 0;

/// The slots due in a piece of [`PIECE`] slots from its first.
pub(crate) struct Piece {
    /// The piece's first slot.
    start: Slot,
    /// Each run's slots, as offsets in the piece rising: each the gap from
    /// the one before (the first from one before the piece), a byte from 1
    /// to 255, or [`ESCAPE`] and the offset in two bytes.
    gaps: Box<[u8]>,
    /// The runs in order of ply, then of what they are due for: the ply, and
    /// what `<< 14 |` the end of the run's bytes in `gaps` (at most three
    /// bytes for each of the piece's slots: under 2^14).
    runs: Box<[(u16, u16)]>,
    /// How many of `runs` the plies have taken.
    taken: usize,
}

const _: () = assert!(3 * PIECE < 1 << 14);

impl Piece {
    /// The piece from `start` whose slots are due as `due` says: `(ply, what,
    /// offset)` each, in any order.
    pub(crate) fn new(start: Slot, mut due: Vec<(u16, u16, u16)>) -> Piece {
        due.sort_unstable();
        let mut gaps = Vec::with_capacity(due.len());
        let mut runs: Vec<(u16, u16)> = Vec::new();
        let mut last: Option<(u16, u16, u16)> = None;
        for &(ply, what, offset) in &due {
            let before = match last {
                Some((p, w, o)) if (p, w) == (ply, what) => i32::from(o),
                Some((p, w, _)) => {
                    runs.push((p, w << 14 | gaps.len() as u16));
                    -1
                }
                None => -1,
            };
            match i32::from(offset) - before {
                gap @ 1..=255 => gaps.push(gap as u8),
                _ => {
                    gaps.push(ESCAPE);
                    gaps.extend_from_slice(&offset.to_le_bytes());
                }
            }
            last = Some((ply, what, offset));
        }
        if let Some((ply, what, _)) = last {
            runs.push((ply, what << 14 | gaps.len() as u16));
        }
        Piece {
            start,
            gaps: gaps.into_boxed_slice(),
            runs: runs.into_boxed_slice(),
            taken: 0,
        }
    }

    /// The piece's slots in a tier of `size` slots: the last piece may end
    /// past the last slot as pieces are laid out.
    pub(crate) fn slots(&self, size: usize) -> Range<Slot> {
        self.start..(self.start + PIECE as Slot).min(size as Slot)
    }

    /// The last ply with a slot due, if any.
    pub(crate) fn last_ply(&self) -> Option<u16> {
        Some(self.runs.last()?.0)
    }

    /// Each run: its ply, what its slots are due for, and how many they are.
    pub(crate) fn runs(&self) -> impl Iterator<Item = (u16, u16, usize)> + '_ {
        (0..self.runs.len()).map(|n| {
            let (ply, what, offsets) = self.run(n);
            (ply, what, offsets.count())
        })
    }

    /// Every slot due, taken or not: its ply, what it is due for, and the slot.
    pub(crate) fn each_due(&self) -> impl Iterator<Item = (u16, u16, Slot)> + '_ {
        (0..self.runs.len()).flat_map(move |n| {
            let (ply, what, offsets) = self.run(n);
            offsets.map(move |at| (ply, what, self.start + Slot::from(at)))
        })
    }

    /// Run `n`: its ply, what its slots are due for, and their offsets.
    fn run(&self, n: usize) -> (u16, u16, Offsets<'_>) {
        let end = |n: usize| usize::from(self.runs[n].1 & ((1 << 14) - 1));
        let begin = n.checked_sub(1).map_or(0, end);
        let (ply, what_end) = self.runs[n];
        (ply, what_end >> 14, Offsets::new(&self.gaps[begin..end(n)]))
    }

    /// The slots due at `ply`, with what each is due for; taken once.
    pub(crate) fn take(&mut self, ply: u16) -> impl Iterator<Item = (Slot, u16)> + '_ {
        let first = self.taken;
        while self.runs.get(self.taken).is_some_and(|&(at, _)| at == ply) {
            self.taken += 1;
        }
        let piece = &*self;
        (first..piece.taken).flat_map(move |n| {
            let (_, what, offsets) = piece.run(n);
            offsets.map(move |at| (piece.start + Slot::from(at), what))
        })
    }
}

/// The offsets a run's bytes give, in order.
struct Offsets<'a> {
    bytes: &'a [u8],
    last: i32,
}

impl<'a> Offsets<'a> {
    fn new(bytes: &'a [u8]) -> Offsets<'a> {
        Offsets { bytes, last: -1 }
    }
}

impl Iterator for Offsets<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        let (&gap, rest) = self.bytes.split_first()?;
        let offset = match gap {
            ESCAPE => {
                let (two, rest) = rest.split_first_chunk::<2>()?;
                self.bytes = rest;
                u16::from_le_bytes(*two)
            }
            gap => {
                self.bytes = rest;
                (self.last + i32::from(gap)) as u16
            }
        };
        self.last = i32::from(offset);
        Some(offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots due at every gap a byte holds and past it, in runs of several
    /// plies and kinds given out of order, come back ply by ply as given.
    #[test]
    fn a_piece_gives_back_each_ply_its_slots() {
        let offsets = [0u16, 1, 2, 256, 257, 600, 855, 856, 4095];
        let mut due = Vec::new();
        for (n, &offset) in offsets.iter().enumerate() {
            due.push((7, WIN, offset));
            if n % 2 == 0 {
                due.push((3, COUNT_DOWN, offset));
            }
        }
        due.push((3, VISIT_LOSS, 300));
        due.push((40_000, VISIT, 5));
        due.reverse();
        let mut piece = Piece::new(4096 * 5, due.clone());
        assert_eq!(piece.last_ply(), Some(40_000));
        let runs: Vec<_> = piece.runs().collect();
        assert_eq!(
            runs,
            [
                (3, COUNT_DOWN, 5),
                (3, VISIT_LOSS, 1),
                (7, WIN, 9),
                (40_000, VISIT, 1)
            ]
        );
        let mut given: Vec<(u16, u16, u16)> = Vec::new();
        for ply in [0, 3, 7, 8, 40_000] {
            for (slot, what) in piece.take(ply) {
                given.push((ply, what, (slot - 4096 * 5) as u16));
            }
        }
        due.sort_unstable();
        assert_eq!(given, due);
        assert_eq!(piece.take(7).count(), 0, "a ply's slots are taken once");
        // Every slot due, taken or not, comes back with its ply and kind.
        let every = piece
            .each_due()
            .map(|(p, w, s)| (p, w, (s - 4096 * 5) as u16));
        assert_eq!(every.collect::<Vec<_>>(), due);
        assert!(
            piece.gaps.len() < 2 * due.len(),
            "{} bytes",
            piece.gaps.len()
        );
    }

    #[test]
    fn a_piece_with_nothing_due_gives_nothing() {
        let mut piece = Piece::new(0, Vec::new());
        assert_eq!(piece.last_ply(), None);
        assert_eq!(piece.runs().count(), 0);
        assert_eq!(piece.take(0).count(), 0);
    }
}
