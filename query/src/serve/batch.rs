//! Probes in a batch: a JSON Lines body, each line a position as a JSON string
//! (or an object with `position`), answered one JSON line each, in order.

use crate::api::{self, error_answer};
use crate::{Library, QueryError};
use games::{GameError, Options};

/// The most lines a batch may hold.
pub const MAX_BATCH: usize = 10_000;

/// The position a line names, or why it names none.
fn position_of(line: &str) -> Result<String, String> {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(serde_json::Value::String(p)) => Ok(p),
        Ok(serde_json::Value::Object(o)) => match o.get("position") {
            Some(serde_json::Value::String(p)) => Ok(p.clone()),
            _ => Err("an object needs a \"position\" string".to_string()),
        },
        Ok(_) => Err("each line is a position as a JSON string".to_string()),
        Err(e) => Err(format!("not JSON: {e}")),
    }
}

/// One JSON line per line of `body`: the answer, or the error naming the
/// position read (the line itself where none was).
pub fn answer(
    library: &Library,
    game: &str,
    options: &Options,
    body: &str,
    max_position: usize,
) -> Result<String, QueryError> {
    let lines: Vec<&str> = body.lines().collect();
    if lines.len() > MAX_BATCH {
        return Err(QueryError::Request(format!(
            "{} lines; a batch holds at most {MAX_BATCH}",
            lines.len()
        )));
    }
    let mut out = String::new();
    for line in lines {
        let position = position_of(line);
        let (shown, answer) = match position {
            Err(why) => (line, Err(QueryError::Input(GameError::position(line, why)))),
            Ok(ref p) if p.len() > max_position => ("", Err(QueryError::too_long(p, max_position))),
            Ok(ref p) => (p.as_str(), api::probe(library, game, options, p, None)),
        };
        let json = match answer {
            Ok(answer) => serde_json::to_string(&answer),
            Err(e) => serde_json::to_string(&error_answer(shown, &e)),
        };
        out.push_str(&json.expect("answers serialize"));
        out.push('\n');
    }
    Ok(out)
}
