//! Greedy Nim: Nim where every move takes from a largest heap (any one of them
//! when several tie). Whoever takes the last stone wins, or under `--misere`
//! loses.
//!
//! The rule, proved here and checked against the tables on every slot: let `M` be
//! the largest heap and `m` how many heaps have it. Under normal play the mover
//! loses exactly when `m` is even (0 when every heap is empty). With `m` even
//! every move leaves `m - 1` largest heaps, an odd count; with `m` odd, three or
//! more, any move leaves an even count; with `m = 1` the mover brings the largest
//! heap level with the next largest when those are odd in number, or below them
//! when even. Under misère play the same holds while `M >= 2`; once every heap
//! holds at most one stone it is misère Nim: the mover loses exactly when the ones
//! are odd in number.
//!
//! Notation and moves as in `nim`: `3 4 5`, `h3-2`.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Marks, Picture, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::heaps::{Take, multiset_slots, parse_heaps, split_take, stones, write_heaps};
use crate::multiset::Multisets;
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values};
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<Greedy> = Spec {
    entry: Entry {
        id: "greedy-nim",
        extras: Extras::COUNTED,
        about: "Greedy Nim: take any number from a largest heap; who takes the last stone wins (misère play: loses)",
        notation: "heap sizes separated by spaces or commas: 3 4 5; \
                   a move takes from a largest heap, counted from 1: h3-2",
        options: &[OptionSpec {
            name: "misere",
            help: "misère play: whoever takes the last stone loses",
            scope: Scope::Variant,
            values: Values::Flag,
            default: Some("no"),
            positional: false,
        }],
        all: &[&[("misere", "no,yes")]],
    },
    build: |options| Ok(Greedy::new(options.get("misere") == Some("yes"))),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(Solver::Retrograde, vec![Check::Formula, Check::LiveSearch])
    },
    generate_options: |game, _| match game.misere {
        true => vec![("misere", "yes".to_string())],
        false => Vec::new(),
    },
};

/// Heaps and heap size in the table: every multiset of 6 heaps of 0 to 15.
pub const TABLE_HEAPS: usize = 6;
pub const TABLE_HEAP: u64 = 15;
/// The most winning moves the formula lists.
pub const MOST_LISTED: u128 = 100_000;

#[derive(Debug, Clone)]
pub struct Greedy {
    misere: bool,
    slots: Multisets,
}

impl Greedy {
    pub fn new(misere: bool) -> Self {
        Greedy {
            misere,
            slots: Multisets::new(TABLE_HEAPS, TABLE_HEAP + 1),
        }
    }

    /// Whether the mover loses with the largest heap `largest` held by `count`
    /// heaps.
    fn lost(&self, largest: u64, count: usize) -> bool {
        match self.misere && largest <= 1 {
            true => count % 2 == 1,
            false => count % 2 == 0,
        }
    }

    /// The largest heap and how many heaps hold it.
    fn top(heaps: &[u64]) -> (u64, usize) {
        let largest = heaps.iter().copied().max().unwrap_or(0);
        let count = match largest {
            0 => 0,
            m => heaps.iter().filter(|&&h| h == m).count(),
        };
        (largest, count)
    }

