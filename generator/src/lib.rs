//! `tbgen`'s library: the solvers, the table files they write, and
//! [`generate`], which makes a game's tables with the solver its registry entry
//! names.

pub mod abapa;
pub mod chess;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod dots;
mod due;
mod exit_marks;
mod exits;
pub mod layered;
mod long;
mod memory;
pub mod order;
pub mod output;
pub mod retrograde;
mod states;
pub mod tier_codes;

pub use games::progress::{self, Progress};
pub use layered::solve_layered;
pub use order::{Finished, HELD_BUDGET, Solved, Store, Unwritten, solve_in_order};
pub use output::{Summary, WriteOptions, write_tier, write_tier_with};
pub use retrograde::{solve_retracting_tier, solve_retrograde, solve_retrograde_tier};

use games::capability::{Capabilities, Retract, Solver};
use games::spec::{Options, Spec, Visitor};
use games::{Game, GameError, Value};
use std::time::{Duration, Instant};
use tables::Codes;
use tier_codes::{Solution, TierCodes};

/// Solves and writes every table of `game` with the solver its entry names
/// (a dedicated solver is run by [`generate_game`], which finds it by id).
pub fn generate<G: Game>(
    spec: &Spec<G>,
    game: &G,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let caps = (spec.capabilities)(game);
    match caps.solver {
        Solver::Layered(layers) => each_tier(game, &caps, options, |tier| {
            solve_layered(game, layers, tier, progress).into()
        }),
        Solver::Retrograde => each_tier(game, &caps, options, |tier| {
            solve_retrograde(game, tier, progress)
        }),
        Solver::Retracting(retract) => {
            let mut store = Files::new(game, &caps, options);
            solve_retracting(game, retract, progress, &mut store)?;
            Ok(store.summaries)
        }
        Solver::Dedicated => anyhow::bail!(
            "{}: its entry names a dedicated solver, and the generator has none for it",
            game.id()
        ),
        Solver::None => Ok(Vec::new()),
    }
}

/// The tables of a game's tiers in the output folder, as a [`Store`]: each solved
/// tier is written, kept where a sound one is in the folder already (unless
/// `--remake`), and read back when a later tier needs it; the summaries of
/// every tier.
pub(crate) struct Files<'a, G: Game> {
    game: &'a G,
    caps: &'a Capabilities<'a, G>,
    options: &'a WriteOptions,
    pub(crate) summaries: Vec<Summary>,
}

impl<'a, G: Game> Files<'a, G> {
    pub(crate) fn new(
        game: &'a G,
        caps: &'a Capabilities<'a, G>,
        options: &'a WriteOptions,
    ) -> Self {
        Files {
            game,
            caps,
            options,
            summaries: Vec::new(),
        }
    }
}

impl<G: Game> Store for Files<'_, G> {
    fn sound(&mut self, tier: u32) -> anyhow::Result<Option<tables::Exits>> {
        Ok(match self.options.keep {
            true => output::sound_with_exits(self.game, tier, &self.options.dir),
            false => None,
        })
    }

    fn keep(&mut self, tier: u32) -> anyhow::Result<()> {
        let (_, summary) = output::open_tier(self.game, tier, &self.options.dir)?;
        self.summaries.push(Summary {
            kept: true,
            ..summary
        });
        Ok(())
    }

    fn done(&mut self, tier: u32, codes: &dyn TierCodes, took: Duration) -> anyhow::Result<()> {
        // Marks kept for a table written before are not this one's.
        exit_marks::remove(&output::table_path(self.game, tier, &self.options.dir))?;
        let written = write_solved(self.game, self.caps, tier, codes, took, self.options)?;
        self.summaries.push(written);
        Ok(())
    }

    fn marked(&mut self, tier: u32, exits: &tier_codes::Marks) -> anyhow::Result<()> {
        match self.options.draft {
            true => exit_marks::write(&self.table(tier)?, exits),
            false => Ok(()),
        }
    }

    fn rereads(&self) -> bool {
        true
    }

    fn table(&mut self, tier: u32) -> anyhow::Result<tables::Table> {
        Ok(output::open_tier(self.game, tier, &self.options.dir)?.0)
    }
}

/// A solver of the generator's own: makes every table of its game for
/// `options` (generate options of one variant), building the game itself.
pub type DedicatedSolver = fn(&Options, &WriteOptions, &Progress) -> anyhow::Result<Vec<Summary>>;

