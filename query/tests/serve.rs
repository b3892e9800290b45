//! The HTTP server, with real requests on loopback.

mod common;

use common::start;
use std::net::SocketAddr;

/// GET a path; returns the status and the JSON body.
fn get(addr: SocketAddr, path: &str) -> (u16, serde_json::Value) {
    let (status, _, body) = get_text(addr, path);
    (
        status,
        serde_json::from_str(&body).unwrap_or(serde_json::Value::String(body)),
    )
}

#[test]
fn answers_probes_and_refuses_bad_requests_with_the_right_status() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let addr = start(dir.path());

    let (status, body) = get(addr, "/api/v1/euler?position=xxxx/xxxx/xxxx/xx..");
    assert_eq!(status, 200);
    assert_eq!(
        (body["value"].as_str(), body["distance"].as_u64()),
        (Some("win"), Some(2))
    );
    assert_eq!(body["moves"][0]["move"], "c4");

    let (status, body) = get(addr, "/api/v1/euler?position=..../..../....");
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("expected 4 rows"),
        "{body}"
    );

    let (status, body) = get(addr, "/api/v1/euler");
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("position"),
        "{body}"
    );

    let (status, body) = get(addr, "/api/v1/checkers?position=x");
    assert_eq!(status, 404);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("unknown game 'checkers'"),
        "{body}"
    );

    let (status, body) = get(addr, "/health");
    assert_eq!((status, &body["status"]), (200, &"ok".into()));

    let (status, body) = get(addr, "/api/v1/games");
    assert_eq!(status, 200);
    assert_eq!(body["games"][0]["game"], "euler");
    assert_eq!(body["games"][0]["tables"][0]["present"], true);
    assert_eq!(body["games"][0]["start"], "..../..../..../....");
    // Every game of the registry, in its order.
    let ids: Vec<&str> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    let registry: Vec<&str> = games::registry::entries().iter().map(|e| e.id).collect();
    assert_eq!(ids, registry);

    let (status, body) = get(addr, "/api/v1/euler?position=start");
    assert_eq!((status, body["value"].as_str()), (200, Some("loss")));
    let (status, body) = get(addr, "/api/v1/euler?position=start&size=3x3");
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("euler has no option --size"),
        "{body}"
    );

    let (status, body) = get(addr, "/");
    assert_eq!(status, 200);
    assert!(body.as_str().unwrap().contains("<title>tbquery</title>"));
}

#[test]
fn dots_board_sizes_are_chosen_by_query() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_dots(dir.path(), &["1x2"]);
    let addr = start(dir.path());
    let (status, body) = get(addr, "/api/v1/dots?size=1x2&position=1010/100");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["variant"].as_str(), body["score"].as_i64()),
        (Some("1x2"), Some(2))
    );
    assert_eq!(body["moves"][0]["moves_again"], true);
    let (status, body) = get(addr, "/api/v1/dots?size=5x5&position=0");
    assert_eq!(status, 400, "{body}");
    let (status, body) = get(addr, "/api/v1/dots?size=2x2&position=000000000000");
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("dots-2x2.tb"),
        "{body}"
    );
}

#[test]
fn missing_table_is_503_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(dir.path());
    let (status, body) = get(addr, "/api/v1/euler?position=..../..../..../....");
    assert_eq!(status, 503);
    assert!(
        body["error"].as_str().unwrap().contains("euler.tb"),
        "{body}"
    );
    let (_, games) = get(addr, "/api/v1/games");
    assert_eq!(games["games"][0]["tables"][0]["present"], false);
}

/// GET a path as text: the status, the content type and the body.
fn get_text(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut response = agent.get(&format!("http://{addr}{path}")).call().unwrap();
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, response.body_mut().read_to_string().unwrap())
}

