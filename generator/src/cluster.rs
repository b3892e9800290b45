//! Generation over MPI (the `mpi` feature): `mpirun -np N tbgen ...`.
//!
//! - Abapa: every rank owns a contiguous share of each tier's positions, in
//!   memory; the updates a rank's un-moves make to positions owned elsewhere are
//!   batched per owner and exchanged once a round ([`abapa::solve_share`]); a
//!   threshold ends when no rank has anything left. Rank 0 gathers the tier and
//!   writes its table; every rank then reads it back from the file for the
//!   tiers above (on a cluster: a shared filesystem, or files copied to each node).
//! - Chess: whole endings are handed to ranks, the endings of one piece count at
//!   a time (a capture always leads to fewer pieces, so they are independent),
//!   the largest first to the least loaded rank. Each rank reads the endings its
//!   captures lead to from their files.
//! - Any other game is made by rank 0 alone.
//!
//! The tables are those of a single process, byte for byte with
//! `--reproducible`. A rank that fails says which rank and which tier and stops
//! every rank; tables are written atomically, so no partial table is left under
//! a final name, and the sound tables in the folder are kept unless `--remake`.

use crate::abapa::{self, Share};
use crate::output::{Summary, WriteOptions, open_tier, sound, write_tier_with};
use crate::progress::Progress;
use crate::{chess, write_solved};
use games::abapa::Abapa;
use games::chess::Endgame;
use games::spec::{Options, Spec, Visitor};
use games::{Game, Value};
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::cell::Cell;
use std::time::Instant;
use tables::Codes;

/// This process's place among the ranks of an `mpirun`.
pub struct Cluster {
    /// Kept so that MPI is finalized when the cluster is dropped.
    _universe: Universe,
    world: SimpleCommunicator,
    /// Keep the tables a stopped run wrote instead of making them again.
    keep: bool,
    /// Bytes this rank has sent to others since the count was last taken.
    sent: Cell<u64>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rank {} of {}", self.rank(), self.size())
    }
}

impl Cluster {
    /// Joins the ranks `mpirun` started (a single rank when run without it).
    pub fn join(keep: bool) -> anyhow::Result<Cluster> {
        let universe =
            mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI was initialized already"))?;
        let world = universe.world();
        Ok(Cluster {
            _universe: universe,
            world,
            keep,
            sent: Cell::new(0),
        })
    }

    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Whether this rank prints what every rank made.
    pub fn leads(&self) -> bool {
        self.rank() == 0
    }

    /// The value of `result`, or a message naming this rank and `what` it was
    /// making, and every rank stopped.
    fn or_stop<T>(&self, what: &str, result: anyhow::Result<T>) -> T {
        result.unwrap_or_else(|e| {
            eprintln!(
                "error: rank {} of {}, {what}: {e:#}",
                self.rank(),
                self.size()
            );
            self.world.abort(1)
        })
    }

    /// Tells, on standard error, that this rank starts making `what`, when there
    /// are several ranks: if one dies, the last such line of its rank names the
    /// tier it was making (`mpirun` names the rank).
    fn say(&self, what: &str) {
        if self.size() > 1 {
            eprintln!("rank {} of {}: making {what}", self.rank(), self.size());
        }
    }

    /// Whether every rank is to keep the table rank 0 finds written already.
    fn keeps<G: Game>(&self, game: &G, tier: u32, dir: &std::path::Path) -> bool {
        let mut keep = u8::from(self.keep && self.leads() && sound(game, tier, dir));
        self.world.process_at_rank(0).broadcast_into(&mut keep);
        keep == 1
    }

    /// The total over the ranks of a count.
    fn sum(&self, mine: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&mine, &mut total, mpi::collective::SystemOperation::sum());
        total
    }

    /// Rank 0's copy of every rank's `part`, in rank order (empty elsewhere).
    fn gather<T: Equivalence + Default + Clone>(&self, what: &str, part: &[T]) -> Vec<T> {
        let root = self.world.process_at_rank(0);
        let count = self.or_stop(what, i32::try_from(part.len()).map_err(Into::into));
        // An empty slice of bytes points at address 1, which Open MPI reads as
        // MPI_IN_PLACE: hand it an allocated buffer instead.
        let mut buffer = Vec::with_capacity(part.len().max(1));
        buffer.extend_from_slice(part);
        let part = &buffer[..];
        if !self.leads() {
            root.gather_into(&count);
            root.gather_varcount_into(part);
            return Vec::new();
        }
        let mut counts = vec![0i32; self.size()];
        root.gather_into_root(&count, &mut counts[..]);
        let displs = offsets(&counts);
        let total = counts.iter().map(|&c| c as usize).sum();
        let mut whole = vec![T::default(); total];
        let mut partition = PartitionMut::new(&mut whole[..], counts, displs);
        root.gather_varcount_into_root(part, &mut partition);
        whole
    }
}

