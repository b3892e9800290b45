//! The solver for acyclic games: dynamic programming layer by layer, from the last
//! layer back to the first. A layer reads only later layers, which are final, so
//! every slot of a layer is computed in parallel with no locks, and the result
//! does not depend on the number of threads.

use crate::progress::Progress;
use games::capability::Layered;
use games::{Game, Value, value_from_children};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering};

/// Solves one tier of a layered game whose moves stay inside the tier; returns the
/// value code of every index slot.
pub fn solve_layered<G: Game>(
    game: &G,
    order: &dyn Layered<G>,
    tier: u32,
    progress: &Progress,
) -> Vec<u16> {
    let size = game.index_size(tier);
    let codes: Vec<AtomicU16> = (0..size)
        .map(|_| AtomicU16::new(games::value::NO_POSITION))
        .collect();
    let layers = order.layers(tier);
    progress.start(&format!("{} layers", game.id()), u64::from(layers));
    for members in members_by_layer(game, order, tier).iter().rev() {
        members.par_iter().for_each(|&index| {
            let Some(position) = game.position_at(tier, index) else {
                return;
            };
            let value = value_from_children(game, &position, |child| {
                debug_assert_eq!(game.tier_of(child), tier, "a move left the tier");
                let code = codes[game.index(child) as usize].load(Ordering::Relaxed);
                Value::from_code(game.value_kind(), code).unwrap_or_else(|| {
                    panic!("{}: child {child:?} read before it was solved", game.id())
                })
            });
            codes[index as usize].store(value.code(), Ordering::Relaxed);
        });
        progress.advance(1);
    }
    progress.finish();
    codes.into_iter().map(AtomicU16::into_inner).collect()
}

/// The index slots of each layer, in index order; the layer of every slot is
/// computed once, in parallel.
fn members_by_layer<G: Game>(game: &G, order: &dyn Layered<G>, tier: u32) -> Vec<Vec<u64>> {
    let layer_of: Vec<u32> = (0..game.index_size(tier))
        .into_par_iter()
        .map(|index| order.layer_of_index(tier, index))
        .collect();
    let mut members = vec![Vec::new(); order.layers(tier) as usize];
    for (index, &layer) in layer_of.iter().enumerate() {
        members[layer as usize].push(index as u64);
    }
    members
}
