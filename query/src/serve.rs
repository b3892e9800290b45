//! The HTTP server: the same JSON as `probe --json`, and a page to try it.

use crate::api::{Source, error_json, games_json, probe_json};
use crate::error::QueryError;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use games::{GameError, Variant};
use serde::Deserialize;

/// Query parameters of a probe.
#[derive(Debug, Deserialize)]
pub struct ProbeParams {
    position: Option<String>,
    size: Option<String>,
    rules: Option<String>,
    max_take: Option<String>,
}

/// The routes: `/`, `/api/v1/games`, `/api/v1/{game}?position=...`.
pub fn router(source: Source) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/v1/games", get(list_games))
        .route("/api/v1/{game}", get(probe_game))
        .with_state(source)
}

/// Serves until the process is interrupted (Ctrl-C).
pub async fn serve(addr: &str, source: Source) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "serving tables from {} on http://{}",
        source.dir.display(),
        listener.local_addr()?
    );
    axum::serve(listener, router(source))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

async fn page() -> Html<&'static str> {
    Html(include_str!("page.html"))
}

async fn list_games(State(source): State<Source>) -> Json<serde_json::Value> {
    Json(games_json(&source))
}

async fn probe_game(
    State(source): State<Source>,
    Path(game): Path<String>,
    Query(params): Query<ProbeParams>,
) -> Response {
    let Some(position) = params.position else {
        let error = QueryError::Input(GameError::position(
            "",
            "missing query parameter 'position'",
        ));
        return (StatusCode::BAD_REQUEST, Json(error_json("", &error))).into_response();
    };
    let variant = Variant {
        size: params.size,
        rules: params.rules,
        max_take: params.max_take,
    };
    // Probing reads table blocks from disk: keep it off the async workers.
    let answer = tokio::task::spawn_blocking(move || {
        probe_json(&source, &game, &variant, &position)
            .map_err(|e| (status_of(&e), error_json(&position, &e)))
    })
    .await;
    match answer {
        Ok(Ok(json)) => Json(json).into_response(),
        Ok(Err((status, body))) => (status, Json(body)).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(serde_json::json!({ "error": e.to_string() })),
        )
            .into_response(),
    }
}

/// 404 for an unknown game, 400 for bad input, 503 for a table not generated,
/// 500 for a table that cannot be used.
fn status_of(error: &QueryError) -> StatusCode {
    match error {
        QueryError::Input(GameError::UnknownGame { .. }) => StatusCode::NOT_FOUND,
        QueryError::Input(_) => StatusCode::BAD_REQUEST,
        QueryError::MissingTable { .. } => StatusCode::SERVICE_UNAVAILABLE,
        QueryError::Table(_) | QueryError::WrongTable { .. } | QueryError::Terminal(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}
