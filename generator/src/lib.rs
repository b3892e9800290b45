//! `tbgen`'s library: the solvers, the table files they write, progress bars, and
//! [`generate`], which makes a game's tables with the solver its registry entry
//! names.

pub mod abapa;
pub mod chess;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod dots;
pub mod layered;
pub mod output;
pub mod progress;
pub mod retrograde;

pub use layered::solve_layered;
pub use output::{Summary, WriteOptions, write_tier, write_tier_with};
pub use progress::Progress;
pub use retrograde::{solve_retracting_tier, solve_retrograde, solve_retrograde_tier};

use games::capability::{Capabilities, Dedicated, Retract, Solver};
use games::spec::{Options, Spec, Visitor};
use games::{Game, GameError, Value};
use std::any::Any;
use std::cell::RefCell;
use std::time::{Duration, Instant};

/// Solves and writes every table of `game` with the solver its entry names.
pub fn generate<G: Game>(
    spec: &Spec<G>,
    game: &G,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let caps = (spec.capabilities)(game);
    match caps.solver {
        Solver::Layered(layers) => each_tier(game, &caps, options, |tier| {
            solve_layered(game, layers, tier, progress)
        }),
        Solver::Retrograde => each_tier(game, &caps, options, |tier| {
            solve_retrograde(game, tier, progress)
        }),
        Solver::Retracting(retract) => {
            let summaries = RefCell::new(Vec::new());
            let keep = |tier, needed| kept(game, tier, options, needed, &summaries);
            solve_retracting(game, retract, progress, keep, |tier, codes, took| {
                let written = write_solved(game, &caps, tier, codes, took, options)?;
                summaries.borrow_mut().push(written);
                Ok(())
            })?;
            Ok(summaries.into_inner())
        }
        Solver::Dedicated(Dedicated::DotsWaves) => {
            dots::generate(concrete(game)?, options, progress).map(|s| vec![s])
        }
        Solver::Dedicated(Dedicated::AbapaThresholds) => {
            abapa::generate(concrete(game)?, options, progress)
        }
        Solver::Dedicated(Dedicated::ChessUnmoves) => {
            let summaries = RefCell::new(Vec::new());
            let keep = |tier, needed| kept(game, tier, options, needed, &summaries);
            chess::solve_all(concrete(game)?, progress, keep, |tier, codes, took| {
                let written = write_solved(game, &caps, tier, codes, took, options)?;
                summaries.borrow_mut().push(written);
                Ok(())
            })?;
            Ok(summaries.into_inner())
        }
        Solver::None => Ok(Vec::new()),
    }
}

/// With `--resume`, the codes of a tier whose sound table a stopped run wrote, its
/// summary added to `summaries` (an empty list stands in for codes no later tier
/// reads); none where the tier is to be solved.
fn kept<G: Game>(
    game: &G,
    tier: u32,
    options: &WriteOptions,
    needed: bool,
    summaries: &RefCell<Vec<Summary>>,
) -> anyhow::Result<Option<Vec<u16>>> {
    if !options.resume || !output::sound(game, tier, &options.dir) {
        return Ok(None);
    }
    let (table, summary) = output::open_tier(game, tier, &options.dir)?;
    let codes = if needed {
        table.read_all()?
    } else {
        Vec::new()
    };
    summaries.borrow_mut().push(summary);
    Ok(Some(codes))
}

/// The game a dedicated solver is written for; a registry entry naming the
/// solver of another game is refused.
pub(crate) fn concrete<G: Game, T: 'static>(game: &G) -> anyhow::Result<&T> {
    (game as &dyn Any).downcast_ref::<T>().ok_or_else(|| {
        anyhow::anyhow!(
            "{}: its registry entry names a solver written for {}",
            game.id(),
            std::any::type_name::<T>()
        )
    })
}

/// Solves each tier with `solve` and writes it.
fn each_tier<G: Game>(
    game: &G,
    caps: &Capabilities<G>,
    options: &WriteOptions,
    solve: impl Fn(u32) -> Vec<u16>,
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
    codes: &[u16],
    took: Duration,
    options: &WriteOptions,
) -> anyhow::Result<Summary> {
    let code = |slot: u64| codes[slot as usize];
    let notes = caps
        .notes
        .map(|notes| notes.notes(tier, &code))
        .unwrap_or_default();
    output::write_tier_noting(game, tier, &code, took, options, notes)
}

/// Solves every tier by un-moves, in order, each tier reading the tiers its
/// moves leave to from memory; calls `done` with each tier's codes and solve
/// time as it is solved (a tier `kept` gives codes for is not solved).
pub fn solve_retracting<G: Game>(
    game: &G,
    retract: &dyn Retract<G>,
    progress: &Progress,
    kept: impl FnMut(u32, bool) -> anyhow::Result<Option<Vec<u16>>>,
    done: impl FnMut(u32, &[u16], Duration) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Vec<u16>>> {
    let solve = |tier: u32, solved: &[Vec<u16>]| {
        let earlier = |position: &G::Position| -> Value {
            let code = solved[game.tier_of(position) as usize][game.index(position) as usize];
            Value::from_code(game.value_kind(), code).expect("a solved legal position")
        };
        solve_retracting_tier(game, retract, tier, &earlier, progress)
    };
    solve_in_order(game, solve, |_| u32::MAX, kept, done)
}

/// Solves every tier in order with `solve`, which is given the codes of the
/// tiers before; calls `done` with each tier's codes and solve time. A tier whose
/// codes `kept` gives (told whether a later tier reads them) is neither solved
/// nor handed to `done`. The codes of a tier are dropped (an empty list stands in
/// for them) once the tier `last_use` names, the last to read them, is solved
/// (`u32::MAX`: kept).
pub fn solve_in_order<G: Game>(
    game: &G,
    mut solve: impl FnMut(u32, &[Vec<u16>]) -> Vec<u16>,
    last_use: impl Fn(u32) -> u32,
    mut kept: impl FnMut(u32, bool) -> anyhow::Result<Option<Vec<u16>>>,
    mut done: impl FnMut(u32, &[u16], Duration) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Vec<u16>>> {
    let mut solved: Vec<Vec<u16>> = Vec::new();
    for tier in game.tiers() {
        let codes = match kept(tier, last_use(tier) > tier)? {
            Some(codes) => codes,
            None => {
                let started = Instant::now();
                let codes = solve(tier, &solved);
                done(tier, &codes, started.elapsed())?;
                codes
            }
        };
        solved.push(codes);
        for (below, codes) in solved.iter_mut().enumerate() {
            if last_use(below as u32) <= tier {
                *codes = Vec::new();
            }
        }
    }
    Ok(solved)
}

/// Makes the tables of game `id` for `options` (generate options, already
/// expanded to one variant), writing them as `write` says.
pub fn generate_game(
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
    games::with_game(id, options, Generate(write, progress))?
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
