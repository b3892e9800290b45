//! [`Endgame`]: chess endings as a [`Game`] for the tools: one tier per
//! material, the stronger side always stored as White (a position with Black
//! stronger is mirrored: colours swapped, board flipped), captures leading into
//! the tiers of smaller material, solved first. Also the capabilities that show
//! and count its values.

use super::board::{Board, Move};
use super::index::{Layout, Settled};
use super::material::{Counts, MAX_PIECES, Material, count_at};
use super::pawns::Placements;
use super::piece::{Color, Role};
use super::stored::Stored;
use super::tier_keys::{TierKeys, packed, packed_of};
use crate::capability::{DistanceUnits, Drawing, MoveAliases, Side, TableNotes};
use crate::game::{Child, Game, GameError};
use crate::spec::{Options, Purpose};
use crate::value::{Value, ValueKind};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Arc;
use tables::Spelling;

/// The endings of one material and every smaller one, as tiers.
#[derive(Debug, Clone)]
pub struct Endgame {
    /// What the tables count.
    metric: Metric,
    pub(super) tiers: Vec<Material>,
    /// For each tier, the piece counts of its boards as stored and with the
    /// colours swapped.
    pub(super) keys: Vec<(Counts, Counts)>,
    /// The tier of each piece count (see [`packed`]) and whether its colours
    /// are swapped.
    by_counts: TierKeys,
    /// For each tier, its pawns' placements (None without pawns) and the
    /// layout of its other pieces, kinds set (see [`Endgame::template`]).
    pub(super) shapes: Vec<(Option<&'static Placements>, Layout)>,
    /// For each tier, how it spells the slots of positions stored as they
    /// stand (see [`Endgame::settled`]), asked for every capture a solve scans.
    pub(super) settled: Vec<Settled>,
}

/// What a chess table's distances count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Plies to mate, with no 50-move rule.
    #[default]
    Dtm,
    /// Syzygy's DTZ50'': plies to the next capture or pawn move under play that
    /// wins, or holds out, under the 50-move rule. A capture or pawn move counts
    /// only by the outcome it leads to, so a distance beyond [`FIFTY_MOVES`] is
    /// a win the rule spoils (a cursed win) or a loss it saves (a blessed loss).
    Dtz,
    /// The WDL50 category alone, as an engine probes it: a win, a cursed win,
    /// a draw, a blessed loss or a loss, each DTZ value restarted at the
    /// 50-move limit ([`Metric::wdl50`]). Its tables are made from DTZ's, beside
    /// them; no option names it, since its values alone cannot play a win out.
    Wdl,
}

impl Metric {
    /// The metric an option names: `dtm` or `dtz`.
    pub fn parse(text: &str) -> Result<Metric, GameError> {
        match text {
            "dtm" => Ok(Metric::Dtm),
            "dtz" => Ok(Metric::Dtz),
            other => Err(GameError::variant(
                other,
                "the metric is dtm (plies to mate) or dtz (plies to the next capture or pawn move)",
            )),
        }
    }

    /// The variant its tables are files of: none for DTM (`chess-KRPvKR.tb`),
    /// `dtz` and `wdl` (`chess-dtz-KRPvKR.tb`, `chess-wdl-KRPvKR.tb`).
    pub fn variant(self) -> String {
        match self {
            Metric::Dtm => String::new(),
            Metric::Dtz => "dtz".to_string(),
            Metric::Wdl => "wdl".to_string(),
        }
    }

    /// The WDL50 category of a DTZ value, as [`Metric::Wdl`] stores it: a win
    /// or loss within the 50-move limit at 1 ply, one beyond it (cursed,
    /// blessed) at 101, checkmate as it is. These are the values a capture
    /// gives under DTZ, so a capture (which restarts the count) gives a WDL50
    /// table's own value through its child's, as a reader searching its
    /// exits takes it; and the order of values is kept, so the best move's
    /// category is the best category.
    pub fn wdl50(dtz: Value) -> Value {
        match dtz {
            Value::Win(n) if n <= FIFTY_MOVES => Value::Win(1),
            Value::Win(_) => Value::Win(FIFTY_MOVES + 1),
            Value::Loss(0) => Value::Loss(0),
            Value::Loss(n) if n <= FIFTY_MOVES => Value::Loss(1),
            Value::Loss(_) => Value::Loss(FIFTY_MOVES + 1),
            other => other,
        }
    }
}

