//! The `tbquery` command as a user runs it.

mod common;

use common::{tbquery, text};

#[test]
fn json_lines_answer_every_line_and_go_on_after_errors() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let input = "xxxx/xxxx/xxxx/xxx.\nnot a board\n\nxxxx/xxxx/xxxx/xxxx\n";
    let out = tbquery(dir.path(), &["probe", "euler", "-", "--json"], input);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    // One answer per line, the blank one included.
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["value"], "loss");
    assert_eq!(lines[0]["distance"], 1);
    assert_eq!(lines[1]["position"], "not a board");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("expected 4 rows")
    );
    assert_eq!(lines[2]["position"], "");
    assert!(lines[2]["error"].is_string());
    assert_eq!(lines[3]["value"], "win");
    assert_eq!(lines[3]["moves"].as_array().unwrap().len(), 0);
    assert!(
        !out.status.success(),
        "a failed line makes the exit status non-zero"
    );
}

#[test]
fn verify_all_checks_every_board() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let out = tbquery(dir.path(), &["verify", "euler", "--all"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("checked 65536 positions"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("0 mismatches"));
    // Not on a terminal, progress comes in lines: each check as it starts.
    let progress = text(&out.stderr);
    assert!(progress.contains("euler blocks: 0/1 (0%)"), "{progress}");
}

#[test]
fn missing_table_says_how_to_generate_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = tbquery(dir.path(), &["probe", "euler", "..../..../..../...."], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("euler.tb: no such table") && err.contains("tbgen euler"),
        "{err}"
    );
}

#[test]
fn corrupt_table_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let path = dir.path().join("euler.tb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 0x55; // inside the last block
    std::fs::write(&path, &bytes).unwrap();
    // The last block holds full boards; probing near-full boards reads it.
    let out = tbquery(dir.path(), &["probe", "euler", "xxxx/xxxx/xxxx/xxx."], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("euler.tb") && err.contains("corrupt"), "{err}");

    bytes.truncate(bytes.len() / 2);
    std::fs::write(&path, &bytes).unwrap();
    let out = tbquery(dir.path(), &["probe", "euler", "..../..../..../...."], "");
    let err = text(&out.stderr);
    assert!(
        !out.status.success() && err.contains("euler.tb") && err.contains("truncated"),
        "{err}"
    );

    let out = tbquery(dir.path(), &["info"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("euler.tb: unreadable"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn info_lists_header_statistics() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let out = tbquery(dir.path(), &["info", "--json"], "");
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let table = &json["tables"][0];
    assert_eq!(table["file"], "euler.tb");
    assert_eq!(table["positions"], 65536);
    assert_eq!(
        table["wins"].as_u64().unwrap() + table["losses"].as_u64().unwrap(),
        65536,
        "Euler has no draws"
    );
    assert_eq!(table["draws"], 0);
}

#[test]
fn unknown_game_and_bad_position_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let out = tbquery(dir.path(), &["probe", "go", "x"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown game 'go'; known games: euler, lgame"));
    let out = tbquery(dir.path(), &["probe", "euler", "..../..x/..../...."], "");
    assert!(
        text(&out.stderr).contains("row 2 has 3 cells"),
        "{}",
        text(&out.stderr)
    );
    let out = tbquery(dir.path(), &["probe", "euler", "x", "--size", "5x5"], "");
    assert!(
        text(&out.stderr).contains("unexpected argument '--size'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn play_runs_a_whole_game_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    // The computer starts from a board with two free cells in one edge line: it
    // takes one and leaves the last cell to the human, who must cover it and lose.
    let out = tbquery(
        dir.path(),
        &[
            "play",
            "euler",
            "--first",
            "computer",
            "--from",
            "xxxx/xxxx/xxxx/xx..",
        ],
        "d4\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("computer plays c4 (win in 2"), "{stdout}");
    assert!(stdout.contains("The computer wins."), "{stdout}");
}

#[test]
fn start_is_a_position_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let out = tbquery(dir.path(), &["probe", "euler", "start", "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            json["position"].as_str(),
            json["value"].as_str(),
            json["distance"].as_u64()
        ),
        (Some("..../..../..../...."), Some("loss"), Some(13))
    );
    let out = tbquery(dir.path(), &["play", "euler", "--from", "start"], "quit\n");
    assert!(
        text(&out.stdout).contains(". . . ."),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn games_lists_the_registry_with_options_and_starts() {
    let dir = tempfile::tempdir().unwrap();
    let out = tbquery(dir.path(), &["games", "--json"], "");
    assert!(out.status.success());
    let list: query::answer::GameList = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = list.games.iter().map(|g| g.game.as_str()).collect();
    let registry: Vec<&str> = games::registry::entries().iter().map(|e| e.id).collect();
    assert_eq!(ids, registry);
    let dots = list.games.iter().find(|g| g.game == "dots").unwrap();
    assert_eq!(dots.options[0].name, "size");
    assert_eq!(dots.options[0].default.as_deref(), Some("3x3"));
    assert_eq!(dots.tables[0].file, "dots-3x3.tb");
    assert!(!dots.tables[0].present);
    // `tbquery --help` names every game too.
    let help = text(&tbquery(dir.path(), &["--help"], "").stdout);
    for id in registry {
        assert!(help.contains(&format!("  {id} ")), "{id}: {help}");
    }
}

#[test]
fn a_table_of_another_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    std::fs::rename(dir.path().join("euler.tb"), dir.path().join("lgame.tb")).unwrap();
    let out = tbquery(dir.path(), &["probe", "lgame", "oyy./.xy./.xy./.xxo"], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("lgame.tb: table's game is 'euler', expected 'lgame'"),
        "{err}"
    );
}

#[test]
fn line_gives_perfect_play_as_text_json_and_pgn() {
    let dir = tempfile::tempdir().unwrap();
    common::generate(dir.path(), "chess", &[("materials", "KQvK")]);
    let fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    let out = tbquery(dir.path(), &["line", "chess", fen], "");
    let said = text(&out.stdout);
    assert!(
        said.contains("11 plies of perfect play (the game is over):"),
        "{said}"
    );
    assert!(said.contains("Qb2#  mate in 1 (1 ply)"), "{said}");
    let out = tbquery(dir.path(), &["line", "chess", fen, "--json"], "");
    let line: query::answer::LineAnswer = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line.line.len(), 11);
    let out = tbquery(dir.path(), &["line", "chess", fen, "--pgn"], "");
    let pgn = text(&out.stdout);
    assert!(
        pgn.contains("[FEN \"8/8/8/8/8/2k5/8/KQ6 w - - 0 1\"]") && pgn.contains("6. Qb2# 1-0"),
        "{pgn}"
    );
    let out = tbquery(dir.path(), &["line", "nim", "3 4 5", "--pgn"], "");
    assert!(text(&out.stderr).contains("nim has no game record format"));
}
