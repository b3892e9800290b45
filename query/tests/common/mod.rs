//! Shared set-up: generate tables into a temporary folder.
// Each test file uses only some of these helpers.
#![allow(dead_code)]

use generator::{Progress, WriteOptions, generate_layered, generate_retrograde};
use std::path::Path;

pub fn generate_euler(dir: &Path) {
    let options = WriteOptions {
        dir: dir.to_path_buf(),
        reproducible: true,
    };
    generate_layered(&games::euler::Euler, &options, &Progress::hidden()).unwrap();
}

pub fn generate_lgame(dir: &Path) {
    let options = WriteOptions {
        dir: dir.to_path_buf(),
        reproducible: true,
    };
    generate_retrograde(&games::lgame::LGame, &options, &Progress::hidden()).unwrap();
}
