//! Nim, misère Nim and subtraction games on heaps.
//!
//! Each is answered two ways: a table for small positions (win or loss with the
//! distance: the fastest win, the slowest loss), and a formula for positions of
//! any size (who wins, and every winning move). Tests and `tbquery verify` check
//! the two against each other.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Editing, Formula, Layered, Marks, Picture, Solver,
    Tool, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::heaps::{
    HEAP_NOTATION, Take, multiset_slots, parse_heaps, split_take, stones, write_heaps,
};
use crate::multiset::Multisets;
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values, no_generate_options};
use crate::value::{Value, ValueKind};

/// The capabilities of a heap game with a table and a formula.
fn heap_capabilities(game: &Heaps) -> Capabilities<'_, Heaps> {
    Capabilities {
        formula: Some(game),
        picture: Some(game),
        editing: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    }
}

pub static NIM: Spec<Heaps> = Spec {
    entry: Entry {
        id: "nim",
        extras: Extras::COUNTED,
        about: "Nim: take any number from one heap; who takes the last stone wins (xor formula for any size)",
        notation: HEAP_NOTATION,
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(Heaps::new(Rule::Nim)),
    capabilities: heap_capabilities,
    generate_options: no_generate_options,
};

pub static MISERE: Spec<Heaps> = Spec {
    entry: Entry {
        id: "nim-misere",
        extras: Extras::COUNTED,
        about: "Misère Nim: take any number from one heap; who takes the last stone loses",
        notation: HEAP_NOTATION,
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(Heaps::new(Rule::Misere)),
    capabilities: heap_capabilities,
    generate_options: no_generate_options,
};

/// The largest `--max-take`: heap Grundy values are sizes mod `k + 1`.
pub const MAX_TAKE: u64 = 1_000_000_000_000_000_000;

pub static SUBTRACTION: Spec<Heaps> = Spec {
    entry: Entry {
        id: "subtraction",
        extras: Extras::COUNTED,
        about: "A subtraction game: take 1 to k from one heap; who takes the last stone wins",
        notation: HEAP_NOTATION,
        options: &[OptionSpec {
            name: "max-take",
            help: "the most stones a move may take",
            scope: Scope::Variant,
            values: Values::Range(1, MAX_TAKE),
            default: Some("3"),
            positional: false,
        }],
        all: &[&[("max-take", "3")]],
    },
    build: |options| {
        let k = options.number("max-take").unwrap_or(3);
        Ok(Heaps::new(Rule::Subtract(k)))
    },
    capabilities: heap_capabilities,
    generate_options: |game, _| match game.rule {
        Rule::Subtract(k) => vec![("max-take", k.to_string())],
        _ => Vec::new(),
    },
};

/// How many heaps a table position may have.
pub const TABLE_HEAPS: usize = 6;
/// The largest heap in a table position.
pub const TABLE_HEAP_SIZE: u64 = 15;

/// What a move may take from one heap, and who wins at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Any number of stones; whoever takes the last stone wins.
    Nim,
    /// Any number of stones; whoever takes the last stone loses.
    Misere,
    /// 1 to `k` stones; whoever takes the last stone wins.
    Subtract(u64),
}

impl Rule {
    /// Whether taking `take` stones from a heap of `heap` is allowed.
    pub fn allows(self, heap: u64, take: u64) -> bool {
        take >= 1
            && take <= heap
            && match self {
                Rule::Nim | Rule::Misere => true,
                Rule::Subtract(k) => take <= k,
            }
    }

    /// The Grundy value of one heap under normal play.
    pub fn heap_grundy(self, heap: u64) -> u64 {
        match self {
            Rule::Nim | Rule::Misere => heap,
            Rule::Subtract(k) => heap % (k + 1),
        }
    }
}

/// The formula's answer for a position of any size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub mover_wins: bool,
    /// The xor of the heaps' Grundy values (normal play).
    pub nim_sum: u64,
    /// Every move that wins, in heap order.
    pub winning_moves: Vec<Take>,
}

/// Who wins `heaps` under `rule`, and every winning move, in time linear in the
/// number of heaps.
///
/// Normal play: the mover loses exactly when the xor of the heaps' Grundy values
/// is 0. Misère Nim: the same while some heap has 2 or more stones; once none has,
/// the mover loses exactly when an odd number of heaps hold one stone.
pub fn verdict(rule: Rule, heaps: &[u64]) -> Verdict {
    let nim_sum = heaps.iter().fold(0, |x, &h| x ^ rule.heap_grundy(h));
    let big = heaps.iter().filter(|&&h| h > 1).count();
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    // Whether the player to move after a move is lost, given the position after it.
    let lost_after = |nim_sum: u64, big: usize, ones: usize| match rule {
        Rule::Misere if big == 0 => ones % 2 == 1,
        _ => nim_sum == 0,
    };
    let mover_wins = !lost_after(nim_sum, big, ones);
    let mut winning_moves = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        let others = nim_sum ^ rule.heap_grundy(h);
        // Heap sizes the move may leave: the one that zeroes the xor, and for
        // misère play also 0 and 1.
        let mut targets: Vec<u64> = match rule {
            Rule::Nim | Rule::Misere => vec![others],
            Rule::Subtract(k) if others <= k => {
                // The largest size below h with Grundy value `others`.
                let step = (h % (k + 1) + (k + 1) - others) % (k + 1);
                if step == 0 {
                    vec![]
                } else {
                    vec![h.saturating_sub(step)]
                }
            }
            Rule::Subtract(_) => vec![],
        };
        if rule == Rule::Misere {
            targets.extend([0, 1]);
        }
        targets.sort_unstable();
        targets.dedup();
        for t in targets {
            if t >= h || !rule.allows(h, h - t) {
                continue;
            }
            let big_after = big - usize::from(h > 1) + usize::from(t > 1);
            let ones_after = ones - usize::from(h == 1) + usize::from(t == 1);
            if lost_after(others ^ rule.heap_grundy(t), big_after, ones_after) {
                winning_moves.push(Take {
                    heap: i,
                    take: h - t,
                });
            }
        }
    }
    Verdict {
        mover_wins,
        nim_sum,
        winning_moves,
    }
}

