//! Playing a game through any reader and writer (the terminal): a person against
//! the computer on either side, two people, or the computer against itself. The
//! computer plays perfectly from the tables, a closed formula or an exact solver,
//! and where none reaches (score games with cycles) it searches, reading the
//! tables as exact values as soon as a line reaches them. Below level 10 it makes
//! deliberate mistakes, so that a person can practise. A transcript of every ply
//! can be written as JSON Lines alongside.

use crate::answer::{GameResult, PlyRecord, Valuation};
use crate::computer::{PERFECT, computer_turn, explain};
use crate::engine::{Engine, Limits};
use crate::error::QueryError;
use crate::oracle::{Known, Oracle};
use crate::render;
use games::capability::Side;
use games::{Game, GameError, Value};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::HashMap;
use std::io::{BufRead, Write};

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
    /// 0 to 10. At 10 the computer plays perfectly; below, before each move it
    /// makes a deliberate mistake with probability (10 - level) / 10, wherever a
    /// move worse than the best exists.
    pub level: u8,
    /// Seeds the mistakes, so that a game can be played again.
    pub seed: u64,
    /// How the computer searches where nothing exact reaches.
    pub search: Limits,
}

impl Settings {
    /// Perfect play by the given players.
    pub fn new(players: [Player; 2]) -> Settings {
        Settings {
            players,
            level: PERFECT,
            seed: 0,
            search: Limits::default(),
        }
    }

