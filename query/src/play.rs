//! Playing in the terminal (or any reader and writer), for every game: people
//! against the computer, each other, or the computer against itself. The computer
//! plays perfectly from the tables, a formula or an exact solver, and where none
//! reaches (score games with cycles) it searches, reading the tables as exact
//! values as soon as a line reaches them.

use crate::engine::Engine;
use crate::error::QueryError;
use crate::oracle::{Known, Oracle};
use crate::probe::{MoveValue, Probe};
use crate::render;
use games::{Game, GameError, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::Duration;

/// Who makes a side's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    Human,
    Computer,
}

/// How a game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Who moves first, and who second.
    pub players: [Player; 2],
    /// How long the computer may search where nothing exact reaches.
    pub think: Duration,
}

impl Settings {
    /// A person against the computer, `first` moving first.
    pub fn against_computer(first: Player) -> Settings {
        let second = match first {
            Player::Human => Player::Computer,
            Player::Computer => Player::Human,
        };
        Settings {
            players: [first, second],
            think: Duration::from_secs(2),
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Won by the first (0) or second (1) player.
    Won(usize),
    Drawn,
    /// A person quit, or input ended.
    Abandoned,
}

/// The two sides' names, marks and what moves they make.
struct Seats {
    players: [Player; 2],
}

impl Seats {
    /// One person against the computer: "you" and "the computer".
    fn person_against_computer(&self) -> bool {
        self.players[0] != self.players[1]
    }

    fn name(&self, seat: usize) -> &'static str {
        match (self.person_against_computer(), self.players[seat], seat) {
            (true, Player::Human, _) => "you",
            (true, Player::Computer, _) => "the computer",
            (false, _, 0) => "the first player",
            (false, _, _) => "the second player",
        }
    }

    /// The name at the start of a sentence.
    fn subject(&self, seat: usize) -> String {
        let name = self.name(seat);
        let mut chars = name.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }

    /// How the computer is called when it moves: `computer`, or `first`.
    fn mover(&self, seat: usize) -> &'static str {
        match (self.person_against_computer(), seat) {
            (true, _) => "computer",
            (false, 0) => "first",
            (false, _) => "second",
        }
    }

    fn mark(&self, seat: usize) -> char {
        match (self.person_against_computer(), self.players[seat], seat) {
            (true, Player::Human, _) => 'Y',
            (true, Player::Computer, _) => 'C',
            (false, _, 0) => '1',
            (false, _, _) => '2',
        }
    }
}

