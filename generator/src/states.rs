//! Every slot's state while a tier is solved, one byte a slot: no position, a
//! decided value, or how many of its moves are still awaited.
//!
//! A byte holds a value's own code (see [`Value::code`]) up to [`SHORT`]
//! plies; a win or loss longer than that is marked as such, and the solver
//! keeps the slots it decided at each longer distance in lists of their own
//! ([`crate::long::Long`]; few in five-piece tiers: 41,372 of KRBvKR's 242
//! million slots under DTM, none of KQRvKR's), which [`States::into_codes`]
//! reads back. A count of awaited moves above what a
//! byte holds (more than 96: none in a chess ending of five pieces) is kept
//! apart, by slot. A solve told who wins each slot it leaves undecided (DTZ,
//! by DTM: see [`crate::retrograde::Scans::told`]) keeps no count for a
//! slot that will be a win: one move to a loss decides it, and no count of
//! its moves to wins ever does. Its state says only that, so the solve
//! needs nothing else to tell its slots apart. The states are held in chunks, each its own
//! mapping, so that turning them into codes frees each chunk as it goes and
//! never holds the states and the codes whole side by side.

use crate::long::Long;
use games::Value;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering};
use tables::{Codes, CodesBuilder, Room};

/// The longest distance in plies a byte holds as its value's code.
pub(crate) const SHORT: u16 = 76;
const EMPTY: u8 = 0;
const LONG_WIN: u8 = 2 + 2 * SHORT as u8 + 2;
const LONG_LOSS: u8 = LONG_WIN + 1;
/// `COUNTING + n`: `n` moves, 1 to [`MAX_SMALL`], still awaited (the
/// long loss's byte is `COUNTING + 0`, never a count).
const COUNTING: u8 = LONG_LOSS;
/// Undecided, told it will be a win: no count.
const TO_WIN: u8 = u8::MAX - 1;
/// More moves awaited than a byte counts: the count is kept apart.
const MANY: u8 = u8::MAX;
const MAX_SMALL: u32 = (TO_WIN - 1 - COUNTING) as u32;

/// A slot of the tier being solved: 64 bits, for six-piece tiers of more
/// than 2^32 slots (KRNvKNN's 7.6 billion).
pub(crate) type Slot = u64;

/// Slots a chunk holds: 64 MiB, above the largest allocation glibc serves from
/// its heaps (32 MiB), so that a chunk is its own mapping, given back when freed.
const CHUNK_BITS: u32 = 26;
/// Slots a chunk holds.
pub(crate) const CHUNK: usize = 1 << CHUNK_BITS;

/// What a decided slot is for its mover, where it is a win or a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Win,
    Loss,
}

/// A slot's state before the plies, as the scans find it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Start {
    Empty,
    Decided(Value),
    /// Undecided, with this many moves awaited (at least one).
    Awaiting(u32),
    /// Undecided, and told it will be a win: decided by its first move found
    /// to lead to a loss.
    ToWin,
}

/// The byte of a decided value.
fn byte_of(value: Value) -> u8 {
    match value {
        Value::Win(n) | Value::Loss(n) if n <= SHORT => value.code() as u8,
        Value::Win(_) => LONG_WIN,
        Value::Loss(_) => LONG_LOSS,
        _ => Value::Draw.code() as u8,
    }
}

/// Sets a slot's state before the plies; returns the count to keep apart
/// where it does not fit in a byte.
pub(crate) fn set(state: &mut AtomicU8, start: Start) -> Option<u32> {
    let (byte, many) = match start {
        Start::Empty => (EMPTY, None),
        Start::Decided(value) => (byte_of(value), None),
        Start::Awaiting(n) if n <= MAX_SMALL => (COUNTING + n as u8, None),
        Start::Awaiting(n) => (MANY, Some(n)),
        Start::ToWin => (TO_WIN, None),
    };
    *state.get_mut() = byte;
    many
}

/// The bytes of a win and of a loss at one distance, made once a ply.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Distance {
    won: u8,
    lost: u8,
}

impl Distance {
    pub(crate) fn of(n: u16) -> Distance {
        Distance {
            won: byte_of(Value::Win(n)),
            lost: byte_of(Value::Loss(n)),
        }
    }
}

