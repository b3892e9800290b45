//! Solving tiers in order, each reading the codes of the finished tiers its moves
//! lead to, with the codes in memory bounded.
//!
//! A tier's codes stay in memory for the later tiers that read them, up to
//! [`HELD_BUDGET`] bytes; beyond it, the codes read again last are dropped first
//! (the choice a cache that knows the future makes). A tier that reads codes no
//! longer in memory reads them back whole where they fit in the budget, and
//! otherwise from their table a block at a time, as its slots are asked for:
//! KRPPvK promotes into four endings of 710 million slots, which whole would
//! take 5.7 GB, while a slice of its pawns reaches a few placements of each.
//! `tbgen chess --all 5` would otherwise hold every pawnless five-piece table
//! until the last pawn ending promoting into it is solved: over 20 GB.

use games::Game;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tables::{Block, Table};

/// The bytes of codes held in memory for later tiers.
pub const HELD_BUDGET: usize = 2 << 30;

/// Where solved tiers go, and where they come back from.
pub trait Store {
    /// Whether `tier`'s table, from a stopped run, is sound and kept (`--resume`):
    /// such a tier is not solved again, and its codes are read back when needed.
    fn kept(&mut self, tier: u32) -> anyhow::Result<bool>;
    /// Takes a solved tier's codes and the time its solve took.
    fn done(&mut self, tier: u32, codes: &[u16], took: Duration) -> anyhow::Result<()>;
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
    fn kept(&mut self, _tier: u32) -> anyhow::Result<bool> {
        Ok(false)
    }
    fn done(&mut self, _tier: u32, _codes: &[u16], _took: Duration) -> anyhow::Result<()> {
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
}

/// Every tier's codes in memory, as tests and the cluster hold them.
impl Solved for Vec<Vec<u16>> {
    #[inline]
    fn code(&self, tier: u32, slot: u64) -> u16 {
        self[tier as usize][slot as usize]
    }
}

/// The codes of one finished tier.
#[derive(Debug, Default)]
enum Codes {
    /// Not in memory: in its table, or read by no later tier.
    #[default]
    Away,
    Held(Vec<u16>),
    /// Read from its table a block at a time.
    Blocks(Box<Blocks>),
}

/// A table read a block at a time, each block read once until released, when
/// the file's pages read are let go too.
#[derive(Debug)]
struct Blocks {
    table: Table,
    per_block: u64,
    blocks: Vec<OnceLock<Block>>,
}

impl Blocks {
    fn new(table: Table) -> Blocks {
        let per_block = u64::from(table.header().block_entries);
        let blocks = (0..table.block_count()).map(|_| OnceLock::new()).collect();
        Blocks {
            table,
            per_block,
            blocks,
        }
    }

    fn code(&self, slot: u64) -> u16 {
        let b = (slot / self.per_block) as usize;
        let block = self.blocks[b].get_or_init(|| {
            // The table was written by this run or checked sound before it.
            self.table
                .read_block(b)
                .unwrap_or_else(|e| panic!("reading back a solved tier: {e}"))
        });
        block[(slot % self.per_block) as usize]
    }
}

/// The finished tiers of a game being solved.
#[derive(Debug, Default)]
pub struct Finished(Vec<Codes>);

impl Solved for Finished {
    #[inline]
    fn code(&self, tier: u32, slot: u64) -> u16 {
        match &self.0[tier as usize] {
            Codes::Held(codes) => codes[slot as usize],
            Codes::Blocks(blocks) => blocks.code(slot),
            Codes::Away => panic!("tier {tier} is read but was not made ready"),
        }
    }

    fn release(&mut self) {
        for codes in &mut self.0 {
            if let Codes::Blocks(blocks) = codes {
                blocks
                    .blocks
                    .iter_mut()
                    .for_each(|block| drop(block.take()));
                blocks.table.drop_pages();
            }
        }
    }
}

impl Finished {
    /// The bytes of the codes held whole.
    fn held_bytes(&self) -> usize {
        self.0
            .iter()
            .map(|codes| match codes {
                Codes::Held(codes) => codes.len() * 2,
                _ => 0,
            })
            .sum()
    }

