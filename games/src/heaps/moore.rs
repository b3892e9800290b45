//! Moore's Nim_k: a move takes at least one stone in total from at most `k`
//! heaps, any amount from each. Whoever takes the last stone wins.
//!
//! Moore's rule (1910): the mover loses exactly when, in every binary digit, the
//! number of heaps with that digit set is divisible by `k + 1`. With `k = 1` it is
//! Nim. The winning moves are found digit by digit: for each set of at most `k`
//! heaps to take from, the digits the new sizes must carry are fixed column by
//! column, and the sizes are counted, then listed, by a digit-by-digit walk that
//! keeps each new size below the old one.
//!
//! Notation as in `nim` (`3 4 5`); a move joins single-heap takes with commas,
//! `h1-3,h4-2`, in any order on input and by heap number in answers.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Layered, Marks, Picture, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::heaps::{Take, multiset_slots, parse_heaps, split_take, stones, write_heaps};
use crate::multiset::{Multisets, binomial};
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values};
use crate::value::{Value, ValueKind};

/// The largest `--k`.
pub const MAX_K: u64 = 8;

pub static SPEC: Spec<Moore> = Spec {
    entry: Entry {
        id: "moore",
        extras: Extras::COUNTED,
        about: "Moore's Nim: take from at most k heaps at once, any amount from each; who takes the last stone wins",
        notation: "heap sizes separated by spaces or commas: 3 4 5; \
                   a move joins takes from different heaps, counted from 1: h1-3,h3-2",
        options: &[OptionSpec {
            name: "k",
            help: "the most heaps one move may take from",
            scope: Scope::Variant,
            values: Values::Range(1, MAX_K),
            default: Some("2"),
            positional: false,
        }],
        all: &[&[("k", "2")], &[("k", "3")]],
    },
    build: |options| Ok(Moore::new(options.number("k").unwrap_or(2))),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    },
    generate_options: |game, _| vec![("k", game.k.to_string())],
};

/// Heaps and heap size in the table: every multiset of 4 heaps of 0 to 15.
pub const TABLE_HEAPS: usize = 4;
pub const TABLE_HEAP: u64 = 15;
/// The most winning moves the formula lists.
pub const MOST_LISTED: u128 = 100_000;
/// The most digit steps the formula spends looking for winning moves.
const MOST_STEPS: u128 = 200_000_000;

/// A move: takes from different heaps, in heap order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Takes(pub Vec<Take>);

impl Takes {
    pub fn write(&self) -> String {
        let parts: Vec<String> = self.0.iter().map(|t| t.write()).collect();
        parts.join(",")
    }
}

#[derive(Debug, Clone)]
pub struct Moore {
    k: u64,
    slots: Multisets,
}

impl Moore {
    pub fn new(k: u64) -> Self {
        Moore {
            k: k.clamp(1, MAX_K),
            slots: Multisets::new(TABLE_HEAPS, TABLE_HEAP + 1),
        }
    }

    /// How many heaps have each binary digit set.
    fn columns(heaps: &[u64]) -> [u64; 64] {
        let mut columns = [0; 64];
        for &h in heaps {
            for (bit, column) in columns.iter_mut().enumerate() {
                *column += (h >> bit) & 1;
            }
        }
        columns
    }

    /// Moore's rule: every column divisible by `k + 1`.
    fn lost(&self, heaps: &[u64]) -> bool {
        Self::columns(heaps).iter().all(|c| c % (self.k + 1) == 0)
    }

    /// How many moves `heaps` has (saturating): for every set of at most `k`
    /// heaps, the product of their sizes. Sixteen heaps of 30 with k = 8 have
    /// about 8 * 10^15.
    fn move_count(&self, heaps: &[u64]) -> u128 {
        // by_size[j]: the sum over sets of j heaps of the product of their sizes.
        let mut by_size = vec![0u128; self.k as usize + 1];
        by_size[0] = 1;
        for &h in heaps {
            for j in (1..by_size.len()).rev() {
                by_size[j] =
                    by_size[j].saturating_add(by_size[j - 1].saturating_mul(u128::from(h)));
            }
        }
        by_size[1..].iter().fold(0, |all, &n| all.saturating_add(n))
    }

