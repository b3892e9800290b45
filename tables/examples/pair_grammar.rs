//! How small one lane of WDL50 values gets under three coders, in each order
//! of its index's fields: zstd at levels 9 and 19 in blocks of 65,536 values
//! (the table format's coder and its strongest level), and a pair grammar
//! with Huffman codes, the technique of Syzygy's files. It weighs the coder
//! apart from the rest of the format (`docs/file-format.md`).
//!
//! `cargo run --release -p tables --example pair_grammar -- FILE RADICES [ORDER]`
//!
//! - FILE: one lane as the `query` example `wdl_bytes DIR ENDING OUT` writes
//!   it, a byte a slot: 0 empty, 1-5 a category (loss .. win), plus 8 where
//!   any category no better may be stored.
//! - RADICES: the index's fields, slowest first, as `wdl_bytes` prints them
//!   (`462,64,64` for a 4-piece ending).
//! - ORDER: the fields as stored, slowest first (`0,2,1`); every order when
//!   left out. `ZSTD=0` skips the zstd figures (level 19 is slow).
//!
//! For zstd and the first grammar, slots that may hold more than one category
//! take the one before them if they may, else the next fixed one if they may,
//! else the best they may. The second grammar leaves them open as Syzygy's
//! generator does: a run of them takes a neighbour's category where the whole
//! run may, a run longer than 5 that cannot takes the best it may, and the
//! rest stay wildcards that a pair of the grammar matches wherever they may
//! hold its category (a wildcard no pair takes is coded as the best it may).
//! A grammar replaces, round after round, the most frequent pairs of adjacent
//! symbols (up to 64 a round, none sharing a symbol with a more frequent one,
//! each at least 4 times), up to 4,096 symbols of at most 256 values; its
//! estimate is the Huffman-coded symbols, 2 bytes for each block of 1,024
//! coded bytes, and 3 bytes a rule.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The most symbols the grammar makes, values included.
const SYMBOLS: usize = 4096;
/// The most values one symbol stands for.
const LONGEST: u32 = 256;
/// The most rules one round adds.
const ROUND: usize = 64;
/// The fewest occurrences that make a pair a rule.
const MIN_COUNT: u32 = 4;
/// Coded bytes a block holds, and what each block's entry in the index costs.
const BLOCK_BYTES: u64 = 1024;
const BLOCK_ENTRY: u64 = 2;
/// Bytes a rule takes in the dictionary: two 12-bit symbols.
const RULE_BYTES: u64 = 3;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (file, radices, order) = match &args[..] {
        [_, file, radices] => (file, radices, None),
        [_, file, radices, order] => (file, radices, Some(order)),
        _ => return Err("usage: pair_grammar FILE RADICES [ORDER]".into()),
    };
    let numbers = |text: &str| -> Result<Vec<usize>, String> {
        text.split(',')
            .map(|n| n.parse().map_err(|e| format!("{n}: {e}")))
            .collect()
    };
    let radices = numbers(radices)?;
    let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    if radices.iter().product::<usize>() != bytes.len() {
        return Err(format!(
            "{file}: {} bytes, not the product of {radices:?}",
            bytes.len()
        ));
    }
    let allowed: Vec<u8> = bytes
        .iter()
        .map(|&b| allowed(b))
        .collect::<Result<_, _>>()?;
    let orders = match order {
        Some(order) => vec![numbers(order)?],
        None => orders(radices.len()),
    };
    let fields: Vec<usize> = (0..radices.len()).collect();
    for order in &orders {
        let mut sorted = order.clone();
        sorted.sort_unstable();
        if sorted != fields {
            return Err(format!("order {order:?} is not one of fields {fields:?}"));
        }
    }
    let with_zstd = std::env::var("ZSTD").map_or(true, |v| v != "0");
    println!("order\tzstd 9\tzstd 19\tpairs, filled\tpairs, wildcards");
    for order in orders {
        let lane = reorder(&allowed, &radices, &order);
        let values = fill(&lane);
        let (nine, nineteen) = match with_zstd {
            true => (zstd_blocks(&values, 9), zstd_blocks(&values, 19)),
            false => (0, 0),
        };
        let filled = Grammar::build(values.iter().map(|&v| u16::from(v)).collect());
        let open = Grammar::build(open_runs(&lane));
        println!(
            "{order:?}\t{nine}\t{nineteen}\t{}\t{}",
            filled.bytes(),
            open.bytes()
        );
    }
    Ok(())
}

/// The categories (bits 0-4: loss .. win) a slot may hold.
fn allowed(byte: u8) -> Result<u8, String> {
    match (byte & 7, byte & 8 != 0) {
        (0, _) => Ok(0b11111),
        (c @ 1..=5, false) => Ok(1 << (c - 1)),
        (c @ 1..=5, true) => Ok((1 << c) - 1),
        _ => Err(format!("byte {byte} is not a slot's category")),
    }
}

