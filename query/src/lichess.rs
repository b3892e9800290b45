//! The lichess tablebase API, `GET /standard?fen=` and `GET
//! /standard/mainline?fen=`, answered in lila-tablebase's
//! response shape so that clients written for lichess work unchanged: the
//! position's category from the side to move with the halfmove clock, its DTZ and
//! DTM in plies, signed for the side to move, and every move with the same for
//! the position after it, best first in lichess's order. DTZ is read from the
//! `chess-dtz-*` tables and DTM from the `chess-*` ones; a position they do not
//! hold is `unknown`, not an error. Castling rights are read ([`Rights`]): the
//! tables hold no position with any, so such a position and each move that
//! leaves a right are `unknown`, the other moves probed.

use crate::library::Loaded;
use crate::{Library, QueryError, Tablebase};
use games::capability::Clock;
use games::chess::{
    Board, Castle, Color, Endgame, FenError, Move, PositionError, Rights, without_field,
};
use games::spec::{Options, Purpose};
use games::{GameError, Value};
use serde::Serialize;
use std::cmp::Reverse;
use std::sync::Arc;

/// The outcome of a position for the side to move under the 50-move rule, as
/// lichess names it; ordered from the mover's worst to best, `unknown` ranked
/// just above a loss, as lichess ranks moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Loss,
    Unknown,
    /// Lost, but DTM alone cannot tell whether the 50-move rule saves it:
    /// the DTZ table is not there.
    MaybeLoss,
    BlessedLoss,
    Draw,
    CursedWin,
    /// Won, but DTM alone cannot tell whether the 50-move rule spoils it.
    MaybeWin,
    Win,
}

/// What a win or loss past the 50-move rule's reach is by DTZ, and by DTM
/// alone (see [`Category::of_distance`]).
const DTZ_LATE: [Category; 2] = [Category::CursedWin, Category::BlessedLoss];
const DTM_LATE: [Category; 2] = [Category::MaybeWin, Category::MaybeLoss];

impl Category {
    /// The category of a position `plies` (signed for the side to move) from
    /// its next capture or pawn move (DTZ) or from mate (DTM alone), with
    /// `halfmoves` on the clock: a win or loss that comes before the clock
    /// reaches 100 is one under the 50-move rule; a later one is `late`'s win
    /// or loss (by DTZ cursed or blessed, by DTM alone maybe: a capture or
    /// pawn move may come in time).
    fn of_distance(plies: i32, halfmoves: u32, late: [Category; 2]) -> Category {
        let within = i64::from(plies.unsigned_abs()) + i64::from(halfmoves) <= 100;
        match plies {
            0 => Category::Draw,
            _ if plies > 0 && within => Category::Win,
            _ if plies > 0 => late[0],
            _ if within => Category::Loss,
            _ => late[1],
        }
    }

    /// Its name, as lichess writes it.
    pub fn name(self) -> &'static str {
        match self {
            Category::Loss => "loss",
            Category::Unknown => "unknown",
            Category::MaybeLoss => "maybe-loss",
            Category::BlessedLoss => "blessed-loss",
            Category::Draw => "draw",
            Category::CursedWin => "cursed-win",
            Category::MaybeWin => "maybe-win",
            Category::Win => "win",
        }
    }

    fn is_positive(self) -> bool {
        matches!(
            self,
            Category::CursedWin | Category::MaybeWin | Category::Win
        )
    }

    /// The same outcome seen by the other side.
    fn flipped(self) -> Category {
        match self {
            Category::Loss => Category::Win,
            Category::BlessedLoss => Category::CursedWin,
            Category::CursedWin => Category::BlessedLoss,
            Category::MaybeWin => Category::MaybeLoss,
            Category::MaybeLoss => Category::MaybeWin,
            Category::Win => Category::Loss,
            other => other,
        }
    }
}

