//! The HTTP server: the same JSON as `probe --json`, and a page to try it.

use crate::api::{self, error_answer};
use crate::error::QueryError;
use crate::library::Library;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use games::GameError;

/// The routes: `/`, `/api/v1/games`, `/api/v1/{game}?position=...`.
pub fn router(library: Library) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/v1/games", get(list_games))
        .route("/api/v1/{game}", get(probe_game))
        .with_state(library)
}

/// Serves until the process is interrupted (Ctrl-C).
pub async fn serve(addr: &str, library: Library) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "serving tables from {} on http://{}",
        library.dir.display(),
        listener.local_addr()?
    );
    axum::serve(listener, router(library))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

async fn page() -> Html<&'static str> {
    Html(include_str!("page.html"))
}

async fn list_games(State(library): State<Library>) -> Response {
    match tokio::task::spawn_blocking(move || api::games(&library)).await {
        Ok(list) => Json(list).into_response(),
        Err(e) => internal(e),
    }
}

async fn probe_game(
    State(library): State<Library>,
    Path(game): Path<String>,
    Query(mut params): Query<Vec<(String, String)>>,
) -> Response {
    let mut take = |name: &str| {
        let at = params.iter().position(|(n, _)| n == name)?;
        Some(params.remove(at).1)
    };
    let position = take("position");
    let captured = take("captured");
    let Some(position) = position else {
        let error = QueryError::Input(GameError::position(
            "",
            "missing query parameter 'position'",
        ));
        return (StatusCode::BAD_REQUEST, Json(error_answer("", &error))).into_response();
    };
    // Probing reads table blocks from disk: keep it off the async workers.
    let answer = tokio::task::spawn_blocking(move || {
        api::options(&game, &params)
            .map_err(QueryError::Input)
            .and_then(|options| {
                api::probe(&library, &game, &options, &position, captured.as_deref())
            })
            .map_err(|e| (status_of(&e), error_answer(&position, &e)))
    })
    .await;
    match answer {
        Ok(Ok(answer)) => Json(answer).into_response(),
        Ok(Err((status, body))) => (status, Json(body)).into_response(),
        Err(e) => internal(e),
    }
}

fn internal(e: tokio::task::JoinError) -> Response {
    let body = serde_json::json!({ "error": e.to_string() });
    (StatusCode::INTERNAL_SERVER_ERROR, Json(body)).into_response()
}

/// 404 for an unknown game, 400 for bad input, 503 for a table not generated,
/// 500 for a table that cannot be used.
pub fn status_of(error: &QueryError) -> StatusCode {
    match error {
        QueryError::Input(GameError::UnknownGame { .. }) => StatusCode::NOT_FOUND,
        QueryError::Input(_) => StatusCode::BAD_REQUEST,
        QueryError::MissingTable { .. } => StatusCode::SERVICE_UNAVAILABLE,
        QueryError::Table(_) | QueryError::WrongTable { .. } | QueryError::Terminal(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}