/// Plays from `start` until the game ends, a person types `quit`, or input ends.
/// A person may type `hint` for every move with its value, or `moves`.
pub fn play<G: Game>(
    oracle: &Oracle<G>,
    start: G::Position,
    settings: Settings,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Ending, QueryError> {
    let game = oracle.game;
    let seats = Seats {
        players: settings.players,
    };
    let engine = oracle
        .caps
        .search_beyond_tables
        .then(|| Engine::new(oracle, settings.think));
    if let Some(engine) = &engine {
        match engine.reach() {
            Some(reach) => writeln!(
                out,
                "tables: exact play where they reach, up to the {reach} table"
            )?,
            None => writeln!(out, "no tables found: the computer only searches")?,
        }
    }
    let score_game = game.value_kind() == games::ValueKind::Score;
    let mut position = start;
    let mut seat = 0;
    let mut score = [0i64; 2];
    let mut owners: HashMap<usize, usize> = HashMap::new();
    let mut seen: HashMap<(G::Position, usize), u32> = HashMap::new();
    loop {
        let turn = match (seats.players[seat], seats.person_against_computer()) {
            (Player::Human, true) => "your move".to_string(),
            _ => format!("{}'s move", seats.name(seat)),
        };
        writeln!(out, "\n{turn}: the board from the mover's side")?;
        let owner = |place: usize| owners.get(&place).map_or('?', |&s| seats.mark(s));
        let drawn = match oracle.caps.drawing {
            Some(drawing) => drawing.draw_owned(&position, &owner),
            None => game.write_position(&position),
        };
        writeln!(out, "{drawn}")?;
        if score_game {
            writeln!(
                out,
                "score: {} ({}) {}, {} ({}) {}",
                seats.name(0),
                seats.mark(0),
                score[0],
                seats.name(1),
                seats.mark(1),
                score[1]
            )?;
        }
        if let Some(end) = game.end_value(&position) {
            let ending = finish(seat, end, &mut score);
            writeln!(
                out,
                "Game over. {}",
                verdict(&seats, ending, score_game, score)
            )?;
            return Ok(ending);
        }
        if game.has_cycles() {
            let repeats = seen.entry((position.clone(), seat)).or_default();
            *repeats += 1;
            if *repeats == 3 {
                // Endless play: a draw, or for score games what is left shared
                // evenly (a net result of 0), as the tables count it.
                let endless = if score_game {
                    Value::Score(0)
                } else {
                    Value::Draw
                };
                let ending = finish(seat, endless, &mut score);
                let shared = if score_game {
                    ", what is left is shared evenly"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "The position has come round a third time: the game is drawn{shared}. {}",
                    verdict(&seats, ending, score_game, score)
                )?;
                return Ok(ending);
            }
        }
        let mv = match seats.players[seat] {
            Player::Computer => {
                let (mv, reason) = computer_move(oracle, engine.as_ref(), &position)?;
                let them = match seats.person_against_computer() {
                    true => "the computer",
                    false => seats.name(seat),
                };
                let note = explain(oracle, &reason, them, seats.person_against_computer());
                writeln!(
                    out,
                    "{} plays {} ({note})",
                    seats.mover(seat),
                    game.write_move(&position, &mv)
                )?;
                mv
            }
            Player::Human => {
                let prompt = match seats.person_against_computer() {
                    true => "your move".to_string(),
                    false => format!("{}'s move", seats.name(seat)),
                };
                match human_move(oracle, engine.as_ref(), &position, &prompt, input, out)? {
                    Some(mv) => mv,
                    None => return Ok(Ending::Abandoned),
                }
            }
        };
        if let Some(drawing) = oracle.caps.drawing {
            for place in drawing.scored_places(&position, &mv) {
                owners.insert(place, seat);
            }
        }
        let child = game.play(&position, &mv);
        score[seat] += child.gain;
        if child.turn_passes {
            seat = 1 - seat;
        }
        position = child.position;
    }
}

/// The ending, with what the end leaves credited: an end value is the mover's
/// net result from here (score games), a draw shares what is left evenly.
fn finish(seat: usize, end: Value, score: &mut [i64; 2]) -> Ending {
    let winner = match end {
        Value::Win(_) => Some(seat),
        Value::Loss(_) => Some(1 - seat),
        Value::Draw => None,
        Value::Score(s) => {
            if s >= 0 {
                score[seat] += s;
            } else {
                score[1 - seat] -= s;
            }
            match score[0].cmp(&score[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            }
        }
    };
    match winner {
        Some(w) => Ending::Won(w),
        None => Ending::Drawn,
    }
}

fn verdict(seats: &Seats, ending: Ending, score_game: bool, score: [i64; 2]) -> String {
    let who = match ending {
        Ending::Won(w) if seats.name(w) == "you" => "You win".to_string(),
        Ending::Won(w) => format!("{} wins", seats.subject(w)),
        _ => "The game is drawn".to_string(),
    };
    if score_game {
        format!(
            "{who}: {} {}, {} {}.",
            seats.name(0),
            score[0],
            seats.name(1),
            score[1]
        )
    } else {
        format!("{who}.")
    }
}

/// How the computer chose a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// From exact values: the move's value for the computer, and how many of
    /// the opponent's replies make it worse for them.
    Exact { value: Value, mistakes: usize },
    /// A move the formula says wins.
    FormulaWins,
    /// The formula says every move loses.
    FormulaLoses,
    /// Search where nothing exact reaches: the net score found, and how deep
    /// (None where the tables answered).
    Search { score: i64, depth: Option<u32> },
}

/// The computer's move from `position`: perfect from the tables, the formula or
/// the exact solver, searched beyond them where the game allows it.
pub fn computer_move<G: Game>(
    oracle: &Oracle<G>,
    engine: Option<&Engine<G>>,
    position: &G::Position,
) -> Result<(G::Move, Reason), QueryError> {
    let known = match oracle.answer(position) {
        Ok(known) => known,
        Err(QueryError::Input(_) | QueryError::MissingTable { .. }) if engine.is_some() => {
            let choice = engine.expect("checked").choose(position)?;
            let reason = Reason::Search {
                score: choice.score,
                depth: choice.depth,
            };
            return Ok((choice.mv, reason));
        }
        Err(e) => return Err(e),
    };
    match known {
        Known::Valued { probe, .. } => {
            let (best, mistakes) = computer_choice(oracle, &probe)?;
            let reason = Reason::Exact {
                value: best.value,
                mistakes,
            };
            Ok((best.mv.clone(), reason))
        }
        Known::Formula { formula, .. } => match formula.winning_moves.first() {
            Some(mv) => Ok((mv.clone(), Reason::FormulaWins)),
            None => {
                let mv = oracle
                    .game
                    .moves(position)
                    .into_iter()
                    .next()
                    .ok_or_else(|| {
                        QueryError::Input(GameError::position(
                            &oracle.game.write_position(position),
                            "no move here",
                        ))
                    })?;
                Ok((mv, Reason::FormulaLoses))
            }
        },
    }
}

/// What the computer says of its move, for `them` (who it plays for).
pub fn explain<G: Game>(
    oracle: &Oracle<G>,
    reason: &Reason,
    them: &str,
    to_a_person: bool,
) -> String {
    match reason {
        Reason::Exact { value, mistakes } => {
            let mut note = format!(
                "{} for {them}",
                render::value_words(oracle, crate::answer::Valuation::of(*value))
            );
            if oracle.caps.search_beyond_tables {
                note.push_str(", exact, from the tables");
            }
            if *mistakes > 0 && to_a_person {
                note.push_str(&format!(
                    "; {mistakes} of your replies make it worse for you"
                ));
            }
            note
        }
        Reason::FormulaWins => "a winning move, by the formula".into(),
        Reason::FormulaLoses => "every move loses, by the formula".into(),
        Reason::Search { score, depth } => {
            let how = match depth {
                None => "exact, from the tables".to_string(),
                Some(d) => format!("searched {d} plies ahead"),
            };
            format!("{score:+} for {them}, {how}")
        }
    }
}

/// The computer's move from an exact answer: one that keeps the position's value
/// (win fastest, lose slowest), and among those the one that leaves the opponent
/// the most replies worse than their best, so a drawn game gives the other side
/// the most ways to go wrong. Returns the move and that number of replies.
pub fn computer_choice<'a, G: Game>(
    oracle: &Oracle<G>,
    answer: &'a Probe<G>,
) -> Result<(&'a MoveValue<G>, usize), QueryError> {
    let mut choice = None;
    for candidate in answer.best_moves() {
        let mistakes = match oracle.answer(&candidate.after)? {
            Known::Valued { probe: reply, .. } => reply
                .moves
                .iter()
                .filter(|r| reply.value.better_than(r.value))
                .count(),
            Known::Formula { .. } => 0,
        };
        if choice.is_none_or(|(_, most)| mistakes > most) {
            choice = Some((candidate, mistakes));
        }
    }
    choice.ok_or_else(|| {
        QueryError::Input(GameError::position(
            &oracle.game.write_position(&answer.position),
            "no move here",
        ))
    })
}

