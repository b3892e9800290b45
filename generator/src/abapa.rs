//! Abapa tiers by retrograde analysis over every score threshold in one sweep.
//!
//! A tier holds the positions with `n` seeds; a capture (or the thesis end) leads
//! into a smaller tier, solved before. For a threshold `t >= 1`, call a position
//! *high* when the mover can force a net result of at least `t`, and *low* when the
//! mover gets at most `-t` whatever it does. Inside the tier this is an ordinary
//! win/loss retrograde: a position is high when a move out of the tier is worth at
//! least `t` or some quiet move leads to a low position; low when every move out of
//! the tier is worth at most `-t` and every quiet move leads to a high position.
//! Endless play (worth 0) is neither.
//!
//! The thresholds run from `n` down to 1, and the sets only grow as `t` falls: a
//! position high for `t + 1` is high for `t`. So one counter per position (quiet
//! moves whose result is not yet known to be high) serves every threshold; a
//! position first found high at threshold `t` is worth exactly `t`, first found low
//! exactly `-t`, and never found is worth 0. Each position is decided once and
//! looks at its predecessors (by un-sowing) once. Within a threshold the high and
//! low sets are fixed points, so the values do not depend on the thread count.

use crate::output::{Summary, WriteOptions, write_tier_with};
use crate::progress::Progress;
use games::abapa::{self, Abapa, Pits, Rules};
use games::spec::Options;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// Not decided yet; also "no move out of the tier" for the best such move.
const NONE: i8 = i8::MIN;

/// Positions scanned per parallel chunk (consecutive ranks, walked in order).
const CHUNK: usize = 1 << 14;

/// Positions of a frontier un-moved together: their parents are all found
/// before any state is read, so that the reads' cache misses overlap.
const BATCH: usize = 64;

/// The dedicated solver of Abapa (see [`crate::dedicated`]).
pub fn generate_tables(
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    generate(&abapa::SPEC.game(options)?, write, progress)
}

/// Solves and writes every tier from 0 seeds up to the game's `max_seeds`.
pub fn generate(
    game: &Abapa,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let mut summaries = Vec::new();
    solve_abapa(game, progress, |n, values, took| {
        let code = |slot: u64| games::Value::Score(i64::from(values[slot as usize])).code();
        summaries.push(write_tier_with(game, n, &code, took, options)?);
        Ok(())
    })?;
    Ok(summaries)
}

/// Solves every tier from 0 seeds up to the game's `max_seeds`; calls `done` with
/// each tier's values (mover's net score per rank) and solve time.
pub fn solve_abapa(
    game: &Abapa,
    progress: &Progress,
    mut done: impl FnMut(u32, &[i8], Duration) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut solved: Vec<Vec<i8>> = Vec::new();
    for n in 0..=game.max_seeds {
        let started = Instant::now();
        let values = solve_share(game.rules, n, &solved, &Alone, progress);
        done(n, &values, started.elapsed())?;
        solved.push(values);
    }
    Ok(())
}

/// What the sweep keeps of a position while its tier is solved, one byte: below
/// [`DECIDED`], its quiet moves whose result is not yet known to be high for the
/// opponent; from [`DECIDED`] up, the value it was decided at. A visit to a
/// predecessor reads and changes this byte alone (a tier of 16 seeds holds 13
/// MB of them), where it read three bytes a position; the best move out of the
/// tier, read once a position's quiet moves are all known, is kept apart.
type State = AtomicU8;

/// The states from here up are decided.
const DECIDED: u8 = 0x80;

/// The state of a position decided at `value` (a net score of at most 48 seeds).
#[inline]
fn decided(value: i8) -> u8 {
    DECIDED | (value + 64) as u8
}

/// The value a state holds: its decided value, or 0 (endless play) for a
/// position no threshold decided.
fn value_of(state: u8) -> i8 {
    if state < DECIDED {
        0
    } else {
        (state & !DECIDED) as i8 - 64
    }
}

/// How the sweep changes a state: by compare-exchange where threads share the
/// states, by a plain read and write where one thread has them to itself (an
/// exchange holds the thread up as long as a read from memory, and one thread
/// a rule set is how both rule sets are solved side by side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Shared,
    Alone,
}

impl Access {
    /// The access the current rayon pool needs.
    fn current() -> Access {
        if rayon::current_num_threads() == 1 {
            Access::Alone
        } else {
            Access::Shared
        }
    }

