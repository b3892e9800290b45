//! What the web page asks of a game, generic over every game: a position's view
//! (its board as SVG, its answer, its value in words, every move with the places
//! that make it), the line of perfect play, the tables' statistics, the editor,
//! and a move typed by hand.

use crate::answer::{
    Beside, BesideMove, ClockView, LineAnswer, LineStep, MoveView, StatsAnswer, TableStats,
    Valuation, VerdictView, View,
};
use crate::error::QueryError;
use crate::oracle::{Known, Oracle, Read};
use crate::probe::MoveValue;
use crate::render;
use games::capability::{Clock, Counts, Marks, Verdict};
use games::{Child, Game, GameError, Value, ValueKind};
use std::collections::HashSet;

/// The most plies a line goes; a drawn line also stops where a position repeats.
pub const MAX_LINE: usize = 500;

/// The most a line answered by a formula may weigh: its plies times what
/// each ply's answer weighs ([`games::capability::ClosedForm::weight`]), a
/// few seconds of work at most. Known before the first ply.
pub const LINE_WEIGHT: u64 = 50_000_000;

/// A value in words for the page: the game's own (`White mates in 6`) where it
/// has them, else `win in 13 plies`, `loss in 4 plies`, `draw`, `score +3`.
pub fn said<G: Game>(oracle: &Oracle<G>, position: &G::Position, value: Value) -> String {
    if let Some(wording) = oracle.caps.wording {
        return wording.say(position, value);
    }
    let plies = |n: u16| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    match value {
        Value::Win(n) => format!("win in {}", plies(n)),
        Value::Loss(n) => format!("loss in {}", plies(n)),
        Value::Draw => "draw".into(),
        Value::Score(s) => format!("score {s:+}"),
    }
}

/// A move's value for its player, short: `mate in 7 (13 plies)`, `win in 3 plies`.
fn said_of_move<G: Game>(oracle: &Oracle<G>, value: Value, verdict: Option<&Verdict>) -> String {
    let outcome = verdict.map(|v| v.outcome);
    if let Some(said) = oracle.caps.wording.and_then(|w| w.say_move(value, outcome)) {
        return said;
    }
    match (oracle.caps.units, value) {
        (Some(units), _) => units.say(value),
        (None, Value::Win(1)) => "win in 1 ply".into(),
        (None, Value::Loss(1)) => "loss in 1 ply".into(),
        (None, Value::Win(n)) => format!("win in {n} plies"),
        (None, Value::Loss(n)) => format!("loss in {n} plies"),
        (None, other) => other.to_string(),
    }
}