#[test]
fn the_page_api_gives_lines_records_views_statistics_and_batches() {
    let dir = tempfile::tempdir().unwrap();
    common::generate(dir.path(), "chess", &[("materials", "KQvK")]);
    common::generate_euler(dir.path());
    let addr = start(dir.path());
    let fen = "8/8/8/8/8/2k5/8/KQ6%20w%20-%20-%200%201";

    // The line of perfect play: 11 plies to checkmate, as JSON and as PGN.
    let (status, line) = get(addr, &format!("/api/v1/chess/line?position={fen}"));
    assert_eq!(status, 200, "{line}");
    let steps = line["line"].as_array().unwrap();
    assert_eq!(steps.len(), 11);
    assert_eq!(
        (steps[0]["move"].as_str(), steps[0]["distance"].as_u64()),
        (Some("Qe4"), Some(11))
    );
    assert!(steps[10]["move"].as_str().unwrap().ends_with('#'), "{line}");
    assert_eq!(line["end"], "the game is over");
    let (status, kind, pgn) = get_text(
        addr,
        &format!("/api/v1/chess/line?position={fen}&format=pgn"),
    );
    assert_eq!(status, 200);
    assert!(kind.contains("pgn"), "{kind}");
    assert!(
        pgn.contains("[SetUp \"1\"]") && pgn.contains("[FEN \"8/8/8/8/8/2k5/8/KQ6 w - - 0 1\"]")
    );
    assert!(
        pgn.contains("1. Qe4 ") && pgn.trim_end().ends_with("1-0"),
        "{pgn}"
    );
    let (status, _) = get(addr, "/api/v1/euler/line?position=start&format=pgn");
    assert_eq!(status, 400);

    // The page's view: the board, the value in words, every move with its places.
    let (status, view) = get(addr, &format!("/api/v1/chess/view?position={fen}&last=b1"));
    assert_eq!(status, 200);
    assert_eq!(view["said"], "White mates in 6");
    assert!(view["board"].as_str().unwrap().starts_with("<svg"));
    let qe4 = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "Qe4")
        .unwrap();
    assert_eq!(qe4["places"], serde_json::json!([[["b1"], ["e4"]]]));
    assert_eq!(qe4["said"], "mate in 6 (11 plies)");
    let (status, view) = get(
        addr,
        "/api/v1/chess/view?position=8/8/8/8/8/8/8/KQ6%20w%20-%20-%200%201",
    );
    // An illegal position is refused as every route refuses one, and drawn,
    // with the reason.
    assert_eq!(status, 400, "{view}");
    assert!(
        view["error"]
            .as_str()
            .unwrap()
            .contains("Black has 0 kings")
    );
    assert!(
        view["board"]
            .as_str()
            .unwrap()
            .contains("data-place=\"h8\"")
    );
    // Castling rights are refused the same way, the board drawn without them,
    // and the editor's first touch drops them.
    let castling = "r3k3/8/8/8/8/8/8/R3K3%20w%20Qq%20-%200%201";
    let (status, view) = get(addr, &format!("/api/v1/chess/view?position={castling}"));
    assert_eq!(status, 400, "{view}");
    assert!(
        view["error"]
            .as_str()
            .unwrap()
            .contains("castling rights 'Qq'")
    );
    let board = view["board"].as_str().unwrap();
    assert!(board.contains("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "{board}");
    let (status, edited) = get(
        addr,
        &format!("/api/v1/chess/edit?position={castling}&tool=turn&place="),
    );
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["position"], "r3k3/8/8/8/8/8/8/R3K3 b - - 0 1");

    // Editing, a typed move, the computer's move.
    let (_, edited) = get(
        addr,
        &format!("/api/v1/chess/edit?position={fen}&place=c3&tool=clear"),
    );
    assert_eq!(edited["position"], "8/8/8/8/8/8/8/KQ6 w - - 0 1");
    let (status, made) = get(
        addr,
        &format!("/api/v1/chess/move?position={fen}&move=b1e4"),
    );
    assert_eq!(
        (status, made["move"].as_str()),
        (200, Some("Qe4")),
        "UCI is understood"
    );
    let (status, bad) = get(addr, &format!("/api/v1/chess/move?position={fen}&move=Qh9"));
    assert_eq!(status, 400, "{bad}");
    let (status, chosen) = get(addr, &format!("/api/v1/chess/computer?position={fen}"));
    assert_eq!(
        (status, chosen["move"]["move"].as_str()),
        (200, Some("Qe4"))
    );

    // Statistics: counts and a histogram of values, from the table itself.
    let (status, stats) = get(addr, "/api/v1/chess/stats");
    assert_eq!(status, 200);
    let kqk = stats["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tier"] == "KQvK")
        .unwrap();
    assert_eq!(kqk["summary"]["positions"], 46137);
    let histogram = kqk["histogram"].as_array().unwrap();
    let wins_in_19: u64 = histogram
        .iter()
        .filter(|pair| pair[0] == "win 19")
        .map(|pair| pair[1].as_u64().unwrap())
        .sum();
    assert!(wins_in_19 > 0, "{histogram:?}");
    let counted: u64 = histogram.iter().map(|pair| pair[1].as_u64().unwrap()).sum();
    assert_eq!(counted, 46137);

    // A batch: one JSON line per line of the body, in order, errors included.
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let body = "\"xxxx/xxxx/x.../x...\"\nnot json\n{\"position\": \"start\"}\n\"bad\"\n";
    let mut response = agent
        .post(&format!("http://{addr}/api/v1/euler"))
        .send(body)
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let lines: Vec<serde_json::Value> = response
        .body_mut()
        .read_to_string()
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["distance"], 4);
    assert!(lines[1]["error"].as_str().unwrap().contains("not JSON"));
    assert_eq!(lines[1]["position"], "not json");
    assert_eq!(lines[2]["distance"], 13);
    assert_eq!(lines[3]["position"], "bad");
    assert!(
        lines[3]["error"]
            .as_str()
            .unwrap()
            .contains("expected 4 rows")
    );
    let (status, _, page) = get_text(addr, "/app.js");
    assert_eq!(status, 200);
    assert!(page.contains("function render()"));
}

