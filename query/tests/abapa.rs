//! Abapa: hand-checked values through the command line, verification by value
//! iteration, the whole-game verdict, and play past and into the tables.

mod common;

use common::{tbquery, text};

fn score(dir: &std::path::Path, position: &str, rules: &str) -> i64 {
    let out = tbquery(
        dir,
        &["probe", "abapa", position, "--rules", rules, "--json"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["score"].as_i64().unwrap()
}

#[test]
fn hand_checked_values_verification_and_the_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_abapa(dir.path(), 8);
    let dir = dir.path();
    // The grand slam captures nothing; the opponent cannot feed and keeps both.
    assert_eq!(score(dir, "0 0 0 0 0 1 / 1 0 0 0 0 0", "default"), -2);
    // The seeds chase each other forever.
    assert_eq!(score(dir, "1 0 0 0 0 0 / 1 0 0 0 0 0", "default"), 0);
    // Feeding with f leaves one seed each: play goes on by default, not by the thesis.
    assert_eq!(score(dir, "0 0 0 0 1 1 / 0 0 0 0 0 0", "default"), -2);
    assert_eq!(score(dir, "0 0 0 0 1 1 / 0 0 0 0 0 0", "thesis"), 0);

    for rules in ["default", "thesis"] {
        let out = tbquery(dir, &["verify", "abapa", "8", "--rules", rules], "");
        let said = text(&out.stdout);
        assert!(out.status.success(), "{said}{}", text(&out.stderr));
        // C(20, 12) positions with 0 to 8 seeds.
        assert!(
            said.contains("125970 positions against value iteration; every block of its 9 tables sound, 0 mismatches"),
            "{said}"
        );
    }

    // 2 on the board worth -2 to the mover: 23 + 0 against 23 + 2.
    let out = tbquery(
        dir,
        &[
            "probe",
            "abapa",
            "0 0 0 0 0 1 / 1 0 0 0 0 0",
            "--captured",
            "23,23",
            "--json",
        ],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["whole_game"]["winner"], "opponent", "{json}");
    assert_eq!(json["whole_game"]["final"], serde_json::json!([23.0, 25.0]));
    let out = tbquery(
        dir,
        &[
            "probe",
            "abapa",
            "0 0 0 0 0 1 / 1 0 0 0 0 0",
            "--captured",
            "20,20",
        ],
        "",
    );
    assert!(
        text(&out.stderr).contains("20 + 20 captured and 2 on the board do not make 48"),
        "{}",
        text(&out.stderr)
    );

    // Beyond the tables here: the command that makes the missing one.
    let out = tbquery(dir, &["probe", "abapa", "9 0 0 0 0 0 / 0 0 0 0 0 0"], "");
    assert!(
        text(&out.stderr).contains("tbgen abapa --max-seeds 9"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_changed_value_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_abapa(dir.path(), 6);
    common::change_table(&dir.path().join("abapa-6seeds.tb"), |codes| {
        codes[100] = games::Value::Score(5).code();
    });
    let out = tbquery(dir.path(), &["verify", "abapa", "6"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("1 mismatches"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn play_searches_then_reads_the_tables_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_abapa(dir.path(), 6);
    // 9 seeds: the computer searches until a capture brings it into the tables.
    let moves = "a\nb\nc\nd\ne\nf\n".repeat(20);
    let out = tbquery(
        dir.path(),
        &[
            "play",
            "abapa",
            "--from",
            "1 1 1 1 1 0 / 1 1 1 0 0 1",
            "--first",
            "computer",
            "--think",
            "0.05",
        ],
        &moves,
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(said.contains("alpha-beta to"), "{said}");
    assert!(said.contains("exact, from the tables"), "{said}");
    let last = said.lines().last().unwrap();
    assert!(last.contains("you") && last.contains("computer"), "{last}");
}