/// The page's view of a position written `text`, drawn with `marks`. A text
/// that is no position (a board being edited) is drawn where the game's editor
/// can, with the reason it is refused.
pub fn view<G: Game>(
    oracle: &Oracle<G>,
    text: &str,
    marks: &Marks,
    beside: impl FnOnce(&Read<G>) -> Vec<Beside>,
) -> View {
    let game = oracle.game;
    let refused = |error: String| View {
        game: game.id().to_string(),
        position: text.to_string(),
        board: oracle
            .caps
            .editing
            .and_then(|editor| editor.sketch(text).ok())
            .unwrap_or_default(),
        answer: None,
        error: Some(error),
        said: None,
        verdict: None,
        clock: None,
        over: false,
        sides: None,
        moves: Vec::new(),
        beside: Vec::new(),
        refused: true,
    };
    let read = match oracle.read_counted(text) {
        Ok(read) => read,
        Err(e) => return refused(e.to_string()),
    };
    let (position, counted) = (&read.position, Counted::of(oracle, &read));
    let board = oracle
        .caps
        .picture
        .map(|p| p.svg(position, marks))
        .unwrap_or_default();
    let over = game.end_value(position).is_some();
    let (answer, error, said_value, valued) = match oracle.answer(position) {
        Ok(known) => {
            let answer = oracle.describe(&known, read.counts);
            let said_value = match &known {
                Known::Valued { probe, .. } => said(oracle, position, probe.value),
                Known::Formula { formula, .. } if formula.mover_wins => {
                    "win (by the formula)".into()
                }
                Known::Formula { .. } => "loss (by the formula)".into(),
            };
            (Some(answer), None, Some(said_value), Some(known))
        }
        Err(e) => (
            None,
            Some(e.within(oracle.tb.dir()).to_string()),
            None,
            None,
        ),
    };
    let clickable = oracle.caps.picture.is_none_or(|p| p.clickable(position));
    let winning: HashSet<String> = match &valued {
        Some(Known::Formula { formula, .. }) => formula
            .winning_moves
            .iter()
            .map(|m| game.write_move(position, m))
            .collect(),
        _ => HashSet::new(),
    };
    let unvalued = |mv: G::Move| {
        let made = Made::play(game, position, mv);
        let said = winning
            .contains(&made.text)
            .then(|| "wins (by the formula)".to_string());
        move_view(oracle, position, made, said, None, counted)
    };
    let listed: Vec<G::Move> = match &valued {
        Some(Known::Valued { .. }) => Vec::new(),
        // A formula lists every move of a board small enough to click, and
        // its winning moves otherwise.
        Some(Known::Formula { formula, .. }) if !clickable => formula.winning_moves.clone(),
        // A position too big to draw whole that nothing answered may have
        // more moves than any view can list (Moore's Nim with 60 heaps).
        None if !clickable => Vec::new(),
        _ => game.moves(position),
    };
    let count = match &valued {
        Some(Known::Valued { probe, .. }) => probe.moves.len(),
        _ => listed.len(),
    };
    // Each move carries the position it leads to, about as long as this one.
    let written = game.write_position(position);
    let bytes = count.saturating_mul(written.len() + 128);
    let (moves, error) = if bytes > oracle.max_view {
        let too_many = format!(
            "{count} moves, each with the position it leads to, would take about {} MB; \
             a view lists at most {} MB of moves",
            bytes >> 20,
            oracle.max_view >> 20
        );
        (
            Vec::new(),
            Some(match error {
                Some(e) => format!("{e}; {too_many}"),
                None => too_many,
            }),
        )
    } else {
        let moves: Vec<MoveView> = match &valued {
            // The moves as the answer made and valued them.
            Some(Known::Valued { probe, .. }) => probe
                .moves
                .iter()
                .map(|m| {
                    let verdict = counted.and_then(|c| c.verdict(m.value, Some((position, &m.mv))));
                    let said = Some(said_of_move(oracle, m.value, verdict.as_ref()));
                    move_view(oracle, position, Made::valued(m), said, verdict, counted)
                })
                .collect(),
            _ => listed.into_iter().map(unvalued).collect(),
        };
        (moves, error)
    };
    let verdict = match (&valued, counted) {
        (Some(Known::Valued { probe, .. }), Some(counted)) => {
            counted.verdict(probe.value, None).map(VerdictView::from)
        }
        _ => None,
    };
    View {
        game: game.id().to_string(),
        position: Counted::write(counted, written),
        board,
        answer,
        error,
        said: said_value,
        verdict,
        clock: counted.map(|c| ClockView {
            name: c.clock.name().to_string(),
            count: c.counts.clock,
            most: c.clock.most(),
        }),
        over,
        sides: oracle
            .caps
            .wording
            .and_then(|w| w.sides(position))
            .map(|names| names.map(String::from)),
        moves,
        beside: beside(&read),
        refused: false,
    }
}

/// A position read once (`read`) valued by `oracle`, a measure of the game
/// beside the one the page shows (`option` = `value` chooses it): its value and
/// every move's. None where that measure's tables do not hold the position.
pub fn beside<G: Game>(
    oracle: &Oracle<G>,
    read: &Read<G>,
    option: &str,
    value: &str,
) -> Option<Beside> {
    let position = &read.position;
    let Ok(Known::Valued { probe, .. }) = oracle.answer(position) else {
        return None;
    };
    let counted = Counted::of(oracle, read);
    let verdict = |value: Value, mv: Option<&G::Move>| {
        counted.and_then(|c| c.verdict(value, mv.map(|mv| (position, mv))))
    };
    Some(Beside {
        option: option.to_string(),
        value: value.to_string(),
        said: said(oracle, position, probe.value),
        verdict: verdict(probe.value, None).map(VerdictView::from),
        moves: probe
            .moves
            .iter()
            .map(|m| {
                let verdict = verdict(m.value, Some(&m.mv));
                BesideMove {
                    mv: m.text.clone(),
                    said: said_of_move(oracle, m.value, verdict.as_ref()),
                    verdict: verdict.map(VerdictView::from),
                }
            })
            .collect(),
    })
}

