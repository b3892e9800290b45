//! Solving tiers in order, each reading the codes of the finished tiers its moves
//! lead to, with the codes in memory bounded.
//!
//! Codes are held a byte a slot where they allow it ([`Codes`]: every code
//! of every chess ending but a few long distances). A tier's codes stay in
//! memory for the later tiers that read them, up to
//! [`HELD_BUDGET`] bytes with the codes of the tier being solved; beyond it, the
//! codes read again last are dropped first (the choice a cache that knows the
//! future makes), and codes their next reader would drop so (within its own
//! budget) are not held until then. A tier that reads codes no longer in memory reads them back
//! whole where they fit in the budget, and otherwise from their table a block at
//! a time, as its slots are asked for, through the tables' cache of decompressed
//! blocks (128 MiB at most, a byte a value): KRPPvK promotes into four endings of 710 million
//! slots, which whole would take 2.8 GB. `tbgen chess --all 5` would otherwise
//! hold every pawnless five-piece table until the last pawn ending promoting
//! into it is solved: over 10 GB.

use crate::tier_codes::{Marks, Solution, TierCodes};
use games::Game;
use std::time::{Duration, Instant};
use tables::{BlockCache, Codes, Exits, Table};

/// The bytes of codes in memory: the tier being solved and those held for later tiers.
/// As many slots as 2 GiB held at two bytes a slot, the tiers held before codes
/// took a byte: the same tiers are read back the same way, in half the memory.
pub const HELD_BUDGET: usize = 1 << 30;

/// Where solved tiers go, and where they come back from.
pub trait Store {
    /// Whether `tier`'s table, already in the folder, is sound and may be
    /// kept (unless `--remake`), and whether it stores every value ([`Exits::Stored`]:
    /// its codes can be read back) or searches its exits (kept only where
    /// no tier solved again reads it).
    fn sound(&mut self, tier: u32) -> anyhow::Result<Option<Exits>>;
    /// Keeps `tier`'s sound table: the tier is not solved again.
    fn keep(&mut self, tier: u32) -> anyhow::Result<()>;
    /// Takes a solved tier's codes and the time its solve took.
    fn done(&mut self, tier: u32, codes: &dyn TierCodes, took: Duration) -> anyhow::Result<()>;
    /// Takes the slots of a tier just handed to [`Store::done`] whose value a
    /// move out of the tier gives, 64 a word, where its solve marked them
    /// (see [`Solution::exits`]); a store that keeps nothing for the pass
    /// that leaves exits lets them go.
    fn marked(&mut self, _tier: u32, _exits: &Marks) -> anyhow::Result<()> {
        Ok(())
    }
    /// Whether a tier handed to [`Store::done`] can be read back.
    fn rereads(&self) -> bool;
    /// The table of a tier kept or handed to [`Store::done`] before.
    fn table(&mut self, tier: u32) -> anyhow::Result<Table>;
}

/// A store that writes nothing: every tier is solved, and codes stay in memory
/// while a later tier reads them.
#[derive(Debug)]
pub struct Unwritten;

impl Store for Unwritten {
    fn sound(&mut self, _tier: u32) -> anyhow::Result<Option<Exits>> {
        Ok(None)
    }
    fn keep(&mut self, _tier: u32) -> anyhow::Result<()> {
        Ok(())
    }
    fn done(&mut self, _tier: u32, _codes: &dyn TierCodes, _took: Duration) -> anyhow::Result<()> {
        Ok(())
    }
    fn rereads(&self) -> bool {
        false
    }
    fn table(&mut self, tier: u32) -> anyhow::Result<Table> {
        anyhow::bail!("tier {tier} was not written, so it cannot be read back")
    }
}

/// The codes of the tiers solved before, as a tier's solve reads them.
pub trait Solved: Sync {
    /// The code of `slot` of `tier`, a tier the solve reads.
    fn code(&self, tier: u32, slot: u64) -> u16;
    /// Lets go of what was read from tables so far (the solver calls it between
    /// parts of a tier that read different parts of the tiers before).
    fn release(&mut self) {}
    /// Lets go of the codes of `tiers`, which the rest of the tier's solve
    /// does not read (a later tier's solve reads them back where it needs
    /// them).
    fn let_go(&mut self, _tiers: &[u32]) {}
}

/// Every tier's codes in memory, as tests and the cluster hold them.
impl Solved for Vec<Codes> {
    #[inline]
    fn code(&self, tier: u32, slot: u64) -> u16 {
        self[tier as usize].get(slot)
    }
}

