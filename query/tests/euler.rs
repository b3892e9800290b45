//! The Euler table checked against live search and against facts worked out by hand.

mod common;

use games::euler::{Euler, SPEC};
use games::{Game, Value};
use query::play::{Ending, Player, Settings, play};
use query::verify::{Selection, verify};
use query::{Oracle, QueryError, Tablebase, probe_text};

fn with_table<T>(f: impl FnOnce(&Tablebase<Euler>) -> T) -> T {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    f(&Tablebase::new(&Euler, dir.path()))
}

fn with_oracle<T>(f: impl FnOnce(&Oracle<Euler>) -> T) -> T {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    f(&common::oracle(&SPEC, &Euler, dir.path()))
}

#[test]
fn whole_table_agrees_with_live_search() {
    with_oracle(|oracle| {
        let report = verify(oracle, Selection::All, None).unwrap();
        assert_eq!(report.checked, 65_536);
        assert_eq!(report.mismatches, Vec::<String>::new());
        let sampled = verify(
            oracle,
            Selection::Samples {
                count: 500,
                seed: 7,
            },
            None,
        )
        .unwrap();
        assert_eq!((sampled.checked, sampled.mismatches.len()), (500, 0));
    });
}

#[test]
fn empty_board_is_lost_for_the_player_to_move_whatever_the_move() {
    with_table(|tb| {
        let answer = probe_text(tb, "..../..../..../....").unwrap();
        assert!(matches!(answer.value, Value::Loss(_)), "{}", answer.value);
        assert_eq!(answer.moves.len(), 48);
        assert!(
            answer
                .moves
                .iter()
                .all(|m| matches!(m.value, Value::Loss(_)))
        );
        assert_eq!(answer.moves[0].value, answer.value);
        // Best first: every move is at least as good as the next.
        for pair in answer.moves.windows(2) {
            assert!(!pair[1].value.better_than(pair[0].value));
        }
    });
}

#[test]
fn small_endings_match_hand_analysis() {
    with_table(|tb| {
        let value = |text: &str| probe_text(tb, text).unwrap().value;
        // The opponent covered the last cell: the player to move has won.
        assert_eq!(value("xxxx/xxxx/xxxx/xxxx"), Value::Win(0));
        // One cell left: cover it and lose.
        assert_eq!(value("xxxx/xxxx/xxxx/xxx."), Value::Loss(1));
        // Two free cells in an edge line: take one, the opponent must take the last.
        assert_eq!(value("xxxx/xxxx/xxxx/xx.."), Value::Win(2));
        // Two free cells no nail covers together: cover one, the opponent the other.
        assert_eq!(value("xxx./xxxx/xxxx/xxx."), Value::Win(2));
        // Three free cells in a row along the bottom edge from the right: c4-d4 leaves
        // one cell (win in 2); taking all three would lose at once.
        let answer = probe_text(tb, "xxxx/xxxx/xxxx/x...").unwrap();
        assert_eq!(answer.value, Value::Win(2));
        assert_eq!(
            answer
                .moves
                .iter()
                .find(|m| m.text == "b4-c4-d4")
                .unwrap()
                .value,
            Value::Loss(1)
        );
    });
}

#[test]
fn json_has_the_documented_shape() {
    with_oracle(|oracle| {
        let answer = oracle.answer_text("xxxx/xxxx/xxxx/xx..", None).unwrap();
        let json = serde_json::to_value(&answer).unwrap();
        let expected = serde_json::json!({
            "game": "euler",
            "position": "xxxx/xxxx/xxxx/xx..",
            "source": "table",
            "value": "win",
            "distance": 2,
            "moves": [
                {"move": "c4", "position": "xxxx/xxxx/xxxx/xxx.", "value": "win", "distance": 2},
                {"move": "d4", "position": "xxxx/xxxx/xxxx/xx.x", "value": "win", "distance": 2},
                {"move": "c4-d4", "position": "xxxx/xxxx/xxxx/xxxx", "value": "loss", "distance": 1},
            ]
        });
        assert_eq!(json, expected);
        // The typed answer reads back as it was written.
        let again: query::answer::PositionAnswer = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(again, answer);
        assert_eq!(
            json.to_string(),
            r#"{"game":"euler","position":"xxxx/xxxx/xxxx/xx..","source":"table","value":"win","distance":2,"moves":[{"move":"c4","position":"xxxx/xxxx/xxxx/xxx.","value":"win","distance":2},{"move":"d4","position":"xxxx/xxxx/xxxx/xx.x","value":"win","distance":2},{"move":"c4-d4","position":"xxxx/xxxx/xxxx/xxxx","value":"loss","distance":1}]}"#
        );
    });
}

