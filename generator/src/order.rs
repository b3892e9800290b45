//! Solving tiers in order, each reading the codes of the finished tiers its moves
//! lead to, with the codes held in memory bounded.
//!
//! A tier's codes stay in memory while later tiers read them, up to
//! [`HELD_BUDGET`]; beyond it, the codes read again last are dropped and read back
//! from their written table when a tier needs them (the choice that re-reads
//! least, as a cache that knows the future would make it). The codes the next
//! tier reads are never dropped. `tbgen chess --all 5` would otherwise hold every
//! pawnless five-piece table until the last pawn ending promoting into it is
//! solved: over 20 GB.

use games::Game;
use std::time::{Duration, Instant};

/// The bytes of codes held for later tiers beyond those the next tier reads:
/// enough that one ending's chain (KRPvKR's four five-piece promotions among
/// them) never reads a table back.
pub const HELD_BUDGET: usize = 3 << 30;

/// Where solved tiers go, and where they come back from.
pub trait Store {
    /// Whether `tier`'s table, from a stopped run, is sound and kept (`--resume`):
    /// such a tier is not solved again, and its codes are read back when needed.
    fn kept(&mut self, tier: u32) -> anyhow::Result<bool>;
    /// Takes a solved tier's codes and the time its solve took.
    fn done(&mut self, tier: u32, codes: &[u16], took: Duration) -> anyhow::Result<()>;
    /// Whether a tier handed to [`Store::done`] can be read back.
    fn rereads(&self) -> bool;
    /// The codes of a tier kept or handed to [`Store::done`] before.
    fn reload(&mut self, tier: u32) -> anyhow::Result<Vec<u16>>;
}

/// A store that writes nothing: every tier is solved, and codes stay in memory
/// while a later tier reads them.
#[derive(Debug)]
pub struct Unwritten;

impl Store for Unwritten {
    fn kept(&mut self, _tier: u32) -> anyhow::Result<bool> {
        Ok(false)
    }
    fn done(&mut self, _tier: u32, _codes: &[u16], _took: Duration) -> anyhow::Result<()> {
        Ok(())
    }
    fn rereads(&self) -> bool {
        false
    }
    fn reload(&mut self, tier: u32) -> anyhow::Result<Vec<u16>> {
        anyhow::bail!("tier {tier} was not written, so it cannot be read back")
    }
}

/// Solves every tier of `game` in order with `solve`, which is given the codes of
/// the tiers before (an empty list for a tier it does not read); `reads` names the
/// earlier tiers a tier's solve reads. Each solved tier goes to `store`.
pub fn solve_in_order<G: Game>(
    game: &G,
    mut solve: impl FnMut(u32, &[Vec<u16>]) -> Vec<u16>,
    reads: impl Fn(u32) -> Vec<u32>,
    store: &mut impl Store,
    budget: usize,
) -> anyhow::Result<()> {
    let tiers = game.tiers();
    let readers = Readers::new(&tiers, &reads);
    let mut held: Vec<Vec<u16>> = Vec::new();
    let mut stored: Vec<bool> = Vec::new();
    for tier in tiers {
        for below in reads(tier) {
            let below = below as usize;
            if held[below].is_empty() && stored[below] {
                held[below] = store.reload(below as u32)?;
            }
        }
        if store.kept(tier)? {
            held.push(Vec::new());
            stored.push(true);
        } else {
            let started = Instant::now();
            let codes = solve(tier, &held);
            store.done(tier, &codes, started.elapsed())?;
            held.push(codes);
            stored.push(store.rereads());
        }
        for (below, codes) in held.iter_mut().enumerate() {
            if readers.next(below, tier).is_none() {
                *codes = Vec::new();
            }
        }
        while store.rereads() && bytes(&held) > budget {
            let Some(farthest) = readers.farthest_held(&held, tier) else {
                break;
            };
            held[farthest] = Vec::new();
        }
    }
    Ok(())
}

/// The bytes of the codes in memory.
fn bytes(held: &[Vec<u16>]) -> usize {
    held.iter().map(|codes| codes.len() * 2).sum()
}

/// For each tier, the later tiers that read it, in order.
struct Readers(Vec<Vec<u32>>);

impl Readers {
    fn new(tiers: &[u32], reads: &impl Fn(u32) -> Vec<u32>) -> Readers {
        let mut readers = vec![Vec::new(); tiers.len()];
        for &tier in tiers {
            for below in reads(tier) {
                readers[below as usize].push(tier);
            }
        }
        Readers(readers)
    }

    /// The first tier after `now` that reads `tier`.
    fn next(&self, tier: usize, now: u32) -> Option<u32> {
        self.0[tier].iter().copied().find(|&reader| reader > now)
    }

    /// The tier in memory read again last, unless the tier after `now` reads it.
    fn farthest_held(&self, held: &[Vec<u16>], now: u32) -> Option<usize> {
        let (tier, next) = (0..held.len())
            .filter(|&tier| !held[tier].is_empty())
            .filter_map(|tier| Some((tier, self.next(tier, now)?)))
            .max_by_key(|&(_, next)| next)?;
        (next > now + 1).then_some(tier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use games::chess::{Endgame, Material};
    use std::collections::HashMap;

    /// A store that keeps written tiers in a map and counts what it reads back.
    #[derive(Default)]
    struct Map {
        written: HashMap<u32, Vec<u16>>,
        reloads: usize,
    }

    impl Store for Map {
        fn kept(&mut self, _tier: u32) -> anyhow::Result<bool> {
            Ok(false)
        }
        fn done(&mut self, tier: u32, codes: &[u16], _took: Duration) -> anyhow::Result<()> {
            self.written.insert(tier, codes.to_vec());
            Ok(())
        }
        fn rereads(&self) -> bool {
            true
        }
        fn reload(&mut self, tier: u32) -> anyhow::Result<Vec<u16>> {
            self.reloads += 1;
            Ok(self.written[&tier].clone())
        }
    }

    fn solve(game: &Endgame, budget: usize) -> Map {
        let progress = Progress::hidden();
        let mut map = Map::default();
        solve_in_order(
            game,
            |tier, solved| crate::chess::solve_tier(game, tier, solved, &progress),
            |tier| game.tiers_below(tier),
            &mut map,
            budget,
        )
        .unwrap();
        map
    }

    /// With nothing held beyond what the next tier reads, KPvK's chain reads
    /// tiers back and still makes every code as it does holding everything.
    #[test]
    fn codes_read_back_solve_as_codes_held() {
        let game = Endgame::new(&Material::parse("KPvK").unwrap());
        let held = solve(&game, usize::MAX);
        let reread = solve(&game, 0);
        assert_eq!(held.reloads, 0);
        assert!(reread.reloads > 0, "nothing was read back");
        assert_eq!(held.written, reread.written);
    }
}
