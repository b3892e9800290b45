//! Counting games, one-heap subtraction games in disguise: players in turn say a
//! number a little above the last one said.
//!
//! - The 21 game, as the Nim thesis gives it (`--rules thesis`, the default): the
//!   first player names any whole number from 1 to 19; then each says a number 1
//!   to 3 above the last, never above 21; whoever must say 21 loses. The first
//!   player wins by naming 4, 8, 12 or 16.
//! - As the course gives it (`--rules course`): from 0, each adds 1 or 2; whoever
//!   reaches 21 or more loses. The first player wins by saying 2, then 5, 8, ...,
//!   20.
//! - `--rules count`: from 0, say a number 1 to 3 above the last; whoever must
//!   say 21 loses. The second player wins.
//! - The 100 game: from 0, add 1 to 10; whoever reaches 100 wins.
//!
//! The formula: saying the goal (20 in the 21 games, where 21 loses; 100 in the
//! 100 game) wins, and so does every number that leaves the goal a multiple of
//! `max_add + 1` away. The position is the last number said, `0` before any.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Layered, Marks, Picture, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values};
use crate::svg::Svg;
use crate::value::{Value, ValueKind};

fn capabilities(game: &Counting) -> Capabilities<'_, Counting> {
    Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    }
}

pub static GAME21: Spec<Counting> = Spec {
    entry: Entry {
        id: "game21",
        extras: Extras::NONE,
        about: "The 21 game: say a number a little above the last; who must say 21 loses",
        notation: "the last number said, 0 before the first: 0; a move is the number said: 4",
        options: &[OptionSpec {
            name: "rules",
            help: "thesis: name any of 1 to 19 first, then say 1 to 3 more, never above 21, and who must say 21 loses; \
                   course: from 0 add 1 or 2, and who reaches 21 or more loses; \
                   count: from 0 say 1 to 3 more, and who must say 21 loses",
            scope: Scope::Variant,
            values: Values::Choice(&["thesis", "course", "count"]),
            default: Some("thesis"),
            positional: false,
        }],
        all: &[&[("rules", "thesis,course,count")]],
    },
    build: |options| match options.get("rules") {
        Some("course") => Ok(COURSE_21),
        Some("count") => Ok(COUNT_21),
        _ => Ok(THESIS_21),
    },
    capabilities,
    generate_options: |game, _| match game.rules {
        "thesis" => Vec::new(),
        rules => vec![("rules", rules.to_string())],
    },
};

pub static GAME100: Spec<Counting> = Spec {
    entry: Entry {
        id: "game100",
        extras: Extras::NONE,
        about: "The 100 game: from 0, add 1 to 10; who reaches 100 wins",
        notation: "the running total, 0 before the first move: 0; a move is the new total: 12",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(HUNDRED),
    capabilities,
    generate_options: crate::spec::no_generate_options,
};

/// A counting game: after `said`, the next number is 1 to `max_add` above it
/// (the first, 1 to `first_max` where the rules say so), never above `target`
/// unless `overshoot`. Whoever says `target` (or more) loses where
/// `target_loses`, wins otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counting {
    pub id: &'static str,
    /// The rule set's name, `""` where the game has one.
    pub rules: &'static str,
    pub target: u64,
    pub max_add: u64,
    pub target_loses: bool,
    /// The largest first number, where the first may be any from 1.
    pub first_max: Option<u64>,
    /// Whether a number may pass the target.
    pub overshoot: bool,
}

/// The 21 game as the Nim thesis gives it.
pub const THESIS_21: Counting = Counting {
    id: "game21",
    rules: "thesis",
    target: 21,
    max_add: 3,
    target_loses: true,
    first_max: Some(19),
    overshoot: false,
};

/// The 21 game as the course gives it.
pub const COURSE_21: Counting = Counting {
    id: "game21",
    rules: "course",
    target: 21,
    max_add: 2,
    target_loses: true,
    first_max: None,
    overshoot: true,
};

/// The 21 game counted from 0 by 1 to 3.
pub const COUNT_21: Counting = Counting {
    id: "game21",
    rules: "count",
    target: 21,
    max_add: 3,
    target_loses: true,
    first_max: None,
    overshoot: false,
};

/// The 100 game: add 1 to 10; whoever reaches 100 wins.
pub const HUNDRED: Counting = Counting {
    id: "game100",
    rules: "",
    target: 100,
    max_add: 10,
    target_loses: false,
    first_max: None,
    overshoot: false,
};

impl Counting {
    /// The number whose sayer wins: the target, or the one below it when saying
    /// the target loses.
    fn goal(&self) -> u64 {
        self.target - u64::from(self.target_loses)
    }

    /// The largest number that can be said.
    fn largest(&self) -> u64 {
        match self.overshoot {
            true => self.target - 1 + self.max_add,
            false => self.target,
        }
    }

    /// The numbers the formula says win from `said`: those at or below the goal
    /// that leave it a multiple of `max_add + 1` away.
    pub fn winning_numbers(&self, said: u64) -> Vec<u64> {
        let goal = self.goal();
        self.moves(&said)
            .into_iter()
            .filter(|&n| n <= goal && (goal - n) % (self.max_add + 1) == 0)
            .collect()
    }
}

impl Game for Counting {
    type Position = u64;
    type Move = u64;

