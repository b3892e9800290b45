//! Shared set-up: generate tables into a temporary folder.
// Each test file uses only some of these helpers.
#![allow(dead_code)]

use games::dots::Dots;
use generator::{Progress, WriteOptions, generate_layered, generate_retrograde};
use std::path::Path;

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
