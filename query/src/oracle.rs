//! Exact answers for any game: from its tables where they hold the position,
//! otherwise from its closed formula or its exact on-demand solver. Every tool
//! asks here and renders the typed [`PositionAnswer`] it gets back.

use crate::answer::{MoveAnswer, PositionAnswer, Source, Valuation, WholeGame};
use crate::error::QueryError;
use crate::library::{Library, Loaded};
use crate::probe::{Probe, probe_covered, valued};
use crate::tablebase::Tablebase;
use games::capability::{Capabilities, Counts, Formula};
use games::spec::Spec;
use games::{Game, GameError, Value};

/// A position read once from its text, with the counts the text gives the
/// game's clock (chess: the halfmove clock and move number), where the game
/// has one.
pub struct Read<G: Game> {
    pub position: G::Position,
    pub counts: Option<Counts>,
}

impl<G: Game> std::fmt::Debug for Read<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Read")
            .field("position", &self.position)
            .field("counts", &self.counts)
            .finish()
    }
}

/// A game with everything that answers for it.
pub struct Oracle<'g, G: Game> {
    pub spec: &'static Spec<G>,
    pub game: &'g G,
    pub caps: Capabilities<'g, G>,
    pub tb: Tablebase<'g, G>,
    /// The most bytes a page view's moves may take.
    pub max_view: usize,
}

impl<G: Game> std::fmt::Debug for Oracle<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Oracle")
            .field("game", &self.game.id())
            .field("caps", &self.caps)
            .finish_non_exhaustive()
    }
}

/// What is known exactly about a position.
#[derive(Debug, Clone)]
pub enum Known<G: Game> {
    /// The value and every move valued: from the tables, or from the exact
    /// solver of a game that keeps none.
    Valued { probe: Probe<G>, source: Source },
    /// A closed formula's verdict: who wins and every winning move.
    Formula {
        position: G::Position,
        formula: Formula<G::Move>,
        why: String,
    },
}

impl<G: Game> Known<G> {
    /// The exact value, where one is known.
    pub fn value(&self) -> Option<Value> {
        match self {
            Known::Valued { probe, .. } => Some(probe.value),
            Known::Formula { .. } => None,
        }
    }

    pub fn position(&self) -> &G::Position {
        match self {
            Known::Valued { probe, .. } => &probe.position,
            Known::Formula { position, .. } => position,
        }
    }
}

impl<'g, G: Game> Oracle<'g, G> {
    /// The oracle of `game`, its tables in `library`'s folder.
    pub fn new(spec: &'static Spec<G>, game: &'g G, library: &Library) -> Self {
        Self::with_tables(spec, library.tablebase(game), library)
    }

    /// The oracle of a game the library keeps, its tables through the map kept
    /// with it.
    pub fn of(spec: &'static Spec<G>, loaded: &'g Loaded<G>, library: &Library) -> Self {
        Self::with_tables(spec, library.tables(loaded), library)
    }

    fn with_tables(spec: &'static Spec<G>, tb: Tablebase<'g, G>, library: &Library) -> Self {
        let game = tb.game();
        Oracle {
            spec,
            game,
            caps: (spec.capabilities)(game),
            tb: tb.with_spec(spec),
            max_view: library.max_view,
        }
    }

    /// Whether the game keeps tables at all.
    pub fn has_tables(&self) -> bool {
        !matches!(self.caps.solver, games::Solver::None)
    }

    /// Reads a position (`start` for the start position).
    pub fn read(&self, text: &str) -> Result<G::Position, QueryError> {
        Ok(games::read_position(self.game, text)?)
    }

    /// `text` read once: its position, and the counts it gives the game's
    /// clock (chess: a FEN's halfmove clock and move number) where the game
    /// has one, by the one rule every tool reads them by; a bad count is an
    /// error saying why.
    pub fn read_counted(&self, text: &str) -> Result<Read<G>, QueryError> {
        let position = self.read(text)?;
        let counts = self.caps.clock.map(|clock| clock.read(text)).transpose()?;
        Ok(Read { position, counts })
    }