    /// The sets of at most `k` non-empty heaps, as heap numbers in order.
    fn heap_sets(&self, heaps: &[u64]) -> Vec<Vec<usize>> {
        let non_empty: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
        let mut all = Vec::new();
        // Sets of one size, as places in `non_empty`.
        let mut sized: Vec<Vec<usize>> = vec![Vec::new()];
        for _ in 0..self.k {
            sized = sized
                .iter()
                .flat_map(|set| {
                    let from = set.last().map_or(0, |&p| p + 1);
                    (from..non_empty.len()).map(move |p| [set.as_slice(), &[p]].concat())
                })
                .collect();
            all.extend(
                sized
                    .iter()
                    .map(|set| set.iter().map(|&p| non_empty[p]).collect()),
            );
        }
        all
    }

    /// The winning moves that take from exactly the heaps of `set`, counted
    /// (saturating), and listed when `list` is given.
    fn winning_on(&self, heaps: &[u64], set: &[usize], list: Option<&mut Vec<Takes>>) -> u128 {
        let m = self.k + 1;
        let mut others = Self::columns(heaps);
        for &i in set {
            for (bit, column) in others.iter_mut().enumerate() {
                *column -= (heaps[i] >> bit) & 1;
            }
        }
        // How many of the set's new sizes carry each digit.
        let need: &Vec<u32> = &others.iter().map(|c| ((m - c % m) % m) as u32).collect();
        if need.iter().any(|&n| n as usize > set.len()) {
            return 0;
        }
        let s = set.len();
        let full = (1usize << s) - 1;
        // The digits of the old sizes, as masks over the set.
        let old_digits = |bit: usize| {
            set.iter().enumerate().fold(0usize, |mask, (j, &i)| {
                mask | ((((heaps[i] >> bit) & 1) as usize) << j)
            })
        };
        // The digit masks with `n` bits that keep every still-equal size at most
        // the old one; with the still-equal mask after them.
        let steps = |bit: usize, tight: usize| {
            let old = old_digits(bit);
            (0..=full)
                .filter(move |&set_mask: &usize| {
                    set_mask.count_ones() == need[bit] && set_mask & tight & !old == 0
                })
                .map(move |set_mask| (set_mask, tight & !(old ^ set_mask)))
        };
        // ways[bit][tight]: completions of the digits below `bit` with the sizes
        // still equal to the old ones on `tight`; every size must end below.
        let mut ways = vec![vec![0u128; full + 1]; 65];
        ways[0][0] = 1;
        for bit in 0..64 {
            for tight in 0..=full {
                ways[bit + 1][tight] = steps(bit, tight)
                    .map(|(_, next)| ways[bit][next])
                    .fold(0u128, u128::saturating_add);
            }
        }
        let count = ways[64][full];
        if let Some(list) = list {
            let mut sizes = vec![0u64; s];
            walk(
                63,
                full,
                &mut sizes,
                &ways,
                &steps,
                &mut |sizes: &[u64]| {
                    let parts = set
                        .iter()
                        .zip(sizes)
                        .map(|(&heap, &size)| Take {
                            heap,
                            take: heaps[heap] - size,
                        })
                        .collect();
                    list.push(Takes(parts));
                },
            );
        }
        count
    }
}

/// Lists the new sizes digit by digit from `bit` down, following only digits
/// that lead somewhere.
fn walk<I: Iterator<Item = (usize, usize)>>(
    bit: usize,
    tight: usize,
    sizes: &mut Vec<u64>,
    ways: &[Vec<u128>],
    steps: &dyn Fn(usize, usize) -> I,
    found: &mut dyn FnMut(&[u64]),
) {
    for (set_mask, next) in steps(bit, tight) {
        if ways[bit][next] == 0 {
            continue;
        }
        for (j, size) in sizes.iter_mut().enumerate() {
            *size = (*size & !(1 << bit)) | ((((set_mask >> j) & 1) as u64) << bit);
        }
        match bit {
            0 => found(sizes),
            _ => walk(bit - 1, next, sizes, ways, steps, found),
        }
    }
}

impl Game for Moore {
    type Position = Vec<u64>;
    type Move = Takes;

