//! What each route is asked, as types: the query string read into a request
//! struct, the game's options flattened in (every parameter the route does not
//! take itself), and what each request asks of a game's oracle.

use super::respond::ServeError;
use super::state::AppState;
use crate::QueryError;
use crate::answer::{ComputerAnswer, EditAnswer, MoveView, StatsAnswer, View};
use crate::computer::PERFECT;
use crate::engine::{self, Algorithm};
use crate::handle::GameHandle;
use crate::library::Library;
use crate::view;
use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use games::GameError;
use games::capability::Marks;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::time::Duration;

/// A request read from the query string. Every value is first held to the
/// server's longest position (413 beyond it); a missing or malformed
/// parameter is a [`ServeError::Request`].
#[derive(Debug)]
pub struct Params<T>(pub T);

impl<T: DeserializeOwned> FromRequestParts<AppState> for Params<T> {
    type Rejection = ServeError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ServeError> {
        let refused = |e: axum::extract::rejection::QueryRejection| {
            let why =
                std::error::Error::source(&e).map_or_else(|| e.body_text(), |s| s.to_string());
            ServeError::Request(why)
        };
        // A value is never longer decoded than written: only a query with a
        // long written value is decoded to measure its values.
        let query = parts.uri.query().unwrap_or_default();
        let written = |pair: &str| pair.split_once('=').map_or(0, |(_, value)| value.len());
        if query
            .split('&')
            .any(|pair| written(pair) > state.max_position)
        {
            let pairs =
                Query::<Vec<(String, String)>>::try_from_uri(&parts.uri).map_err(refused)?;
            if let Some((_, long)) = pairs.0.iter().find(|(_, v)| v.len() > state.max_position) {
                return Err(QueryError::too_long(long, state.max_position).into());
            }
        }
        Ok(Params(
            Query::<T>::try_from_uri(&parts.uri).map_err(refused)?.0,
        ))
    }
}

/// The game's options: the parameters a route does not take itself, where `_`
/// may stand for `-` (`max_take`).
pub type GameOptions = BTreeMap<String, String>;

/// A request about one game, with its options.
pub trait GameRequest {
    fn options(&self) -> &GameOptions;
}

/// A request one call of the game's handle answers.
pub trait Question: GameRequest {
    type Answer;
    fn ask(self, handle: &dyn GameHandle, library: &Library) -> Result<Self::Answer, QueryError>;
}

macro_rules! game_request {
    ($($request:ty),*) => {$(
        impl GameRequest for $request {
            fn options(&self) -> &GameOptions {
                &self.options
            }
        }
    )*};
}
game_request!(
    ProbeRequest,
    ViewRequest,
    LineRequest,
    StatsRequest,
    EditRequest,
    MoveRequest,
    ComputerRequest,
    BatchRequest
);

/// `GET /api/v1/{game}`: a position's value and every move; with `captured`
/// (`M,O`), who wins the whole game.
#[derive(Debug, Deserialize)]
pub struct ProbeRequest {
    pub position: String,
    pub captured: Option<String>,
    #[serde(flatten)]
    pub options: GameOptions,
}

/// `GET /standard`: the lichess tablebase API's parameters.
#[derive(Debug, Deserialize)]
pub struct StandardRequest {
    pub fen: String,
    /// Whether lichess's distance-to-conversion tables are asked too; there
    /// are none here (`dtc` is always null), but the value is checked as
    /// lila-tablebase checks it.
    #[serde(default)]
    pub dtc: Option<DtcMode>,
}

/// The values lila-tablebase takes for `dtc`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DtcMode {
    Never,
    Auxiliary,
    Always,
}

/// `POST /api/v1/{game}`: the options of a batch (its positions are the body).
#[derive(Debug, Deserialize)]
pub struct BatchRequest {
    #[serde(flatten)]
    pub options: GameOptions,
}

/// `GET /api/v1/{game}/stats`: what the game's tables hold.
#[derive(Debug, Deserialize)]
pub struct StatsRequest {
    /// One table only, by its tier's name (chess: `KQvKR`).
    pub tier: Option<String>,
    #[serde(flatten)]
    pub options: GameOptions,
}