/// What lichess says of a position.
#[derive(Debug, Clone, Serialize)]
pub struct PositionInfo {
    pub checkmate: bool,
    pub stalemate: bool,
    pub variant_win: bool,
    pub variant_loss: bool,
    pub insufficient_material: bool,
    /// Plies to the next capture or pawn move, signed for the side to move; -1
    /// for a checkmated side, as Syzygy's probes give it.
    pub dtz: Option<i32>,
    /// The same: every DTZ here is exact, never rounded.
    pub precise_dtz: Option<i32>,
    /// Plies to mate, signed for the side to move; 0 for a draw, none for a
    /// position already mate (lichess keeps 0 for draws).
    pub dtm: Option<i32>,
    /// Distance to win, for variants lichess serves: always none here.
    pub dtw: Option<i32>,
    /// Distance to conversion, from a source lichess reads: always none here.
    pub dtc: Option<i32>,
    pub category: Category,
}

/// A legal move and what lichess says of the position after it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveInfo {
    pub uci: String,
    pub san: String,
    /// A capture or a pawn move.
    pub zeroing: bool,
    /// A capture or a promotion.
    pub conversion: bool,
    #[serde(flatten)]
    pub pos: PositionInfo,
    #[serde(skip)]
    order: (Option<u8>, Option<u8>),
}

impl MoveInfo {
    /// lichess's order: the best outcome for the mover first, then mate,
    /// stalemate, the fastest win or slowest loss by DTM, zeroing, DTZ, and the
    /// biggest capture and promotion.
    fn sort_key(&self) -> impl Ord + use<> {
        let pos = &self.pos;
        let losing = !pos.category.is_positive();
        (
            pos.category,
            (
                Reverse(pos.checkmate),
                Reverse(pos.variant_loss),
                pos.variant_win,
            ),
            (Reverse(pos.stalemate), Reverse(pos.insufficient_material)),
            tightening(pos.dtm),
            (self.conversion ^ losing, tightening(pos.dtc)),
            (self.zeroing ^ losing, pos.dtz.map(Reverse)),
            // Queen first (the lower role number), none last.
            (
                self.order.0.unwrap_or(u8::MAX),
                self.order.1.unwrap_or(u8::MAX),
            ),
        )
    }
}

/// A distance after a move ordered as lichess orders them: the opponent's
/// fastest loss first, then no distance, then its slowest win.
fn tightening(metric: Option<i32>) -> impl Ord {
    (
        Reverse(metric.filter(|m| *m < 0)),
        metric.filter(|m| *m > 0).map(Reverse),
    )
}

/// The answer to `GET /standard?fen=`.
#[derive(Debug, Clone, Serialize)]
pub struct StandardAnswer {
    #[serde(flatten)]
    pub pos: PositionInfo,
    pub moves: Vec<MoveInfo>,
}

/// The chess tables of a library, both metrics.
struct Tables<'a> {
    dtm: Tablebase<'a, Endgame>,
    dtz: Tablebase<'a, Endgame>,
}

/// The chess endings counted in `metric`, as the library keeps them.
fn endgame(library: &Library, metric: &str) -> Result<Arc<Loaded<Endgame>>, QueryError> {
    let spec = &games::chess::SPEC;
    let given = Options::with(Purpose::Query, [("metric", metric)]);
    Ok(library.game(spec, &spec.entry.complete(&given)?)?)
}

/// Answers `fen` (fields apart by spaces or underscores, as lichess takes them).
pub fn standard(library: &Library, fen: &str) -> Result<StandardAnswer, QueryError> {
    let (dtm, dtz) = (endgame(library, "dtm")?, endgame(library, "dtz")?);
    Tables::of(library, &dtm, &dtz).standard(fen)
}

/// The answer to `GET /standard/mainline?fen=`: the line of play that wins, or
/// holds out, under the 50-move rule, by DTZ, until the game ends or the clock
/// reaches 100.
#[derive(Debug, Clone, Serialize)]
pub struct MainlineAnswer {
    pub mainline: Vec<MainlineStep>,
    /// `w` or `b` where the line ends in mate.
    pub winner: Option<char>,
    pub dtz: i32,
    pub precise_dtz: Option<i32>,
}

/// A move of the mainline and the DTZ of the position after it.
#[derive(Debug, Clone, Serialize)]
pub struct MainlineStep {
    pub uci: String,
    pub san: String,
    pub dtz: i32,
    pub precise_dtz: Option<i32>,
}

