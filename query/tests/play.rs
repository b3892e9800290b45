//! `tbquery play` in every mode, through its JSON Lines transcript: perfect play
//! from the tables and from formulas far beyond them, people against each other,
//! deliberate mistakes below level 10, and Abapa's search and endings.

mod common;

use common::{tbquery, text};
use serde_json::Value as Json;
use std::path::Path;

/// Plays with `--transcript`; returns its lines and what was said to people.
fn transcript(dir: &Path, args: &[&str], stdin: &str) -> (Vec<Json>, String) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.push("--transcript");
    let out = tbquery(dir, &all, stdin);
    let said = text(&out.stderr);
    let lines: Vec<Json> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // A game a person left exits 2.
    let abandoned = lines.last().is_some_and(|l| l["result"] == "abandoned");
    assert_eq!(
        out.status.code(),
        Some(if abandoned { 2 } else { 0 }),
        "{args:?}: {said}"
    );
    (lines, said)
}

fn result(lines: &[Json]) -> &Json {
    lines.last().expect("a result line")
}

#[test]
fn the_formula_plays_nim_far_beyond_the_tables() {
    let dir = common::default_tables();
    let (lines, said) = transcript(
        &dir,
        &[
            "nim",
            "--from",
            "30 20 10",
            "--players",
            "computer,computer",
        ],
        "",
    );
    // 30 ^ 20 ^ 10 = 0: lost for the first player, who holds out longest by
    // taking one stone at a time from the largest heap: all 60 stones, 60 plies.
    assert_eq!(result(&lines)["result"], "second", "{said}");
    assert_eq!(result(&lines)["plies"], 60);
    assert_eq!(lines[0]["move"], "h1-1");
    assert_eq!(lines[0]["value"], "loss");
    assert_eq!(lines[1]["value"], "win");
    for (i, ply) in lines[..60].iter().enumerate() {
        assert_eq!(ply["player"], ["first", "second"][i % 2]);
        assert_eq!(ply["ply"], i + 1);
    }
    assert!(
        said.contains("holds out longest by stones left: 59 after it"),
        "{said}"
    );

    // Heaps of any size: a won position far beyond any table.
    let (lines, _) = transcript(
        &dir,
        &[
            "nim",
            "--from",
            "1000000000000 3 1",
            "--players",
            "computer,human",
        ],
        "quit\n",
    );
    assert_eq!(lines[0]["move"], "h1-999999999998", "{lines:?}");
    assert_eq!(result(&lines)["result"], "abandoned");
}

/// The Nim thesis's Northcott on 8x8, far beyond any table: the formula plays
/// both sides, and the game ends as it foretold, under normal and misère play.
#[test]
fn northcott_on_eight_by_eight_ends_as_the_formula_foretells() {
    let dir = common::default_tables();
    // Gaps 6, 1, 2, 6, 3, 4, 1, 0: nim-sum 5, won for the first player either way.
    let board = "x......o/.x.o..../..x..o../x......o/...x...o/.x....o./x.o...../....xo..";
    for (misere, from, winner) in [
        (false, board, "first"),
        (true, board, "first"),
        // The start: eight gaps of 6 xor to 0, lost for the first player.
        (false, "start", "second"),
        (true, "start", "second"),
    ] {
        let mut args = vec![
            "northcott",
            "--from",
            from,
            "--players",
            "computer,computer",
        ];
        if misere {
            args.push("--misere");
        }
        let (lines, said) = transcript(&dir, &args, "");
        let end = result(&lines);
        assert_eq!(end["result"], winner, "{args:?}: {said}");
        // Every ply keeps the value the formula gave the start, side by side.
        for ply in &lines[..lines.len() - 1] {
            let mover_won = ply["player"] == winner;
            assert_eq!(
                ply["value"],
                if mover_won { "win" } else { "loss" },
                "{ply}"
            );
        }
        // The game ends with every gap closed: no piece can move forward.
        let last = lines[lines.len() - 2]["position"].as_str().unwrap();
        assert!(
            last.split('/')
                .all(|c| c.contains("xo") || c.contains("ox")),
            "{last}"
        );
        let lost_by_moving_last = end["reason"]
            .as_str()
            .unwrap()
            .contains("made the last move");
        assert_eq!(lost_by_moving_last, misere, "{end}");
    }
}

