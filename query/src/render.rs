//! Answers as text for people: rendered from the same typed answers that
//! `--json` and the HTTP API give.

use crate::answer::{Beside, GameList, LineAnswer, Outcome, PositionAnswer, Valuation, WholeGame};
use crate::check::CheckReport;
use crate::info::Listing;
use crate::lichess::{PositionInfo, StandardAnswer};
use crate::oracle::Oracle;
use games::Game;

/// A value in words: `win in 13`, `draw`, `score +3`, `mate in 6 (11 plies)`.
pub fn value_words<G: Game>(oracle: &Oracle<G>, valuation: Valuation) -> String {
    match (valuation.value(), oracle.caps.units) {
        (Some(value), Some(units)) => units.say(value),
        (Some(value), None) => value.to_string(),
        (None, _) => match valuation {
            Valuation::Outcome {
                value: Outcome::Win,
                ..
            } => "win".into(),
            Valuation::Outcome {
                value: Outcome::Loss,
                ..
            } => "loss".into(),
            _ => "draw".into(),
        },
    }
}

/// A line of perfect play: the position, how many plies and how it ends, then
/// each ply's move, value and the position after it.
pub fn line<G: Game>(oracle: &Oracle<G>, line: &LineAnswer) -> String {
    let mut text = format!("{} {}\n", line.game, line.position);
    text.push_str(&format!(
        "{} plies of perfect play ({}):\n",
        line.line.len(),
        line.end
    ));
    let width = line.line.iter().map(|s| s.mv.len()).max().unwrap_or(0);
    for (ply, step) in line.line.iter().enumerate() {
        text.push_str(&format!(
            "{:>4}  {:width$}  {:22} -> {}\n",
            ply + 1,
            step.mv,
            value_words(oracle, step.value),
            step.position
        ));
    }
    text
}

/// A value in a word and a number, for histograms: `win 3`, `loss 0`, `draw`, `+2`.
pub fn short(value: games::Value) -> String {
    match value {
        games::Value::Win(n) => format!("win {n}"),
        games::Value::Loss(n) => format!("loss {n}"),
        games::Value::Draw => "draw".into(),
        games::Value::Score(s) => format!("{s:+}"),
    }
}

/// The board as the game draws it, or its notation.
pub fn board<G: Game>(oracle: &Oracle<G>, position: &G::Position) -> String {
    match oracle.caps.drawing {
        Some(drawing) => drawing.draw(position),
        None => oracle.game.write_position(position),
    }
}

/// A position's answer for the terminal.
pub fn position<G: Game>(
    oracle: &Oracle<G>,
    answer: &PositionAnswer,
    position: &G::Position,
    beside: &[Beside],
) -> String {
    let mut out = format!("{} {}\n", answer.game, answer.position);
    if let Some(why) = &answer.why {
        out.push_str(&format!("by formula ({why})"));
        if let Some(nim_sum) = answer.nim_sum {
            out.push_str(&format!(": nim-sum {nim_sum}"));
        }
        if let Some(values) = &answer.heap_values {
            let values: Vec<String> = values.iter().map(u64::to_string).collect();
            out.push_str(&format!("; heap Grundy values {}", values.join(" ")));
        }
        out.push('\n');
    } else if oracle.caps.drawing.is_some() {
        out.push_str(&board(oracle, position));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    let words = value_words(oracle, answer.value);
    match (&answer.moves, &answer.winning_moves) {
        (Some(moves), _) => {
            out.push_str(&format!("value: {words}\n"));
            for other in beside {
                let verdict = other.verdict.as_ref().map(|v| format!("; {}", v.said));
                let name = other.value.to_uppercase();
                out.push_str(&format!(
                    "{name}: {}{}\n",
                    other.said,
                    verdict.unwrap_or_default()
                ));
            }
            if moves.is_empty() {
                out.push_str("no moves: the game is over\n");
            }
            if !moves.is_empty() {
                out.push_str(&format!("{} moves, best first:\n", moves.len()));
            }
            let width = moves.iter().map(|m| m.mv.len()).max().unwrap_or(0);
            let value_width = moves
                .iter()
                .map(|m| value_words(oracle, m.value).len())
                .max()
                .unwrap_or(0)
                .max(12);
            for m in moves {
                let again = if m.moves_again == Some(true) {
                    " (moves again)"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "  {:width$}  {:value_width$} -> {}{again}\n",
                    m.mv,
                    value_words(oracle, m.value),
                    m.position
                ));
            }
        }
        (None, Some(winning)) if winning.is_empty() => {
            out.push_str(&format!("value: {words} (no winning move)\n"));
        }
        (None, Some(winning)) => {
            let (count, plural) = (winning.len(), if winning.len() == 1 { "" } else { "s" });
            out.push_str(&format!(
                "value: {words} ({count} winning move{plural}: {})\n",
                winning.join(" ")
            ));
        }
        (None, None) => out.push_str(&format!("value: {words}\n")),
    }
    if let Some(whole) = &answer.whole_game {
        out.push('\n');
        out.push_str(&whole_game(whole));
        out.push('\n');
    }
    out
}