/// The most moves a mainline is followed for: every 100 plies a capture or pawn
/// move, and five pieces have few of those.
const MAX_MAINLINE: usize = 1_000;

/// Answers `fen` with the line of play by DTZ; a position beyond the tables is
/// refused, as lichess refuses it.
pub fn mainline(library: &Library, fen: &str) -> Result<MainlineAnswer, QueryError> {
    let (dtm, dtz) = (endgame(library, "dtm")?, endgame(library, "dtz")?);
    Tables::of(library, &dtm, &dtz).mainline(fen)
}

impl<'a> Tables<'a> {
    /// The board, halfmove clock and castling rights of a FEN whose fields
    /// are apart by spaces or underscores, the clock read by the rule every
    /// tool reads it by ([`games::capability::Clock`]). Castling rights whose
    /// king or rook has left, and an en passant square no double step can
    /// have left, are dropped, as lila-tablebase drops them (the other tools
    /// refuse them).
    fn read_fen(&self, fen: &str) -> Result<(Board, u32, Rights), QueryError> {
        let fen = fen.replace('_', " ");
        let refused = |why: &dyn std::fmt::Display| GameError::position(&fen, why.to_string());
        let rights = Rights::of_fen(&fen).map_err(|why| refused(&why))?;
        let mut plain = without_field(&fen, 2);
        if let Err(PositionError::Fen(FenError::ImpossibleEnPassant { .. })) =
            Board::from_fen(&plain)
        {
            plain = without_field(&plain, 3);
        }
        let board = Board::from_fen(&plain).map_err(|why| refused(&why))?;
        let clock = Clock::read(self.dtz.game(), &plain)?;
        let rights = rights.valid_on(&board);
        Ok((board, u32::from(clock.clock), rights))
    }

