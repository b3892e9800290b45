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
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// Not decided yet; also "no move out of the tier" for the best such move.
const NONE: i8 = i8::MIN;

/// Positions scanned per parallel chunk (consecutive ranks, walked in order).
const CHUNK: usize = 1 << 14;

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

/// Everything the sweep keeps about one position, together so that a visit to a
/// predecessor touches one place in memory.
struct Slot {
    /// ±t once decided at threshold t; NONE before.
    value: AtomicI8,
    /// Quiet moves whose result is not yet known to be high for the opponent.
    counter: AtomicU8,
    /// The best result of a move out of the tier (or the end score), or NONE.
    best: i8,
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

/// Every position of `range` in the tier with its moves counted and valued.
fn scan_range(rules: Rules, n: u32, range: Range<u64>, solved: &[Vec<i8>]) -> Vec<Slot> {
    let (first, size) = (range.start as usize, range.end as usize);
    let chunks: Vec<Vec<Slot>> = (first / CHUNK..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let from = first.max(chunk * CHUNK);
            let mut pits = abapa::unrank(n, from as u64);
            (from..size.min((chunk + 1) * CHUNK))
                .map(|_| {
                    let (quiet, best) = scan_position(rules, n, &pits, solved);
                    abapa::next_position(&mut pits);
                    Slot {
                        value: AtomicI8::new(NONE),
                        counter: AtomicU8::new(quiet),
                        best,
                    }
                })
                .collect()
        })
        .collect();
    chunks.into_iter().flatten().collect()
}

/// (quiet moves, best move out of the tier or the end score) of one position.
fn scan_position(rules: Rules, n: u32, pits: &Pits, solved: &[Vec<i8>]) -> (u8, i8) {
    if let Some(end) = abapa::end_score(pits) {
        return (0, end);
    }
    let mut quiet = 0;
    let mut best = NONE;
    for pit in abapa::legal_pits(pits) {
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
    let slots = scan_range(rules, n, own.clone(), solved);
    let slot = |index: u64| &slots[(index - own.start) as usize];
    let owner = |index: u64| bounds.partition_point(|&b| b <= index) - 1;
    let decide = |slot: &Slot, value: i8| {
        slot.value
            .compare_exchange(NONE, value, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    };
    // For each threshold, the positions its moves out of the tier (or its end)
    // may settle there: high when the best such move is worth t, low when it is
    // worth -t and every quiet move is known to lead to a high position. Kept
    // as offsets into this process's share, which is below 2^32 positions.
    let waiting: Vec<Mutex<Vec<u32>>> = (0..=n).map(|_| Mutex::default()).collect();
    let wait = |t: i8, index: u64| {
        waiting[t as usize]
            .lock()
            .expect("no panic while held")
            .push((index - own.start) as u32)
    };
    let settled_outside: Vec<(i8, u32)> = slots
        .par_iter()
        .enumerate()
        .filter_map(|(i, slot)| {
            let quiet = slot.counter.load(Ordering::Relaxed);
            let t = match slot.best {
                NONE => return None,
                best if best > 0 => best,
                best if best < 0 && quiet == 0 => -best,
                _ => return None,
            };
            Some((t, i as u32))
        })
        .collect();
    for (t, offset) in settled_outside {
        wait(t, own.start + u64::from(offset));
    }

    let processes = share.processes();
    progress.start(&format!("abapa {n} seeds"), u64::from(n));
    for t in (1..=n as i8).rev() {
        // A quiet move of the owned position `index` leads to a position just
        // decided at this threshold, low or high: whether that decides it, and how.
        let apply = |index: u64, low: bool| -> Option<bool> {
            let slot = slot(index);
            if low {
                // A move to a low position: the parent is high.
                return decide(slot, t).then_some(false);
            }
            if slot.counter.fetch_sub(1, Ordering::Relaxed) != 1 {
                return None;
            }
            // Every quiet move now leads to a high position.
            if slot.best <= -t {
                return decide(slot, -t).then_some(true);
            }
            if slot.best < 0 {
                wait(-slot.best, index);
            }
            None
        };
        let candidates =
            std::mem::take(&mut *waiting[t as usize].lock().expect("no panic while held"));
        let mut frontier: Vec<(Pits, bool)> = candidates
            .into_par_iter()
            .filter_map(|offset| {
                let index = own.start + u64::from(offset);
                let slot = slot(index);
                let low = slot.best < 0;
                let value = if low { -t } else { t };
                decide(slot, value).then(|| (abapa::unrank(n, index), low))
            })
            .collect();
        // Rounds: every process un-moves its frontier, updates the parents it
        // owns and sends the others theirs; the threshold is done when no
        // process has anything left.
        while share.any(!frontier.is_empty()) {
            let empty = || (Vec::new(), vec![Vec::new(); processes], Vec::new());
            let parts: Vec<_> = frontier
                .par_iter()
                .fold(
                    empty,
                    |(mut decided, mut outgoing, mut parents), &(pits, low)| {
                        parents.clear();
                        abapa::unmoves_with(rules, &pits, n, |parent| {
                            parents.push((abapa::rank(parent), *parent));
                        });
                        // Plain reads first, so that their cache misses overlap;
                        // decided parents need nothing more.
                        parents.retain(|&(index, _)| {
                            let mine = own.contains(&index);
                            if !mine {
                                outgoing[owner(index)].push(update(index, low));
                            }
                            mine && slot(index).value.load(Ordering::Relaxed) == NONE
                        });
                        for &(index, parent) in &parents {
                            if let Some(low) = apply(index, low) {
                                decided.push((parent, low));
                            }
                        }
                        (decided, outgoing, parents)
                    },
                )
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
    slots
        .into_par_iter()
        .map(|slot| match slot.value.into_inner() {
            NONE => 0,
            v => v,
        })
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

    /// Every position with up to 9 seeds, both rule sets: the sweep and value
    /// iteration (no un-moves, no thresholds) agree.
    #[test]
    fn sweep_equals_value_iteration() {
        for rules in [Rules::Default, Rules::Thesis] {
            let mut sweep = Vec::new();
            solve_abapa(&Abapa::new(rules, 9), &Progress::hidden(), |_, v, _| {
                sweep.push(v.to_vec());
                Ok(())
            })
            .unwrap();
            let iterated = abapa::value_iteration(rules, 9);
            for (n, (a, b)) in sweep.iter().zip(&iterated).enumerate() {
                let differ = a.iter().zip(b).filter(|(x, y)| x != y).count();
                assert_eq!(differ, 0, "{rules:?}, {n} seeds");
            }
        }
    }
}
