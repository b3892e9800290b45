//! Shared set-up: generate tables into a temporary folder, run `tbquery`.
// Each test file uses only some of these helpers.
#![allow(dead_code)]

use games::Game;
use games::spec::{Options, Purpose, Spec};
use generator::{Progress, WriteOptions};
use query::{Library, Oracle};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Generates the tables of game `id` with `options` into `dir`, as `tbgen` does
/// (one variant per call), with reproducible headers.
pub fn generate(dir: &Path, id: &str, options: &[(&str, &str)]) {
    generate_written(dir, id, options, Written::default());
}

/// How [`generate_written`] writes tables beyond [`generate`]'s defaults.
#[derive(Debug, Clone, Copy, Default)]
pub struct Written {
    /// Each table in its game's own order where that is smaller (`tbgen --game-order`).
    pub game_order: bool,
    /// One side to move stored where a table may leave the other (`tbgen --one-side`).
    pub one_side: bool,
}

/// [`generate`], the tables written as `written` says.
fn generate_written(dir: &Path, id: &str, options: &[(&str, &str)], written: Written) {
    let write = WriteOptions {
        reproducible: true,
        game_order: written.game_order,
        one_side: written.one_side,
        ..WriteOptions::new(dir)
    };
    let options = Options::with(Purpose::Generate, options.iter().copied());
    generator::generate_game(id, &options, &write, &Progress::hidden()).unwrap();
}

/// The chess endings `materials` (e.g. `KPvK,KRvK`), and every ending below
/// them, in DTM and in DTZ, in `dir`: what the lichess API and DTZ beside DTM
/// read.
pub fn generate_chess_dtm_and_dtz(dir: &Path, materials: &str) {
    generate_chess_written(dir, materials, Written::default());
}

/// [`generate_chess_dtm_and_dtz`], the tables written as `written` says.
pub fn generate_chess_written(dir: &Path, materials: &str, written: Written) {
    for metric in ["dtm", "dtz"] {
        let options = [("materials", materials), ("metric", metric)];
        generate_written(dir, "chess", &options, written);
    }
}

/// Everything that answers for `game`, reading tables from `dir`.
pub fn oracle<'g, G: Game>(spec: &'static Spec<G>, game: &'g G, dir: &Path) -> Oracle<'g, G> {
    Oracle::new(spec, game, &Library::new(dir))
}

pub fn generate_euler(dir: &Path) {
    generate(dir, "euler", &[]);
}

pub fn generate_lgame(dir: &Path) {
    generate(dir, "lgame", &[]);
}

/// Generates the dots-and-boxes boards named like `3x3`.
pub fn generate_dots(dir: &Path, sizes: &[&str]) {
    for size in sizes {
        generate(dir, "dots", &[("size", size)]);
    }
}

/// Runs `tbquery` with `args`, `--dir dir` and `stdin` as its input.
pub fn tbquery(dir: &Path, args: &[&str], stdin: &str) -> Output {
    tbquery_bytes(dir, args, stdin.as_bytes())
}

