//! Checks shared by the games' unit tests.

use crate::capability::ClosedForm;
use crate::game::Game;
use crate::search::Negamax;
use crate::value::Value;

/// Asserts that the formula says who wins each position, and names exactly the
/// moves that exact search finds winning, in move order.
pub(crate) fn formula_matches_search<G: Game + ClosedForm<G>>(
    game: &G,
    positions: impl IntoIterator<Item = G::Position>,
) {
    let mut search = Negamax::new(game);
    for position in positions {
        let formula = game.formula(&position).unwrap();
        let value = search.value(&position);
        let text = game.write_position(&position);
        assert_eq!(
            formula.mover_wins,
            matches!(value, Value::Win(_)),
            "{} {text}",
            game.id()
        );
        let winning: Vec<G::Move> = game
            .moves(&position)
            .into_iter()
            .filter(|m| {
                let child = game.play(&position, m).position;
                matches!(search.value(&child), Value::Loss(_))
            })
            .collect();
        assert_eq!(formula.winning_moves, winning, "{} {text}", game.id());
    }
}
