//! The routes: the page and its files, `/metrics`, the game list, and per game
//! the probe, a batch of probes, the page's view, the line of perfect play,
//! statistics, the editor, a typed move and the computer's move; and the lichess
//! tablebase API, `/standard` and `/standard/mainline` ([`crate::lichess`]). Each handler
//! reads a typed request and returns `Result<Json<Answer>, ServeError>`; the
//! error chooses its status ([`super::respond`]).

use super::batch;
use super::outbox;
use super::quick::{Lane, QUICK_WEIGHT};
use super::request::{
    BatchRequest, ComputerRequest, EditRequest, GameRequest, LineAnswer, LineRequest, MoveRequest,
    Params, ProbeRequest, Question, StandardRequest, StatsRequest, ViewRequest,
};
use super::respond::{Json, Negotiated, ServeError, json_errors, no_route};
use super::state::{AppState, Limits};
use crate::QueryError;
use crate::answer::{
    ComputerAnswer, EditAnswer, GameList, Health, MoveView, PositionAnswer, StatsAnswer,
};
use crate::api;
use crate::files::TableFiles;
use crate::library::Library;
use crate::lichess::{self, MainlineAnswer, StandardAnswer};
use crate::metrics::Metrics;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use games::registry;
use std::time::Instant;
use tower_http::cors::CorsLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tracing::Level;

/// A handler's answer: JSON, or an error answered with its status.
type Answer<T> = Result<Json<T>, ServeError>;

/// The routes with default limits: `/`, `/api/v1/games`, `/api/v1/{game}`,
/// `/metrics`.
pub fn router(library: Library) -> Router {
    app(library, &Limits::default(), Metrics::new())
}

/// The routes with their layers: logs, metrics, time and size limits, every
/// error as JSON, and CORS where an origin is allowed. Answers that read tables
/// take a permit each (`AppState::run`); when none is left they are refused
/// with 503 and Retry-After.
pub fn app(library: Library, limits: &Limits, metrics: Metrics) -> Router {
    let state = AppState::new(library, limits, metrics);
    let mut app = Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .route("/api", get(api_page))
        .route("/favicon.svg", get(icon))
        .route("/favicon.ico", get(icon))
        .route("/api/v1/games", get(list_games))
        .route("/api/v1/tables", get(list_tables))
        .route("/metrics", get(metrics_text))
        .route("/health", get(health))
        .route("/api/v1/{game}", get(probe).post(batch))
        .route("/api/v1/{game}/view", get(view))
        .route("/api/v1/{game}/line", get(line))
        .route("/api/v1/{game}/stats", get(stats))
        .route("/api/v1/{game}/edit", get(edit))
        .route("/api/v1/{game}/move", get(made_move))
        .route("/api/v1/{game}/computer", get(computer))
        .route("/standard", get(standard))
        .route("/standard/mainline", get(mainline))
        .fallback(no_route)
        .layer(RequestBodyLimitLayer::new(limits.max_body))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
        .layer(middleware::map_response(json_errors))
        .layer(middleware::from_fn_with_state(state.clone(), outbox::hold))
        .layer(middleware::from_fn_with_state(state.clone(), record))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO))
                // A 503 (a table not made, the server full) is expected; a 500
                // is logged as an error where it is answered.
                .on_failure(DefaultOnFailure::new().level(Level::WARN)),
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

/// Asks `request` of game `game`'s oracle, built from the request's options.
async fn ask<R>(state: &AppState, game: String, request: R) -> Result<R::Answer, ServeError>
where
    R: Question + Send + 'static,
    R::Answer: Send + 'static,
{
    state
        .run(move |library| {
            let options = api::options(&game, request.options())?;
            request.ask(&*library.open(&game, &options)?, library)
        })
        .await
}

/// The lane of `route` for the game named `game`: unknown names share one,
/// answered at once with an error.
fn lane(route: &'static str, game: &str) -> Lane {
    (route, registry::entry(game).map_or("", |entry| entry.id))
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

/// The API, each endpoint with an example.
async fn api_page() -> Html<&'static str> {
    Html(include_str!("../../web/api.html"))
}

/// The page's icon; also at `/favicon.ico`, where browsers look unasked.
async fn icon() -> Response {
    let svg = [(header::CONTENT_TYPE, "image/svg+xml")];
    (svg, include_str!("../../web/favicon.svg")).into_response()
}

