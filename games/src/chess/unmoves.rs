//! Un-moves: the positions one quiet move before a position, as the generic
//! retracting solver needs them (the dedicated solver finds its own on slots).

use super::board::Board;
use super::game::Endgame;
use super::index::king_pairs;
use super::piece::{Color, Role};
use crate::capability::Retract;

impl Retract<Endgame> for Endgame {
    /// The un-moves of every distinct image of the position that lead to a stored
    /// board: each stored parent's move into the position's class ends on exactly
    /// one image, so it is found exactly once.
    fn predecessors(&self, tier: u32, board: &Board, visit: &mut dyn FnMut(u64)) {
        for image in self.images(tier, board) {
            // A stored board has its kings on a canonical pair: where the image's
            // kings are not, only a king's un-move can lead to one.
            let [wk, bk] = [Color::White, Color::Black].map(|c| image.king(c).expect("a king"));
            let kings_stored = king_pairs().1[wk.index() * 64 + bk.index()] != u16::MAX;
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
    use crate::Game;
    use crate::chess::Material;
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
