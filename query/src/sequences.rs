//! Games answered from a sequence rather than a position table: heap games by
//! their Grundy-value tables (Kayles, Dawson's Kayles, Grundy's game, Lasker's
//! Nim), and pick-from-the-ends by dynamic programming.

use crate::api::Source;
use crate::error::QueryError;
use games::GameError;
use games::ends::{self, End};
use games::grundy::{GRUNDY_ENCODING, HeapGame, heap_verdict, parse_limited};
use games::nim::parse_heaps;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value as Json, json};
use std::collections::HashMap;

/// Heaps up to this size are computed on the spot when no table is present.
pub const COMPUTE_LIMIT: u64 = 10_000;

/// Grundy values for heaps up to at least `needed`: from the table in `source`
/// when it is there, otherwise computed (up to `COMPUTE_LIMIT`). Returns the
/// values and where they came from.
fn grundy_values(
    source: &Source,
    game: HeapGame,
    needed: u64,
) -> Result<(Vec<u32>, &'static str), QueryError> {
    let path = source.dir.join(tables::file_name(game.id(), "", ""));
    if path.exists() {
        let table = source.cache.get_or_open(&path)?;
        let header = table.header();
        if header.game != game.id() || header.encoding != GRUNDY_ENCODING {
            return Err(QueryError::WrongTable {
                path: path.clone(),
                problem: format!(
                    "holds {} ({}), not the {} Grundy values",
                    header.game,
                    header.encoding,
                    game.id()
                ),
            });
        }
        if needed < header.index_size {
            let values = table
                .read_all()?
                .into_iter()
                .map(|code| u32::from(code) - 1)
                .collect();
            return Ok((values, "table"));
        }
    }
    if needed <= COMPUTE_LIMIT {
        return Ok((game.sequence(needed), "computed"));
    }
    Err(QueryError::MissingTable {
        path,
        command: format!(
            "tbgen grundy --limit {needed} --dir {}",
            source.dir.display()
        ),
    })
}

/// The JSON answer for `text` in game `id`, or `None` when `id` is not one of
/// `SEQUENCE_IDS`.
pub fn probe_json(source: &Source, id: &str, text: &str) -> Option<Result<Json, QueryError>> {
    if id == "ends" {
        return Some(ends_json(text).map_err(QueryError::Input));
    }
    let game = HeapGame::from_id(id)?;
    Some(heaps_json(source, game, text))
}

fn heaps_json(source: &Source, game: HeapGame, text: &str) -> Result<Json, QueryError> {
    let heaps = parse_heaps(text)?;
    let needed = heaps.iter().copied().max().unwrap_or(0);
    let (values, from) = grundy_values(source, game, needed)?;
    let heaps = parse_limited(text, values.len() as u64 - 1)?;
    let verdict = heap_verdict(game, &heaps, &values);
    Ok(json!({
        "game": game.id(),
        "position": games::nim::write_heaps(&heaps),
        "source": "formula",
        "grundy_values_from": from,
        "value": if verdict.nim_sum != 0 { "win" } else { "loss" },
        "nim_sum": verdict.nim_sum,
        "heap_values": verdict.heap_values,
        "winning_moves": verdict.winning_moves.iter().map(|m| m.write()).collect::<Vec<_>>(),
    }))
}

fn ends_json(text: &str) -> Result<Json, GameError> {
    let row = ends::parse_row(text)?;
    let (margin, best) = ends::solve(&row);
    let moves: Vec<Json> = match row.len() {
        0 => Vec::new(),
        1 => vec![json!({ "move": "left", "score": row[0] })],
        n => [
            (End::Left, row[0], &row[1..]),
            (End::Right, row[n - 1], &row[..n - 1]),
        ]
        .into_iter()
        .map(|(end, taken, rest)| json!({ "move": end.write(), "score": taken - ends::solve(rest).0 }))
        .collect(),
    };
    Ok(json!({
        "game": "ends",
        "position": text.trim(),
        "source": "formula",
        "score": margin,
        "best": best.iter().map(|e| e.write()).collect::<Vec<_>>(),
        "moves": moves,
    }))
}