/// Where the codes of one finished tier are.
#[derive(Debug, Default)]
enum Place {
    /// Not in memory: in its table, or read by no later tier.
    #[default]
    Away,
    Held(Codes),
    /// Read from its table a block at a time, through the tables' cache of
    /// decompressed blocks ([`tables::BlockCache`], 128 MiB, the least useful
    /// blocks dropped first).
    Table(Box<Table>),
}

/// The finished tiers of a game being solved.
#[derive(Debug)]
pub struct Finished {
    tiers: Vec<Place>,
    /// Whether a tier let go can be read back (from its table).
    rereads: bool,
}

impl Solved for Finished {
    #[inline]
    fn code(&self, tier: u32, slot: u64) -> u16 {
        match &self.tiers[tier as usize] {
            Place::Held(codes) => codes.get(slot),
            Place::Table(table) => table.code(slot),
            Place::Away => panic!("tier {tier} is read but was not made ready"),
        }
    }

    fn release(&mut self) {
        for codes in &mut self.tiers {
            if let Place::Table(table) = codes {
                table.drop_pages();
            }
        }
    }

    fn let_go(&mut self, tiers: &[u32]) {
        for &tier in tiers {
            let place = &mut self.tiers[tier as usize];
            match place {
                Place::Held(_) if !self.rereads => continue,
                Place::Table(_) => BlockCache::shared().clear(),
                _ => {}
            }
            *place = Place::Away;
        }
        crate::memory::give_back();
    }
}

impl Finished {
    /// The bytes of the codes held whole.
    fn held_bytes(&self) -> usize {
        self.tiers
            .iter()
            .map(|codes| match codes {
                Place::Held(codes) => codes.bytes(),
                _ => 0,
            })
            .sum()
    }

    fn is_held(&self, tier: usize) -> bool {
        matches!(self.tiers[tier], Place::Held(_))
    }

    /// Drops held codes, those read again last first, until at most `budget`
    /// bytes are held for the tiers from `from` on.
    fn fit(&mut self, readers: &Readers, from: u32, budget: usize) {
        for tier in self.unfit(readers, from, budget) {
            self.tiers[tier] = Place::Away;
        }
    }

    /// The held tiers [`Finished::fit`] drops, in order.
    fn unfit(&self, readers: &Readers, from: u32, budget: usize) -> Vec<usize> {
        let mut held: Vec<(usize, (u32, usize))> = (0..self.tiers.len())
            .filter_map(|tier| match &self.tiers[tier] {
                Place::Held(codes) => {
                    let next = readers.next(tier, from).unwrap_or(u32::MAX);
                    Some((tier, (next, codes.bytes())))
                }
                _ => None,
            })
            .collect();
        let mut bytes: usize = held.iter().map(|&(_, (_, bytes))| bytes).sum();
        let mut dropped = Vec::new();
        while bytes > budget {
            // The tier read again last, the biggest among those (the last
            // such in order).
            let Some(at) = (0..held.len()).max_by_key(|&i| held[i].1) else {
                break;
            };
            let (tier, (_, size)) = held.remove(at);
            bytes -= size;
            dropped.push(tier);
        }
        dropped
    }

    /// Drops now the held tiers that the fit before their next reader (within
    /// `budget_at` that reader) would drop: held until then, they would only
    /// weigh on the tiers solved meanwhile (KRPvKR's promotion targets beside
    /// KRNvKR's solve, of which KRPvKR keeps one).
    fn drop_unkept(&mut self, readers: &Readers, from: u32, budget_at: impl Fn(u32) -> usize) {
        loop {
            let doomed = (0..self.tiers.len())
                .filter(|&t| self.is_held(t))
                .find(|&tier| {
                    readers.next(tier, from).is_none_or(|reader| {
                        self.unfit(readers, reader, budget_at(reader))
                            .contains(&tier)
                    })
                });
            match doomed {
                Some(tier) => self.tiers[tier] = Place::Away,
                None => break,
            }
        }
    }

    /// Makes the tiers `tier` reads ready: those in memory stay; the others are
    /// read back whole, the smallest first, while they fit in `budget`, else a
    /// block at a time. A small table is read all over, where a big one is often
    /// read a part at a time (a placement of pawns): the cache serves that well.
    fn ready(
        &mut self,
        reads: &[u32],
        store: &mut impl Store,
        budget: usize,
    ) -> anyhow::Result<()> {
        let mut away = Vec::new();
        for &below in reads {
            if matches!(self.tiers[below as usize], Place::Away) {
                away.push((below as usize, store.table(below)?));
            }
        }
        away.sort_by_key(|(_, table)| table.header().index_size);
        for (below, table) in away {
            let bytes = table.header().index_size as usize;
            self.tiers[below] = match self.held_bytes() + bytes <= budget {
                true => Place::Held(table.read_codes()?),
                false => Place::Table(Box::new(table)),
            };
        }
        Ok(())
    }
}

