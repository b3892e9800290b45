//! Dense ranks of `k`-tuples of whole numbers whose sum is at most a limit, in
//! lexicographic order: the slots of games whose moves keep a total (Poker Nim's
//! chips on the heaps and in the reserves).

/// The tuples of `len` whole numbers summing to at most `limit`.
#[derive(Debug, Clone)]
pub struct BoundedTuples {
    len: usize,
    limit: u64,
}

/// `C(n, k)`, for the small arguments here.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

impl BoundedTuples {
    pub fn new(len: usize, limit: u64) -> Self {
        BoundedTuples { len, limit }
    }

    /// Tuples of `len` parts summing to at most `sum`: `C(sum + len, len)`.
    fn count(len: usize, sum: u64) -> u64 {
        choose(sum + len as u64, len as u64)
    }

    pub fn size(&self) -> u64 {
        Self::count(self.len, self.limit)
    }

    /// The rank of `tuple` (of length `len`, summing to at most `limit`).
    pub fn rank(&self, tuple: &[u64]) -> u64 {
        let mut left = self.limit;
        let mut rank = 0;
        for (i, &part) in tuple.iter().enumerate() {
            let rest = self.len - i - 1;
            // Tuples with a smaller value here come first.
            rank += (0..part).map(|v| Self::count(rest, left - v)).sum::<u64>();
            left -= part;
        }
        rank
    }

    pub fn unrank(&self, mut rank: u64) -> Vec<u64> {
        let mut left = self.limit;
        let mut tuple = Vec::with_capacity(self.len);
        for i in 0..self.len {
            let rest = self.len - i - 1;
            let mut part = 0;
            while rank >= Self::count(rest, left - part) {
                rank -= Self::count(rest, left - part);
                part += 1;
            }
            tuple.push(part);
            left -= part;
        }
        tuple
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_in_order() {
        let tuples = BoundedTuples::new(3, 4);
        assert_eq!(tuples.size(), 35);
        let mut previous: Option<Vec<u64>> = None;
        for rank in 0..tuples.size() {
            let tuple = tuples.unrank(rank);
            assert!(tuple.iter().sum::<u64>() <= 4);
            assert_eq!(tuples.rank(&tuple), rank);
            assert!(previous.is_none_or(|p| p < tuple));
            previous = Some(tuple);
        }
        assert_eq!(BoundedTuples::new(5, 35).size(), 658_008);
    }
}