    fn id(&self) -> &'static str {
        self.id
    }

    fn variant(&self) -> String {
        match self.rules {
            "" | "thesis" => String::new(),
            rules => rules.to_string(),
        }
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        self.largest() + 1
    }

    fn index(&self, said: &u64) -> u64 {
        *said
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<u64> {
        (index <= self.largest()).then_some(index)
    }

    fn start(&self) -> u64 {
        0
    }

    fn moves(&self, said: &u64) -> Vec<u64> {
        if *said >= self.target {
            return Vec::new();
        }
        let most = match (said, self.first_max) {
            (0, Some(first)) => first,
            _ => said + self.max_add,
        };
        let most = if self.overshoot {
            most
        } else {
            most.min(self.target)
        };
        (said + 1..=most).collect()
    }

    fn play(&self, _said: &u64, number: &u64) -> Child<u64> {
        Child::passing(*number)
    }

    /// The target has been reached: by the opponent, who lost or won with it.
    fn end_value(&self, said: &u64) -> Option<Value> {
        (*said >= self.target).then_some(if self.target_loses {
            Value::Win(0)
        } else {
            Value::Loss(0)
        })
    }

    fn why_over(&self, said: &u64) -> String {
        let who = if self.target_loses { "lost" } else { "won" };
        format!("the opponent said {said}, and {who}")
    }

    fn parse_position(&self, text: &str) -> Result<u64, GameError> {
        match text.trim().parse::<u64>() {
            Ok(n) if n <= self.largest() => Ok(n),
            _ => Err(GameError::position(
                text,
                format!(
                    "the position is the last number said, 0 to {}",
                    self.largest()
                ),
            )),
        }
    }

    fn write_position(&self, said: &u64) -> String {
        said.to_string()
    }

    fn write_move(&self, _said: &u64, number: &u64) -> String {
        number.to_string()
    }
}

impl ClosedForm<Counting> for Counting {
    fn formula(&self, said: &u64) -> Result<Formula<u64>, GameError> {
        let winning = self.winning_numbers(*said);
        let over_and_won = *said >= self.target && self.target_loses;
        Ok(Formula {
            mover_wins: !winning.is_empty() || over_and_won,
            nim_sum: Some(self.goal().saturating_sub(*said) % (self.max_add + 1)),
            part_values: None,
            winning_moves: winning,
        })
    }

    fn measure(&self) -> &'static str {
        "numbers left to say"
    }

    fn left(&self, said: &u64) -> u64 {
        self.target.saturating_sub(*said)
    }
}

impl Picture<Counting> for Counting {
    /// The numbers from 1, ten to a row: those said grey, the last one said
    /// marked, the ones that may be said next to click.
    fn svg(&self, said: &u64, _marks: &Marks) -> String {
        let (box_px, pad) = (46.0, 20.0);
        let last = self.largest();
        let rows = last.div_ceil(10) as f64;
        let mut svg = Svg::new(2.0 * pad + 10.0 * box_px, 2.0 * pad + rows * box_px + 40.0);
        svg.text(
            pad + 5.0 * box_px,
            pad + 10.0,
            &format!("said: {said}"),
            "big",
        );
        let next = self.moves(said);
        for n in 1..=last {
            let i = n - 1;
            let (x, y) = (
                pad + (i % 10) as f64 * box_px,
                pad + 40.0 + (i / 10) as f64 * box_px,
            );
            let name = format!("n{n}");
            let class = if n == *said {
                "said"
            } else if n < *said {
                "done"
            } else {
                "cell"
            };
            let place = next.contains(&n).then_some(name.as_str());
            svg.rect(x + 2.0, y + 2.0, box_px - 4.0, box_px - 4.0, class, place);
            svg.text(x + box_px / 2.0, y + box_px / 2.0, &n.to_string(), "label");
        }
        svg.finish(&format!("{}: {said} said", self.id))
    }

    fn places(&self, _said: &u64, number: &u64) -> Vec<Clicks> {
        one_step(vec![format!("n{number}")])
    }

    /// Nothing: the board marks the number said last itself.
    fn landed(&self, _said: &u64, _number: &u64) -> Vec<String> {
        Vec::new()
    }
}

impl Layered<Counting> for Counting {
    fn layers(&self, _tier: u32) -> u32 {
        self.largest() as u32 + 1
    }

    fn layer_of_index(&self, _tier: u32, index: u64) -> u32 {
        index as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    #[test]
    fn the_sources_winning_numbers() {
        // The thesis: the first player wins by naming 4, 8, 12 or 16.
        assert_eq!(THESIS_21.winning_numbers(0), [4, 8, 12, 16]);
        assert_eq!(THESIS_21.moves(&0), (1..=19).collect::<Vec<_>>());
        assert_eq!(THESIS_21.moves(&19), [20, 21]);
        // The course: say 2, then 5, 8, ..., 20.
        assert_eq!(COURSE_21.winning_numbers(0), [2]);
        assert_eq!(COURSE_21.winning_numbers(3), [5]);
        assert_eq!(COURSE_21.winning_numbers(18), [20]);
        assert_eq!(COURSE_21.moves(&20), [21, 22]);
        // Counting from 0 by 1 to 3: the second player wins.
        assert!(COUNT_21.winning_numbers(0).is_empty());
        assert_eq!(COUNT_21.winning_numbers(1), [4]);
        assert_eq!(HUNDRED.winning_numbers(0), [1]);
        assert!(HUNDRED.winning_numbers(12).is_empty());
        assert_eq!(HUNDRED.winning_numbers(13), [23]);
    }

    #[test]
    fn the_formula_agrees_with_search_on_every_position() {
        for game in [THESIS_21, COURSE_21, COUNT_21, HUNDRED] {
            crate::testing::formula_matches_search(&game, 0..=game.largest());
            let mut search = Negamax::new(&game);
            let first_wins = matches!(search.value(&0), Value::Win(_));
            assert_eq!(first_wins, game.rules != "count", "{}", game.rules);
        }
    }
}
