//! Pawnless chess endings as a game for the solvers: one tier per material (`KQvKR`),
//! the stronger side always stored as White (a position with Black stronger is
//! mirrored: colours swapped, board flipped), indexed by the 462 king pairs left
//! after the 8 symmetries of the board, the other pieces' squares, and the side
//! to move. Identical pieces (the two bishops of KBBvK) are one field, the set of
//! their squares, so each position is stored once and not once per order.
//! Captures lead into the tiers of smaller material, solved first.

use crate::capability::{
    Capabilities, Check, Dedicated, DistanceUnits, Drawing, MoveAliases, Retract, Side, Solver,
    TableNotes,
};
use crate::chess::{Board, Color, Move, Piece, Role, Square};
use crate::game::{Child, Game, GameError};
use crate::registry::{Entry, OptionSpec, Options, Purpose, Scope, Spec, Values};
use crate::value::{Value, ValueKind};
use std::sync::OnceLock;

pub static SPEC: Spec<Endgame> = Spec {
    entry: Entry {
        id: "chess",
        about: "Pawnless chess endings of up to 5 pieces: distance to mate for every position",
        notation: "a FEN of kings, queens, rooks, bishops and knights, no castling or en passant: \
                   8/8/8/8/8/2k5/8/KQ6 w - - 0 1; moves in SAN (Qe4) or UCI (b1e4)",
        options: &[
            OptionSpec {
                name: "materials",
                help: "endings to make, e.g. KQvKR, each with every ending its captures lead to",
                scope: Scope::Tables,
                values: Values::Text("MATERIAL, e.g. KQvKR"),
                default: None,
                positional: true,
            },
            OptionSpec {
                name: "all",
                help: "every pawnless ending of up to this many pieces",
                scope: Scope::Tables,
                values: Values::Range(3, MAX_PIECES as u64),
                default: None,
                positional: false,
            },
        ],
        all: &[&[("materials", "KQvKR")]],
    },
    build: Endgame::from_options,
    capabilities: |game| Capabilities {
        drawing: Some(game),
        aliases: Some(game),
        units: Some(game),
        notes: Some(game),
        picture: Some(game),
        wording: Some(game),
        record: Some(game),
        editing: Some(game),
        ..Capabilities::new(
            Solver::Dedicated(Dedicated::ChessUnmoves),
            vec![Check::Consistency, Check::MateSearch { plies: 7 }],
        )
    },
    generate_options: |game, tier| vec![("materials", game.tier_name(tier))],
};

/// The most pieces, kings included.
pub const MAX_PIECES: usize = 5;

/// The pieces besides the kings, strongest first, for each side.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub white: Vec<Role>,
    pub black: Vec<Role>,
}

fn worth(role: Role) -> u32 {
    match role {
        Role::Queen => 9,
        Role::Rook => 5,
        Role::Bishop | Role::Knight => 3,
        Role::King => 0,
    }
}

impl Material {
    /// Reads `KQvKR` (either side may be written first).
    pub fn parse(text: &str) -> Result<Material, GameError> {
        let bad = |reason: &str| GameError::variant(text, reason.to_string());
        let (white, black) = text
            .trim()
            .split_once(['v', 'V'])
            .ok_or_else(|| bad("write material as e.g. KQvKR"))?;
        let side = |s: &str| -> Result<Vec<Role>, GameError> {
            let s = s
                .strip_prefix('K')
                .ok_or_else(|| bad("each side starts with its king, K"))?;
            s.chars()
                .map(|c| match c {
                    'Q' => Ok(Role::Queen),
                    'R' => Ok(Role::Rook),
                    'B' => Ok(Role::Bishop),
                    'N' => Ok(Role::Knight),
                    'P' => Err(bad("pawns are not covered")),
                    _ => Err(bad("pieces are Q, R, B and N")),
                })
                .collect()
        };
        let material = Material {
            white: side(white)?,
            black: side(black)?,
        };
        if material.count() > MAX_PIECES {
            return Err(bad("at most 5 pieces, kings included"));
        }
        Ok(material.normalized().0)
    }