/// The plies the 50-move rule allows between captures and pawn moves.
pub const FIFTY_MOVES: u16 = 100;

impl Endgame {
    /// The endings the options name (every ending when answering queries).
    pub(super) fn from_options(options: &Options) -> Result<Endgame, GameError> {
        let metric = options
            .get("metric")
            .map_or(Ok(Metric::Dtm), Metric::parse)?;
        if options.purpose != Purpose::Generate {
            let all = Endgame::of_all(&Material::all_with_pawns_up_to(MAX_PIECES));
            return Ok(all.with_metric(metric));
        }
        let mut wanted = options
            .get("materials")
            .unwrap_or("")
            .split([',', ' '])
            .filter(|m| !m.is_empty())
            .map(Material::parse)
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(pieces) = options.number("all") {
            wanted.extend(match options.get("pawnless") {
                Some("yes") => Material::all_up_to(pieces as usize),
                _ => Material::all_with_pawns_up_to(pieces as usize),
            });
        }
        if wanted.is_empty() {
            return Err(GameError::variant(
                "",
                "name a material such as KQvKR, or give --all 4",
            ));
        }
        Ok(Endgame::of_all(&wanted).with_metric(metric))
    }

    /// The same endings, counted in `metric`.
    pub fn with_metric(self, metric: Metric) -> Endgame {
        Endgame { metric, ..self }
    }

    /// What the tables count.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// `material` and every material a capture can lead to, smallest first.
    pub fn new(material: &Material) -> Endgame {
        Self::with_tiers(material.with_smaller())
    }

    fn with_tiers(tiers: Vec<Material>) -> Endgame {
        let keys = tiers
            .iter()
            .map(|m| {
                let mut key: Counts = [0; 12];
                key[count_at(Color::White, Role::King)] = 1;
                key[count_at(Color::Black, Role::King)] = 1;
                for &r in &m.white {
                    key[count_at(Color::White, r)] += 1;
                }
                for &r in &m.black {
                    key[count_at(Color::Black, r)] += 1;
                }
                let mut swapped: Counts = [0; 12];
                swapped[..6].copy_from_slice(&key[6..]);
                swapped[6..].copy_from_slice(&key[..6]);
                (key, swapped)
            })
            .collect::<Vec<_>>();
        let mut by_counts: Vec<(u64, (u32, bool))> = Vec::new();
        for (tier, (key, swapped)) in keys.iter().enumerate() {
            for (counts, swap) in [(key, false), (swapped, true)] {
                let key = packed(counts).expect("a material's counts are small");
                if !by_counts.iter().any(|&(k, _)| k == key) {
                    by_counts.push((key, (tier as u32, swap)));
                }
            }
        }
        let mut endgame = Endgame {
            metric: Metric::Dtm,
            tiers,
            keys,
            by_counts: TierKeys::new(&by_counts),
            shapes: Vec::new(),
            settled: Vec::new(),
        };
        endgame.shapes = (0..endgame.tiers.len() as u32)
            .map(|tier| (endgame.placements_of(tier), endgame.pieces_of(tier)))
            .collect();
        endgame.settled = (0..endgame.tiers.len() as u32)
            .map(|tier| endgame.settles(tier))
            .collect();
        endgame
    }

    /// Several materials and everything below them.
    pub fn of_all(materials: &[Material]) -> Endgame {
        let mut tiers: Vec<Material> = materials.iter().flat_map(|m| m.with_smaller()).collect();
        tiers.sort_by_key(Material::solving_order);
        tiers.dedup();
        Self::with_tiers(tiers)
    }

    pub fn materials(&self) -> &[Material] {
        &self.tiers
    }

    /// The tier of a board's material, and whether its colours must be swapped to
    /// read it (Black stronger).
    pub(super) fn find_tier(&self, board: &Board) -> Option<(u32, bool)> {
        self.by_counts.get(packed_of(board)?)
    }

    /// The tier with these piece counts, and whether its colours are swapped.
    pub(super) fn tier_of_counts(&self, counts: Counts) -> Option<(u32, bool)> {
        self.by_counts.get(packed(&counts)?)
    }
}