    /// `position` as the game writes it, with `counts` where there are some.
    pub fn write(&self, position: &G::Position, counts: Option<Counts>) -> String {
        let written = self.game.write_position(position);
        match self.caps.clock.zip(counts) {
            Some((clock, counts)) => clock.write(&written, counts),
            None => written,
        }
    }

    /// Everything known exactly about `position`.
    pub fn answer(&self, position: &G::Position) -> Result<Known<G>, QueryError> {
        let game = self.game;
        let why = if !self.has_tables() {
            None
        } else {
            match game.coverage(position) {
                Ok(()) => match probe_covered(&self.tb, position) {
                    Ok(probe) => {
                        self.check_formula(&probe)?;
                        return Ok(Known::Valued {
                            probe,
                            source: Source::Table,
                        });
                    }
                    Err(QueryError::MissingTable { .. })
                        if self.caps.formula.is_some() || self.caps.exact.is_some() =>
                    {
                        Some("the table is not generated".to_string())
                    }
                    Err(e) => return Err(e),
                },
                Err(_) => Some("beyond the tables".to_string()),
            }
        };
        if let Some(exact) = self.caps.exact {
            let probe = valued(game, position, |child| Ok(exact.value(child)))?;
            return Ok(Known::Valued {
                probe,
                source: Source::Formula,
            });
        }
        if let Some(formula) = self.caps.formula {
            return Ok(Known::Formula {
                position: position.clone(),
                formula: formula.formula(position)?,
                why: why.unwrap_or_else(|| "no tables".into()),
            });
        }
        let mut reason = game.coverage(position).err().unwrap_or_default();
        if self.has_tables() {
            // What the folder holds, where it holds fewer than the game may
            // have (Abapa: 0 to 12 seeds of 0 to 24 by default).
            let tiers = game.tiers();
            let made = tiers.iter().filter(|&&t| self.tb.has_table(t)).count();
            reason.push_str(&format!("; {made} of its {} tables are made", tiers.len()));
        }
        let hint = if self.spec.entry.extras.search_beyond_tables {
            "; play against the computer, which searches beyond them"
        } else {
            "; no formula is known to answer beyond them"
        };
        Err(QueryError::Input(GameError::beyond_tables(
            &game.write_position(position),
            format!("{reason}{hint}"),
        )))
    }

    /// A table that disagrees with the game's formula is refused.
    fn check_formula(&self, probe: &Probe<G>) -> Result<(), QueryError> {
        let Some(formula) = self.caps.formula else {
            return Ok(());
        };
        // Where the formula does not reach (Building Nim while chips remain to
        // be placed), the table answers alone.
        let Ok(verdict) = formula.formula(&probe.position) else {
            return Ok(());
        };
        if verdict.mover_wins == matches!(probe.value, Value::Win(_)) {
            return Ok(());
        }
        Err(QueryError::WrongTable {
            path: self.tb.path(self.game.tier_of(&probe.position)),
            problem: format!(
                "gives {} for {} but the formula says the mover {}",
                probe.value,
                self.game.write_position(&probe.position),
                if verdict.mover_wins { "wins" } else { "loses" }
            ),
        })
    }