impl Question for StatsRequest {
    type Answer = StatsAnswer;
    fn ask(self, handle: &dyn GameHandle, library: &Library) -> Result<StatsAnswer, QueryError> {
        handle.stats(library, self.tier.as_deref())
    }
}

/// `GET /api/v1/{game}/view`: everything the page shows of a position, with
/// the marks it keeps: `owners=b0:1,b4:2`, `taken=3,2`, `last=e2,e4`, and
/// `flip=yes` for the board seen from the other side.
#[derive(Debug, Deserialize)]
pub struct ViewRequest {
    pub position: String,
    pub owners: Option<String>,
    pub taken: Option<String>,
    pub last: Option<String>,
    pub flip: Option<String>,
    #[serde(flatten)]
    pub options: GameOptions,
}

impl ViewRequest {
    fn marks(&self) -> Result<Marks, QueryError> {
        let bad = |name: &str, value: &str| {
            QueryError::Input(GameError::option(
                name,
                value,
                "is not in the form the page sends",
            ))
        };
        let mut marks = Marks::default();
        if let Some(owners) = &self.owners {
            for pair in owners.split(',').filter(|p| !p.is_empty()) {
                let (place, seat) = pair.split_once(':').ok_or_else(|| bad("owners", owners))?;
                let seat = seat.parse::<u8>().map_err(|_| bad("owners", owners))?;
                marks.owners.push((place.to_string(), seat));
            }
        }
        if let Some(taken) = &self.taken {
            let numbers: Vec<i64> = taken
                .split(',')
                .map(|n| n.parse::<i64>())
                .collect::<Result<_, _>>()
                .map_err(|_| bad("taken", taken))?;
            marks.taken = Some(<[i64; 2]>::try_from(numbers).map_err(|_| bad("taken", taken))?);
        }
        if let Some(last) = &self.last {
            marks.last = last
                .split(',')
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect();
        }
        marks.flipped = match self.flip.as_deref() {
            None | Some("no") => false,
            Some("yes") => true,
            Some(other) => return Err(bad("flip", other)),
        };
        Ok(marks)
    }
}

impl Question for ViewRequest {
    type Answer = View;
    fn ask(self, handle: &dyn GameHandle, library: &Library) -> Result<View, QueryError> {
        Ok(handle.view(library, &self.position, &self.marks()?))
    }
}

/// `GET /api/v1/{game}/line`: the line of perfect play, as JSON or (`format=pgn`)
/// in the game's record format.
#[derive(Debug, Deserialize)]
pub struct LineRequest {
    pub position: String,
    pub format: Option<String>,
    #[serde(flatten)]
    pub options: GameOptions,
}

/// A line as JSON, or as a game record.
#[derive(Debug)]
pub enum LineAnswer {
    Json(Box<crate::answer::LineAnswer>),
    Record(String),
}

impl Question for LineRequest {
    type Answer = LineAnswer;
    fn ask(self, handle: &dyn GameHandle, library: &Library) -> Result<LineAnswer, QueryError> {
        match self.format.as_deref() {
            None | Some("json") => {
                let line = handle.line(library, &self.position, view::MAX_LINE)?;
                Ok(LineAnswer::Json(Box::new(line)))
            }
            Some("pgn") => Ok(LineAnswer::Record(handle.record(
                library,
                &self.position,
                view::MAX_LINE,
            )?)),
            Some(other) => Err(QueryError::Input(GameError::option(
                "format",
                other,
                "takes json or pgn",
            ))),
        }
    }
}

/// `GET /api/v1/{game}/edit`: the position after an editor's tool is used on a place.
#[derive(Debug, Deserialize)]
pub struct EditRequest {
    pub position: String,
    pub place: String,
    pub tool: String,
    #[serde(flatten)]
    pub options: GameOptions,
}

impl Question for EditRequest {
    type Answer = EditAnswer;
    fn ask(self, handle: &dyn GameHandle, library: &Library) -> Result<EditAnswer, QueryError> {
        handle.edit(library, &self.position, &self.place, &self.tool)
    }
}