/// One chunk of states, as the scans fill it.
pub(crate) struct Chunk(Box<[AtomicU8]>);

impl Chunk {
    fn new(len: usize) -> Chunk {
        let mut states = Vec::with_capacity(len);
        crate::memory::huge_pages(states.spare_capacity_mut());
        states.extend((0..len).map(|_| AtomicU8::new(EMPTY)));
        Chunk(states.into_boxed_slice())
    }

    pub(crate) fn slots(&mut self) -> &mut [AtomicU8] {
        &mut self.0
    }
}

/// Every slot's state.
pub(crate) struct States {
    chunks: Vec<Chunk>,
    /// The slots awaiting more moves than a byte counts, by slot, with their counts.
    many: Vec<(Slot, AtomicU32)>,
    /// Whether the scans were told who wins each slot they left undecided:
    /// then a slot counting its moves will be a loss.
    told: bool,
}

impl States {
    /// The chunks of `size` slots, each empty, for the scans to fill.
    pub(crate) fn chunks(size: usize) -> Vec<Chunk> {
        (0..size.div_ceil(CHUNK))
            .map(|c| Chunk::new(CHUNK.min(size - c * CHUNK)))
            .collect()
    }

    /// The states of filled chunks, with the counts kept apart; `told`
    /// where the scans were told who wins each undecided slot.
    pub(crate) fn new(chunks: Vec<Chunk>, mut many: Vec<(Slot, u32)>, told: bool) -> States {
        many.sort_unstable();
        let many = many
            .into_iter()
            .map(|(slot, n)| (slot, AtomicU32::new(n)))
            .collect();
        States { chunks, many, told }
    }

    /// Whether the scans were told who wins each slot they left undecided.
    pub(crate) fn told(&self) -> bool {
        self.told
    }

    /// Where the scans were told, the outcome an undecided slot will have
    /// (none for a decided slot, and where they were not told).
    #[inline]
    pub(crate) fn will(&self, slot: Slot) -> Option<Outcome> {
        match self.state(slot).load(Ordering::Relaxed) {
            TO_WIN => Some(Outcome::Win),
            byte if byte > COUNTING && self.told => Some(Outcome::Loss),
            _ => None,
        }
    }

    #[inline]
    fn state(&self, slot: Slot) -> &AtomicU8 {
        let slot = slot as usize;
        &self.chunks[slot >> CHUNK_BITS].0[slot & (CHUNK - 1)]
    }

    /// Whether a decided slot is a win or a loss (none for a draw, an empty
    /// or an undecided slot).
    #[inline]
    pub(crate) fn outcome(&self, slot: Slot) -> Option<Outcome> {
        match self.state(slot).load(Ordering::Relaxed) {
            LONG_WIN => Some(Outcome::Win),
            LONG_LOSS => Some(Outcome::Loss),
            byte if !(2..=COUNTING).contains(&byte) => None,
            byte if byte % 2 == 0 => Some(Outcome::Win),
            _ => Some(Outcome::Loss),
        }
    }

    /// Whether a decided slot's state is `value`'s byte: its value, where a
    /// byte holds it ([`SHORT`] plies at most), or else a win or loss past
    /// that (the distance is in the plies' [`Long`] lists).
    #[inline]
    pub(crate) fn holds(&self, slot: Slot, value: Value) -> bool {
        self.state(slot).load(Ordering::Relaxed) == byte_of(value)
    }

    /// How many slots there are.
    pub(crate) fn len(&self) -> usize {
        self.chunks.iter().map(|chunk| chunk.0.len()).sum()
    }

    /// Whether a slot is still undecided: some of its moves are awaited.
    #[inline]
    pub(crate) fn undecided(&self, slot: Slot) -> bool {
        self.state(slot).load(Ordering::Relaxed) > COUNTING
    }

    /// Whether a slot is a win or a loss at `at`'s distance (at most
    /// [`SHORT`], which a state holds), if it is either.
    #[inline]
    pub(crate) fn at(&self, slot: Slot, at: Distance) -> Option<Outcome> {
        match self.state(slot).load(Ordering::Relaxed) {
            byte if byte == at.won => Some(Outcome::Win),
            byte if byte == at.lost => Some(Outcome::Loss),
            _ => None,
        }
    }