    /// The sizes a largest heap may be brought to that leave the opponent lost,
    /// as ranges `[from, to]` (the outcome depends only on where the new size
    /// falls against 0, 1 and the next largest heap).
    fn winning_sizes(&self, heaps: &[u64]) -> Vec<(u64, u64)> {
        let (largest, count) = Self::top(heaps);
        if largest == 0 || self.lost(largest, count) {
            return Vec::new();
        }
        // The other heaps, with one largest heap taken out.
        let mut others = heaps.to_vec();
        let at = others
            .iter()
            .position(|&h| h == largest)
            .expect("a largest heap");
        others.swap_remove(at);
        let (next, next_count) = Self::top(&others);
        let outcome_lost = |v: u64| {
            let (top, top_count) = match v.cmp(&next) {
                std::cmp::Ordering::Greater => (v, 1),
                std::cmp::Ordering::Equal if v > 0 => (v, next_count + 1),
                _ => (next, next_count),
            };
            // The opponent moves next: they are lost where this says so.
            self.lost(top, top_count)
        };
        // Breakpoints: below, at and above 0, 1 and the next largest heap.
        let mut cuts: Vec<u64> = [
            0,
            1,
            2,
            next.saturating_sub(1),
            next,
            next.saturating_add(1),
        ]
        .into_iter()
        .filter(|&c| c < largest)
        .collect();
        cuts.push(largest);
        cuts.sort_unstable();
        cuts.dedup();
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for w in cuts.windows(2) {
            let (from, to) = (w[0], w[1] - 1);
            // Constant between breakpoints: one value decides the range.
            if outcome_lost(from) && outcome_lost(to) {
                match ranges.last_mut() {
                    Some(last) if last.1 + 1 == from => last.1 = to,
                    _ => ranges.push((from, to)),
                }
            } else {
                for v in [from, to] {
                    if outcome_lost(v) && ranges.last().is_none_or(|r| r.1 < v) {
                        ranges.push((v, v));
                    }
                }
            }
        }
        ranges
    }
}

impl Game for Greedy {
    type Position = Vec<u64>;
    type Move = Take;

    fn id(&self) -> &'static str {
        "greedy-nim"
    }

    fn variant(&self) -> String {
        match self.misere {
            true => "misere".into(),
            false => String::new(),
        }
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    multiset_slots!(slots);

    fn start(&self) -> Vec<u64> {
        vec![3, 5, 5, 7]
    }

    fn moves(&self, heaps: &Vec<u64>) -> Vec<Take> {
        let (largest, _) = Self::top(heaps);
        heaps
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h == largest && h > 0)
            .flat_map(|(heap, &h)| (1..=h).map(move |take| Take { heap, take }))
            .collect()
    }

    fn play(&self, heaps: &Vec<u64>, mv: &Take) -> Child<Vec<u64>> {
        let mut after = heaps.clone();
        after[mv.heap] -= mv.take;
        Child::passing(after)
    }

    fn end_value(&self, heaps: &Vec<u64>) -> Option<Value> {
        heaps.iter().all(|&h| h == 0).then_some(match self.misere {
            true => Value::Win(0),
            false => Value::Loss(0),
        })
    }

    fn why_over(&self, _heaps: &Vec<u64>) -> String {
        match self.misere {
            true => "no stones are left: the opponent took the last one, and lost".into(),
            false => "no stones are left".into(),
        }
    }

    fn parse_position(&self, text: &str) -> Result<Vec<u64>, GameError> {
        parse_heaps(text)
    }

    fn write_position(&self, heaps: &Vec<u64>) -> String {
        write_heaps(heaps)
    }

    fn write_move(&self, _heaps: &Vec<u64>, mv: &Take) -> String {
        mv.write()
    }

    /// Reads `h<i>-<k>` for heaps of any size; the heap must be a largest one.
    fn parse_move(&self, heaps: &Vec<u64>, text: &str) -> Result<Take, GameError> {
        let syntax = || GameError::bad_move(text, "a move is h<heap>-<stones>: h3-2");
        let (heap, take) = split_take(text).ok_or_else(syntax)?;
        let (largest, _) = Self::top(heaps);
        let size = heap.checked_sub(1).and_then(|i| heaps.get(i)).copied();
        match size {
            None => Err(GameError::bad_move(
                text,
                format!("heaps are 1 to {}", heaps.len()),
            )),
            Some(h) if h != largest || h == 0 => Err(GameError::bad_move(
                text,
                format!("heap {heap} holds {h}: moves take from a largest heap, of {largest}"),
            )),
            Some(h) if !(1..=h).contains(&take) => Err(GameError::bad_move(
                text,
                format!("takes 1 to {h} from heap {heap}"),
            )),
            Some(_) => Ok(Take {
                heap: heap - 1,
                take,
            }),
        }
    }
}