    pub fn count(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    /// The material of a board, as the board has it (not normalized).
    pub fn of(board: &Board) -> Material {
        let side = |color| {
            let mut roles: Vec<Role> = board
                .pieces()
                .filter(|(_, p)| p.color == color && p.role != Role::King)
                .map(|(_, p)| p.role)
                .collect();
            roles.sort();
            roles
        };
        Material {
            white: side(Color::White),
            black: side(Color::Black),
        }
    }

    /// The stronger side as White; true when the colours had to be swapped.
    fn normalized(mut self) -> (Material, bool) {
        self.white.sort();
        self.black.sort();
        let key = |roles: &[Role]| (roles.iter().map(|&r| worth(r)).sum::<u32>(), roles.len());
        let swap = (key(&self.black), &self.black) > (key(&self.white), &self.white);
        if swap {
            std::mem::swap(&mut self.white, &mut self.black);
        }
        (self, swap)
    }

    /// Every material one capture away, and so on down to bare kings.
    pub fn with_smaller(&self) -> Vec<Material> {
        let mut all = vec![self.clone()];
        let mut i = 0;
        while i < all.len() {
            let m = all[i].clone();
            for (side, len) in [(0, m.white.len()), (1, m.black.len())] {
                for k in 0..len {
                    let mut smaller = m.clone();
                    if side == 0 {
                        smaller.white.remove(k);
                    } else {
                        smaller.black.remove(k);
                    }
                    let smaller = smaller.normalized().0;
                    if !all.contains(&smaller) {
                        all.push(smaller);
                    }
                }
            }
            i += 1;
        }
        all.sort_by_key(|m| (m.count(), m.clone()));
        all
    }

    /// Every pawnless material of 3 to `pieces` pieces, kings included.
    pub fn all_up_to(pieces: usize) -> Vec<Material> {
        let roles = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
        // The multisets of `n` roles, strongest first.
        fn multisets(roles: &[Role], n: usize) -> Vec<Vec<Role>> {
            match (n, roles.split_first()) {
                (0, _) => vec![Vec::new()],
                (_, None) => Vec::new(),
                (_, Some((&first, rest))) => {
                    let mut all: Vec<Vec<Role>> = multisets(roles, n - 1)
                        .into_iter()
                        .map(|m| [vec![first], m].concat())
                        .collect();
                    all.extend(multisets(rest, n));
                    all
                }
            }
        }
        let mut all = Vec::new();
        for others in 1..=pieces.min(MAX_PIECES).saturating_sub(2) {
            for white in 0..=others {
                for w in multisets(&roles, white) {
                    for b in multisets(&roles, others - white) {
                        all.push(
                            Material {
                                white: w.clone(),
                                black: b,
                            }
                            .normalized()
                            .0,
                        );
                    }
                }
            }
        }
        all.sort();
        all.dedup();
        all
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = |roles: &[Role]| -> String {
            std::iter::once('K')
                .chain(roles.iter().map(|r| r.letter()))
                .collect()
        };
        write!(f, "{}v{}", side(&self.white), side(&self.black))
    }
}

/// Sorts the few non-king pieces (at most three) without a general sort's setup.
#[inline]
fn sort_small(pieces: &mut [(u8, Square)]) {
    for i in 1..pieces.len() {
        let mut j = i;
        while j > 0 && pieces[j - 1] > pieces[j] {
            pieces.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// How many sets of `k` squares there are: C(64, k).
#[inline]
fn sets_of(k: usize) -> u64 {
    choose(64, k)
}

/// C(n, k) for the few identical pieces an ending has (k at most 3).
#[inline]
fn choose(n: u64, k: usize) -> u64 {
    match k {
        0 => 1,
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        _ => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
    }
}

/// The rank of a set of squares, ascending, among the sets of its size: the
/// combinatorial number system, sum of C(square_i, i + 1). One square ranks as itself.
#[inline]
fn set_rank(group: &[(u8, Square)]) -> u64 {
    group
        .iter()
        .enumerate()
        .fold(0, |rank, (i, &(_, sq))| rank + choose(u64::from(sq), i + 1))
}

/// Every set of 2 and of 3 squares, ascending, in the order of their ranks.
fn sets() -> &'static [Vec<[Square; 3]>; 2] {
    static SETS: OnceLock<[Vec<[Square; 3]>; 2]> = OnceLock::new();
    SETS.get_or_init(|| {
        let pairs = (1..64)
            .flat_map(|b| (0..b).map(move |a| [a, b, 0]))
            .collect();
        let triples = (2..64)
            .flat_map(|c| (1..c).flat_map(move |b| (0..b).map(move |a| [a, b, c])))
            .collect();
        [pairs, triples]
    })
}

/// The 8 symmetries of the board as square maps.
#[inline]
fn transforms() -> &'static [[Square; 64]; 8] {
    static MAPS: OnceLock<[[Square; 64]; 8]> = OnceLock::new();
    MAPS.get_or_init(|| {
        std::array::from_fn(|t| {
            std::array::from_fn(|sq| {
                let (mut f, mut r) = (sq as u8 % 8, sq as u8 / 8);
                if t & 1 != 0 {
                    f = 7 - f;
                }
                if t & 2 != 0 {
                    r = 7 - r;
                }
                if t & 4 != 0 {
                    std::mem::swap(&mut f, &mut r);
                }
                r * 8 + f
            })
        })
    })
}

/// The canonical king pairs, and the rank of every (white king, black king) pair
/// (`u16::MAX` where not canonical), indexed `white * 64 + black`.
struct KingPairs(Vec<(Square, Square)>, Vec<u16>);

/// The 462 king pairs: White's king in the a1-d1-d4 triangle, and when it is on the
/// diagonal, Black's king on or below the diagonal; kings apart.
#[inline]
fn king_pairs() -> &'static KingPairs {
    static PAIRS: OnceLock<KingPairs> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut pairs = Vec::new();
        let mut rank_of = vec![u16::MAX; 64 * 64];
        for wk in 0..64u8 {
            let (wf, wr) = (wk % 8, wk / 8);
            if !(wr <= wf && wf <= 3) {
                continue;
            }
            for bk in 0..64u8 {
                let (bf, br) = (bk % 8, bk / 8);
                let apart = wf.abs_diff(bf) > 1 || wr.abs_diff(br) > 1;
                if apart && (wf != wr || br <= bf) {
                    rank_of[wk as usize * 64 + bk as usize] = pairs.len() as u16;
                    pairs.push((wk, bk));
                }
            }
        }
        KingPairs(pairs, rank_of)
    })
}

