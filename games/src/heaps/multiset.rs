//! Dense ranks of multisets: `count` items, each a value in `0..values`, order
//! ignored. Used where a position is a collection of interchangeable parts (Nim
//! heaps, Northcott columns), so that all orderings share one table slot.
//!
//! A multiset sorted non-increasing, `v[0] >= v[1] >= ...`, becomes the strictly
//! decreasing `v[i] + (count - 1 - i)`, a combination of `count` numbers below
//! `values + count - 1`, ranked by the combinatorial number system.

/// `n` choose `k`, exact for every table size used here (saturates on overflow).
pub fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Ranks multisets of `count` values below `values`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Multisets {
    count: usize,
    values: u64,
}

impl Multisets {
    pub fn new(count: usize, values: u64) -> Self {
        assert!(values > 0, "at least one value");
        Multisets { count, values }
    }

    /// How many multisets there are.
    pub fn size(&self) -> u64 {
        binomial(self.values - 1 + self.count as u64, self.count as u64)
    }

    /// The rank of a multiset given in any order; `items.len()` must be `count`.
    pub fn rank(&self, items: &[u64]) -> u64 {
        debug_assert_eq!(items.len(), self.count);
        let mut sorted = items.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        sorted
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                debug_assert!(v < self.values);
                let k = (self.count - i) as u64;
                binomial(v + k - 1, k)
            })
            .sum()
    }

    /// The rank of heaps given in any order, empty heaps left out: the non-empty
    /// ones (at most `count`) padded with empty heaps.
    pub fn rank_heaps(&self, heaps: &[u64]) -> u64 {
        let mut items: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        items.resize(self.count, 0);
        self.rank(&items)
    }

    /// Whether the table holds `heaps`: at most `count` non-empty ones, each below
    /// `values`; if not, why not.
    pub fn covers(&self, heaps: &[u64]) -> Result<(), String> {
        let non_empty = heaps.iter().filter(|&&h| h > 0).count();
        if non_empty > self.count {
            return Err(format!(
                "{non_empty} heaps; the table holds up to {}",
                self.count
            ));
        }
        match heaps.iter().find(|&&h| h >= self.values) {
            Some(h) => Err(format!(
                "a heap of {h}; the table holds heaps of up to {}",
                self.values - 1
            )),
            None => Ok(()),
        }
    }

    /// How many orderings of its heaps the multiset of a rank stands for.
    pub fn class_size(&self, rank: u64) -> u64 {
        orderings(&self.unrank(rank))
    }

    /// The non-empty heaps of a rank, largest first.
    pub fn unrank_heaps(&self, rank: u64) -> Vec<u64> {
        let mut heaps = self.unrank(rank);
        heaps.retain(|&h| h > 0);
        heaps
    }

    /// The multiset of a rank, sorted non-increasing.
    pub fn unrank(&self, mut rank: u64) -> Vec<u64> {
        let mut items = Vec::with_capacity(self.count);
        let mut top = self.values - 1 + self.count as u64; // exclusive bound for d
        for i in 0..self.count {
            let k = (self.count - i) as u64;
            // The largest d < top with C(d, k) <= rank.
            let mut d = top - 1;
            while binomial(d, k) > rank {
                d -= 1;
            }
            rank -= binomial(d, k);
            items.push(d - (k - 1));
            top = d;
        }
        items
    }
}

/// How many distinct orderings a multiset has (the number of positions its slot
/// stands for).
pub fn orderings(items: &[u64]) -> u64 {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    let mut result = 1u64;
    let mut placed = 0u64;
    for run in sorted.chunk_by(|a, b| a == b) {
        placed += run.len() as u64;
        result = result.saturating_mul(binomial(placed, run.len() as u64));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_invert() {
        for (count, values) in [(1, 5), (3, 4), (6, 16), (4, 7)] {
            let m = Multisets::new(count, values);
            for rank in 0..m.size() {
                let items = m.unrank(rank);
                assert!(items.windows(2).all(|w| w[0] >= w[1]));
                assert_eq!(m.rank(&items), rank, "{items:?}");
            }
        }
        assert_eq!(Multisets::new(6, 16).size(), 54_264);
        assert_eq!(Multisets::new(6, 30).size(), 1_623_160);
    }

    #[test]
    fn orderings_count_distinct_permutations() {
        let m = Multisets::new(4, 9);
        assert_eq!(orderings(&[1, 1, 1, 1]), 1);
        assert_eq!(orderings(&[3, 1, 1, 0]), 12);
        assert_eq!(orderings(&[3, 2, 1, 0]), 24);
        assert_eq!(m.rank(&[0, 1, 3, 1]), m.rank(&[3, 1, 1, 0]));
    }
}