/// The computer's move below level 10 and by a chosen search; settings a game
/// cannot use, or searches too deep to answer quickly, are refused.
#[test]
fn the_computer_plays_at_a_level_and_searches_as_asked() {
    let dir = tempfile::tempdir().unwrap();
    common::generate(dir.path(), "nim", &[]);
    common::generate(dir.path(), "abapa", &[("max-seeds", "6")]);
    let addr = start(dir.path());
    // 3 4 5 is won: perfect play takes 2 from the first heap; level 0 never
    // does, whatever the seed.
    let (status, body) = get(addr, "/api/v1/nim/computer?position=3+4+5");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["move"]["move"], "h1-2");
    for seed in 0..5 {
        let (status, body) = get(
            addr,
            &format!("/api/v1/nim/computer?position=3+4+5&level=0&seed={seed}"),
        );
        assert_eq!(status, 200, "{body}");
        assert_ne!(body["move"]["move"], "h1-2");
        assert_eq!(body["note"], "a deliberate mistake, at level 0");
    }
    let (status, body) = get(
        addr,
        "/api/v1/abapa/computer?position=start&algorithm=negamax&depth=3",
    );
    assert_eq!(status, 200, "{body}");
    assert!(
        body["note"]
            .as_str()
            .unwrap()
            .contains("negamax to 3 plies"),
        "{body}"
    );
    for (path, says) in [
        ("nim/computer?position=3+4+5&level=11", "takes 0 to 10"),
        (
            "nim/computer?position=3+4+5&algorithm=minimax",
            "never searches",
        ),
        (
            "abapa/computer?position=start&algorithm=minimax&depth=14",
            "takes 1 to 10 plies with minimax",
        ),
        (
            "abapa/computer?position=start&algorithm=best",
            "minimax, negamax or alphabeta",
        ),
    ] {
        let (status, body) = get(addr, &format!("/api/v1/{path}"));
        assert_eq!(status, 400, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{path}: {body}"
        );
    }
}

