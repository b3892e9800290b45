//! Grundy values of heap games: Kayles, Dawson's Kayles, Grundy's game and Lasker's
//! Nim. A position made of many heaps is won by the mover exactly when the xor of
//! the heaps' Grundy values is not 0 (Sprague-Grundy), and a winning move turns one
//! heap into heaps whose values make the xor 0.

use crate::game::GameError;
use crate::nim::parse_heaps;

/// The encoding tag of Grundy-value tables: slot `n` holds the value of a heap of
/// `n` plus one (0 marks no position, as in every table).
pub const GRUNDY_ENCODING: &str = "grundy16";

/// A heap game whose moves turn one heap into at most two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeapGame {
    /// Knock down one pin or two adjacent pins from a row: the rest may split in two.
    Kayles,
    /// Knock down exactly two adjacent pins (Dawson's chess on n - 1 files).
    Dawson,
    /// Split a heap into two heaps of different sizes.
    Grundy,
    /// Take any number from a heap, or split a heap into two non-empty heaps.
    Lasker,
}

/// Every heap game, for listings.
pub const HEAP_GAMES: [HeapGame; 4] = [
    HeapGame::Kayles,
    HeapGame::Dawson,
    HeapGame::Grundy,
    HeapGame::Lasker,
];

/// One move: heap `heap` (0-based) becomes the heaps `left` and `right` (0 means no
/// heap), after `removed` stones or pins are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub heap: usize,
    pub removed: u64,
    pub left: u64,
    pub right: u64,
}

impl Split {
    /// Heaps counted from 1: `h2-3` takes 3 from the end of heap 2, `h2-1:4+6`
    /// takes 1 leaving heaps of 4 and 6, `h2:4+6` splits heap 2 into 4 and 6.
    pub fn write(self) -> String {
        let heap = self.heap + 1;
        match (self.removed, self.left) {
            (0, left) => format!("h{heap}:{left}+{}", self.right),
            (removed, 0) => format!("h{heap}-{removed}"),
            (removed, left) => format!("h{heap}-{removed}:{left}+{}", self.right),
        }
    }
}

impl HeapGame {
    pub fn id(self) -> &'static str {
        match self {
            HeapGame::Kayles => "kayles",
            HeapGame::Dawson => "dawson",
            HeapGame::Grundy => "grundy",
            HeapGame::Lasker => "lasker",
        }
    }

    pub fn from_id(id: &str) -> Option<HeapGame> {
        HEAP_GAMES.into_iter().find(|g| g.id() == id)
    }

    /// The heaps a heap of `n` can become, as `(removed, left, right)` with
    /// `left <= right` (each unordered result once; 0 = no heap).
    pub fn options(self, n: u64) -> Vec<(u64, u64, u64)> {
        let split = |removed: u64| {
            let rest = n - removed;
            (0..=rest / 2).map(move |a| (removed, a, rest - a))
        };
        match self {
            HeapGame::Kayles => (1..=2.min(n)).flat_map(split).collect(),
            HeapGame::Dawson if n >= 2 => split(2).collect(),
            HeapGame::Dawson => Vec::new(),
            HeapGame::Grundy => (1..n.div_ceil(2)).map(|a| (0, a, n - a)).collect(),
            HeapGame::Lasker => (1..=n)
                .map(|k| (k, 0, n - k))
                .chain((1..=n / 2).map(|a| (0, a, n - a)))
                .collect(),
        }
    }

    /// The Grundy values of heaps `0..=limit`, by the mex rule.
    pub fn sequence(self, limit: u64) -> Vec<u32> {
        let mut values: Vec<u32> = Vec::with_capacity(limit as usize + 1);
        let mut seen: Vec<u64> = Vec::new();
        let mut largest = 0u32;
        for n in 0..=limit {
            seen.clear();
            seen.resize(largest as usize / 32 + 2, 0);
            let mut mark = |v: u32| seen[v as usize / 64] |= 1 << (v % 64);
            let g = |h: u64| values[h as usize];
            match self {
                HeapGame::Kayles | HeapGame::Dawson => {
                    let removals: &[u64] = if self == HeapGame::Kayles {
                        &[1, 2]
                    } else {
                        &[2]
                    };
                    for &k in removals.iter().filter(|&&k| k <= n) {
                        let rest = (n - k) as usize;
                        // The hot loop of long sequences: pairs (a, rest - a).
                        for (x, y) in values[..=rest / 2]
                            .iter()
                            .zip(values[rest / 2..=rest].iter().rev())
                        {
                            mark(x ^ y);
                        }
                    }
                }
                _ => {
                    for (_, a, b) in self.options(n) {
                        mark(g(a) ^ g(b));
                    }
                }
            }
            let mex = seen
                .iter()
                .enumerate()
                .find(|(_, w)| **w != u64::MAX)
                .map(|(i, w)| i as u32 * 64 + w.trailing_ones())
                .expect("the words cover one value past the largest");
            largest = largest.max(mex);
            values.push(mex);
        }
        values
    }

    /// The closed formula, where one is known (Lasker's Nim: heaps 4k+3 and 4k+4
    /// swap values, the rest keep their size).
    pub fn formula(self, n: u64) -> Option<u64> {
        match self {
            HeapGame::Lasker => Some(match n % 4 {
                3 => n + 1,
                0 if n > 0 => n - 1,
                _ => n,
            }),
            _ => None,
        }
    }
}

