//! The HTTP server: the same JSON as `probe --json`, a page to try it, and
//! `/metrics`. It is built to stay up under hostile clients: a client must send
//! its request head within a time limit, positions and bodies are bounded, a cap
//! on concurrent probes answers 503 with Retry-After when full, and when the
//! connection cap is reached the oldest connection is closed to make room, so
//! clients that trickle bytes cannot starve the ones that ask and go. SIGTERM
//! and SIGINT stop it gracefully within a drain time.

use crate::api::{self, error_answer};
use crate::engine::{self, Algorithm};
use crate::error::QueryError;
use crate::library::Library;
use crate::metrics::Metrics;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use axum::{BoxError, Router};
use games::GameError;
use games::capability::Marks;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tower::ServiceBuilder;
use tower_http::cors::CorsLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::{Level, info, warn};

/// How the server protects itself.
#[derive(Debug, Clone)]
pub struct Limits {
    /// A client must send a request's head within this time.
    pub header_timeout: Duration,
    /// A request must be answered within this time (408 otherwise).
    pub request_timeout: Duration,
    /// After SIGTERM or SIGINT, open connections may finish for this long.
    pub drain_timeout: Duration,
    /// Probes answered at once; more are refused with 503 and Retry-After.
    pub max_probes: usize,
    /// Connections open at once; a new one closes the oldest beyond this.
    pub max_connections: usize,
    /// The longest position (and request line) accepted, in bytes.
    pub max_position: usize,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// An origin allowed to call the API from a browser (CORS), if any.
    pub cors: Option<HeaderValue>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            drain_timeout: Duration::from_secs(10),
            max_probes: 256,
            max_connections: 4096,
            max_position: 8 << 10,
            max_body: 1 << 20,
            cors: None,
        }
    }
}

/// The most a request head may take in bytes before hyper refuses it (431).
const HEAD_BUFFER: usize = 256 << 10;

#[derive(Clone)]
struct AppState {
    library: Library,
    metrics: Metrics,
    max_position: usize,
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
        .route("/api/v1/{game}", get(probe_game).post(batch))
        .route("/api/v1/{game}/view", get(view))
        .route("/api/v1/{game}/line", get(line))
        .route("/api/v1/{game}/stats", get(stats))
        .route("/api/v1/{game}/edit", get(edit))
        .route("/api/v1/{game}/move", get(typed_move))
        .route("/api/v1/{game}/computer", get(computer))
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

/// Serves until `shutdown` completes, then lets open connections finish within
/// the drain time.
pub async fn serve(
    addr: &str,
    library: Library,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    raise_open_file_limit();
    let listener = tokio::net::TcpListener::bind(addr).await?;
    info!(
        "serving tables from {} on http://{}",
        library.dir.display(),
        listener.local_addr()?
    );
    eprintln!(
        "serving tables from {} on http://{}",
        library.dir.display(),
        listener.local_addr()?
    );
    let app = app(library, &limits, Metrics::new());
    let mut http = hyper::server::conn::http1::Builder::new();
    // Room for request heads well past the longest position, so that a long
    // one reaches the handler and is refused there in JSON.
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HEAD_BUFFER.max(4 * limits.max_position));
    let graceful = GracefulShutdown::new();
    let connections = Connections::new(limits.max_connections);
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file handles, most likely: wait for some to close.
                    warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let slot = connections.admit();
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            let mut slot = slot;
            tokio::select! {
                _ = connection => {}
                _ = &mut slot.evicted => {}
            }
        });
    }
    drop(listener);
    info!("shutting down: draining open connections");
    tokio::select! {
        () = graceful.shutdown() => info!("all connections closed"),
        () = tokio::time::sleep(limits.drain_timeout) => {
            warn!("drain time over: closing the connections left");
        }
    }
    Ok(())
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM (what `docker stop` and systemd send).
pub async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// Lets the process open as many files as its hard limit allows: each
/// connection takes one.
fn raise_open_file_limit() {
    #[cfg(unix)]
    if let Err(e) = rlimit::increase_nofile_limit(u64::MAX) {
        warn!("raising the open file limit: {e}");
    }
}