/// The lichess tablebase API: `/standard?fen=` with underscores for spaces, in
/// lila-tablebase's shape; a bad FEN is a 400 that says why.
#[test]
fn answers_the_lichess_tablebase_api() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(dir.path(), "KRvK");
    let addr = start(dir.path());
    let (status, body) = get(addr, "/standard?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["category"], &body["dtz"], &body["dtm"]),
        (&"win".into(), &1.into(), &1.into())
    );
    let mate = &body["moves"][0];
    assert_eq!(
        (&mate["uci"], &mate["san"]),
        (&"h1h8".into(), &"Rh8#".into())
    );
    assert_eq!(
        (&mate["category"], &mate["checkmate"]),
        (&"loss".into(), &true.into())
    );
    assert!(mate["dtm"].is_null() && mate["dtw"].is_null(), "{mate}");

    let (status, body) = get(addr, "/standard?fen=k7/8/1K6/8");
    assert_eq!(status, 400, "{body}");

    // `dtc` is checked as lila checks it; there are no DTC tables.
    let fen = "k7/8/1K6/8/8/8/8/7R_w_-_-_0_1";
    let (status, body) = get(addr, &format!("/standard?fen={fen}&dtc=auxiliary"));
    assert_eq!((status, &body["dtc"]), (200, &serde_json::Value::Null));
    let (status, body) = get(addr, &format!("/standard?fen={fen}&dtc=bogus"));
    assert_eq!(status, 400, "{body}");
    // An en passant square no double step left is dropped, as lila drops it.
    let (status, body) = get(addr, "/standard?fen=k7/8/1K6/8/8/8/8/7R_w_-_e3_0_1");
    assert_eq!((status, &body["dtz"]), (200, &1.into()), "{body}");
    // A mainline of a position the tables do not hold: 404, as lila answers.
    let (status, body) = get(
        addr,
        "/standard/mainline?fen=k7/8/1K6/8/8/8/8/6QR_w_-_-_0_1",
    );
    assert_eq!(status, 404, "{body}");
    // Castling rights, as lila answers them: 200, every move listed, castling
    // included; a position after a move that leaves a right is unknown, one
    // that leaves none is probed. A right whose rook is not at home (K) is
    // dropped; a mainline with rights is 404.
    let (status, body) = get(addr, "/standard?fen=4k3/8/8/8/8/8/8/R3K3_w_KQ_-_0_1");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["category"], &body["dtz"], &body["dtm"]),
        (
            &"win".into(),
            &serde_json::Value::Null,
            &serde_json::Value::Null
        ),
        "{body}"
    );
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10 + 5 + 1, "{body}");
    let castle = moves.iter().find(|m| m["uci"] == "e1c1").unwrap();
    assert_eq!(
        (&castle["san"], &castle["category"], &castle["zeroing"]),
        (&"O-O-O".into(), &"loss".into(), &false.into()),
        "{castle}"
    );
    assert!(castle["dtz"].as_i64().unwrap() < 0, "{castle}");
    let (status, body) = get(addr, "/standard?fen=4k3/8/8/8/8/8/8/R3K3_b_Q_-_0_1");
    assert_eq!(
        (status, &body["category"]),
        (200, &"unknown".into()),
        "{body}"
    );
    let kept = body["moves"].as_array().unwrap();
    assert_eq!(kept.len(), 5, "{body}");
    assert!(
        kept.iter()
            .all(|m| m["category"] == "unknown" && m["dtz"].is_null())
    );
    let (status, body) = get(
        addr,
        "/standard/mainline?fen=4k3/8/8/8/8/8/8/R3K3_w_Q_-_0_1",
    );
    assert_eq!(status, 404, "{body}");
    // CBOR where the client asks for it.
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut response = agent
        .get(&format!("http://{addr}/standard?fen={fen}"))
        .header("Accept", "application/cbor")
        .call()
        .unwrap();
    assert_eq!(response.headers()["content-type"], "application/cbor");
    let bytes = response.body_mut().read_to_vec().unwrap();
    let cbor: serde_json::Value = ciborium::from_reader(bytes.as_slice()).unwrap();
    assert_eq!(
        (&cbor["category"], &cbor["dtm"]),
        (&"win".into(), &1.into())
    );
}