    /// `change` applied to `state` where it gives a new value: the old value,
    /// or `Err` with the value left as it was.
    #[inline]
    fn update(self, state: &State, change: impl Fn(u8) -> Option<u8>) -> Result<u8, u8> {
        match self {
            Access::Shared => state.fetch_update(Ordering::Relaxed, Ordering::Relaxed, change),
            Access::Alone => {
                let old = state.load(Ordering::Relaxed);
                let new = change(old).ok_or(old)?;
                state.store(new, Ordering::Relaxed);
                Ok(old)
            }
        }
    }

    /// Decides a position at `value` unless it is decided already; whether it was.
    #[inline]
    fn decide(self, state: &State, value: i8) -> bool {
        self.update(state, |s| (s < DECIDED).then_some(decided(value)))
            .is_ok()
    }

    /// One more quiet move of an undecided position leads to a high position:
    /// whether that was the last one awaited.
    #[inline]
    fn count_down(self, state: &State) -> bool {
        self.update(state, |s| (s < DECIDED).then(|| s - 1)) == Ok(1)
    }
}

/// How a tier's positions are shared out among processes: which ones this
/// process owns, and how an update for a position owned elsewhere reaches its
/// owner. One process alone ([`Alone`]) owns them all and sends nothing.
pub trait Share {
    /// The processes, this one included.
    fn processes(&self) -> usize;
    /// This process's number, from 0.
    fn me(&self) -> usize;
    /// Hands each process `p` the updates in `outgoing[p]`; returns those
    /// handed to this one. Every process calls it the same number of times.
    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64>;
    /// Whether `mine` holds on some process.
    fn any(&self, mine: bool) -> bool;

    /// Where each process's share of `size` positions starts, and the end.
    fn bounds(&self, size: u64) -> Vec<u64> {
        let p = self.processes() as u128;
        (0..=p).map(|r| (u128::from(size) * r / p) as u64).collect()
    }
}

/// One process owning every position.
#[derive(Debug)]
pub struct Alone;

impl Share for Alone {
    fn processes(&self) -> usize {
        1
    }
    fn me(&self) -> usize {
        0
    }
    fn exchange(&self, _outgoing: Vec<Vec<u64>>) -> Vec<u64> {
        Vec::new()
    }
    fn any(&self, mine: bool) -> bool {
        mine
    }
}

/// Every position of `range` in the tier with its moves counted and valued: the
/// states (quiet moves counted) and the best move out of the tier (or the end
/// score), `NONE` without one.
fn scan_range(
    rules: Rules,
    n: u32,
    range: Range<u64>,
    solved: &[Vec<i8>],
) -> (Vec<State>, Vec<i8>) {
    let (first, size) = (range.start as usize, range.end as usize);
    let states: Vec<State> = (first..size).map(|_| State::new(0)).collect();
    let mut best = vec![NONE; size - first];
    best.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, part)| {
            let from = first + chunk * CHUNK;
            let mut pits = abapa::unrank(n, from as u64);
            for (offset, best) in part.iter_mut().enumerate() {
                let (quiet, exit) = scan_position(rules, n, &pits, solved);
                states[from - first + offset].store(quiet, Ordering::Relaxed);
                *best = exit;
                abapa::next_position(&mut pits);
            }
        });
    (states, best)
}

/// (quiet moves, best move out of the tier or the end score) of one position.
fn scan_position(rules: Rules, n: u32, pits: &Pits, solved: &[Vec<i8>]) -> (u8, i8) {
    if let Some(end) = abapa::end_score(pits) {
        return (0, end);
    }
    let mut quiet = 0;
    let mut best = NONE;
    for pit in abapa::legal_pits(pits) {
        if rules.surely_quiet(pits, pit, n) {
            quiet += 1;
            continue;
        }
        let sowing = rules.sow(pits, pit);
        // Seeds left on the board: none after the thesis end, else all but the captured.
        let left = match sowing.shared {
            Some(_) => 0,
            None => n - sowing.gain as u32,
        };
        if left == n {
            quiet += 1;
        } else {
            let after = solved[left as usize][abapa::rank(&sowing.after) as usize];
            best = best.max(sowing.gain - after);
        }
    }
    (quiet, best)
}

