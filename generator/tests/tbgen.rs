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
    assert!(
        output.status.success(),
        "tbgen {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn table_bytes_do_not_depend_on_thread_count() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    // One game per solver: layered, retrograde (with cycles), dots, Grundy values.
    let jobs: [&[&str]; 6] = [
        &["euler"],
        &["lgame"],
        &["dots", "--size", "2x3,3x3"],
        &["northcott", "--size", "3x6"],
        &["nim"],
        &["grundy", "--limit", "30"],
    ];
    for (dir, threads) in [(&one, "1"), (&two, "2")] {
        for job in jobs {
            let mut args = job.to_vec();
            args.extend(["--threads", threads, "--reproducible"]);
            tbgen(dir.path(), &args);
        }
    }
    let names = [
        "euler.tb",
        "lgame.tb",
        "dots-2x3.tb",
        "dots-3x3.tb",
        "northcott-3x6.tb",
        "nim.tb",
        "grundy-30.tb",
    ];
    for name in names {
        let a = std::fs::read(one.path().join(name)).unwrap();
        let b = std::fs::read(two.path().join(name)).unwrap();
        assert!(!a.is_empty());
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
}

#[test]
fn all_writes_every_default_table_and_a_summary_line() {
    let dir = tempfile::tempdir().unwrap();
    let output = tbgen(dir.path(), &["all"]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("euler.tb: 65536 positions (win 51734, loss 13802, draw 0)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("lgame.tb: 2296 positions (win 1006, loss 29, draw 1261)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "dots-3x3.tb: 16777216 positions (win 13894652, loss 2335004, draw 547560), longest 9"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("chess-KQvKR.tb: 2467122 positions (win 1494424, loss 885217, draw 87481)"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("abapa-12seeds.tb: 1352078 positions (win 714572, loss 439753, draw 197753)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "chess-KPvK.tb: 165676 positions (win 62480, loss 48802, draw 54394), longest 56"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("93 tables, "), "{stdout}");
    // Nothing but the finished tables: no temporary files are left behind.
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let dots =
        ["1x1", "1x2", "1x3", "1x4", "2x2", "2x3", "2x4", "3x3"].map(|s| format!("dots-{s}.tb"));
    let mut expected: Vec<String> = dots.into();
    expected.extend(
        [
            "building-nim-1heaps",
            "building-nim-2heaps",
            "building-nim-3heaps",
            "building-nim-4heaps",
            "circular-kayles-k2",
            "circular-kayles-k2-misere",
            "dawson",
            "divisor",
            "divisor-misere",
            "end-nim",
            "end-wythoff",
            "euler",
            "fibonacci",
            "game100",
            "game21",
            "game21-course",
            "game21-count",
            "greedy-nim",
            "greedy-nim-misere",
            "grundy",
            "grundy-misere",
            "kayles",
            "lasker",
            "lgame",
            "moore-k2",
            "moore-k3",
            "nim-misere",
            "nim",
            "northcott-4x8",
            "northcott-6x6",
            "northcott-4x8-misere",
            "northcott-6x6-misere",
            "northcott-4x8-both",
            "northcott-6x6-both",
            "pits",
            "poker-nim",
            "subtraction-take3",
            "wythoff",
            "chess-KvK",
            "chess-KQvK",
            "chess-KRvK",
            "chess-KBvK",
            "chess-KNvK",
            "chess-KPvK",
            "chess-KQvKR",
            "chess-dtz-KvK",
            "chess-dtz-KQvK",
            "chess-dtz-KRvK",
            "chess-dtz-KBvK",
            "chess-dtz-KNvK",
            "chess-dtz-KPvK",
            "chess-dtz-KQvKR",
            "chess-wdl-KvK",
            "chess-wdl-KQvK",
            "chess-wdl-KRvK",
            "chess-wdl-KBvK",
            "chess-wdl-KNvK",
            "chess-wdl-KPvK",
            "chess-wdl-KQvKR",
        ]
        .map(|name| format!("{name}.tb")),
    );
    for seeds in 0..=12 {
        expected.push(format!("abapa-{seeds}seeds.tb"));
        expected.push(format!("abapa-thesis-{seeds}seeds.tb"));
    }
    expected.sort();
    assert_eq!(names, expected);
}

#[test]
fn dots_sizes_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tbgen"))
        .args(["dots", "--size", "2x2,5x5", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad variant '5x5'"), "{stderr}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
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
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("'--threads <N>'") && stderr.contains("1..=256"),
        "{stderr}"
    );
}

#[test]
fn unwritable_folder_is_reported_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tbgen"))
        .args(["euler", "--dir"])
        .arg(blocker.join("tables"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("creating the folder"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn absurd_options_are_refused_at_once_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    for (args, reason) in [
        (&["euler", "--threads", "5000"][..], "1..=256"),
        (
            &["grundy", "--limit", "18446744073709551615"],
            "grundy takes a whole number from 1 to 60",
        ),
        (&["grundy", "--limit", "4294967296"], "from 1 to 60"),
        (
            &["abapa", "--max-seeds", "25"],
            "abapa takes a whole number from 0 to 24",
        ),
        (&["chess", "KQRBNvKR"], "at most 6 pieces"),
        (&["chess", "KRPvKRP"], "with pawns (6 without)"),
        (
            &["chess", "KRRvKRR", "--memory", "1"],
            "of memory, and this run can count on 1.0 GB",
        ),
        // A byte and a quarter a slot, and the tables it reads.
        (
            &["chess", "KRRvKRR", "--memory", "4.5"],
            "chess-KRRvKRR.tb (3755372544 slots) needs about 4.8 GB of memory",
        ),
        // Four different pieces: past 2^32 slots, and past 20 GB.
        (
            &["chess", "KRBvKRN", "--memory", "20"],
            "chess-KRNvKRB.tb (15502147584 slots) needs about 20.4 GB of memory",
        ),
        (
            &["chess", "KQvK", "--memory=-5"],
            "a number of gigabytes above 0",
        ),
        (
            &["chess", "KQvK", "--memory", "inf"],
            "a number of gigabytes above 0",
        ),
        (&["northcott", "--size", "8x8"], "beyond the table limit"),
    ] {
        let started = std::time::Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_tbgen"))
            .args(args)
            .arg("--dir")
            .arg(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert_ne!(
            output.status.code(),
            Some(101),
            "{args:?} panicked: {stderr}"
        );
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{args:?} took long"
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_rerun_removes_what_a_killed_generation_left() {
    let dir = tempfile::tempdir().unwrap();
    let leftover = dir.path().join(".euler.tb.Xy12ab.partial");
    std::fs::write(&leftover, b"half a table").unwrap();
    tbgen(dir.path(), &["euler"]);
    assert!(!leftover.exists());
    assert!(dir.path().join("euler.tb").exists());
}

/// A run keeps the sound tables in its folder and makes the missing,
/// truncated and damaged ones again, and those they read: a finished table
/// leaves its captures and promotions to a search, so its codes cannot be
/// read back (KPvK's promotions read KQvK's). The files come out as a fresh
/// run's; a finished run run again writes nothing, unless `--remake`.
#[test]
fn a_run_keeps_sound_tables_and_remakes_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["chess", "KPvK", "--metric", "dtm", "--reproducible"];
    tbgen(dir.path(), &args);
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    let names = ["KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"].map(|e| format!("chess-{e}.tb"));
    let before = names.clone().map(|name| read(&name));
    let written_at = |name: &str| {
        let meta = std::fs::metadata(dir.path().join(name)).unwrap();
        meta.modified().unwrap()
    };
    let at = names.clone().map(|name| written_at(&name));
    let output = tbgen(dir.path(), &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("6 tables (6 kept), 368330 positions"),
        "{stdout}"
    );
    assert!(
        stdout.contains("kept (already made; --remake makes it again)"),
        "{stdout}"
    );
    for (name, at) in names.iter().zip(&at) {
        assert_eq!(written_at(name), *at, "{name} was written again");
    }

    std::fs::remove_file(dir.path().join("chess-KPvK.tb")).unwrap();
    let mut truncated = read("chess-KBvK.tb");
    truncated.truncate(truncated.len() / 2);
    std::fs::write(dir.path().join("chess-KBvK.tb"), truncated).unwrap();
    // A byte changed inside a block: the header still reads, the block does not.
    let mut damaged = read("chess-KRvK.tb");
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x55;
    std::fs::write(dir.path().join("chess-KRvK.tb"), damaged).unwrap();

    let output = tbgen(dir.path(), &[&args[..], &["--resume"]].concat());
    let stdout = String::from_utf8_lossy(&output.stdout);
    for (name, bytes) in names.iter().zip(&before) {
        assert!(read(name) == *bytes, "{name} differs from the fresh run's");
        assert!(
            stdout.contains(name.as_str()),
            "{name} has no summary line: {stdout}"
        );
    }
    // `--resume`, the default before it was one, is still taken; KPvK
    // made again reads every other table, so none is kept.
    assert!(stdout.contains("6 tables, 368330 positions"), "{stdout}");
    assert_ne!(written_at("chess-KQvK.tb"), at[1], "KQvK was kept");

    // `--remake` writes every table again, byte for byte the same.
    let at = names.clone().map(|name| written_at(&name));
    tbgen(dir.path(), &[&args[..], &["--remake"]].concat());
    for ((name, at), bytes) in names.iter().zip(&at).zip(&before) {
        assert_ne!(written_at(name), *at, "{name} was kept");
        assert!(read(name) == *bytes, "{name} differs from the fresh run's");
    }
}

/// A finished DTZ table whose WDL50 table is missing is made again with
/// it, byte for byte as a fresh run makes both; the others are kept.
#[test]
fn a_dtz_table_without_its_wdl50_table_is_made_again() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["chess", "KRvK", "--metric", "dtz", "--reproducible"];
    tbgen(dir.path(), &args);
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    let names = ["chess-dtz-KRvK.tb", "chess-wdl-KRvK.tb", "chess-wdl-KvK.tb"];
    let before = names.map(read);
    std::fs::remove_file(dir.path().join("chess-wdl-KRvK.tb")).unwrap();
    let output = tbgen(dir.path(), &args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("chess-dtz-KRvK.tb: made again, with the WDL50 table"),
        "{stderr}"
    );
    for (name, bytes) in names.iter().zip(&before) {
        assert!(read(name) == *bytes, "{name} differs from the fresh run's");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("chess-wdl-KRvK.tb: "), "{stdout}");
}

/// One run making DTM and DTZ (as it does unless told which) solves both
/// before either leaves its exits (the DTZ solve reads DTM's draws from its
/// draft), and writes, in either order, the tables two runs write one metric
/// after the other; the DTZ tables leave their draws to their WDL50 tables.
#[test]
fn one_run_of_both_metrics_writes_what_two_runs_write() {
    let apart = tempfile::tempdir().unwrap();
    for metric in ["dtm", "dtz"] {
        let args = ["chess", "KRvKB", "--metric", metric, "--reproducible"];
        tbgen(apart.path(), &args);
    }
    let mut names: Vec<String> = std::fs::read_dir(apart.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    // DTM's four, DTZ's four and the WDL50 four beside DTZ's.
    assert_eq!(names.len(), 12, "{names:?}");
    for metrics in ["dtm,dtz", "dtz,dtm", "(not given)"] {
        let together = tempfile::tempdir().unwrap();
        let mut args = vec!["chess", "KRvKB", "--reproducible"];
        if metrics.starts_with('d') {
            args.extend(["--metric", metrics]);
        }
        let printed = String::from_utf8(tbgen(together.path(), &args).stdout).unwrap();
        assert!(printed.contains("12 tables"), "{printed}");
        for name in &names {
            let a = std::fs::read(apart.path().join(name)).unwrap();
            let b = std::fs::read(together.path().join(name)).unwrap();
            assert!(a == b, "{metrics}: {name} differs from two runs'");
        }
        let dtz = tables::Table::open(together.path().join("chess-dtz-KRvKB.tb")).unwrap();
        assert!(
            dtz.header().shared.is_some(),
            "{metrics}: DTZ keeps its draws"
        );
    }
}

/// Not on a terminal (a log, a pipe), progress comes as lines on standard
/// error: each table as its work starts, and its phase. Every tier's
/// exits are marked by its solve, with pawns or without, so no second write
/// searches them (a phase of its own), and no hidden file is left behind.
#[test]
fn progress_is_written_in_lines_where_no_bar_can_be_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let output = tbgen(dir.path(), &["chess", "KPvK", "--metric", "dtm"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    for table in ["KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"] {
        let solving = format!("chess-{table}.tb scans: ");
        assert!(stderr.contains(&solving), "{table}: {stderr}");
    }
    assert!(!stderr.contains(" exits: "), "{stderr}");
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 6, "six tables and nothing else");
}
