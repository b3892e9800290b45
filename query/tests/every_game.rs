//! Every game of the registry through both command-line tools, as a user runs
//! them: `tbgen all` makes the default tables, then each game's start is probed,
//! a whole game is played by the computer against itself, and its tables are
//! verified. The examples of README.md and of `docs/` are run against the same
//! tables, so the documentation cannot drift from what the tools say.

mod common;

use common::text;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(common::default_tables)
}

fn tbquery(args: &[&str]) -> (bool, String, String) {
    let out = common::tbquery(tables(), args, "");
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn every_game_is_generated_probed_played_and_verified() {
    let (ok, listing, err) = tbquery(&["games", "--json"]);
    assert!(ok, "{err}");
    let list: query::answer::GameList = serde_json::from_str(&listing).unwrap();
    assert_eq!(list.games.len(), games::registry::entries().len());
    // `tbgen --help` lists the same games.
    let help = Command::new(common::tbgen_bin())
        .arg("--help")
        .output()
        .unwrap();
    let help = text(&help.stdout);
    for game in &list.games {
        let id = game.game.as_str();
        assert!(help.contains(&format!("  {id} ")), "tbgen --help: {id}");
        // Games with many possible tables (chess endings, seed counts) have some.
        let present = game.tables.iter().any(|t| t.present);
        assert!(game.tables.is_empty() || present, "{id}: {:?}", game.tables);

        // The start is answered, or (Abapa's 48 seeds) is beyond the tables and
        // left to search in play.
        let (ok, answer, err) = tbquery(&["probe", id, "start", "--json"]);
        if ok {
            let answer: query::answer::PositionAnswer = serde_json::from_str(&answer).unwrap();
            assert_eq!(answer.position, game.start, "{id}");
        } else {
            assert!(
                err.contains("play against the computer, which searches beyond them"),
                "{id}: {err}"
            );
        }

        // Only games that search beyond their tables take --think.
        let think = [
            "play",
            id,
            "--players",
            "computer,computer",
            "--think",
            "0.01",
        ];
        let (ok, played, err) = match tbquery(&think) {
            (false, _, err) if err.contains("unexpected argument '--think'") => {
                tbquery(&think[..4])
            }
            result => result,
        };
        assert!(ok, "{id}: {err}");
        let last = played.lines().last().unwrap_or_default();
        assert!(
            last.contains(" wins") || last.contains("drawn"),
            "{id}: {played}"
        );

        let (ok, report, err) = tbquery(&["verify", id, "--samples", "2"]);
        if !ok && game.tables.is_empty() && err.contains("no tables to verify") {
            // A default board beyond any table (Northcott 8x8): its tables are
            // made and verified for smaller boards.
            continue;
        }
        assert!(ok, "{id}: {report}{err}");
        assert!(report.contains(" 0 mismatches"), "{id}: {report}");
    }
}

/// README.md and every page of `docs/`, with their paths.
fn documentation() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut pages = vec![root.join("README.md")];
    let mut folders = vec![root.join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Runs every `$ tbquery ...` example in a text block of README.md and of every
/// page of `docs/` against the default tables, and checks that the lines shown
/// come out, in order. A line `...` stands for any lines, `...` inside a line for
/// any text, and times in seconds are not compared.
#[test]
fn documented_examples_say_what_the_tools_say() {
    let mut examples = 0;
    let mut readme = 0;
    for (page, text) in documentation() {
        for (command, expected) in examples_of(&text) {
            check_example(&page, &command, &expected);
            examples += 1;
            readme += usize::from(page.ends_with("README.md"));
        }
    }
    assert!(readme >= 3, "only {readme} examples in README.md");
    assert!(examples >= 10, "only {examples} examples found");
}

/// Runs one example and checks it says the lines shown.
fn check_example(page: &Path, command: &str, expected: &[String]) {
    let bin = Path::new(env!("CARGO_BIN_EXE_tbquery")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("{command} --dir '{}'", tables().display()))
        .env("PATH", path)
        .output()
        .unwrap();
    let said = format!("{}{}", text(&output.stdout), text(&output.stderr));
    let said: Vec<String> = said.lines().map(|l| without_times(l.trim_end())).collect();
    let mut at = 0;
    for line in expected {
        if line == "..." {
            continue;
        }
        let wanted = without_times(line);
        match said[at..].iter().position(|l| matches(&wanted, l)) {
            Some(found) => at += found + 1,
            None => panic!(
                "{}: `{command}` does not say\n  {line}\nafter line {at}; it says:\n{}",
                page.display(),
                said.join("\n")
            ),
        }
    }
}

/// `(command, lines shown)` for every `$ tbquery ...` line of a text block.
fn examples_of(readme: &str) -> Vec<(String, Vec<String>)> {
    let mut examples = Vec::new();
    let mut in_text = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_text = line == "```text";
            // A block's lines belong to a command of the same block.
            examples.push((String::new(), Vec::new()));
            continue;
        }
        if !in_text {
            continue;
        }
        match line.strip_prefix("$ ") {
            Some(command) if command.starts_with("tbquery ") => {
                examples.push((command.to_string(), Vec::new()));
            }
            // Other commands (generation that takes long, curl) are not run.
            Some(_) => examples.push((String::new(), Vec::new())),
            None => {
                if let Some((_, lines)) = examples.last_mut() {
                    lines.push(line.to_string());
                }
            }
        }
    }
    examples.retain(|(command, _)| !command.is_empty());
    examples
}

/// A line with `... s` times (`0.028 s`, `6.87 s`) blanked.
fn without_times(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let is_time = next.starts_with('s') && next.len() <= 2 && word.parse::<f64>().is_ok();
        out.push(if is_time { "<time>" } else { word });
    }
    out.join(" ")
}

/// Whether `said` matches `wanted`, where `...` in `wanted` stands for any text.
fn matches(wanted: &str, said: &str) -> bool {
    let mut rest = said;
    let pieces: Vec<&str> = wanted.split("...").collect();
    for (i, piece) in pieces.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(piece) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == pieces.len() - 1 {
            return rest.ends_with(piece);
        } else {
            match rest.find(piece) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
    }
    rest.is_empty()
}
