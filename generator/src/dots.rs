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
//! - a move along one of the 6 lane edges leads to a lane of the same group with
//!   that bit set: finishing the lanes from the last down, each lane edge is
//!   one loop over the 2^e lanes just below a finished run of 2^e (the longer
//!   ones vectorised too), and each eight lanes, whose lane edges 0-2 lead
//!   from one to another, are finished together in registers.

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

/// The lane bits, and for each edge and each lane the boxes the edge completes,
/// given which of its (up to two) boxes have their edges outside the lane bits
/// drawn: `gains[edge][first | second << 1][lane]`.
struct Lanes {
    bits: u32,
    gains: Vec<[Vec<i8>; 4]>,
}

impl Lanes {
    fn new(dots: &Dots, bits: u32) -> Lanes {
        // Every board has at least 4 edges, so at least an octet of lanes.
        assert!(
            1 << bits >= OCTET,
            "{bits} lane bits: fewer lanes than an octet"
        );
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
        Lanes { bits, gains }
    }

    /// Which of the boxes `others` (an edge's boxes, by their other edges) have
    /// their edges outside the lane bits drawn in `drawn`: the index into the
    /// edge's `gains`, 0 for neither.
    fn ready(&self, others: [Edges; 2], drawn: Edges) -> usize {
        let lane_edges: Edges = (1 << self.bits) - 1;
        let [a, b] = others.map(|others| {
            let fixed = others & !lane_edges;
            drawn & fixed == fixed
        });
        usize::from(a) | usize::from(b) << 1
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
            let ready = lanes.ready(rest[edge as usize], drawn);
            if ready == 0 {
                // The common case: no lane completes a box along this edge.
                for (best, &child) in best.iter_mut().zip(children) {
                    *best = (*best).max(child.wrapping_neg());
                }
            } else {
                let gains = &lanes.gains[edge as usize][ready];
                for ((best, &child), &gain) in best.iter_mut().zip(children).zip(gains) {
                    *best = (*best).max(through(gain, child));
                }
            }
        }

        // Moves along lane edges lead to lanes of this group, with more edges
        // drawn. The lanes are finished from the last down: once lane `l` (not
        // 0) is, so are the 2^e lanes from `l` on (e the lowest bit of `l`),
        // and they are what drawing lane edge e leads to from the 2^e lanes
        // just below them. So every lane move is in one loop over 2^e lanes.
        let gains: [&[i8]; LANE_BITS as usize] = std::array::from_fn(|edge| {
            if edge >= lanes.bits as usize {
                return &[][..];
            }
            &lanes.gains[edge][lanes.ready(rest[edge], drawn)]
        });
        // Eight lanes at a time (lane edges 0-2 inside them) in registers:
        // a lane read just after a vector loop stored it stalls the loop.
        for first in (0..width).step_by(OCTET).rev() {
            finish_octet(&best, group, &gains, first);
            if first == 0 {
                break;
            }
            lane_edge(&mut best, group, &gains, first);
        }
    }
}

/// Lanes finished together by [`finish_octet`].
const OCTET: usize = 8;

/// Finishes lane `lane`: its best move, or 0 where it has none (every edge
/// drawn, the game over).
fn finish_lane(best: &[i8], group: &mut [i8], lane: usize) {
    group[lane] = if best[lane] == i8::MIN { 0 } else { best[lane] };
}

/// With lane `lane` (not 0) finished, so are the 2^e lanes from it (e its
/// lowest bit): drawing lane edge e leads to them from the 2^e lanes below.
fn lane_edge(best: &mut [i8], group: &[i8], gains: &[&[i8]], lane: usize) {
    let edge = lane.trailing_zeros() as usize;
    let below = lane - (1 << edge)..lane;
    let children = &group[lane..lane + (1 << edge)];
    for ((best, &child), &gain) in best[below.clone()]
        .iter_mut()
        .zip(children)
        .zip(&gains[edge][below])
    {
        *best = (*best).max(through(gain, child));
    }
}

/// Finishes the eight lanes from `first` (a multiple of 8), whose moves along
/// lane edges 3 and up are in `best` already: lane edges 0-2 lead from one
/// of them to another, on copies the compiler keeps in registers.
fn finish_octet(best: &[i8], group: &mut [i8], gains: &[&[i8]], first: usize) {
    let lanes = first..first + OCTET;
    let mut octet: [i8; OCTET] = best[lanes.clone()].try_into().expect("eight lanes");
    let mut done = [0i8; OCTET];
    let gains: [[i8; OCTET]; 3] =
        std::array::from_fn(|edge| gains[edge][lanes.clone()].try_into().expect("eight lanes"));
    for lane in (0..OCTET).rev() {
        finish_lane(&octet, &mut done, lane);
        if lane == 0 {
            break;
        }
        let edge = lane.trailing_zeros() as usize;
        for below in lane - (1 << edge)..lane {
            let child = done[below + (1 << edge)];
            octet[below] = octet[below].max(through(gains[edge][below], child));
        }
    }
    group[lanes].copy_from_slice(&done);
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