/// `GET /api/v1/{game}/move`: a move typed in the game's notation, made.
#[derive(Debug, Deserialize)]
pub struct MoveRequest {
    pub position: String,
    #[serde(rename = "move")]
    pub typed: String,
    #[serde(flatten)]
    pub options: GameOptions,
}

impl Question for MoveRequest {
    type Answer = MoveView;
    fn ask(self, handle: &dyn GameHandle, library: &Library) -> Result<MoveView, QueryError> {
        handle.typed_move(library, &self.position, &self.typed)
    }
}

/// `GET /api/v1/{game}/computer`: the computer's move at a `level` (0-10,
/// perfect by default), with a `seed` for its random choices; for games that
/// search beyond their tables, how it searches: `algorithm`, a fixed `depth`,
/// or `think` seconds.
#[derive(Debug, Deserialize)]
pub struct ComputerRequest {
    pub position: String,
    pub algorithm: Option<String>,
    pub depth: Option<String>,
    pub think: Option<String>,
    pub level: Option<String>,
    pub seed: Option<String>,
    #[serde(flatten)]
    pub options: GameOptions,
}

/// The deepest search the server runs per algorithm: a few seconds a move at
/// most on Abapa, where plain minimax visits every position to the depth.
fn deepest(algorithm: Algorithm) -> u32 {
    match algorithm {
        Algorithm::Minimax | Algorithm::Negamax => 10,
        Algorithm::AlphaBeta => 16,
    }
}

fn refuse(name: &str, text: &str, why: impl Into<String>) -> QueryError {
    QueryError::Input(GameError::option(name, text, why))
}

impl ComputerRequest {
    /// How the computer searches where nothing exact reaches.
    fn limits(&self) -> Result<engine::Limits, QueryError> {
        let algorithm = match &self.algorithm {
            None => Algorithm::default(),
            Some(text) => <Algorithm as clap::ValueEnum>::from_str(text.trim(), true)
                .map_err(|_| refuse("algorithm", text, "takes minimax, negamax or alphabeta"))?,
        };
        let depth = match self.depth.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(
                text.parse::<u32>()
                    .ok()
                    .filter(|d| (1..=deepest(algorithm)).contains(d))
                    .ok_or_else(|| {
                        let most = deepest(algorithm);
                        let why = format!("takes 1 to {most} plies with {} here", algorithm.name());
                        refuse("depth", self.depth.as_deref().unwrap_or(""), why)
                    })?,
            ),
        };
        let think = match &self.think {
            None => Duration::from_millis(500),
            Some(t) => t
                .parse::<f64>()
                .ok()
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                .filter(|d| !d.is_zero() && *d <= Duration::from_secs(10))
                .ok_or_else(|| refuse("think", t, "takes seconds from 0.001 to 10"))?,
        };
        Ok(engine::Limits {
            algorithm,
            depth,
            think,
        })
    }

    fn level(&self) -> Result<u8, QueryError> {
        match &self.level {
            None => Ok(PERFECT),
            Some(text) => text
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|&l| l <= PERFECT)
                .ok_or_else(|| refuse("level", text, "takes 0 to 10")),
        }
    }

    fn seed(&self) -> Result<u64, QueryError> {
        match &self.seed {
            None => Ok(rand::random()),
            Some(text) => text
                .trim()
                .parse::<u64>()
                .map_err(|_| refuse("seed", text, "takes a whole number")),
        }
    }
}

impl Question for ComputerRequest {
    type Answer = ComputerAnswer;
    fn ask(self, handle: &dyn GameHandle, library: &Library) -> Result<ComputerAnswer, QueryError> {
        let entry = handle.entry();
        let searches = entry.extras.search_beyond_tables;
        let asked = [("algorithm", &self.algorithm), ("depth", &self.depth)];
        if let (false, Some((name, Some(value)))) = (searches, asked.iter().find(|a| a.1.is_some()))
        {
            let why = format!(
                "{} plays from its tables or formula and never searches",
                entry.id
            );
            return Err(refuse(name, value, why));
        }
        let (limits, level, seed) = (self.limits()?, self.level()?, self.seed()?);
        handle.computer(library, &self.position, limits, level, seed)
    }
}
