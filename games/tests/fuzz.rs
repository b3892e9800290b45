//! Property tests: no input reaches a panic. Every game of the registry gets
//! arbitrary text and text made of its own notation's characters as positions,
//! as moves, and as values of its options; what parses must write back and parse
//! to the same position, and stay within its table's index.

use games::chess::Board;
use games::registry;
use games::spec::{Options, Purpose, Spec, Visitor};
use games::{Game, read_position};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Cases per game and property: the suite stays within seconds.
const CASES: u32 = 400;

/// Text of up to 80 characters: any characters, or those of the game's own
/// notation (its start position's and the usual separators and digits), which
/// come much closer to valid positions and moves.
fn text_like(sample: &str) -> BoxedStrategy<String> {
    let mut alphabet: Vec<char> = sample.chars().collect();
    alphabet.extend(" /,.-+:>0123456789xoyXOabcdefghKQRBNkqrbnpwv".chars());
    alphabet.sort_unstable();
    alphabet.dedup();
    let own = prop::collection::vec(prop::sample::select(alphabet.clone()), 0..80)
        .prop_map(|chars| chars.into_iter().collect::<String>());
    // The sample with a few characters changed: mostly near misses.
    let chars: Vec<char> = sample.chars().collect();
    let edited = prop::collection::vec(
        (any::<prop::sample::Index>(), prop::sample::select(alphabet)),
        0..4,
    )
    .prop_map(move |edits| {
        let mut chars = chars.clone();
        for (at, c) in edits {
            if !chars.is_empty() {
                let at = at.index(chars.len());
                chars[at] = c;
            }
        }
        chars.into_iter().collect::<String>()
    });
    prop_oneof![any::<String>(), own, edited, Just(sample.to_string())].boxed()
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Positions and moves of one game.
struct Notation;

impl Visitor for Notation {
    type Output = ();
    fn visit<G: Game>(self, _spec: &'static Spec<G>, game: &G) {
        let start = game.start();
        let sample = game.write_position(&start);
        runner()
            .run(&text_like(&sample), |text| {
                let Ok(position) = read_position(game, &text) else {
                    return Ok(());
                };
                let written = game.write_position(&position);
                let again = game.parse_position(&written);
                prop_assert_eq!(
                    again.as_ref().ok(),
                    Some(&position),
                    "{}: {:?}",
                    game.id(),
                    text
                );
                if game.coverage(&position).is_ok() && game.index_size(0) > 0 {
                    let tier = game.tier_of(&position);
                    prop_assert!(game.tiers().contains(&tier), "{}: {text:?}", game.id());
                    prop_assert!(game.index(&position) < game.index_size(tier));
                    // Moves of positions the tables hold are few enough to list.
                    for mv in game.moves(&position).iter().take(50) {
                        let name = game.write_move(&position, mv);
                        prop_assert_eq!(game.parse_move(&position, &name).ok(), Some(mv.clone()));
                        let _ = game.play(&position, mv);
                    }
                    let _ = game.end_value(&position);
                }
                Ok(())
            })
            .unwrap();
        let some_move = game
            .moves(&start)
            .first()
            .map(|m| game.write_move(&start, m))
            .unwrap_or_default();
        runner()
            .run(&text_like(&some_move), |text| {
                let _ = game.parse_move(&start, &text);
                Ok(())
            })
            .unwrap();
    }
}

#[test]
fn positions_and_moves_of_every_game_never_panic() {
    for entry in registry::entries() {
        registry::with_game(entry.id, &Options::query(), Notation).unwrap();
    }
}

#[test]
fn options_of_every_game_never_panic() {
    for entry in registry::entries() {
        for purpose in [Purpose::Query, Purpose::Generate] {
            for option in entry.options_for(purpose) {
                let sample = option.default.unwrap_or("1");
                runner()
                    .run(&text_like(sample), |value| {
                        let options = Options::with(purpose, [(option.name, value.as_str())]);
                        let _ = registry::with_game(entry.id, &options, Built);
                        Ok(())
                    })
                    .unwrap();
            }
        }
    }
}

/// Builds the game and asks it its tiers and sizes.
struct Built;

impl Visitor for Built {
    type Output = ();
    fn visit<G: Game>(self, _spec: &'static Spec<G>, game: &G) {
        for tier in game.tiers() {
            let _ = game.index_size(tier);
            let _ = game.tier_name(tier);
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 2_000, failure_persistence: None, ..Config::default() })]

    /// FEN-shaped text: eight ranks of counts and pieces, a side, the rest.
    #[test]
    fn fen_reading_never_panics(
        ranks in prop::collection::vec("[1-9kqrbnpKQRBNP]{0,12}", 0..10),
        side in "[wbx]?",
        rest in "[-a-h0-9 KQkq]{0,12}",
    ) {
        let fen = format!("{} {side} {rest}", ranks.join("/"));
        if let Ok(board) = Board::from_fen(&fen) {
            prop_assert_eq!(Board::from_fen(&board.fen()).ok(), Some(board));
        }
    }
}

/// Inputs that once panicked, kept as regressions.
#[test]
fn inputs_that_once_panicked_are_refused() {
    let eights = "8".repeat(33);
    let many = format!("{eights}/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    let err = Board::from_fen(&many).unwrap_err().to_string();
    assert!(err.contains("more than 8 squares"), "{err}");
    let then_king = format!("{}K7/8/8/8/8/2k5/8/KQ6 w - - 0 1", "8".repeat(32));
    assert!(Board::from_fen(&then_king).is_err());
    let subtraction = registry::entry("subtraction").unwrap();
    let huge = Options::with(Purpose::Query, [("max-take", "18446744073709551615")]);
    let err = subtraction.complete(&huge).unwrap_err().to_string();
    assert!(err.contains("from 1 to 1000000000000000000"), "{err}");
    let grundy = registry::entry("grundy").unwrap();
    for limit in ["18446744073709551615", "4294967296"] {
        let options = Options::with(Purpose::Generate, [("limit", limit)]);
        let err = grundy.complete(&options).unwrap_err().to_string();
        assert!(err.contains("from 1 to 60"), "{err}");
    }
}
