//! Random probes of every game, under a memory and a time limit: each game of
//! the registry, with random values of its options, is asked positions made by
//! random play from its start, its start with characters changed, and random
//! text of its notation's characters, short and long, through `tbquery probe
//! GAME -` run under a 1 GiB address-space limit (`prlimit --as`). A crash, a
//! panic, an answer missing, or more than 5 s without an answer fails the test.
//!
//! `TBQUERY_FUZZ_PROBES` sets how many probes (100,000 by default) and
//! `TBQUERY_FUZZ_SEED` the seed, which a failure prints.

mod common;

use games::Game;
use games::registry;
use games::spec::{Entry, Options, Purpose, Scope, Spec, Values, Visitor};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The address space each `tbquery` may take.
const ADDRESS_SPACE: u64 = 1 << 30;

/// The longest a probe may take.
const HANG: Duration = Duration::from_secs(5);

/// Probes per run of `tbquery`.
const PER_RUN: usize = 500;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A random value for each option a query takes; `None` keeps the default.
fn random_options(entry: &Entry, rng: &mut StdRng) -> Vec<(&'static str, String)> {
    let queried: Vec<_> = entry
        .options
        .iter()
        .filter(|o| matches!(o.scope, Scope::Variant | Scope::Measure))
        .filter(|_| rng.random_bool(0.6))
        .collect();
    queried
        .into_iter()
        .map(|option| {
            let value = match option.values {
                Values::Choice(words) => words.choose(rng).unwrap().to_string(),
                Values::Range(low, high) => match rng.random_range(0..4) {
                    0 => low.to_string(),
                    1 => high.to_string(),
                    2 => (high.saturating_add(1)).to_string(),
                    _ => rng.random_range(low..=high).to_string(),
                },
                Values::Flag => ["yes", "no"].choose(rng).unwrap().to_string(),
                Values::Text(_) => {
                    let side = |rng: &mut StdRng| match rng.random_range(0..5) {
                        0 => rng.random_range(0..=1000),
                        _ => rng.random_range(1..=8),
                    };
                    format!("{}x{}", side(rng), side(rng))
                }
            };
            (option.name, value)
        })
        .collect()
}

/// Positions of one game as text: random play from its start, its start with
/// characters changed, and random text of its characters.
struct Positions<'r> {
    rng: &'r mut StdRng,
    count: usize,
}

impl Visitor for Positions<'_> {
    type Output = Vec<String>;
    fn visit<G: Game>(self, _spec: &'static Spec<G>, game: &G) -> Vec<String> {
        let rng = self.rng;
        let start = game.start();
        let sample = game.write_position(&start);
        let mut alphabet: Vec<char> = sample.chars().collect();
        alphabet.extend(" /,.-+:0123456789xo".chars());
        alphabet.sort_unstable();
        alphabet.dedup();
        (0..self.count)
            .map(|_| match rng.random_range(0..10) {
                0..6 => {
                    let mut position = start.clone();
                    for _ in 0..rng.random_range(0..60) {
                        let moves = game.moves(&position);
                        let Some(mv) = moves.choose(rng) else { break };
                        position = game.play(&position, mv).position;
                    }
                    game.write_position(&position)
                }
                6..8 => {
                    let mut chars: Vec<char> = sample.chars().collect();
                    for _ in 0..rng.random_range(1..4) {
                        if !chars.is_empty() {
                            let at = rng.random_range(0..chars.len());
                            chars[at] = *alphabet.choose(rng).unwrap();
                        }
                    }
                    chars.into_iter().collect()
                }
                8 => (0..rng.random_range(0..40))
                    .map(|_| *alphabet.choose(rng).unwrap())
                    .collect(),
                _ => (0..rng.random_range(0..8000))
                    .map(|_| *alphabet.choose(rng).unwrap())
                    .collect(),
            })
            .map(|text| text.replace('\n', " "))
            .collect()
    }
}

/// How many probes one run of `tbquery probe` answered, or what it did wrong.
fn probe_all(
    dir: &Path,
    game: &str,
    options: &[(&str, String)],
    lines: Vec<String>,
) -> Result<usize, String> {
    let tbquery = env!("CARGO_BIN_EXE_tbquery");
    let mut command = Command::new("prlimit");
    command
        .arg(format!("--as={ADDRESS_SPACE}"))
        .args([tbquery, "probe", game, "-", "--json", "--dir"])
        .arg(dir);
    for (name, value) in options {
        // A flag is given bare, or not at all.
        match value.as_str() {
            "yes" => command.arg(format!("--{name}")),
            "no" => &mut command,
            _ => command.arg(format!("--{name}={value}")),
        };
    }
    let said = format!("{game} {options:?}");
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{said}: prlimit: {e}"))?;
    let mut stdin = child.stdin.take().unwrap();
    let input = lines.clone();
    let writer = std::thread::spawn(move || {
        for line in input {
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    // Each answer as it comes, timed.
    let (sender, answers) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if sender.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let mut answered = 0;
    loop {
        match answers.recv_timeout(HANG) {
            Ok(answer) => {
                answered += 1;
                if serde_json::from_str::<serde_json::Value>(&answer).is_err() {
                    let _ = child.kill();
                    return Err(format!("{said}: not JSON: {answer:.200}"));
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                let stuck = lines.get(answered).map_or("", |l| l.as_str());
                return Err(format!("{said}: no answer in {HANG:?} to {stuck:.200}"));
            }
        }
    }
    writer.join().unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        // Every line answered, some with errors (1), or the options refused.
        Some(0 | 1) if answered == lines.len() => Ok(answered),
        Some(1 | 2) if answered == 0 && stderr.starts_with("error: bad") => Ok(0),
        code => Err(format!(
            "{said}: exit {code:?} after {answered} of {} answers: {stderr:.2000}",
            lines.len()
        )),
    }
}

#[test]
fn random_probes_of_every_game_stay_within_memory_and_time() {
    let install = "apt-get install util-linux";
    if common::tool("prlimit", install, "TBQUERY_SKIP_FUZZ").is_none() {
        return;
    }
    let dir = common::default_tables();
    let probes = setting("TBQUERY_FUZZ_PROBES", 100_000) as usize;
    let seed = setting("TBQUERY_FUZZ_SEED", 2026);
    let mut rng = StdRng::seed_from_u64(seed);
    let entries = registry::entries();
    let started = Instant::now();
    let (mut asked, mut failures) = (0, Vec::new());
    for round in 0.. {
        if asked >= probes {
            break;
        }
        for entry in entries {
            // The first round keeps the defaults: the tables made are read.
            let options = match round {
                0 => Vec::new(),
                _ => random_options(entry, &mut rng),
            };
            let given = Options::with(
                Purpose::Query,
                options.iter().map(|(n, v)| (*n, v.as_str())),
            );
            let positions = Positions {
                rng: &mut rng,
                count: PER_RUN,
            };
            // Options the game refuses are given to tbquery to refuse too.
            let lines = entry
                .complete(&given)
                .and_then(|completed| registry::with_game(entry.id, &completed, positions))
                .unwrap_or_else(|_| vec!["x".to_string()]);
            match probe_all(&dir, entry.id, &options, lines) {
                Ok(answered) => asked += answered,
                Err(failure) => failures.push(failure),
            }
        }
    }
    eprintln!(
        "{asked} probes of {} games in {:.1?}, seed {seed}",
        entries.len(),
        started.elapsed()
    );
    assert!(failures.is_empty(), "seed {seed}:\n{}", failures.join("\n"));
}
