//! How errors are answered: every one as an [`crate::answer::ErrorAnswer`] in JSON, with the
//! status its kind calls for.

use crate::QueryError;
use crate::api::error_answer;
use axum::BoxError;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use games::GameError;

impl QueryError {
    /// 404 for an unknown game, 400 for bad input, 413 for input too long, 503
    /// for a table not generated, 500 for a table that cannot be used or a bug.
    pub fn status(&self) -> StatusCode {
        match self {
            QueryError::Input(GameError::UnknownGame { .. }) => StatusCode::NOT_FOUND,
            QueryError::Input(_) | QueryError::Request(_) => StatusCode::BAD_REQUEST,
            QueryError::TooLong { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            QueryError::MissingTable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            QueryError::Table(_)
            | QueryError::WrongTable { .. }
            | QueryError::Terminal(_)
            | QueryError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for QueryError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!("{self}");
        }
        (status, Json(error_answer(self.position(), &self))).into_response()
    }
}

/// The answer when the probes running at once are at their cap: 503, come
/// back in a second.
pub async fn overloaded(error: BoxError) -> Response {
    if error.is::<tower::load_shed::error::Overloaded>() {
        let refused = QueryError::Request("too many probes at once; try again in a second".into());
        let mut response = (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(error_answer("", &refused)),
        )
            .into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return response;
    }
    QueryError::Internal(error.to_string()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_server_says_when_to_come_back() {
        let response = overloaded(Box::new(tower::load_shed::error::Overloaded::new())).await;
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    }

    #[test]
    fn each_error_has_its_status() {
        let missing = QueryError::MissingTable {
            path: "euler.tb".into(),
            command: "tbgen euler".into(),
        };
        assert_eq!(missing.status(), StatusCode::SERVICE_UNAVAILABLE);
        let bug = QueryError::Internal("no move and not over".into());
        assert_eq!(bug.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let long = QueryError::too_long(&"1 ".repeat(100), 20);
        assert_eq!(long.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(long.position(), "1 ".repeat(20));
        assert_eq!(
            QueryError::Request("x".into()).status(),
            StatusCode::BAD_REQUEST
        );
    }
}