/// The smallest period, with the first `n` from which it holds, such that
/// `values[n] == values[n + period]` for every `n >= start` within `values`,
/// counting only periods that hold over at least the second half of `values`.
pub fn ultimate_period(values: &[u32]) -> Option<(usize, usize)> {
    let len = values.len();
    (1..=len / 3)
        .filter_map(|p| {
            // The first n from which the period holds to the end.
            let mut start = len - p;
            while start > 0 && values[start - 1] == values[start - 1 + p] {
                start -= 1;
            }
            (start <= len / 2).then_some((start, p))
        })
        .min_by_key(|&(start, p)| (p, start))
}

/// The answer for a position of several heaps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapVerdict {
    pub nim_sum: u64,
    pub heap_values: Vec<u64>,
    pub winning_moves: Vec<Split>,
}

/// Answers `heaps` given the Grundy values `values` (which must cover every heap).
pub fn heap_verdict(game: HeapGame, heaps: &[u64], values: &[u32]) -> HeapVerdict {
    let g = |h: u64| u64::from(values[h as usize]);
    let heap_values: Vec<u64> = heaps.iter().map(|&h| g(h)).collect();
    let nim_sum = heap_values.iter().fold(0, |x, v| x ^ v);
    let mut winning_moves = Vec::new();
    if nim_sum != 0 {
        for (i, (&h, &v)) in heaps.iter().zip(&heap_values).enumerate() {
            let want = nim_sum ^ v;
            for (removed, left, right) in game.options(h) {
                if g(left) ^ g(right) == want {
                    winning_moves.push(Split {
                        heap: i,
                        removed,
                        left,
                        right,
                    });
                }
            }
        }
    }
    HeapVerdict {
        nim_sum,
        heap_values,
        winning_moves,
    }
}

/// Reads heaps for a heap game, refusing any larger than `limit`.
pub fn parse_limited(text: &str, limit: u64) -> Result<Vec<u64>, GameError> {
    let heaps = parse_heaps(text)?;
    if let Some(big) = heaps.iter().find(|&&h| h > limit) {
        return Err(GameError::position(
            text,
            format!("heap {big} is beyond the Grundy table (heaps up to {limit})"),
        ));
    }
    Ok(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_start_as_published() {
        // OEIS A002186 (Kayles), A002187 (Dawson's Kayles: 0.07), A002188 (Grundy's game).
        let kayles = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
        ];
        let dawson = [
            0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1,
        ];
        let grundy = [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0,
        ];
        assert_eq!(HeapGame::Kayles.sequence(23), kayles);
        assert_eq!(HeapGame::Dawson.sequence(23), dawson);
        assert_eq!(HeapGame::Grundy.sequence(23), grundy);
    }

    #[test]
    fn grundys_game_has_its_published_losing_heaps() {
        // The heaps from which the mover loses Grundy's game: 1,222 is the last one
        // known (none up to 2^35, by published computation).
        let values = HeapGame::Grundy.sequence(3_000);
        let zeros: Vec<usize> = (0..values.len()).filter(|&n| values[n] == 0).collect();
        assert_eq!(zeros.len(), 42);
        assert_eq!(zeros[..12], [0, 1, 2, 4, 7, 10, 20, 23, 26, 50, 53, 270]);
        assert_eq!(zeros.last(), Some(&1222));
    }

    #[test]
    fn lasker_matches_its_formula() {
        for (n, v) in HeapGame::Lasker.sequence(400).into_iter().enumerate() {
            assert_eq!(
                Some(u64::from(v)),
                HeapGame::Lasker.formula(n as u64),
                "{n}"
            );
        }
    }

    #[test]
    fn kayles_and_dawson_become_periodic() {
        let kayles = HeapGame::Kayles.sequence(2_000);
        assert_eq!(ultimate_period(&kayles), Some((71, 12)));
        let dawson = HeapGame::Dawson.sequence(2_000);
        // Dawson's Kayles on n pins is Dawson's chess on n - 1 files: periodic
        // with period 34 from 52 files on.
        assert_eq!(ultimate_period(&dawson), Some((53, 34)));
    }

    #[test]
    fn winning_moves_leave_a_zero_nim_sum() {
        let values = HeapGame::Kayles.sequence(40);
        let v = heap_verdict(HeapGame::Kayles, &[7, 12, 30], &values);
        assert_ne!(v.nim_sum, 0);
        assert!(!v.winning_moves.is_empty());
        for m in &v.winning_moves {
            let mut heaps = vec![7u64, 12, 30];
            heaps[m.heap] = m.left;
            heaps.push(m.right);
            assert_eq!(heap_verdict(HeapGame::Kayles, &heaps, &values).nim_sum, 0);
        }
        assert!(parse_limited("3 41", 40).is_err());
    }
}