/// Every order of `n` fields.
fn orders(n: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let fields: Vec<u8> = (0..n as u8).collect();
    tables::permutations(&fields, &mut |order| {
        all.push(order.iter().map(|&f| usize::from(f)).collect())
    });
    all
}

/// The lane's slots in the order that stores `order[0]` slowest.
fn reorder(lane: &[u8], radices: &[usize], order: &[usize]) -> Vec<u8> {
    let mut stride = vec![1; radices.len()];
    for field in (0..radices.len().saturating_sub(1)).rev() {
        stride[field] = stride[field + 1] * radices[field + 1];
    }
    let mut digits = vec![0; radices.len()];
    let mut out = Vec::with_capacity(lane.len());
    for _ in 0..lane.len() {
        out.push(
            lane[digits
                .iter()
                .zip(&stride)
                .map(|(d, s)| d * s)
                .sum::<usize>()],
        );
        for &field in order.iter().rev() {
            digits[field] += 1;
            if digits[field] < radices[field] {
                break;
            }
            digits[field] = 0;
        }
    }
    out
}

/// One category a slot: its own, or for a slot that may hold several, the
/// one before it, else the next fixed one, else the best it may.
fn fill(allowed: &[u8]) -> Vec<u8> {
    let mut next_fixed = vec![None; allowed.len() + 1];
    for i in (0..allowed.len()).rev() {
        next_fixed[i] = match allowed[i].count_ones() {
            1 => Some(allowed[i].trailing_zeros() as u8),
            _ => next_fixed[i + 1],
        };
    }
    let may = |mask: u8, value: Option<u8>| value.filter(|&v| mask & (1 << v) != 0);
    let mut values: Vec<u8> = Vec::with_capacity(allowed.len());
    for (i, &mask) in allowed.iter().enumerate() {
        let value = may(mask, values.last().copied())
            .or_else(|| may(mask, next_fixed[i]))
            .unwrap_or(7 - mask.leading_zeros() as u8);
        values.push(value);
    }
    values
}

/// The categories, 0-4, are the first symbols; then a wildcard for each
/// category, that may hold it or any worse one.
const CATEGORIES: u16 = 5;
const FIRST_RULE: u16 = 2 * CATEGORIES;

/// Whether `symbol` is a wildcard.
fn wildcard(symbol: u16) -> bool {
    (CATEGORIES..FIRST_RULE).contains(&symbol)
}

/// The categories symbol `symbol` may stand for, as bits; 0 for a rule.
fn may_hold(symbol: u16) -> u8 {
    match symbol {
        s if s < CATEGORIES => 1 << s,
        s if s < FIRST_RULE => (1 << (s - CATEGORIES + 1)) - 1,
        _ => 0,
    }
}

/// The slots as symbols with runs of open slots resolved as far as their
/// neighbours allow, the rest wildcards.
fn open_runs(allowed: &[u8]) -> Vec<u16> {
    let fixed = |mask: u8| (mask.count_ones() == 1).then(|| mask.trailing_zeros() as u16);
    // An open slot may hold every category up to its best.
    let best = |mask: u8| 7 - mask.leading_zeros() as u16;
    let mut symbols: Vec<u16> = allowed
        .iter()
        .map(|&mask| fixed(mask).unwrap_or(CATEGORIES + best(mask)))
        .collect();
    let mut start = 0;
    while start < symbols.len() {
        if symbols[start] < CATEGORIES {
            start += 1;
            continue;
        }
        let end = (start..symbols.len())
            .find(|&i| symbols[i] < CATEGORIES)
            .unwrap_or(symbols.len());
        let run = symbols[start..end]
            .iter()
            .fold(0xff, |m, &s| m & may_hold(s));
        let fits = |at: Option<usize>| at.map(|i| symbols[i]).filter(|&c| run & (1 << c) != 0);
        let with = fits(start.checked_sub(1))
            .or_else(|| fits(Some(end).filter(|&e| e < symbols.len())))
            .or_else(|| (end - start > 5).then(|| best(run)));
        if let Some(category) = with {
            symbols[start..end].fill(category);
        }
        start = end;
    }
    symbols
}

/// Bytes of `values` compressed in blocks of 65,536 at `level`.
fn zstd_blocks(values: &[u8], level: i32) -> usize {
    values
        .chunks(1 << 16)
        .map(|block| zstd::bulk::compress(block, level).expect("zstd").len())
        .sum()
}

/// A pair grammar over a stream of symbols, with what it leaves.
struct Grammar {
    stream: Vec<u16>,
    symbols: usize,
    rules: usize,
}