#[test]
fn perfect_play_ends_as_the_tables_say() {
    let dir = common::default_tables();
    for (game, winner, plies) in [
        // Euler's empty board is lost for the first player in 13 plies.
        (vec!["euler"], "second", Some(13)),
        // The L-Game's start is a draw: play goes round.
        (vec!["lgame"], "draw", None),
        // Dots-and-boxes 3x3: the second player wins by 3.
        (vec!["dots"], "second", Some(24)),
        // The 21 game: the thesis's first player names 16, then says 20.
        (vec!["game21"], "first", Some(4)),
        // The course's says 2, 5, ..., 20: 7 numbers, 6 replies, and 21 or 22.
        (vec!["game21", "--rules", "course"], "first", Some(14)),
        // Counting from 0 by 1 to 3 the second player says 4, 8, ..., 20, the
        // first holding out with 1, 5, ..., 17 and then 21.
        (vec!["game21", "--rules", "count"], "second", Some(11)),
    ] {
        let mut args = game.clone();
        args.extend(["--players", "computer,computer"]);
        let (lines, said) = transcript(&dir, &args, "");
        let end = result(&lines);
        assert_eq!(end["result"], winner, "{game:?}: {said}");
        if let Some(plies) = plies {
            assert_eq!(end["plies"], plies, "{game:?}");
        }
        if game == ["dots"] {
            assert_eq!(end["score"], serde_json::json!([3, 6]), "{said}");
            assert_eq!(end["reason"], "every edge is drawn");
        }
        if game == ["lgame"] {
            assert!(end["reason"].as_str().unwrap().contains("third time"));
        }
    }
}

#[test]
fn two_people_share_a_screen_with_hints() {
    let dir = common::default_tables();
    let (lines, said) = transcript(
        &dir,
        &["euler", "--players", "human,human"],
        "hint\nb1\nmoves\nc1\nquit\n",
    );
    assert!(said.contains("The first player to move"), "{said}");
    assert!(said.contains("the first player's move, e.g. "), "{said}");
    assert!(said.contains("48 moves, best first"), "{said}");
    assert!(said.contains("The second player to move"), "{said}");
    assert!(said.contains("legal moves: "), "{said}");
    assert!(
        said.contains("last move: b1"),
        "the board says the move that led to it: {said}"
    );
    assert_eq!(lines.len(), 3);
    assert_eq!(
        (lines[0]["player"].as_str(), lines[1]["player"].as_str()),
        (Some("first"), Some("second"))
    );
    assert_eq!(result(&lines)["result"], "abandoned");
}

#[test]
fn a_line_that_is_not_utf8_is_asked_again() {
    let dir = common::default_tables();
    let input = b"\xff\xfe b1\nb1\nquit\n";
    let args = ["play", "euler", "--players", "human,human", "--transcript"];
    let out = common::tbquery_bytes(&dir, &args, input);
    let said = text(&out.stderr);
    assert!(said.contains("that line is not UTF-8 text"), "{said}");
    let moves = text(&out.stdout);
    assert!(moves.lines().next().unwrap().contains("\"b1\""), "{moves}");
    assert_eq!(out.status.code(), Some(2), "{said}");
}

