//! Generation over MPI writes the tables of a single process, byte for byte:
//! `cargo test --release -p generator --features mpi --test mpi`. It needs
//! Open MPI's `mpirun` (`scripts/install-mpi.sh` installs it; `.ci/run` says
//! loudly when it cannot and skips these tests).
#![cfg(feature = "mpi")]

use games::spec::{Options, Purpose};
use generator::{Progress, WriteOptions, generate_game};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Every file of a folder, by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect()
}

/// The tables one process makes of `id` with `options`, reproducibly.
fn alone(id: &str, options: &[(&str, &str)], dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let options = Options::with(Purpose::Generate, options.iter().copied());
    let write = WriteOptions {
        reproducible: true,
        ..WriteOptions::new(dir)
    };
    generate_game(id, &options, &write, &Progress::hidden()).unwrap();
    files(dir)
}

/// Runs `tbgen args` on `ranks` ranks, one thread each; returns what rank 0 printed.
fn mpirun(ranks: usize, args: &[&str]) -> String {
    let out = Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(ranks.to_string())
        .arg(env!("CARGO_BIN_EXE_tbgen"))
        .args(args)
        .args(["--threads", "1", "--reproducible"])
        .output()
        .expect("mpirun runs (scripts/install-mpi.sh installs Open MPI)");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "mpirun -np {ranks} tbgen {args:?}: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn abapa_tiers_shared_out_over_ranks_are_the_single_process_tables() {
    let plain = tempfile::tempdir().unwrap();
    let expected = alone("abapa", &[("max-seeds", "14")], plain.path());
    assert_eq!(expected.len(), 15);
    for ranks in [1, 2, 3] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let printed = mpirun(ranks, &["abapa", "--max-seeds", "14", "--dir", d]);
        assert_eq!(printed.lines().count(), 16, "{printed}");
        let made = files(dir.path());
        assert_eq!(
            made.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>()
        );
        for (name, bytes) in &expected {
            assert!(made[name] == *bytes, "{ranks} ranks: {name} differs");
        }
    }
}

#[test]
fn chess_endings_handed_to_ranks_are_the_single_process_tables() {
    let plain = tempfile::tempdir().unwrap();
    alone("chess", &[("all", "4"), ("metric", "dtm")], plain.path());
    let expected = alone("chess", &[("all", "4"), ("metric", "dtz")], plain.path());
    // 25 pawnless endings and 11 with pawns (KPvK to KPPvK), promotions reading
    // tables of as many pieces: the ranks take them level by level; DTM and
    // DTZ with its WDL50 table beside it, as tbgen makes them unless told which.
    assert_eq!(expected.len(), 108);
    let dir = tempfile::tempdir().unwrap();
    let printed = mpirun(
        2,
        &["chess", "--all", "4", "--dir", dir.path().to_str().unwrap()],
    );
    assert!(printed.contains("108 tables"), "{printed}");
    assert!(files(dir.path()) == expected);
}

/// A stopped run's sound tables are kept; a missing, truncated or damaged one is
/// made again.
#[test]
fn a_resumed_run_keeps_sound_tables_and_remakes_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mpirun(2, &["abapa", "--max-seeds", "10", "--dir", d]);
    let before = files(dir.path());
    let kept = dir.path().join("abapa-5seeds.tb");
    let kept_at = std::fs::metadata(&kept).unwrap().modified().unwrap();
    std::fs::remove_file(dir.path().join("abapa-10seeds.tb")).unwrap();
    let truncated = dir.path().join("abapa-8seeds.tb");
    let mut bytes = std::fs::read(&truncated).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&truncated, bytes).unwrap();
    // A byte changed inside a block: the header still reads, the block does not.
    let damaged = dir.path().join("abapa-9seeds.tb");
    let mut bytes = std::fs::read(&damaged).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&damaged, bytes).unwrap();
    mpirun(2, &["abapa", "--max-seeds", "10", "--dir", d, "--resume"]);
    assert!(files(dir.path()) == before);
    assert_eq!(
        std::fs::metadata(&kept).unwrap().modified().unwrap(),
        kept_at
    );
}
