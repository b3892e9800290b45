//! Where each slot of a table lies in its blocks: its lane (a field the index
//! varies fastest, stored apart), then the fields of its entry in the order
//! the header gives, which may differ from the order the index spells them;
//! or wherever the game's own [`Spelling`] puts it.

use bincode::{Decode, Encode};
use std::ops::Range;
use std::sync::Arc;

/// Places a game gives its slots itself, in an order of its own rather than
/// the index's fields (chess: each side to move of a pawnless ending in a
/// file index whose leading piece is any of its pieces). A table stored so
/// names the spelling in its header ([`Spelled`]); a reader hands the table
/// the game's spelling of that name before looking up a slot.
pub trait Spelling: Send + Sync + std::fmt::Debug {
    /// How many places the table stores: more than its positions where a
    /// place may hold none, fewer than its slots where many slots do.
    fn places(&self) -> u64;
    /// The place of `slot`'s position; for a slot with no position, any
    /// place below [`Spelling::places`].
    fn place(&self, slot: u64) -> u64;
    /// The slot whose position `place` stores, if it stores one.
    fn slot(&self, place: u64) -> Option<u64>;

    /// The slots of the places `start..end` in order, as [`Spelling::slot`]
    /// gives them, written over `slots`: a writer, or a reader of a whole
    /// block, asks for a block's at once, which a spelling may walk faster.
    fn slots_of(&self, start: u64, end: u64, slots: &mut Vec<Option<u64>>) {
        slots.clear();
        slots.extend((start..end).map(|place| self.slot(place)));
    }
}

/// What makes the [`Spelling`] a table's header names from its name: the
/// game's (its `table_spelling`).
pub type Speller<'a> = &'a dyn Fn(&str) -> Result<Arc<dyn Spelling>, String>;

/// What a table's header says of a [`Spelling`]: the name the game gave it,
/// which the game reads back, and how many places it stores.
#[derive(Debug, Clone, PartialEq, Eq, Encode, Decode)]
pub struct Spelled {
    pub name: String,
    pub places: u64,
}

/// The fields a lane's entry is spelled in, each a digit of a mixed-radix
/// number (chess: the king pair, then one field per kind of piece), and the
/// order the blocks store them in. Which field varies fastest decides which
/// slots stand side by side in a block, and so what zstd finds to repeat:
/// the writer weighs the orders on a sample of the table and keeps the best.
#[derive(Debug, Clone, Default, PartialEq, Eq, Encode, Decode)]
pub struct Digits {
    /// The radix of each field, as the index spells them, the slowest first;
    /// empty where a game names no fields (the entry is stored as it is).
    pub radices: Vec<u64>,
    /// The fields in the order the blocks store them, the slowest first: a
    /// permutation of `0..radices.len()`. Empty in a header handed to the
    /// writer with radices: the writer weighs the orders and stores the best.
    pub order: Vec<u8>,
}

/// The most fields a table's entry may be spelled in.
pub const MAX_DIGITS: usize = 8;

impl Digits {
    /// The fields of `radices`, stored as the index spells them.
    pub fn spelled(radices: Vec<u64>) -> Digits {
        let order = (0..radices.len() as u8).collect();
        Digits { radices, order }
    }

    /// The fields of `radices`, their order left to the writer to weigh.
    pub fn weighed(radices: Vec<u64>) -> Digits {
        Digits {
            radices,
            order: Vec::new(),
        }
    }

    /// Whether the writer is to choose the order.
    pub fn to_weigh(&self) -> bool {
        self.order.is_empty() && !self.radices.is_empty()
    }

    /// The orders the writer weighs: the first field stays slowest (a game
    /// spells its coarsest field first: chess's king pair, or its pawns),
    /// the others in every order, as spelled first.
    pub fn orders(&self) -> Vec<Digits> {
        if self.radices.is_empty() {
            return vec![Digits::default()];
        }
        let rest: Vec<u8> = (1..self.radices.len() as u8).collect();
        let mut orders = Vec::new();
        permutations(&rest, &mut |p| {
            let order = std::iter::once(0).chain(p.iter().copied()).collect();
            orders.push(Digits {
                radices: self.radices.clone(),
                order,
            });
        });
        orders
    }

