//! Fibonacci Nim: one heap. The first move takes 1 to n - 1 stones, never all;
//! after a move that took t, the next takes 1 to 2t; whoever takes the last stone
//! wins.
//!
//! The formula (Zeckendorf, `crate::zeckendorf`), for heaps up to 2^64 - 1: a
//! fresh heap is lost for the mover exactly when n is a Fibonacci number; `n/t` is
//! won exactly when the smallest part of n's Zeckendorf representation is at most
//! 2t. The winning moves take a sum of n's smallest parts: taking `k` leaves
//! `n - k` lost exactly when all of it is taken or its smallest part exceeds `2k`,
//! and then `k`'s parts, all below half that part, complete `n - k`'s
//! representation to n's.
//!
//! Notation: `n` for a fresh heap, `n/t` for n stones left after a move that took
//! t. A move is the number taken: `3`. The table holds every n up to 1,000 with
//! every t; a t of n/2 or more allows taking all, so those share a slot.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Layered, Marks, Picture, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::value::{Value, ValueKind};
use crate::zeckendorf::{fibonacci, is_fibonacci, parts};

pub static SPEC: Spec<Fibonacci> = Spec {
    entry: Entry {
        id: "fibonacci",
        extras: Extras::NONE,
        about: "Fibonacci Nim: one heap; take up to twice what was last taken (first move: not all); who takes the last stone wins",
        notation: "n for a fresh heap of n stones, n/t for n left after a move that took t: 20, 17/3; \
                   a move is the number taken: 3",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(Fibonacci),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    },
    generate_options: no_generate_options,
};

/// The largest heap in the table.
pub const TABLE_HEAP: u64 = 1000;

/// A heap of `left` stones; `last` is what the previous move took, `None` for a
/// fresh heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Heap {
    pub left: u64,
    pub last: Option<u64>,
}

impl Heap {
    /// The most the mover may take.
    pub fn limit(self) -> u64 {
        match self.last {
            None => self.left.saturating_sub(1),
            Some(t) => self.left.min(t.saturating_mul(2)),
        }
    }

    /// `last` folded: any t of at least half the heap allows taking all.
    fn folded_last(self) -> u64 {
        match self.last {
            None => 0,
            Some(t) => t.min(self.left.div_ceil(2)),
        }
    }
}

/// Whether the mover wins, by the formula.
pub fn mover_wins(heap: Heap) -> bool {
    match heap.last {
        None => !is_fibonacci(heap.left) && heap.left > 0,
        Some(_) if heap.left == 0 => false,
        Some(t) => {
            let smallest = *parts(heap.left).last().expect("left is at least 1");
            fibonacci(smallest) <= u128::from(t) * 2
        }
    }
}

