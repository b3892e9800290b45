//! Checks tables against something that did not produce them, running the checks
//! the game's registry entry lists: live search that reads no table, the closed
//! formula, each slot's own moves, a solver written apart.

use crate::error::QueryError;
use crate::oracle::Oracle;
use games::capability::{Check, Exact, Reference, Sampler};
use games::progress::Progress;
use games::search::{AlphaBeta, BoundedSearch, MateSearch, Negamax};
use games::{Game, Value, ValueKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;
use tables::Codes;

/// Which slots sampled checks look at.
#[derive(Debug, Clone, Copy)]
pub enum Selection {
    /// Every slot of every tier.
    All,
    /// `count` slots per tier (or positions, for games without tables) drawn at
    /// random from `seed`.
    Samples { count: u64, seed: u64 },
    /// `--samples` left at its default: up to [`DEFAULT_SAMPLES`] slots per tier,
    /// every slot of a smaller tier.
    Default { seed: u64 },
}

/// The samples drawn per tier when `--samples` is not given.
pub const DEFAULT_SAMPLES: u64 = 10_000;

/// What a verification found.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Report {
    pub game: String,
    /// The tables checked; every block of each was read and found sound first.
    pub tables: Vec<String>,
    /// Positions compared with live search.
    pub checked: u64,
    /// Samples drawn on slots that hold no legal position (a count of
    /// samples, not of the tables' empty slots).
    pub empty_slots: u64,
    /// For games with cycles: the plies within which search proved wins and losses.
    pub bound: Option<u16>,
    /// Checked positions whose stored win, loss or draw lies beyond the search
    /// bound: search confirmed only that nothing ends within it.
    pub beyond_bound: u64,
    /// Positions compared with the closed formula (every slot).
    pub formula_checked: u64,
    /// Positions whose stored value was recomputed from their moves and the
    /// stored values after them (every slot).
    pub consistency_checked: u64,
    /// The solver written apart, and the positions compared with it.
    pub reference: Option<String>,
    pub reference_checked: u64,
    /// Positions whose exact on-demand value was compared with alpha-beta search.
    pub exact_checked: u64,
    /// One line per disagreement.
    pub mismatches: Vec<String>,
    pub seconds: f64,
}

impl Report {
    /// One line for people.
    pub fn summary(&self) -> String {
        // What the samples found besides: each note counts samples, not
        // positions of the tables.
        let mut notes = Vec::new();
        let search = match self.bound {
            Some(bound) => {
                let beyond = self.beyond_bound;
                notes.push(format!("{beyond} of them draws or longer: none within it"));
                format!("search proving wins and losses within {bound} plies")
            }
            None => "live search".to_string(),
        };
        if self.empty_slots > 0 {
            let empty = self.empty_slots;
            notes.push(format!(
                "{empty} more samples fell on slots that hold no position"
            ));
        }
        let search = match notes.is_empty() {
            true => search,
            false => format!("{search} ({})", notes.join("; ")),
        };
        let mut parts = Vec::new();
        let mut part = |count: u64, against: String| {
            let noun = if count == 1 { "position" } else { "positions" };
            if count > 0 {
                parts.push(format!("{count} {noun} against {against}"));
            }
        };
        part(self.checked, search.clone());
        part(self.formula_checked, "the formula".into());
        part(
            self.consistency_checked,
            "their moves' stored values".into(),
        );
        if let Some(reference) = &self.reference {
            part(self.reference_checked, reference.clone());
        }
        part(
            self.exact_checked,
            "alpha-beta search (exact values on demand)".into(),
        );
        if parts.is_empty() {
            parts.push(format!("0 positions against {search}"));
        }
        let blocks = match self.tables.len() {
            0 => String::new(),
            1 => "; every block of its table sound".to_string(),
            n => format!("; every block of its {n} tables sound"),
        };
        format!(
            "{}: checked {}{blocks}, {} mismatches, {:.2} s",
            self.game,
            parts.join(", "),
            self.mismatches.len(),
            self.seconds
        )
    }
}

/// Extra plies the bounded search looks beyond the longest distance a table
/// records, so a draw stored where a longer win exists would be caught.
pub const BOUND_MARGIN: u16 = 8;