    /// Why these fields cannot spell a lane of `entries` entries, if they
    /// cannot: every radix above 0, their product the lane's length, the
    /// order each field once.
    pub fn misfit(&self, entries: u64, lanes_equal: bool) -> Option<String> {
        if self.radices.is_empty() && self.order.is_empty() {
            return None;
        }
        if self.radices.len() > MAX_DIGITS {
            return Some(format!(
                "{} fields (at most {MAX_DIGITS})",
                self.radices.len()
            ));
        }
        let product = self
            .radices
            .iter()
            .try_fold(1u64, |p, &r| p.checked_mul(r).filter(|_| r > 0));
        if product != Some(entries) || !lanes_equal {
            return Some(format!(
                "fields of radices {:?} do not spell lanes of {entries} entries",
                self.radices
            ));
        }
        let mut seen = [false; MAX_DIGITS];
        let once = self.order.len() == self.radices.len()
            && self.order.iter().all(|&f| {
                usize::from(f) < seen.len() && !std::mem::replace(&mut seen[f as usize], true)
            });
        (!once).then(|| {
            format!(
                "field order {:?} is not one of {} fields",
                self.order,
                self.radices.len()
            )
        })
    }
}

/// Calls `visit` with every permutation of `items`, in lexicographic order of
/// positions.
pub fn permutations(items: &[u8], visit: &mut impl FnMut(&[u8])) {
    fn walk(done: &mut Vec<u8>, left: &mut Vec<u8>, visit: &mut impl FnMut(&[u8])) {
        if left.is_empty() {
            visit(done);
            return;
        }
        for i in 0..left.len() {
            let item = left.remove(i);
            done.push(item);
            walk(done, left, visit);
            done.pop();
            left.insert(i, item);
        }
    }
    walk(&mut Vec::new(), &mut items.to_vec(), visit);
}

/// One field of a lane's entry: its radix, what one step of it adds to the
/// entry as spelled, and to the entry as stored.
#[derive(Debug, Clone, Copy, Default)]
struct Field {
    radix: u64,
    spelled: u64,
    stored: u64,
}

/// The place in the blocks of every slot of a table, and back: slot `i` is
/// entry `i / lanes` of lane `i % lanes`, the lanes one after another, each
/// one entry longer than the next or as long; within a lane, the entry's
/// fields in the order its [`Digits`] give. Or, where the game spells the
/// places, wherever its [`Spelling`] says.
#[derive(Debug, Clone)]
pub struct Places {
    /// The game's own places, where it spells them.
    spelled: Option<Arc<dyn Spelling>>,
    size: u64,
    lanes: u64,
    /// Entries of the shortest lane, and how many lanes hold one more.
    base: u64,
    longer: u64,
    /// The entry's fields in stored order, the fastest first; empty where
    /// the entry is stored as spelled.
    fields: Vec<Field>,
    /// The lane the table does not store, where it leaves one.
    left: Option<Left>,
}

/// A lane left out of the places: the lanes after it move up by its length.
#[derive(Debug, Clone, Copy)]
struct Left {
    lane: u64,
    /// Its first place, were it stored.
    start: u64,
    len: u64,
}

impl Places {
    /// The places of a table of `size` slots in `lanes` lanes (at least 1),
    /// each lane's entries spelled by `digits` (which must fit: see
    /// [`Digits::misfit`]; a reader checks a header's first).
    pub fn new(size: u64, lanes: u32, digits: &Digits) -> Places {
        let lanes = u64::from(lanes.max(1));
        let (base, longer) = (size / lanes, size % lanes);
        assert!(
            digits.misfit(base, longer == 0).is_none(),
            "{digits:?} for lanes of {base}"
        );
        let identity = digits
            .order
            .iter()
            .enumerate()
            .all(|(i, &f)| usize::from(f) == i);
        let fields = match identity {
            true => Vec::new(),
            false => {
                let spelled = |f: usize| digits.radices[f + 1..].iter().product::<u64>();
                let mut stored = 1;
                let mut fields = Vec::with_capacity(digits.order.len());
                for &f in digits.order.iter().rev() {
                    let f = usize::from(f);
                    fields.push(Field {
                        radix: digits.radices[f],
                        spelled: spelled(f),
                        stored,
                    });
                    stored *= digits.radices[f];
                }
                fields
            }
        };
        Places {
            spelled: None,
            size,
            lanes,
            base,
            longer,
            fields,
            left: None,
        }
    }