/// Reads a person's move; `None` when they quit or input ends.
fn human_move<G: Game>(
    oracle: &Oracle<G>,
    engine: Option<&Engine<G>>,
    position: &G::Position,
    prompt: &str,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Option<G::Move>, QueryError> {
    let game = oracle.game;
    loop {
        write!(out, "{prompt} (hint, moves, quit): ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        match line.trim() {
            "" => continue,
            "quit" | "q" => return Ok(None),
            "hint" => match oracle.answer(position) {
                Ok(known) => {
                    let answer = oracle.describe(&known);
                    writeln!(out, "{}", render::position(oracle, &answer, position))?;
                }
                Err(QueryError::Input(_) | QueryError::MissingTable { .. }) if engine.is_some() => {
                    let choice = engine.expect("checked").choose(position)?;
                    writeln!(
                        out,
                        "hint: {} ({:+})",
                        game.write_move(position, &choice.mv),
                        choice.score
                    )?;
                }
                Err(e) => return Err(e),
            },
            "moves" => {
                let names: Vec<String> = game
                    .moves(position)
                    .iter()
                    .map(|m| game.write_move(position, m))
                    .collect();
                writeln!(out, "legal moves: {}", names.join(" "))?;
            }
            text => match read_move(oracle, position, text) {
                Ok(mv) => return Ok(Some(mv)),
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}

/// A move typed in the game's notation, or in UCI where the game has it.
pub fn read_move<G: Game>(
    oracle: &Oracle<G>,
    position: &G::Position,
    text: &str,
) -> Result<G::Move, GameError> {
    let game = oracle.game;
    game.parse_move(position, text).or_else(|error| {
        let aliases = oracle.caps.aliases.ok_or(error.clone())?;
        let wanted = text.trim().to_ascii_lowercase();
        game.moves(position)
            .into_iter()
            .find(|m| aliases.uci(position, m) == wanted)
            .ok_or(error)
    })
}