impl Game for Endgame {
    type Position = Board;
    type Move = Move;

    fn id(&self) -> &'static str {
        "chess"
    }

    /// DTZ and WDL50 tables are variants of their own ([`Metric::variant`]).
    fn variant(&self) -> String {
        self.metric.variant()
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn has_cycles(&self) -> bool {
        true
    }

    fn tiers(&self) -> Vec<u32> {
        (0..self.tiers.len() as u32).collect()
    }

    fn tier_name(&self, tier: u32) -> String {
        self.tiers[tier as usize].to_string()
    }

    fn tier_group(&self, tier: u32) -> Option<String> {
        Some(format!("{} pieces", self.tiers[tier as usize].count()))
    }

    fn named_tiers(&self, name: &str) -> Result<Vec<u32>, GameError> {
        Material::parse(name)?
            .with_smaller()
            .iter()
            .map(|m| {
                self.tiers
                    .iter()
                    .position(|t| t == m)
                    .map(|t| t as u32)
                    .ok_or_else(|| {
                        GameError::variant(name, format!("{m} is not among this ending's tables"))
                    })
            })
            .collect()
    }

    fn tier_of(&self, board: &Board) -> u32 {
        self.find_tier(board).expect("a material of this ending").0
    }

    fn index_size(&self, tier: u32) -> u64 {
        self.slots(tier)
    }

    /// The smallest slot over the symmetries that bring the kings to a canonical
    /// pair (and over the colour swap when both sides have the same pieces).
    fn index(&self, board: &Board) -> u64 {
        let (tier, swap) = self.find_tier(board).expect("a material of this ending");
        self.slot_in(tier, swap, board)
    }

    fn locate(&self, board: &Board) -> (u32, u64) {
        let (tier, swap) = self.find_tier(board).expect("a material of this ending");
        (tier, self.slot_in(tier, swap, board))
    }

    /// A board whose material is not among these endings (more than five
    /// pieces, or an ending not made) is beyond the tables.
    fn coverage(&self, board: &Board) -> Result<(), String> {
        match self.find_tier(board) {
            Some(_) => Ok(()),
            None => {
                let (material, _) = Material::of(board).normalized();
                Err(format!("{material} is not among the endings of the tables"))
            }
        }
    }

    /// Tables hold positions without an en passant right: a board with one
    /// (kept only where a capture uses it) is valued from its moves.
    fn stored(&self, board: &Board) -> bool {
        board.ep_square().is_none()
    }

    /// Every slot's lowest digit is the side to move: each side's values are
    /// stored together.
    fn slot_lanes(&self, _tier: u32) -> u32 {
        2
    }

    /// A lane's entry is the king pair (after the pawns' placement, where
    /// there are pawns) and one field per kind of other piece.
    fn slot_digits(&self, tier: u32) -> Vec<u64> {
        self.digits(tier)
    }

    /// A move passes the turn: a lane is a side to move, except where both
    /// sides have the same pieces and no pawn, whose Black to move is stored
    /// as White to move with the colours swapped.
    fn lanes_alternate(&self, tier: u32) -> bool {
        !self.both_views(tier)
    }

    /// A pawnless table stores each side to move in a file index of its own,
    /// its leader and order weighed ([`Stored`]); lane 0 is White to move.
    fn spell_table(
        &self,
        tier: u32,
        left: Option<u32>,
        weigh: &dyn Fn(Arc<dyn Spelling>) -> u64,
    ) -> Option<(String, Arc<dyn Spelling>)> {
        let left = match left {
            None => None,
            Some(0) => Some(Color::White),
            Some(_) => Some(Color::Black),
        };
        let (name, stored) = Stored::weighed(self, tier, left, weigh)?;
        Some((name, Arc::new(stored)))
    }

    fn table_spelling(&self, tier: u32, name: &str) -> Result<Arc<dyn Spelling>, String> {
        Ok(Arc::new(Stored::named(self, tier, name)?))
    }

    /// A slot holds no position where its pieces share a square, the side not
    /// to move is in check, or a symmetry stores the position elsewhere:
    /// [`Game::position_at`] tells each.
    fn derives_empty_slots(&self) -> bool {
        true
    }

    /// A DTZ table leaves its draws to the WDL50 table written beside it, so
    /// that the two answer without DTM's, as Syzygy's `.rtbz` and `.rtbw` do.
    fn shares_value(&self) -> Option<(String, Value)> {
        (self.metric == Metric::Dtz).then(|| (Metric::Wdl.variant(), Value::Draw))
    }

    fn position_at(&self, tier: u32, index: u64) -> Option<Board> {
        let layout = self.layout_at(tier, index)?;
        let board = layout.board()?;
        let turn = layout.turn;
        let waiting = board.king(turn.other())?;
        if board.attacked(waiting, turn) || self.index(&board) != index {
            return None;
        }
        Some(board)
    }

    /// The queen's first mate: KQ against K, mate in 6.
    fn start(&self) -> Board {
        Board::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").expect("a legal FEN")
    }

    fn moves(&self, board: &Board) -> Vec<Move> {
        board.legal_moves()
    }

    /// Under DTZ (and WDL50), a capture or a pawn move restarts the 50-move count.
    fn play(&self, board: &Board, mv: &Move) -> Child<Board> {
        let zeroing = self.metric != Metric::Dtm && mv.is_zeroing();
        Child {
            reset: zeroing.then_some(FIFTY_MOVES),
            ..Child::passing(board.play(mv))
        }
    }

    /// Captures and promotions, found without trying the quiet moves.
    fn exits(&self, board: &Board) -> Vec<Child<Board>> {
        let moves = board.legal_exits();
        moves.iter().map(|mv| self.play(board, mv)).collect()
    }

    /// Checkmate is lost for the side to move, stalemate and bare kings drawn.
    fn end_value(&self, board: &Board) -> Option<Value> {
        if board.pieces().count() == 2 {
            return Some(Value::Draw);
        }
        if board.has_legal_move() {
            return None;
        }
        Some(if board.in_check() {
            Value::Loss(0)
        } else {
            Value::Draw
        })
    }

    fn why_over(&self, board: &Board) -> String {
        match (board.pieces().count(), board.in_check()) {
            (2, _) => "only the kings are left".into(),
            (_, true) => "checkmate".into(),
            _ => "stalemate".into(),
        }
    }

    fn parse_position(&self, text: &str) -> Result<Board, GameError> {
        let board = Board::from_fen(text).map_err(super::refused(text))?;
        let (material, _) = Material::of(&board).normalized();
        if let Some(reason) = material.beyond_the_tables() {
            return Err(GameError::position(text, reason));
        }
        if self.find_tier(&board).is_none() {
            return Err(GameError::position(
                text,
                format!("{material} is not among this ending's tables"),
            ));
        }
        Ok(board)
    }

    fn write_position(&self, board: &Board) -> String {
        board.fen()
    }

    fn write_move(&self, board: &Board, mv: &Move) -> String {
        board.san(mv)
    }
}

