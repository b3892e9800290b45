//! Dots-and-boxes tables checked against the published 3x3 result, alpha-beta
//! search, and the board's symmetries.

mod common;

use games::Value;
use games::dots::{Dots, SPEC};
use query::verify::{Selection, verify};
use query::{Tablebase, probe, probe_text};

fn with_tables<T>(sizes: &[&str], f: impl FnOnce(&std::path::Path) -> T) -> T {
    let dir = tempfile::tempdir().unwrap();
    common::generate_dots(dir.path(), sizes);
    f(dir.path())
}

#[test]
fn empty_3x3_board_is_lost_by_3_whatever_the_first_move() {
    with_tables(&["3x3"], |dir| {
        let dots = Dots::default();
        let tb = Tablebase::new(&dots, dir);
        let answer = probe(&tb, &0).unwrap();
        assert_eq!(answer.value, Value::Score(-3));
        assert_eq!(answer.moves.len(), 24);
        for m in &answer.moves {
            assert_eq!(m.value, Value::Score(-3), "{}", m.text);
            assert!(m.turn_passes);
        }
    });
}

#[test]
fn small_boards_agree_with_alpha_beta_everywhere() {
    let sizes = ["1x1", "1x2", "2x1", "1x3", "2x2", "1x4", "2x3"];
    with_tables(&sizes, |dir| {
        for size in sizes {
            let dots = Dots::parse_size(size).unwrap();
            let oracle = common::oracle(&SPEC, &dots, dir);
            let report = verify(&oracle, Selection::All, None).unwrap();
            assert_eq!(report.checked, 1 << dots.edges(), "{size}");
            assert!(
                report.mismatches.is_empty(),
                "{size}: {:?}",
                report.mismatches
            );
        }
        // Hand-checked: one box goes to the second player.
        let one = Dots::new(1, 1).unwrap();
        assert_eq!(
            Tablebase::new(&one, dir).value(&0).unwrap(),
            Value::Score(-1)
        );
    });
}

#[test]
fn sampled_3x3_positions_agree_with_alpha_beta_and_symmetry() {
    with_tables(&["3x3"], |dir| {
        let dots = Dots::default();
        let tb = Tablebase::new(&dots, dir);
        let samples = Selection::Samples {
            count: 3_000,
            seed: 7,
        };
        let report = verify(&common::oracle(&SPEC, &dots, dir), samples, None).unwrap();
        assert_eq!(report.checked, 3_000);
        assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);

        // Symmetric boards have the same value: the solver never sees symmetry.
        let maps = dots.symmetries();
        for drawn in (0..1u32 << 24).step_by(4_099) {
            let value = tb.value(&drawn).unwrap();
            for map in &maps {
                let image = Dots::transform(map, drawn);
                assert_eq!(tb.value(&image).unwrap(), value, "{drawn:#x} -> {image:#x}");
            }
        }
    });
}

#[test]
fn a_capture_keeps_the_turn_and_counts_in_the_score() {
    with_tables(&["1x2"], |dir| {
        let dots = Dots::new(1, 2).unwrap();
        let tb = Tablebase::new(&dots, dir);
        // Box 0 has three sides (h00, h10, v00); box 1 none. The mover takes box 0
        // with v01 and moves again; box 1's last three edges then go mover,
        // opponent, mover, so the mover takes it too: +2.
        let answer = probe_text(&tb, "1010/100").unwrap();
        assert_eq!(answer.value, Value::Score(2));
        let take = answer.moves.iter().find(|m| m.text == "v01").unwrap();
        assert_eq!(
            (take.value, take.turn_passes, take.gain),
            (Value::Score(2), false, 1)
        );
        let oracle = common::oracle(&SPEC, &dots, dir);
        let json = serde_json::to_value(oracle.answer_text("1010/100", None).unwrap()).unwrap();
        assert_eq!(json["variant"], "1x2");
        assert_eq!(json["score"], 2);
        let first = &json["moves"][0];
        assert_eq!(first["move"], "v01");
        assert_eq!(first["score"], 2);
        assert_eq!(first["gain"], 1);
        assert_eq!(first["moves_again"], true);
        assert!(json.get("distance").is_none());
    });
}

#[test]
fn command_line_probes_plays_and_explains_sizes() {
    with_tables(&["1x2"], |dir| {
        let out = common::tbquery(
            dir,
            &["probe", "dots", "--size", "1x2", "1010/100", "--json"],
            "",
        );
        assert!(out.status.success(), "{}", common::text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["score"], 2);

        let out = common::tbquery(dir, &["probe", "dots", "--size", "4x4", "0"], "");
        let err = common::text(&out.stderr);
        assert!(!out.status.success());
        assert!(err.contains("4x4") && err.contains("40 edges"), "{err}");

        let out = common::tbquery(dir, &["probe", "dots", "--size", "2x2", "0"], "");
        let err = common::text(&out.stderr);
        assert!(err.contains("bad position '0'"), "{err}");
        let out = common::tbquery(
            dir,
            &["probe", "dots", "--size", "2x2", &"0".repeat(12)],
            "",
        );
        let err = common::text(&out.stderr);
        assert!(err.contains("tbgen dots --size 2x2 --dir"), "{err}");

        // The human draws the outer edges; the computer takes both boxes.
        let out = common::tbquery(
            dir,
            &["play", "dots", "--size", "1x2", "--first", "human"],
            "h00\nh01\nv00\n",
        );
        let stdout = common::text(&out.stdout);
        assert!(stdout.contains(" |  C  |  C  | "), "{stdout}");
        assert!(stdout.contains("computer (C) 2"), "{stdout}");
        assert!(
            stdout.contains("The computer wins: you 0, the computer 2."),
            "{stdout}"
        );
    });
}

/// About a minute and 3.3 GB: `cargo test --release -p query --test dots -- --ignored`.
#[test]
#[ignore]
fn board_3x4_is_a_tie_and_agrees_with_alpha_beta() {
    with_tables(&["3x4"], |dir| {
        let dots = Dots::new(3, 4).unwrap();
        let tb = Tablebase::new(&dots, dir);
        let answer = probe(&tb, &0).unwrap();
        assert_eq!(answer.value, Value::Score(0));
        let ties = answer
            .best_moves()
            .map(|m| m.text.as_str())
            .collect::<Vec<_>>();
        assert_eq!(ties, ["v02", "v12", "v22"]);
        let report = verify(
            &common::oracle(&SPEC, &dots, dir),
            Selection::Samples {
                count: 1_000,
                seed: 3,
            },
            None,
        )
        .unwrap();
        assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    });
}