/// The generator's own solvers, by the id of the game each is written for;
/// each game whose entry names [`Solver::Dedicated`] has one here.
const DEDICATED: &[(&str, DedicatedSolver)] = &[
    ("dots", dots::generate_tables),
    ("abapa", abapa::generate_tables),
    ("chess", chess::generate_tables),
];

/// The dedicated solver of game `id`, if it has one.
pub fn dedicated(id: &str) -> Option<DedicatedSolver> {
    DEDICATED
        .iter()
        .find(|(game, _)| *game == id)
        .map(|&(_, solve)| solve)
}

/// Solves each tier with `solve` and writes it.
fn each_tier<G: Game>(
    game: &G,
    caps: &Capabilities<G>,
    options: &WriteOptions,
    solve: impl Fn(u32) -> Codes,
) -> anyhow::Result<Vec<Summary>> {
    game.tiers()
        .into_iter()
        .map(|tier| {
            let started = Instant::now();
            let codes = solve(tier);
            write_solved(game, caps, tier, &codes, started.elapsed(), options)
        })
        .collect()
}

/// Writes one solved tier with the header notes the game keeps.
pub(crate) fn write_solved<G: Game>(
    game: &G,
    caps: &Capabilities<G>,
    tier: u32,
    codes: &dyn TierCodes,
    took: Duration,
    options: &WriteOptions,
) -> anyhow::Result<Summary> {
    // Codes held whole are read without a call through the trait a slot.
    fn write<G: Game>(
        game: &G,
        caps: &Capabilities<G>,
        tier: u32,
        code: &(impl Fn(u64) -> u16 + Sync),
        took: Duration,
        options: &WriteOptions,
    ) -> anyhow::Result<Summary> {
        let notes = caps
            .notes
            .map(|notes| notes.notes(tier, code))
            .unwrap_or_default();
        output::write_tier_noting(game, tier, code, took, options, notes)
    }
    match codes.held() {
        Some(held) => write(game, caps, tier, &|slot| held.get(slot), took, options),
        None => write(game, caps, tier, &|slot| codes.code(slot), took, options),
    }
}

/// Solves every tier by un-moves, in order, each tier reading the tiers its
/// moves leave to; each solved tier goes to `store` (a tier it keeps is not
/// solved).
pub fn solve_retracting<G: Game>(
    game: &G,
    retract: &dyn Retract<G>,
    progress: &Progress,
    store: &mut impl Store,
) -> anyhow::Result<()> {
    let solve = |tier: u32, solved: &mut Finished| {
        let solved = &*solved;
        let earlier = |position: &G::Position| -> Value {
            let (tier, index) = game.locate(position);
            let code = solved.code(tier, index);
            Value::from_code(game.value_kind(), code).expect("a solved legal position")
        };
        Solution::held(solve_retracting_tier(
            game, retract, tier, &earlier, progress,
        ))
    };
    let earlier = |tier: u32| (0..tier).collect();
    solve_in_order(game, solve, earlier, store, HELD_BUDGET)
}
/// Makes the tables of game `id` for `options` (generate options, already
/// expanded to one variant), writing them as `write` says.
pub fn generate_game(
    id: &str,
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    check_before(&[(id, options.clone())], write, progress)?;
    make_game(id, options, write, progress)
}

/// [`generate_game`] for a job already checked: over MPI, `tbgen` checks every
/// job of the run before the first.
fn make_game(
    id: &str,
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let mut made = Vec::new();
    let job = [(id, options.clone())];
    make_games(&job, write, progress, |summaries| {
        made.extend_from_slice(summaries)
    })?;
    Ok(made)
}

/// Makes the tables of every job (a game's id and generate options of one
/// variant), in order, writing them as `write` says; `made` is given the
/// summaries of each job's tables once they are final. A game with a
/// [`Finish`] writes drafts first, which it writes again once every job is
/// solved: a later job may read a draft's values (chess's DTZ solve reads
/// DTM's draws) before its finish changes what it stores.
pub fn generate_games(
    jobs: &[(&str, Options)],
    write: &WriteOptions,
    progress: &Progress,
    made: impl FnMut(&[Summary]),
) -> anyhow::Result<()> {
    check_before(jobs, write, progress)?;
    make_games(jobs, write, progress, made)
}