    fn of(library: &'a Library, dtm: &'a Loaded<Endgame>, dtz: &'a Loaded<Endgame>) -> Tables<'a> {
        Tables {
            dtm: library.tables(dtm),
            dtz: library.tables(dtz),
        }
    }

    fn mainline(&self, fen: &str) -> Result<MainlineAnswer, QueryError> {
        let (mut board, mut halfmoves, rights) = self.read_fen(fen)?;
        if !rights.is_empty() {
            let why = "the tables hold no position with castling rights";
            return Err(GameError::beyond_tables(fen, why).into());
        }
        let dtz = lichess_dtz(self.dtz.value(&board)?);
        let mut mainline = Vec::new();
        while dtz != 0 && halfmoves < 100 && mainline.len() < MAX_MAINLINE {
            crate::cancel::checkpoint()?;
            let Some((mv, after)) = self.best_by_dtz(&board)? else {
                break;
            };
            mainline.push(MainlineStep {
                uci: Board::uci(&mv),
                san: board.san(&mv),
                dtz: after,
                precise_dtz: Some(after),
            });
            halfmoves = if mv.is_zeroing() { 0 } else { halfmoves + 1 };
            board = board.play(&mv);
        }
        let mated = !board.has_legal_move() && board.in_check();
        let winner = mated.then_some(match board.turn {
            Color::White => 'b',
            Color::Black => 'w',
        });
        Ok(MainlineAnswer {
            mainline,
            winner,
            dtz,
            precise_dtz: Some(dtz),
        })
    }

    /// The move Syzygy's probes would play: the best outcome under the 50-move
    /// rule, then mate at once, then a zeroing move when winning (none when
    /// losing), then the fastest zeroing; with the DTZ of the position after it.
    fn best_by_dtz(&self, board: &Board) -> Result<Option<(Move, i32)>, QueryError> {
        let mut moves = Vec::new();
        for mv in board.legal_moves() {
            let after = board.play(&mv);
            let dtz = lichess_dtz(self.dtz.value(&after)?);
            let mates = dtz == -1 && !after.has_legal_move();
            moves.push((mv, dtz, mates));
        }
        let best = moves.into_iter().min_by_key(|(mv, dtz, mates)| {
            let zeroing_first = mv.is_zeroing() ^ (*dtz < 0);
            (wdl50(*dtz), !mates, zeroing_first, Reverse(*dtz))
        });
        Ok(best.map(|(mv, dtz, _)| (mv, dtz)))
    }

    /// Every legal move, castling included, with what lichess says of the
    /// position after it; the position's own category is the best move's.
    fn standard(&self, fen: &str) -> Result<StandardAnswer, QueryError> {
        let (board, halfmoves, rights) = self.read_fen(fen)?;
        let mut moves = board
            .legal_moves()
            .iter()
            .map(|mv| self.move_info(&board, mv, halfmoves, rights.after_move(mv)))
            .collect::<Result<Vec<_>, _>>()?;
        for castle in rights.castles(&board) {
            moves.push(self.castle_info(&board, castle, halfmoves, rights)?);
        }
        moves.sort_by_cached_key(MoveInfo::sort_key);
        let before = halfmoves.saturating_sub(1);
        let mut pos = self.info(&board, halfmoves, before, rights)?;
        if let Some(best) = moves.first() {
            pos.category = best.pos.category.flipped();
        }
        Ok(StandardAnswer { pos, moves })
    }

    fn move_info(
        &self,
        board: &Board,
        mv: &Move,
        halfmoves: u32,
        rights: Rights,
    ) -> Result<MoveInfo, QueryError> {
        let after = board.play(mv);
        let clock = if mv.is_zeroing() {
            0
        } else {
            halfmoves.saturating_add(1)
        };
        Ok(MoveInfo {
            uci: Board::uci(mv),
            san: board.san(mv),
            zeroing: mv.is_zeroing(),
            conversion: mv.capture.is_some() || mv.promotion.is_some(),
            pos: self.info(&after, clock, halfmoves, rights)?,
            order: (mv.capture.map(|r| r as u8), mv.promotion.map(|r| r as u8)),
        })
    }

    /// A castling move, `rights` those before it: neither zeroing nor a
    /// conversion, the position after it unknown where the other side keeps
    /// a right.
    fn castle_info(
        &self,
        board: &Board,
        castle: Castle,
        halfmoves: u32,
        rights: Rights,
    ) -> Result<MoveInfo, QueryError> {
        let after = castle.play(board);
        let clock = halfmoves.saturating_add(1);
        Ok(MoveInfo {
            uci: castle.uci(),
            san: castle.san(board),
            zeroing: false,
            conversion: false,
            pos: self.info(&after, clock, halfmoves, rights.after_castle(castle))?,
            order: (None, None),
        })
    }

    /// What lichess says of `board` with `halfmoves` on the clock, `before` on
    /// it before the last move (100 or more: the opponent could claim a draw),
    /// and castling `rights`: the tables hold no position that has any.
    fn info(
        &self,
        board: &Board,
        halfmoves: u32,
        before: u32,
        rights: Rights,
    ) -> Result<PositionInfo, QueryError> {
        let stuck = !rights.can_move(board);
        let checkmate = stuck && board.in_check();
        let stalemate = stuck && !board.in_check();
        let insufficient_material = board.insufficient_material();
        let probed = |tables| match rights.is_empty() {
            true => held(tables, board),
            false => Ok(None),
        };
        let dtz = probed(&self.dtz)?.map(lichess_dtz);
        let dtm = probed(&self.dtm)?
            .filter(|v| *v != Value::Loss(0))
            .map(signed);
        let category = if stalemate || insufficient_material || dtz == Some(0) {
            Category::Draw
        } else if checkmate {
            match before < 100 {
                true => Category::Loss,
                false => Category::BlessedLoss,
            }
        } else {
            // Where the DTZ table is not there, what DTM knows.
            match (dtz.or(dtm), dtz.is_some()) {
                (Some(0), _) => Category::Draw,
                (Some(dtz), true) if before < 100 => {
                    Category::of_distance(dtz, halfmoves, DTZ_LATE)
                }
                (Some(dtm), false) if before < 100 => {
                    Category::of_distance(dtm, halfmoves, DTM_LATE)
                }
                (Some(plies), _) if plies < 0 => Category::BlessedLoss,
                (Some(_), _) => Category::CursedWin,
                (None, _) => Category::Unknown,
            }
        };
        Ok(PositionInfo {
            checkmate,
            stalemate,
            variant_win: false,
            variant_loss: false,
            insufficient_material,
            dtz,
            precise_dtz: dtz,
            dtm,
            dtw: None,
            dtc: None,
            category,
        })
    }
}

/// Whether `error` says the tables do not hold a position (too many pieces,
/// a table not made), which lichess answers 404 for a mainline.
pub fn not_held(error: &QueryError) -> bool {
    matches!(
        error,
        QueryError::Input(GameError::BeyondTables { .. }) | QueryError::MissingTable { .. }
    )
}

/// The value the tables hold for `board`; none where they do not hold it (too
/// many pieces, a table not made).
fn held(tables: &Tablebase<Endgame>, board: &Board) -> Result<Option<Value>, QueryError> {
    match tables.value(board) {
        Ok(value) => Ok(Some(value)),
        Err(error) if not_held(&error) => Ok(None),
        Err(other) => Err(other),
    }
}

/// A DTZ value as lichess gives it: signed plies, -1 for a side checkmated.
fn lichess_dtz(value: Value) -> i32 {
    match value {
        Value::Loss(0) => -1,
        other => signed(other),
    }
}

/// Syzygy's WDL50 of a position with DTZ `dtz` (lichess's signs), reached by a
/// capture or pawn move: -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win.
fn wdl50(dtz: i32) -> i8 {
    match dtz {
        ..-100 => -1,
        -100..0 => -2,
        0 => 0,
        1..=100 => 2,
        _ => 1,
    }
}

/// A value as lichess signs distances: positive where the side to move wins.
fn signed(value: Value) -> i32 {
    match value {
        Value::Win(n) => i32::from(n),
        Value::Loss(n) => -i32::from(n),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use generator::{Progress, WriteOptions, generate_game};

    /// KPvK and KRvK with everything below them, both metrics.
    fn library() -> (tempfile::TempDir, Library) {
        let dir = tempfile::tempdir().unwrap();
        for metric in ["dtm", "dtz"] {
            let options = [("materials", "KPvK,KRvK"), ("metric", metric)];
            let options = Options::with(Purpose::Generate, options);
            let write = WriteOptions::new(dir.path());
            generate_game("chess", &options, &write, &Progress::hidden()).unwrap();
        }
        let library = Library::new(dir.path());
        (dir, library)
    }

    #[test]
    fn mate_in_one_comes_first_with_lichess_signs() {
        let (_dir, library) = library();
        let answer = standard(&library, "k7/8/1K6/8/8/8/8/7R_w_-_-_0_1").unwrap();
        let pos = &answer.pos;
        assert_eq!(
            (pos.category, pos.dtz, pos.dtm),
            (Category::Win, Some(1), Some(1))
        );
        let mate = &answer.moves[0];
        assert_eq!((mate.uci.as_str(), mate.san.as_str()), ("h1h8", "Rh8#"));
        assert!(mate.pos.checkmate && !mate.zeroing && !mate.conversion);
        assert_eq!(
            (mate.pos.category, mate.pos.dtz, mate.pos.dtm),
            (Category::Loss, Some(-1), None)
        );
        // Every other move wins more slowly: the opponent's losses, longest last.
        let dtm: Vec<i32> = answer.moves.iter().filter_map(|m| m.pos.dtm).collect();
        assert!(dtm.windows(2).all(|w| w[0] >= w[1] || w[0] < 0), "{dtm:?}");
    }

    /// The clock turns KPvK's win cursed: 9 plies to the pawn's step, with 95
    /// on the clock, come too late.
    #[test]
    fn the_halfmove_clock_curses_a_win() {
        let (_dir, library) = library();
        let fresh = standard(&library, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(
            (fresh.pos.category, fresh.pos.dtz),
            (Category::Win, Some(9))
        );
        let late = standard(&library, "4k3/8/8/8/8/8/4P3/4K3 w - - 95 80").unwrap();
        assert_eq!(late.pos.category, Category::CursedWin);
        assert_eq!(late.moves[0].pos.category, Category::BlessedLoss);
        // A pawn step zeroes the clock: no longer late, but a draw.
        let step = late.moves.iter().find(|m| m.san == "e4").unwrap();
        assert!(step.zeroing && !step.conversion);
        assert_eq!(step.pos.category, Category::Draw);
    }

    /// With the DTM tables alone, a category is what DTM knows: KPvK's mate in
    /// 43 plies is a win with a fresh clock, and may or may not be with 95 on
    /// it; a draw is a draw; no DTZ is made up.
    #[test]
    fn dtm_alone_answers_what_it_knows() {
        let dir = tempfile::tempdir().unwrap();
        let options = [("materials", "KPvK"), ("metric", "dtm")];
        let options = Options::with(Purpose::Generate, options);
        let write = WriteOptions::new(dir.path());
        generate_game("chess", &options, &write, &Progress::hidden()).unwrap();
        let library = Library::new(dir.path());
        let fresh = standard(&library, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(
            (fresh.pos.category, fresh.pos.dtz, fresh.pos.dtm),
            (Category::Win, None, Some(43))
        );
        assert_eq!(fresh.moves[0].pos.category, Category::Loss);
        let late = standard(&library, "4k3/8/8/8/8/8/4P3/4K3 w - - 95 80").unwrap();
        assert_eq!(late.pos.category, Category::MaybeWin);
        assert_eq!(late.moves[0].pos.category, Category::MaybeLoss);
        assert_eq!(late.moves[0].pos.dtm, Some(-42));
        let step = late.moves.iter().find(|m| m.san == "e4").unwrap();
        assert_eq!((step.pos.category, step.pos.dtm), (Category::Draw, Some(0)));
        let json = serde_json::to_value(&late).unwrap();
        assert_eq!(json["category"], "maybe-win");
        assert_eq!(json["moves"][0]["category"], "maybe-loss");
    }

    /// Six pieces are beyond the tables: unknown, not an error; a bad FEN is an
    /// error that says why.
    #[test]
    fn beyond_the_tables_is_unknown() {
        let (_dir, library) = library();
        let answer = standard(&library, "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1").unwrap();
        assert_eq!(
            (answer.pos.category, answer.pos.dtz),
            (Category::Unknown, None)
        );
        assert!(
            answer
                .moves
                .iter()
                .all(|m| m.pos.category == Category::Unknown)
        );
        let refused = standard(&library, "4k3/8/8/8/8/8/8/4K3 w - - x 1").unwrap_err();
        assert!(
            refused.to_string().contains("'x' is not a number"),
            "{refused}"
        );
        assert!(standard(&library, "not a fen").is_err());
        assert!(mainline(&library, "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1").is_err());
    }

    /// KPvK's line by DTZ: the pawn runs, queens and mates, each step's DTZ
    /// one ply nearer the next zeroing move, the mated side's -1 last.
    #[test]
    fn the_mainline_wins_by_dtz() {
        let (_dir, library) = library();
        let line = mainline(&library, "4k3/8/8/8/8/8/4P3/4K3_w_-_-_0_1").unwrap();
        assert_eq!(
            (line.dtz, line.precise_dtz, line.winner),
            (9, Some(9), Some('w'))
        );
        let steps = &line.mainline;
        assert_eq!(steps.first().map(|s| s.dtz), Some(-8));
        assert_eq!(steps.last().map(|s| s.dtz), Some(-1));
        assert!(steps.last().unwrap().san.ends_with('#'), "{steps:?}");
        assert!(steps.iter().any(|s| s.san.contains("=Q")), "{steps:?}");
        for (i, step) in steps.iter().enumerate() {
            assert_eq!(
                step.dtz.signum(),
                if i % 2 == 0 { -1 } else { 1 },
                "{steps:?}"
            );
        }
        // A draw has no line.
        let draw = mainline(&library, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        assert!(draw.mainline.is_empty() && draw.winner.is_none() && draw.dtz == 0);
    }
}