/// The open connections, oldest first; admitting one beyond the cap evicts the
/// oldest.
#[derive(Clone)]
struct Connections {
    open: Arc<Mutex<BTreeMap<u64, oneshot::Sender<()>>>>,
    next: Arc<std::sync::atomic::AtomicU64>,
    cap: usize,
}

/// A connection's place among the open ones; it leaves when dropped.
struct Slot {
    id: u64,
    open: Arc<Mutex<BTreeMap<u64, oneshot::Sender<()>>>>,
    /// Completes when the connection is evicted.
    evicted: oneshot::Receiver<()>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

impl Connections {
    fn new(cap: usize) -> Self {
        Connections {
            open: Arc::default(),
            next: Arc::default(),
            cap: cap.max(1),
        }
    }

    fn admit(&self) -> Slot {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (evict, evicted) = oneshot::channel();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        while open.len() >= self.cap {
            // Dropping the sender wakes the oldest connection's task, which closes it.
            open.pop_first();
        }
        open.insert(id, evict);
        Slot {
            id,
            open: Arc::clone(&self.open),
            evicted,
        }
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

async fn overloaded(error: BoxError) -> Response {
    if error.is::<tower::load_shed::error::Overloaded>() {
        let body = serde_json::json!({ "error": "too many probes at once; try again in a second" });
        let mut response = (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return response;
    }
    let body = serde_json::json!({ "error": error.to_string() });
    (StatusCode::INTERNAL_SERVER_ERROR, Json(body)).into_response()
}

async fn page() -> Html<&'static str> {
    Html(include_str!("../web/index.html"))
}

async fn script() -> Response {
    let js = [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")];
    (js, include_str!("../web/app.js")).into_response()
}

async fn style() -> Response {
    let css = [(header::CONTENT_TYPE, "text/css; charset=utf-8")];
    (css, include_str!("../web/app.css")).into_response()
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

async fn list_games(State(state): State<AppState>) -> Response {
    match tokio::task::spawn_blocking(move || api::games(&state.library)).await {
        Ok(list) => Json(list).into_response(),
        Err(e) => internal(e),
    }
}

async fn probe_game(
    State(state): State<AppState>,
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
    if position.len() > state.max_position {
        let shown: String = position.chars().take(40).collect();
        let error = QueryError::Input(GameError::position(
            &format!("{shown}..."),
            format!(
                "{} bytes; positions of up to {} bytes are answered",
                position.len(),
                state.max_position
            ),
        ));
        let body = error_answer(&format!("{shown}..."), &error);
        return (StatusCode::PAYLOAD_TOO_LARGE, Json(body)).into_response();
    }
    // Probing reads table blocks from disk: keep it off the async workers.
    let library = state.library;
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

/// The parameters of a request, taken out by name; what is left are the game's
/// options.
struct Params(Vec<(String, String)>);

impl Params {
    fn take(&mut self, name: &str) -> Option<String> {
        let at = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(at).1)
    }

    fn require(&mut self, name: &str) -> Result<String, QueryError> {
        self.take(name).ok_or_else(|| {
            QueryError::Input(GameError::position(
                "",
                format!("missing query parameter '{name}'"),
            ))
        })
    }
}

/// Runs a request of game `game` off the async workers: `work` gets the
/// library, the game's id and the request's parameters, from which it takes its
/// own before the rest are read as the game's options. Errors become JSON with
/// their status.
async fn per_game(
    state: AppState,
    game: String,
    params: Vec<(String, String)>,
    work: impl FnOnce(&Library, &str, &mut Params) -> Result<Response, QueryError> + Send + 'static,
) -> Response {
    let max_position = state.max_position;
    let library = state.library;
    let answer = tokio::task::spawn_blocking(move || {
        let mut params = Params(params);
        if let Some((_, long)) = params.0.iter().find(|(_, v)| v.len() > max_position) {
            let error = QueryError::Input(GameError::position(
                &long.chars().take(40).collect::<String>(),
                format!("{} bytes; at most {max_position} are answered", long.len()),
            ));
            return Err((StatusCode::PAYLOAD_TOO_LARGE, error_answer("", &error)));
        }
        work(&library, &game, &mut params).map_err(|e| (status_of(&e), error_answer("", &e)))
    })
    .await;
    match answer {
        Ok(Ok(response)) => response,
        Ok(Err((status, body))) => (status, Json(body)).into_response(),
        Err(e) => internal(e),
    }
}

/// Reads the page's marks: `owners=b0:1,b4:2`, `taken=3,2`, `last=e2,e4`.
fn marks(params: &mut Params) -> Result<Marks, QueryError> {
    let bad = |name: &str, value: &str| {
        QueryError::Input(GameError::option(
            name,
            value,
            "is not in the form the page sends",
        ))
    };
    let mut marks = Marks::default();
    if let Some(owners) = params.take("owners") {
        for pair in owners.split(',').filter(|p| !p.is_empty()) {
            let (place, seat) = pair.split_once(':').ok_or_else(|| bad("owners", &owners))?;
            let seat = seat.parse::<u8>().map_err(|_| bad("owners", &owners))?;
            marks.owners.push((place.to_string(), seat));
        }
    }
    if let Some(taken) = params.take("taken") {
        let numbers: Vec<i64> = taken
            .split(',')
            .map(|n| n.parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad("taken", &taken))?;
        marks.taken = Some(<[i64; 2]>::try_from(numbers).map_err(|_| bad("taken", &taken))?);
    }
    if let Some(last) = params.take("last") {
        marks.last = last
            .split(',')
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect();
    }
    Ok(marks)
}

fn options_of(game: &str, params: &Params) -> Result<games::Options, QueryError> {
    api::options(game, &params.0).map_err(QueryError::Input)
}

async fn view(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> Response {
    struct Ask(String, Marks);
    impl api::Ask for Ask {
        type Output = crate::answer::View;
        fn ask<G: games::Game>(self, oracle: &crate::Oracle<G>) -> Self::Output {
            crate::view::view(oracle, &self.0, &self.1)
        }
    }
    per_game(state, game, params, |library, game, params| {
        let position = params.require("position")?;
        let marks = marks(params)?;
        let view = api::with_oracle(
            library,
            game,
            &options_of(game, params)?,
            Ask(position, marks),
        )?;
        Ok(Json(view).into_response())
    })
    .await
}

async fn line(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> Response {
    struct Line(String, bool);
    impl api::Ask for Line {
        type Output = Result<Response, QueryError>;
        fn ask<G: games::Game>(self, oracle: &crate::Oracle<G>) -> Self::Output {
            if self.1 {
                let record = crate::view::record(oracle, &self.0, crate::view::MAX_LINE)?;
                let pgn = [(
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8",
                )];
                return Ok((pgn, record).into_response());
            }
            let answer = crate::view::line(oracle, &self.0, crate::view::MAX_LINE)?.answer;
            Ok(Json(answer).into_response())
        }
    }
    per_game(state, game, params, |library, game, params| {
        let position = params.require("position")?;
        let pgn = match params.take("format").as_deref() {
            None | Some("json") => false,
            Some("pgn") => true,
            Some(other) => {
                return Err(QueryError::Input(GameError::option(
                    "format",
                    other,
                    "takes json or pgn",
                )));
            }
        };
        let options = options_of(game, params)?;
        api::with_oracle(library, game, &options, Line(position, pgn))?
    })
    .await
}

async fn stats(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> Response {
    struct Stats;
    impl api::Ask for Stats {
        type Output = Result<crate::answer::StatsAnswer, QueryError>;
        fn ask<G: games::Game>(self, oracle: &crate::Oracle<G>) -> Self::Output {
            crate::view::stats(oracle)
        }
    }
    per_game(state, game, params, |library, game, params| {
        let stats = api::with_oracle(library, game, &options_of(game, params)?, Stats)??;
        Ok(Json(stats).into_response())
    })
    .await
}

async fn edit(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> Response {
    struct Edit(String, String, String);
    impl api::Ask for Edit {
        type Output = Result<serde_json::Value, QueryError>;
        fn ask<G: games::Game>(self, oracle: &crate::Oracle<G>) -> Self::Output {
            let position = crate::view::edit(oracle, &self.0, &self.1, &self.2)?;
            Ok(serde_json::json!({ "position": position }))
        }
    }
    per_game(state, game, params, |library, game, params| {
        let ask = Edit(
            params.require("position")?,
            params.require("place")?,
            params.require("tool")?,
        );
        let edited = api::with_oracle(library, game, &options_of(game, params)?, ask)??;
        Ok(Json(edited).into_response())
    })
    .await
}

async fn typed_move(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> Response {
    struct Typed(String, String);
    impl api::Ask for Typed {
        type Output = Result<crate::answer::MoveView, QueryError>;
        fn ask<G: games::Game>(self, oracle: &crate::Oracle<G>) -> Self::Output {
            crate::view::typed_move(oracle, &self.0, &self.1)
        }
    }
    per_game(state, game, params, |library, game, params| {
        let ask = Typed(params.require("position")?, params.require("move")?);
        let made = api::with_oracle(library, game, &options_of(game, params)?, ask)??;
        Ok(Json(made).into_response())
    })
    .await
}

async fn computer(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> Response {
    struct Computer {
        text: String,
        limits: engine::Limits,
        /// A search parameter given, refused for games that do not search.
        search_asked: Option<(&'static str, String)>,
        level: u8,
        seed: u64,
    }
    impl api::Ask for Computer {
        type Output = Result<serde_json::Value, QueryError>;
        fn ask<G: games::Game>(self, oracle: &crate::Oracle<G>) -> Self::Output {
            let Computer {
                text,
                limits,
                search_asked,
                level,
                seed,
            } = self;
            if let (false, Some((name, value))) = (oracle.caps.search_beyond_tables, search_asked) {
                return Err(QueryError::Input(GameError::option(
                    name,
                    &value,
                    format!(
                        "{} plays from its tables or formula and never searches",
                        oracle.game.id()
                    ),
                )));
            }
            let position = oracle.read(&text)?;
            let engine = oracle
                .caps
                .search_beyond_tables
                .then(|| engine::Engine::new(oracle, limits));
            let mut rng: rand::rngs::StdRng = rand::SeedableRng::seed_from_u64(seed);
            let (mv, reason) =
                crate::play::computer_turn(oracle, engine.as_ref(), &position, level, &mut rng)?;
            let note = crate::play::explain(oracle, &reason, "the computer", true);
            let view =
                crate::view::typed_move(oracle, &text, &oracle.game.write_move(&position, &mv))?;
            Ok(serde_json::json!({ "move": view, "note": note }))
        }
    }
    per_game(state, game, params, |library, game, params| {
        let position = params.require("position")?;
        let search_asked = ["algorithm", "depth"].into_iter().find_map(|name| {
            let (_, value) = params.0.iter().find(|(n, _)| n == name)?;
            Some((name, value.clone()))
        });
        let limits = search_limits(params)?;
        let level = match params.take("level") {
            None => crate::play::PERFECT,
            Some(text) => text
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|&l| l <= crate::play::PERFECT)
                .ok_or_else(|| {
                    QueryError::Input(GameError::option("level", &text, "takes 0 to 10"))
                })?,
        };
        let seed = match params.take("seed") {
            None => rand::random(),
            Some(text) => text.trim().parse::<u64>().map_err(|_| {
                QueryError::Input(GameError::option("seed", &text, "takes a whole number"))
            })?,
        };
        let ask = Computer {
            text: position,
            limits,
            search_asked,
            level,
            seed,
        };
        let chosen = api::with_oracle(library, game, &options_of(game, params)?, ask)??;
        Ok(Json(chosen).into_response())
    })
    .await
}

/// The deepest search the server runs per algorithm: a few seconds a move at
/// most on Abapa, where plain minimax visits every position to the depth.
fn deepest(algorithm: Algorithm) -> u32 {
    match algorithm {
        Algorithm::Minimax | Algorithm::Negamax => 10,
        Algorithm::AlphaBeta => 16,
    }
}

/// How the computer searches where nothing exact reaches: `algorithm`
/// (minimax, negamax, alphabeta), a fixed `depth`, or `think` seconds.
fn search_limits(params: &mut Params) -> Result<engine::Limits, QueryError> {
    let refuse =
        |name: &str, text: &str, why: String| QueryError::Input(GameError::option(name, text, why));
    let algorithm = match params.take("algorithm") {
        None => Algorithm::default(),
        Some(text) => {
            <Algorithm as clap::ValueEnum>::from_str(text.trim(), true).map_err(|_| {
                refuse(
                    "algorithm",
                    &text,
                    "takes minimax, negamax or alphabeta".into(),
                )
            })?
        }
    };
    let depth = match params.take("depth") {
        None => None,
        Some(text) if text.trim().is_empty() => None,
        Some(text) => Some(
            text.trim()
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=deepest(algorithm)).contains(d))
                .ok_or_else(|| {
                    refuse(
                        "depth",
                        &text,
                        format!(
                            "takes 1 to {} plies with {} here",
                            deepest(algorithm),
                            algorithm.name()
                        ),
                    )
                })?,
        ),
    };
    let think = match params.take("think") {
        None => Duration::from_millis(500),
        Some(t) => t
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .filter(|d| !d.is_zero() && *d <= Duration::from_secs(10))
            .ok_or_else(|| refuse("think", &t, "takes seconds from 0.001 to 10".into()))?,
    };
    Ok(engine::Limits {
        algorithm,
        depth,
        think,
    })
}

/// The most lines a batch may hold.
const MAX_BATCH: usize = 10_000;

/// Probes in a batch: a JSON Lines body, each line a position as a JSON string
/// (or an object with `position`), answered one JSON line each, in order.
async fn batch(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
    body: String,
) -> Response {
    let library = state.library;
    let max_position = state.max_position;
    let answer = tokio::task::spawn_blocking(move || {
        let options = api::options(&game, &params).map_err(QueryError::Input)?;
        let lines: Vec<&str> = body.lines().collect();
        if lines.len() > MAX_BATCH {
            return Err(QueryError::Input(GameError::position(
                "",
                format!("{} lines; a batch holds at most {MAX_BATCH}", lines.len()),
            )));
        }
        let mut out = String::new();
        for line in lines {
            let position = match serde_json::from_str::<serde_json::Value>(line) {
                Ok(serde_json::Value::String(p)) => Ok(p),
                Ok(serde_json::Value::Object(o)) => match o.get("position") {
                    Some(serde_json::Value::String(p)) => Ok(p.clone()),
                    _ => Err("an object needs a \"position\" string".to_string()),
                },
                Ok(_) => Err("each line is a position as a JSON string".to_string()),
                Err(e) => Err(format!("not JSON: {e}")),
            };
            // An error names the position read, or the line where none was.
            let (shown, answer) = match position {
                Err(why) => (line, Err(QueryError::Input(GameError::position(line, why)))),
                Ok(ref p) if p.len() > max_position => (
                    "",
                    Err(QueryError::Input(GameError::position(
                        "",
                        format!("{} bytes; at most {max_position} are answered", p.len()),
                    ))),
                ),
                Ok(ref p) => (p.as_str(), api::probe(&library, &game, &options, p, None)),
            };
            let json = match answer {
                Ok(answer) => serde_json::to_string(&answer),
                Err(e) => serde_json::to_string(&error_answer(shown, &e)),
            };
            out.push_str(&json.expect("answers serialize"));
            out.push('\n');
        }
        Ok(out)
    })
    .await;
    match answer {
        Ok(Ok(lines)) => ([(header::CONTENT_TYPE, "application/x-ndjson")], lines).into_response(),
        Ok(Err(e)) => (status_of(&e), Json(error_answer("", &e))).into_response(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_server_says_when_to_come_back() {
        let response = overloaded(Box::new(tower::load_shed::error::Overloaded::new())).await;
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    }

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

    #[test]
    fn the_oldest_connection_makes_room() {
        let connections = Connections::new(2);
        let mut first = connections.admit();
        let _second = connections.admit();
        assert!(
            first
                .evicted
                .try_recv()
                .is_err_and(|e| e == oneshot::error::TryRecvError::Empty)
        );
        let _third = connections.admit();
        assert_eq!(
            first.evicted.try_recv(),
            Err(oneshot::error::TryRecvError::Closed)
        );
        drop(first);
        assert_eq!(connections.open.lock().unwrap().len(), 2);
    }
}