async fn metrics_text(State(state): State<AppState>) -> Response {
    let running = state.max_probes - state.probes.available_permits();
    let text = state
        .metrics
        .render(&state.library, running, state.outbox.held());
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
async fn health() -> Json<Health> {
    Json(Health { status: "ok" })
}

async fn list_games(State(state): State<AppState>) -> Answer<GameList> {
    state.run(|library| Ok(api::games(library))).await.map(Json)
}

/// Every table file with its size and SHA-256.
async fn list_tables(State(state): State<AppState>) -> Answer<TableFiles> {
    state.run(api::table_files).await.map(Json)
}

async fn probe(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<ProbeRequest>,
) -> Answer<PositionAnswer> {
    let options = api::options(&game, &request.options)?;
    let light = state
        .weight(&game, &options, &request.position)
        .is_none_or(|w| w <= QUICK_WEIGHT);
    let answer = state.quick(lane("probe", &game), light, move |library| {
        let captured = request.captured.as_deref();
        api::probe(library, &game, &options, &request.position, captured)
    });
    answer.await.map(Json)
}

/// The lichess tablebase API: `GET /standard?fen=...`, in JSON or CBOR.
async fn standard(
    State(state): State<AppState>,
    headers: HeaderMap,
    Params(request): Params<StandardRequest>,
) -> Result<Negotiated<StandardAnswer>, ServeError> {
    let answer = state.quick(("standard", ""), true, move |library| {
        lichess::standard(library, &request.fen)
    });
    Ok(Negotiated::of(answer.await?, &headers))
}

/// The lichess tablebase API's line of play: `GET /standard/mainline?fen=...`;
/// 404 where the tables do not hold the position, as lila-tablebase answers.
async fn mainline(
    State(state): State<AppState>,
    headers: HeaderMap,
    Params(request): Params<StandardRequest>,
) -> Result<Negotiated<MainlineAnswer>, ServeError> {
    let answer = state.run(move |library| lichess::mainline(library, &request.fen));
    match answer.await {
        Ok(line) => Ok(Negotiated::of(line, &headers)),
        Err(ServeError::Query(not_held)) if lichess::not_held(&not_held) => {
            Err(ServeError::NotHeld(not_held))
        }
        Err(other) => Err(other),
    }
}

async fn batch(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<BatchRequest>,
    body: Body,
) -> Result<Response, ServeError> {
    let options = api::options(&game, &request.options)?;
    let (max_position, max_body) = (state.max_position, state.max_body);
    let lines = batch::read(body, max_position, max_body).await?;
    let next = move |library: &Library, lines: &mut std::vec::IntoIter<batch::Line>| {
        let line = lines.next()?;
        Some(batch::answer_line(
            library,
            &game,
            &options,
            line,
            max_position,
        ))
    };
    let answers = state.stream(lines.into_iter(), next, batch::stopped)?;
    let ndjson = [(header::CONTENT_TYPE, "application/x-ndjson")];
    Ok((ndjson, answers).into_response())
}

/// The page's view, with the position in the game's other measures beside; a
/// text that is no position is answered 400 with the board as far as it can
/// be drawn and why.
async fn view(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<ViewRequest>,
) -> Result<Response, ServeError> {
    let options = api::options(&game, request.options())?;
    // A view writes every move's position: one a formula answers is never
    // light, and its memory is reserved before its work starts.
    let weight = state.weight(&game, &options, &request.position);
    let making = weight.map(|w| view_bytes(w, request.position.len(), state.library.max_view));
    let _making = making.map(|bytes| state.reserve(bytes)).transpose()?;
    let light = weight.is_none();
    let answer = state.quick(lane("view", &game), light, move |library| {
        let view = request.ask(&*library.open(&game, &options)?, library)?;
        // Written here, off the async workers: a view may be megabytes.
        let json = serde_json::to_vec(&view).map_err(|e| QueryError::Internal(e.to_string()))?;
        Ok((view.refused, json))
    });
    let (refused, json) = answer.await?;
    let status = match refused {
        true => StatusCode::BAD_REQUEST,
        false => StatusCode::OK,
    };
    let kind = [(header::CONTENT_TYPE, "application/json")];
    Ok((status, kind, json).into_response())
}

/// What the view of a position a formula answers may take while it is made:
/// each move the formula weighs written with its position (about as long as
/// `text`), never more than the view's bound `max_view` allows, six times
/// over (measured: a Northcott view of 8.5 MB takes 45 MB at its peak, its
/// moves held, then written into a buffer that grows).
fn view_bytes(weight: u64, text: usize, max_view: usize) -> usize {
    let each = text as u64 + 256;
    let moves = weight.saturating_mul(each).min(max_view as u64) as usize;
    6 * moves
}

async fn line(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<LineRequest>,
) -> Result<Response, ServeError> {
    Ok(match ask(&state, game, request).await? {
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
    ask(&state, game, request).await.map(Json)
}

async fn edit(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<EditRequest>,
) -> Answer<EditAnswer> {
    ask(&state, game, request).await.map(Json)
}

async fn made_move(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<MoveRequest>,
) -> Answer<MoveView> {
    ask(&state, game, request).await.map(Json)
}

async fn computer(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(request): Params<ComputerRequest>,
) -> Answer<ComputerAnswer> {
    ask(&state, game, request).await.map(Json)
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