impl Grammar {
    /// Replaces frequent pairs round after round; a wildcard counts toward
    /// and is taken by every pair whose category it may hold.
    fn build(mut stream: Vec<u16>) -> Grammar {
        let mut length = vec![1u32; SYMBOLS];
        let mut counts = vec![0u32; SYMBOLS * SYMBOLS];
        let mut rule = vec![0u16; SYMBOLS * SYMBOLS];
        let at = |a: u16, b: u16| usize::from(a) * SYMBOLS + usize::from(b);
        // The symbols in the stream that a pair's side `x` matches.
        let matching = |x: u16| -> Vec<u16> {
            match x < CATEGORIES {
                true => (0..FIRST_RULE)
                    .filter(|&w| may_hold(w) & (1 << x) != 0)
                    .collect(),
                false => vec![x],
            }
        };
        let mut symbols = usize::from(FIRST_RULE);
        while symbols < SYMBOLS {
            counts.iter_mut().for_each(|c| *c = 0);
            for pair in stream.windows(2) {
                counts[at(pair[0], pair[1])] += 1;
            }
            let sides: Vec<u16> = (0..symbols as u16).filter(|&x| !wildcard(x)).collect();
            let matches: Vec<Vec<u16>> = (0..symbols as u16).map(matching).collect();
            let mut candidates: Vec<(u32, u16, u16)> = Vec::new();
            for &a in &sides {
                for &b in &sides {
                    if length[usize::from(a)] + length[usize::from(b)] > LONGEST {
                        continue;
                    }
                    let count: u32 = matches[usize::from(a)]
                        .iter()
                        .flat_map(|&x| matches[usize::from(b)].iter().map(move |&y| (x, y)))
                        .map(|(x, y)| counts[at(x, y)])
                        .sum();
                    if count >= MIN_COUNT {
                        candidates.push((count, a, b));
                    }
                }
            }
            candidates.sort_unstable_by_key(|&(count, a, b)| (Reverse(count), a, b));
            let mut chosen: Vec<(u16, u16)> = Vec::new();
            for &(_, a, b) in &candidates {
                if chosen.len() == ROUND || symbols == SYMBOLS {
                    break;
                }
                // A pair that overlaps a more frequent one waits a round.
                if chosen.iter().any(|&(x, y)| b == x || a == y) {
                    continue;
                }
                chosen.push((a, b));
                for &x in &matches[usize::from(a)] {
                    for &y in &matches[usize::from(b)] {
                        // The more frequent pair keeps a wildcard it matches.
                        if rule[at(x, y)] == 0 {
                            rule[at(x, y)] = symbols as u16;
                        }
                    }
                }
                length[symbols] = length[usize::from(a)] + length[usize::from(b)];
                symbols += 1;
            }
            if chosen.is_empty() {
                break;
            }
            let mut shorter = Vec::with_capacity(stream.len());
            let mut i = 0;
            while i < stream.len() {
                match stream.get(i + 1).map(|&b| rule[at(stream[i], b)]) {
                    Some(symbol) if symbol != 0 => {
                        shorter.push(symbol);
                        i += 2;
                    }
                    _ => {
                        shorter.push(stream[i]);
                        i += 1;
                    }
                }
            }
            rule.iter_mut().for_each(|r| *r = 0);
            stream = shorter;
        }
        Grammar {
            stream,
            symbols,
            rules: symbols - usize::from(FIRST_RULE),
        }
    }

    /// Bytes of the stream in Huffman codes, in blocks, with the rules.
    fn bytes(&self) -> u64 {
        let mut counts = vec![0u64; self.symbols];
        for &symbol in &self.stream {
            // A wildcard left over is coded as the best category it may hold.
            let coded = match wildcard(symbol) {
                true => symbol - CATEGORIES,
                false => symbol,
            };
            counts[usize::from(coded)] += 1;
        }
        let coded = huffman_bits(&counts).div_ceil(8);
        coded + coded.div_ceil(BLOCK_BYTES) * BLOCK_ENTRY + self.rules as u64 * RULE_BYTES
    }
}

/// Bits of a Huffman code of symbols with these counts.
fn huffman_bits(counts: &[u64]) -> u64 {
    let mut heap: BinaryHeap<Reverse<u64>> = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| Reverse(c))
        .collect();
    if heap.len() == 1 {
        return counts.iter().sum();
    }
    // Each merge adds one bit to every symbol under it: its count.
    let mut bits = 0;
    while let (Some(Reverse(a)), Some(Reverse(b))) = (heap.pop(), heap.pop()) {
        bits += a + b;
        heap.push(Reverse(a + b));
    }
    bits
}
