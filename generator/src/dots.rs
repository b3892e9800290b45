//! A dedicated dots-and-boxes solver: one signed byte per edge mask, computed so
//! that almost every read stays in cache and most of the work runs as vector code.
//!
//! A mask splits into block bits (high), group bits (middle) and lane bits (low).
//! Drawing an edge only ever sets a bit, so:
//! - a move along a block edge leads to the block with one more block bit, at the
//!   same place: blocks are solved in waves by their number of block bits set,
//!   from all set down to none, the blocks of a wave in parallel;
//! - inside a block, the groups of 64 lanes run from the top down, and a move along
//!   a group or block edge leads to a finished group at the same lane. Which of
//!   those edges are free is the same for the whole group, so each such edge is
//!   one loop over 64 lanes that the compiler vectorises;
//! - only the moves along the 6 lane edges are left for a scalar pass.

use crate::output::{Summary, WriteOptions, write_tier_with};
use crate::progress::Progress;
use games::dots::{Dots, Edges};
use games::spec::Options;
use games::{Game, Value};
use rayon::prelude::*;
use std::time::Instant;

/// The dedicated solver of dots-and-boxes (see [`crate::dedicated`]).
pub fn generate_tables(
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let dots = games::dots::SPEC.game(options)?;
    Ok(vec![generate(&dots, write, progress)?])
}