    /// The same places with lane `lane` left out, where one is: its slots
    /// have none, and the lanes after it take its places. Only where the
    /// index's fields spell the places (a game's spelling leaves a lane
    /// itself).
    pub fn leaving(mut self, lane: Option<u32>) -> Places {
        if let Some(lane) = lane.map(u64::from) {
            assert!(
                lane < self.lanes && self.spelled.is_none(),
                "lane {lane} of {} left out of places the fields spell",
                self.lanes
            );
            let start = self.lane_start(lane);
            self.left = Some(Left {
                lane,
                start,
                len: self.lane_start(lane + 1) - start,
            });
        }
        self
    }

    /// Whether slot `slot` has a place: it is not in the lane left out.
    #[inline]
    pub fn holds(&self, slot: u64) -> bool {
        self.left.is_none_or(|left| slot % self.lanes != left.lane)
    }

    /// The places of a table whose header's fields spell them (not a game's
    /// spelling), leaving the lane it leaves.
    pub fn of_fields(header: &crate::Header) -> Places {
        Places::new(header.index_size, header.lanes, &header.digits).leaving(header.lane_left)
    }

    /// The places of a table of `size` slots as `spelling` gives them.
    pub fn spelled(size: u64, spelling: Arc<dyn Spelling>) -> Places {
        Places {
            spelled: Some(spelling),
            ..Places::new(size, 1, &Digits::default())
        }
    }

    /// Where each lane's entries are stored as spelled and the lanes are of
    /// one length: the lanes and that length (place `l * length + e` holds
    /// slot `e * lanes + l`).
    pub fn in_lanes(&self) -> Option<(u64, u64)> {
        let plain = self.spelled.is_none() && self.fields.is_empty() && self.left.is_none();
        (plain && self.longer == 0).then_some((self.lanes, self.base))
    }

    /// How many places the blocks hold.
    pub fn len(&self) -> u64 {
        match &self.spelled {
            Some(spelling) => spelling.places(),
            None => self.size - self.left.map_or(0, |left| left.len),
        }
    }

    /// Whether the blocks hold no place.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The place in the blocks of slot `slot`, which must have one
    /// ([`Places::holds`]).
    #[inline]
    pub fn place(&self, slot: u64) -> u64 {
        if let Some(spelling) = &self.spelled {
            return spelling.place(slot);
        }
        let lane = slot % self.lanes;
        let entry = self.respelled(slot / self.lanes, |f| f.spelled, |f| f.stored);
        self.lane_start(lane) + entry - self.moved_up(lane)
    }

    /// How far the places of lane `lane` move up for the lane left out.
    #[inline]
    fn moved_up(&self, lane: u64) -> u64 {
        match self.left {
            Some(left) if lane > left.lane => left.len,
            _ => 0,
        }
    }

    /// The first place of lane `lane` (where the index's fields spell the
    /// places): the lanes before it, the first `longer` of them an entry longer.
    #[inline]
    fn lane_start(&self, lane: u64) -> u64 {
        lane * self.base + lane.min(self.longer)
    }

    /// The places each lane fills, in order; none where the game spells the
    /// places, which are then not divided into lanes.
    pub fn lane_places(&self) -> Option<Vec<Range<u64>>> {
        match self.spelled {
            Some(_) => None,
            None => Some(
                (0..self.lanes)
                    .map(|lane| {
                        let start = self.lane_start(lane) - self.moved_up(lane);
                        match self.holds(lane) {
                            true => {
                                start..start + self.lane_start(lane + 1) - self.lane_start(lane)
                            }
                            false => start..start,
                        }
                    })
                    .collect(),
            ),
        }
    }

