//! Abapa beyond probing: who wins the whole game given the seeds already captured,
//! verification by value iteration, and play against the computer, which searches
//! where the tables end and reads them as exact values where they begin.

use crate::error::QueryError;
use crate::tablebase::Tablebase;
use games::abapa::{self, Abapa, Pits, TOTAL_SEEDS};
use games::{Game, GameError, Value};
use serde_json::{Value as Json, json};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// Seeds that win a whole game: more than half.
const WINNING_SEEDS: f64 = TOTAL_SEEDS as f64 / 2.0;

/// Reads `--captured M,O`: the seeds already captured by the mover and the
/// opponent, which with the seeds on the board must make 48.
pub fn parse_captured(text: &str, pits: &Pits) -> Result<(u32, u32), GameError> {
    let bad = |reason: String| GameError::position(text, reason);
    let (mine, theirs) = text
        .split_once(',')
        .ok_or_else(|| bad("write the captured seeds as M,O (mover, opponent)".into()))?;
    let number = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| bad(format!("'{s}' is not a number of seeds")))
    };
    let (mine, theirs) = (number(mine)?, number(theirs)?);
    let on_board = abapa::seeds(pits);
    if mine + theirs + on_board != TOTAL_SEEDS {
        return Err(bad(format!(
            "{mine} + {theirs} captured and {on_board} on the board make {}, not {TOTAL_SEEDS}",
            mine + theirs + on_board
        )));
    }
    Ok((mine, theirs))
}

/// The final totals under perfect play from a position worth `score` to the
/// mover, with `captured` seeds already taken; endless play shares the seeds
/// left evenly (so a total may end in a half).
pub fn whole_game(score: i16, on_board: u32, captured: (u32, u32)) -> (f64, f64) {
    let left = f64::from(on_board);
    let score = f64::from(score);
    (
        f64::from(captured.0) + (left + score) / 2.0,
        f64::from(captured.1) + (left - score) / 2.0,
    )
}

fn winner(totals: (f64, f64)) -> &'static str {
    if totals.0 > WINNING_SEEDS {
        "mover"
    } else if totals.1 > WINNING_SEEDS {
        "opponent"
    } else {
        "draw"
    }
}

/// The whole-game verdict as JSON and as a line of text.
pub fn whole_game_answer(score: i16, pits: &Pits, captured: (u32, u32)) -> (Json, String) {
    let totals = whole_game(score, abapa::seeds(pits), captured);
    let who = winner(totals);
    let json = json!({
        "captured": [captured.0, captured.1],
        "final": [totals.0, totals.1],
        "winner": who,
    });
    let verdict = match who {
        "mover" => "the mover wins the game",
        "opponent" => "the opponent wins the game",
        _ => "the game is drawn",
    };
    let line = format!(
        "with {} and {} captured: {verdict}, {} to {} under perfect play",
        captured.0, captured.1, totals.0, totals.1
    );
    (json, line)
}

/// The outcome of comparing tables with value iteration.
#[derive(Debug, Default)]
pub struct Report {
    pub checked: u64,
    pub mismatches: Vec<String>,
}

/// Compares every position of the tables of 0 to `max_seeds` seeds with value
/// iteration (`games::abapa::value_iteration`), a solver written without
/// un-moves or thresholds.
pub fn verify(tb: &Tablebase<Abapa>, max_seeds: u32) -> Result<Report, QueryError> {
    let game = tb.game();
    let iterated = abapa::value_iteration(game.rules, max_seeds);
    let mut report = Report::default();
    for (n, values) in iterated.iter().enumerate() {
        let codes = tb.table(n as u32)?.read_all()?;
        for (index, (&code, &expected)) in codes.iter().zip(values).enumerate() {
            report.checked += 1;
            let stored = Value::from_code(game.value_kind(), code);
            if stored != Some(Value::Score(i16::from(expected))) {
                let pits = abapa::unrank(n as u32, index as u64);
                let stored = stored.map_or("nothing".into(), |v| v.to_string());
                report.mismatches.push(format!(
                    "{}: table says {stored}, value iteration says {expected:+}",
                    game.write_position(&pits)
                ));
            }
        }
    }
    Ok(report)
}

/// The largest `n` such that the tables of 0..=n seeds are all present.
pub fn tables_reach(tb: &Tablebase<Abapa>) -> Option<u32> {
    let game = tb.game();
    (0..=game.max_seeds)
        .take_while(|&n| tb.path(n).exists())
        .last()
}