impl Drawing<Endgame> for Endgame {
    fn draw(&self, board: &Board) -> String {
        board.to_string()
    }

    /// From the side of the colour that `side` plays.
    fn draw_from(&self, board: &Board, side: Side, _owner: &dyn Fn(usize) -> char) -> String {
        let colour = match side {
            Side::Mover => board.turn,
            Side::Opponent => board.turn.other(),
        };
        board.drawn_from(colour)
    }
}

impl MoveAliases<Endgame> for Endgame {
    fn uci(&self, _board: &Board, mv: &Move) -> String {
        Board::uci(mv)
    }
}

impl DistanceUnits for Endgame {
    fn unit(&self) -> &'static str {
        "moves"
    }

    /// Mate in `n` moves of the winning side: a win in `2n - 1` plies, a loss in
    /// `2n` plies.
    fn in_units(&self, value: Value) -> Option<u16> {
        match value {
            Value::Win(n) => Some(n.div_ceil(2)),
            Value::Loss(n) => Some(n / 2),
            _ => None,
        }
    }

    fn say(&self, value: Value) -> String {
        match (value, self.in_units(value)) {
            (Value::Loss(0), _) => "checkmated".to_string(),
            (Value::Win(1), _) => "mate in 1 (1 ply)".to_string(),
            (Value::Win(n), Some(m)) => format!("mate in {m} ({n} plies)"),
            (Value::Loss(n), Some(m)) => format!("mated in {m} ({n} plies)"),
            (other, _) => other.to_string(),
        }
    }
}

