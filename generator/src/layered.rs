//! The solver for acyclic games: dynamic programming layer by layer, from the last
//! layer back to the first. A layer reads only later layers, which are final, so
//! every slot of a layer is computed in parallel with no locks, and the result
//! does not depend on the number of threads.

use crate::progress::Progress;
use games::{Layered, Value, value_from_children};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering};

/// Slots handed to one parallel task when scanning for a layer's members.
const CHUNK: u64 = 1 << 12;

/// Solves one tier of a layered game whose moves stay inside the tier; returns the
/// value code of every index slot.
pub fn solve_layered<G: Layered>(game: &G, tier: u32, progress: &Progress) -> Vec<u16> {
    let size = game.index_size(tier);
    let codes: Vec<AtomicU16> = (0..size)
        .map(|_| AtomicU16::new(games::value::NO_POSITION))
        .collect();
    let layers = game.layers(tier);
    progress.start(&format!("{} layers", game.id()), u64::from(layers));
    let chunks = size.div_ceil(CHUNK);
    for layer in (0..layers).rev() {
        (0..chunks).into_par_iter().for_each(|chunk| {
            for index in chunk * CHUNK..((chunk + 1) * CHUNK).min(size) {
                if game.layer_of_index(tier, index) != layer {
                    continue;
                }
                let Some(position) = game.position_at(tier, index) else {
                    continue;
                };
                let value = value_from_children(game, &position, |child| {
                    debug_assert_eq!(game.tier_of(child), tier, "a move left the tier");
                    let code = codes[game.index(child) as usize].load(Ordering::Relaxed);
                    Value::from_code(game.value_kind(), code).unwrap_or_else(|| {
                        panic!("{}: child {child:?} read before it was solved", game.id())
                    })
                });
                codes[index as usize].store(value.code(), Ordering::Relaxed);
            }
        });
        progress.advance(1);
    }
    progress.finish();
    codes.into_iter().map(AtomicU16::into_inner).collect()
}
