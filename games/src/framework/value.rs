//! Game-theoretic values, always from the point of view of the player to move,
//! and their 16-bit codes as stored in table files.

use std::cmp::Ordering;
use std::fmt;

/// What a game's values are: win/loss/draw with a distance, or a net score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `Win(n)`, `Loss(n)` or `Draw`, with `n` plies to the end under perfect play.
    WinLossDraw,
    /// The best net score the mover can still secure.
    Score,
}

impl ValueKind {
    /// The tag written into table headers; a reader refuses a table whose tag differs.
    pub fn tag(self) -> &'static str {
        match self {
            ValueKind::WinLossDraw => "wld16",
            ValueKind::Score => "score16",
        }
    }

    /// The kind whose tag a table header gives.
    pub fn from_tag(tag: &str) -> Option<ValueKind> {
        [ValueKind::WinLossDraw, ValueKind::Score]
            .into_iter()
            .find(|kind| kind.tag() == tag)
    }
}

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The mover wins; the winner ends as fast as it can, in this many plies.
    Win(u16),
    /// The mover loses; the loser holds out as long as it can, for this many plies.
    Loss(u16),
    /// Neither side can force a win.
    Draw,
    /// The best net score (own minus opponent's) the mover can still secure.
    /// Tables store scores of -32767 to 32767; answers computed on demand (pick
    /// from the ends) may be larger.
    Score(i64),
}

/// The code reserved for an index slot that holds no legal position.
pub const NO_POSITION: u16 = 0;

/// What a table's codes count up to, as its header records it: the slots with
/// a position, the wins, losses and draws among them (score games: by sign),
/// and the longest distance (score games: the largest absolute score).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub longest: u32,
}

impl Tally {
    /// The tally of codes of `kind`, `counts` of each indexed by code; a code
    /// of no value (an empty slot) is skipped.
    pub fn of_counts(kind: ValueKind, counts: &[u64]) -> Tally {
        let mut tally = Tally::default();
        for (code, &count) in counts.iter().enumerate() {
            let Some(value) = Value::from_code(kind, code as u16).filter(|_| count > 0) else {
                continue;
            };
            tally.positions += count;
            match value.outcome() {
                "win" => tally.wins += count,
                "loss" => tally.losses += count,
                _ => tally.draws += count,
            }
            let longest = match value {
                Value::Win(n) | Value::Loss(n) => u32::from(n),
                Value::Score(s) => u32::try_from(s.unsigned_abs()).unwrap_or(u32::MAX),
                Value::Draw => 0,
            };
            tally.longest = tally.longest.max(longest);
        }
        tally
    }

    /// Positions, wins, losses, draws and the longest, as a table checks them
    /// (`tables::Figures`).
    pub fn figures(&self) -> (u64, u64, u64, u64, u32) {
        (
            self.positions,
            self.wins,
            self.losses,
            self.draws,
            self.longest,
        )
    }
}

/// The largest distance a win/loss code can carry.
pub const MAX_DISTANCE: u16 = (u16::MAX - 3) / 2;

/// The largest score, either way, a score code can carry.
pub const MAX_SCORE: i64 = 0x7fff;

impl Value {
    /// The value the mover gets by making a move that leads to `child` (a value for
    /// the player to move there). `turn_passes` is false when the mover moves again;
    /// `gain` is what the move itself scores for the mover (score games only).
    pub fn through(child: Value, turn_passes: bool, gain: i64) -> Value {
        match (child, turn_passes) {
            (Value::Win(n), true) => Value::Loss(n + 1),
            (Value::Loss(n), true) => Value::Win(n + 1),
            (Value::Win(n), false) => Value::Win(n + 1),
            (Value::Loss(n), false) => Value::Loss(n + 1),
            (Value::Draw, _) => Value::Draw,
            (Value::Score(s), true) => Value::Score(gain - s),
            (Value::Score(s), false) => Value::Score(gain + s),
        }
    }

    /// The value as a move that restarts a count of plies sees it (a capture or
    /// a pawn move under the 50-move rule): only the outcome within `limit`
    /// plies counts, so a win or loss within the limit is one at once and one
    /// beyond it one at exactly the limit. A move into a loss beyond the limit
    /// is then a win beyond it too: a win the limit spoils (a cursed win).
    pub fn restarted(self, limit: u16) -> Value {
        match self {
            Value::Win(n) => Value::Win(if n <= limit { 0 } else { limit }),
            Value::Loss(n) => Value::Loss(if n <= limit { 0 } else { limit }),
            other => other,
        }
    }

    /// How good the value is for the mover: a larger rank is better. Wins rank above
    /// draws above losses; a faster win and a slower loss rank higher.
    fn rank(self) -> i64 {
        match self {
            Value::Win(n) => i64::MAX - i64::from(n),
            Value::Draw => 0,
            Value::Loss(n) => i64::MIN + 1 + i64::from(n),
            Value::Score(s) => s,
        }
    }

    /// The better of two values for the mover.
    pub fn best(self, other: Value) -> Value {
        if other.better_than(self) { other } else { self }
    }

