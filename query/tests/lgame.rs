//! The L-Game table checked against published facts and depth-bounded live search.

mod common;

use games::lgame::{LGame, SPEC, all_positions};
use games::search::BoundedSearch;
use games::{Game, Value};
use query::computer::computer_choice;
use query::verify::{BOUND_MARGIN, Selection, verify};
use query::{Tablebase, probe, probe_text};

fn with_table<T>(f: impl FnOnce(&Tablebase<LGame>) -> T) -> T {
    let dir = tempfile::tempdir().unwrap();
    common::generate_lgame(dir.path());
    f(&Tablebase::new(&LGame, dir.path()))
}

fn class_values(tb: &Tablebase<LGame>) -> Vec<Value> {
    let table = tb.table(0).unwrap();
    table
        .read_all()
        .unwrap()
        .into_iter()
        .map(|c| Value::from_code(LGame.value_kind(), c).unwrap())
        .collect()
}

#[test]
fn published_counts_of_lost_positions() {
    with_table(|tb| {
        let values = class_values(tb);
        assert_eq!(values.len(), 2_296);
        let losses = values
            .iter()
            .filter(|v| matches!(v, Value::Loss(_)))
            .count();
        let immediate = values.iter().filter(|v| **v == Value::Loss(0)).count();
        assert_eq!((losses, immediate), (29, 15));
        // The header also counts every position a class stands for.
        let extra = &tb.table(0).unwrap().header().stats.extra;
        let get = |name: &str| {
            extra
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("all positions"), Some("18368"));
        let all_losses: u64 = get("all losses").unwrap().parse().unwrap();
        let all_wins: u64 = get("all wins").unwrap().parse().unwrap();
        let all_draws: u64 = get("all draws").unwrap().parse().unwrap();
        assert_eq!(all_losses + all_wins + all_draws, 18_368);
    });
}

#[test]
fn start_is_a_draw_with_36_drawing_and_29_losing_moves() {
    with_table(|tb| {
        let answer = probe_text(tb, "oyy./.xy./.xy./.xxo").unwrap();
        assert_eq!(answer.value, Value::Draw);
        assert_eq!(answer.moves.len(), 65);
        let draws = answer
            .moves
            .iter()
            .filter(|m| m.value == Value::Draw)
            .count();
        let losses = answer
            .moves
            .iter()
            .filter(|m| matches!(m.value, Value::Loss(_)))
            .count();
        assert_eq!((draws, losses), (36, 29));
    });
}

#[test]
fn every_position_agrees_with_bounded_search() {
    with_table(|tb| {
        // All 18,368 positions, not just one per class: this checks the folding.
        let mut search = BoundedSearch::new(&LGame);
        let bound = tb.table(0).unwrap().header().stats.longest as u16 + BOUND_MARGIN;
        let mut checked = 0;
        for position in all_positions() {
            let stored = tb.value(&position).unwrap();
            assert_eq!(
                stored,
                search.value(&position, bound),
                "{}",
                LGame.write_position(&position)
            );
            checked += 1;
        }
        assert_eq!(checked, 18_368);
        let oracle = common::oracle(&SPEC, &LGame, tb.dir());
        let report = verify(&oracle, Selection::All, None).unwrap();
        assert_eq!((report.checked, report.mismatches.len()), (2_296, 0));
        assert_eq!(report.consistency_checked, 2_296);
    });
}

#[test]
fn a_lost_position_with_no_l_move() {
    with_table(|tb| {
        // x's L is boxed in: every other placement is blocked by y and the neutrals.
        let lost: Vec<_> = all_positions()
            .filter(|p| LGame.end_value(p).is_some())
            .collect();
        assert!(!lost.is_empty());
        for p in lost {
            let answer = probe(tb, &p).unwrap();
            assert_eq!((answer.value, answer.moves.len()), (Value::Loss(0), 0));
        }
    });
}

#[test]
fn in_a_draw_the_computer_leaves_the_most_ways_to_go_wrong() {
    with_table(|tb| {
        let oracle = common::oracle(&SPEC, &LGame, tb.dir());
        let start = LGame.start();
        let answer = probe(tb, &start).unwrap();
        let (chosen, mistakes) = computer_choice(&oracle, &answer).unwrap();
        assert_eq!(chosen.value, Value::Draw);
        for candidate in answer.best_moves() {
            let reply = probe(tb, &candidate.after).unwrap();
            let theirs = reply
                .moves
                .iter()
                .filter(|r| matches!(r.value, Value::Loss(_)))
                .count();
            assert!(
                theirs <= mistakes,
                "{} leaves {theirs} > {mistakes}",
                candidate.text
            );
        }
        assert!(mistakes > 0);
    });
}
