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