    fn id(&self) -> &'static str {
        "moore"
    }

    fn variant(&self) -> String {
        format!("k{}", self.k)
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    multiset_slots!(slots);

    fn start(&self) -> Vec<u64> {
        vec![3, 5, 6, 7]
    }

    /// Every choice of at most `k` heaps, with every amount from each.
    fn moves(&self, heaps: &Vec<u64>) -> Vec<Takes> {
        let mut moves = Vec::new();
        for set in self.heap_sets(heaps) {
            let mut takes: Vec<u64> = vec![1; set.len()];
            loop {
                moves.push(Takes(
                    set.iter()
                        .zip(&takes)
                        .map(|(&heap, &take)| Take { heap, take })
                        .collect(),
                ));
                // The next amounts, like an odometer.
                let Some(j) = (0..set.len()).rev().find(|&j| takes[j] < heaps[set[j]]) else {
                    break;
                };
                takes[j] += 1;
                takes[j + 1..].fill(1);
            }
        }
        moves
    }

    fn play(&self, heaps: &Vec<u64>, mv: &Takes) -> Child<Vec<u64>> {
        let mut after = heaps.clone();
        for t in &mv.0 {
            after[t.heap] -= t.take;
        }
        Child::passing(after)
    }

    fn end_value(&self, heaps: &Vec<u64>) -> Option<Value> {
        heaps.iter().all(|&h| h == 0).then_some(Value::Loss(0))
    }

    fn why_over(&self, _heaps: &Vec<u64>) -> String {
        "no stones are left".into()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<u64>, GameError> {
        parse_heaps(text)
    }

    fn write_position(&self, heaps: &Vec<u64>) -> String {
        write_heaps(heaps)
    }

    fn write_move(&self, _heaps: &Vec<u64>, mv: &Takes) -> String {
        mv.write()
    }

    /// Reads `h<i>-<k>` parts joined by commas, each on a different heap.
    fn parse_move(&self, heaps: &Vec<u64>, text: &str) -> Result<Takes, GameError> {
        let syntax = || {
            GameError::bad_move(
                text,
                "a move is h<heap>-<stones>, or several joined by commas: h1-3,h4-2",
            )
        };
        let mut parts = Vec::new();
        for part in text.split(',') {
            let (heap, take) = split_take(part).ok_or_else(syntax)?;
            let size = heap.checked_sub(1).and_then(|i| heaps.get(i)).copied();
            match size {
                None => {
                    return Err(GameError::bad_move(
                        text,
                        format!("heaps are 1 to {}", heaps.len()),
                    ));
                }
                Some(0) => {
                    return Err(GameError::bad_move(text, format!("heap {heap} is empty")));
                }
                Some(h) if !(1..=h).contains(&take) => {
                    return Err(GameError::bad_move(
                        text,
                        format!("takes 1 to {h} from heap {heap}"),
                    ));
                }
                Some(_) => parts.push(Take {
                    heap: heap - 1,
                    take,
                }),
            }
        }
        parts.sort_by_key(|t| t.heap);
        if parts.windows(2).any(|w| w[0].heap == w[1].heap) {
            return Err(GameError::bad_move(text, "each heap may be named once"));
        }
        if parts.len() as u64 > self.k {
            return Err(GameError::bad_move(
                text,
                format!("a move takes from at most {} heaps", self.k),
            ));
        }
        Ok(Takes(parts))
    }
}

impl Moore {
    /// The work of finding the winning moves: the sets of at most k heaps,
    /// each weighed bit by bit.
    fn steps(&self, heaps: &[u64]) -> u128 {
        (1..=self.k.min(heaps.len() as u64))
            .map(|s| (u128::from(binomial(heaps.len() as u64, s)) * 64) << (2 * s))
            .sum()
    }
}

impl ClosedForm<Moore> for Moore {
    /// The verdict, and every winning move while they number at most
    /// `MOST_LISTED`.
    fn formula(&self, heaps: &Vec<u64>) -> Result<Formula<Takes>, GameError> {
        let mover_wins = !self.lost(heaps);
        let mut winning_moves = Vec::new();
        if mover_wins {
            let steps = self.steps(heaps);
            let too_many = |what: String| {
                Err(GameError::beyond_tables(
                    &write_heaps(heaps),
                    format!("the mover wins, by {what}: too many to list"),
                ))
            };
            if steps > MOST_STEPS {
                return too_many(format!("moves from any {} of the heaps", self.k));
            }
            let sets = self.heap_sets(heaps);
            let total = sets
                .iter()
                .map(|set| self.winning_on(heaps, set, None))
                .fold(0u128, u128::saturating_add);
            if total > MOST_LISTED {
                return too_many(format!("any of {total} moves"));
            }
            for set in &sets {
                self.winning_on(heaps, set, Some(&mut winning_moves));
            }
            winning_moves.sort_by_key(|m| m.0.iter().map(|t| (t.heap, t.take)).collect::<Vec<_>>());
        }
        Ok(Formula {
            mover_wins,
            nim_sum: None,
            part_values: None,
            winning_moves,
        })
    }

    fn measure(&self) -> &'static str {
        "stones left"
    }

    fn left(&self, heaps: &Vec<u64>) -> u64 {
        stones(heaps)
    }

    /// The steps of finding the winning moves (the verdict alone is cheap),
    /// bounded as the formula bounds them.
    fn weight(&self, heaps: &Vec<u64>) -> u64 {
        self.steps(heaps).min(MOST_STEPS) as u64
    }

    /// One stone from the first non-empty heap.
    fn longest_move(&self, heaps: &Vec<u64>) -> Option<Takes> {
        let heap = heaps.iter().position(|&h| h > 0)?;
        Some(Takes(vec![Take { heap, take: 1 }]))
    }
}

