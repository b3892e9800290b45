//! Tables that leave their exits to a search: after a game's tiers are all
//! solved, each table is written again, the last solved first, so that a slot
//! whose value a move out of its tier gives (a capture or a promotion in
//! chess) stores what compresses best within a bound ([`tables::Exits`]).
//! The last solved go first because finding which slots those are reads the
//! values of the tiers below, which must still be stored whole.

use crate::order::{Finished, HELD_BUDGET, Solved, Store, visit_in_reverse};
use crate::output::write_leaving_exits;
use crate::progress::Progress;
use crate::{Files, Summary};
use games::{Game, Value};
use rayon::prelude::*;
use tables::Exits;

/// Rewrites every table of `game` in `files`' folder that stores its exits
/// (a run resumed keeps some that search theirs already),
/// `reads` naming the tiers each tier's moves lead to; updates the summaries'
/// bytes.
pub(crate) fn leave_exits<G: Game>(
    game: &G,
    reads: impl Fn(u32) -> Vec<u32>,
    files: &mut Files<'_, G>,
    progress: &Progress,
) -> anyhow::Result<()> {
    let mut stored = Vec::new();
    for tier in game.tiers() {
        if files.table(tier)?.header().exits == Exits::Stored {
            stored.push(tier);
        }
    }
    visit_in_reverse(
        game,
        &stored,
        reads,
        files,
        HELD_BUDGET,
        |tier, below, files| {
            let table = files.table(tier)?;
            let codes = table.read_all()?;
            progress.start(
                &format!("{} {} exits", game.id(), game.tier_name(tier)),
                codes.len().div_ceil(64) as u64,
            );
            let decided = decided_by_exits(game, tier, &codes, below, progress);
            progress.finish();
            let bytes = write_leaving_exits(game, tier, &table, &codes, &decided, files.options)?;
            files
                .summaries
                .iter_mut()
                .filter(|summary: &&mut Summary| summary.path == table.path())
                .for_each(|summary| summary.bytes = bytes);
            Ok(())
        },
    )
}

/// For every slot of `tier`, 64 a word, whether a move out of the tier gives
/// its value (`codes`), the tiers below read from `below`.
fn decided_by_exits<G: Game>(
    game: &G,
    tier: u32,
    codes: &[u16],
    below: &Finished,
    progress: &Progress,
) -> Vec<u64> {
    let kind = game.value_kind();
    // A position a table does not hold as it stands is not looked for: its
    // slot stays stored.
    let value_of = |child: &G::Position| -> Result<Value, ()> {
        if !game.stored(child) {
            return Err(());
        }
        let (tier, slot) = game.locate(child);
        Value::from_code(kind, below.code(tier, slot)).ok_or(())
    };
    let decided = |slot: usize| -> bool {
        let Some(position) = game.position_at(tier, slot as u64) else {
            return false;
        };
        match games::value_of_exits(game, &position, value_of) {
            Ok(Some(best)) => Value::from_code(kind, codes[slot]) == Some(best),
            _ => false,
        }
    };
    (0..codes.len().div_ceil(64))
        .into_par_iter()
        .map(|word| {
            let slots = word * 64..((word + 1) * 64).min(codes.len());
            let bits = slots
                .enumerate()
                .filter(|&(_, slot)| decided(slot))
                .fold(0u64, |bits, (bit, _)| bits | 1 << bit);
            progress.advance(1);
            bits
        })
        .collect()
}