/// A game's clock with the counts a position's text gave it.
struct Counted<'a, G: Game> {
    clock: &'a dyn Clock<G>,
    counts: Counts,
}

impl<G: Game> Clone for Counted<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Counted<'_, G> {}

impl<'a, G: Game> Counted<'a, G> {
    /// The clock of `oracle`'s game with the counts `read` gave it; none for
    /// a game without a clock.
    fn of(oracle: &Oracle<'a, G>, read: &Read<G>) -> Option<Self> {
        let clock = oracle.caps.clock?;
        Some(Counted {
            clock,
            counts: read.counts?,
        })
    }

    /// `written` (a position as the game writes it) with `counted`'s counts,
    /// where there are some.
    fn write(counted: Option<Self>, written: String) -> String {
        match counted {
            Some(c) => c.clock.write(&written, c.counts),
            None => written,
        }
    }

    /// The counts after `mv` from `position`.
    fn after(self, position: &G::Position, mv: &G::Move) -> Self {
        let counts = self.clock.after(position, mv, self.counts);
        Counted { counts, ..self }
    }

    /// What `value` comes to: the position's own, or with `made`, a move's
    /// for its player, read from the clock before the move (or from 0 after
    /// one that restarts it), since the value counts that move too.
    fn verdict(self, value: Value, made: Option<(&G::Position, &G::Move)>) -> Option<Verdict> {
        let count = match made {
            Some((position, mv)) if self.clock.restarts(position, mv) => 0,
            _ => self.counts.clock,
        };
        self.clock.verdict(value, count)
    }
}

/// A move with its name and what it leads to.
struct Made<G: Game> {
    mv: G::Move,
    text: String,
    child: Child<G::Position>,
}

impl<G: Game> Made<G> {
    fn play(game: &G, position: &G::Position, mv: G::Move) -> Self {
        Made {
            text: game.write_move(position, &mv),
            child: game.play(position, &mv),
            mv,
        }
    }

    /// A move as a probe made it already.
    fn valued(m: &MoveValue<G>) -> Self {
        Made {
            mv: m.mv.clone(),
            text: m.text.clone(),
            child: Child {
                position: m.after.clone(),
                turn_passes: m.turn_passes,
                gain: m.gain,
                reset: m.reset,
            },
        }
    }
}

