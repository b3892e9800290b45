//! A real lichess client against our lichess tablebase API: the `berserk`
//! package from PyPI, `berserk.Client(tablebase_url=...)` pointed at a server
//! this test starts, asking `client.tablebase.standard(fen)` of positions whose
//! answers were checked by hand and against Syzygy's tables through
//! python-chess. `scripts/install-berserk.sh` makes the virtual environment
//! (under the target folder) when it is missing (`.ci/run` and the README's
//! test command run it); without it the test fails naming it, unless
//! `TBQUERY_SKIP_BERSERK=1` says to skip it, loudly.

mod common;

use serde_json::Value as Json;
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python of the virtual environment with berserk that
/// `scripts/install-berserk.sh` makes (under the target folder); the test fails
/// naming it when it is missing, unless `TBQUERY_SKIP_BERSERK=1` says to skip.
fn berserk_python() -> Option<PathBuf> {
    let python = Path::new(env!("CARGO_TARGET_TMPDIR")).join("berserk-venv/bin/python");
    let works = Command::new(&python)
        .args(["-c", "import berserk"])
        .output()
        .is_ok_and(|out| out.status.success());
    if works {
        return Some(python);
    }
    if std::env::var("TBQUERY_SKIP_BERSERK").is_ok_and(|v| v == "1") {
        // Past the test harness, which holds back what eprintln! says.
        let _ = writeln!(
            std::io::stderr().lock(),
            "\n********************************************************************\n\
             SKIPPED (TBQUERY_SKIP_BERSERK=1): the lichess client berserk is not\n\
             installed in {} (scripts/install-berserk.sh makes it)\n\
             ********************************************************************\n",
            python.display()
        );
        return None;
    }
    panic!(
        "the lichess client berserk is not installed in {}: run scripts/install-berserk.sh \
         (README.md), or set TBQUERY_SKIP_BERSERK=1 to skip this test",
        python.display()
    );
}

/// berserk's answers to `fens`, in order.
fn ask(python: &Path, addr: SocketAddr, fens: &[&str]) -> Vec<Json> {
    let program = "import berserk, json, sys\n\
                   client = berserk.Client(tablebase_url=sys.argv[1])\n\
                   print(json.dumps([client.tablebase.standard(f) for f in sys.argv[2:]]))";
    let out = Command::new(python)
        .args(["-c", program, &format!("http://{addr}")])
        .args(fens)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "berserk failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).expect("berserk prints JSON")
}

#[test]
fn berserk_reads_our_lichess_api() {
    let Some(python) = berserk_python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(dir.path(), "KPvK,KRvK");
    let addr = common::start(dir.path());
    let answers = ask(
        &python,
        addr,
        &[
            "k7/8/1K6/8/8/8/8/7R w - - 0 1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 95 80",
            "R6k/8/6K1/8/8/8/8/8 b - - 0 1",
            "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1",
        ],
    );
    let summary = |a: &Json| (a["category"].clone(), a["dtz"].clone(), a["dtm"].clone());
    // Mate in one: Rh8#, the mated side's DTZ -1 and no DTM.
    assert_eq!(summary(&answers[0]), ("win".into(), 1.into(), 1.into()));
    let mate = &answers[0]["moves"][0];
    assert_eq!(
        (&mate["uci"], &mate["san"]),
        (&"h1h8".into(), &"Rh8#".into())
    );
    assert_eq!(summary(mate), ("loss".into(), (-1).into(), Json::Null));
    assert_eq!(mate["checkmate"], true);
    // KPvK: the pawn steps within 9 plies (Syzygy's DTZ 9) and mates in 43;
    // with 95 on the clock the win is cursed, and e4 zeroes it into a draw.
    assert_eq!(summary(&answers[1]), ("win".into(), 9.into(), 43.into()));
    assert_eq!(answers[2]["category"], "cursed-win");
    let e4 = answers[2]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["san"] == "e4");
    let e4 = e4.expect("e4 is a move");
    assert_eq!(
        (&e4["category"], &e4["zeroing"]),
        (&"draw".into(), &true.into())
    );
    // Checkmate on the board.
    assert_eq!(answers[3]["checkmate"], true);
    assert_eq!(answers[3]["category"], "loss");
    assert!(answers[3]["moves"].as_array().unwrap().is_empty());
    // Six pieces: beyond the tables, unknown rather than an error.
    assert_eq!(
        summary(&answers[4]),
        ("unknown".into(), Json::Null, Json::Null)
    );
}