/// The computer's opponent: alpha-beta search of the net seeds it can win, with
/// exact values from the tables as soon as the seeds on the board are within them.
#[derive(Debug)]
pub struct Engine<'a> {
    tb: &'a Tablebase<'a, Abapa>,
    reach: Option<u32>,
    budget: Duration,
}

/// What the engine decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub pit: usize,
    /// Net seeds the move is worth to the mover (exact when `depth` is None).
    pub score: i32,
    /// Plies searched; None when the tables answered exactly.
    pub depth: Option<u32>,
}

/// Deepest search the engine tries.
const MAX_DEPTH: u32 = 40;

impl<'a> Engine<'a> {
    pub fn new(tb: &'a Tablebase<'a, Abapa>, budget: Duration) -> Engine<'a> {
        Engine {
            tb,
            reach: tables_reach(tb),
            budget,
        }
    }

    fn exact(&self, pits: &Pits) -> Result<Option<i32>, QueryError> {
        if self.reach.is_none_or(|r| abapa::seeds(pits) > r) {
            return Ok(None);
        }
        match self.tb.value(pits)? {
            Value::Score(s) => Ok(Some(i32::from(s))),
            other => unreachable!("abapa tables hold scores, not {other}"),
        }
    }

    /// The best move: exact from the tables where they reach, otherwise by
    /// iterative deepening until the time budget is spent.
    pub fn choose(&self, pits: &Pits) -> Result<Choice, QueryError> {
        let game = self.tb.game();
        let moves = game.moves(pits);
        assert!(!moves.is_empty(), "choose needs a position with moves");
        if self.exact(pits)?.is_some() {
            // Every move valued from the tables, best first.
            let best = crate::probe(self.tb, pits)?.moves.swap_remove(0);
            let Value::Score(score) = best.value else {
                unreachable!("abapa tables hold scores")
            };
            return Ok(Choice {
                pit: best.mv,
                score: i32::from(score),
                depth: None,
            });
        }
        let started = Instant::now();
        let mut best = Choice {
            pit: moves[0],
            score: 0,
            depth: Some(0),
        };
        for depth in 1..=MAX_DEPTH {
            let mut alpha = -i32::MAX;
            let mut choice = best;
            // The previous best first: it makes the cut-offs.
            let mut ordered = moves.clone();
            ordered.sort_by_key(|&m| m != best.pit);
            for pit in ordered {
                let sowing = game.rules.sow(pits, pit);
                let score = i32::from(sowing.gain)
                    - self.search(&sowing.after, depth - 1, -i32::MAX, -alpha)?;
                if score > alpha {
                    alpha = score;
                    choice = Choice {
                        pit,
                        score,
                        depth: Some(depth),
                    };
                }
            }
            best = choice;
            // Each ply costs a few times the last: stop before overrunning.
            if started.elapsed() * 4 > self.budget {
                break;
            }
        }
        Ok(best)
    }

    /// Negamax with alpha-beta: net seeds for the mover within `depth` plies,
    /// the game cut there counting 0.
    fn search(
        &self,
        pits: &Pits,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, QueryError> {
        if let Some(exact) = self.exact(pits)? {
            return Ok(exact);
        }
        if let Some(end) = abapa::end_score(pits) {
            return Ok(i32::from(end));
        }
        if depth == 0 {
            return Ok(0);
        }
        let rules = self.tb.game().rules;
        let mut children: Vec<_> = abapa::legal_pits(pits)
            .map(|pit| rules.sow(pits, pit))
            .collect();
        // Captures first.
        children.sort_by_key(|s| -s.gain);
        let mut best = -i32::MAX;
        for sowing in children {
            let score =
                i32::from(sowing.gain) - self.search(&sowing.after, depth - 1, -beta, -alpha)?;
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}

/// Who plays the next move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Player {
    Human,
    Computer,
}

/// Plays a game against the engine from `start`, the human first or not; returns
/// the final captures (human, computer), or None when the human quits.
pub fn play(
    tb: &Tablebase<Abapa>,
    start: Pits,
    human_first: bool,
    budget: Duration,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Option<(u32, u32)>, QueryError> {
    let game = tb.game();
    let engine = Engine::new(tb, budget);
    match engine.reach {
        Some(r) => writeln!(
            out,
            "tables: exact play with {r} seeds or fewer on the board"
        )?,
        None => writeln!(out, "no tables found: the computer only searches")?,
    }
    let mut pits = start;
    let mut to_move = if human_first {
        Player::Human
    } else {
        Player::Computer
    };
    let mut captured = [0u32; 2]; // by Player
    let mut seen: HashMap<(Pits, bool), u32> = HashMap::new();
    loop {
        let other = if to_move == Player::Human {
            Player::Computer
        } else {
            Player::Human
        };
        let yours = if to_move == Player::Human {
            pits
        } else {
            abapa::flip(&pits)
        };
        writeln!(
            out,
            "\n{}\ncaptured: you {}, computer {}",
            draw_for_human(&yours),
            captured[Player::Human as usize],
            captured[Player::Computer as usize]
        )?;
        if let Some(end) = abapa::end_score(&pits) {
            let taker = if end > 0 { to_move } else { other };
            captured[taker as usize] += abapa::seeds(&pits);
            writeln!(
                out,
                "Game over: the {} seeds left go to {}.",
                abapa::seeds(&pits),
                name(taker)
            )?;
            return Ok(Some(finish(&captured, out)?));
        }
        let repeats = seen.entry((pits, to_move == Player::Human)).or_default();
        *repeats += 1;
        if *repeats == 3 {
            writeln!(
                out,
                "The position has come round a third time: each side keeps its seeds."
            )?;
            captured[to_move as usize] += pits[..6].iter().map(|&s| u32::from(s)).sum::<u32>();
            captured[other as usize] += pits[6..].iter().map(|&s| u32::from(s)).sum::<u32>();
            return Ok(Some(finish(&captured, out)?));
        }
        let pit = match to_move {
            Player::Computer => {
                let choice = engine.choose(&pits)?;
                let how = match choice.depth {
                    None => "exact, from the tables".to_string(),
                    Some(d) => format!("searched {d} plies ahead"),
                };
                writeln!(
                    out,
                    "computer plays {} ({:+} seeds for it, {how})",
                    game.write_move(&pits, &choice.pit),
                    choice.score
                )?;
                choice.pit
            }
            Player::Human => loop {
                write!(out, "your move (a-f, hint, quit): ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out)?;
                    return Ok(None);
                }
                match line.trim() {
                    "" => continue,
                    "quit" | "q" => return Ok(None),
                    "hint" => {
                        let choice = engine.choose(&pits)?;
                        writeln!(
                            out,
                            "hint: {} ({:+})",
                            game.write_move(&pits, &choice.pit),
                            choice.score
                        )?;
                    }
                    text => match game.parse_move(&pits, text) {
                        Ok(pit) => break pit,
                        Err(e) => writeln!(out, "{e}")?,
                    },
                }
            },
        };
        let sowing = game.rules.sow(&pits, pit);
        match sowing.shared {
            Some((mine, theirs)) => {
                let took = sowing.gain as i32 - (i32::from(mine) - i32::from(theirs));
                captured[to_move as usize] += took as u32 + u32::from(mine);
                captured[other as usize] += u32::from(theirs);
                writeln!(
                    out,
                    "Both sides hold fewer than 4 seeds: each keeps its own."
                )?;
                return Ok(Some(finish(&captured, out)?));
            }
            None => captured[to_move as usize] += sowing.gain as u32,
        }
        pits = sowing.after;
        to_move = other;
    }
}

/// The board with the computer's row on top and the human's (pits a-f) below.
fn draw_for_human(yours: &Pits) -> String {
    let cell = |s: u8| format!("{s:>3}");
    let top: String = (6..12).rev().map(|j| cell(yours[j])).collect();
    let bottom: String = (0..6).map(|j| cell(yours[j])).collect();
    let letters: String = ('a'..='f').map(|c| format!("{c:>3}")).collect();
    format!("{top}   computer\n{bottom}   you\n{letters}")
}

fn name(player: Player) -> &'static str {
    match player {
        Player::Human => "you",
        Player::Computer => "the computer",
    }
}

fn finish(captured: &[u32; 2], out: &mut impl Write) -> Result<(u32, u32), QueryError> {
    let (you, computer) = (
        captured[Player::Human as usize],
        captured[Player::Computer as usize],
    );
    let verdict = match you.cmp(&computer) {
        std::cmp::Ordering::Greater => "You win",
        std::cmp::Ordering::Less => "The computer wins",
        std::cmp::Ordering::Equal => "Drawn",
    };
    writeln!(out, "{verdict}: you {you}, computer {computer}.")?;
    Ok((you, computer))
}
