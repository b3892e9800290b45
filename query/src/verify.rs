//! Checks tables against live search that reads no table.

use crate::error::QueryError;
use crate::tablebase::Tablebase;
use games::search::{AlphaBeta, BoundedSearch, MateSearch, Negamax};
use games::{Game, Value, ValueKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Which slots to check.
#[derive(Debug, Clone, Copy)]
pub enum Selection {
    /// Every slot of every tier.
    All,
    /// `count` slots per tier drawn at random from `seed`.
    Samples { count: u64, seed: u64 },
}

/// The outcome of a verification.
#[derive(Debug, Default)]
pub struct Report {
    /// Positions whose value was compared.
    pub checked: u64,
    /// Slots that hold no legal position and are marked so.
    pub empty_slots: u64,
    /// One line per disagreement.
    pub mismatches: Vec<String>,
    /// For games with cycles: the plies within which search proved wins and losses.
    pub bound: Option<u16>,
    /// Checked positions whose stored win, loss or draw lies beyond the search
    /// bound: search confirmed only that nothing ends within it.
    pub beyond_bound: u64,
    /// Positions compared with the game's closed formula (every slot of every
    /// tier, whatever the selection), for games that have one.
    pub formula_checked: u64,
    /// For games with cycles: positions whose stored value was recomputed from
    /// their moves and the stored values of the positions after them (every slot,
    /// whatever the selection).
    pub consistency_checked: u64,
}

/// Live search: exact negamax for acyclic win/loss games, alpha-beta with a
/// transposition table for acyclic score games; for games with cycles, proofs of
/// win or loss within a bound, where "nothing within the bound" stands for a draw;
/// for games with cycles too deep for that (chess), mate search to a fixed depth.
enum Live<'g, G: Game> {
    Exact(Negamax<'g, G>),
    Pruned(AlphaBeta<'g, G>),
    Bounded(BoundedSearch<'g, G>, u16),
    Mate(MateSearch<'g, G>, u16),
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
            Live::Mate(search, limit) => {
                search
                    .check(position, stored, *limit)
                    .unwrap_or_else(|| match stored {
                        Some(v) if v.distance().is_none_or(|n| n > *limit) => v,
                        _ => Value::Draw,
                    })
            }
        }
    }
}

/// Extra plies the bounded search looks beyond the longest distance a table
/// records, so a draw stored where a longer win exists would be caught.
pub const BOUND_MARGIN: u16 = 8;

/// Compares every selected slot of every tier with live search, and checks that
/// each slot's position indexes back to the same slot.
pub fn verify<G: Game>(tb: &Tablebase<G>, selection: Selection) -> Result<Report, QueryError> {
    verify_tiers(tb, selection, &tb.game().tiers())
}

/// [`verify`] for some tiers only.
pub fn verify_tiers<G: Game>(
    tb: &Tablebase<G>,
    selection: Selection,
    tiers: &[u32],
) -> Result<Report, QueryError> {
    let game = tb.game();
    let mut report = Report::default();
    for &tier in tiers {
        let table = tb.table(tier)?;
        let mut search = if let (true, Some(limit)) = (game.has_cycles(), game.search_plies()) {
            report.bound = Some(limit);
            Live::Mate(MateSearch::new(game), limit)
        } else if game.has_cycles() {
            let longest =
                u16::try_from(table.header().stats.longest).unwrap_or(u16::MAX - BOUND_MARGIN);
            report.bound = Some(longest + BOUND_MARGIN);
            Live::Bounded(BoundedSearch::new(game), longest + BOUND_MARGIN)
        } else if game.value_kind() == ValueKind::Score {
            Live::Pruned(AlphaBeta::new(game))
        } else {
            Live::Exact(Negamax::new(game))
        };
        let size = game.index_size(tier);
        check_formula(tb, tier, &mut report)?;
        if game.has_cycles() {
            check_consistency(tb, tier, &mut report)?;
        }
        let indices: Box<dyn Iterator<Item = u64>> = match selection {
            Selection::All => Box::new(0..size),
            Selection::Samples { .. } if size == 0 => Box::new(0..0),
            Selection::Samples { count, seed } => {
                let mut rng = StdRng::seed_from_u64(seed ^ u64::from(tier));
                Box::new((0..count).map(move |_| rng.random_range(0..size)))
            }
        };
        for index in indices {
            let stored = Value::from_code(game.value_kind(), table.get(index)?);
            let Some(position) = game.position_at(tier, index) else {
                match stored {
                    None => report.empty_slots += 1,
                    Some(v) => report.mismatches.push(format!(
                        "tier {tier} slot {index}: no position, but stores {v}"
                    )),
                }
                continue;
            };
            let text = game.write_position(&position);
            if game.index(&position) != index || game.tier_of(&position) != tier {
                report.mismatches.push(format!(
                    "{text}: slot {index} does not index back to itself"
                ));
            }
            let live = search.value(&position, stored);
            report.checked += 1;
            if let (Some(bound), Some(v)) = (report.bound, stored) {
                report.beyond_bound += u64::from(v.distance().is_none_or(|n| n > bound));
            }
            match stored {
                Some(v) if v == live => {}
                Some(v) => report
                    .mismatches
                    .push(format!("{text}: table says {v}, search says {live}")),
                None => report
                    .mismatches
                    .push(format!("{text}: table has no value, search says {live}")),
            }
        }
    }
    Ok(report)
}

/// Compares every slot of a tier with the game's formula, where it has one.
fn check_formula<G: Game>(
    tb: &Tablebase<G>,
    tier: u32,
    report: &mut Report,
) -> Result<(), QueryError> {
    let game = tb.game();
    let has_formula = (0..game.index_size(tier))
        .find_map(|i| game.position_at(tier, i))
        .is_some_and(|p| game.formula(&p).is_some());
    if !has_formula {
        return Ok(());
    }
    let codes = tb.table(tier)?.read_all()?;
    for (index, code) in codes.into_iter().enumerate() {
        let Some(position) = game.position_at(tier, index as u64) else {
            continue;
        };
        let Some(formula) = game.formula(&position) else {
            continue;
        };
        report.formula_checked += 1;
        let stored = Value::from_code(game.value_kind(), code);
        let agrees = match stored {
            Some(Value::Win(_)) => formula.mover_wins,
            Some(Value::Loss(_)) => !formula.mover_wins,
            _ => false,
        };
        if !agrees {
            let text = game.write_position(&position);
            let stored = stored.map_or("nothing".to_string(), |v| v.to_string());
            report.mismatches.push(format!(
                "{text}: table says {stored}, the formula says the mover {}",
                if formula.mover_wins { "wins" } else { "loses" }
            ));
        }
    }
    Ok(())
}

/// Recomputes every slot of a tier of a game with cycles from its moves and the
/// stored values after them: a win in `n` needs a move to a loss in `n - 1` and
/// none faster, a loss in `n` every move to a win and the slowest in `n - 1`, a
/// draw no move to a loss and some move to a draw. A table that passes everywhere
/// (with the tables its moves lead to) is right: by induction on the distance,
/// every stored win and loss is grounded in a real end, and every real win and
/// loss is stored.
fn check_consistency<G: Game>(
    tb: &Tablebase<G>,
    tier: u32,
    report: &mut Report,
) -> Result<(), QueryError> {
    let game = tb.game();
    let codes = tb.table(tier)?.read_all()?;
    // For each legal slot: the mismatch, if any.
    let outcomes: Vec<Option<String>> = codes
        .par_iter()
        .enumerate()
        .filter_map(|(index, &code)| Some((game.position_at(tier, index as u64)?, code)))
        .map(|(position, code)| -> Result<Option<String>, QueryError> {
            let stored = Value::from_code(game.value_kind(), code);
            let mut failed = None;
            let from_moves = games::value_from_children(game, &position, |child| {
                let value = if game.tier_of(child) == tier {
                    Value::from_code(game.value_kind(), codes[game.index(child) as usize])
                        .ok_or_else(|| QueryError::WrongTable {
                            path: tb.path(tier),
                            problem: format!(
                                "no value for {}, a legal position",
                                game.write_position(child)
                            ),
                        })
                } else {
                    tb.value(child)
                };
                value.unwrap_or_else(|e| {
                    failed.get_or_insert(e);
                    Value::Draw
                })
            });
            if let Some(e) = failed {
                return Err(e);
            }
            Ok((stored != Some(from_moves)).then(|| {
                let stored = stored.map_or("nothing".to_string(), |v| v.to_string());
                format!(
                    "{}: table says {stored}, its moves say {from_moves}",
                    game.write_position(&position)
                )
            }))
        })
        .collect::<Result<_, _>>()?;
    report.consistency_checked += outcomes.len() as u64;
    report.mismatches.extend(outcomes.into_iter().flatten());
    Ok(())
}
