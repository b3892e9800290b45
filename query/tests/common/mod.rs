//! Shared set-up: generate tables into a temporary folder.
// Each test file uses only some of these helpers.
#![allow(dead_code)]

use games::dots::Dots;
use generator::{Progress, WriteOptions, generate_layered, generate_retrograde};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn options(dir: &Path) -> WriteOptions {
    WriteOptions {
        reproducible: true,
        ..WriteOptions::new(dir)
    }
}

pub fn generate_euler(dir: &Path) {
    generate_layered(&games::euler::Euler, &options(dir), &Progress::hidden()).unwrap();
}

pub fn generate_lgame(dir: &Path) {
    generate_retrograde(&games::lgame::LGame, &options(dir), &Progress::hidden()).unwrap();
}

/// Generates the dots-and-boxes boards named like `3x3`.
pub fn generate_dots(dir: &Path, sizes: &[&str]) {
    for size in sizes {
        let board = Dots::parse_size(size).unwrap();
        generator::generate_dots(&board, &options(dir), &Progress::hidden()).unwrap();
    }
}

/// Runs `tbquery` with `args`, `--dir dir` and `stdin` as its input.
pub fn tbquery(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tbquery"))
        .args(args)
        .arg("--dir")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tbquery runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Generates the Nim family, the counting games, pits and the given Northcott
/// boards (`"4x8"`, `"3x6-forward"`), and Grundy tables up to heap 2,000.
pub fn generate_impartial(dir: &Path, northcott: &[&str]) {
    use games::nim::{GAME21, GAME100, Heaps, Rule};
    let progress = Progress::hidden();
    let options = options(dir);
    for rule in [Rule::Nim, Rule::Misere, Rule::Subtract(3)] {
        generate_layered(&Heaps::new(rule), &options, &progress).unwrap();
    }
    generate_layered(&GAME21, &options, &progress).unwrap();
    generate_layered(&GAME100, &options, &progress).unwrap();
    generate_layered(&games::pits::Pits, &options, &progress).unwrap();
    for board in northcott {
        let (size, rules) = match board.split_once('-') {
            Some((size, rules)) => (size, Some(rules)),
            None => (*board, None),
        };
        let game = games::northcott::Northcott::from_variant(Some(size), rules).unwrap();
        generate_retrograde(&game, &options, &progress).unwrap();
    }
    for game in games::grundy::HEAP_GAMES {
        generator::grundy::generate_grundy(game, 2_000, &options).unwrap();
    }
}

/// Generates the chess endings named like `KQvK` and everything below them.
pub fn generate_chess(dir: &Path, materials: &[&str]) {
    use games::endgame::{Endgame, Material};
    let wanted: Vec<Material> = materials
        .iter()
        .map(|m| Material::parse(m).unwrap())
        .collect();
    generator::generate_endgame(
        &Endgame::of_all(&wanted),
        &options(dir),
        &Progress::hidden(),
    )
    .unwrap();
}

/// Generates Abapa tables of 0 to `max_seeds` seeds under both rule sets.
pub fn generate_abapa(dir: &Path, max_seeds: u32) {
    use games::abapa::{Abapa, Rules};
    for rules in [Rules::Default, Rules::Thesis] {
        generator::generate_abapa(
            &Abapa::new(rules, max_seeds),
            &options(dir),
            &Progress::hidden(),
        )
        .unwrap();
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
