//! Zeckendorf representations: every whole number is one way a sum of
//! non-consecutive Fibonacci numbers. Fibonacci Nim is decided by the smallest
//! part, and Wythoff's losing pairs are read off the representation too, in exact
//! integer arithmetic for every 64-bit number.
//!
//! Fibonacci numbers are indexed from `F(2) = 1`, `F(3) = 2`, `F(4) = 3`, ...
//! (the index the Wythoff identities below are stated in).

/// `FIB[i]` is `F(i)`, from `F(0) = 0` up to `F(94)`, the first beyond `u64`.
const FIB: [u128; 95] = {
    let mut fib = [0u128; 95];
    fib[1] = 1;
    let mut i = 2;
    while i < 95 {
        fib[i] = fib[i - 1] + fib[i - 2];
        i += 1;
    }
    fib
};

/// `F(i)`, for `i` up to 94.
pub fn fibonacci(i: usize) -> u128 {
    FIB[i]
}

/// Whether `n` is a Fibonacci number (1, 2, 3, 5, 8, ...).
pub fn is_fibonacci(n: u64) -> bool {
    FIB[2..].contains(&u128::from(n))
}

/// The indices of `n`'s Zeckendorf parts, largest first (empty for 0): greedily
/// the largest Fibonacci number that fits, which never takes two neighbours.
pub fn parts(n: u64) -> Vec<usize> {
    let mut left = u128::from(n);
    let mut parts = Vec::new();
    for i in (2..FIB.len()).rev() {
        if FIB[i] <= left {
            parts.push(i);
            left -= FIB[i];
        }
    }
    parts
}

/// The smallest Zeckendorf part of `n` (for `n` at least 1).
pub fn smallest_part(n: u64) -> u64 {
    let i = *parts(n).last().expect("n is at least 1");
    FIB[i] as u64
}

/// Each part moved `by` places up the sequence (down where `by` is negative).
fn shifted(n: u64, by: isize) -> u128 {
    parts(n)
        .into_iter()
        .map(|i| FIB[i.checked_add_signed(by).expect("index stays at least 1")])
        .sum()
}

/// `floor(n * phi)`, the n-th lower Wythoff number, exactly: each part moved one
/// place up, less 1 when the smallest part has an even index.
pub fn floor_phi(n: u64) -> u128 {
    match parts(n).last() {
        None => 0,
        Some(&i) => shifted(n, 1) - u128::from(i % 2 == 0),
    }
}

/// The other number of `n`'s Wythoff pair: each positive whole number is in
/// exactly one pair `(floor(k phi), floor(k phi) + k)`; 0 pairs with 0. A lower
/// number (smallest part of even index) pairs with its parts moved up, an upper
/// one with its parts moved down.
pub fn wythoff_partner(n: u64) -> u128 {
    match parts(n).last() {
        None => 0,
        Some(&i) if i % 2 == 0 => shifted(n, 1),
        Some(_) => shifted(n, -1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `floor(n phi) = (n + isqrt(5 n^2)) / 2`, since `sqrt(5) n` is irrational.
    fn floor_phi_by_root(n: u64) -> u128 {
        let n = u128::from(n);
        (n + (5 * n * n).isqrt()) / 2
    }

    #[test]
    fn parts_are_greedy_and_never_neighbours() {
        assert_eq!(parts(0), Vec::<usize>::new());
        assert_eq!(parts(4), [4, 2]);
        assert_eq!(parts(100), [11, 6, 4]);
        for n in [1, 17, 1000, u64::MAX] {
            let p = parts(n);
            assert_eq!(p.iter().map(|&i| FIB[i]).sum::<u128>(), u128::from(n));
            assert!(p.windows(2).all(|w| w[0] >= w[1] + 2), "{n}: {p:?}");
        }
        assert_eq!(FIB[93], 12_200_160_415_121_876_738);
        assert!(is_fibonacci(12_200_160_415_121_876_738));
        assert!(!is_fibonacci(4) && is_fibonacci(13) && !is_fibonacci(0));
    }

    #[test]
    fn floor_phi_agrees_with_the_square_root_formula() {
        for n in 0..100_000 {
            assert_eq!(floor_phi(n), floor_phi_by_root(n), "{n}");
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // 5 n^2 fits in u128 below 2^62.
            let n = x >> 2;
            assert_eq!(floor_phi(n), floor_phi_by_root(n), "{n}");
        }
    }

    #[test]
    fn partners_are_the_wythoff_pairs() {
        // (0,0), (1,2), (3,5), (4,7), (6,10), (8,13), (9,15), (11,18), (12,20).
        let pairs = [
            (1, 2),
            (3, 5),
            (4, 7),
            (6, 10),
            (8, 13),
            (9, 15),
            (11, 18),
            (12, 20),
        ];
        for (k, (a, b)) in pairs.into_iter().enumerate() {
            assert_eq!(floor_phi(k as u64 + 1), a);
            assert_eq!(wythoff_partner(a as u64), b);
            assert_eq!(wythoff_partner(b as u64), a);
        }
        assert_eq!(wythoff_partner(0), 0);
        for n in 1..10_000u64 {
            let m = wythoff_partner(n) as u64;
            assert_eq!(wythoff_partner(m), u128::from(n), "{n}");
            let (low, high) = (n.min(m), n.max(m));
            assert_eq!(floor_phi(high - low), u128::from(low), "{n}");
        }
    }
}