    /// A person against the computer, `first` moving first.
    pub fn against_computer(first: Player) -> Settings {
        let second = match first {
            Player::Human => Player::Computer,
            Player::Computer => Player::Human,
        };
        Settings::new([first, second])
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

    fn possessive(&self, seat: usize) -> String {
        match self.name(seat) {
            "you" => "your".into(),
            name => format!("{name}'s"),
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

    /// Whose side the board is shown from while `seat` moves: the person's
    /// against the computer, the mover's between two people, the first
    /// player's when the computer plays itself.
    fn viewer(&self, seat: usize) -> usize {
        match self.players {
            [Player::Human, Player::Computer] => 0,
            [Player::Computer, Player::Human] => 1,
            [Player::Human, Player::Human] => seat,
            [Player::Computer, Player::Computer] => 0,
        }
    }
}

/// A game in progress.
struct Progress<G: Game> {
    position: G::Position,
    /// Who moves: 0 the first player, 1 the second.
    seat: usize,
    plies: u32,
    /// What each player has taken (score games).
    score: [i64; 2],
    /// Scored places and who scored them.
    owners: HashMap<usize, usize>,
    /// How often each position has been reached with each player to move.
    seen: HashMap<(G::Position, usize), u32>,
    /// The move that led here, as written.
    last: Option<String>,
}

/// How a game came to its end.
struct Finish {
    ending: Ending,
    reason: String,
    /// What was left and shared evenly, when play went round for ever.
    shared: Option<u64>,
}

/// Plays from `start` until the game ends, a person types `quit`, or input ends,
/// writing the game for people to `out` and, when given, one JSON line per ply
/// and a last one with the result to `transcript`. A person may type `hint` for
/// every move with its value, or `moves`.
pub fn play<G: Game>(
    oracle: &Oracle<G>,
    start: G::Position,
    settings: Settings,
    input: &mut impl BufRead,
    out: &mut impl Write,
    mut transcript: Option<&mut dyn Write>,
) -> Result<Ending, QueryError> {
    let game = oracle.game;
    let seats = Seats {
        players: settings.players,
    };
    let engine = oracle
        .spec
        .entry
        .extras
        .search_beyond_tables
        .then(|| Engine::new(oracle, settings.search));
    match &engine {
        Some(engine) => match engine.reach() {
            Some(reach) => writeln!(
                out,
                "tables: exact play where they reach, up to the {reach} table"
            )?,
            None => writeln!(out, "no tables found: the computer only searches")?,
        },
        // A missing table is said before anyone moves.
        None => {
            oracle.answer(&start)?;
        }
    }
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut now = Progress {
        position: start,
        seat: 0,
        plies: 0,
        score: [0; 2],
        owners: HashMap::new(),
        seen: HashMap::new(),
        last: None,
    };
    let finish = loop {
        show(oracle, &seats, &now, out)?;
        if let Some(finish) = finished(oracle, &seats, &mut now) {
            break finish;
        }
        let position = &now.position;
        let mv = match seats.players[now.seat] {
            Player::Computer => {
                let (mv, reason) =
                    computer_turn(oracle, engine.as_ref(), position, settings.level, &mut rng)?;
                let them = match seats.person_against_computer() {
                    true => "the computer",
                    false => seats.name(now.seat),
                };
                let note = explain(oracle, &reason, them, seats.person_against_computer());
                writeln!(
                    out,
                    "{} plays {} ({note}).",
                    seats.subject(now.seat),
                    game.write_move(position, &mv)
                )?;
                mv
            }
            Player::Human => {
                let prompt = match seats.person_against_computer() {
                    true => "your move".to_string(),
                    false => format!("{}'s move", seats.name(now.seat)),
                };
                match human_move(oracle, engine.as_ref(), position, &prompt, input, out)? {
                    Some(mv) => mv,
                    None => {
                        let finish = Finish {
                            ending: Ending::Abandoned,
                            reason: "a player quit".into(),
                            shared: None,
                        };
                        record_result(oracle, &now, &finish, &mut transcript)?;
                        return Ok(Ending::Abandoned);
                    }
                }
            }
        };
        let value = transcript
            .is_some()
            .then(|| move_value(oracle, position, &mv))
            .flatten();
        if let Some(drawing) = oracle.caps.drawing {
            for place in drawing.scored_places(position, &mv) {
                now.owners.insert(place, now.seat);
            }
        }
        let child = game.play(position, &mv);
        now.plies += 1;
        now.last = Some(game.write_move(position, &mv));
        if let Some(out) = transcript.as_mut() {
            let record = PlyRecord {
                ply: now.plies,
                player: ["first", "second"][now.seat].into(),
                mv: game.write_move(position, &mv),
                position: game.write_position(&child.position),
                value,
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&record).expect("serializes")
            )?;
            out.flush()?;
        }
        now.score[now.seat] += child.gain;
        if child.turn_passes {
            now.seat = 1 - now.seat;
        }
        now.position = child.position;
    };
    let score_game = game.value_kind() == games::ValueKind::Score;
    writeln!(
        out,
        "Game over: {}. {}",
        finish.reason,
        verdict(&seats, &finish, score_game.then_some(now.score))
    )?;
    record_result(oracle, &now, &finish, &mut transcript)?;
    Ok(finish.ending)
}

/// The player to move and the board, from the side `Seats::viewer` says, with
/// the score in score games.
fn show<G: Game>(
    oracle: &Oracle<G>,
    seats: &Seats,
    now: &Progress<G>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let viewer = seats.viewer(now.seat);
    let side = if viewer == now.seat {
        Side::Mover
    } else {
        Side::Opponent
    };
    writeln!(
        out,
        "\n{} to move; the board from {} side:",
        seats.subject(now.seat),
        seats.possessive(viewer)
    )?;
    let owner = |place: usize| now.owners.get(&place).map_or('?', |&s| seats.mark(s));
    let drawn = match oracle.caps.drawing {
        Some(drawing) => drawing.draw_from(&now.position, side, &owner),
        None => oracle.game.write_position(&now.position),
    };
    writeln!(out, "{drawn}")?;
    if let Some(last) = &now.last {
        writeln!(out, "last move: {last}")?;
    }
    if oracle.game.value_kind() == games::ValueKind::Score {
        writeln!(
            out,
            "taken: {} ({}) {}, {} ({}) {}",
            seats.name(0),
            seats.mark(0),
            now.score[0],
            seats.name(1),
            seats.mark(1),
            now.score[1]
        )?;
    }
    Ok(())
}

/// Whether the game is over: its end, a position come round a third time
/// (games with cycles), or a side holding more than half of what a whole game
/// is played for.
fn finished<G: Game>(oracle: &Oracle<G>, seats: &Seats, now: &mut Progress<G>) -> Option<Finish> {
    let game = oracle.game;
    let score_game = game.value_kind() == games::ValueKind::Score;
    if let Some(end) = game.end_value(&now.position) {
        return Some(Finish {
            ending: finish(now.seat, end, &mut now.score),
            reason: game.why_over(&now.position),
            shared: None,
        });
    }
    if game.has_cycles() {
        let repeats = now
            .seen
            .entry((now.position.clone(), now.seat))
            .or_default();
        *repeats += 1;
        if *repeats == 3 {
            let mut reason =
                "the position has come round a third time: play goes round for ever".to_string();
            let whole = oracle.caps.whole_game;
            let split = whole.and_then(|w| w.endless_split(&now.position));
            let shared = match (split, whole) {
                (Some([mine, theirs]), _) => {
                    now.score[now.seat] += mine as i64;
                    now.score[1 - now.seat] += theirs as i64;
                    reason.push_str(", so each side takes what is on its own side");
                    None
                }
                (None, Some(whole)) => {
                    reason.push_str(", so what is left is shared evenly");
                    Some(whole.left(&now.position))
                }
                (None, None) => None,
            };
            // Endless play counts a draw, or for score games a net result of 0.
            let endless = if score_game {
                Value::Score(0)
            } else {
                Value::Draw
            };
            return Some(Finish {
                ending: finish(now.seat, endless, &mut now.score),
                reason,
                shared,
            });
        }
    }
    let whole = oracle.caps.whole_game.filter(|w| w.ends_at_majority())?;
    let winner = (0..2).find(|&s| now.score[s] > 0 && now.score[s] as u64 * 2 > whole.total())?;
    Some(Finish {
        ending: Ending::Won(winner),
        reason: format!(
            "{} {} taken {} of the {}, more than half",
            seats.name(winner),
            if seats.name(winner) == "you" {
                "have"
            } else {
                "has"
            },
            now.score[winner],
            whole.total()
        ),
        shared: None,
    })
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

fn verdict(seats: &Seats, finish: &Finish, score: Option<[i64; 2]>) -> String {
    let who = match finish.ending {
        Ending::Won(w) if seats.name(w) == "you" => "You win".to_string(),
        Ending::Won(w) => format!("{} wins", seats.subject(w)),
        _ => "The game is drawn".to_string(),
    };
    let Some(score) = score else {
        return format!("{who}.");
    };
    let half = finish.shared.map(|s| match s % 2 {
        0 => format!(" + {}", s / 2),
        _ => format!(" + {}.5", s / 2),
    });
    let half = half.unwrap_or_default();
    format!(
        "{who}: {} {}{half}, {} {}{half}.",
        seats.name(0),
        score[0],
        seats.name(1),
        score[1]
    )
}

/// The transcript's last line.
fn record_result<G: Game>(
    oracle: &Oracle<G>,
    now: &Progress<G>,
    finish: &Finish,
    transcript: &mut Option<&mut dyn Write>,
) -> std::io::Result<()> {
    let Some(out) = transcript.as_mut() else {
        return Ok(());
    };
    let result = match finish.ending {
        Ending::Won(0) => "first",
        Ending::Won(_) => "second",
        Ending::Drawn => "draw",
        Ending::Abandoned => "abandoned",
    };
    let score_game = oracle.game.value_kind() == games::ValueKind::Score;
    let record = GameResult {
        result: result.into(),
        plies: now.plies,
        reason: finish.reason.clone(),
        score: score_game.then_some(now.score),
        shared: finish.shared,
    };
    writeln!(
        out,
        "{}",
        serde_json::to_string(&record).expect("serializes")
    )?;
    out.flush()
}

/// The value of `mv` for the player making it, where known exactly.
fn move_value<G: Game>(
    oracle: &Oracle<G>,
    position: &G::Position,
    mv: &G::Move,
) -> Option<Valuation> {
    match oracle.answer(position).ok()? {
        Known::Valued { probe, .. } => probe
            .moves
            .iter()
            .find(|m| m.mv == *mv)
            .map(|m| Valuation::of(m.value)),
        Known::Formula { formula, .. } => {
            Some(Valuation::verdict(formula.winning_moves.contains(mv)))
        }
    }
}

/// Whether the moves of `position` are few enough to list one by one (Nim
/// heaps can be too large).
fn listable<G: Game>(oracle: &Oracle<G>, position: &G::Position) -> bool {
    oracle.caps.picture.is_none_or(|p| p.clickable(position))
}

/// A legal move written, to show how moves are typed.
fn example_move<G: Game>(oracle: &Oracle<G>, position: &G::Position) -> Option<String> {
    let game = oracle.game;
    let mv = match oracle.caps.formula.and_then(|f| f.longest_move(position)) {
        Some(mv) => mv,
        None if listable(oracle, position) => game.moves(position).into_iter().next()?,
        None => return None,
    };
    Some(game.write_move(position, &mv))
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
    let example = example_move(oracle, position)
        .map(|m| format!(", e.g. {m}"))
        .unwrap_or_default();
    loop {
        write!(out, "{prompt}{example} (or hint, moves, quit): ")?;
        out.flush()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let Ok(line) = String::from_utf8(bytes) else {
            writeln!(out, "that line is not UTF-8 text; type a move")?;
            continue;
        };
        match line.trim() {
            "" => continue,
            "quit" | "q" => return Ok(None),
            "hint" => match oracle.answer(position) {
                Ok(known) => {
                    let answer = oracle.describe(&known, None);
                    writeln!(out, "{}", render::position(oracle, &answer, position, &[]))?;
                }
                Err(QueryError::Input(_) | QueryError::MissingTable { .. }) if engine.is_some() => {
                    let choice = engine.expect("checked").choose(position)?;
                    writeln!(
                        out,
                        "hint: {} ({:+}, {} to {} plies)",
                        game.write_move(position, &choice.mv),
                        choice.score,
                        choice.algorithm.name(),
                        choice.depth.unwrap_or(0)
                    )?;
                }
                Err(e) => return Err(e),
            },
            "moves" if !listable(oracle, position) => {
                writeln!(
                    out,
                    "too many moves to list; {}",
                    oracle.spec.entry.notation
                )?;
            }
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