    /// Calls `visit` with every slot of `slots` (within one chunk; past the
    /// last slot, none) decided at `at`'s distance, in order: a distance of at
    /// most [`SHORT`], which a state holds.
    pub(crate) fn each_at(&self, slots: Range<Slot>, at: Distance, mut visit: impl FnMut(Slot)) {
        let chunk = &self.chunks[slots.start as usize >> CHUNK_BITS].0;
        let first = slots.start as usize & (CHUNK - 1);
        let last = (first + (slots.end - slots.start) as usize).min(chunk.len());
        for (i, state) in chunk[first..last].iter().enumerate() {
            let byte = state.load(Ordering::Relaxed);
            if byte == at.won || byte == at.lost {
                visit(slots.start + i as Slot);
            }
        }
    }

    /// Makes an undecided slot a win at `at`'s distance; whether it was undecided.
    #[inline]
    pub(crate) fn win(&self, slot: Slot, at: Distance) -> bool {
        let state = self.state(slot);
        let mut now = state.load(Ordering::Relaxed);
        while now > COUNTING {
            match state.compare_exchange_weak(now, at.won, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return true,
                Err(seen) => now = seen,
            }
        }
        false
    }

    /// Takes one awaited move from an undecided slot: a win for the opponent.
    /// After the last, the slot is a loss at `at`'s distance; whether it is so now.
    #[inline]
    pub(crate) fn count_down(&self, slot: Slot, at: Distance) -> bool {
        let state = self.state(slot);
        let lost = at.lost;
        let mut now = state.load(Ordering::Relaxed);
        loop {
            let next = match now {
                MANY => return self.count_down_many(slot, lost),
                // A slot that will be a win is never lost by its moves to wins.
                TO_WIN => return false,
                now if now <= COUNTING => return false,
                now if now == COUNTING + 1 => lost,
                now => now - 1,
            };
            match state.compare_exchange_weak(now, next, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return next == lost,
                Err(seen) => now = seen,
            }
        }
    }