    /// The slot at place `place` in the blocks, if one lies there (where
    /// the index's fields spell the places, every place holds one).
    #[inline]
    pub fn slot(&self, place: u64) -> Option<u64> {
        match &self.spelled {
            Some(spelling) => spelling.slot(place),
            None => Some(self.field_slot(place)),
        }
    }

    /// The slot at place `place` where the index's fields spell the places.
    #[inline]
    fn field_slot(&self, place: u64) -> u64 {
        let place = match self.left {
            Some(left) if place >= left.start => place + left.len,
            _ => place,
        };
        let long = self.longer * (self.base + 1);
        let (lane, entry) = if place < long {
            (place / (self.base + 1), place % (self.base + 1))
        } else {
            let rest = place - long;
            (self.longer + rest / self.base, rest % self.base)
        };
        self.respelled(entry, |f| f.stored, |f| f.spelled) * self.lanes + lane
    }

    /// `entry` with each field's digit read at the step `from` gives it and
    /// put at the step `to` gives it: as spelled to as stored, or back.
    #[inline]
    fn respelled(
        &self,
        entry: u64,
        from: impl Fn(&Field) -> u64,
        to: impl Fn(&Field) -> u64,
    ) -> u64 {
        if self.fields.is_empty() {
            return entry;
        }
        self.fields
            .iter()
            .map(|f| entry / from(f) % f.radix * to(f))
            .sum()
    }

    /// Ranges of places that hold every slot of `slots` (and, where the
    /// entries are not stored as spelled, others too): one range a lane where
    /// they are, each lane's entries of the range being one run; the whole
    /// table where they are not.
    pub fn holding(&self, slots: Range<u64>) -> Vec<Range<u64>> {
        let slots = slots.start.min(self.size)..slots.end.min(self.size);
        if !self.fields.is_empty() || self.spelled.is_some() {
            return std::iter::once(0..self.len()).collect();
        }
        (0..self.lanes)
            .filter(|&lane| self.holds(lane))
            .filter_map(|lane| {
                // The lane's entries from the first of its slots at or past the start.
                let entry = |slot: u64| (slot + self.lanes - 1 - lane) / self.lanes;
                let first = self.lane_start(lane) - self.moved_up(lane);
                let (from, to) = (entry(slots.start), entry(slots.end));
                (from < to).then(|| first + from..first + to)
            })
            .collect()
    }