/// The endings of one material and every smaller one, as tiers.
#[derive(Debug, Clone)]
pub struct Endgame {
    tiers: Vec<Material>,
    /// For each tier, the piece counts of its boards as stored and with the
    /// colours swapped.
    keys: Vec<([u8; 10], [u8; 10])>,
}

/// A position reduced to what its slot depends on: the kings (White's, Black's),
/// the other pieces as `(colour * 8 + role, square)` sorted, and the side to move.
/// The dedicated solver works on these, never building a [`Board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub kings: [Square; 2],
    pub others: [(u8, Square); MAX_PIECES - 2],
    pub count: usize,
    pub turn: Color,
}

impl Layout {
    /// The kings, other pieces and side to move of a board.
    pub fn of(board: &Board) -> Layout {
        let mut layout = Layout {
            kings: [0; 2],
            others: [(0, 0); MAX_PIECES - 2],
            count: 0,
            turn: board.turn,
        };
        for (sq, p) in board.pieces() {
            if p.role == Role::King {
                layout.kings[p.color as usize] = sq;
            } else {
                layout.others[layout.count] = (p.color as u8 * 8 + p.role as u8, sq);
                layout.count += 1;
            }
        }
        sort_small(&mut layout.others[..layout.count]);
        layout
    }

    /// The same position with the other pieces in order (by kind, then square),
    /// as [`Layout::squares`] reads them.
    #[inline]
    pub fn in_order(mut self) -> Layout {
        sort_small(&mut self.others[..self.count]);
        self
    }

    /// The same position with the colours swapped and the ranks flipped.
    #[inline]
    pub fn mirrored(&self) -> Layout {
        let flip = |sq: Square| (7 - sq / 8) * 8 + sq % 8;
        let mut mirror = Layout {
            kings: [flip(self.kings[1]), flip(self.kings[0])],
            turn: self.turn.other(),
            ..*self
        };
        for piece in &mut mirror.others[..self.count] {
            *piece = (piece.0 ^ 8, flip(piece.1));
        }
        sort_small(&mut mirror.others[..self.count]);
        mirror
    }

    /// The runs of identical pieces among the others, as (first, length).
    #[inline]
    fn groups(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut start = 0;
        std::iter::from_fn(move || {
            (start < self.count).then(|| {
                let kind = self.others[start].0;
                let len = self.others[start..self.count]
                    .iter()
                    .take_while(|p| p.0 == kind)
                    .count();
                start += len;
                (start - len, len)
            })
        })
    }

    /// The squares of the pieces other than the kings as one number, how a slot
    /// spells them: one field per kind of piece, the first highest, each the
    /// rank of the set of its pieces' squares (a lone piece's square itself).
    /// The pieces must be in order ([`Layout::of`] has them so).
    #[inline]
    pub fn squares(&self) -> u64 {
        self.groups().fold(0, |field, (start, len)| {
            field * sets_of(len) + set_rank(&self.others[start..start + len])
        })
    }

    /// How many numbers [`Layout::squares`] can give for these pieces.
    #[inline]
    pub fn squares_radix(&self) -> u64 {
        self.groups().map(|(_, len)| sets_of(len)).product()
    }

    /// What one step of a lone piece's square (`others[i]`, see
    /// [`Layout::unique`]) adds to [`Layout::squares`].
    #[inline]
    pub fn weight(&self, i: usize) -> u64 {
        self.groups()
            .filter(|&(start, _)| start > i)
            .map(|(_, len)| sets_of(len))
            .product()
    }

    /// Puts the pieces on the squares `field` spells (as [`Layout::squares`]
    /// gives it), their kinds already set.
    #[inline]
    fn set_squares(&mut self, mut field: u64) {
        let mut groups = [(0, 0); MAX_PIECES - 2];
        let mut n = 0;
        for group in self.groups() {
            groups[n] = group;
            n += 1;
        }
        for &(start, len) in groups[..n].iter().rev() {
            let radix = sets_of(len);
            let rank = (field % radix) as usize;
            field /= radix;
            let squares = match len {
                1 => [rank as Square, 0, 0],
                _ => sets()[len - 2][rank],
            };
            for (piece, sq) in self.others[start..start + len].iter_mut().zip(squares) {
                piece.1 = sq;
            }
        }
    }

