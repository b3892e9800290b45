//! What a block stores where a reader never takes a slot's code from it: the
//! empty slots of a filled table, the slots left to the table beside, and,
//! within their bound, the slots whose value a search of the moves out of the
//! tier gives. Any code a reader accepts there is right, so the writer stores
//! whichever fill of them compresses the block smallest.
//!
//! Two fills are tried. A run (each such slot takes the code before it)
//! suits a table that holds most of its slots (chess's DTM: only its empty
//! slots and its captures are free). A copy of the place 64 back (in chess,
//! the piece before the last one on the next square, the last one on the
//! same) suits a table whose free slots are most of it (chess's DTZ, whose
//! draws are DTM's): runs there repeat whatever code came last, where the
//! place 64 back repeats the pattern around it. On KRBvKR's DTZ table (drafts
//! that filled their empty slots, as they did), the copy alone writes
//! 3,719,126 bytes against the runs' 4,519,695, and DTM's 18,473,601 against
//! 13,006,228: neither is best everywhere. `docs/file-format.md` has the
//! figures.

/// How a place of a block may be stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// Any code: a reader never takes this place's code from the block.
    Free,
    /// Its own code, or another its bound allows.
    Bounded,
    /// Its own code.
    Fixed,
}

/// How the free places of a block are filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    /// Each takes the code stored before it.
    Run,
    /// Each takes the code stored this many places back (the code before it
    /// where the block has fewer).
    Copy(usize),
}

/// The fills a writer tries on each block, the run first: of two that compress
/// to the same length, the first is kept, so a table with no free places is
/// written as before.
pub(crate) const FILLS: [Fill; 2] = [Fill::Run, Fill::Copy(64)];

/// [`fill_into`] into a new vector.
#[cfg(test)]
pub(crate) fn fill(
    codes: &[u16],
    places: &[Place],
    may: impl Fn(usize, u16) -> bool,
    how: Fill,
) -> Vec<u16> {
    let mut stored = Vec::new();
    fill_into(codes, places, may, how, &mut stored);
    stored
}

/// The codes stored for a block whose places hold `codes` and may be stored
/// as `places` say, filled `how`, written over `stored` (a writer reuses one
/// buffer from block to block); `may(i, code)` says whether bounded place
/// `i` may store `code` instead of its own (it is asked of no other place).
/// A block of nothing but free places holds 0.
pub(crate) fn fill_into(
    codes: &[u16],
    places: &[Place],
    may: impl Fn(usize, u16) -> bool,
    how: Fill,
    stored: &mut Vec<u16>,
) {
    let first = (0..codes.len())
        .find(|&i| places[i] != Place::Free)
        .map_or(crate::format::NO_POSITION, |i| codes[i]);
    stored.clear();
    stored.resize(codes.len(), 0);
    // Each fill in a loop of its own, the places before a copy reaches
    // back filled as runs.
    let back = match how {
        Fill::Run => codes.len(),
        Fill::Copy(back) => back.min(codes.len()),
    };
    let mut before = first;
    for i in 0..back {
        before = place_code(codes[i], places[i], before, before, |c| may(i, c));
        stored[i] = before;
    }
    for i in back..codes.len() {
        let wanted = stored[i - back];
        before = place_code(codes[i], places[i], wanted, before, |c| may(i, c));
        stored[i] = before;
    }
}

/// The code a place whose own code is `own` stores: the first of `wanted`
/// and the code `before` it that the place may hold (a free place any), else
/// its own. Free and fixed places, most of a block, take no branch.
#[inline(always)]
fn place_code(own: u16, place: Place, wanted: u16, before: u16, may: impl Fn(u16) -> bool) -> u16 {
    if place == Place::Bounded {
        return match () {
            _ if wanted == own || may(wanted) => wanted,
            _ if before != own && may(before) => before,
            _ => own,
        };
    }
    if place == Place::Free { wanted } else { own }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Place::{Bounded, Fixed, Free};

    #[test]
    fn a_run_repeats_the_code_before_where_a_place_may_hold_it() {
        let codes = [5, 0, 0, 7, 9, 0];
        // Place 3 may hold anything up to its own code; place 4 only its own.
        let places = [Fixed, Free, Free, Bounded, Fixed, Free];
        let may = |i: usize, code: u16| i == 3 && code <= 7;
        assert_eq!(fill(&codes, &places, may, Fill::Run), [5, 5, 5, 5, 9, 9]);
        // Free places before the first held one take its code.
        assert_eq!(
            fill(&[0, 0, 4], &[Free, Free, Fixed], |_, _| false, Fill::Run),
            [4, 4, 4]
        );
        assert_eq!(
            fill(&[0, 0], &[Free, Free], |_, _| false, Fill::Run),
            [0, 0]
        );
    }

    #[test]
    fn a_copy_repeats_the_place_back_then_the_code_before_then_its_own() {
        let codes = [1, 2, 3, 0, 0, 6, 8];
        // Place 5 may hold codes up to 6, place 6 only its own.
        let places = [Fixed, Fixed, Fixed, Free, Free, Bounded, Fixed];
        let may = |i: usize, code: u16| i == 5 && code <= 6;
        // Places 3 and 4 copy 3 back (1, 2); place 5 copies 3 back (3, which
        // it may hold); place 6 keeps its own.
        assert_eq!(
            fill(&codes, &places, may, Fill::Copy(3)),
            [1, 2, 3, 1, 2, 3, 8]
        );
        // Where the block has fewer places than the copy reaches back: runs.
        assert_eq!(
            fill(&codes, &places, may, Fill::Copy(64)),
            fill(&codes, &places, may, Fill::Run)
        );
        // A bounded place takes the code before it where the one wanted is
        // beyond its bound: place 3 (up to 3) wants 5 (2 back) and takes 2.
        let places = [Fixed, Fixed, Free, Bounded];
        let may = |i: usize, code: u16| i == 3 && code <= 3;
        assert_eq!(
            fill(&[2, 5, 0, 3], &places, may, Fill::Copy(2)),
            [2, 5, 2, 2]
        );
    }

    #[test]
    fn every_fill_keeps_each_held_place_within_its_bound() {
        let codes: Vec<u16> = (0..500).map(|i| (i * 7 % 13) as u16).collect();
        let places: Vec<Place> = (0..500)
            .map(|i| match i {
                _ if i % 3 == 0 => Free,
                _ if i % 5 == 0 => Bounded,
                _ => Fixed,
            })
            .collect();
        // Asked of a fixed place, it would let that place take any code.
        let may = |i: usize, code: u16| places[i] != Bounded || code < codes[i];
        for how in [Fill::Run, Fill::Copy(1), Fill::Copy(8), Fill::Copy(64)] {
            let stored = fill(&codes, &places, may, how);
            for (i, (&code, &own)) in stored.iter().zip(&codes).enumerate() {
                match places[i] {
                    Free => {}
                    Fixed => assert_eq!(code, own, "{how:?} place {i}"),
                    Bounded => assert!(code <= own, "{how:?} place {i}"),
                }
            }
            // The bounded places do take other codes.
            assert!((0..500).any(|i| places[i] == Bounded && stored[i] != codes[i]));
        }
    }
}
