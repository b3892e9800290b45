//! Chess endings: published longest mates, probes by FEN with every move, pawns,
//! promotions and en passant, and verify.

mod common;

use common::{tbquery, text};
use games::Game;

#[test]
fn longest_mates_and_a_probe_by_fen() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess(dir.path(), &["KQvK", "KRvK", "KBNvK", "KBBvK"]);
    let info = text(&tbquery(dir.path(), &["info"], "").stdout);
    // Published: KQ vs K mates in at most 10 moves, KR vs K in at most 16, KBN
    // vs K in at most 33, KBB vs K in at most 19.
    assert!(info.contains("chess-KQvK.tb"), "{info}");
    let longest = |table: &str| {
        let block = info.split(table).nth(1).unwrap();
        let white = block.lines().find(|l| l.contains("white to move")).unwrap();
        let longest = white.split("longest mate ").nth(1).unwrap();
        longest.split(',').next().unwrap().to_string()
    };
    assert_eq!(longest("chess-KQvK.tb"), "10 moves");
    assert_eq!(longest("chess-KRvK.tb"), "16 moves");
    assert_eq!(longest("chess-KBNvK.tb"), "33 moves");
    assert_eq!(longest("chess-KBBvK.tb"), "19 moves");

    let out = tbquery(
        dir.path(),
        &["probe", "chess", "8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "--json"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (json["value"].as_str(), json["distance"].as_u64()),
        (Some("win"), Some(11))
    );
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 21);
    assert_eq!(moves[0]["move"], "Qe4");
    assert_eq!(moves[0]["uci"], "b1e4");
    // Win in 11 plies: mate in 6 moves.
    assert_eq!(
        (json["dtm_moves"].as_u64(), moves[0]["dtm_moves"].as_u64()),
        (Some(6), Some(6))
    );
    // The queen given away: the king takes it and only kings are left.
    let given = moves.iter().find(|m| m["move"] == "Qb3+").unwrap();
    assert_eq!(given["value"], "draw");

    // The same position with the colours swapped reads the same table.
    let out = tbquery(
        dir.path(),
        &["probe", "chess", "kq6/8/2K5/8/8/8/8/8 b - - 0 1", "--json"],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (json["value"].as_str(), json["distance"].as_u64()),
        (Some("win"), Some(11))
    );

    for (fen, why) in [
        // A pawn ending whose table was not made is named with its command.
        ("8/8/8/8/8/2k5/P7/KQ6 w - - 0 1", "tbgen chess KQPvK"),
        (
            "8/8/8/8/8/2k5/8/KQ5P w - - 0 1",
            "pawns never stand on the first or last rank",
        ),
        ("8/8/8/8/8/1Qk5/8/K7 w - - 0 1", "in check"),
        ("7k/8/8/8/8/8/8/KQBNRR2 w - - 0 1", "at most 6 pieces"),
        ("7k/8/8/8/8/8/P7/KQ2NR2 w - - 0 1", "with pawns (6 without)"),
        // A six-piece ending is named with its command like any other.
        ("7k/8/8/8/8/8/8/KQ2NR1r w - - 0 1", "tbgen chess KQRNvKR"),
    ] {
        let out = tbquery(dir.path(), &["probe", "chess", fen], "");
        assert!(!out.status.success());
        assert!(
            text(&out.stderr).contains(why),
            "{fen}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn verify_checks_every_slot_and_catches_a_changed_value() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess(dir.path(), &["KRvK"]);
    let out = tbquery(
        dir.path(),
        &["verify", "chess", "KRvK", "--samples", "300"],
        "",
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    // KvK and KRvK: 462 + 50,015 legal positions, each against its moves.
    assert!(
        said.contains("50477 positions against their moves"),
        "{said}"
    );
    assert!(said.contains(" 0 mismatches"), "{said}");

    // A table not generated is named with the command that makes it.
    let out = tbquery(dir.path(), &["verify", "chess", "KQvK"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("tbgen chess KQvK"),
        "{}",
        text(&out.stderr)
    );

    // One win stored two plies too long: its position, and the positions whose
    // moves lead to it, no longer agree with their moves. (A slot without a
    // position holds whatever compresses best: the game tells which hold one.)
    let krvk = games::chess::material::Material::parse("KRvK").unwrap();
    let game = games::chess::game::Endgame::of_all(&[krvk]);
    let tier = game
        .tiers()
        .into_iter()
        .find(|&t| game.tier_name(t) == "KRvK")
        .unwrap();
    common::change_table(&dir.path().join("chess-KRvK.tb"), |codes| {
        let kind = games::ValueKind::WinLossDraw;
        let (slot, n) = codes
            .iter()
            .enumerate()
            .find_map(|(slot, &c)| match games::Value::from_code(kind, c) {
                Some(games::Value::Win(n))
                    if n > 5 && game.position_at(tier, slot as u64).is_some() =>
                {
                    Some((slot, n))
                }
                _ => None,
            })
            .unwrap();
        codes[slot] = games::Value::Win(n + 2).code();
    });
    let out = tbquery(
        dir.path(),
        &["verify", "chess", "KRvK", "--samples", "10"],
        "",
    );
    let said = text(&out.stdout);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("MISMATCH") && said.contains("its moves say win in"),
        "{said}"
    );
}

/// The value, distance and best move of a probed FEN.
fn probed(dir: &std::path::Path, fen: &str) -> (String, Option<u64>, String, serde_json::Value) {
    let out = tbquery(dir, &["probe", "chess", fen, "--json"], "");
    assert!(out.status.success(), "{fen}: {}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let best = json["moves"][0]["move"].as_str().unwrap_or("").to_string();
    (
        json["value"].as_str().unwrap().to_string(),
        json["distance"].as_u64(),
        best,
        json,
    )
}

/// Endings with pawns: KPvK's published longest mate, a FEN with White's and
/// one with Black's pawn, the four promotions, and en passant changing a
/// position's result and another's distance (the FEN with the en passant square
/// is valued from its moves, that capture included; without it, from the table).
#[test]
fn pawns_promotions_and_en_passant() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess(dir.path(), &["KPvKP"]);
    let dir = dir.path();
    let info = text(&tbquery(dir, &["info"], "").stdout);
    let block = info.split("chess-KPvK.tb").nth(1).unwrap();
    // Published: KP vs K mates in at most 28 moves, with either side to move.
    for side in ["white to move", "black to move"] {
        let line = block.lines().find(|l| l.contains(side)).unwrap();
        assert!(line.contains("longest mate 28 moves"), "{line}");
    }
    // One of the three published positions of White's longest mate (Ka2 Pg2 kb5).
    let (value, distance, ..) = probed(dir, "8/8/8/1k6/8/8/K5P1/8 w - - 0 1");
    assert_eq!((value.as_str(), distance), ("win", Some(55)));

    // The king in front of the pawn, White to move: a draw; every move valued.
    let (value, _, _, json) = probed(dir, "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(value, "draw");
    let moves: Vec<&str> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 6, "{moves:?}");
    assert!(moves.contains(&"e3") && moves.contains(&"e4"), "{moves:?}");
    // The same position seen from Black's side reads the same table.
    let (value, ..) = probed(dir, "4k3/4p3/8/8/4K3/8/8/8 b - - 0 1");
    assert_eq!(value, "draw");

    // Four promotions: queen and rook mate at once, bishop and knight draw.
    let (value, distance, _, json) = probed(dir, "k7/4P3/1K6/8/8/8/8/8 w - - 0 1");
    assert_eq!((value.as_str(), distance), ("win", Some(1)));
    let said = |san: &str| {
        let m = json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == san)
            .unwrap();
        (
            m["value"].as_str().unwrap().to_string(),
            m["uci"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(said("e8=Q#"), ("win".to_string(), "e7e8q".to_string()));
    assert_eq!(said("e8=R#"), ("win".to_string(), "e7e8r".to_string()));
    assert_eq!(said("e8=B"), ("draw".to_string(), "e7e8b".to_string()));
    assert_eq!(said("e8=N"), ("draw".to_string(), "e7e8n".to_string()));

    // En passant turns a loss into a win...
    let (value, distance, best, _) = probed(dir, "1K1k4/8/8/6Pp/8/8/8/8 w - h6 0 1");
    assert_eq!(
        (value.as_str(), distance, best.as_str()),
        ("win", Some(21), "gxh6")
    );
    let (value, distance, ..) = probed(dir, "1K1k4/8/8/6Pp/8/8/8/8 w - - 0 1");
    assert_eq!((value.as_str(), distance), ("loss", Some(32)));
    // ... and shortens another win by a move.
    let (value, distance, best, _) = probed(dir, "8/8/8/3pP3/8/8/8/4K2k w - d6 0 1");
    assert_eq!(
        (value.as_str(), distance, best.as_str()),
        ("win", Some(19), "exd6")
    );
    let (value, distance, ..) = probed(dir, "8/8/8/3pP3/8/8/8/4K2k w - - 0 1");
    assert_eq!((value.as_str(), distance), ("win", Some(21)));
    // An en passant square no capture uses is the position without it.
    let (value, distance, ..) = probed(dir, "8/8/8/3p4/4P3/8/8/4K2k b - e3 0 1");
    let plain = probed(dir, "8/8/8/3p4/4P3/8/8/4K2k b - - 0 1");
    assert_eq!((value, distance), (plain.0, plain.1));

    // Every KPvK position agrees with its moves (KPvKP, where double steps
    // allow en passant, is checked so in the generator's tests).
    let out = tbquery(dir, &["verify", "chess", "KPvK", "--samples", "300"], "");
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(said.contains(" 0 mismatches"), "{said}");
}

/// Published longest mates with pawns, from a play-out of Nalimov's tables
/// (H. Conrady, 2000): KR vs KP's, 85 plies, is the longest of every 4-piece
/// ending, KQ vs KR's (70) and KR vs KN's (80) among those its chain makes.
#[test]
fn the_longest_four_piece_mate_is_the_published_one() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess(dir.path(), &["KRvKP"]);
    let info = text(&tbquery(dir.path(), &["info"], "").stdout);
    let longest: Vec<(&str, u32)> = info
        .lines()
        .filter(|l| l.starts_with("chess-"))
        .map(|l| {
            let plies = l.split("longest ").nth(1).unwrap().split(';').next();
            (
                l.split(':').next().unwrap(),
                plies.unwrap().parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(longest.len(), 11, "{info}");
    let most = longest.iter().max_by_key(|t| t.1).unwrap();
    assert_eq!(*most, ("chess-KRvKP.tb", 85), "{info}");
}

/// The value and distance `probe --metric dtz` gives a FEN.
fn dtz(dir: &std::path::Path, fen: &str) -> (String, Option<u64>) {
    let out = tbquery(
        dir,
        &["probe", "chess", "--metric", "dtz", fen, "--json"],
        "",
    );
    assert!(out.status.success(), "{fen}: {}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["variant"], "dtz");
    (
        json["value"].as_str().unwrap().to_string(),
        json["distance"].as_u64(),
    )
}

/// DTZ tables: plies to the next capture or pawn move, a zeroing move counted
/// by the outcome it leads to, and a distance beyond 100 plies a win the
/// 50-move rule spoils (cursed) or a loss it saves (blessed). The KBNvKN values
/// are Syzygy's as python-chess reads them (108 and -113), one ply longer where
/// its table stores them rounded, as python-chess documents.
#[test]
fn distance_to_zeroing_with_cursed_wins_and_blessed_losses() {
    let dir = tempfile::tempdir().unwrap();
    for material in ["KPvK", "KBNvKN"] {
        let options = [("materials", material), ("metric", "dtz")];
        common::generate(dir.path(), "chess", &options);
    }
    let dir = dir.path();
    // Promoting at once zeroes; Black's king move before it is one ply more.
    assert_eq!(
        dtz(dir, "8/1K5P/8/8/8/8/8/1k6 w - - 0 1"),
        ("win".into(), Some(1))
    );
    assert_eq!(
        dtz(dir, "8/1K5P/8/8/8/8/8/k7 b - - 0 1"),
        ("loss".into(), Some(2))
    );
    assert_eq!(
        dtz(dir, "4B3/6Nk/8/4K3/8/8/n7/8 w - - 0 1"),
        ("win".into(), Some(109))
    );
    assert_eq!(
        dtz(dir, "2N2k2/8/8/6KB/8/8/7n/8 b - - 0 1"),
        ("loss".into(), Some(114))
    );

    let info = text(&tbquery(dir, &["info"], "").stdout);
    let block = info.split("chess-dtz-KBNvKN.tb").nth(1).unwrap();
    let white = block.lines().find(|l| l.contains("white to move")).unwrap();
    assert!(white.contains("(0 blessed); longest DTZ"), "{white}");
    assert!(!white.contains("wins (0 cursed)"), "{white}");
}

/// `tbquery standard` answers a FEN from the command line as lichess's API
/// does: KPvK's win, 9 plies from the pawn's step, is cursed with 95 on the
/// clock, and the step itself zeroes the clock into a draw.
#[test]
fn standard_gives_the_verdict_under_the_fifty_move_rule() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(dir.path(), "KPvK");
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 95 80";
    let out = tbquery(dir.path(), &["standard", fen], "");
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    let words = |line: &str| {
        line.split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let verdict = said.lines().nth(1).unwrap();
    assert_eq!(words(verdict), ["cursed-win", "DTZ", "9", "DTM", "43"]);
    let step = said
        .lines()
        .find(|l| l.trim_start().starts_with("e4 "))
        .unwrap();
    assert_eq!(words(step), ["e4", "draw", "DTZ", "0", "DTM", "0"]);

    let out = tbquery(dir.path(), &["standard", fen, "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&json["category"], &json["dtz"], &json["dtm"]),
        (&"cursed-win".into(), &9.into(), &43.into())
    );
}

/// `probe` says DTZ and the 50-move verdict under DTM where the DTZ tables are
/// present, reading the FEN's halfmove clock.
#[test]
fn probe_says_dtz_beside_dtm_with_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(dir.path(), "KPvK");
    let said = |fen: &str, metric: &str| {
        let out = tbquery(dir.path(), &["probe", "chess", "--metric", metric, fen], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let early = said("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "dtm");
    assert!(early.contains("value: mate in 22 (43 plies)\nDTZ: White wins, 9 plies to a capture or pawn move; a win under the 50-move rule\n"), "{early}");
    let late = said("4k3/8/8/8/8/8/4P3/4K3 w - - 95 80", "dtm");
    assert!(late.contains("DTZ: White wins, 9 plies to a capture or pawn move; a cursed win: the 50-move rule draws it with 95 on the clock\n"), "{late}");
    let by_dtz = said("4k3/8/8/8/8/8/4P3/4K3 w - - 95 80", "dtz");
    assert!(
        by_dtz.contains("value: win in 9\nDTM: White mates in 22\n"),
        "{by_dtz}"
    );
}

/// A DTZ table leaves its draws to the WDL50 table written beside it (a draw
/// without the 50-move rule is one with it), so the two answer without DTM's,
/// as Syzygy's files do: every position's outcome is the one DTM's table,
/// made apart, gives; the same whether DTZ was made beside DTM's tables or
/// without them; and where the WDL50 table is missing, a probe says which file
/// it needs.
#[test]
fn dtz_reads_its_draws_from_its_wdl50_table() {
    let beside = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(beside.path(), "KRvKB");
    let alone = tempfile::tempdir().unwrap();
    common::generate(
        alone.path(),
        "chess",
        &[("materials", "KRvKB"), ("metric", "dtz")],
    );
    assert!(!alone.path().join("chess-KRvKB.tb").exists());
    let (name, wdl_name) = ("chess-dtz-KRvKB.tb", "chess-wdl-KRvKB.tb");
    for dir in [&beside, &alone] {
        let dtz = tables::Table::open(dir.path().join(name)).unwrap();
        let wdl = tables::Table::open(dir.path().join(wdl_name)).unwrap();
        assert_eq!(
            dtz.header().shared,
            Some(tables::Shared {
                variant: "wdl".to_string(),
                code: games::Value::Draw.code(),
                values: wdl.values_crc(),
            })
        );
        assert_eq!(wdl.header().shared, None);
    }
    let material = games::chess::Material::parse("KRvKB").unwrap();
    let dtm_game = games::chess::Endgame::new(&material);
    let game = dtm_game.clone().with_metric(games::chess::Metric::Dtz);
    let tier = game.tiers().into_iter().last().unwrap();
    let values = |game: &games::chess::Endgame, dir: &tempfile::TempDir| {
        let tb = query::Tablebase::new(game, dir.path());
        tb.codes_of_tier(tier).unwrap().to_vec()
    };
    let (left, kept) = (values(&game, &beside), values(&game, &alone));
    let dtm = values(&dtm_game, &beside);
    let outcome = |code: u16| match games::Value::from_code(game.value_kind(), code) {
        Some(games::Value::Win(_)) => 1,
        Some(games::Value::Loss(_)) => -1,
        other => {
            assert_eq!(other, Some(games::Value::Draw));
            0
        }
    };
    let mut draws = 0;
    for slot in 0..game.index_size(tier) {
        if game.position_at(tier, slot).is_some() {
            let at = slot as usize;
            assert_eq!(left[at], kept[at], "slot {slot}");
            assert_eq!(outcome(left[at]), outcome(dtm[at]), "slot {slot}");
            draws += usize::from(left[at] == games::Value::Draw.code());
        }
    }
    assert!(draws > 100_000, "{draws} draws");

    let info = text(&tbquery(beside.path(), &["info"], "").stdout);
    let line = info.lines().find(|l| l.starts_with(name)).unwrap();
    assert!(
        line.contains(&format!("; every draw read from {wdl_name}; ")),
        "{line}"
    );
    // Its fields (the king pair, White's rook, Black's bishop) in the order
    // its writer weighed best, the king pair slowest.
    assert!(
        line.ends_with(" fields (462, 64, 64) stored in the order 0, 1, 2")
            || line.ends_with(" fields (462, 64, 64) stored in the order 0, 2, 1"),
        "{line}"
    );

    // A drawn FEN (the rook cannot win against the bishop) reads the same,
    // the DTM table gone or not.
    let fen = "8/8/8/3k4/8/3b4/8/R3K3 w - - 0 1";
    assert_eq!(dtz(beside.path(), fen), dtz(alone.path(), fen));
    assert_eq!(dtz(beside.path(), fen).0, "draw");
    std::fs::remove_file(beside.path().join("chess-KRvKB.tb")).unwrap();
    assert_eq!(dtz(beside.path(), fen).0, "draw");
    std::fs::remove_file(beside.path().join(wdl_name)).unwrap();
    let out = tbquery(
        beside.path(),
        &["probe", "chess", "--metric", "dtz", fen],
        "",
    );
    let said = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        said.contains(name) && said.contains(wdl_name) && said.contains("make it again"),
        "{said}"
    );
}

/// `verify --metric dtz` checks DTZ tables by their moves and by mate search,
/// which bounds a distance to zeroing: a capture into a long mate is a win in
/// 1 that no search to 7 plies sees, and is no mismatch.
#[test]
fn verify_checks_dtz_tables() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(dir.path(), "KRvKB");
    let out = tbquery(
        dir.path(),
        &[
            "verify",
            "chess",
            "KRvKB",
            "--metric",
            "dtz",
            "--samples",
            "1000",
        ],
        "",
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(said.contains(" 0 mismatches"), "{said}");
}

/// Tables written with their exits left to a search (a slot a capture or a
/// promotion decides stores what compresses best): every position of every
/// table of KRvKB's and KPvK's chains, DTM and DTZ, reads as the solver
/// solved it in memory, though many slots store another code; and so do
/// KRvKB's chain's tables written in the game's own order where that is
/// smaller (`tbgen --game-order`), some of them in it, some not.
#[test]
fn tables_that_leave_their_exits_read_as_solved() {
    for (material, game_order) in [("KRvKB", false), ("KPvK", false), ("KRvKB", true)] {
        let ordered = read_as_solved(
            material,
            common::Written {
                game_order,
                one_side: false,
            },
        );
        match game_order {
            true => assert!(ordered[0] > 0 && ordered[1] > 0, "{ordered:?}"),
            false => assert_eq!(ordered[1], 0),
        }
    }
}

/// Tables that store one side to move (`tbgen --one-side`): every table of
/// KRvKB's and KPvK's chains whose sides to move alternate leaves a lane,
/// and every position, those of the lane left valued by a search of their
/// moves, reads as the solver solved it, DTM and DTZ, in the fields' order
/// and in the game's own.
#[test]
fn tables_of_one_side_to_move_read_as_solved() {
    for (material, game_order) in [("KRvKB", false), ("KPvK", false), ("KRvKB", true)] {
        let written = common::Written {
            game_order,
            one_side: true,
        };
        let ordered = read_as_solved(material, written);
        if game_order {
            assert!(ordered[1] > 0, "{ordered:?}");
        }
    }
}

/// `verify` on tables of one side to move: every position of KRvKB's chain,
/// DTM and DTZ, agrees with its moves and with live mate search (a check
/// the solver has no part in); and a win stored two plies too long in the
/// lane kept is caught.
#[test]
fn verify_checks_tables_of_one_side_to_move() {
    use games::chess::{Endgame, Material, Metric};
    let dir = tempfile::tempdir().unwrap();
    let written = common::Written {
        game_order: false,
        one_side: true,
    };
    common::generate_chess_written(dir.path(), "KRvKB", written);
    let verify = |metric: &str| {
        let args = ["verify", "chess", "KRvKB", "--metric", metric];
        tbquery(dir.path(), &[&args[..], &["--samples", "300"]].concat(), "")
    };
    for metric in ["dtm", "dtz"] {
        let out = verify(metric);
        let said = text(&out.stdout);
        assert!(
            out.status.success(),
            "{metric}: {said}{}",
            text(&out.stderr)
        );
        assert!(said.contains(" 0 mismatches"), "{metric}: {said}");
    }

    let game = Endgame::new(&Material::parse("KRvKB").unwrap()).with_metric(Metric::Dtm);
    let tier = game
        .tiers()
        .into_iter()
        .find(|&t| game.tier_name(t) == "KRvKB")
        .unwrap();
    let path = dir.path().join("chess-KRvKB.tb");
    let tb = query::Tablebase::new(&game, dir.path());
    let header = tb.table(tier).unwrap().header().clone();
    assert!(header.lane_left.is_some());
    // A slot of the lane kept whose stored code is its value (not a slot a
    // capture decides, which may store another).
    let (slot, n) = (0..game.index_size(tier))
        .filter(|&slot| header.holds(slot))
        .find_map(|slot| {
            let board = game.position_at(tier, slot)?;
            let stored = tb.table(tier).unwrap().get(slot).unwrap();
            match tb.value(&board).unwrap() {
                games::Value::Win(n) if n > 5 && stored == games::Value::Win(n).code() => {
                    Some((slot, n))
                }
                _ => None,
            }
        })
        .unwrap();
    drop(tb);
    common::change_table(&path, |codes| {
        codes[slot as usize] = games::Value::Win(n + 2).code()
    });
    let out = verify("dtm");
    let said = text(&out.stdout);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("MISMATCH"), "{said}");
}

/// Checks every position of the tables of `material`'s chain, written as
/// `written` says, against the solver's codes in memory (see the tests
/// above); how many tables store their fields' order and the game's own.
fn read_as_solved(material: &str, written: common::Written) -> [usize; 2] {
    use games::chess::{Endgame, Material, Metric};
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_written(dir.path(), material, written);
    let mut ordered = [0, 0];
    // The WDL50 tables made beside DTZ's read as DTZ's values' categories.
    for metric in [Metric::Dtm, Metric::Dtz, Metric::Wdl] {
        let game = Endgame::new(&Material::parse(material).unwrap()).with_metric(metric);
        let solver = match metric {
            Metric::Wdl => game.clone().with_metric(Metric::Dtz),
            _ => game.clone(),
        };
        let category = |code: u16| match games::Value::from_code(game.value_kind(), code) {
            Some(value) if metric == Metric::Wdl => Metric::wdl50(value).code(),
            _ => code,
        };
        let tb = query::Tablebase::new(&game, dir.path());
        let progress = generator::Progress::hidden();
        let mut solved: Vec<tables::Codes> = Vec::new();
        let (mut elsewhere, mut left) = (0, 0);
        for tier in game.tiers() {
            let codes = generator::chess::solve_tier(&solver, tier, &mut solved, &progress);
            let table = tb.table(tier).unwrap();
            let header = table.header();
            let name = game.tier_name(tier);
            assert_eq!(header.exits, tables::Exits::Searched);
            let one_side = written.one_side && metric != Metric::Wdl;
            let leaves = one_side && game.lanes_alternate(tier);
            assert_eq!(header.lane_left.is_some(), leaves, "{name} {metric:?}");
            ordered[usize::from(header.spelled.is_some())] += 1;
            let stored = table.read_all().unwrap();
            let read = tb.codes_of_tier(tier).unwrap().to_vec();
            for slot in 0..game.index_size(tier) {
                let Some(board) = game.position_at(tier, slot) else {
                    continue;
                };
                let at = slot as usize;
                let code = category(codes.get(slot));
                assert_eq!(read[at], code, "{name} {metric:?} slot {slot}");
                match header.holds(slot) {
                    true => elsewhere += usize::from(stored[at] != code),
                    false => left += 1,
                }
                if slot % 97 == 0 {
                    let value = tb.value(&board).unwrap();
                    assert_eq!(value.code(), code, "{}", board.fen());
                }
            }
            solved.push(codes);
        }
        // Where one side is stored, it may be the side no capture or
        // promotion serves (KPvK's Black to move).
        match written.one_side && metric != Metric::Wdl {
            true => assert!(left > 10_000, "{material} {metric:?}: {left} left"),
            false => {
                assert!(elsewhere > 1000, "{material} {metric:?}: {elsewhere}");
                assert_eq!(left, 0);
            }
        }
    }
    ordered
}
