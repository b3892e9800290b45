//! The routes: the page and its files, `/metrics`, the game list, and per game
//! the probe, a batch of probes, the page's view, the line of perfect play,
//! statistics, the editor, a typed move and the computer's move; and the lichess
//! tablebase API, `/standard` and `/standard/mainline` ([`crate::lichess`]). Each handler
//! reads a typed request and returns `Result<Json<Answer>, QueryError>`; the
//! error chooses its status ([`super::respond`]).

use super::batch;
use super::request::{
    BatchRequest, ComputerRequest, EditRequest, GameRequest, LineAnswer, LineRequest, MoveRequest,
    Params, ProbeRequest, StandardRequest, StatsRequest, ViewRequest,
};
use super::respond::overloaded;
use super::server::Limits;
use crate::QueryError;
use crate::answer::{
    ComputerAnswer, EditAnswer, GameList, MoveView, PositionAnswer, StatsAnswer, View,
};
use crate::api::{self, Ask};
use crate::library::Library;
use crate::lichess::{self, MainlineAnswer, StandardAnswer};
use crate::metrics::Metrics;
use axum::Router;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{Path, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use std::time::Instant;
use tower::ServiceBuilder;
use tower_http::cors::CorsLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

/// A handler's answer: JSON, or an error answered with its status.
type Answer<T> = Result<Json<T>, QueryError>;

/// What every handler reads.
#[derive(Debug, Clone)]
pub struct AppState {
    pub library: Library,
    pub metrics: Metrics,
    /// The longest value of a request, in bytes.
    pub max_position: usize,
}

/// The routes with default limits: `/`, `/api/v1/games`, `/api/v1/{game}`,
/// `/metrics`.
pub fn router(library: Library) -> Router {
    app(library, &Limits::default(), Metrics::new())
}

/// The routes with their layers: logs, metrics, time and size limits, load
/// shedding for probes, and CORS where an origin is allowed.
pub fn app(library: Library, limits: &Limits, metrics: Metrics) -> Router {
    let state = AppState {
        library,
        metrics,
        max_position: limits.max_position,
    };
    let probes = Router::new()
        .route("/api/v1/{game}", get(probe).post(batch))
        .route("/api/v1/{game}/view", get(view))
        .route("/api/v1/{game}/line", get(line))
        .route("/api/v1/{game}/stats", get(stats))
        .route("/api/v1/{game}/edit", get(edit))
        .route("/api/v1/{game}/move", get(made_move))
        .route("/api/v1/{game}/computer", get(computer))
        .route("/standard", get(standard))
        .route("/standard/mainline", get(mainline))
        .layer(
            ServiceBuilder::new()
                .layer(HandleErrorLayer::new(overloaded))
                .load_shed()
                .concurrency_limit(limits.max_probes),
        );
    let mut app = Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .route("/api/v1/games", get(list_games))
        .route("/metrics", get(metrics_text))
        .route("/health", get(health))
        .merge(probes)
        .layer(RequestBodyLimitLayer::new(limits.max_body))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), record))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .with_state(state);
    if let Some(origin) = &limits.cors {
        app = app.layer(
            CorsLayer::new()
                .allow_origin(origin.clone())
                .allow_methods([Method::GET, Method::POST]),
        );
    }
    app
}

impl AppState {
    /// Runs `work` off the async workers: answers read table blocks from disk.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Library) -> Result<T, QueryError> + Send + 'static,
    ) -> Result<T, QueryError> {
        let library = self.library.clone();
        tokio::task::spawn_blocking(move || work(&library))
            .await
            .map_err(|e| QueryError::Internal(format!("a worker failed: {e}")))?
    }

    /// Asks `request` of game `game`'s oracle, built from the request's options.
    async fn ask<R, T>(&self, game: String, request: R) -> Result<T, QueryError>
    where
        R: GameRequest + Ask<Output = Result<T, QueryError>> + Send + 'static,
        T: Send + 'static,
    {
        self.run(move |library| {
            let options = api::options(&game, request.options())?;
            api::with_oracle(library, &game, &options, request)?
        })
        .await
    }
}

/// Counts every answered request by status, with its latency.
async fn record(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let response = next.run(request).await;
    state
        .metrics
        .record(response.status().as_u16(), started.elapsed());
    response
}

async fn page() -> Html<&'static str> {
    Html(include_str!("../../web/index.html"))
}