/// One move as the page makes it, with its value for its player in words and
/// what the game's clock makes of it (`verdict`), where known.
fn move_view<G: Game>(
    oracle: &Oracle<G>,
    position: &G::Position,
    made: Made<G>,
    said: Option<String>,
    verdict: Option<Verdict>,
    counted: Option<Counted<G>>,
) -> MoveView {
    let (mv, child) = (&made.mv, &made.child);
    let (places, landed, scored) = match oracle.caps.picture {
        Some(picture) => (
            picture.places(position, mv),
            picture.landed(position, mv),
            picture.scored(position, mv),
        ),
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    let written = oracle.game.write_position(&child.position);
    MoveView {
        position: Counted::write(counted.map(|c| c.after(position, mv)), written),
        mv: made.text,
        places,
        landed,
        scored,
        gain: child.gain,
        moves_again: !child.turn_passes,
        said,
        verdict: verdict.map(VerdictView::from),
    }
}

/// The move typed as `text` from the position written `position_text`.
pub fn typed_move<G: Game>(
    oracle: &Oracle<G>,
    position_text: &str,
    text: &str,
) -> Result<MoveView, QueryError> {
    let read = oracle.read_counted(position_text)?;
    let position = &read.position;
    if oracle.game.end_value(position).is_some() {
        return Err(QueryError::Input(GameError::bad_move(
            text,
            "the game is over",
        )));
    }
    let mv = crate::play::read_move(oracle, position, text)?;
    let made = Made::play(oracle.game, position, mv);
    Ok(move_view(
        oracle,
        position,
        made,
        None,
        None,
        Counted::of(oracle, &read),
    ))
}

/// A line of perfect play: the answer, and the start with its counts and the
/// moves a record is written from.
#[derive(Debug)]
pub struct PerfectLine<G: Game> {
    pub answer: LineAnswer,
    pub start: G::Position,
    pub counts: Counts,
    pub moves: Vec<G::Move>,
}

/// The line of perfect play from `text`: each side's best move (the first
/// best, in the order moves are listed), until the game ends, the clock's
/// rule ends it (where the measure counts the rule), a position repeats (a
/// draw goes round for ever) or `max` plies. Each position is written with
/// the counts the text gave, carried along.
pub fn line<G: Game>(
    oracle: &Oracle<G>,
    text: &str,
    max: usize,
) -> Result<PerfectLine<G>, QueryError> {
    let game = oracle.game;
    let Read {
        position: start,
        counts,
    } = oracle.read_counted(text)?;
    if let Some(closed) = oracle.caps.formula {
        let each = closed.weight(&start);
        let weight = each.saturating_mul(max as u64);
        if weight > LINE_WEIGHT {
            let why = format!(
                "a line of up to {max} plies from here weighs up to {weight} ({each} moves or \
                 parts a ply), more than a line may ({LINE_WEIGHT}); the probe's winning \
                 moves answer one ply at a time"
            );
            return Err(GameError::beyond_tables(text, why).into());
        }
    }
    let clock = oracle.caps.clock;
    let (mut position, mut now) = (start.clone(), counts);
    let mut seen = HashSet::from([game.search_key(&position)]);
    let (mut steps, mut moves) = (Vec::new(), Vec::new());
    let end = loop {
        if game.end_value(&position).is_some() {
            break "the game is over".to_string();
        }
        if let Some((clock, now)) = clock.zip(now).filter(|(c, n)| c.rule_ends(*n)) {
            break format!(
                "the {} reached {}: a draw by the rule",
                clock.name(),
                now.clock
            );
        }
        if steps.len() >= max {
            break format!("stopped after {max} plies");
        }
        crate::cancel::checkpoint()?;
        let (mv, value) = match oracle.answer(&position)? {
            Known::Valued { probe, .. } => {
                let best = probe.moves.first().ok_or_else(|| {
                    QueryError::Input(GameError::position(text, "no move and not over"))
                })?;
                (best.mv.clone(), Valuation::of(best.value))
            }
            Known::Formula { formula, .. } => {
                let (mv, _) = crate::computer::computer_move(oracle, None, &position)?;
                (mv, Valuation::verdict(formula.mover_wins))
            }
        };
        let child = game.play(&position, &mv);
        now = clock
            .zip(now)
            .map(|(clock, now)| clock.after(&position, &mv, now));
        steps.push(LineStep {
            mv: game.write_move(&position, &mv),
            position: oracle.write(&child.position, now),
            value,
        });
        moves.push(mv);
        position = child.position;
        if !seen.insert(game.search_key(&position)) {
            break "a position repeats: play goes round for ever".to_string();
        }
    };
    let answer = LineAnswer {
        game: game.id().to_string(),
        variant: game.variant(),
        position: oracle.write(&start, counts),
        line: steps,
        end,
    };
    Ok(PerfectLine {
        answer,
        start,
        counts: counts.unwrap_or_default(),
        moves,
    })
}

/// The line as the game's record format (chess: PGN).
pub fn record<G: Game>(oracle: &Oracle<G>, text: &str, max: usize) -> Result<String, QueryError> {
    let record = oracle.caps.record.ok_or_else(|| {
        QueryError::Input(GameError::position(
            text,
            format!("{} has no game record format", oracle.game.id()),
        ))
    })?;
    let line = line(oracle, text, max)?;
    Ok(record.record(&line.start, line.counts, &line.moves))
}

/// The position text after using the editor's `tool` on `place`.
pub fn edit<G: Game>(
    oracle: &Oracle<G>,
    text: &str,
    place: &str,
    tool: &str,
) -> Result<String, QueryError> {
    let editor = oracle.caps.editing.ok_or_else(|| {
        QueryError::Input(GameError::position(
            text,
            format!("{} positions are edited as text", oracle.game.id()),
        ))
    })?;
    let Some(clock) = oracle.caps.clock else {
        return Ok(editor.edit(text, place, tool)?);
    };
    if tool != CLOCK_TOOL {
        return Ok(clock.write(&editor.edit(text, place, tool)?, clock.read(text)?));
    }
    let count = place
        .parse::<u16>()
        .ok()
        .filter(|&count| count <= clock.most())
        .ok_or_else(|| {
            QueryError::Input(GameError::option(
                clock.name(),
                place,
                format!("is a whole number from 0 to {}", clock.most()),
            ))
        })?;
    let counts = Counts {
        clock: count,
        ..clock.read(text)?
    };
    Ok(clock.write(text, counts))
}

/// The editor's tool that sets a game's clock (chess: the halfmove clock) to
/// the number given as its place.
pub const CLOCK_TOOL: &str = "clock";

/// Every table of the game (or the one of tier `only`) with its header's
/// figures and how many positions hold each value: from the header for score
/// games, by reading the table block by block for win/loss/draw games.
pub fn stats<G: Game>(oracle: &Oracle<G>, only: Option<&str>) -> Result<StatsAnswer, QueryError> {
    let game = oracle.game;
    let mut tables = Vec::new();
    let tiers: Vec<u32> = match (oracle.has_tables(), only) {
        (false, _) => Vec::new(),
        (true, None) => game.tiers(),
        (true, Some(name)) => {
            let tier = game
                .tiers()
                .into_iter()
                .find(|&t| game.tier_name(t) == name);
            let refused = || {
                GameError::option(
                    "tier",
                    name,
                    format!("{} has no table of that name", game.id()),
                )
            };
            vec![tier.ok_or_else(refused)?]
        }
    };
    for tier in tiers {
        crate::cancel::checkpoint()?;
        let path = oracle.tb.path(tier);
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let reads = game
            .named_tiers(&game.tier_name(tier))
            .unwrap_or_default()
            .into_iter()
            .filter(|&t| t != tier)
            .map(|t| game.tier_name(t))
            .collect();
        if !oracle.tb.has_table(tier) {
            tables.push(TableStats {
                tier: game.tier_name(tier),
                file,
                present: false,
                summary: None,
                histogram: Vec::new(),
                error: None,
                reads,
            });
            continue;
        }
        let read = oracle.tb.table(tier).and_then(|table| {
            Ok((
                crate::info::summary(table),
                histogram(game.value_kind(), table)?,
            ))
        });
        let (summary, histogram, error) = match read {
            Ok((summary, histogram)) => (Some(summary), histogram, None),
            Err(QueryError::Cancelled(why)) => return Err(QueryError::Cancelled(why)),
            Err(other) => (None, Vec::new(), Some(other.to_string())),
        };
        tables.push(TableStats {
            tier: game.tier_name(tier),
            file,
            present: true,
            summary,
            histogram,
            error,
            reads,
        });
    }
    Ok(StatsAnswer {
        game: game.id().to_string(),
        variant: game.variant(),
        tables,
    })
}

fn histogram(kind: ValueKind, table: &tables::Table) -> Result<Vec<(String, u64)>, QueryError> {
    if let Some(scores) = table.header().stats.score_counts() {
        return Ok(scores
            .0
            .into_iter()
            .map(|(score, count)| (format!("{score:+}"), count))
            .collect());
    }
    // The writer's counts; a table without them is counted from its values.
    let mut counts = table.header().stats.codes.clone();
    if counts.is_empty() {
        let mut each = vec![0u64; usize::from(u16::MAX) + 1];
        table.for_each_block(|codes| {
            for &code in codes {
                each[usize::from(code)] += 1;
            }
        })?;
        counts = (0..=u16::MAX).map(|c| (c, each[usize::from(c)])).collect();
    }
    let mut values: Vec<(Value, u64)> = counts
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .filter_map(|(code, n)| Some((Value::from_code(kind, code)?, n)))
        .collect();
    // Wins fastest first, then draws, then losses slowest last.
    values.sort_by(|a, b| b.0.cmp_for_mover(a.0));
    Ok(values
        .into_iter()
        .map(|(value, n)| (render::short(value), n))
        .collect())
}