/// The page's view of a chess position gives DTZ beside DTM, each read with the
/// FEN's halfmove clock as lichess's `/standard` reads it (a move's outcome
/// for its player is the opposite of lichess's category after it), carries
/// the clock and the move number on into the positions after each move, and
/// the editor sets the clock, keeping the move number.
#[test]
fn the_view_puts_dtz_beside_dtm_under_the_halfmove_clock() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(dir.path(), "KPvK");
    let addr = start(dir.path());
    let fen = "4k3/8/8/8/8/8/4P3/4K3%20w%20-%20-%2095%2080";
    let (status, view) = get(addr, &format!("/api/v1/chess/view?position={fen}"));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["position"], "4k3/8/8/8/8/8/4P3/4K3 w - - 95 80");
    assert_eq!(view["said"], "White mates in 22");
    assert_eq!(view["clock"]["count"], 95);
    let beside = &view["beside"][0];
    assert_eq!(
        (&beside["option"], &beside["value"]),
        (&"metric".into(), &"dtz".into())
    );
    assert_eq!(
        beside["said"],
        "White wins, 9 plies to a capture or pawn move"
    );
    assert_eq!(beside["verdict"]["outcome"], "cursed-win");
    let (_, lichess) = get(addr, &format!("/standard?fen={fen}"));
    assert_eq!(lichess["category"], "cursed-win");
    let flipped = |category: &str| {
        match category {
            "win" => "loss",
            "loss" => "win",
            "cursed-win" => "blessed-loss",
            "blessed-loss" => "cursed-win",
            other => other,
        }
        .to_string()
    };
    let theirs = lichess["moves"].as_array().unwrap();
    let ours = beside["moves"].as_array().unwrap();
    assert_eq!(ours.len(), theirs.len());
    for theirs in theirs {
        let mine = ours.iter().find(|m| m["move"] == theirs["san"]).unwrap();
        let category = flipped(theirs["category"].as_str().unwrap());
        let outcome = mine["verdict"]["outcome"].as_str().unwrap_or("draw");
        assert_eq!(outcome, category, "{mine} {theirs}");
    }
    // The clock runs on after a king move and restarts after a pawn move.
    let after = |san: &str| {
        let moves = view["moves"].as_array().unwrap();
        let found = moves.iter().find(|m| m["move"] == san).unwrap();
        found["position"].as_str().unwrap().to_string()
    };
    assert_eq!(after("Kd2"), "4k3/8/8/8/8/8/3KP3/8 b - - 96 80");
    assert_eq!(after("e4"), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 80");
    // The editor sets the clock, keeps it through other edits, and refuses
    // one beyond the rule's 100 plies.
    let (status, edited) = get(
        addr,
        &format!("/api/v1/chess/edit?position={fen}&tool=clock&place=30"),
    );
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["position"], "4k3/8/8/8/8/8/4P3/4K3 w - - 30 80");
    let (_, edited) = get(
        addr,
        &format!("/api/v1/chess/edit?position={fen}&tool=turn&place="),
    );
    assert_eq!(edited["position"], "4k3/8/8/8/8/8/4P3/4K3 b - - 95 80");
    // Swapped colours and mirrored, the same position: the same value.
    for tool in ["swap", "mirror"] {
        let (_, edited) = get(
            addr,
            &format!("/api/v1/chess/edit?position={fen}&tool={tool}&place="),
        );
        let turned = edited["position"].as_str().unwrap().replace(' ', "%20");
        let (status, value) = get(addr, &format!("/api/v1/chess?position={turned}"));
        assert_eq!(status, 200, "{tool}: {value}");
        assert_eq!(
            (&value["value"], &value["distance"]),
            (&"win".into(), &43.into()),
            "{tool}"
        );
    }
    let (status, refused) = get(
        addr,
        &format!("/api/v1/chess/edit?position={fen}&tool=clock&place=101"),
    );
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("halfmove clock"),
        "{refused}"
    );
    // A clock as large as a FEN may write is read at the most the count
    // holds, not obeyed as an amount of work: every win is cursed there.
    let huge = "4k3/8/8/8/8/8/4P3/4K3%20w%20-%20-%204294967295%201";
    let (status, view) = get(addr, &format!("/api/v1/chess/view?position={huge}"));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["clock"]["count"], u16::MAX);
    assert_eq!(view["beside"][0]["verdict"]["outcome"], "cursed-win");
}

/// The icon, the API page, the games' table groups and one table's statistics.
#[test]
fn the_icon_the_api_page_and_one_tables_statistics_are_served() {
    let dir = common::default_tables();
    let addr = start(&dir);
    let (status, kind, icon) = get_text(addr, "/favicon.ico");
    assert_eq!((status, kind.as_str()), (200, "image/svg+xml"));
    assert!(icon.starts_with("<svg"));
    let (status, _, page) = get_text(addr, "/api");
    assert_eq!(status, 200);
    assert!(page.contains("GET /standard?fen=F"));
    let (_, games) = get(addr, "/api/v1/games");
    let chess = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "chess")
        .unwrap();
    let kqvk = chess["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tier"] == "KQvK")
        .unwrap();
    assert_eq!(kqvk["group"], "3 pieces");
    let (status, stats) = get(addr, "/api/v1/chess/stats?tier=KQvK");
    assert_eq!(status, 200, "{stats}");
    let tables = stats["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0]["summary"]["positions"], 46137);
    // The tables its captures lead to; KvK reads none.
    assert_eq!(tables[0]["reads"], serde_json::json!(["KvK"]));
    let (_, kvk) = get(addr, "/api/v1/chess/stats?tier=KvK");
    assert!(kvk["tables"][0].get("reads").is_none(), "{kvk}");
    let kqvk = "/api/v1/chess/view?position=8/8/8/8/8/2k5/8/KQ6%20w%20-%20-%200%201";
    let (status, flipped) = get(addr, &format!("{kqvk}&flip=yes"));
    let (_, plain) = get(addr, kqvk);
    assert_eq!(status, 200);
    assert_ne!(flipped["board"], plain["board"]);
    let (status, refused) = get(addr, &format!("{kqvk}&flip=maybe"));
    assert_eq!(status, 400, "{refused}");
    let (status, refused) = get(addr, "/api/v1/chess/stats?tier=KQQQQvK");
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("no table of that name")
    );
}

