//! Shared set-up: generate tables into a temporary folder.

use generator::{Progress, WriteOptions, generate_layered};
use std::path::Path;

pub fn generate_euler(dir: &Path) {
    let options = WriteOptions { dir: dir.to_path_buf(), reproducible: true };
    generate_layered(&games::euler::Euler, &options, &Progress::hidden()).unwrap();
}