/// The whole-game verdict in a line.
pub fn whole_game(whole: &WholeGame) -> String {
    let verdict = match whole.winner.as_str() {
        "mover" => "the mover wins the game",
        "opponent" => "the opponent wins the game",
        _ => "the game is drawn",
    };
    format!(
        "with {} and {} captured: {verdict}, {} to {} under perfect play",
        whole.captured[0], whole.captured[1], whole.totals[0], whole.totals[1]
    )
}

/// Every game with its notation, start, tables present and options, as
/// `tbquery games` lists them.
pub fn games(list: &GameList) -> String {
    let mut out = String::new();
    for game in &list.games {
        let tables = match (game.tables.len(), game.made) {
            (0, 0) => "no tables".to_string(),
            (0, made) => format!("{made} tables of other variants present"),
            (n, made) => format!(
                "{} of {n} tables present ({made} of every variant)",
                game.tables.iter().filter(|t| t.present).count()
            ),
        };
        out.push_str(&format!("{:12} {}\n", game.game, game.about));
        out.push_str(&format!("{:12} positions: {}\n", "", game.notation));
        out.push_str(&format!("{:12} start: {}; {tables}\n", "", game.start));
        for option in &game.options {
            let default = option
                .default
                .as_ref()
                .map_or(String::new(), |d| format!(", default {d}"));
            out.push_str(&format!(
                "{:12} --{} ({}{default}): {}\n",
                "", option.name, option.values, option.help
            ));
        }
    }
    out
}

/// The tables of a folder, as `tbquery info` lists them.
pub fn listing(listing: &Listing, dir: &std::path::Path) -> String {
    if listing.tables.is_empty() {
        return format!(
            "no tables in {}; generate them with `tbgen all`\n",
            dir.display()
        );
    }
    listing
        .tables
        .iter()
        .map(|entry| format!("{}\n", entry.to_text()))
        .collect()
}

/// What `tbquery check` found, table by table.
pub fn check(report: &CheckReport) -> String {
    let mut out: String = report
        .tables
        .iter()
        .map(|table| match &table.damage {
            None => format!("{}: sound, {} bytes\n", table.file, table.bytes),
            Some(damage) => format!("{}: DAMAGED: {damage}\n", table.file),
        })
        .collect();
    out.push_str(&format!(
        "{} tables checked, every block read: {} damaged\n",
        report.tables.len(),
        report.damaged()
    ));
    out
}

/// A lichess tablebase answer for the terminal: the position's outcome under
/// the 50-move rule with its DTZ and DTM, then every move with the same for the
/// position after it (signed for the side to move there), in lichess's order.
pub fn standard(fen: &str, answer: &StandardAnswer) -> String {
    let mut out = format!("{fen}\n{}\n", lichess_columns(&answer.pos));
    let moves = &answer.moves;
    out.push_str(&format!("{} moves, best first:\n", moves.len()));
    let width = moves.iter().map(|m| m.san.len()).max().unwrap_or(0);
    for m in moves {
        let columns = lichess_columns(&m.pos);
        out.push_str(&format!("  {:width$}  {columns}\n", m.san));
    }
    out
}

/// A position's category, DTZ, DTM and what is over, in aligned columns.
fn lichess_columns(pos: &PositionInfo) -> String {
    let metric = |name: &str, plies: Option<i32>| match plies {
        Some(plies) => format!("{name} {plies}"),
        None => String::new(),
    };
    let over = [
        (pos.checkmate, "checkmate"),
        (pos.stalemate, "stalemate"),
        (pos.insufficient_material, "insufficient material"),
    ];
    let over: Vec<&str> = over.iter().filter(|o| o.0).map(|o| o.1).collect();
    let line = format!(
        "{:<12}  {:<8}  {:<8}  {}",
        pos.category.name(),
        metric("DTZ", pos.dtz),
        metric("DTM", pos.dtm),
        over.join(", ")
    );
    line.trim_end().to_string()
}