    fn is_held(&self, tier: usize) -> bool {
        matches!(self.0[tier], Codes::Held(_))
    }

    /// Makes the tiers `tier` reads ready: those in memory stay; the others are
    /// read back whole while they fit in `budget`, else a block at a time.
    fn ready(
        &mut self,
        reads: &[u32],
        store: &mut impl Store,
        budget: usize,
    ) -> anyhow::Result<()> {
        for &below in reads {
            let below = below as usize;
            if !matches!(self.0[below], Codes::Away) {
                continue;
            }
            let table = store.table(below as u32)?;
            let bytes = table.header().index_size as usize * 2;
            self.0[below] = match self.held_bytes() + bytes <= budget {
                true => Codes::Held(table.read_all()?),
                false => Codes::Blocks(Box::new(Blocks::new(table))),
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
    mut solve: impl FnMut(u32, &mut Finished) -> Vec<u16>,
    reads: impl Fn(u32) -> Vec<u32>,
    store: &mut impl Store,
    budget: usize,
) -> anyhow::Result<()> {
    let tiers = game.tiers();
    let readers = Readers::new(&tiers, &reads);
    let budget = if store.rereads() { budget } else { usize::MAX };
    let mut finished = Finished::default();
    for tier in tiers {
        finished.ready(&reads(tier), store, budget)?;
        if store.kept(tier)? {
            finished.0.push(Codes::Away);
        } else {
            let started = Instant::now();
            let codes = solve(tier, &mut finished);
            store.done(tier, &codes, started.elapsed())?;
            finished.0.push(Codes::Held(codes));
        }
        for (below, codes) in finished.0.iter_mut().enumerate() {
            let read_later = readers.next(below, tier).is_some();
            if !read_later || matches!(codes, Codes::Blocks(_)) {
                *codes = Codes::Away;
            }
        }
        while finished.held_bytes() > budget {
            let Some(farthest) = readers.farthest(&finished, tier) else {
                break;
            };
            finished.0[farthest] = Codes::Away;
        }
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

    /// The first tier after `now` that reads `tier`.
    fn next(&self, tier: usize, now: u32) -> Option<u32> {
        self.0[tier].iter().copied().find(|&reader| reader > now)
    }

    /// The tier held whole that is read again last, the biggest among those.
    fn farthest(&self, finished: &Finished, now: u32) -> Option<usize> {
        (0..finished.0.len())
            .filter(|&tier| finished.is_held(tier))
            .filter_map(|tier| {
                let bytes = match &finished.0[tier] {
                    Codes::Held(codes) => codes.len(),
                    _ => 0,
                };
                Some((tier, (self.next(tier, now)?, bytes)))
            })
            .max_by_key(|&(_, key)| key)
            .map(|(tier, _)| tier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use games::chess::{Endgame, Material};
    use std::collections::HashMap;
    use tables::{DEFAULT_BLOCK_ENTRIES, Header, Stats};

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
        fn kept(&mut self, _tier: u32) -> anyhow::Result<bool> {
            Ok(false)
        }
        fn done(&mut self, tier: u32, codes: &[u16], _took: Duration) -> anyhow::Result<()> {
            let header = Header {
                game: "test".into(),
                variant: String::new(),
                tier: tier.to_string(),
                index_size: codes.len() as u64,
                encoding: "wld16".into(),
                block_entries: self.block_entries,
                stats: Stats::default(),
            };
            tables::write_table(&self.path(tier), &header, codes, 1)?;
            self.written.insert(tier, codes.to_vec());
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
            |tier, solved| crate::chess::solve_tier(game, tier, solved, &progress),
            |tier| game.tiers_below(tier),
            &mut folder,
            budget,
        )
        .unwrap();
        folder.written
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