/// The text answer: the JSON answer, laid out for people.
pub fn probe_text(source: &Source, id: &str, text: &str) -> Option<Result<String, QueryError>> {
    let answer = probe_json(source, id, text)?;
    Some(answer.map(|json| {
        let mut out = format!(
            "{} {}\n",
            json["game"].as_str().unwrap_or(id),
            json["position"].as_str().unwrap_or(text)
        );
        if let Some(score) = json.get("score") {
            let best: Vec<&str> = json["best"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str())
                .collect();
            let score = score.as_i64().unwrap_or_default();
            out.push_str(&format!(
                "score: {score:+} for the mover, by taking {}\n",
                best.join(" or ")
            ));
            for m in json["moves"].as_array().into_iter().flatten() {
                let move_score = m["score"].as_i64().unwrap_or_default();
                out.push_str(&format!(
                    "  {:5}  score {move_score:+}\n",
                    m["move"].as_str().unwrap_or("")
                ));
            }
        } else {
            let moves: Vec<&str> = json["winning_moves"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str())
                .collect();
            out.push_str(&format!(
                "heap Grundy values ({}): {}\nnim-sum {}: {}\n",
                json["grundy_values_from"].as_str().unwrap_or(""),
                json["heap_values"],
                json["nim_sum"],
                if moves.is_empty() {
                    "the mover loses".to_string()
                } else {
                    format!("the mover wins; winning moves: {}", moves.join(" "))
                }
            ));
        }
        out
    }))
}

/// What `verify` found for a sequence game.
#[derive(Debug, Default)]
pub struct SequenceReport {
    /// Table entries checked against a closed formula or a recomputation.
    pub entries: u64,
    /// Positions checked against live search.
    pub searched: u64,
    pub mismatches: Vec<String>,
}

/// Checks a Grundy table against a recomputation by the mex rule (and Lasker's Nim
/// against its closed formula), and the Sprague-Grundy answers for `samples`
/// positions of up to three small heaps against a direct win/loss search. For
/// `ends`, compares the dynamic programming with brute force on `samples` rows.
pub fn verify(
    source: &Source,
    id: &str,
    samples: u64,
    seed: u64,
) -> Option<Result<SequenceReport, QueryError>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut report = SequenceReport::default();
    if id == "ends" {
        for _ in 0..samples {
            let n = rng.random_range(0..=14);
            let row: Vec<i64> = (0..n).map(|_| rng.random_range(-20..=50)).collect();
            report.searched += 1;
            let (dp, brute) = (ends::solve(&row).0, ends::brute_force(&row));
            if dp != brute {
                report.mismatches.push(format!(
                    "{row:?}: dynamic programming {dp}, brute force {brute}"
                ));
            }
        }
        return Some(Ok(report));
    }
    let game = HeapGame::from_id(id)?;
    Some((|| {
        // Verify the table itself: a sequence computed here would check nothing.
        let path = source.dir.join(tables::file_name(game.id(), "", ""));
        if !path.exists() {
            let command = format!("tbgen grundy --dir {}", source.dir.display());
            return Err(QueryError::MissingTable { path, command });
        }
        let (values, _) = grundy_values(source, game, 0)?;
        let limit = values.len() as u64 - 1;
        let fresh = game.sequence(limit);
        for (n, (&stored, &computed)) in values.iter().zip(&fresh).enumerate() {
            report.entries += 1;
            let formula = game.formula(n as u64).map(|v| v as u32);
            if stored != computed || formula.is_some_and(|f| f != stored) {
                report.mismatches.push(format!(
                    "heap {n}: table {stored}, mex rule {computed}{}",
                    formula.map_or(String::new(), |f| format!(", formula {f}"))
                ));
            }
        }
        let mut search = WinSearch {
            game,
            memo: HashMap::new(),
        };
        for _ in 0..samples {
            let count = rng.random_range(1..=3);
            let heaps: Vec<u64> = (0..count)
                .map(|_| rng.random_range(0..=limit.min(14)))
                .collect();
            report.searched += 1;
            let xor = heaps.iter().fold(0, |x, &h| x ^ values[h as usize]);
            if search.wins(heaps.clone()) != (xor != 0) {
                report.mismatches.push(format!(
                    "heaps {heaps:?}: nim-sum {xor} but search disagrees"
                ));
            }
        }
        Ok(report)
    })())
}

/// Win/loss of a position of several heaps by searching its game tree, memoised
/// on the sorted heaps: independent of Grundy values.
struct WinSearch {
    game: HeapGame,
    memo: HashMap<Vec<u64>, bool>,
}

impl WinSearch {
    fn wins(&mut self, mut heaps: Vec<u64>) -> bool {
        heaps.retain(|&h| h > 0);
        heaps.sort_unstable();
        if let Some(&known) = self.memo.get(&heaps) {
            return known;
        }
        let mut wins = false;
        'search: for i in 0..heaps.len() {
            for (_, left, right) in self.game.options(heaps[i]) {
                let mut after = heaps.clone();
                after[i] = left;
                after.push(right);
                if !self.wins(after) {
                    wins = true;
                    break 'search;
                }
            }
        }
        self.memo.insert(heaps, wins);
        wins
    }
}