/// Solves every tier of `game` in order with `solve`, which is given the codes of
/// the tiers before; `reads` names the earlier tiers a tier's solve reads. Each
/// solved tier goes to `store`; codes are held as the module says, within
/// `budget` bytes where `store` can read tiers back.
pub fn solve_in_order<G: Game>(
    game: &G,
    mut solve: impl FnMut(u32, &mut Finished) -> Solution,
    reads: impl Fn(u32) -> Vec<u32>,
    store: &mut impl Store,
    budget: usize,
) -> anyhow::Result<()> {
    let tiers = game.tiers();
    let readers = Readers::new(&tiers, &reads);
    let budget = if store.rereads() { budget } else { usize::MAX };
    let kept = kept_tiers(&tiers, &reads, store)?;
    // A tier being solved holds its own codes too: they count against the budget.
    let budget_at = |tier: u32| match kept[tier as usize] {
        true => budget,
        false => budget.saturating_sub(game.index_size(tier) as usize),
    };
    let mut finished = Finished {
        tiers: Vec::new(),
        rereads: store.rereads(),
    };
    for tier in tiers {
        let kept = kept[tier as usize];
        finished.fit(&readers, tier, budget_at(tier));
        if kept {
            store.keep(tier)?;
            finished.tiers.push(Place::Away);
        } else {
            finished.ready(&reads(tier), store, budget_at(tier))?;
            let started = Instant::now();
            let solution = solve(tier, &mut finished);
            store.done(tier, solution.codes(), started.elapsed())?;
            if let Some(exits) = solution.exits() {
                store.marked(tier, exits)?;
            }
            // Packed codes are read back from their table, where there is one.
            finished
                .tiers
                .push(match solution.is_packed() && store.rereads() {
                    true => Place::Away,
                    false => Place::Held(solution.into_codes()),
                });
        }
        for (below, codes) in finished.tiers.iter_mut().enumerate() {
            let read_later = readers.next(below, tier + 1).is_some();
            if !read_later || matches!(codes, Place::Table(_)) {
                *codes = Place::Away;
            }
        }
        // No table read a block at a time is open now.
        BlockCache::shared().clear();
        crate::memory::give_back();
        finished.fit(&readers, tier + 1, budget);
        finished.drop_unkept(&readers, tier + 1, budget_at);
    }
    Ok(())
}

/// Which tiers (numbered in order from 0) keep their table: those the store
/// finds sound, but not one that searches its exits and is read by a tier
/// solved again, since its codes cannot be read back.
fn kept_tiers(
    tiers: &[u32],
    reads: &impl Fn(u32) -> Vec<u32>,
    store: &mut impl Store,
) -> anyhow::Result<Vec<bool>> {
    let mut sound = Vec::with_capacity(tiers.len());
    for &tier in tiers {
        anyhow::ensure!(tier as usize == sound.len(), "tiers numbered in order");
        sound.push(store.sound(tier)?);
    }
    // The latest tiers first: a tier solved again makes those it reads unfit.
    for &tier in tiers.iter().rev() {
        if sound[tier as usize].is_none() {
            for below in reads(tier) {
                if sound[below as usize] == Some(Exits::Searched) {
                    sound[below as usize] = None;
                }
            }
        }
    }
    Ok(sound.into_iter().map(|s| s.is_some()).collect())
}