/// A heap game restricted to table positions: at most 6 non-empty heaps of at most
/// 15 stones. Heap order is kept in positions (moves name heaps by place) but
/// folded in the index: all orderings of the same heaps share one slot.
#[derive(Debug, Clone)]
pub struct Heaps {
    rule: Rule,
    slots: Multisets,
}

impl Heaps {
    pub fn new(rule: Rule) -> Self {
        Heaps {
            rule,
            slots: Multisets::new(TABLE_HEAPS, TABLE_HEAP_SIZE + 1),
        }
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    fn total(heaps: &[u64]) -> u64 {
        heaps.iter().sum()
    }
}

impl Game for Heaps {
    type Position = Vec<u64>;
    type Move = Take;

    fn id(&self) -> &'static str {
        match self.rule {
            Rule::Nim => "nim",
            Rule::Misere => "nim-misere",
            Rule::Subtract(_) => "subtraction",
        }
    }

    fn variant(&self) -> String {
        match self.rule {
            Rule::Subtract(k) => format!("take{k}"),
            _ => String::new(),
        }
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    multiset_slots!(slots);

    fn start(&self) -> Vec<u64> {
        match self.rule {
            // The Marienbad rows: lost for the first player.
            Rule::Misere => vec![1, 3, 5, 7],
            _ => vec![3, 4, 5],
        }
    }

    fn moves(&self, heaps: &Vec<u64>) -> Vec<Take> {
        heaps
            .iter()
            .enumerate()
            .flat_map(|(heap, &h)| {
                (1..=h)
                    .filter(move |&take| self.rule.allows(h, take))
                    .map(move |take| Take { heap, take })
            })
            .collect()
    }

    fn play(&self, heaps: &Vec<u64>, mv: &Take) -> Child<Vec<u64>> {
        let mut after = heaps.clone();
        after[mv.heap] -= mv.take;
        Child::passing(after)
    }

    fn end_value(&self, heaps: &Vec<u64>) -> Option<Value> {
        if heaps.iter().any(|&h| h > 0) {
            return None;
        }
        Some(match self.rule {
            // The opponent took the last stone.
            Rule::Misere => Value::Win(0),
            _ => Value::Loss(0),
        })
    }

    fn why_over(&self, _heaps: &Vec<u64>) -> String {
        match self.rule {
            Rule::Misere => "no stones are left: the opponent took the last one, and lost".into(),
            _ => "no stones are left".into(),
        }
    }

    /// Any number of heaps of any size; the table covers the small ones.
    fn parse_position(&self, text: &str) -> Result<Vec<u64>, GameError> {
        parse_heaps(text)
    }

    fn write_position(&self, heaps: &Vec<u64>) -> String {
        write_heaps(heaps)
    }

    fn write_move(&self, _heaps: &Vec<u64>, mv: &Take) -> String {
        mv.write()
    }

    /// Reads `h<i>-<k>` directly: heaps may be far too large to list their moves.
    fn parse_move(&self, heaps: &Vec<u64>, text: &str) -> Result<Take, GameError> {
        let refuse = |why: String| GameError::bad_move(text, why);
        let (heap, take) = split_take(text).ok_or_else(|| {
            refuse("a move is h<heap>-<stones>, heaps counted from 1: h2-3".into())
        })?;
        let size = heap
            .checked_sub(1)
            .and_then(|i| heaps.get(i))
            .ok_or_else(|| refuse(format!("there are heaps 1 to {}", heaps.len())))?;
        if !self.rule.allows(*size, take) {
            let most = match self.rule {
                Rule::Subtract(k) => k.min(*size),
                _ => *size,
            };
            return Err(refuse(format!("heap {heap} has {size}: take 1 to {most}")));
        }
        Ok(Take {
            heap: heap - 1,
            take,
        })
    }
}

impl ClosedForm<Heaps> for Heaps {
    fn formula(&self, heaps: &Vec<u64>) -> Result<Formula<Take>, GameError> {
        let v = verdict(self.rule, heaps);
        Ok(Formula {
            mover_wins: v.mover_wins,
            nim_sum: Some(v.nim_sum),
            part_values: None,
            winning_moves: v.winning_moves,
        })
    }