impl ClosedForm<Greedy> for Greedy {
    /// The verdict, and every winning move while they number at most
    /// `MOST_LISTED` (with three or more largest heaps every move wins).
    fn formula(&self, heaps: &Vec<u64>) -> Result<Formula<Take>, GameError> {
        let (largest, count) = Self::top(heaps);
        let mover_wins = !self.lost(largest, count);
        let sizes = self.winning_sizes(heaps);
        let per_heap: u128 = sizes.iter().map(|&(a, b)| u128::from(b - a) + 1).sum();
        let total = per_heap * count as u128;
        if total > MOST_LISTED {
            return Err(GameError::beyond_tables(
                &write_heaps(heaps),
                format!(
                    "the mover wins, by any of {total} moves from a largest heap: too many to list"
                ),
            ));
        }
        let winning_moves = heaps
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h == largest && h > 0)
            .flat_map(|(heap, &h)| {
                sizes
                    .iter()
                    .flat_map(move |&(a, b)| (a..=b).rev().map(move |v| Take { heap, take: h - v }))
            })
            .collect();
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

    /// One stone from the first largest heap.
    fn longest_move(&self, heaps: &Vec<u64>) -> Option<Take> {
        let (largest, _) = Self::top(heaps);
        let heap = heaps.iter().position(|&h| h == largest && h > 0)?;
        Some(Take { heap, take: 1 })
    }
}

impl Picture<Greedy> for Greedy {
    fn svg(&self, heaps: &Vec<u64>, marks: &Marks) -> String {
        let title = format!("greedy Nim heaps {}", write_heaps(heaps));
        heap_picture::svg_stacks(heaps, marks, &title)
    }

    fn clickable(&self, heaps: &Vec<u64>) -> bool {
        heap_picture::drawn_whole(heaps)
    }

    fn places(&self, heaps: &Vec<u64>, mv: &Take) -> Vec<Clicks> {
        let lowest = heaps[mv.heap] - mv.take + 1;
        one_step(vec![format!("h{}t{lowest}", mv.heap + 1)])
    }

    fn landed(&self, _heaps: &Vec<u64>, mv: &Take) -> Vec<String> {
        vec![format!("h{}", mv.heap + 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    /// Every multiset of up to 4 heaps of up to 7, in both plays, against plain
    /// search: the verdict and exactly the winning moves search finds.
    #[test]
    fn the_rule_names_every_winning_move() {
        for misere in [false, true] {
            let game = Greedy::new(misere);
            let mut search = Negamax::new(&game);
            let slots = Multisets::new(4, 8);
            for index in 0..slots.size() {
                let heaps = slots.unrank(index);
                let winning: Vec<Take> = game
                    .moves(&heaps)
                    .into_iter()
                    .filter(|m| {
                        matches!(search.value(&game.play(&heaps, m).position), Value::Loss(_))
                    })
                    .collect();
                let formula = game.formula(&heaps).unwrap();
                let wins = matches!(search.value(&heaps), Value::Win(_));
                assert_eq!(formula.mover_wins, wins, "{heaps:?} misère {misere}");
                let mut said = formula.winning_moves;
                said.sort_by_key(|m| game.moves(&heaps).iter().position(|x| x == m));
                assert_eq!(said, winning, "{heaps:?} misère {misere}");
            }
        }
    }

    #[test]
    fn moves_come_from_a_largest_heap() {
        let game = Greedy::new(false);
        let heaps = vec![3, 5, 5, 7];
        assert!(game.moves(&heaps).iter().all(|m| m.heap == 3));
        assert!(game.parse_move(&heaps, "h2-1").is_err());
        assert_eq!(
            game.parse_move(&heaps, "h4-2").unwrap(),
            Take { heap: 3, take: 2 }
        );
        // Three largest heaps: every move wins, too many to list for huge heaps.
        assert!(game.formula(&vec![u64::MAX; 3]).is_err());
        assert_eq!(
            game.formula(&vec![9, 9, 9]).unwrap().winning_moves.len(),
            27
        );
        assert!(!game.formula(&vec![u64::MAX; 2]).unwrap().mover_wins);
    }
}