/// The placements of a table where whichever side is to move does worse than
/// if the other were (see [`Endgame::zugzwangs`]).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Zugzwangs {
    /// Whoever is to move loses.
    pub full: u64,
    /// One side to move draws, the other loses.
    pub half: u64,
    /// The slot of one, full-point where there is one.
    pub example: Option<u64>,
}

impl Endgame {
    /// The slot of the same placement with the other side to move, where that
    /// is a position: the next or last slot, or in a tier that stores either
    /// colour as White, the slot its colour-swapped image is kept in.
    fn other_turn(&self, tier: u32, slot: u64) -> Option<u64> {
        if !self.both_views(tier) {
            return Some(slot ^ 1);
        }
        let mut board = self.position_at(tier, slot)?;
        board.turn = board.turn.other();
        board.set_ep_square(None);
        board.check_legal().ok()?;
        Some(self.index(&board))
    }

    /// Mutual zugzwangs by the values of `code` (under DTM, so without the
    /// 50-move rule): placements, up to the table's symmetries, whose positions
    /// with White and with Black to move are both legal and where the side to
    /// move, whichever it is, does worse than the other would: both lose
    /// (full-point) or one draws and the other loses (half-point).
    pub fn zugzwangs(&self, tier: u32, code: &(dyn Fn(u64) -> u16 + Sync)) -> Zugzwangs {
        let outcome = |slot: u64| match Value::from_code(self.value_kind(), code(slot))? {
            Value::Win(_) => Some(1),
            Value::Loss(_) => Some(-1),
            _ => Some(0),
        };
        // A run of slots a task: counts and the first slot of each kind.
        let run = |slots: Range<u64>| {
            let mut found = Found::default();
            for slot in slots {
                let Some(mine) = outcome(slot) else {
                    continue;
                };
                // Each placement once: from the lower of its two slots.
                let Some(other) = self.other_turn(tier, slot).filter(|&o| o >= slot) else {
                    continue;
                };
                match outcome(other).map(|theirs| mine + theirs) {
                    Some(-2) => found.full.add(slot),
                    Some(-1) => found.half.add(slot),
                    _ => {}
                }
            }
            found
        };
        let found = in_runs(self.index_size(tier), run, Found::merge);
        Zugzwangs {
            full: found.full.count,
            half: found.half.count,
            example: found.full.first.or(found.half.first),
        }
    }
}

/// Slots of one kind in a run of them: how many, and the first.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    count: u64,
    first: Option<u64>,
}

impl Tally {
    fn add(&mut self, slot: u64) {
        self.count += 1;
        self.first = self.first.or(Some(slot));
    }

    fn merge(self, other: Tally) -> Tally {
        let first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Tally {
            count: self.count + other.count,
            first,
        }
    }
}

/// The mutual zugzwangs of a run of slots.
#[derive(Debug, Default, Clone, Copy)]
struct Found {
    full: Tally,
    half: Tally,
}

impl Found {
    fn merge(self, other: Found) -> Found {
        Found {
            full: self.full.merge(other.full),
            half: self.half.merge(other.half),
        }
    }
}

/// `run` of every run of slots of `0..size` in parallel, merged by `merge`
/// (which must not care in what order runs come: the result is the same
/// for any number of threads).
fn in_runs<T: Default + Send>(
    size: u64,
    run: impl Fn(Range<u64>) -> T + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    const RUN: u64 = 1 << 16;
    (0..size.div_ceil(RUN))
        .into_par_iter()
        .map(|r| run(r * RUN..((r + 1) * RUN).min(size)))
        .reduce(T::default, merge)
}