/// Runs `tbquery` with raw bytes as its input.
pub fn tbquery_bytes(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tbquery"))
        .args(args)
        .arg("--dir")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tbquery runs");
    // The child may exit before reading its input (a refused option).
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Generates the Nim family, the counting games, pits, the given Northcott
/// boards (`"4x8"`, `"3x6-both"`, `"3x6-misere"`), and the heap games up to 20 in total.
pub fn generate_impartial(dir: &Path, northcott: &[&str]) {
    for id in [
        "nim",
        "nim-misere",
        "subtraction",
        "game21",
        "game100",
        "pits",
    ] {
        generate(dir, id, &[]);
    }
    for rules in ["course", "count"] {
        generate(dir, "game21", &[("rules", rules)]);
    }
    for board in northcott {
        match board.split_once('-') {
            Some((size, "misere")) => {
                generate(dir, "northcott", &[("size", size), ("misere", "yes")])
            }
            Some((size, rules)) => generate(dir, "northcott", &[("size", size), ("rules", rules)]),
            None => generate(dir, "northcott", &[("size", board)]),
        }
    }
    for id in ["kayles", "dawson", "grundy", "lasker"] {
        generate(dir, id, &[("limit", "20")]);
    }
}

/// Generates the chess endings named like `KQvK` and everything below them.
pub fn generate_chess(dir: &Path, materials: &[&str]) {
    generate(dir, "chess", &[("materials", &materials.join(","))]);
}

/// Generates Abapa tables of 0 to `max_seeds` seeds under both rule sets.
pub fn generate_abapa(dir: &Path, max_seeds: u32) {
    let seeds = max_seeds.to_string();
    for rules in ["default", "thesis"] {
        generate(dir, "abapa", &[("rules", rules), ("max-seeds", &seeds)]);
    }
}

/// Rewrites a table file with `change` applied to its codes (header kept), to
/// check that verification notices.
pub fn change_table(path: &Path, change: impl FnOnce(&mut Vec<u16>)) {
    let table = tables::Table::open(path).unwrap();
    let mut codes = table.read_all().unwrap();
    let header = table.header().clone();
    drop(table);
    change(&mut codes);
    tables::write_table_with(path, &header, |i| codes[i as usize], 3).unwrap();
}

/// The `tbgen` binary, built beside `tbquery` (a workspace build makes both).
pub fn tbgen_bin() -> std::path::PathBuf {
    let tbquery = std::path::PathBuf::from(env!("CARGO_BIN_EXE_tbquery"));
    let tbgen = tbquery.with_file_name(format!("tbgen{}", std::env::consts::EXE_SUFFIX));
    if !tbgen.is_file() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "-p", "generator", "--bin", "tbgen"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building tbgen");
    }
    tbgen
}

/// The tables `tbgen all` makes, in the test target's scratch folder: made again
/// when the `tbgen` binary changed since, shared by the test files that need
/// every game (cargo runs test files one after another).
pub fn default_tables() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("default-tables");
        let tbgen = tbgen_bin();
        let built = std::fs::metadata(&tbgen)
            .and_then(|m| m.modified())
            .map(|t| format!("{t:?} {}", tbgen.display()))
            .unwrap_or_default();
        let stamp = dir.join("made-by.txt");
        if std::fs::read_to_string(&stamp).ok().as_deref() != Some(built.as_str()) {
            // Made again whole: tables a former tbgen made are sound, and
            // would be kept, but may lack what this one writes.
            let output = Command::new(&tbgen)
                .args(["all", "--remake", "--dir"])
                .arg(&dir)
                .output()
                .expect("tbgen runs");
            assert!(output.status.success(), "{}", text(&output.stderr));
            std::fs::write(&stamp, &built).unwrap();
        }
        dir
    })
    .clone()
}

/// Starts `tbquery serve`'s router on a free loopback port in the background,
/// answering from the tables in `dir`.
pub fn start(dir: &Path) -> std::net::SocketAddr {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let router = query::serve::router(Library::new(dir));
    std::thread::spawn(move || {
        runtime.block_on(async { axum::serve(listener, router).await.unwrap() })
    });
    addr
}

/// The program `name` on the PATH. When it is missing the test fails, naming
/// it and `install`, the script that installs it; unless the variable `skip`
/// is set to 1, which skips the test, loudly.
pub fn tool(name: &str, install: &str, skip: &str) -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    });
    if found.is_some() {
        return found;
    }
    if std::env::var(skip).is_ok_and(|v| v == "1") {
        // Past the test harness, which holds back what eprintln! says.
        let _ = writeln!(
            std::io::stderr().lock(),
            "\n********************************************************************\n\
             SKIPPED ({skip}=1): `{name}` is not installed ({install} installs it)\n\
             ********************************************************************\n"
        );
        return None;
    }
    panic!(
        "`{name}` is not installed: run {install} (README.md), or set {skip}=1 to skip this test"
    );
}