#[test]
fn below_level_ten_the_computer_makes_mistakes_a_person_can_punish() {
    let dir = common::default_tables();
    let play = |level: &str, seed: &str| {
        transcript(
            &dir,
            &[
                "euler",
                "--players",
                "computer,computer",
                "--level",
                level,
                "--seed",
                seed,
            ],
            "",
        )
    };
    // At level 10 the first player always loses the empty board.
    let (lines, _) = play("10", "1");
    assert_eq!(result(&lines)["result"], "second");
    // At level 0 both sides blunder: over a few games the lost side wins some.
    let mut first_wins = 0;
    for seed in 0..8 {
        let (lines, said) = play("0", &seed.to_string());
        assert!(said.contains("a deliberate mistake, at level 0"), "{said}");
        first_wins += usize::from(result(&lines)["result"] == "first");
        // The same seed plays the same game.
        assert_eq!(play("0", &seed.to_string()).0, lines);
    }
    assert!(first_wins > 0, "no game of 8 at level 0 went the other way");

    let out = tbquery(&dir, &["play", "euler", "--level", "11"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--level"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_missing_table_is_refused_before_the_first_move() {
    let dir = tempfile::tempdir().unwrap();
    let out = tbquery(dir.path(), &["play", "dots", "--size", "2x2"], "h00\n");
    let said = text(&out.stdout);
    assert!(!out.status.success());
    assert!(!said.contains("your move"), "{said}");
    assert!(
        text(&out.stderr).contains("tbgen dots --size 2x2"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn abapa_searches_by_any_algorithm_and_ends_at_more_than_half() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_abapa(dir.path(), 6);
    let dir = dir.path();
    // The three algorithms find the same moves at the same depth; alpha-beta
    // visits the fewest positions.
    let from = "2 1 1 1 1 0 / 1 2 1 0 1 1";
    let mut games = Vec::new();
    let mut visited = Vec::new();
    for algorithm in ["minimax", "negamax", "alphabeta"] {
        let (lines, said) = transcript(
            dir,
            &[
                "abapa",
                "--from",
                from,
                "--players",
                "computer,computer",
                "--depth",
                "4",
                "--algorithm",
                algorithm,
            ],
            "",
        );
        let moves: Vec<Json> = lines.iter().map(|l| l["move"].clone()).collect();
        games.push(moves);
        let first = said
            .lines()
            .find(|l| l.contains(" to 4 plies, "))
            .unwrap_or_else(|| panic!("{said}"));
        let nodes: u64 = first
            .split(" plies, ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(first.contains(if algorithm == "alphabeta" {
            "alpha-beta"
        } else {
            algorithm
        }));
        visited.push(nodes);
    }
    assert_eq!(games[0], games[1]);
    assert_eq!(games[1], games[2]);
    assert_eq!(visited[0], visited[1], "minimax and negamax visit the same");
    assert!(
        visited[2] < visited[1],
        "alpha-beta visits fewer: {visited:?}"
    );

    // From the start, the game ends when a side has taken more than 24 seeds,
    // or sooner.
    let (lines, said) = transcript(
        dir,
        &["abapa", "--players", "computer,computer", "--depth", "2"],
        "",
    );
    let end = result(&lines);
    let score = end["score"].as_array().unwrap();
    let taken: Vec<i64> = score.iter().map(|s| s.as_i64().unwrap()).collect();
    assert!(taken.iter().sum::<i64>() <= 48, "{said}");
    if end["reason"].as_str().unwrap().contains("more than half") {
        assert!(
            taken.iter().any(|&t| t == 25 || t == 26 || t == 27),
            "{end}"
        );
    }
}

#[test]
fn abapa_endless_play_is_shared_as_the_tables_count_it_or_kept_by_side() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_abapa(dir.path(), 4);
    let dir = dir.path();
    // One seed each chase each other for ever; the tables say 0.
    let from = "1 0 0 0 0 0 / 1 0 0 0 0 0";
    let (lines, _) = transcript(
        dir,
        &["abapa", "--from", from, "--players", "computer,computer"],
        "",
    );
    let end = result(&lines);
    assert_eq!(end["result"], "draw", "{end}");
    assert_eq!(end["shared"], 2, "{end}");
    assert_eq!(end["score"], serde_json::json!([0, 0]));
    let (lines, _) = transcript(
        dir,
        &[
            "abapa",
            "--endless",
            "own",
            "--from",
            from,
            "--players",
            "computer,computer",
        ],
        "",
    );
    let end = result(&lines);
    assert!(
        end["reason"].as_str().unwrap().contains("its own side"),
        "{end}"
    );
    assert_eq!(end["score"], serde_json::json!([1, 1]), "{end}");
    assert_eq!(end.get("shared"), None);
    // Only play takes --endless.
    let out = tbquery(dir, &["probe", "abapa", from, "--endless", "own"], "");
    assert!(!out.status.success());
}

#[test]
fn the_course_pits_example_is_answered_and_played_to_the_end() {
    let dir = common::default_tables();
    let example = "..X.X.....X....XX.X...X";
    let out = tbquery(&dir, &["probe", "pits", example, "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["source"], "table", "23 pits are in the table");
    let mover_wins = answer["value"] == "win";
    let (lines, said) = transcript(
        &dir,
        &["pits", "--from", example, "--players", "computer,computer"],
        "",
    );
    let winner = if mover_wins { "first" } else { "second" };
    assert_eq!(result(&lines)["result"], winner, "{said}");
    assert_eq!(result(&lines)["reason"], "no stone can slide");
    assert_eq!(
        result(&lines)["plies"],
        answer["distance"],
        "the tables' distance"
    );

    // 50 pits: the formula plays it out.
    let row = format!("{}{}", ".o..X.o...".repeat(4), "o.o.o.o.o.");
    let (lines, said) = transcript(
        &dir,
        &["pits", "--from", &row, "--players", "computer,computer"],
        "",
    );
    let out = tbquery(&dir, &["probe", "pits", &row, "--json"], "");
    let answer: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["source"], "formula");
    let winner = if answer["value"] == "win" {
        "first"
    } else {
        "second"
    };
    assert_eq!(result(&lines)["result"], winner, "{said}");
}