impl Layered<Moore> for Moore {
    fn layers(&self, _tier: u32) -> u32 {
        (TABLE_HEAPS as u64 * TABLE_HEAP) as u32 + 1
    }

    /// Every move takes at least one stone.
    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        self.layers(tier) - 1 - stones(&self.slots.unrank(index)) as u32
    }
}

impl Picture<Moore> for Moore {
    fn svg(&self, heaps: &Vec<u64>, marks: &Marks) -> String {
        let title = format!("Moore's Nim (k = {}) heaps {}", self.k, write_heaps(heaps));
        heap_picture::svg_stacks(heaps, marks, &title)
    }

    /// Drawn token by token, with moves few enough to list.
    fn clickable(&self, heaps: &Vec<u64>) -> bool {
        heap_picture::drawn_whole(heaps) && self.move_count(heaps) <= MOST_LISTED
    }

    /// The lowest stone taken on each heap, in any order.
    fn places(&self, heaps: &Vec<u64>, mv: &Takes) -> Vec<Clicks> {
        one_step(
            mv.0.iter()
                .map(|t| format!("h{}t{}", t.heap + 1, heaps[t.heap] - t.take + 1))
                .collect(),
        )
    }

    fn landed(&self, _heaps: &Vec<u64>, mv: &Takes) -> Vec<String> {
        mv.0.iter().map(|t| format!("h{}", t.heap + 1)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nim::{Rule, verdict};
    use crate::search::Negamax;

    fn sorted(game: &Moore, heaps: &Vec<u64>, mut moves: Vec<Takes>) -> Vec<Takes> {
        let order = game.moves(heaps);
        moves.sort_by_key(|m| order.iter().position(|x| x == m));
        moves
    }

    /// Every multiset of up to 4 heaps of up to 5, for k = 1 to 4, against plain
    /// search: the verdict and exactly the winning moves search finds.
    #[test]
    fn the_rule_names_every_winning_move() {
        for k in 1..=4 {
            let game = Moore::new(k);
            let mut search = Negamax::new(&game);
            let slots = Multisets::new(4, 6);
            for index in 0..slots.size() {
                let heaps = slots.unrank(index);
                let winning: Vec<Takes> = game
                    .moves(&heaps)
                    .into_iter()
                    .filter(|m| {
                        matches!(search.value(&game.play(&heaps, m).position), Value::Loss(_))
                    })
                    .collect();
                let formula = game.formula(&heaps).unwrap();
                let wins = matches!(search.value(&heaps), Value::Win(_));
                assert_eq!(formula.mover_wins, wins, "{heaps:?} k {k}");
                let said = sorted(&game, &heaps, formula.winning_moves);
                assert_eq!(said, winning, "{heaps:?} k {k}");
            }
        }
    }

    /// With k = 1 it is Nim: the same verdicts and winning moves on big heaps.
    #[test]
    fn one_heap_at_a_time_is_nim() {
        let game = Moore::new(1);
        for heaps in [
            vec![3, 5, 7],
            vec![1 << 40, 12345, 999_999],
            vec![u64::MAX, 1, 2],
        ] {
            let nim = verdict(Rule::Nim, &heaps);
            let formula = game.formula(&heaps).unwrap();
            assert_eq!(formula.mover_wins, nim.mover_wins, "{heaps:?}");
            let said: Vec<Take> = formula.winning_moves.iter().map(|m| m.0[0]).collect();
            assert_eq!(said, nim.winning_moves, "{heaps:?}");
        }
    }

    #[test]
    fn moves_are_read_in_any_order_and_checked() {
        let game = Moore::new(2);
        let heaps = vec![3, 0, 5, 7];
        let mv = game.parse_move(&heaps, "h4-2, H1-3").unwrap();
        assert_eq!(mv.write(), "h1-3,h4-2");
        for (bad, why) in [
            ("h1-1,h3-1,h4-1", "at most 2 heaps"),
            ("h1-1,h1-2", "named once"),
            ("h2-1", "heap 2 is empty"),
            ("h5-1", "heaps are 1 to 4"),
            ("h1-4", "takes 1 to 3"),
            ("h1+1", "a move is"),
        ] {
            let err = game.parse_move(&heaps, bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
        // 1 + 3 + 5 + 7 singles and 3*5 + 3*7 + 5*7 pairs.
        assert_eq!(game.moves(&heaps).len(), 15 + 71);
    }

    #[test]
    fn big_heaps_are_decided_and_their_moves_counted() {
        let game = Moore::new(2);
        // Every column holds 0 or 3 ones: lost.
        let lost = vec![u64::MAX, u64::MAX, u64::MAX, 1 << 63, 1 << 63, 1 << 63];
        assert!(!game.formula(&lost).unwrap().mover_wins);
        // 5 5 5 is lost; 6 5 5 is won by bringing the 6 to 5.
        let won = game.formula(&vec![6, 5, 5]).unwrap();
        assert_eq!(
            won.winning_moves
                .iter()
                .map(Takes::write)
                .collect::<Vec<_>>(),
            ["h1-1"]
        );
        let err = game
            .formula(&vec![u64::MAX, 0, 0, 0])
            .map(|f| f.winning_moves.len());
        assert!(matches!(err, Ok(1)), "{err:?}");
        // Any two of four heaps of 2^40 - 1 split their digits between them.
        let many = game
            .formula(&vec![(1 << 40) - 1; 4])
            .unwrap_err()
            .to_string();
        assert!(many.contains("too many to list"), "{many}");
    }

    /// Many heaps are refused before their sets of heaps are listed: 40 heaps
    /// with k = 8 once took 3.4 GB, 10,000 with k = 2 took 4.9 GB.
    #[test]
    fn many_heaps_are_refused_before_any_work() {
        for (k, heaps) in [
            (8, (1..=40).collect::<Vec<u64>>()),
            (2, (1..=10_000).collect()),
        ] {
            let start = std::time::Instant::now();
            let refused = Moore::new(k).formula(&heaps).unwrap_err().to_string();
            assert!(refused.contains("too many to list"), "{refused}");
            assert!(start.elapsed().as_secs() < 1, "{:?}", start.elapsed());
        }
    }

    #[test]
    fn moves_are_counted_without_listing_them() {
        let game = Moore::new(2);
        let heaps = vec![1, 3, 5, 7];
        assert_eq!(game.move_count(&heaps), game.moves(&heaps).len() as u128);
        let wide = Moore::new(8);
        assert!(wide.move_count(&[30; 16]) > 8_000_000_000_000_000);
        assert!(!wide.clickable(&vec![30; 16]));
        assert!(wide.clickable(&heaps));
    }
}