    /// The slots of the places `start..end`, in order (none where a place
    /// the game spells holds no position).
    pub fn slots(&self, start: u64, end: u64) -> impl Iterator<Item = Option<u64>> + '_ {
        let mut spelled = Vec::new();
        if let Some(spelling) = &self.spelled {
            spelling.slots_of(start, end, &mut spelled);
        }
        let mut spelled = spelled.into_iter();
        let mut walk = self.spelled.is_none().then(|| self.walk(start, end));
        (start..end).map(move |_| match &mut walk {
            Some(walk) => walk.next(),
            None => spelled.next().flatten(),
        })
    }

    /// The slots of the places `start..end` where the index's fields spell
    /// them: a walk along the lanes, each lane's fields counted up as an
    /// odometer in stored order.
    fn walk(&self, start: u64, end: u64) -> impl Iterator<Item = u64> + '_ {
        let (lanes, size) = (self.lanes, self.size);
        let mut slot = if start < end {
            self.field_slot(start)
        } else {
            0
        };
        // Each field's digit at the slot, fastest stored first.
        let mut digits = [0u64; MAX_DIGITS];
        for (d, f) in digits.iter_mut().zip(&self.fields) {
            *d = slot / lanes / f.spelled % f.radix;
        }
        (start..end).map(move |place| {
            if place > start {
                slot = self.next_slot(slot, &mut digits, lanes, size);
            }
            slot
        })
    }

    /// The slot at the place after that of `slot`, whose fields' digits are
    /// `digits` (updated).
    #[inline]
    fn next_slot(&self, slot: u64, digits: &mut [u64; MAX_DIGITS], lanes: u64, size: u64) -> u64 {
        if self.fields.is_empty() {
            // The next entry of the lane, or the first of the next lane.
            return match slot + lanes < size {
                true => slot + lanes,
                false => self.next_lane(slot % lanes),
            };
        }
        let mut slot = slot;
        for (d, f) in digits.iter_mut().zip(&self.fields) {
            *d += 1;
            if *d < f.radix {
                return slot + f.spelled * lanes;
            }
            *d = 0;
            slot -= (f.radix - 1) * f.spelled * lanes;
        }
        // Past the lane's last entry (every digit back to 0): the next lane.
        self.next_lane(slot)
    }

    /// The first slot of the lane stored after lane `lane` (a lane's first
    /// slot is its number).
    #[inline]
    fn next_lane(&self, lane: u64) -> u64 {
        match self.holds(lane + 1) {
            true => lane + 1,
            false => lane + 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_inverse(places: &Places, size: u64, what: &str) {
        let mut seen: Vec<u64> = (0..size).map(|s| places.place(s)).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..size).collect::<Vec<_>>(), "{what}");
        for slot in 0..size {
            assert_eq!(places.slot(places.place(slot)), Some(slot), "{what}");
        }
        for start in 0..size {
            let walked: Vec<Option<u64>> = places.slots(start, size).collect();
            let spelled: Vec<Option<u64>> = (start..size).map(|p| places.slot(p)).collect();
            assert_eq!(walked, spelled, "{what} from {start}");
        }
    }

    /// The places `holding` gives hold every slot of the range, and only
    /// those where entries are stored as spelled.
    #[test]
    fn the_places_holding_a_range_of_slots_hold_it() {
        let reversed = Digits {
            radices: vec![3, 4],
            order: vec![1, 0],
        };
        for (lanes, digits, exact) in [
            (1, Digits::default(), true),
            (2, Digits::default(), true),
            (3, Digits::default(), true),
            (2, reversed, false),
        ] {
            let size = 24;
            let places = Places::new(size, lanes, &digits);
            for start in 0..=size {
                for end in start..=size + 2 {
                    let mut held: Vec<u64> = places
                        .holding(start..end)
                        .into_iter()
                        .flat_map(|r| places.slots(r.start, r.end).flatten().collect::<Vec<_>>())
                        .collect();
                    held.sort_unstable();
                    let wanted: Vec<u64> = (start..end.min(size)).collect();
                    match exact {
                        true => assert_eq!(held, wanted, "{lanes} lanes, {start}..{end}"),
                        false => assert!(wanted.iter().all(|s| held.contains(s))),
                    }
                }
            }
        }
    }

    #[test]
    fn places_and_slots_are_inverse_and_walk_in_order() {
        for size in 0..40u64 {
            for lanes in 1..5u32 {
                let l = Places::new(size, lanes, &Digits::default());
                check_inverse(&l, size, &format!("{size} {lanes}"));
            }
        }
        // Two lanes: the even slots first, then the odd ones.
        let two = Places::new(5, 2, &Digits::default());
        assert_eq!(
            (0..5).map(|p| two.slot(p).unwrap()).collect::<Vec<_>>(),
            [0, 2, 4, 1, 3]
        );
    }

    /// With a lane left out, the other lanes' slots fill the places from 0
    /// with no gap, each place's slot is the slot placed there, and the walk
    /// steps over the lane left, in every order of the fields.
    #[test]
    fn places_leaving_a_lane_hold_the_other_lanes_alone() {
        let mut cases = Vec::new();
        for size in 0..30u64 {
            for lanes in 2..5u32 {
                cases.push((size, lanes, Digits::default()));
            }
        }
        for order in Digits::spelled(vec![3, 4, 2]).orders() {
            for lanes in 2..4u32 {
                cases.push((24 * u64::from(lanes), lanes, order.clone()));
            }
        }
        for (size, lanes, digits) in cases {
            for lane in 0..lanes {
                let what = format!("{size} slots, {lanes} lanes, {digits:?}, lane {lane} left");
                let places = Places::new(size, lanes, &digits).leaving(Some(lane));
                let held: Vec<u64> = (0..size).filter(|&s| places.holds(s)).collect();
                assert!(held.iter().all(|s| s % u64::from(lanes) != u64::from(lane)));
                assert_eq!(held.len() as u64, places.len(), "{what}");
                let mut seen: Vec<u64> = held.iter().map(|&s| places.place(s)).collect();
                seen.sort_unstable();
                assert_eq!(seen, (0..places.len()).collect::<Vec<_>>(), "{what}");
                for &slot in &held {
                    assert_eq!(places.slot(places.place(slot)), Some(slot), "{what}");
                }
                for start in 0..places.len() {
                    let walked: Vec<Option<u64>> = places.slots(start, places.len()).collect();
                    let one: Vec<Option<u64>> =
                        (start..places.len()).map(|p| places.slot(p)).collect();
                    assert_eq!(walked, one, "{what} from {start}");
                }
                let lane_places = places.lane_places().unwrap();
                assert!(lane_places[lane as usize].is_empty(), "{what}");
                let covered: u64 = lane_places.iter().map(|r| r.end - r.start).sum();
                assert_eq!(covered, places.len(), "{what}");
                if digits == Digits::default() {
                    for start in 0..=size {
                        let mut got: Vec<u64> = places
                            .holding(start..size)
                            .into_iter()
                            .flat_map(|r| {
                                places.slots(r.start, r.end).flatten().collect::<Vec<_>>()
                            })
                            .collect();
                        got.sort_unstable();
                        let wanted: Vec<u64> =
                            held.iter().copied().filter(|&s| s >= start).collect();
                        assert_eq!(got, wanted, "{what}, holding {start}..");
                    }
                }
            }
        }
    }

    #[test]
    fn fields_in_every_order_are_inverse_and_walk_in_order() {
        let radices = vec![3, 4, 2, 5];
        for order in Digits::spelled(radices.clone()).orders() {
            for lanes in 1..3u32 {
                let size = 120 * u64::from(lanes);
                let places = Places::new(size, lanes, &order);
                check_inverse(&places, size, &format!("{order:?} {lanes}"));
            }
        }
        // Spelled (a, b) with radices 2 and 3, stored b slowest: the entry
        // a * 3 + b lies at b * 2 + a.
        let swapped = Digits {
            radices: vec![2, 3],
            order: vec![1, 0],
        };
        let places = Places::new(6, 1, &swapped);
        assert_eq!(
            (0..6).map(|p| places.slot(p).unwrap()).collect::<Vec<_>>(),
            [0, 3, 1, 4, 2, 5]
        );
    }

    #[test]
    fn the_orders_weighed_keep_the_first_field_slowest() {
        let orders: Vec<Vec<u8>> = Digits::weighed(vec![462, 64, 64, 64])
            .orders()
            .into_iter()
            .map(|d| d.order)
            .collect();
        assert_eq!(orders.len(), 6);
        assert_eq!(orders[0], [0, 1, 2, 3]);
        assert!(orders.iter().all(|o| o[0] == 0));
        assert_eq!(Digits::default().orders(), [Digits::default()]);
    }

    #[test]
    fn fields_that_do_not_spell_the_lanes_are_named() {
        let fit = Digits::spelled(vec![4, 5]);
        assert_eq!(fit.misfit(20, true), None);
        assert!(fit.misfit(21, true).is_some());
        assert!(fit.misfit(20, false).is_some());
        let twice = Digits {
            radices: vec![4, 5],
            order: vec![1, 1],
        };
        assert!(twice.misfit(20, true).unwrap().contains("order"));
        let zero = Digits::spelled(vec![0, 5]);
        assert!(zero.misfit(0, true).is_some());
        let overflow = Digits::spelled(vec![u64::MAX, 3]);
        assert!(overflow.misfit(3, true).is_some());
        assert_eq!(Digits::default().misfit(17, false), None);
    }
}