/// Calls `visit` with each of `tiers` (some of `game`'s, in the order they
/// were solved), the last first, and the codes of the tiers it reads
/// (`reads`) made ready from `store` as [`solve_in_order`] makes them, within
/// `budget` bytes with the tier's own codes (those read by the tier before are
/// kept where it reads them too): a pass over finished tables that reads the
/// tiers each one's moves lead to before those are themselves changed.
pub fn visit_in_reverse<G: Game, S: Store>(
    game: &G,
    tiers: &[u32],
    reads: impl Fn(u32) -> Vec<u32>,
    store: &mut S,
    budget: usize,
    mut visit: impl FnMut(u32, &Finished, &mut S) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut finished = Finished {
        tiers: game.tiers().iter().map(|_| Place::Away).collect(),
        rereads: true,
    };
    for &tier in tiers.iter().rev() {
        let reads = reads(tier);
        for (below, codes) in finished.tiers.iter_mut().enumerate() {
            if !reads.contains(&(below as u32)) || matches!(codes, Place::Table(_)) {
                *codes = Place::Away;
            }
        }
        let own = game.index_size(tier) as usize;
        finished.ready(&reads, store, budget.saturating_sub(own))?;
        visit(tier, &finished, store)?;
        // The tables the visit read a block at a time, its own among them,
        // are let go or opened again for the next.
        BlockCache::shared().clear();
        crate::memory::give_back();
    }
    Ok(())
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

    /// The first tier from `from` on that reads `tier`.
    fn next(&self, tier: usize, from: u32) -> Option<u32> {
        self.0[tier].iter().copied().find(|&reader| reader >= from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use games::chess::{Endgame, Material};
    use std::collections::HashMap;
    use tables::DEFAULT_BLOCK_ENTRIES;

    /// A store that writes tables into a folder and remembers the codes it was
    /// handed.
    struct Folder {
        dir: tempfile::TempDir,
        written: HashMap<u32, Vec<u16>>,
        block_entries: u32,
    }

    impl Folder {
        fn path(&self, tier: u32) -> std::path::PathBuf {
            self.dir.path().join(format!("{tier}.tb"))
        }
    }

    impl Store for Folder {
        fn sound(&mut self, _tier: u32) -> anyhow::Result<Option<Exits>> {
            Ok(None)
        }
        fn keep(&mut self, _tier: u32) -> anyhow::Result<()> {
            Ok(())
        }
        fn done(
            &mut self,
            tier: u32,
            codes: &dyn TierCodes,
            _took: Duration,
        ) -> anyhow::Result<()> {
            let codes: Vec<u16> = (0..codes.slots()).map(|slot| codes.code(slot)).collect();
            let path = self.path(tier);
            crate::write_test_table(&path, &tier.to_string(), &codes, self.block_entries)?;
            self.written.insert(tier, codes);
            Ok(())
        }
        fn rereads(&self) -> bool {
            true
        }
        fn table(&mut self, tier: u32) -> anyhow::Result<Table> {
            Ok(Table::open(self.path(tier))?)
        }
    }

    fn solve(game: &Endgame, budget: usize, block_entries: u32) -> HashMap<u32, Vec<u16>> {
        let progress = Progress::hidden();
        let mut folder = Folder {
            dir: tempfile::tempdir().unwrap(),
            written: HashMap::new(),
            block_entries,
        };
        solve_in_order(
            game,
            |tier, solved| Solution::held(crate::chess::solve_tier(game, tier, solved, &progress)),
            |tier| game.tiers_below(tier),
            &mut folder,
            budget,
        )
        .unwrap();
        folder.written
    }

    /// Of two tiers held for a later one that keeps only one of them, the
    /// other is let go at once, not after the tiers solved in between.
    #[test]
    fn a_tier_its_reader_would_drop_is_not_held_until_then() {
        let reads = |tier: u32| match tier {
            4 => vec![0, 1],
            3 => vec![2],
            _ => vec![],
        };
        let readers = Readers::new(&[0, 1, 2, 3, 4], &reads);
        let held = |slots| Place::Held(Codes::new(slots));
        let mut finished = Finished {
            tiers: vec![held(100), held(100), held(10)],
            rereads: true,
        };
        let room = |bytes: usize| move |tier: u32| if tier == 4 { bytes } else { usize::MAX };
        finished.drop_unkept(&readers, 3, room(250));
        assert_eq!((0..3).filter(|&t| finished.is_held(t)).count(), 3);
        // Tier 4 keeps 150 bytes: it would drop tier 1 (of two alike, the
        // later); tier 2, read by tier 3, stays.
        finished.drop_unkept(&readers, 3, room(150));
        let kept: Vec<usize> = (0..3).filter(|&t| finished.is_held(t)).collect();
        assert_eq!(kept, [0, 2]);
    }

    /// KPPvK's chain with every code held, and with room for a megabyte: the
    /// small tiers read back whole, the big ones a block at a time (released
    /// between the pawns' slices), the same codes both ways.
    #[test]
    fn codes_read_back_solve_as_codes_held() {
        let game = Endgame::new(&Material::parse("KPPvK").unwrap());
        let held = solve(&game, usize::MAX, DEFAULT_BLOCK_ENTRIES);
        assert_eq!(solve(&game, 1 << 20, 1 << 10), held);
    }
}