    /// Whether no other piece has the colour and role of `others[i]` (pieces
    /// of one kind are next to each other, in order of their squares).
    #[inline]
    pub fn unique(&self, i: usize) -> bool {
        let kind = self.others[i].0;
        (i == 0 || self.others[i - 1].0 != kind)
            && (i + 1 >= self.count || self.others[i + 1].0 != kind)
    }

    /// The kings' squares under symmetry `t`, the cheap first look at an image.
    #[inline]
    pub fn kings_under(&self, t: usize) -> [Square; 2] {
        let map = &transforms()[t];
        self.kings.map(|k| map[k as usize])
    }

    /// The position under symmetry `t` (0 to 7; 0 leaves it as it is).
    #[inline]
    pub fn transformed(&self, t: usize) -> Layout {
        let map = &transforms()[t];
        let mut image = Layout {
            kings: self.kings.map(|k| map[k as usize]),
            ..*self
        };
        for piece in &mut image.others[..self.count] {
            piece.1 = map[piece.1 as usize];
        }
        sort_small(&mut image.others[..self.count]);
        image
    }

    /// The pieces' colours and roles as counts, as [`Endgame::counts`] has them.
    fn counts(&self) -> [u8; 10] {
        let mut counts = [0u8; 10];
        counts[Role::King as usize] = 1;
        counts[5 + Role::King as usize] = 1;
        for &(kind, _) in &self.others[..self.count] {
            counts[(kind / 8) as usize * 5 + (kind % 8) as usize] += 1;
        }
        counts
    }
}

/// The slots of one tier whose kings settle: a canonical pair not both on the
/// long diagonal (then only the identity brings them to a canonical pair), in a
/// tier whose colours cannot swap. Every position with such kings is stored as
/// it stands, so its slot is arithmetic alone, as un-moves need it.
#[derive(Debug, Clone, Copy)]
pub struct Settled {
    /// Each king pair's rank, by white king * 64 + black king (`u16::MAX`: not canonical).
    ranks: &'static [u16],
    both_views: bool,
    /// How many numbers the other pieces' squares can be (see [`Layout::squares`]).
    radix: u64,
}

impl Settled {
    /// The slot of the position with these kings, other pieces on `squares` (as
    /// [`Layout::squares`] spells them) and side to move, if its kings settle.
    #[inline]
    pub fn slot(&self, kings: [Square; 2], squares: u64, turn: Color) -> Option<u64> {
        let rank = self.ranks[kings[0] as usize * 64 + kings[1] as usize];
        let settles = rank != u16::MAX
            && !self.both_views
            && !(on_diagonal(kings[0]) && on_diagonal(kings[1]));
        settles
            .then(|| (u64::from(rank) * self.radix + squares) * 2 + u64::from(turn == Color::Black))
    }
}

/// Whether a square is on the a1-h8 diagonal, where a king's square is left
/// as it is by two of the symmetries.
fn on_diagonal(sq: Square) -> bool {
    sq / 8 == sq % 8
}

impl Endgame {
    /// The endings the options name (every ending when answering queries).
    fn from_options(options: &Options) -> Result<Endgame, GameError> {
        if options.purpose != Purpose::Generate {
            return Ok(Endgame::of_all(&Material::all_up_to(MAX_PIECES)));
        }
        let mut wanted = options
            .get("materials")
            .unwrap_or("")
            .split([',', ' '])
            .filter(|m| !m.is_empty())
            .map(Material::parse)
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(pieces) = options.number("all") {
            let pieces = pieces as usize;
            wanted.extend(
                Material::all_up_to(MAX_PIECES)
                    .into_iter()
                    .filter(|m| m.count() <= pieces),
            );
        }
        if wanted.is_empty() {
            return Err(GameError::variant(
                "",
                "name a material such as KQvKR, or give --all 4",
            ));
        }
        Ok(Endgame::of_all(&wanted))
    }

    /// `material` and every material a capture can lead to, smallest first.
    pub fn new(material: &Material) -> Endgame {
        Self::with_tiers(material.with_smaller())
    }

    fn with_tiers(tiers: Vec<Material>) -> Endgame {
        let keys = tiers
            .iter()
            .map(|m| {
                let mut key = [0u8; 10];
                key[Role::King as usize] = 1;
                key[5 + Role::King as usize] = 1;
                for &r in &m.white {
                    key[r as usize] += 1;
                }
                for &r in &m.black {
                    key[5 + r as usize] += 1;
                }
                let mut swapped = [0u8; 10];
                swapped[..5].copy_from_slice(&key[5..]);
                swapped[5..].copy_from_slice(&key[..5]);
                (key, swapped)
            })
            .collect();
        Endgame { tiers, keys }
    }