#[test]
fn bad_positions_are_refused_with_the_reason() {
    with_table(|tb| {
        for (text, reason) in [
            ("..../..../....", "expected 4 rows"),
            ("..../..../..../...", "row 4 has 3 cells"),
            ("..../..o./..../....", "cell c2 holds 'o'"),
            ("", "expected 4 rows"),
        ] {
            let err = probe_text(tb, text).unwrap_err();
            assert!(matches!(err, QueryError::Input(_)), "{text}: {err}");
            assert!(err.to_string().contains(reason), "{text}: {err}");
        }
    });
}

#[test]
fn play_explains_illegal_moves_and_asks_again() {
    with_oracle(|oracle| {
        let script = "z9\na1-b2\nhint\na1\n";
        let mut output = Vec::new();
        let ending = play(
            oracle,
            Euler.start(),
            Settings::against_computer(Player::Human),
            &mut std::io::Cursor::new(script),
            &mut output,
            None,
        )
        .unwrap();
        let text = String::from_utf8(output).unwrap();
        assert!(text.contains("bad move 'z9'"), "{text}");
        assert!(text.contains("bad move 'a1-b2'"), "{text}");
        assert!(text.contains("48 moves, best first"), "{text}");
        assert!(text.contains("computer plays"), "{text}");
        // Input ran out before the game ended.
        assert_eq!(ending, Ending::Abandoned);
    });
}

#[test]
fn computer_wins_every_game_it_is_not_lost_in() {
    with_oracle(|oracle| {
        // The human starts, which is lost: whatever the human plays, the computer wins.
        let first = |legal: &[(String, Value)]| legal[0].0.clone();
        let middle = |legal: &[(String, Value)]| legal[legal.len() / 2].0.clone();
        let last = |legal: &[(String, Value)]| legal[legal.len() - 1].0.clone();
        for choose in [&first as Chooser, &middle, &last] {
            assert_eq!(play_with(oracle, Player::Human, choose), Ending::Won(1));
        }
        // The computer starts, which is lost: a perfect human wins, and is told so.
        assert_eq!(play_with(oracle, Player::Computer, &first), Ending::Won(1));
    });
}

#[test]
fn the_computer_against_itself_plays_the_table_value() {
    with_oracle(|oracle| {
        let mut output = Vec::new();
        let settings = Settings::new([Player::Computer; 2]);
        let ending = play(
            oracle,
            Euler.start(),
            settings,
            &mut std::io::empty(),
            &mut output,
            None,
        );
        // The empty board is lost for the first player, in 13 plies.
        assert_eq!(ending.unwrap(), Ending::Won(1));
        let said = String::from_utf8(output).unwrap();
        assert_eq!(said.matches(" plays ").count(), 13, "{said}");
    });
}

/// A scripted human: picks a move from the moves with their values, best first.
type Chooser<'a> = &'a dyn Fn(&[(String, Value)]) -> String;

/// Plays a whole game against a human who picks `choose(moves, best first)`.
/// The game is replayed from the start with one more human move each round; the
/// computer's choices are deterministic, so every replay follows the same line.
fn play_with(oracle: &Oracle<Euler>, first: Player, choose: Chooser) -> Ending {
    let start = Euler.start();
    let settings = Settings::against_computer(first);
    let mut script = String::new();
    loop {
        let mut output = Vec::new();
        let input = &mut std::io::Cursor::new(script.clone().into_bytes());
        let ending = play(oracle, start, settings, input, &mut output, None).unwrap();
        if ending != Ending::Abandoned {
            return ending;
        }
        let board = last_board(&String::from_utf8(output).unwrap());
        let answer = query::probe(&oracle.tb, &board).unwrap();
        let moves: Vec<(String, Value)> = answer
            .moves
            .iter()
            .map(|m| (m.text.clone(), m.value))
            .collect();
        script.push_str(&choose(&moves));
        script.push('\n');
    }
}

/// Reads the last drawn board back from play's output.
fn last_board(text: &str) -> u16 {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().rposition(|l| l.trim() == "a b c d").unwrap();
    let rows: Vec<String> = lines[header + 1..header + 5]
        .iter()
        .map(|l| l[3..].replace(' ', ""))
        .collect();
    Euler.parse_position(&rows.join("/")).unwrap()
}
