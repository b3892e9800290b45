//! Pawnless chess endings: published longest mates, a probe by FEN with every move.

mod common;

use common::{tbquery, text};

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
        ("8/8/8/8/8/2k5/P7/KQ6 w - - 0 1", "pawns"),
        ("8/8/8/8/8/1Qk5/8/K7 w - - 0 1", "in check"),
        ("8/8/8/8/8/2k5/8/KQ2NRR1 w - - 0 1", "at most 5 pieces"),
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
    // moves lead to it, no longer agree with their moves.
    common::change_table(&dir.path().join("chess-KRvK.tb"), |codes| {
        let kind = games::ValueKind::WinLossDraw;
        let (slot, n) = codes
            .iter()
            .enumerate()
            .find_map(|(slot, &c)| match games::Value::from_code(kind, c) {
                Some(games::Value::Win(n)) if n > 5 => Some((slot, n)),
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
