//! Probes in a batch: a JSON Lines body, each line a position as a JSON string
//! (or an object with `position`), answered one JSON line each, in order.
//!
//! The body is read line by line: a line too long to hold a position is
//! counted, not held, and answered with an error. The answers are sent as they
//! are made, a few lines ahead of the client, so a batch holds little memory
//! however slowly its client reads, and stops when the client goes away or its
//! time is over (its last line then says so); a batch whose client stops
//! reading holds no thread and no permit ([`crate::serve::AppState::stream`]).

use super::respond::ServeError;
use crate::answer::ErrorAnswer;
use crate::api::{self, error_answer};
use crate::lines::{self, LineError, LineReader};
use crate::{Library, QueryError};
use axum::body::Body;
use futures_util::StreamExt;
use games::{GameError, Options};

/// The most lines a batch may hold.
pub const MAX_BATCH: usize = 10_000;

/// A line of the body: its text, or why it cannot be read.
pub type Line = Result<String, QueryError>;

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

/// The lines of `body`, each held only up to what a position of `max_position`
/// bytes takes written in JSON (escapes included); at most [`MAX_BATCH`].
pub async fn read(
    body: Body,
    max_position: usize,
    max_body: usize,
) -> Result<Vec<Line>, ServeError> {
    let mut reader = LineReader::new(6 * max_position + 64);
    let mut lines = Vec::new();
    let mut chunks = body.into_data_stream();
    let mut ended = false;
    while !ended {
        match chunks.next().await {
            Some(chunk) => reader.push(&chunk.map_err(|e| body_error(e, max_body))?),
            None => {
                reader.finish();
                ended = true;
            }
        }
        if lines.len() + reader.count() > MAX_BATCH {
            return Err(ServeError::Request(format!(
                "more than {MAX_BATCH} lines; a batch holds at most {MAX_BATCH}"
            )));
        }
        lines.extend(reader.lines().map(|line| text(line, max_position)));
    }
    Ok(lines)
}

/// A line as text, or why it is not.
fn text(line: lines::Line, max_position: usize) -> Line {
    line.text().map_err(|e| match e {
        LineError::NotUtf8 { shown } => GameError::position(&shown, "the line is not UTF-8").into(),
        LineError::TooLong { shown, bytes } => QueryError::TooLong {
            shown,
            bytes,
            limit: max_position,
        },
    })
}

/// Why a body could not be read: longer than the server takes (413), or cut off.
fn body_error(error: axum::Error, max_body: usize) -> ServeError {
    let error = error.into_inner();
    match error.is::<http_body_util::LengthLimitError>() {
        true => ServeError::BodyTooLarge { limit: max_body },
        false => ServeError::Request(format!("reading the body: {error}")),
    }
}

/// The last line of a batch stopped early, saying why.
pub fn stopped(stop: &QueryError) -> String {
    json_line(&error_answer("", stop))
}

/// The JSON line answering one line: the answer, or the error naming the
/// position read (the line itself where none was).
pub fn answer_line(
    library: &Library,
    game: &str,
    options: &Options,
    line: Line,
    max_position: usize,
) -> String {
    // The position probed, named by its error; the others name their own.
    let (probed, answer) = match line.map(|line| (position_of(&line), line)) {
        Err(e) => (None, Err(e)),
        Ok((Err(why), line)) => (None, Err(GameError::position(&line, why).into())),
        Ok((Ok(p), _)) if p.len() > max_position => {
            (None, Err(QueryError::too_long(&p, max_position)))
        }
        Ok((Ok(p), _)) => {
            let answer = api::probe(library, game, options, &p, None);
            (Some(p), answer)
        }
    };
    match answer {
        Ok(answer) => serde_json::to_string(&answer).expect("answers serialize") + "\n",
        Err(e) => {
            let e = e.within(&library.dir);
            let shown = probed.as_deref().unwrap_or(e.position());
            json_line(&error_answer(shown, &e))
        }
    }
}

fn json_line(answer: &ErrorAnswer) -> String {
    serde_json::to_string(answer).expect("errors serialize") + "\n"
}