    /// Whether `self` is strictly better for the mover than `other`.
    pub fn better_than(self, other: Value) -> bool {
        self.cmp_for_mover(other) == Ordering::Greater
    }

    /// Orders values by how good they are for the mover.
    pub fn cmp_for_mover(self, other: Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }

    /// The word for the outcome: `win`, `loss` or `draw` (for scores, by sign).
    pub fn outcome(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
            Value::Score(s) if s > 0 => "win",
            Value::Score(s) if s < 0 => "loss",
            Value::Score(_) => "draw",
        }
    }

    /// Plies to the end, where the value carries them.
    pub fn distance(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw | Value::Score(_) => None,
        }
    }

    /// The 16-bit code stored in a table. Code 0 is reserved for "no position".
    ///
    /// Win/loss/draw: 1 is a draw, `2 + 2n` a win in `n`, `3 + 2n` a loss in `n`.
    /// Score: `s + 0x8000` for scores of -32767 to 32767.
    ///
    /// Panics on a value no code holds: solvers store only what their games reach.
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => 1,
            Value::Win(n) => {
                assert!(n <= MAX_DISTANCE, "distance {n} too long to store");
                2 + 2 * n
            }
            Value::Loss(n) => {
                assert!(n <= MAX_DISTANCE, "distance {n} too long to store");
                3 + 2 * n
            }
            Value::Score(s) => {
                assert!(
                    (-MAX_SCORE..=MAX_SCORE).contains(&s),
                    "score {s} cannot be stored"
                );
                (s + 0x8000) as u16
            }
        }
    }

    /// Decodes a table code; `None` for the reserved "no position" code.
    pub fn from_code(kind: ValueKind, code: u16) -> Option<Value> {
        if code == NO_POSITION {
            return None;
        }
        Some(match kind {
            ValueKind::WinLossDraw => match code {
                1 => Value::Draw,
                c if c % 2 == 0 => Value::Win((c - 2) / 2),
                c => Value::Loss((c - 3) / 2),
            },
            ValueKind::Score => Value::Score(i64::from(code) - 0x8000),
        })
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => write!(f, "draw"),
            Value::Score(s) => write!(f, "score {s:+}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ranks_faster_wins_and_slower_losses_higher() {
        assert!(Value::Win(1).better_than(Value::Win(3)));
        assert!(Value::Win(99).better_than(Value::Draw));
        assert!(Value::Draw.better_than(Value::Loss(99)));
        assert!(Value::Loss(5).better_than(Value::Loss(2)));
        assert_eq!(Value::Loss(2).best(Value::Loss(4)), Value::Loss(4));
    }

    /// A capture or pawn move under the 50-move rule: Syzygy's DTZ of a zeroing
    /// move is 1 into a win, 101 into a cursed win, -101 into a blessed loss.
    #[test]
    fn a_restarting_move_counts_by_outcome_within_the_limit() {
        let zeroing = |child: Value| Value::through(child.restarted(100), true, 0);
        assert_eq!(zeroing(Value::Loss(0)), Value::Win(1));
        assert_eq!(zeroing(Value::Loss(100)), Value::Win(1));
        assert_eq!(zeroing(Value::Loss(101)), Value::Win(101));
        assert_eq!(zeroing(Value::Win(37)), Value::Loss(1));
        assert_eq!(zeroing(Value::Win(240)), Value::Loss(101));
        assert_eq!(zeroing(Value::Draw), Value::Draw);
    }

    #[test]
    fn through_a_move_negates_and_adds_a_ply() {
        assert_eq!(Value::through(Value::Win(0), true, 0), Value::Loss(1));
        assert_eq!(Value::through(Value::Loss(4), true, 0), Value::Win(5));
        assert_eq!(Value::through(Value::Draw, true, 0), Value::Draw);
        assert_eq!(Value::through(Value::Score(3), true, 1), Value::Score(-2));
        assert_eq!(Value::through(Value::Score(3), false, 1), Value::Score(4));
    }

    #[test]
    fn reserved_code_is_no_position() {
        assert_eq!(Value::from_code(ValueKind::WinLossDraw, NO_POSITION), None);
        assert_eq!(Value::from_code(ValueKind::Score, NO_POSITION), None);
        assert_eq!(Value::Draw.code(), 1);
        assert_eq!(Value::Win(0).code(), 2);
        assert_eq!(Value::Loss(0).code(), 3);
    }

    proptest! {
        #[test]
        fn wld_codes_round_trip(n in 0..=MAX_DISTANCE, kind in 0..3u8) {
            let v = [Value::Win(n), Value::Loss(n), Value::Draw][kind as usize];
            prop_assert_eq!(Value::from_code(ValueKind::WinLossDraw, v.code()), Some(v));
        }

        #[test]
        fn score_codes_round_trip(s in -MAX_SCORE..=MAX_SCORE) {
            let v = Value::Score(s);
            prop_assert_eq!(Value::from_code(ValueKind::Score, v.code()), Some(v));
        }
    }
}