/// Runs every check the game lists on the tables named `table` (with the tables
/// their moves lead to), or on every table present, saying nothing until done.
pub fn verify<G: Game>(
    oracle: &Oracle<G>,
    selection: Selection,
    table: Option<&str>,
) -> Result<Report, QueryError> {
    verify_showing(oracle, selection, table, &Progress::hidden())
}

/// [`verify`], saying how far it is on `progress`.
pub fn verify_showing<G: Game>(
    oracle: &Oracle<G>,
    selection: Selection,
    table: Option<&str>,
    progress: &Progress,
) -> Result<Report, QueryError> {
    let started = Instant::now();
    let game = oracle.game;
    let mut report = Report {
        game: game.id().to_string(),
        ..Report::default()
    };
    let present: Vec<u32> = game
        .tiers()
        .into_iter()
        .filter(|&t| oracle.tb.has_table(t))
        .collect();
    let tiers = match table {
        Some(name) => game.named_tiers(name)?,
        None if oracle.has_tables() && present.is_empty() => {
            // Nothing to check: a board too large for tables says so, and
            // otherwise the error names the missing file and the command.
            let first = game.tiers()[0];
            if let Some(Err(reason)) = game.position_at(first, 0).map(|p| game.coverage(&p)) {
                return Err(QueryError::Input(games::GameError::variant(
                    &game.variant(),
                    format!("no tables to verify: {reason}"),
                )));
            }
            oracle.tb.table(first)?;
            Vec::new()
        }
        None => present.clone(),
    };
    report.tables = tiers
        .iter()
        .map(|&t| oracle.tb.path(t).display().to_string())
        .collect();
    progress.working_on(game.id());
    // Damage anywhere in a table stops the verification, naming the table.
    progress.start("blocks", tiers.len() as u64);
    for &tier in &tiers {
        oracle.tb.table(tier)?.check()?;
        progress.advance(1);
    }
    let most = tiers.iter().map(|&t| game.index_size(t)).max().unwrap_or(0);
    let selection = match selection {
        Selection::Default { seed } => Selection::Samples {
            count: match most {
                0 => DEFAULT_SAMPLES,
                most => DEFAULT_SAMPLES.min(most),
            },
            seed,
        },
        given => given,
    };
    if let Selection::Samples { count, .. } = selection {
        if most > 0 && count > most {
            return Err(QueryError::Input(games::GameError::option(
                "samples",
                &count.to_string(),
                format!("the tables have at most {most} slots each; --all checks every one"),
            )));
        }
    }
    for check in &oracle.caps.checks {
        match check {
            Check::LiveSearch => sampled(oracle, &tiers, selection, None, &mut report, progress)?,
            Check::MateSearch { plies } => {
                let mates = Some(Mates::Exact(*plies));
                sampled(oracle, &tiers, selection, mates, &mut report, progress)?
            }
            Check::MateBound { plies } => {
                let mates = Some(Mates::Bound(*plies));
                sampled(oracle, &tiers, selection, mates, &mut report, progress)?
            }
            Check::Formula => {
                for &tier in &tiers {
                    check_formula(oracle, tier, &mut report, progress)?;
                }
            }
            Check::Consistency => {
                for &tier in &tiers {
                    check_consistency(oracle, tier, &mut report, progress)?;
                }
            }
            Check::Reference(reference) => {
                let checked = match table {
                    Some(_) => tiers.clone(),
                    None => reference.default_tiers(&present),
                };
                check_reference(oracle, *reference, &checked, &mut report, progress)?;
            }
            Check::ExactAgainstSearch(sampler) => {
                let exact = oracle.caps.exact.ok_or_else(|| QueryError::WrongTable {
                    path: oracle.tb.path(0),
                    problem: "the registry lists an exact check but no exact solver".into(),
                })?;
                check_exact(oracle, exact, *sampler, selection, &mut report);
            }
        }
    }
    progress.finish();
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Live search: exact negamax for acyclic win/loss games, alpha-beta with a
/// transposition table for acyclic score games; for games with cycles, proofs of
/// win or loss within a bound, where "nothing within the bound" stands for a draw;
/// for games with cycles too deep for that (chess), mate search to a fixed depth.
enum Live<'g, G: Game> {
    Exact(Negamax<'g, G>),
    Pruned(AlphaBeta<'g, G>),
    Bounded(BoundedSearch<'g, G>, u16),
    Mate(MateSearch<'g, G>, Mates),
}

/// What mate search to a fixed depth checks.
#[derive(Debug, Clone, Copy)]
enum Mates {
    /// Distances to mate: exact within the plies.
    Exact(u16),
    /// Distances to something no later than mate (DTZ): a mate within the
    /// plies bounds the distance, and a draw has none.
    Bound(u16),
}

impl Mates {
    fn plies(self) -> u16 {
        match self {
            Mates::Exact(plies) | Mates::Bound(plies) => plies,
        }
    }
}

impl<G: Game> Live<'_, G> {
    /// What live search says of `position`, given what the table stores there.
    /// Bounded search answers exactly whatever is decided within its depth, so a
    /// stored win or loss in `n` is checked by searching `n` plies; the full bound
    /// is searched only where that finds nothing or the table stores a draw.
    fn value(&mut self, position: &G::Position, stored: Option<Value>) -> Value {
        match self {
            Live::Exact(search) => search.value(position),
            Live::Pruned(search) => search.value(position),
            Live::Bounded(search, bound) => stored
                .and_then(Value::distance)
                .and_then(|n| search.within(position, n))
                .unwrap_or_else(|| search.value(position, *bound)),
            // Nothing within the limit agrees with a draw or a longer win or loss.
            Live::Mate(search, Mates::Exact(limit)) => search
                .check(position, stored, *limit)
                .unwrap_or_else(|| match stored {
                    Some(v) if v.distance().is_none_or(|n| n > *limit) => v,
                    _ => Value::Draw,
                }),
            // Nothing within the limit agrees with any value; a mate found
            // agrees with a win or loss as short or shorter.
            Live::Mate(search, Mates::Bound(limit)) => {
                match (search.value_within(position, *limit), stored) {
                    (None, Some(v)) => v,
                    (Some(Value::Win(n)), Some(v @ Value::Win(d))) if d <= n => v,
                    (Some(Value::Loss(n)), Some(v @ Value::Loss(d))) if d <= n => v,
                    (Some(found), _) => found,
                    (None, None) => Value::Draw,
                }
            }
        }
    }
}

/// Compares the selected slots of every tier with live search, and checks that
/// each slot's position indexes back to the same slot. Each thread runs its own
/// search (with its own memory of positions searched) over every
/// [`SAMPLE_RUN`]-th run of the slots; what they find is put back in the slots'
/// order, so the report is the same for any number of threads.
fn sampled<G: Game>(
    oracle: &Oracle<G>,
    tiers: &[u32],
    selection: Selection,
    mates: Option<Mates>,
    report: &mut Report,
    progress: &Progress,
) -> Result<(), QueryError> {
    let game = oracle.game;
    for &tier in tiers {
        let table = oracle.tb.table(tier)?;
        let bound = if let Some(mates) = mates {
            Some(mates.plies())
        } else if game.has_cycles() {
            let longest =
                u16::try_from(table.header().stats.longest).unwrap_or(u16::MAX - BOUND_MARGIN);
            Some(longest.saturating_add(BOUND_MARGIN))
        } else {
            None
        };
        report.bound = bound.or(report.bound);
        let search = || match (mates, bound) {
            (Some(mates), _) => Live::Mate(MateSearch::new(game), mates),
            (None, Some(bound)) => Live::Bounded(BoundedSearch::new(game), bound),
            _ if game.value_kind() == ValueKind::Score => Live::Pruned(AlphaBeta::new(game)),
            _ => Live::Exact(Negamax::new(game)),
        };
        let size = game.index_size(tier);
        // As many samples as slots, or more, check every slot once.
        let indices = || -> Box<dyn Iterator<Item = u64>> {
            match selection {
                Selection::Samples { count, seed } if count < size => {
                    let mut rng = StdRng::seed_from_u64(seed ^ u64::from(tier));
                    Box::new((0..count).map(move |_| rng.random_range(0..size)))
                }
                _ => Box::new(0..size),
            }
        };
        let steps = match selection {
            Selection::Samples { count, .. } => count.min(size),
            Selection::All | Selection::Default { .. } => size,
        };
        progress.start(&format!("search {}", game.tier_name(tier)), steps);
        let threads = rayon::current_num_threads();
        let parts = (0..threads)
            .into_par_iter()
            .map(|thread| {
                let mut search = search();
                let mine = indices()
                    .enumerate()
                    .filter(|(at, _)| (*at / SAMPLE_RUN) % threads == thread);
                let mut part = Sampled::default();
                for (at, index) in mine {
                    progress.advance(1);
                    part.check(game, &mut search, &oracle.tb, tier, index, at, bound)?;
                }
                Ok(part)
            })
            .collect::<Result<Vec<Sampled>, QueryError>>()?;
        let mut found = Vec::new();
        for part in parts {
            report.checked += part.checked;
            report.empty_slots += part.empty_slots;
            report.beyond_bound += part.beyond_bound;
            found.extend(part.mismatches);
        }
        found.sort_by_key(|(at, _)| *at);
        report.mismatches.extend(found.into_iter().map(|(_, m)| m));
    }
    Ok(())
}

/// How many consecutive samples one thread searches before the next thread's
/// run: long enough that a thread's memory of searched positions serves its
/// neighbours (slots next to each other are often positions close together).
const SAMPLE_RUN: usize = 256;

/// What one thread's search found, each mismatch with the place of its slot in
/// the order the slots were drawn.
#[derive(Default)]
struct Sampled {
    checked: u64,
    empty_slots: u64,
    beyond_bound: u64,
    mismatches: Vec<(usize, String)>,
}

impl Sampled {
    /// Checks slot `index` of `tier`, the `at`-th drawn, against `search`.
    #[allow(clippy::too_many_arguments)]
    fn check<G: Game>(
        &mut self,
        game: &G,
        search: &mut Live<'_, G>,
        tb: &crate::Tablebase<'_, G>,
        tier: u32,
        index: u64,
        at: usize,
        bound: Option<u16>,
    ) -> Result<(), QueryError> {
        let table = tb.table(tier)?;
        let held = table.header().holds(index);
        let mut stored = match held {
            true => Value::from_code(game.value_kind(), table.get(index)?),
            false => None,
        };
        let mut mismatch = |text: String| self.mismatches.push((at, text));
        let Some(position) = game.position_at(tier, index) else {
            // A table that fills its empty slots stores anything there; one
            // that leaves the slot's lane, nothing.
            let filled = table.header().empty == tables::Empty::Filled;
            match stored {
                None => self.empty_slots += 1,
                Some(_) if filled => self.empty_slots += 1,
                Some(v) => mismatch(format!(
                    "tier {tier} slot {index}: no position, but stores {v}"
                )),
            }
            return Ok(());
        };
        // The lane left is valued as a probe values it: by a search of its
        // moves, which the live search below checks.
        if !held || (stored.is_some() && table.header().exits == tables::Exits::Searched) {
            stored = Some(tb.covered_value(&position)?);
        }
        let text = game.write_position(&position);
        if game.index(&position) != index || game.tier_of(&position) != tier {
            mismatch(format!(
                "{text}: slot {index} does not index back to itself"
            ));
        }
        let live = search.value(&position, stored);
        match stored {
            Some(v) if v == live => {}
            Some(v) => mismatch(format!("{text}: table says {v}, search says {live}")),
            None => mismatch(format!("{text}: table has no value, search says {live}")),
        }
        self.checked += 1;
        if let (Some(bound), Some(v)) = (bound, stored) {
            self.beyond_bound += u64::from(v.distance().is_none_or(|n| n > bound));
        }
        Ok(())
    }
}

/// Runs `check` on every slot of a tier that holds a position, in parallel,
/// with the slot's stored code and every code of the tier.
fn every_slot<G: Game>(
    oracle: &Oracle<G>,
    tier: u32,
    what: &str,
    progress: &Progress,
    check: impl Fn(&G::Position, u16, &Codes) -> Result<Option<String>, QueryError> + Sync,
) -> Result<(u64, Vec<String>), QueryError> {
    let game = oracle.game;
    let codes = oracle.tb.codes_of_tier(tier)?;
    progress.start(what, codes.len());
    // Folded as they come, in slot order: a 5-piece chess table has 150 million
    // positions, too many to keep an outcome for each.
    (0..codes.len())
        .into_par_iter()
        .filter_map(|index| {
            progress.advance(1);
            let position = game.position_at(tier, index)?;
            Some(check(&position, codes.get(index), &codes))
        })
        .try_fold(
            || (0u64, Vec::new()),
            |(checked, mut found), outcome| {
                found.extend(outcome?);
                Ok((checked + 1, found))
            },
        )
        .try_reduce(
            || (0, Vec::new()),
            |(a, mut found), (b, more)| {
                found.extend(more);
                Ok((a + b, found))
            },
        )
}

/// Compares every slot of a tier with the game's formula.
fn check_formula<G: Game>(
    oracle: &Oracle<G>,
    tier: u32,
    report: &mut Report,
    progress: &Progress,
) -> Result<(), QueryError> {
    let game = oracle.game;
    let Some(formula) = oracle.caps.formula else {
        return Ok(());
    };
    let (checked, found) = every_slot(oracle, tier, "formula", progress, |position, code, _| {
        let verdict = formula.formula(position);
        let stored = Value::from_code(game.value_kind(), code);
        let agrees = match (&verdict, stored) {
            (Ok(v), Some(Value::Win(_))) => v.mover_wins,
            (Ok(v), Some(Value::Loss(_))) => !v.mover_wins,
            _ => false,
        };
        Ok((!agrees).then(|| {
            let stored = stored.map_or("nothing".to_string(), |v| v.to_string());
            let says = match verdict {
                Ok(v) if v.mover_wins => "the mover wins".to_string(),
                Ok(_) => "the mover loses".to_string(),
                Err(e) => format!("nothing ({e})"),
            };
            format!(
                "{}: table says {stored}, the formula says {says}",
                game.write_position(position)
            )
        }))
    })?;
    report.formula_checked += checked;
    report.mismatches.extend(found);
    Ok(())
}

/// Recomputes every slot of a tier from its moves and the stored values after
/// them: a win in `n` needs a move to a loss in `n - 1` and none faster, a loss
/// in `n` every move to a win and the slowest in `n - 1`, a draw no move to a
/// loss and some move to a draw. A table that passes everywhere (with the tables
/// its moves lead to) is right: by induction on the distance, every stored win and
/// loss is grounded in a real end, and every real win and loss is stored.
fn check_consistency<G: Game>(
    oracle: &Oracle<G>,
    tier: u32,
    report: &mut Report,
    progress: &Progress,
) -> Result<(), QueryError> {
    let game = oracle.game;
    let (checked, found) = every_slot(oracle, tier, "moves", progress, |position, code, codes| {
        let stored = Value::from_code(game.value_kind(), code);
        let from_moves = through_moves(game, position, &|child| {
            looked_up(oracle, tier, codes, child)
        })?;
        Ok((stored != Some(from_moves)).then(|| {
            let stored = stored.map_or("nothing".to_string(), |v| v.to_string());
            format!(
                "{}: table says {stored}, its moves say {from_moves}",
                game.write_position(position)
            )
        }))
    })?;
    report.consistency_checked += checked;
    report.mismatches.extend(found);
    Ok(())
}

/// The value of a position from the values of its moves, `value` giving each.
fn through_moves<G: Game>(
    game: &G,
    position: &G::Position,
    value: &dyn Fn(&G::Position) -> Result<Value, QueryError>,
) -> Result<Value, QueryError> {
    let mut failed = None;
    let from_moves = games::value_from_children(game, position, |child| {
        value(child).unwrap_or_else(|e| {
            failed.get_or_insert(e);
            Value::Draw
        })
    });
    failed.map_or(Ok(from_moves), Err)
}

/// The stored value of a position after a move: from `codes` where it is in
/// `tier`, from its table otherwise, and through its own moves where the tables
/// do not hold it as it stands (a chess position with an en passant right).
fn looked_up<G: Game>(
    oracle: &Oracle<G>,
    tier: u32,
    codes: &Codes,
    position: &G::Position,
) -> Result<Value, QueryError> {
    let (game, tb) = (oracle.game, &oracle.tb);
    if !game.stored(position) {
        return through_moves(game, position, &|child| {
            looked_up(oracle, tier, codes, child)
        });
    }
    if game.tier_of(position) != tier {
        return tb.value(position);
    }
    Value::from_code(game.value_kind(), codes.get(game.index(position))).ok_or_else(|| {
        QueryError::WrongTable {
            path: tb.path(tier),
            problem: format!(
                "no value for {}, a legal position",
                game.write_position(position)
            ),
        }
    })
}

/// Compares every slot of `tiers` with a solver written apart.
fn check_reference<G: Game>(
    oracle: &Oracle<G>,
    reference: &dyn Reference<G>,
    tiers: &[u32],
    report: &mut Report,
    progress: &Progress,
) -> Result<(), QueryError> {
    let game = oracle.game;
    report.reference = Some(reference.name().to_string());
    progress.start(reference.name(), tiers.len() as u64);
    let expected = reference.solve(tiers);
    for (&tier, values) in tiers.iter().zip(expected) {
        progress.advance(1);
        let table = oracle.tb.table(tier)?;
        let codes = oracle.tb.codes_of_tier(tier)?;
        let filled = table.header().empty == tables::Empty::Filled;
        for (index, want) in (0..codes.len()).zip(values) {
            let code = codes.get(index);
            if want.is_none() && filled {
                // A slot without a position, stored as whatever compresses best.
                continue;
            }
            report.reference_checked += 1;
            let stored = Value::from_code(game.value_kind(), code);
            if stored != want {
                let position = game
                    .position_at(tier, index)
                    .map_or(format!("tier {tier} slot {index}"), |p| {
                        game.write_position(&p)
                    });
                let show = |v: Option<Value>| v.map_or("nothing".into(), |v| v.to_string());
                report.mismatches.push(format!(
                    "{position}: table says {}, {} says {}",
                    show(stored),
                    reference.name(),
                    show(want)
                ));
            }
        }
    }
    Ok(())
}

/// Compares the exact on-demand solver with alpha-beta search on sampled positions.
fn check_exact<G: Game>(
    oracle: &Oracle<G>,
    exact: &dyn Exact<G>,
    sampler: &dyn Sampler<G>,
    selection: Selection,
    report: &mut Report,
) {
    let game = oracle.game;
    let (count, seed) = match selection {
        Selection::All => (DEFAULT_SAMPLES, 1),
        Selection::Default { seed } => (DEFAULT_SAMPLES, seed),
        Selection::Samples { count, seed } => (count, seed),
    };
    for i in 0..count {
        let position = sampler.sample(seed.wrapping_mul(1_000_003).wrapping_add(i));
        let (fast, searched) = (
            exact.value(&position),
            AlphaBeta::new(game).value(&position),
        );
        report.exact_checked += 1;
        if fast != searched {
            report.mismatches.push(format!(
                "{}: exact solver {fast}, alpha-beta {searched}",
                game.write_position(&position)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::chess::{Endgame, Material, Metric};

    /// Samples drawn on empty slots are counted as samples beside the search
    /// they did not reach, never beside a count of positions.
    #[test]
    fn empty_samples_read_as_samples() {
        let report = Report {
            game: "chess".into(),
            checked: 561,
            empty_slots: 239,
            consistency_checked: 2_563_736,
            bound: Some(7),
            beyond_bound: 535,
            ..Report::default()
        };
        let line = report.summary();
        let expected = "561 positions against search proving wins and losses within 7 plies \
                        (535 of them draws or longer: none within it; \
                        239 more samples fell on slots that hold no position), \
                        2563736 positions against their moves' stored values, 0 mismatches";
        assert!(line.contains(expected), "{line}");
    }

    /// Under DTZ, mate search bounds the stored distance: a mate found within
    /// the plies must be stored as a win in at most as many, and a position
    /// with none found may store anything (a capture that zeroes into a long
    /// mate is a win in 1).
    #[test]
    fn mate_search_bounds_a_distance_to_zeroing() {
        let game = Endgame::new(&Material::parse("KQvK").unwrap()).with_metric(Metric::Dtz);
        let mut live = Live::Mate(MateSearch::new(&game), Mates::Bound(7));
        let mate_in_one = game
            .parse_position("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")
            .unwrap();
        for (stored, agrees) in [
            (Value::Win(1), true),
            (Value::Win(3), false),
            (Value::Draw, false),
            (Value::Loss(2), false),
        ] {
            let said = live.value(&mate_in_one, Some(stored));
            assert_eq!(said == stored, agrees, "{stored}: search says {said}");
            assert_eq!(said, if agrees { stored } else { Value::Win(1) });
        }
        // No mate within 7 plies: whatever is stored stands.
        let far = game
            .parse_position("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")
            .unwrap();
        for stored in [Value::Win(1), Value::Win(15), Value::Draw] {
            assert_eq!(live.value(&far, Some(stored)), stored);
        }
    }
}