/// Every winning move: the sums of n's smallest Zeckendorf parts that are
/// allowed and leave the opponent lost.
pub fn winning_moves(heap: Heap) -> Vec<u64> {
    let parts = parts(heap.left);
    let mut moves = Vec::new();
    let mut take: u128 = 0;
    for (j, &i) in parts.iter().enumerate().rev() {
        take += fibonacci(i);
        let above = j.checked_sub(1).map(|j| fibonacci(parts[j]));
        let leaves_lost = above.is_none_or(|smallest| smallest > 2 * take);
        if take <= u128::from(heap.limit()) && leaves_lost {
            moves.push(take as u64);
        }
    }
    moves
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Fibonacci;

impl Fibonacci {
    /// The first slot of heaps of `left` stones: each heap of m stones has
    /// `1 + ceil(m / 2)` slots (fresh, then t = 1 to ceil(m / 2)).
    fn offset(left: u64) -> u64 {
        left + left * left / 4
    }
}

impl Game for Fibonacci {
    type Position = Heap;
    type Move = u64;

    fn id(&self) -> &'static str {
        "fibonacci"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        Self::offset(TABLE_HEAP + 1)
    }

    fn index(&self, heap: &Heap) -> u64 {
        Self::offset(heap.left) + heap.folded_last()
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Heap> {
        if index >= self.index_size(0) {
            return None;
        }
        // The largest heap whose first slot is at most `index`.
        let (mut low, mut high) = (0, TABLE_HEAP);
        while low < high {
            let mid = (low + high).div_ceil(2);
            if Self::offset(mid) <= index {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        let left = low;
        let last = index - Self::offset(left);
        Some(Heap {
            left,
            last: (last > 0).then_some(last),
        })
    }

    fn coverage(&self, heap: &Heap) -> Result<(), String> {
        match heap.left <= TABLE_HEAP {
            true => Ok(()),
            false => Err(format!("the table holds heaps of up to {TABLE_HEAP}")),
        }
    }

    fn start(&self) -> Heap {
        Heap {
            left: 20,
            last: None,
        }
    }

    fn moves(&self, heap: &Heap) -> Vec<u64> {
        (1..=heap.limit()).collect()
    }

    fn play(&self, heap: &Heap, take: &u64) -> Child<Heap> {
        Child::passing(Heap {
            left: heap.left - take,
            last: Some(*take),
        })
    }

    fn end_value(&self, heap: &Heap) -> Option<Value> {
        (heap.limit() == 0).then_some(Value::Loss(0))
    }

    fn why_over(&self, heap: &Heap) -> String {
        match heap.left {
            0 => "no stones are left: the opponent took the last".into(),
            _ => "a fresh heap of one stone cannot be taken whole".into(),
        }
    }

    /// The slot's representative: search remembers positions by what they allow.
    fn search_key(&self, heap: &Heap) -> Heap {
        Heap {
            left: heap.left,
            last: heap.last.map(|_| heap.folded_last()),
        }
    }

    fn parse_position(&self, text: &str) -> Result<Heap, GameError> {
        let number = |part: &str, what: &str| {
            part.trim().parse::<u64>().map_err(|_| {
                GameError::position(
                    text,
                    format!(
                        "{what} is '{}': a whole number from 0 to {}",
                        part.trim(),
                        u64::MAX
                    ),
                )
            })
        };
        match text.split_once('/') {
            None => Ok(Heap {
                left: number(text, "the heap")?,
                last: None,
            }),
            Some((left, last)) => {
                let last = number(last, "the last take")?;
                if last == 0 {
                    return Err(GameError::position(text, "the last move took at least 1"));
                }
                Ok(Heap {
                    left: number(left, "the heap")?,
                    last: Some(last),
                })
            }
        }
    }

    fn write_position(&self, heap: &Heap) -> String {
        match heap.last {
            None => heap.left.to_string(),
            Some(t) => format!("{}/{t}", heap.left),
        }
    }

    fn write_move(&self, _heap: &Heap, take: &u64) -> String {
        take.to_string()
    }

    /// Reads the number taken, for heaps of any size.
    fn parse_move(&self, heap: &Heap, text: &str) -> Result<u64, GameError> {
        let limit = heap.limit();
        match text.trim().parse::<u64>() {
            Ok(take) if (1..=limit).contains(&take) => Ok(take),
            _ if limit == 0 => Err(GameError::bad_move(text, "no move is left")),
            _ => Err(GameError::bad_move(
                text,
                format!("a move takes 1 to {limit} stones here"),
            )),
        }
    }
}

impl ClosedForm<Fibonacci> for Fibonacci {
    fn formula(&self, heap: &Heap) -> Result<Formula<u64>, GameError> {
        Ok(Formula {
            mover_wins: mover_wins(*heap),
            nim_sum: None,
            part_values: None,
            winning_moves: winning_moves(*heap),
        })
    }

    fn measure(&self) -> &'static str {
        "stones left"
    }

    fn left(&self, heap: &Heap) -> u64 {
        heap.left
    }

    fn longest_move(&self, heap: &Heap) -> Option<u64> {
        (heap.limit() > 0).then_some(1)
    }
}

impl Layered<Fibonacci> for Fibonacci {
    /// Layers by stones taken so far: every move takes some.
    fn layers(&self, _tier: u32) -> u32 {
        TABLE_HEAP as u32 + 1
    }

    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        let heap = self.position_at(tier, index).expect("every slot is a heap");
        (TABLE_HEAP - heap.left) as u32
    }
}

impl Picture<Fibonacci> for Fibonacci {
    fn svg(&self, heap: &Heap, marks: &Marks) -> String {
        let title = format!(
            "Fibonacci Nim: {} stones, take 1 to {}",
            heap.left,
            heap.limit()
        );
        let caption = match heap.limit() {
            0 => format!("{} stones: no move", heap.left),
            limit => format!("{} stones: take 1 to {limit}", heap.left),
        };
        heap_picture::svg_stacks_labelled(&[heap.left], &["h1".into()], &caption, marks, &title)
    }

    fn clickable(&self, heap: &Heap) -> bool {
        heap_picture::drawn_whole(&[heap.left])
    }

    /// The lowest token taken: it and those above it go.
    fn places(&self, heap: &Heap, take: &u64) -> Vec<Clicks> {
        one_step(vec![format!("h1t{}", heap.left - take + 1)])
    }

    fn landed(&self, _heap: &Heap, _take: &u64) -> Vec<String> {
        vec!["h1".into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    fn fresh(left: u64) -> Heap {
        Heap { left, last: None }
    }

    #[test]
    fn the_losing_fresh_heaps_are_the_fibonacci_numbers() {
        let mut search = Negamax::new(&Fibonacci);
        let lost: Vec<u64> = (1..=100)
            .filter(|&n| matches!(search.value(&fresh(n)), Value::Loss(_)))
            .collect();
        assert_eq!(lost, [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]);
    }

    /// Every position of up to 120 stones against plain search: the verdict and
    /// exactly the winning moves search finds.
    #[test]
    fn the_formula_names_every_winning_move() {
        let mut search = Negamax::new(&Fibonacci);
        for left in 0..=120 {
            for last in [None].into_iter().chain((1..=left + 1).map(Some)) {
                let heap = Heap { left, last };
                let winning: Vec<u64> = Fibonacci
                    .moves(&heap)
                    .into_iter()
                    .filter(|k| {
                        let after = Fibonacci.play(&heap, k).position;
                        matches!(search.value(&after), Value::Loss(_))
                    })
                    .collect();
                let name = Fibonacci.write_position(&heap);
                assert_eq!(mover_wins(heap), !winning.is_empty(), "{name}");
                assert_eq!(winning_moves(heap), winning, "{name}");
            }
        }
    }

    #[test]
    fn slots_index_back_and_huge_heaps_are_answered() {
        let size = Fibonacci.index_size(0);
        assert_eq!(size, 1001 + 1001 * 1001 / 4);
        for index in 0..size {
            let heap = Fibonacci.position_at(0, index).unwrap();
            assert_eq!(Fibonacci.index(&heap), index);
        }
        let f = fibonacci(93) as u64;
        assert!(!mover_wins(fresh(f)));
        assert_eq!(winning_moves(fresh(f + 1)), [1]);
        assert!(Fibonacci.parse_position("17/0").is_err());
        assert!(Fibonacci.parse_move(&fresh(5), "5").is_err());
    }
}