/// A hash of the values of the tier of `n` seeds (`values` by rank) that does not
/// depend on how positions are numbered, as `scripts/abapa-reference.c` prints
/// it: the sum over positions of `mix(mix(pits) ^ value)`, the pits packed 5
/// bits each from pit 0 up. Tiers' hashes add up to the hash of their union.
pub fn values_hash(n: u32, values: &[i8]) -> u64 {
    fn mix(mut x: u64) -> u64 {
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
    let mut pits = abapa::unrank(n, 0);
    let mut hash = 0u64;
    for &value in values {
        let packed = (pits.iter().rev()).fold(0u64, |p, &seeds| p << 5 | u64::from(seeds));
        hash = hash.wrapping_add(mix(mix(packed) ^ u64::from(value as u8)));
        abapa::next_position(&mut pits);
    }
    hash
}

/// An update sent to a position's owner: one of its quiet moves leads to a
/// position just decided, low (`low`, so the owner's position is high) or high.
fn update(index: u64, low: bool) -> u64 {
    index << 1 | u64::from(low)
}

/// Solves the tier of `n` seeds, every process its share of it as `share` has
/// them; returns the values of this process's share. Every process decides the
/// same positions at the same threshold whatever the shares, so the values are
/// the same for any number of processes and threads.
pub fn solve_share(
    rules: Rules,
    n: u32,
    solved: &[Vec<i8>],
    share: &impl Share,
    progress: &Progress,
) -> Vec<i8> {
    let size = abapa::tier_size(n);
    let bounds = share.bounds(size);
    let own = bounds[share.me()]..bounds[share.me() + 1];
    assert!(
        own.end - own.start <= 1 << 32,
        "a share of at most 2^32 positions (use more processes)"
    );
    let (states, best) = scan_range(rules, n, own.clone(), solved);
    let at = |index: u64| (index - own.start) as usize;
    let owner = |index: u64| bounds.partition_point(|&b| b <= index) - 1;
    // For each threshold, the positions its moves out of the tier (or its end)
    // may settle there: high when the best such move is worth t, low when it is
    // worth -t and every quiet move is known to lead to a high position. Kept
    // as offsets into this process's share, which is below 2^32 positions.
    let settled_outside: Vec<(i8, u32)> = (states.par_iter().zip(&best))
        .enumerate()
        .filter_map(|(i, (state, &best))| {
            let quiet = state.load(Ordering::Relaxed);
            let t = match best {
                NONE => return None,
                best if best > 0 => best,
                best if best < 0 && quiet == 0 => -best,
                _ => return None,
            };
            Some((t, i as u32))
        })
        .collect();
    let mut settled = vec![Vec::new(); n as usize + 1];
    for (t, offset) in settled_outside {
        settled[t as usize].push(offset);
    }
    let waiting: Vec<Mutex<Vec<u32>>> = settled.into_iter().map(Mutex::new).collect();
    let wait = |t: i8, offset: usize| {
        waiting[t as usize]
            .lock()
            .expect("no panic while held")
            .push(offset as u32)
    };

    let processes = share.processes();
    let access = Access::current();
    progress.start(&format!("abapa {n} seeds"), u64::from(n));
    for t in (1..=n as i8).rev() {
        // A quiet move of the owned position `index` leads to a position just
        // decided at this threshold, low or high: whether that decides it, and how.
        let apply = |index: u64, low: bool| -> Option<bool> {
            let state = &states[at(index)];
            if low {
                // A move to a low position: the parent is high.
                return access.decide(state, t).then_some(false);
            }
            if !access.count_down(state) {
                return None;
            }
            // Every quiet move now leads to a high position.
            let best = best[at(index)];
            if best <= -t {
                return access.decide(state, -t).then_some(true);
            }
            if best < 0 {
                wait(-best, at(index));
            }
            None
        };
        let candidates =
            std::mem::take(&mut *waiting[t as usize].lock().expect("no panic while held"));
        let mut frontier: Vec<(Pits, bool)> = candidates
            .into_par_iter()
            .filter_map(|offset| {
                let low = best[offset as usize] < 0;
                let value = if low { -t } else { t };
                let index = own.start + u64::from(offset);
                access
                    .decide(&states[offset as usize], value)
                    .then(|| (abapa::unrank(n, index), low))
            })
            .collect();
        // Rounds: every process un-moves its frontier, updates the parents it
        // owns and sends the others theirs; the threshold is done when no
        // process has anything left.
        while share.any(!frontier.is_empty()) {
            let empty = || (Vec::new(), vec![Vec::new(); processes], Vec::new());
            let parts: Vec<_> = frontier
                .par_chunks(BATCH)
                .fold(empty, |(mut decided, mut outgoing, mut parents), batch| {
                    // The batch's parents first, then their states.
                    parents.clear();
                    for &(pits, low) in batch {
                        abapa::unmoves_with(rules, &pits, n, |parent| {
                            let index = abapa::rank(parent);
                            if own.contains(&index) {
                                parents.push((index, *parent, low));
                            } else {
                                outgoing[owner(index)].push(update(index, low));
                            }
                        });
                    }
                    for &(index, parent, low) in &parents {
                        // A plain read spares decided parents the exchange.
                        if states[at(index)].load(Ordering::Relaxed) < DECIDED
                            && let Some(low) = apply(index, low)
                        {
                            decided.push((parent, low));
                        }
                    }
                    (decided, outgoing, parents)
                })
                .map(|(decided, outgoing, _)| (decided, outgoing))
                .collect();
            let (decided, outgoing): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
            let mut next = decided.concat();
            let outgoing = (0..processes)
                .map(|p| outgoing.iter().flat_map(|o| &o[p]).copied().collect())
                .collect();
            let incoming = share.exchange(outgoing);
            next.par_extend(incoming.into_par_iter().filter_map(|u| {
                let index = u >> 1;
                apply(index, u & 1 == 1).map(|low| (abapa::unrank(n, index), low))
            }));
            frontier = next;
        }
        progress.advance(1);
    }
    progress.finish();
    states
        .into_par_iter()
        .map(|state| value_of(state.into_inner()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Game;

    fn solve(rules: Rules, max_seeds: u32) -> Vec<Vec<i8>> {
        let mut all = Vec::new();
        solve_abapa(
            &Abapa::new(rules, max_seeds),
            &Progress::hidden(),
            |_, values, _| {
                all.push(values.to_vec());
                Ok(())
            },
        )
        .unwrap();
        all
    }

    fn value(tiers: &[Vec<i8>], text: &str) -> i8 {
        let pits = Abapa::new(Rules::Default, 48).parse_position(text).unwrap();
        tiers[abapa::seeds(&pits) as usize][abapa::rank(&pits) as usize]
    }

    #[test]
    fn a_state_counts_down_then_holds_its_value() {
        for value in -48..=48 {
            assert_eq!(value_of(decided(value)), value);
        }
        for access in [Access::Shared, Access::Alone] {
            let state = State::new(2);
            assert!(!access.count_down(&state), "{access:?}");
            assert!(
                access.count_down(&state),
                "{access:?}: the last move awaited"
            );
            assert_eq!(
                value_of(state.load(Ordering::Relaxed)),
                0,
                "undecided: endless"
            );
            assert!(access.decide(&state, -3));
            assert!(!access.decide(&state, 5), "{access:?}: decided once");
            assert!(
                !access.count_down(&state),
                "{access:?}: a decided state counts no more"
            );
            assert_eq!(value_of(state.into_inner()), -3);
        }
    }

    #[test]
    fn hand_checked_positions() {
        let default = solve(Rules::Default, 2);
        // The grand slam takes nothing; the opponent cannot feed and keeps both.
        assert_eq!(value(&default, "0 0 0 0 0 1 / 1 0 0 0 0 0"), -2);
        // The seeds chase each other forever.
        assert_eq!(value(&default, "1 0 0 0 0 0 / 1 0 0 0 0 0"), 0);
        assert_eq!(value(&default, "0 0 0 0 1 1 / 0 0 0 0 0 0"), -2);
        let thesis = solve(Rules::Thesis, 2);
        assert_eq!(value(&thesis, "0 0 0 0 1 1 / 0 0 0 0 0 0"), 0);
    }
}

#[cfg(test)]
mod against_value_iteration {
    use super::*;

    /// Every position with up to 9 seeds, both rule sets: the sweep, on two
    /// threads (states exchanged) and on one (states read and written), and
    /// value iteration (no un-moves, no thresholds) agree.
    #[test]
    fn sweep_equals_value_iteration() {
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let two_threads = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for rules in [Rules::Default, Rules::Thesis] {
            let iterated = abapa::value_iteration(rules, 9);
            for (threads, pool) in [(1, &one_thread), (2, &two_threads)] {
                let mut sweep = Vec::new();
                pool.install(|| {
                    solve_abapa(&Abapa::new(rules, 9), &Progress::hidden(), |_, v, _| {
                        sweep.push(v.to_vec());
                        Ok(())
                    })
                })
                .unwrap();
                for (n, (a, b)) in sweep.iter().zip(&iterated).enumerate() {
                    let differ = a.iter().zip(b).filter(|(x, y)| x != y).count();
                    assert_eq!(differ, 0, "{rules:?}, {threads} threads, {n} seeds");
                }
            }
        }
    }
}