    fn measure(&self) -> &'static str {
        "stones left"
    }

    fn left(&self, heaps: &Vec<u64>) -> u64 {
        stones(heaps)
    }

    /// One stone from a largest heap.
    fn longest_move(&self, heaps: &Vec<u64>) -> Option<Take> {
        let (heap, _) = heaps
            .iter()
            .enumerate()
            .filter(|(_, h)| **h > 0)
            .max_by_key(|(i, h)| (**h, std::cmp::Reverse(*i)))?;
        Some(Take { heap, take: 1 })
    }
}

impl Picture<Heaps> for Heaps {
    fn svg(&self, heaps: &Vec<u64>, marks: &Marks) -> String {
        let title = format!("{} heaps {}", self.id(), write_heaps(heaps));
        heap_picture::svg_stacks(heaps, marks, &title)
    }

    fn clickable(&self, heaps: &Vec<u64>) -> bool {
        heap_picture::drawn_whole(heaps)
    }

    /// The lowest token taken: it and those above it go.
    fn places(&self, heaps: &Vec<u64>, mv: &Take) -> Vec<Clicks> {
        let lowest = heaps[mv.heap] - mv.take + 1;
        one_step(vec![format!("h{}t{lowest}", mv.heap + 1)])
    }

    /// The heap taken from.
    fn landed(&self, _heaps: &Vec<u64>, mv: &Take) -> Vec<String> {
        vec![format!("h{}", mv.heap + 1)]
    }
}

impl Editing<Heaps> for Heaps {
    fn tools(&self) -> Vec<Tool> {
        heap_picture::tools()
    }

    fn edit(&self, text: &str, place: &str, tool: &str) -> Result<String, GameError> {
        let heaps = heap_picture::edit(parse_heaps(text)?, place, tool)?;
        Ok(write_heaps(&heaps))
    }

    fn sketch(&self, text: &str) -> Result<String, GameError> {
        Ok(self.svg(&parse_heaps(text)?, &Marks::default()))
    }
}

impl Layered<Heaps> for Heaps {
    fn layers(&self, _tier: u32) -> u32 {
        (TABLE_HEAPS as u64 * TABLE_HEAP_SIZE + 1) as u32
    }

    /// Fewer stones, later layer: every move takes at least one.
    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        let heaps = self
            .position_at(tier, index)
            .expect("every slot holds heaps");
        self.layers(tier) - 1 - Self::total(&heaps) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    fn wins(rule: Rule, heaps: &[u64]) -> bool {
        matches!(
            Negamax::new(&Heaps::new(rule)).value(&heaps.to_vec()),
            Value::Win(_)
        )
    }

    #[test]
    fn formula_matches_search_and_names_every_winning_move() {
        for rule in [Rule::Nim, Rule::Misere, Rule::Subtract(3)] {
            let positions = (0..6u64)
                .flat_map(|a| (0..6u64).flat_map(move |b| (0..5u64).map(move |c| vec![a, b, c])));
            crate::testing::formula_matches_search(&Heaps::new(rule), positions);
        }
        assert!(wins(Rule::Misere, &[1, 1]));
        assert!(!wins(Rule::Misere, &[1, 1, 1]));
        assert!(!wins(Rule::Nim, &[1, 2, 3]));
    }

    #[test]
    fn huge_positions_are_answered_by_the_formula() {
        let heaps: Vec<u64> = (1..=1000).map(|i| u64::MAX - i).collect();
        let v = verdict(Rule::Nim, &heaps);
        // 1000 values u64::MAX - i: the xor of i for i in 1..=1000 is 1000, so the
        // nim-sum is 1000 (an even count of all-ones words cancels).
        assert_eq!(v.nim_sum, 1000);
        assert!(v.mover_wins);
        for m in &v.winning_moves {
            let mut after = heaps.clone();
            after[m.heap] -= m.take;
            assert!(!verdict(Rule::Nim, &after).mover_wins);
        }
        assert!(!v.winning_moves.is_empty());
    }

    #[test]
    fn notation_is_checked() {
        assert_eq!(parse_heaps("3, 4 5").unwrap(), vec![3, 4, 5]);
        assert_eq!(parse_heaps("").unwrap(), Vec::<u64>::new());
        assert!(parse_heaps("3 -1").is_err());
        assert!(parse_heaps("3 x").is_err());
        assert!(parse_heaps("18446744073709551616").is_err());
        let nim = Heaps::new(Rule::Nim);
        let covered = |text: &str| nim.coverage(&nim.parse_position(text).unwrap()).is_ok();
        assert!(!covered("1 2 3 4 5 6 7"));
        assert!(!covered("16"));
        assert!(covered("1 2 3 0 4 5 6"));
        assert_eq!(nim.write_move(&vec![3], &Take { heap: 0, take: 2 }), "h1-2");
        assert_eq!(nim.index(&vec![3, 0, 1]), nim.index(&vec![1, 3]));
    }
}
