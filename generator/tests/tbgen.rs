//! The `tbgen` command as a user runs it.

use std::path::Path;
use std::process::Command;

fn tbgen(dir: &Path, args: &[&str]) -> std::process::Output {
    let output = Command::new(env!("CARGO_BIN_EXE_tbgen"))
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("tbgen runs");
    assert!(output.status.success(), "tbgen {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

#[test]
fn euler_table_bytes_do_not_depend_on_thread_count() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    tbgen(one.path(), &["euler", "--threads", "1", "--reproducible"]);
    tbgen(two.path(), &["euler", "--threads", "2", "--reproducible"]);
    let a = std::fs::read(one.path().join("euler.tb")).unwrap();
    let b = std::fs::read(two.path().join("euler.tb")).unwrap();
    assert!(!a.is_empty());
    assert!(a == b, "euler.tb differs between 1 and 2 threads");
}

#[test]
fn all_writes_every_default_table_and_a_summary_line() {
    let dir = tempfile::tempdir().unwrap();
    let output = tbgen(dir.path(), &["all"]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("euler.tb: 65536 positions"), "{stdout}");
    assert!(dir.path().join("euler.tb").exists());
    // Nothing but the finished tables: no temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec!["euler.tb"]);
}

#[test]
fn zero_threads_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tbgen"))
        .args(["euler", "--threads", "0", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--threads must be at least 1"));
}
