//! The 8 symmetries of the 4x4 square (rotations and reflections) acting on cell
//! bit masks (bit `row * 4 + col`).

use crate::grid::{CELLS, SIZE};
use std::sync::OnceLock;

/// A symmetry as a permutation of cells: cell `c` goes to `map[c]`.
type CellMap = [u8; CELLS];

/// A symmetry on coordinates: `(row, col, SIZE - 1) -> (row, col)`.
type Transform = fn(usize, usize, usize) -> (usize, usize);

fn cell_maps() -> &'static [CellMap; 8] {
    static MAPS: OnceLock<[CellMap; 8]> = OnceLock::new();
    MAPS.get_or_init(|| {
        let n = SIZE - 1;
        let transforms: [Transform; 8] = [
            |r, c, _| (r, c),
            |r, c, n| (c, n - r),
            |r, c, n| (n - r, n - c),
            |r, c, n| (n - c, r),
            |r, c, n| (r, n - c),
            |r, c, n| (n - r, c),
            |r, c, _| (c, r),
            |r, c, n| (n - c, n - r),
        ];
        transforms.map(|t| {
            std::array::from_fn(|cell| {
                let (r, c) = t(cell / SIZE, cell % SIZE, n);
                (r * SIZE + c) as u8
            })
        })
    })
}

/// For each symmetry, the image of every possible low byte and high byte of a mask.
type ByteImages = [[[u16; 256]; 2]; 8];

fn byte_images() -> &'static ByteImages {
    static IMAGES: OnceLock<Box<ByteImages>> = OnceLock::new();
    IMAGES.get_or_init(|| {
        let mut images = Box::new([[[0u16; 256]; 2]; 8]);
        for (s, map) in cell_maps().iter().enumerate() {
            for half in 0..2 {
                for byte in 0..256usize {
                    images[s][half][byte] = (0..8)
                        .filter(|bit| byte & (1 << bit) != 0)
                        .fold(0, |m, bit| m | 1 << map[half * 8 + bit]);
                }
            }
        }
        images
    })
}

/// Applies symmetry `s` (0..8; 0 is the identity) to a mask of cells.
pub fn apply(s: usize, mask: u16) -> u16 {
    let images = &byte_images()[s];
    images[0][usize::from(mask as u8)] | images[1][usize::from(mask >> 8)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_tables_match_the_cell_maps() {
        for (s, map) in cell_maps().iter().enumerate() {
            for mask in (0..=u16::MAX).step_by(251) {
                let slow = (0..CELLS)
                    .filter(|&c| mask & (1 << c) != 0)
                    .fold(0u16, |m, c| m | 1 << map[c]);
                assert_eq!(apply(s, mask), slow);
            }
        }
    }

    #[test]
    fn symmetries_are_eight_distinct_permutations_forming_a_group() {
        let corner_and_edge = 0b11u16; // a1, b1: no symmetry fixes this pair
        let images: std::collections::HashSet<u16> =
            (0..8).map(|s| apply(s, corner_and_edge)).collect();
        assert_eq!(images.len(), 8);
        for s in 0..8 {
            for mask in [1u16, 0b1010_0000_0101_0011, u16::MAX] {
                assert_eq!(apply(s, mask).count_ones(), mask.count_ones());
                // Closed under composition: applying s twice is again one of the 8.
                let twice = apply(s, apply(s, mask));
                assert!((0..8).any(|t| apply(t, mask) == twice));
            }
        }
    }
}