    /// Several materials and everything below them.
    pub fn of_all(materials: &[Material]) -> Endgame {
        let mut tiers: Vec<Material> = materials.iter().flat_map(|m| m.with_smaller()).collect();
        tiers.sort_by_key(|m| (m.count(), m.clone()));
        tiers.dedup();
        Self::with_tiers(tiers)
    }

    pub fn materials(&self) -> &[Material] {
        &self.tiers
    }

    /// The slot of a normalized position under one symmetry, if its kings land on a
    /// canonical pair. Identical pieces are ordered by square after the symmetry.
    #[inline]
    fn slot_under(layout: &Layout, t: &[Square; 64]) -> Option<u64> {
        let [wk, bk] = layout.kings;
        let pair = king_pairs().1[t[wk as usize] as usize * 64 + t[bk as usize] as usize];
        if pair == u16::MAX {
            return None;
        }
        let mut image = *layout;
        for piece in &mut image.others[..layout.count] {
            piece.1 = t[piece.1 as usize];
        }
        let image = image.in_order();
        let slot = u64::from(pair) * image.squares_radix() + image.squares();
        Some(slot * 2 + u64::from(layout.turn == Color::Black))
    }

    /// How many pieces of each colour and role (kings included) a board has.
    fn counts(board: &Board) -> [u8; 10] {
        let mut counts = [0u8; 10];
        for (_, p) in board.pieces() {
            counts[p.color as usize * 5 + p.role as usize] += 1;
        }
        counts
    }

    /// The tier of a board's material, and whether its colours must be swapped to
    /// read it (Black stronger).
    fn find_tier(&self, board: &Board) -> Option<(u32, bool)> {
        self.tier_of_counts(Self::counts(board))
    }

    /// The tier with these piece counts, and whether its colours are swapped.
    fn tier_of_counts(&self, counts: [u8; 10]) -> Option<(u32, bool)> {
        self.keys
            .iter()
            .enumerate()
            .find_map(|(tier, (key, swapped))| {
                if counts == *key {
                    Some((tier as u32, false))
                } else if counts == *swapped {
                    Some((tier as u32, true))
                } else {
                    None
                }
            })
    }
}

impl Game for Endgame {
    type Position = Board;
    type Move = Move;

