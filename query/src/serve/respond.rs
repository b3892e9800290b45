//! How answers are written: in JSON, into one buffer of a typical answer's
//! size; and errors, every one as an [`crate::answer::ErrorAnswer`] in JSON,
//! with the status its kind calls for.

use crate::QueryError;
use crate::answer::ErrorAnswer;
use crate::api::error_answer;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use games::GameError;
use serde::Serialize;

/// The room an answer's JSON starts with: a probe's answer with every move
/// valued is 1-4 KB.
const ANSWER_BYTES: usize = 4 << 10;

/// An answer in JSON. Axum's `Json` starts with 128 bytes and grows, copying,
/// five times for a 4 KB answer; this starts with room for most answers.
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(ANSWER_BYTES);
        let written = serde_json::to_writer(&mut body, &self.0).map_err(|e| e.to_string());
        respond(written, body, "application/json")
    }
}

/// `body` as an answer of type `kind` where it was `written`; else the
/// internal error that says why not.
fn respond(written: Result<(), String>, body: Vec<u8>, kind: &'static str) -> Response {
    match written {
        Ok(()) => (
            [(header::CONTENT_TYPE, HeaderValue::from_static(kind))],
            body,
        )
            .into_response(),
        Err(e) => {
            let error = QueryError::Internal(format!("an answer not written as {kind}: {e}"));
            ServeError::from(error).into_response()
        }
    }
}

/// An answer of the lichess tablebase API: in CBOR where the request's
/// `Accept` asks for it (as lila-tablebase answers), in JSON otherwise.
#[derive(Debug)]
pub struct Negotiated<T> {
    pub answer: T,
    pub cbor: bool,
}

impl<T> Negotiated<T> {
    /// `answer`, in CBOR where `headers` accept `application/cbor`.
    pub fn of(answer: T, headers: &axum::http::HeaderMap) -> Self {
        let cbor = headers
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .any(|value| value.contains("application/cbor"));
        Negotiated { answer, cbor }
    }
}

impl<T: Serialize> IntoResponse for Negotiated<T> {
    fn into_response(self) -> Response {
        if !self.cbor {
            return Json(self.answer).into_response();
        }
        let mut body = Vec::with_capacity(ANSWER_BYTES);
        let written = ciborium::into_writer(&self.answer, &mut body).map_err(|e| e.to_string());
        respond(written, body, "application/cbor")
    }
}

/// Why the server could not answer a request: a query's error, or the
/// server's own (a request not in its form, too large, no route, or the server
/// at its cap of answers).
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The query's own error, as the command line says it too.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A request's parameters are missing or not in their form.
    #[error("bad request: {0}")]
    Request(String),
    /// A request body longer than the server takes.
    #[error("the body is longer than the server takes ({limit} bytes)")]
    BodyTooLarge { limit: usize },
    /// As many answers as the server works on at once are under way.
    #[error("too many probes at once; try again in a second")]
    Busy,
    /// The client's address has as many answers under way as it may.
    #[error(
        "this address has {most} answers under way, as many as one client may; try again in a second"
    )]
    OwnShare { most: usize },
    /// The answers waiting for their readers hold as much memory as the
    /// server gives them.
    #[error(
        "the answers waiting for their readers hold the server's {} MB for them; try again in a second",
        limit >> 20
    )]
    Crowded { limit: usize },
    /// No route serves the path asked.
    #[error("{0}")]
    NoRoute(String),
    /// What the tables do not hold, where the API answers 404 for it as
    /// lila-tablebase does (a mainline beyond the tables).
    #[error("{0}")]
    NotHeld(QueryError),
}

impl From<GameError> for ServeError {
    fn from(error: GameError) -> Self {
        ServeError::Query(error.into())
    }
}

impl ServeError {
    /// 404 for an unknown game or route, 400 for bad input, 413 for input too
    /// long, 408 for work stopped at its time, 503 for a table not generated or
    /// a server at its cap of probes, 500 for a table that cannot be used or a bug.
    pub fn status(&self) -> StatusCode {
        match self {
            ServeError::Query(QueryError::Input(GameError::UnknownGame { .. }))
            | ServeError::NoRoute(_)
            | ServeError::NotHeld(_) => StatusCode::NOT_FOUND,
            ServeError::Query(QueryError::Input(_)) | ServeError::Request(_) => {
                StatusCode::BAD_REQUEST
            }
            ServeError::Query(QueryError::TooLong { .. }) | ServeError::BodyTooLarge { .. } => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            ServeError::Query(QueryError::MissingTable { .. })
            | ServeError::Busy
            | ServeError::OwnShare { .. }
            | ServeError::Crowded { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ServeError::Query(QueryError::Cancelled(_)) => StatusCode::REQUEST_TIMEOUT,
            ServeError::Query(
                QueryError::Table(_)
                | QueryError::WrongTable { .. }
                | QueryError::Terminal(_)
                | QueryError::Internal(_),
            ) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The position the error is about, where it names one.
    fn position(&self) -> &str {
        match self {
            ServeError::Query(error) | ServeError::NotHeld(error) => error.position(),
            _ => "",
        }
    }
}

impl IntoResponse for ServeError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!("{self}");
        }
        let mut response = (status, Json(error_answer(self.position(), &self))).into_response();
        if let ServeError::Busy | ServeError::OwnShare { .. } | ServeError::Crowded { .. } = self {
            // Come back in a second.
            let again = HeaderValue::from_static("1");
            response.headers_mut().insert(header::RETRY_AFTER, again);
        }
        response
    }
}

/// Every error as JSON, also the ones answered before a handler runs or
/// without one (no such route, a method not taken, a body too large or not
/// UTF-8, a request timed out), which come as plain text or with no body: their
/// text, if any, follows the status's reason. Other headers (`Allow`,
/// `Retry-After`) are kept.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // These bodies are a line of text; a longer one is not read.
    let text = axum::body::to_bytes(body, 4 << 10)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let reason = status.canonical_reason().unwrap_or("error").to_lowercase();
    let error = match text.is_empty() {
        true => reason,
        false => format!("{reason}: {text}"),
    };
    let answer = ErrorAnswer {
        position: String::new(),
        error,
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    let mut response = (status, Json(answer)).into_response();
    response.headers_mut().extend(parts.headers);
    response
}

/// A path no route serves.
pub async fn no_route(method: Method, uri: Uri) -> ServeError {
    let path = uri.path();
    let shown: String = path.chars().take(100).collect();
    ServeError::NoRoute(format!(
        "no route {method} {shown}; the API is under /api/v1 (/api/v1/games lists the games)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_server_says_when_to_come_back() {
        let response = ServeError::Busy.into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    }

    #[test]
    fn each_error_has_its_status() {
        let missing = ServeError::from(QueryError::MissingTable {
            path: "euler.tb".into(),
            command: "tbgen euler".into(),
        });
        assert_eq!(missing.status(), StatusCode::SERVICE_UNAVAILABLE);
        let bug = ServeError::from(QueryError::Internal("no move and not over".into()));
        assert_eq!(bug.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let long = ServeError::from(QueryError::too_long(&"1 ".repeat(100), 20));
        assert_eq!(long.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(long.position(), "1 ".repeat(20));
        let request = ServeError::Request("x".into());
        assert_eq!(request.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            ServeError::NoRoute("x".into()).status(),
            StatusCode::NOT_FOUND
        );
    }
}