    /// The answer as the tools give it, each position written with its
    /// counts where the position had `counts`.
    pub fn describe(&self, known: &Known<G>, counts: Option<Counts>) -> PositionAnswer {
        let game = self.game;
        let units = |value: Value| self.caps.units.and_then(|u| u.in_units(value));
        let base = |position: &G::Position, source, value| PositionAnswer {
            game: game.id().to_string(),
            variant: game.variant(),
            position: self.write(position, counts),
            source,
            why: None,
            value,
            dtm_moves: None,
            nim_sum: None,
            heap_values: None,
            winning_moves: None,
            moves: None,
            whole_game: None,
        };
        match known {
            Known::Valued { probe, source } => {
                let score_game = matches!(probe.value, Value::Score(_));
                let moves = probe
                    .moves
                    .iter()
                    .map(|m| MoveAnswer {
                        mv: m.text.clone(),
                        uci: self.caps.aliases.map(|a| a.uci(&probe.position, &m.mv)),
                        position: self.write(
                            &m.after,
                            self.caps
                                .clock
                                .zip(counts)
                                .map(|(clock, counts)| clock.after(&probe.position, &m.mv, counts)),
                        ),
                        value: Valuation::of(m.value),
                        dtm_moves: units(m.value),
                        gain: score_game.then_some(m.gain),
                        moves_again: (score_game || !m.turn_passes).then_some(!m.turn_passes),
                    })
                    .collect();
                PositionAnswer {
                    dtm_moves: units(probe.value),
                    moves: Some(moves),
                    ..base(&probe.position, *source, Valuation::of(probe.value))
                }
            }
            Known::Formula {
                position,
                formula,
                why,
            } => PositionAnswer {
                why: Some(why.clone()),
                nim_sum: formula.nim_sum,
                heap_values: formula.part_values.clone(),
                winning_moves: Some(
                    formula
                        .winning_moves
                        .iter()
                        .map(|m| game.write_move(position, m))
                        .collect(),
                ),
                ..base(
                    position,
                    Source::Formula,
                    Valuation::verdict(formula.mover_wins),
                )
            },
        }
    }

    /// Answers a position given as text, with the whole-game verdict when
    /// `captured` (mover, opponent) is given.
    pub fn answer_text(
        &self,
        text: &str,
        captured: Option<[u64; 2]>,
    ) -> Result<PositionAnswer, QueryError> {
        self.answer_read(&self.read_counted(text)?, captured)
    }

    /// The answer for a position `read` from its text, as
    /// [`Oracle::answer_text`] gives it.
    pub fn answer_read(
        &self,
        read: &Read<G>,
        captured: Option<[u64; 2]>,
    ) -> Result<PositionAnswer, QueryError> {
        let position = &read.position;
        let known = self.answer(position)?;
        let mut answer = self.describe(&known, read.counts);
        if let Some(captured) = captured {
            answer.whole_game = Some(self.whole_game(position, known.value(), captured)?);
        }
        Ok(answer)
    }

    /// Who wins the whole game from `position` worth `value` to the mover, with
    /// `captured` already taken by the mover and the opponent.
    pub fn whole_game(
        &self,
        position: &G::Position,
        value: Option<Value>,
        captured: [u64; 2],
    ) -> Result<WholeGame, QueryError> {
        let game = self.game;
        let text = game.write_position(position);
        let refuse = |reason: String| QueryError::Input(GameError::position(&text, reason));
        let whole = self.caps.whole_game.ok_or_else(|| {
            refuse(format!(
                "--captured is for score games played for a fixed total, not {}",
                game.id()
            ))
        })?;
        let (total, left) = (whole.total(), whole.left(position));
        let sum = captured[0]
            .checked_add(captured[1])
            .and_then(|c| c.checked_add(left));
        if sum != Some(total) {
            return Err(refuse(format!(
                "{} + {} captured and {left} on the board do not make {total}",
                captured[0], captured[1]
            )));
        }
        let Some(Value::Score(score)) = value else {
            return Err(refuse("no exact score is known for this position".into()));
        };
        let (left, score) = (left as f64, score as f64);
        let totals = [
            captured[0] as f64 + (left + score) / 2.0,
            captured[1] as f64 + (left - score) / 2.0,
        ];
        let half = total as f64 / 2.0;
        let winner = if totals[0] > half {
            "mover"
        } else if totals[1] > half {
            "opponent"
        } else {
            "draw"
        };
        Ok(WholeGame {
            captured,
            totals,
            winner: winner.to_string(),
        })
    }
}

/// Reads `--captured M,O`: what the mover and the opponent have taken.
pub fn parse_captured(text: &str) -> Result<[u64; 2], GameError> {
    let bad = |reason: &str| GameError::option("captured", text, reason.to_string());
    let (mine, theirs) = text
        .split_once(',')
        .ok_or_else(|| bad("write what each side has taken as M,O (mover, opponent)"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| bad("takes two whole numbers, M,O"))
    };
    Ok([number(mine)?, number(theirs)?])
}