impl TableNotes<Endgame> for Endgame {
    /// For each side to move (slots alternate White, Black): legal positions,
    /// wins, draws, losses and the longest mate in moves, as chess players count
    /// them; under DTZ, the wins the 50-move rule spoils and the losses it saves,
    /// and the longest distance to zeroing in plies. Under DTM, the mutual
    /// zugzwangs too.
    fn notes(&self, tier: u32, code: &(dyn Fn(u64) -> u16 + Sync)) -> Vec<(String, String)> {
        let mut notes = self.side_counts(tier, code);
        if self.metric == Metric::Dtm {
            let Zugzwangs {
                full,
                half,
                example,
            } = self.zugzwangs(tier, code);
            let example = example
                .and_then(|slot| self.position_at(tier, slot))
                .map(|board| format!(", e.g. {}", board.fen()))
                .unwrap_or_default();
            let said = format!(
                "{} placements: {full} whoever is to move loses, {half} one side to move draws and the other loses{example}",
                full + half
            );
            notes.push(("mutual zugzwangs".to_string(), said));
        }
        notes
    }
}

impl Endgame {
    /// The counts of [`Endgame::notes`] for each side to move.
    fn side_counts(&self, tier: u32, code: &(dyn Fn(u64) -> u16 + Sync)) -> Vec<(String, String)> {
        // Slots alternate White and Black to move.
        let run = |slots: Range<u64>| {
            let mut sides = [SideCount::default(); 2];
            for slot in slots {
                if let Some(value) = Value::from_code(self.value_kind(), code(slot)) {
                    let measured = match self.metric {
                        Metric::Dtm => self.in_units(value).unwrap_or(0),
                        Metric::Dtz => value.distance().unwrap_or(0),
                        Metric::Wdl => 0,
                    };
                    sides[slot as usize % 2].add(slot, value, measured);
                }
            }
            sides
        };
        let merge = |a: [SideCount; 2], b: [SideCount; 2]| [a[0].merge(b[0]), a[1].merge(b[1])];
        let sides = in_runs(self.index_size(tier), run, merge);
        ["white", "black"]
            .iter()
            .zip(sides)
            .map(|(name, side)| {
                let SideCount {
                    positions,
                    wins,
                    draws,
                    losses,
                    cursed,
                    blessed,
                    longest,
                    example,
                } = side;
                let example = example
                    .and_then(|slot| self.position_at(tier, slot))
                    .map(|board| format!(", e.g. {}", board.fen()))
                    .unwrap_or_default();
                let counts = match self.metric {
                    Metric::Dtm => format!(
                        "{positions} positions: {wins} wins, {draws} draws, {losses} losses; longest mate {longest} moves"
                    ),
                    Metric::Dtz => format!(
                        "{positions} positions: {wins} wins ({cursed} cursed), {draws} draws, {losses} losses ({blessed} blessed); longest DTZ {longest} plies"
                    ),
                    Metric::Wdl => format!(
                        "{positions} positions: {wins} wins ({cursed} cursed), {draws} draws, {losses} losses ({blessed} blessed)"
                    ),
                };
                (format!("{name} to move"), format!("{counts}{example}"))
            })
            .collect()
    }
}

/// The counts of one side to move over a run of slots: the wins the 50-move
/// rule spoils and the losses it saves among them (DTZ), and the longest
/// distance with the first slot that has it.
#[derive(Debug, Default, Clone, Copy)]
struct SideCount {
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    cursed: u64,
    blessed: u64,
    longest: u16,
    example: Option<u64>,
}

impl SideCount {
    fn add(&mut self, slot: u64, value: Value, measured: u16) {
        self.positions += 1;
        match value {
            Value::Win(n) => {
                self.wins += 1;
                self.cursed += u64::from(n > FIFTY_MOVES);
            }
            Value::Loss(n) => {
                self.losses += 1;
                self.blessed += u64::from(n > FIFTY_MOVES);
            }
            _ => self.draws += 1,
        }
        if measured > self.longest {
            (self.longest, self.example) = (measured, Some(slot));
        }
    }

    /// Both runs' counts; of equal longest distances, the first slot.
    fn merge(self, other: SideCount) -> SideCount {
        let (longest, example) = match self.longest.cmp(&other.longest) {
            std::cmp::Ordering::Less => (other.longest, other.example),
            std::cmp::Ordering::Greater => (self.longest, self.example),
            std::cmp::Ordering::Equal => (self.longest, self.example.min(other.example)),
        };
        SideCount {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            cursed: self.cursed + other.cursed,
            blessed: self.blessed + other.blessed,
            longest,
            example,
        }
    }
}