    fn id(&self) -> &'static str {
        "chess"
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
        king_pairs().0.len() as u64 * self.squares_radix(tier) * 2
    }

    /// The smallest slot over the symmetries that bring the kings to a canonical
    /// pair (and over the colour swap when both sides have the same pieces).
    fn index(&self, board: &Board) -> u64 {
        let (tier, swap) = self.find_tier(board).expect("a material of this ending");
        self.slot_in(tier, swap, board)
    }

    fn position_at(&self, tier: u32, index: u64) -> Option<Board> {
        let layout = self.layout_at(tier, index)?;
        let mut board = Board::empty(layout.turn);
        let kings = [Color::White, Color::Black].map(|color| Piece {
            color,
            role: Role::King,
        });
        let others = layout.others[..layout.count].iter().map(|&(kind, sq)| {
            let color = [Color::White, Color::Black][kind as usize / 8];
            let role = Role::ALL[kind as usize % 8];
            (sq, Piece { color, role })
        });
        for (sq, piece) in layout.kings.into_iter().zip(kings).chain(others) {
            if board.piece_at(sq).is_some() {
                return None;
            }
            board.set(sq, Some(piece));
        }
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

    fn play(&self, board: &Board, mv: &Move) -> Child<Board> {
        Child::passing(board.play(mv))
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
        let board = Board::from_fen(text)?;
        let (material, _) = Material::of(&board).normalized();
        if material.count() > MAX_PIECES {
            return Err(GameError::position(
                text,
                "at most 5 pieces, kings included",
            ));
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

impl TableNotes<Endgame> for Endgame {
    /// For each side to move (slots alternate White, Black): legal positions,
    /// wins, draws, losses and the longest mate in moves, as chess players count
    /// them.
    fn notes(&self, tier: u32, code: &dyn Fn(u64) -> u16) -> Vec<(String, String)> {
        let size = self.index_size(tier);
        ["white", "black"]
            .iter()
            .enumerate()
            .map(|(side, name)| {
                let (mut positions, mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64, 0u64);
                // The longest mate, and the first slot that has it.
                let (mut longest, mut example) = (0u16, None);
                for slot in (side as u64..size).step_by(2) {
                    let Some(value) = Value::from_code(self.value_kind(), code(slot)) else {
                        continue;
                    };
                    match value {
                        Value::Win(_) => wins += 1,
                        Value::Loss(_) => losses += 1,
                        _ => draws += 1,
                    }
                    let moves = self.in_units(value).unwrap_or(0);
                    if moves > longest {
                        (longest, example) = (moves, Some(slot));
                    }
                    positions += 1;
                }
                let example = example
                    .and_then(|slot| self.position_at(tier, slot))
                    .map(|board| format!(", e.g. {}", board.fen()))
                    .unwrap_or_default();
                (
                    format!("{name} to move"),
                    format!(
                        "{positions} positions: {wins} wins, {draws} draws, {losses} losses; longest mate {longest} moves{example}"
                    ),
                )
            })
            .collect()
    }
}

impl Endgame {
    /// Every distinct board that the slot's symmetries (and the colour swap, with
    /// equal material) make of `board`.
    fn images(&self, tier: u32, board: &Board) -> Vec<Board> {
        let (key, swapped) = self.keys[tier as usize];
        let views: &[bool] = if key == swapped {
            &[false, true]
        } else {
            &[false]
        };
        let mut images: Vec<Board> = Vec::with_capacity(16);
        for &swap in views {
            let seen = if swap { mirrored(board) } else { board.clone() };
            for t in transforms() {
                let mut image = Board::empty(seen.turn);
                for (sq, p) in seen.pieces() {
                    image.set(t[sq as usize], Some(p));
                }
                if !images.contains(&image) {
                    images.push(image);
                }
            }
        }
        images
    }

    /// The slot of a board of `tier` (seen with the colours swapped when `swap`).
    fn slot_in(&self, tier: u32, swap: bool, board: &Board) -> u64 {
        self.slot_of_layout(tier, swap, &Layout::of(board))
    }

    /// Whether either colour may be stored as White: the same pieces on both sides.
    #[inline]
    pub fn both_views(&self, tier: u32) -> bool {
        let (key, swapped) = self.keys[tier as usize];
        key == swapped
    }

    /// The slot of a position of `tier`, mirrored first when `swap`: the smallest
    /// over the symmetries that bring the kings to a canonical pair, and over the
    /// colour swap when both sides have the same pieces.
    pub fn slot_of_layout(&self, tier: u32, swap: bool, layout: &Layout) -> u64 {
        if !swap {
            let sorted = layout.in_order();
            let settled = self.settled(tier);
            if let Some(slot) = settled.slot(sorted.kings, sorted.squares(), sorted.turn) {
                return slot;
            }
        }
        let mirror = layout.mirrored();
        let views: &[&Layout] = match (self.both_views(tier), swap) {
            (true, _) => &[layout, &mirror],
            (false, false) => &[layout],
            (false, true) => &[&mirror],
        };
        views
            .iter()
            .flat_map(|layout| {
                transforms()
                    .iter()
                    .filter_map(move |t| Self::slot_under(layout, t))
            })
            .min()
            .expect("some symmetry brings the kings to a canonical pair")
    }

    /// The slot of a board of `tier` stored as it stands (what `position_at`
    /// returns), or None for any other board.
    fn stored_slot(&self, tier: u32, board: &Board) -> Option<u64> {
        self.stored_slot_of(tier, &Layout::of(board))
    }

    /// The slot of a position of `tier` if it is stored as it stands (its own
    /// slot, not a symmetric one's), else None.
    #[inline]
    pub fn stored_slot_of(&self, tier: u32, layout: &Layout) -> Option<u64> {
        let slot = Self::slot_under(layout, &transforms()[0])?;
        if self.kings_settle(tier, layout.kings) {
            return Some(slot);
        }
        (slot == self.slot_of_layout(tier, false, layout)).then_some(slot)
    }

    /// Whether every position of `tier` with these kings is stored as it stands
    /// (see [`Settled`]).
    #[inline]
    pub fn kings_settle(&self, tier: u32, kings: [Square; 2]) -> bool {
        self.settled(tier).slot(kings, 0, Color::White).is_some()
    }

    /// How many numbers the squares of `tier`'s pieces other than the kings can
    /// be: 64 for each lone piece, C(64, k) for each kind of which it has k.
    fn squares_radix(&self, tier: u32) -> u64 {
        let mut layout = Layout {
            kings: [0; 2],
            others: [(0, 0); MAX_PIECES - 2],
            count: self.tiers[tier as usize].count() - 2,
            turn: Color::White,
        };
        for (piece, kind) in layout.others.iter_mut().zip(self.kinds(tier)) {
            piece.0 = kind;
        }
        layout.squares_radix()
    }

    /// How `tier` spells the slots of positions stored as they stand.
    pub fn settled(&self, tier: u32) -> Settled {
        Settled {
            ranks: &king_pairs().1,
            both_views: self.both_views(tier),
            radix: self.squares_radix(tier),
        }
    }

    /// Whether the kings stand on one of the 462 canonical pairs.
    #[inline]
    pub fn canonical_kings(kings: [Square; 2]) -> bool {
        king_pairs().1[kings[0] as usize * 64 + kings[1] as usize] != u16::MAX
    }

    /// The position at a slot of `tier` as its slot spells it: kings on a canonical
    /// pair, the other pieces on their squares; None where the king pair is out of
    /// range. Whether it is legal and stored as it stands is not checked.
    #[inline]
    pub fn layout_at(&self, tier: u32, slot: u64) -> Option<Layout> {
        let material = &self.tiers[tier as usize];
        let mut layout = Layout {
            kings: [0; 2],
            others: [(0, 0); MAX_PIECES - 2],
            count: material.count() - 2,
            turn: if slot % 2 == 0 {
                Color::White
            } else {
                Color::Black
            },
        };
        for (piece, kind) in layout.others.iter_mut().zip(self.kinds(tier)) {
            piece.0 = kind;
        }
        let radix = layout.squares_radix();
        layout.set_squares(slot / 2 % radix);
        let (wk, bk) = *king_pairs().0.get((slot / 2 / radix) as usize)?;
        layout.kings = [wk, bk];
        Some(layout)
    }

    /// The colour and role (`colour * 8 + role`) of each piece other than the
    /// kings, in the order a slot of `tier` spells them.
    fn kinds(&self, tier: u32) -> impl Iterator<Item = u8> + '_ {
        let material = &self.tiers[tier as usize];
        let white = material.white.iter().map(|&r| r as u8);
        white.chain(material.black.iter().map(|&r| 8 + r as u8))
    }

    /// For each piece other than the kings, in slot order, the tier its capture
    /// leads to and whether the colours are swapped there.
    pub fn capture_tiers(&self, tier: u32) -> Vec<(u32, bool)> {
        let counts = self.keys[tier as usize].0;
        self.kinds(tier)
            .map(|kind| {
                let mut after = counts;
                after[(kind / 8) as usize * 5 + (kind % 8) as usize] -= 1;
                self.tier_of_counts(after)
                    .expect("every material a capture leads to is an ending of the set")
            })
            .collect()
    }

    /// The tier of a position's material and its slot there (a capture's result).
    pub fn locate(&self, layout: &Layout) -> (u32, u64) {
        let (tier, swap) = self
            .tier_of_counts(layout.counts())
            .expect("a material of this ending");
        (tier, self.slot_of_layout(tier, swap, layout))
    }
}

/// The board with the colours swapped and the ranks flipped, the other side to move:
/// the same position seen from the other side.
fn mirrored(board: &Board) -> Board {
    let mut mirror = Board::empty(board.turn.other());
    for (sq, p) in board.pieces() {
        let piece = Piece {
            color: p.color.other(),
            role: p.role,
        };
        mirror.set((7 - sq / 8) * 8 + sq % 8, Some(piece));
    }
    mirror
}

impl Retract<Endgame> for Endgame {
    /// The un-moves of every distinct image of the position that lead to a stored
    /// board: each stored parent's move into the position's class ends on exactly
    /// one image, so it is found exactly once.
    fn predecessors(&self, tier: u32, board: &Board, visit: &mut dyn FnMut(u64)) {
        for image in self.images(tier, board) {
            // A stored board has its kings on a canonical pair: where the image's
            // kings are not, only a king's un-move can lead to one.
            let [wk, bk] = [Color::White, Color::Black].map(|c| image.king(c).expect("a king"));
            let kings_stored = king_pairs().1[wk as usize * 64 + bk as usize] != u16::MAX;
            for parent in image.unmoves(|role| kings_stored || role == Role::King) {
                if let Some(slot) = self.stored_slot(tier, &parent) {
                    visit(slot);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_462_king_pairs() {
        assert_eq!(king_pairs().0.len(), 462);
    }

    #[test]
    fn materials_are_read_and_normalized() {
        let m = Material::parse("KRvKQ").unwrap();
        assert_eq!(m.to_string(), "KQvKR");
        let names: Vec<String> = m.with_smaller().iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["KvK", "KQvK", "KRvK", "KQvKR"]);
        assert!(Material::parse("KQRvKRB").is_err());
        assert!(Material::parse("KPvK").is_err());
        assert_eq!(Material::all_up_to(4).len(), 4 + 10 + 10);
        // Three pieces on one side (20), two against one (40), one against two
        // where the one is stronger (KQvKBN and the like).
        let five: Vec<String> = Material::all_up_to(5)
            .iter()
            .filter(|m| m.count() == 5)
            .map(|m| m.to_string())
            .collect();
        assert!(five.contains(&"KRBvKR".to_string()));
        assert!(five.contains(&"KQvKBN".to_string()));
        assert!(!five.contains(&"KRvKQB".to_string()));
    }

    /// Every `step`th slot of `name` that holds a position indexes back to itself,
    /// and so do its 8 symmetric images; returns how many held one.
    fn slots_index_back(name: &str, step: usize) -> usize {
        let game = Endgame::new(&Material::parse(name).unwrap());
        let tier = game.tiers().len() as u32 - 1;
        let mut legal = 0;
        for index in (0..game.index_size(tier)).step_by(step) {
            if let Some(board) = game.position_at(tier, index) {
                legal += 1;
                assert_eq!(game.index(&board), index);
                for t in transforms() {
                    let mut image = Board::empty(board.turn);
                    for (sq, p) in board.pieces() {
                        image.set(t[sq as usize], Some(p));
                    }
                    assert_eq!(game.index(&image), index, "{}", board.fen());
                }
            }
        }
        legal
    }

    #[test]
    fn every_slot_indexes_back_and_symmetric_boards_share_it() {
        assert!(slots_index_back("KRvK", 1) > 20_000);
        // Every KBBvK position of either side to move, as the tables count them.
        assert_eq!(slots_index_back("KBBvK", 1), 1_489_788);
        assert!(slots_index_back("KNNNvK", 101) > 250_000);
        assert!(slots_index_back("KRRvKN", 997) > 70_000);
    }

    /// Identical pieces take one field, the rank of their set of squares: C(64, k)
    /// numbers where k of them stand, not 64^k.
    #[test]
    fn identical_pieces_are_stored_once_per_set_of_squares() {
        let size = |name: &str| {
            let game = Endgame::new(&Material::parse(name).unwrap());
            game.index_size(game.tiers().len() as u32 - 1)
        };
        assert_eq!(size("KRvK"), 462 * 64 * 2);
        assert_eq!(size("KBBvK"), 462 * 2016 * 2);
        assert_eq!(size("KNNNvK"), 462 * 41_664 * 2);
        assert_eq!(size("KRRvKN"), 462 * 2016 * 64 * 2);
        assert_eq!(size("KQRvKB"), 462 * 64 * 64 * 64 * 2);
        for (k, all) in sets().iter().enumerate() {
            assert_eq!(all.len() as u64, sets_of(k + 2));
            for (rank, squares) in all.iter().enumerate() {
                let group: Vec<(u8, Square)> = squares[..k + 2].iter().map(|&sq| (0, sq)).collect();
                assert!(group.windows(2).all(|w| w[0].1 < w[1].1));
                assert_eq!(set_rank(&group), rank as u64);
            }
        }
    }

    #[test]
    fn equal_material_folds_the_colour_swap_too() {
        let game = Endgame::new(&Material::parse("KRvKR").unwrap());
        let tier = game
            .tiers()
            .into_iter()
            .find(|&t| game.tier_name(t) == "KRvKR")
            .unwrap();
        let mut seen = 0;
        for index in (0..game.index_size(tier)).step_by(997) {
            let Some(board) = game.position_at(tier, index) else {
                continue;
            };
            seen += 1;
            assert_eq!(game.index(&board), index);
            // Colours swapped, board flipped, the other side to move: same slot.
            assert_eq!(game.index(&mirrored(&board)), index, "{}", board.fen());
        }
        assert!(seen > 1_000, "{seen}");
    }
}

#[cfg(test)]
mod retract_tests {
    use super::*;
    use std::collections::HashMap;

    /// For sampled parents, every quiet move is found by un-moving its child, as
    /// often as the parent has moves into the child's slot; and everything the
    /// un-moves of a sampled child find is such a move.
    fn unmoves_match_moves(name: &str, step: usize) {
        let game = Endgame::new(&Material::parse(name).unwrap());
        let tier = game.tiers().len() as u32 - 1;
        let slots: Vec<(u64, Board)> = (0..game.index_size(tier))
            .step_by(step)
            .filter_map(|slot| Some((slot, game.position_at(tier, slot)?)))
            .collect();
        assert!(slots.len() > 500, "{}", slots.len());
        for (slot, board) in &slots {
            // Forward: parent -> count of moves into each child slot.
            let mut forward: HashMap<u64, usize> = HashMap::new();
            for mv in board.legal_moves().iter().filter(|m| m.capture.is_none()) {
                *forward.entry(game.index(&board.play(mv))).or_default() += 1;
            }
            for (child, moves) in forward {
                let child_board = game.position_at(tier, child).unwrap();
                let mut found = 0;
                game.predecessors(tier, &child_board, &mut |p| {
                    found += usize::from(p == *slot)
                });
                assert_eq!(found, moves, "{} -> slot {child}", board.fen());
            }
            // Backward: each parent found has that many moves into this slot.
            let mut backward: HashMap<u64, usize> = HashMap::new();
            game.predecessors(tier, board, &mut |p| *backward.entry(p).or_default() += 1);
            for (parent, times) in backward {
                let parent_board = game.position_at(tier, parent).expect("a stored parent");
                let moves = parent_board
                    .legal_moves()
                    .iter()
                    .filter(|m| m.capture.is_none() && game.index(&parent_board.play(m)) == *slot)
                    .count();
                assert_eq!(moves, times, "{} <- {}", board.fen(), parent_board.fen());
            }
        }
    }

    #[test]
    fn unmoves_match_moves_with_unequal_material() {
        unmoves_match_moves("KQvKR", 1_009);
    }

    #[test]
    fn unmoves_match_moves_with_equal_material() {
        unmoves_match_moves("KRvKR", 1_009);
    }

    #[test]
    fn unmoves_match_moves_with_two_identical_pieces() {
        unmoves_match_moves("KBBvK", 1_009);
    }
}