/// [`generate_games`] for jobs already checked.
fn make_games(
    jobs: &[(&str, Options)],
    write: &WriteOptions,
    progress: &Progress,
    mut made: impl FnMut(&[Summary]),
) -> anyhow::Result<()> {
    let mut drafts = Vec::new();
    for (id, options) in jobs {
        let summaries = solve_game(id, options, write, progress)?;
        match finish(id) {
            Some(finish) => drafts.push((finish, options, summaries)),
            None => made(&summaries),
        }
    }
    for (finish, options, mut summaries) in drafts {
        finish(options, write, progress, &mut summaries)?;
        made(&summaries);
    }
    Ok(())
}

/// Solves and writes the tables of game `id` for `options`, drafts where the
/// game has a [`Finish`].
fn solve_game(
    id: &str,
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    struct Generate<'a>(&'a WriteOptions, &'a Progress);
    impl Visitor for Generate<'_> {
        type Output = anyhow::Result<Vec<Summary>>;
        fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> Self::Output {
            generate(spec, game, self.0, self.1)
        }
    }
    match dedicated(id) {
        Some(solve) => solve(options, write, progress),
        None => games::with_game(id, options, Generate(write, progress))?,
    }
}

/// What a dedicated solver checks of a job before any job of the run starts
/// (chess: the memory its largest table needs), so that a run refused for its
/// second job does not first spend hours on its first.
pub type Check = fn(&Options, &WriteOptions, &Progress) -> anyhow::Result<()>;

/// The dedicated solvers that check their jobs first, by game id.
const CHECK: &[(&str, Check)] = &[("chess", chess::check_before)];

/// Checks every job (a game's id and generate options of one variant) as its
/// dedicated solver does before making anything (see [`Check`]).
pub fn check_before(
    jobs: &[(&str, Options)],
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<()> {
    for (id, options) in jobs {
        if let Some((_, check)) = CHECK.iter().find(|(game, _)| game == id) {
            check(options, write, progress)?;
        }
    }
    Ok(())
}

/// The second pass of a dedicated solver whose first writes drafts: writes the
/// tables of a game's `options` again, updating their summaries.
pub type Finish = fn(&Options, &WriteOptions, &Progress, &mut Vec<Summary>) -> anyhow::Result<()>;

/// The dedicated solvers that write drafts first, by game id.
const FINISH: &[(&str, Finish)] = &[("chess", chess::finish_tables)];

/// The second pass of game `id`'s solver, if it has one.
fn finish(id: &str) -> Option<Finish> {
    FINISH
        .iter()
        .find(|(game, _)| *game == id)
        .map(|&(_, finish)| finish)
}

/// Checks that `options` make a game whose tables can be made, without making them.
pub fn check_game(id: &str, options: &Options) -> Result<(), GameError> {
    struct Check;
    impl Visitor for Check {
        type Output = ();
        fn visit<G: Game>(self, _spec: &'static Spec<G>, _game: &G) {}
    }
    games::with_game(id, options, Check)
}

/// Writes a test table of `codes` named `tier` to `path`, one block of
/// `block_entries` values after another, at zstd level 1.
#[cfg(test)]
pub(crate) fn write_test_table(
    path: &std::path::Path,
    tier: &str,
    codes: &[u16],
    block_entries: u32,
) -> Result<u64, tables::TableError> {
    let header = tables::Header {
        game: "test".into(),
        variant: String::new(),
        tier: tier.into(),
        index_size: codes.len() as u64,
        encoding: "wld16".into(),
        block_entries,
        lanes: 1,
        digits: Default::default(),
        spelled: None,
        empty: tables::Empty::Kept,
        shared: None,
        exits: Default::default(),
        lane_left: None,
        stats: tables::Stats::default(),
    };
    tables::write_table(path, &header, codes, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game whose entry names a dedicated solver has one here, and only such
    /// a game: the registry and the generator agree.
    #[test]
    fn every_dedicated_solver_belongs_to_a_game_that_names_one() {
        struct NamesDedicated;
        impl Visitor for NamesDedicated {
            type Output = bool;
            fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> bool {
                matches!((spec.capabilities)(game).solver, Solver::Dedicated)
            }
        }
        let mut named = Vec::new();
        for entry in games::registry::entries() {
            let options = Options::query();
            let names = games::with_game(entry.id, &options, NamesDedicated).unwrap();
            assert_eq!(names, dedicated(entry.id).is_some(), "{}", entry.id);
            if names {
                named.push(entry.id);
            }
        }
        assert_eq!(named, ["dots", "chess", "abapa"]);
    }
}