/// The game list counts each game's table files of every variant, by their
/// names: Misère Nim's are not Nim's, and the dots-and-boxes sizes and the
/// Northcott boards made beside the default variant count.
#[test]
fn the_game_list_counts_the_tables_of_every_variant() {
    let dir = tempfile::tempdir().unwrap();
    common::generate(dir.path(), "nim", &[]);
    common::generate(dir.path(), "nim-misere", &[]);
    common::generate_dots(dir.path(), &["2x2", "1x3"]);
    common::generate(dir.path(), "northcott", &[("size", "4x8")]);
    let addr = start(dir.path());
    let (status, body) = get(addr, "/api/v1/games");
    assert_eq!(status, 200);
    let game = |id: &str| {
        body["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["game"] == id)
            .unwrap()
            .clone()
    };
    let made = |id: &str| game(id)["made"].as_u64().unwrap();
    assert_eq!(
        [
            made("nim"),
            made("nim-misere"),
            made("dots"),
            made("northcott")
        ],
        [1, 1, 2, 1]
    );
    assert_eq!(made("euler"), 0);
    // The default variant's own tables are listed as before: dots 3x3's is
    // not made.
    assert_eq!(game("dots")["tables"][0]["present"], false);

    // Every file with its game, size and SHA-256 as `sha256sum` gives it.
    let (status, files) = get(addr, "/api/v1/tables");
    assert_eq!(status, 200, "{files}");
    let listed: Vec<(String, String, u64, String)> = files["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let text = |key: &str| t[key].as_str().unwrap().to_string();
            (
                text("file"),
                text("game"),
                t["bytes"].as_u64().unwrap(),
                text("sha256"),
            )
        })
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let summed = std::process::Command::new("sha256sum")
        .args(&names)
        .current_dir(dir.path())
        .output()
        .expect("sha256sum (coreutils) runs");
    let summed = String::from_utf8(summed.stdout).unwrap();
    let expected: Vec<(String, String)> = summed
        .lines()
        .map(|l| {
            let (sum, name) = l.split_once("  ").unwrap();
            (name.to_string(), sum.to_string())
        })
        .collect();
    let got: Vec<(String, String)> = listed.iter().map(|t| (t.0.clone(), t.3.clone())).collect();
    assert_eq!(got, expected);
    let misere = listed.iter().find(|t| t.0 == "nim-misere.tb").unwrap();
    assert_eq!(misere.1, "nim-misere");
    let size = std::fs::metadata(dir.path().join("nim-misere.tb"))
        .unwrap()
        .len();
    assert_eq!(misere.2, size);
    assert_eq!(files["bytes"], listed.iter().map(|t| t.2).sum::<u64>());
}

/// One unreadable table does not take the statistics of the others with it:
/// it is named with why, and the rest are answered.
#[test]
fn statistics_name_a_table_they_cannot_read_and_answer_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess(dir.path(), &["KRvK"]);
    let krvk = dir.path().join("chess-KRvK.tb");
    let mut bytes = std::fs::read(&krvk).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&krvk, bytes).unwrap();
    let addr = start(dir.path());
    let (status, stats) = get(addr, "/api/v1/chess/stats");
    assert_eq!(status, 200, "{stats}");
    let tables = stats["tables"].as_array().unwrap();
    let table = |tier: &str| tables.iter().find(|t| t["tier"] == tier).unwrap();
    assert_eq!(table("KvK")["summary"]["positions"], 462);
    let broken = table("KRvK");
    assert!(broken["summary"].is_null(), "{broken}");
    assert!(
        broken["error"].as_str().unwrap().contains("chess-KRvK.tb"),
        "{broken}"
    );
}
