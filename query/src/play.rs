//! Playing against perfect play in the terminal (or any reader and writer).

use crate::error::QueryError;
use crate::probe::{MoveValue, Probe, probe};
use crate::tablebase::Tablebase;
use games::{Game, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// Who moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    Human,
    Computer,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Human => Side::Computer,
            Side::Computer => Side::Human,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    HumanWon,
    ComputerWon,
    Drawn,
    /// The human quit or input ended.
    Abandoned,
}

/// Plays from `start` until the game ends, the human types `quit` or input ends.
/// The human may type `hint` for every move with its value, or `moves`.
pub fn play<G: Game>(
    tb: &Tablebase<G>,
    start: G::Position,
    first: Side,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Ending, QueryError> {
    let game = tb.game();
    let mut position = start;
    let mut to_move = first;
    let mut score = [0i32; 2]; // human, computer: what moves themselves scored
    let mut owners: HashMap<usize, Side> = HashMap::new(); // scored places
    loop {
        let turn = match to_move {
            Side::Human => "your move",
            Side::Computer => "the computer's move",
        };
        writeln!(out, "\n{turn}: the board from the mover's side")?;
        let owner = |place: usize| match owners.get(&place) {
            Some(Side::Human) => 'Y',
            Some(Side::Computer) => 'C',
            None => '?',
        };
        writeln!(out, "{}", game.draw_owned(&position, &owner))?;
        if game.value_kind() == games::ValueKind::Score {
            writeln!(
                out,
                "score: you (Y) {}, computer (C) {}",
                score[0], score[1]
            )?;
        }
        let answer = probe(tb, &position)?;
        if answer.moves.is_empty() {
            let ending = ending_for(to_move, answer.value, score);
            let text = match ending {
                Ending::HumanWon => "You win.",
                Ending::ComputerWon => "The computer wins.",
                _ => "The game is drawn.",
            };
            writeln!(out, "Game over. {text}")?;
            return Ok(ending);
        }
        let chosen = match to_move {
            Side::Computer => {
                let (best, mistakes) = computer_choice(tb, &answer)?;
                write!(
                    out,
                    "computer plays {} ({} for the computer",
                    best.text, best.value
                )?;
                if mistakes > 0 {
                    write!(out, "; {mistakes} of your replies make it worse for you")?;
                }
                writeln!(out, ")")?;
                best
            }
            Side::Human => loop {
                write!(out, "your move (hint, moves, quit): ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out)?;
                    return Ok(Ending::Abandoned);
                }
                match line.trim() {
                    "" => continue,
                    "quit" | "q" => return Ok(Ending::Abandoned),
                    "hint" => writeln!(out, "{}", answer.to_text(game))?,
                    "moves" => {
                        let names: Vec<&str> =
                            answer.moves.iter().map(|m| m.text.as_str()).collect();
                        writeln!(out, "legal moves: {}", names.join(" "))?;
                    }
                    text => match game.parse_move(&position, text) {
                        Ok(mv) => {
                            break answer
                                .moves
                                .iter()
                                .find(|m| m.mv == mv)
                                .expect("legal move");
                        }
                        Err(e) => writeln!(out, "{e}")?,
                    },
                }
            },
        };
        for place in game.scored_places(&position, &chosen.mv) {
            owners.insert(place, to_move);
        }
        let child = game.play(&position, &chosen.mv);
        score[to_move as usize] += i32::from(child.gain);
        if child.turn_passes {
            to_move = to_move.other();
        }
        position = child.position;
    }
}

/// The computer's move: one that keeps the position's value (win fastest, lose
/// slowest), and among those the one that leaves the opponent the most replies
/// worse than their best, so a drawn game gives the human the most ways to go
/// wrong. Returns the move and that number of replies.
pub fn computer_choice<'a, G: Game>(
    tb: &Tablebase<G>,
    answer: &'a Probe<G>,
) -> Result<(&'a MoveValue<G>, usize), QueryError> {
    let mut choice = None;
    for candidate in answer.best_moves() {
        let reply = probe(tb, &candidate.after)?;
        let mistakes = reply
            .moves
            .iter()
            .filter(|r| reply.value.better_than(r.value))
            .count();
        if choice.is_none_or(|(_, most)| mistakes > most) {
            choice = Some((candidate, mistakes));
        }
    }
    Ok(choice.expect("a position with moves has a best move"))
}

/// Who won, given the end value for the side to move and the points already scored.
fn ending_for(to_move: Side, end: Value, score: [i32; 2]) -> Ending {
    let mover_wins = match end {
        Value::Win(_) => Some(true),
        Value::Loss(_) => Some(false),
        Value::Draw => None,
        Value::Score(s) => {
            let (mine, theirs) = (score[to_move as usize], score[to_move.other() as usize]);
            let margin = mine + i32::from(s) - theirs;
            (margin != 0).then_some(margin > 0)
        }
    };
    match (mover_wins, to_move) {
        (None, _) => Ending::Drawn,
        (Some(true), Side::Human) | (Some(false), Side::Computer) => Ending::HumanWon,
        _ => Ending::ComputerWon,
    }
}
