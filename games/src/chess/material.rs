//! Material: the pieces each side has (`KQvKR`), which names a tier. The stronger
//! side is always written, and stored, as White.

use super::board::Board;
use super::piece::{Color, Role};
use crate::game::GameError;

/// The most pieces, kings included: six without pawns.
pub const MAX_PIECES: usize = 6;

/// The most pieces, kings included, of an ending with pawns.
pub const MAX_PIECES_WITH_PAWNS: usize = 5;

/// The most identical pieces (of one colour and role) a table indexes as a set.
const MAX_IDENTICAL: usize = 3;

/// What a pawn may become on the last rank.
pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

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
        Role::Pawn => 1,
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
                    'P' => Ok(Role::Pawn),
                    _ => Err(bad("pieces are Q, R, B, N and P")),
                })
                .collect()
        };
        let material = Material {
            white: side(white)?,
            black: side(black)?,
        };
        if let Some(reason) = material.beyond_the_tables() {
            return Err(bad(reason));
        }
        Ok(material.normalized().0)
    }

    /// Why no table can hold this material, if none can: too many pieces (six
    /// only without pawns) or more than three of one kind.
    pub fn beyond_the_tables(&self) -> Option<&'static str> {
        let most_alike = |roles: &[Role]| {
            roles
                .iter()
                .map(|r| roles.iter().filter(|&s| s == r).count())
                .max()
                .unwrap_or(0)
        };
        if self.count() > MAX_PIECES {
            Some("at most 6 pieces, kings included")
        } else if self.pawns() > 0 && self.count() > MAX_PIECES_WITH_PAWNS {
            Some("at most 5 pieces, kings included, with pawns (6 without)")
        } else if most_alike(&self.white).max(most_alike(&self.black)) > MAX_IDENTICAL {
            Some("at most three identical pieces")
        } else {
            None
        }
    }

    pub fn count(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    /// How many pawns both sides have.
    pub fn pawns(&self) -> usize {
        self.pawns_of(Color::White) + self.pawns_of(Color::Black)
    }

    /// How many pawns one side has.
    pub fn pawns_of(&self, color: Color) -> usize {
        self.side(color)
            .iter()
            .filter(|&&r| r == Role::Pawn)
            .count()
    }

    /// The order tiers are solved in: fewer pieces first, and among as many
    /// pieces fewer pawns first, since a promotion keeps the count and takes a pawn.
    pub fn solving_order(&self) -> (usize, usize, Material) {
        (self.count(), self.pawns(), self.clone())
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
    pub(super) fn normalized(mut self) -> (Material, bool) {
        self.white.sort();
        self.black.sort();
        let key = |roles: &[Role]| (roles.iter().map(|&r| worth(r)).sum::<u32>(), roles.len());
        let swap = (key(&self.black), &self.black) > (key(&self.white), &self.white);
        if swap {
            std::mem::swap(&mut self.white, &mut self.black);
        }
        (self, swap)
    }

    /// The materials one move away: a capture, a promotion, or a promotion
    /// that captures (a piece: no pawn stands on the last rank); normalized,
    /// each once.
    pub fn successors(&self) -> Vec<Material> {
        let mut next: Vec<Material> = Vec::new();
        let mut add = |after: Material| {
            let after = after.normalized().0;
            if !next.contains(&after) {
                next.push(after);
            }
        };
        for side in [Color::White, Color::Black] {
            for (k, &role) in self.side(side).iter().enumerate() {
                let mut captured = self.clone();
                captured.side_mut(side).remove(k);
                add(captured);
                if role != Role::Pawn {
                    continue;
                }
                for piece in PROMOTIONS {
                    let mut promoted = self.clone();
                    promoted.side_mut(side)[k] = piece;
                    for (v, &victim) in self.side(side.other()).iter().enumerate() {
                        if victim != Role::Pawn {
                            let mut took = promoted.clone();
                            took.side_mut(side.other()).remove(v);
                            add(took);
                        }
                    }
                    add(promoted);
                }
            }
        }
        next
    }

    fn side(&self, color: Color) -> &[Role] {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    fn side_mut(&mut self, color: Color) -> &mut Vec<Role> {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Every material captures and promotions can lead to, down to bare kings,
    /// this one included, in solving order.
    pub fn with_smaller(&self) -> Vec<Material> {
        let mut all = vec![self.clone()];
        let mut i = 0;
        while i < all.len() {
            for after in all[i].successors() {
                if !all.contains(&after) {
                    all.push(after);
                }
            }
            i += 1;
        }
        all.sort_by_key(Material::solving_order);
        all
    }

    /// Every pawnless material of 3 to `pieces` pieces, kings included.
    pub fn all_up_to(pieces: usize) -> Vec<Material> {
        Self::all_of(pieces, &PROMOTIONS)
    }

    /// Every material of 3 to `pieces` pieces, kings included, pawns too.
    pub fn all_with_pawns_up_to(pieces: usize) -> Vec<Material> {
        Self::all_of(
            pieces,
            &[
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ],
        )
    }

    /// Every material of 3 to `pieces` pieces whose other pieces have these roles.
    fn all_of(pieces: usize, roles: &[Role]) -> Vec<Material> {
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
                for w in multisets(roles, white) {
                    for b in multisets(roles, others - white) {
                        let material = Material {
                            white: w.clone(),
                            black: b,
                        };
                        if material.beyond_the_tables().is_none() {
                            all.push(material.normalized().0);
                        }
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

/// How many pieces of each colour and role a position has, kings included, at
/// [`count_at`].
pub(super) type Counts = [u8; 12];

/// Where [`Counts`] keeps a colour and role.
#[inline]
pub(super) fn count_at(color: Color, role: Role) -> usize {
    color as usize * 6 + role as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn materials_are_read_and_normalized() {
        let m = Material::parse("KRvKQ").unwrap();
        assert_eq!(m.to_string(), "KQvKR");
        let names: Vec<String> = m.with_smaller().iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["KvK", "KQvK", "KRvK", "KQvKR"]);
        assert!(Material::parse("KQRvKRBN").is_err());
        assert!(Material::parse("KPvKX").is_err());
        // A pawn leads by promotion to the four pieces, and by capture to bare kings.
        let names: Vec<String> = Material::parse("KvKP")
            .unwrap()
            .with_smaller()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(names, ["KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"]);
        let chain = Material::parse("KRPvKR").unwrap().with_smaller();
        assert_eq!(chain.len(), 21, "{chain:?}");
        assert!(chain.iter().any(|m| m.to_string() == "KQRvKR"));
        // A pawn that takes a piece on the last rank: KRvKP leads to KvKQ.
        let names: Vec<String> = Material::parse("KRvKP")
            .unwrap()
            .successors()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert!(names.contains(&"KQvK".to_string()), "{names:?}");
        assert_eq!(Material::all_with_pawns_up_to(3).len(), 5);
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

    /// Six pieces without pawns; not with pawns, not seven, not four of a kind.
    #[test]
    fn six_pieces_are_pawnless_with_at_most_three_alike() {
        assert_eq!(Material::parse("KRNvKNN").unwrap().to_string(), "KRNvKNN");
        assert_eq!(Material::parse("KRvKRBN").unwrap().to_string(), "KRBNvKR");
        let refused = |name: &str| match Material::parse(name) {
            Err(e) => e.to_string(),
            Ok(m) => panic!("{name} parsed as {m}"),
        };
        assert!(refused("KRPvKRP").contains("with pawns (6 without)"));
        assert!(refused("KRRvKRRR").contains("at most 6 pieces"));
        assert!(refused("KQQQQvK").contains("three identical"));
        // Four pieces beside the kings: four on one side (35 multisets of
        // four roles, less the four of one kind), three against one (20 x 4),
        // two against two (the 10 pairs, unordered: 55).
        let six = Material::all_up_to(6).len() - Material::all_up_to(5).len();
        assert_eq!(six, 31 + 80 + 55);
        let with_pawns = Material::all_with_pawns_up_to(6);
        assert_eq!(
            with_pawns.len(),
            Material::all_with_pawns_up_to(5).len() + six
        );
    }
}
