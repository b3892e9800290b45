//! The dots-and-boxes and Abapa solvers against solvers written apart from
//! them in C (`scripts/dots-loop.c`, `scripts/abapa-reference.c`: other rules
//! code, other numbering; dots by a plain loop over every mask, Abapa by moves
//! played forward and turned round where the solver un-sows), on every position
//! of small boards and tiers. `scripts/bench-dots-vs-c.sh` and
//! `scripts/bench-abapa-vs-c.sh` time the same programs on larger ones.

use games::abapa::{Abapa, Rules};
use games::dots::Dots;
use generator::Progress;
use generator::abapa::{solve_abapa, values_hash};
use generator::dots::{scores_hash, solve_dots};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The C program `source` built in `dir` with `cc`. Without a C compiler the
/// test fails naming it, unless `TBGEN_SKIP_C=1` says to skip it, loudly.
fn build(source: &str, dir: &Path) -> Option<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(source);
    let program = dir.join(source.file_stem().unwrap());
    match Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(&source)
        .status()
    {
        Ok(status) => {
            assert!(status.success(), "{} does not build", source.display());
            Some(program)
        }
        Err(_) if std::env::var("TBGEN_SKIP_C").is_ok_and(|v| v == "1") => {
            // Past the test harness, which holds back what eprintln! says.
            let _ = writeln!(
                std::io::stderr().lock(),
                "\n*** C CROSS-CHECK SKIPPED (TBGEN_SKIP_C=1): no C compiler `cc` ***\n"
            );
            None
        }
        Err(e) => panic!(
            "no C compiler `cc` ({e}): install one (README.md), or set TBGEN_SKIP_C=1 to skip"
        ),
    }
}

/// What the C program prints: "seconds count hash"; the count and the hash.
fn run(program: &Path, args: &[&str]) -> (String, u64) {
    let output = Command::new(program).args(args).output().unwrap();
    assert!(output.status.success(), "{}", program.display());
    let text = String::from_utf8(output.stdout).unwrap();
    let fields: Vec<&str> = text.split_whitespace().collect();
    (
        fields[1].to_string(),
        u64::from_str_radix(fields[2], 16).unwrap(),
    )
}

#[test]
fn dots_agrees_with_a_plain_c_loop_on_every_mask() {
    let dir = tempfile::tempdir().unwrap();
    let Some(program) = build("dots-loop.c", dir.path()) else {
        return;
    };
    for (rows, cols, empty) in [(1, 1, "-1"), (2, 2, "+2"), (2, 3, "-2"), (3, 3, "-3")] {
        let scores = solve_dots(&Dots::new(rows, cols).unwrap(), &Progress::hidden());
        let (score, hash) = run(&program, &[&rows.to_string(), &cols.to_string()]);
        assert_eq!(format!("{:+}", scores[0]), empty, "{rows}x{cols}");
        assert_eq!(score.parse::<i8>().unwrap(), scores[0], "{rows}x{cols}");
        assert_eq!(hash, scores_hash(&scores), "{rows}x{cols}");
    }
}

#[test]
fn abapa_agrees_with_a_c_solver_on_every_position() {
    let dir = tempfile::tempdir().unwrap();
    let Some(program) = build("abapa-reference.c", dir.path()) else {
        return;
    };
    for rules in [Rules::Default, Rules::Thesis] {
        let (mut positions, mut hash) = (0u64, 0u64);
        let game = Abapa::new(rules, 11);
        solve_abapa(&game, &Progress::hidden(), |n, values, _| {
            positions += values.len() as u64;
            hash = hash.wrapping_add(values_hash(n, values));
            Ok(())
        })
        .unwrap();
        assert_eq!(positions, 1_352_078, "0 to 11 seeds: C(23, 12) positions");
        let said = run(&program, &["11", rules.name()]);
        assert_eq!(said, (positions.to_string(), hash), "{rules:?}");
    }
}