/// Solves and writes a board's table.
pub fn generate(
    dots: &Dots,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Summary> {
    let started = Instant::now();
    let scores = solve_dots(dots, progress);
    let code = |slot: u64| score_code(scores[slot as usize]);
    write_tier_with(dots, 0, &code, started.elapsed(), options)
}

/// Mask bits below the block bits: blocks of 16 KiB stay in the first-level cache.
const SLOT_BITS: u32 = 14;
/// Mask bits of a lane inside its group.
const LANE_BITS: u32 = 6;

/// The net score for the player to move of every edge mask of `dots`, indexed by
/// mask. Identical for any number of threads.
pub fn solve_dots(dots: &Dots, progress: &Progress) -> Vec<i8> {
    let edges = dots.edges();
    let slot_bits = edges.min(SLOT_BITS);
    let block_bits = edges - slot_bits;
    let mut scores = vec![0i8; 1usize << edges];
    let mut blocks: Vec<&mut [i8]> = scores.chunks_mut(1 << slot_bits).collect();
    progress.start(
        &format!("dots {} waves", dots.variant()),
        u64::from(block_bits) + 1,
    );
    let lanes = Lanes::new(dots, slot_bits.min(LANE_BITS));
    for wave in (0..=block_bits).rev() {
        let mut finished: Vec<Option<&[i8]>> = Vec::with_capacity(blocks.len());
        let mut todo: Vec<(usize, &mut [i8])> = Vec::new();
        for (high, block) in blocks.iter_mut().enumerate() {
            let ones = high.count_ones();
            if ones > wave {
                finished.push(Some(&**block));
            } else {
                finished.push(None);
                if ones == wave {
                    todo.push((high, &mut **block));
                }
            }
        }
        todo.par_iter_mut().for_each(|(high, block)| {
            let above: Vec<&[i8]> = (0..block_bits)
                .map(|bit| match *high & 1 << bit {
                    0 => finished[*high | 1 << bit].expect("a later wave is solved"),
                    _ => &[],
                })
                .collect();
            let base = (*high as Edges) << slot_bits;
            solve_block(dots, slot_bits, &lanes, base, block, &above);
        });
        progress.advance(1);
    }
    progress.finish();
    scores
}

/// The lanes of a group in the order the scalar pass visits them: more edges drawn
/// first. A lane reads only lanes with more edges, and lanes with as many edges are
/// independent, so the processor overlaps their work.
///
/// Also, for each edge outside the lane bits and each lane, the boxes the edge
/// completes, given which of its (up to two) boxes have their edges outside the
/// lane bits drawn: `gains[edge][first | second << 1][lane]`.
struct Lanes {
    bits: u32,
    order: Vec<usize>,
    gains: Vec<[Vec<i8>; 4]>,
}

impl Lanes {
    fn new(dots: &Dots, bits: u32) -> Lanes {
        let mut order: Vec<usize> = (0..1 << bits).collect();
        order.sort_by_key(|&lane| std::cmp::Reverse((lane.count_ones(), lane)));
        let lane_edges: Edges = (1 << bits) - 1;
        let gains = dots
            .box_rest()
            .iter()
            .map(|others| {
                let ready = |which: usize, lane: usize| {
                    let inside = others[which] & lane_edges;
                    i8::from(lane as Edges & inside == inside)
                };
                std::array::from_fn(|fixed_ready| {
                    (0..1usize << bits)
                        .map(|lane| {
                            let first = i8::from(fixed_ready & 1 != 0) * ready(0, lane);
                            let second = i8::from(fixed_ready & 2 != 0) * ready(1, lane);
                            first + second
                        })
                        .collect()
                })
            })
            .collect();
        Lanes { bits, order, gains }
    }
}

/// The score of a move: a move that scores keeps the turn (gain plus the child's
/// score); one that does not passes it (minus the child's score).
fn through(gain: i8, child: i8) -> i8 {
    if gain == 0 {
        child.wrapping_neg()
    } else {
        gain.wrapping_add(child)
    }
}

/// Solves the block of masks starting at `base`; `above[bit]` is the finished
/// block reached by drawing block edge `bit` (empty where that edge is drawn).
fn solve_block(
    dots: &Dots,
    slot_bits: u32,
    lanes: &Lanes,
    base: Edges,
    block: &mut [i8],
    above: &[&[i8]],
) {
    let rest = dots.box_rest();
    let lane_edges: Edges = (1 << lanes.bits) - 1;
    let width = 1usize << lanes.bits;
    let mut best = vec![i8::MIN; width];
    for start in (0..block.len()).step_by(width).rev() {
        let (this, later) = block.split_at_mut(start + width);
        let group = &mut this[start..];
        let drawn = base | start as Edges;
        best.fill(i8::MIN);

        // Moves along group and block edges: one vector loop per free edge.
        let free = !drawn & dots.full() & !lane_edges;
        for edge in (lanes.bits..dots.edges()).filter(|&e| free & 1 << e != 0) {
            let children = if edge < slot_bits {
                let at = (start | 1 << edge) - start - width;
                &later[at..at + width]
            } else {
                &above[(edge - slot_bits) as usize][start..start + width]
            };
            // A box completes when its other edges are all drawn: those outside the
            // lane bits are fixed for the group, the lane bits vary.
            let [a, b] = rest[edge as usize].map(|others| {
                let fixed = others & !lane_edges;
                drawn & fixed == fixed
            });
            if !a && !b {
                // The common case: no lane completes a box along this edge.
                for (best, &child) in best.iter_mut().zip(children) {
                    *best = (*best).max(child.wrapping_neg());
                }
            } else {
                let gains = &lanes.gains[edge as usize][usize::from(a) | usize::from(b) << 1];
                for ((best, &child), &gain) in best.iter_mut().zip(children).zip(gains) {
                    *best = (*best).max(through(gain, child));
                }
            }
        }

        // Moves along lane edges lead to lanes of this group.
        for &lane in &lanes.order {
            let drawn = drawn | lane as Edges;
            let mut free = !drawn & lane_edges & dots.full();
            let mut value = best[lane];
            while free != 0 {
                let edge = free.trailing_zeros();
                free &= free - 1;
                let [a, b] = rest[edge as usize];
                let gain = i8::from(drawn & a == a) + i8::from(drawn & b == b);
                value = value.max(through(gain, group[lane | 1 << edge]));
            }
            // No move at all: every edge is drawn and the game is over.
            group[lane] = if value == i8::MIN { 0 } else { value };
        }
    }
}

/// An FNV-1a hash of every mask's score in mask order, as
/// `scripts/dots-loop.c` prints it for the same board: the two agree on every
/// mask when their hashes do.
pub fn scores_hash(scores: &[i8]) -> u64 {
    scores.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &score| {
        (hash ^ u64::from(score as u8)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The table code of a solved score.
pub fn score_code(score: i8) -> u16 {
    Value::Score(i64::from(score)).code()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve_layered;

    #[test]
    fn agrees_with_the_generic_layered_solver_on_small_boards() {
        for (rows, cols) in [
            (1, 1),
            (1, 2),
            (2, 1),
            (1, 3),
            (2, 2),
            (2, 3),
            (3, 2),
            (1, 5),
        ] {
            let dots = Dots::new(rows, cols).unwrap();
            let fast: Vec<u16> = solve_dots(&dots, &Progress::hidden())
                .into_iter()
                .map(score_code)
                .collect();
            let generic = solve_layered(&dots, &dots, 0, &Progress::hidden());
            assert!(fast == generic, "{rows}x{cols}");
        }
    }
}