/// Where each of `counts` consecutive runs starts.
fn offsets(counts: &[i32]) -> Vec<i32> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let start = *at;
            *at += c;
            Some(start)
        })
        .collect()
}

impl Share for Cluster {
    fn processes(&self) -> usize {
        self.size()
    }

    fn me(&self) -> usize {
        self.rank()
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64> {
        let counts: Vec<i32> = outgoing
            .iter()
            .map(|o| i32::try_from(o.len()).expect("fewer than 2^31 updates a round"))
            .collect();
        let mut incoming_counts = vec![0i32; self.size()];
        self.world
            .all_to_all_into(&counts[..], &mut incoming_counts[..]);
        let sent: usize =
            counts.iter().map(|&c| c as usize).sum::<usize>() - counts[self.rank()] as usize;
        self.sent.set(self.sent.get() + 8 * sent as u64);
        let flat: Vec<u64> = outgoing.concat();
        let send = Partition::new(&flat[..], &counts[..], offsets(&counts));
        let total = incoming_counts.iter().map(|&c| c as usize).sum();
        let mut incoming = vec![0u64; total];
        let displs = offsets(&incoming_counts);
        let mut receive = PartitionMut::new(&mut incoming[..], &incoming_counts[..], displs);
        self.world.all_to_all_varcount_into(&send, &mut receive);
        incoming
    }

    fn any(&self, mine: bool) -> bool {
        self.sum(u64::from(mine)) > 0
    }
}

/// Makes the tables of game `id` for `options` over the cluster's ranks; the
/// summaries of what was made (on rank 0; empty elsewhere).
pub fn generate_game(
    id: &str,
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
    cluster: &Cluster,
) -> anyhow::Result<Vec<Summary>> {
    match SHARED.iter().find(|(game, _)| *game == id) {
        Some((_, solve)) => solve(options, write, progress, cluster),
        None if cluster.leads() => crate::make_game(id, options, write, progress),
        None => {
            // The other ranks check the options as rank 0 reads them.
            games::with_game(id, options, Check)?;
            Ok(Vec::new())
        }
    }
}

/// A solver whose work is shared out over the ranks: makes every table of its
/// game for `options`, building the game itself.
type SharedSolver =
    fn(&Options, &WriteOptions, &Progress, &Cluster) -> anyhow::Result<Vec<Summary>>;

/// The solvers that share their work among the ranks, by game id; every other
/// game is made by rank 0 alone.
const SHARED: &[(&str, SharedSolver)] = &[
    ("abapa", |options, write, progress, cluster| {
        let game = games::abapa::SPEC.game(options)?;
        Ok(abapa_tiers(&game, write, progress, cluster))
    }),
    ("chess", |options, write, progress, cluster| {
        let endgame = games::chess::SPEC.game(options)?;
        Ok(chess_endings(&endgame, write, progress, cluster))
    }),
];

/// Builds a game and does nothing with it: its options checked.
struct Check;

impl Visitor for Check {
    type Output = ();
    fn visit<G: Game>(self, _spec: &'static Spec<G>, _game: &G) {}
}

/// Every Abapa tier, each shared out over the ranks.
fn abapa_tiers(
    game: &Abapa,
    write: &WriteOptions,
    progress: &Progress,
    cluster: &Cluster,
) -> Vec<Summary> {
    let mut summaries = Vec::new();
    let mut solved: Vec<Vec<i8>> = Vec::new();
    for n in 0..=game.max_seeds {
        let what = format!("abapa {n} seeds");
        if !cluster.keeps(game, n, &write.dir) {
            cluster.say(&what);
            let started = Instant::now();
            let part = abapa::solve_share(game.rules, n, &solved, cluster, progress);
            let exchanged = cluster.sum(cluster.sent.replace(0));
            let whole = cluster.gather(&what, &part);
            if cluster.leads() {
                let code = |slot: u64| Value::Score(i64::from(whole[slot as usize])).code();
                let summary = write_tier_with(game, n, &code, started.elapsed(), write);
                summaries.push(cluster.or_stop(&what, summary));
                if cluster.size() > 1 {
                    eprintln!(
                        "{what}: {exchanged} bytes exchanged among {} ranks",
                        cluster.size()
                    );
                }
            }
        }
        // Every rank reads the finished tier from its file (a barrier too:
        // rank 0 has written it before any other rank gets here).
        cluster.world.barrier();
        let read = read_codes(game, n, write).map(|(codes, summary)| {
            if summaries.len() <= n as usize {
                summaries.push(summary);
            }
            (0..codes.len())
                .map(|slot| score(game, codes.get(slot)))
                .collect()
        });
        solved.push(cluster.or_stop(&what, read));
    }
    if cluster.leads() {
        summaries
    } else {
        Vec::new()
    }
}

/// The mover's net score a code of an Abapa table holds.
fn score(game: &Abapa, code: u16) -> i8 {
    match Value::from_code(game.value_kind(), code) {
        Some(Value::Score(s)) => s as i8,
        _ => 0,
    }
}

/// The codes and summary of a tier's table, read back from its file.
fn read_codes<G: Game>(
    game: &G,
    tier: u32,
    write: &WriteOptions,
) -> anyhow::Result<(Codes, Summary)> {
    let (table, summary) = open_tier(game, tier, &write.dir)?;
    Ok((table.read_codes()?, summary))
}

/// Every chess ending, whole endings handed to ranks.
fn chess_endings(
    endgame: &Endgame,
    write: &WriteOptions,
    progress: &Progress,
    cluster: &Cluster,
) -> Vec<Summary> {
    let (game, caps) = (endgame, (games::chess::SPEC.capabilities)(endgame));
    // Endings of as many pieces and pawns read none of each other: captures take
    // a piece, promotions a pawn.
    let level_of = |tier: u32| {
        let material = &endgame.materials()[tier as usize];
        (material.count(), material.pawns())
    };
    let tiers = game.tiers();
    // Written as drafts, as one process writes them, and again below.
    let draft = write.as_draft();
    let mut summaries = Vec::new();
    let mut levels: Vec<(usize, usize)> = tiers.iter().map(|&t| level_of(t)).collect();
    levels.dedup();
    for at_level in levels {
        let level: Vec<u32> = tiers
            .iter()
            .copied()
            .filter(|&t| level_of(t) == at_level)
            .collect();
        for tier in assign(&level, |t| game.index_size(t), cluster.size())[cluster.rank()].clone() {
            let what = format!("chess {}", game.tier_name(tier));
            if cluster.keep && sound(game, tier, &write.dir) {
                continue;
            }
            cluster.say(&what);
            progress.working_on(&chess::table_name(game, tier));
            let started = Instant::now();
            let mut solved: Vec<Codes> = vec![Codes::default(); tiers.len()];
            for below in endgame.tiers_below(tier) {
                if solved[below as usize].is_empty() {
                    let read = read_codes(game, below, write).map(|(codes, _)| codes);
                    solved[below as usize] = cluster.or_stop(&what, read);
                }
            }
            let codes = chess::solve_tier(endgame, tier, &mut solved, progress);
            let written = write_solved(game, &caps, tier, &codes, started.elapsed(), &draft);
            cluster.or_stop(&what, written);
        }
        // Every ending of this level is written before any of the next starts.
        cluster.world.barrier();
    }
    // The tables leave their captures and promotions to a search, written
    // again by one rank, as one process writes them.
    if cluster.leads() {
        let mut store = crate::Files::new(endgame, &caps, write);
        let left = chess::leave_exits(endgame, &mut store, write, progress);
        cluster.or_stop("chess exits", left);
        // Listed as one process lists them: the WDL50 tables beside DTZ's last.
        let beside = chess::wdl::of(endgame);
        for game in std::iter::once(game).chain(&beside) {
            for &tier in &tiers {
                let what = chess::table_name(game, tier);
                summaries.push(cluster.or_stop(&what, open_tier(game, tier, &write.dir)).1);
            }
        }
    }
    cluster.world.barrier();
    summaries
}

/// Shares `tiers` out among `ranks`: the largest first, each to the rank with
/// the fewest slots so far (the lower rank on a tie).
fn assign(tiers: &[u32], size: impl Fn(u32) -> u64, ranks: usize) -> Vec<Vec<u32>> {
    let mut order = tiers.to_vec();
    order.sort_by_key(|&t| (std::cmp::Reverse(size(t)), t));
    let mut shares = vec![Vec::new(); ranks];
    let mut load = vec![0u64; ranks];
    for tier in order {
        let least = (0..ranks).min_by_key(|&r| (load[r], r)).expect("a rank");
        load[least] += size(tier);
        shares[least].push(tier);
    }
    shares
}