async fn script() -> Response {
    let js = [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")];
    (js, include_str!("../../web/app.js")).into_response()
}

async fn style() -> Response {
    let css = [(header::CONTENT_TYPE, "text/css; charset=utf-8")];
    (css, include_str!("../../web/app.css")).into_response()
}

async fn metrics_text(State(state): State<AppState>) -> Response {
    let text = state.metrics.render(&state.library);
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

/// That the server answers, reading no table: for load balancers, and the
/// ceiling the load test measures probes against.
async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({"status": "ok"}))
}

async fn list_games(State(state): State<AppState>) -> Answer<GameList> {
    state.run(|library| Ok(api::games(library))).await.map(Json)
}

async fn probe(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<ProbeRequest>,
) -> Answer<PositionAnswer> {
    let answer = state.run(move |library| {
        let options = api::options(&game, &request.options)?;
        let captured = request.captured.as_deref();
        api::probe(library, &game, &options, &request.position, captured)
    });
    answer.await.map(Json)
}

/// The lichess tablebase API: `GET /standard?fen=...`.
async fn standard(
    State(state): State<AppState>,
    Params(request): Params<StandardRequest>,
) -> Answer<StandardAnswer> {
    let answer = state.run(move |library| lichess::standard(library, &request.fen));
    answer.await.map(Json)
}

/// The lichess tablebase API's line of play: `GET /standard/mainline?fen=...`.
async fn mainline(
    State(state): State<AppState>,
    Params(request): Params<StandardRequest>,
) -> Answer<MainlineAnswer> {
    let answer = state.run(move |library| lichess::mainline(library, &request.fen));
    answer.await.map(Json)
}

async fn batch(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<BatchRequest>,
    body: String,
) -> Result<Response, QueryError> {
    let max_position = state.max_position;
    let lines = state.run(move |library| {
        let options = api::options(&game, &request.options)?;
        batch::answer(library, &game, &options, &body, max_position)
    });
    let ndjson = [(header::CONTENT_TYPE, "application/x-ndjson")];
    Ok((ndjson, lines.await?).into_response())
}

/// The page's view, with the position in the game's other measures beside.
async fn view(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<ViewRequest>,
) -> Answer<View> {
    let answer = state.run(move |library| {
        let options = api::options(&game, request.options())?;
        let position = request.position.clone();
        let mut view = api::with_oracle(library, &game, &options, request)??;
        view.beside = api::beside(library, &game, &options, &position);
        Ok(view)
    });
    answer.await.map(Json)
}

async fn line(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<LineRequest>,
) -> Result<Response, QueryError> {
    Ok(match state.ask(game, request).await? {
        LineAnswer::Json(line) => Json(line).into_response(),
        LineAnswer::Record(pgn) => {
            let kind = [(
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8",
            )];
            (kind, pgn).into_response()
        }
    })
}

async fn stats(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<StatsRequest>,
) -> Answer<StatsAnswer> {
    state.ask(game, request).await.map(Json)
}

async fn edit(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<EditRequest>,
) -> Answer<EditAnswer> {
    state.ask(game, request).await.map(Json)
}

async fn made_move(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<MoveRequest>,
) -> Answer<MoveView> {
    state.ask(game, request).await.map(Json)
}

async fn computer(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<ComputerRequest>,
) -> Answer<ComputerAnswer> {
    state.ask(game, request).await.map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[tokio::test]
    async fn cors_names_the_origin_allowed() {
        use tower::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            cors: Some(HeaderValue::from_static("https://example.org")),
            ..Limits::default()
        };
        let ask = |origin: &'static str| {
            axum::http::Request::get("/api/v1/games")
                .header(header::ORIGIN, origin)
                .body(axum::body::Body::empty())
                .unwrap()
        };
        let app = app(Library::new(dir.path()), &limits, Metrics::new());
        let allowed = app
            .clone()
            .oneshot(ask("https://example.org"))
            .await
            .unwrap();
        assert_eq!(
            allowed.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN],
            "https://example.org"
        );
        // Another origin is told the one allowed, which its browser refuses.
        let other = app.oneshot(ask("https://elsewhere.example")).await.unwrap();
        assert_eq!(
            other.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN],
            "https://example.org"
        );
        // Without --cors, no origin is named.
        let plain = router(Library::new(dir.path()));
        let response = plain.oneshot(ask("https://example.org")).await.unwrap();
        assert!(
            response
                .headers()
                .get(header::ACCESS_CONTROL_ALLOW_ORIGIN)
                .is_none()
        );
    }
}