    /// [`States::count_down`] of a slot whose count is kept apart.
    #[cold]
    fn count_down_many(&self, slot: Slot, lost: u8) -> bool {
        let at = self
            .many
            .binary_search_by_key(&slot, |&(s, _)| s)
            .expect("a slot marked as awaiting many moves has its count apart");
        // A slot counted down to none had every move a win for the opponent,
        // so no move made it a win meanwhile: the exchange cannot fail.
        self.many[at].1.fetch_sub(1, Ordering::Relaxed) == 1
            && self
                .state(slot)
                .compare_exchange(MANY, lost, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Every slot's value code, an undecided slot a draw; `long` lists the
    /// slots decided at each distance above [`SHORT`]. Each chunk of states
    /// is freed once read.
    pub(crate) fn into_codes(self, long: Long) -> Codes {
        // Zeroed memory comes from the system untouched: the codes' pages are
        // made as each chunk is read, while the chunks read are given back.
        let mut bytes = vec![0u8; self.len()];
        let draw = Value::Draw.code() as u8;
        for (out, chunk) in bytes.chunks_mut(CHUNK).zip(self.chunks) {
            out.par_iter_mut()
                .zip(chunk.0.par_iter())
                .for_each(|(code, state)| {
                    *code = match state.load(Ordering::Relaxed) {
                        // Marks only the outcome: the distance comes from `long`.
                        LONG_WIN => Value::Win(0).code() as u8,
                        LONG_LOSS => Value::Loss(0).code() as u8,
                        byte if byte > COUNTING => draw,
                        byte => byte,
                    }
                });
        }
        // The codes a byte holds are written in place; the longer ones (past
        // 126 plies) are kept apart, four bytes each, in room counted first.
        let win = Value::Win(0).code() as u8;
        let code = |byte: u8, n: u16| match byte == win {
            true => Value::Win(n).code(),
            false => Value::Loss(n).code(),
        };
        let mut room = Room::new(bytes.len() as u64);
        long.each(|n, slot| {
            if !Codes::byte_holds(code(bytes[slot as usize], n)) {
                room.add(slot);
            }
        });
        let mut codes = CodesBuilder::from_bytes_with(bytes, room);
        long.drain(|n, slot| codes.set(slot, code(codes.get(slot) as u8, n)));
        codes.build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_holds_every_state_apart() {
        assert_eq!(byte_of(Value::Loss(SHORT)), LONG_WIN - 1);
        assert!(COUNTING + MAX_SMALL as u8 + 1 == TO_WIN && TO_WIN + 1 == MANY && MAX_SMALL >= 90);
        let mut chunk = Chunk::new(8);
        let starts = [
            Start::Empty,
            Start::Decided(Value::Draw),
            Start::Decided(Value::Loss(0)),
            Start::Decided(Value::Win(SHORT + 1)),
            Start::Decided(Value::Loss(SHORT)),
            Start::Awaiting(2),
            Start::Awaiting(MAX_SMALL + 5),
            Start::Awaiting(1),
        ];
        let many: Vec<(Slot, u32)> = (0..8)
            .filter_map(|slot| Some((slot as Slot, set(&mut chunk.slots()[slot], starts[slot])?)))
            .collect();
        assert_eq!(many, [(6, MAX_SMALL + 5)]);
        let states = States::new(vec![chunk], many, false);
        assert!((0..8).all(|slot| states.will(slot).is_none()));
        let outcomes: Vec<_> = (0..8).map(|slot| states.outcome(slot)).collect();
        use Outcome::{Loss, Win};
        assert_eq!(
            outcomes,
            [
                None,
                None,
                Some(Loss),
                Some(Win),
                Some(Loss),
                None,
                None,
                None
            ]
        );
        // Two moves awaited: the second makes a loss; a decided slot stays.
        let at = Distance::of;
        assert!(!states.count_down(5, at(9)) && states.count_down(5, at(9)));
        assert!(!states.count_down(2, at(9)) && !states.win(2, at(9)));
        for _ in 0..MAX_SMALL + 4 {
            assert!(!states.count_down(6, at(300)));
        }
        assert!(states.count_down(6, at(300)));
        assert!(states.win(7, at(80)) && !states.count_down(7, at(3)));
        let mut long = Long::default();
        long.push(SHORT + 1, vec![3]);
        long.push(80, vec![7]);
        long.push(300, vec![6]);
        let codes = states.into_codes(long).to_vec();
        let values: Vec<_> = codes
            .iter()
            .map(|&c| Value::from_code(games::ValueKind::WinLossDraw, c))
            .collect();
        assert_eq!(
            values,
            [
                None,
                Some(Value::Draw),
                Some(Value::Loss(0)),
                Some(Value::Win(SHORT + 1)),
                Some(Value::Loss(SHORT)),
                Some(Value::Loss(9)),
                // Past what a code's byte holds: kept apart.
                Some(Value::Loss(300)),
                Some(Value::Win(80)),
            ]
        );
    }

    /// Told who wins, a slot that will be a win keeps no count: its moves to
    /// wins never decide it, a move to a loss does; one that will be a loss
    /// counts its moves down as ever.
    #[test]
    fn a_slot_told_it_will_win_waits_for_a_move_to_a_loss() {
        let mut chunk = Chunk::new(4);
        let starts = [
            Start::ToWin,
            Start::Awaiting(1),
            Start::Decided(Value::Win(3)),
            Start::ToWin,
        ];
        for (state, start) in chunk.slots().iter_mut().zip(starts) {
            assert_eq!(set(state, start), None);
        }
        let states = States::new(vec![chunk], Vec::new(), true);
        use Outcome::{Loss, Win};
        let will: Vec<_> = (0..4).map(|slot| states.will(slot)).collect();
        assert_eq!(will, [Some(Win), Some(Loss), None, Some(Win)]);
        assert!((0..4).all(|slot| (slot == 2) != states.undecided(slot)));
        let at = Distance::of;
        for _ in 0..300 {
            assert!(!states.count_down(0, at(5)));
        }
        assert!(states.undecided(0) && states.at(0, at(5)).is_none());
        assert!(states.win(0, at(6)) && states.at(0, at(6)) == Some(Win));
        assert!(states.count_down(1, at(6)) && states.at(1, at(6)) == Some(Loss));
        assert_eq!(states.will(0), None);
        let codes = states.into_codes(Long::default()).to_vec();
        assert_eq!(
            codes[..3],
            [
                Value::Win(6).code(),
                Value::Loss(6).code(),
                Value::Win(3).code()
            ]
        );
    }
}
