//! `tbquery`: answers from tablebases.

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use games::{Game, Variant, Visitor, with_game};
use query::QueryError;
use query::api::{Source, error_json, probe_json};
use query::play::{Ending, Side, play};
use query::verify::{Selection, verify_tiers};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "tbquery",
    version,
    about = "Probe tablebases, play perfectly, verify tables, serve HTTP"
)]
struct Cli {
    /// Folder holding the tables.
    #[arg(long, global = true, default_value = "tablebases")]
    dir: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Debug)]
struct GameArgs {
    /// The game, e.g. `euler`.
    game: String,
    /// Board size, for games that have several.
    #[arg(long)]
    size: Option<String>,
    /// Rule set, for games that have several.
    #[arg(long)]
    rules: Option<String>,
    /// The most a move may take, for subtraction games (default 3).
    #[arg(long)]
    max_take: Option<String>,
}

impl GameArgs {
    fn variant(&self) -> Variant {
        Variant {
            size: self.size.clone(),
            rules: self.rules.clone(),
            max_take: self.max_take.clone(),
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The value of a position and every legal move with its value, best first.
    Probe {
        #[command(flatten)]
        game: GameArgs,
        /// The position, or `-` to read one position per line from standard input.
        position: String,
        /// One JSON object per position (JSON Lines when reading standard input).
        #[arg(long)]
        json: bool,
        /// Abapa: seeds already captured by the mover and the opponent, `M,O`;
        /// adds who wins the whole game under perfect play.
        #[arg(long)]
        captured: Option<String>,
    },
    /// Play against perfect play in the terminal.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Who moves first.
        #[arg(long, value_enum, default_value = "human")]
        first: Side,
        /// Start from this position instead of the game's start.
        #[arg(long)]
        from: Option<String>,
        /// Abapa: seconds the computer may think where the tables do not reach.
        #[arg(long, default_value_t = 2.0)]
        think: f64,
    },
    /// Compare tables with live search that reads no table; exits 1 on any mismatch.
    Verify {
        #[command(flatten)]
        game: GameArgs,
        /// Only this table and the tables its moves lead to (chess: a material
        /// such as `KQvKR`); by default every table of the game.
        table: Option<String>,
        /// Check every slot of every table.
        #[arg(long)]
        all: bool,
        /// Slots to check per table, drawn at random.
        #[arg(long, default_value_t = 10_000, conflicts_with = "all")]
        samples: u64,
        /// Seed for drawing samples.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// List the tables in the folder with their statistics.
    Info {
        #[arg(long)]
        json: bool,
    },
    /// Serve the JSON API and a web page over HTTP.
    Serve {
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader went away (`tbquery info | head`): nothing left to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let io = match cause.downcast_ref::<QueryError>() {
            Some(QueryError::Terminal(io)) => Some(io),
            _ => cause.downcast_ref::<std::io::Error>(),
        };
        io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes a line to standard output, returning an error (not panicking) when the
/// reader has gone away.
fn say(line: impl std::fmt::Display) -> std::io::Result<()> {
    writeln!(std::io::stdout().lock(), "{line}")
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let source = Source::new(&cli.dir);
    match cli.command {
        Command::Probe {
            game,
            position,
            json,
            captured,
        } => match captured {
            Some(captured) => abapa_game_probe(&source, &game, &position, &captured, json),
            None => probe_command(&source, &game, &position, json),
        },
        Command::Play {
            game, first, from, ..
        } if game.game != "abapa" => {
            let ending = with_game(
                &game.game,
                &game.variant(),
                PlayVisitor {
                    source: &source,
                    first,
                    from,
                },
            )??;
            Ok(if ending == Ending::Abandoned {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Play {
            game,
            first,
            from,
            think,
        } => {
            let rules = games::abapa::Rules::parse(game.rules.as_deref())?;
            let abapa = games::abapa::Abapa::new(rules, games::abapa::MAX_TABLE_SEEDS);
            let tb = source.tablebase(&abapa);
            let start = match &from {
                Some(text) => abapa.parse_position(text)?,
                None => [4; 12],
            };
            anyhow::ensure!(
                think > 0.0 && think.is_finite(),
                "--think takes a positive number of seconds"
            );
            let result = query::abapa::play(
                &tb,
                start,
                first == Side::Human,
                std::time::Duration::from_secs_f64(think),
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
            )?;
            Ok(if result.is_none() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Verify { game, table, .. } if game.game == "abapa" => {
            let rules = games::abapa::Rules::parse(game.rules.as_deref())?;
            let abapa = games::abapa::Abapa::new(rules, games::abapa::MAX_TABLE_SEEDS);
            let tb = source.tablebase(&abapa);
            let max_seeds = match table {
                Some(text) => text
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n <= games::abapa::MAX_TABLE_SEEDS)
                    .with_context(|| format!("'{text}': name the most seeds to check, e.g. 10"))?,
                None => query::abapa::tables_reach(&tb)
                    .map(|n| n.min(DEFAULT_ABAPA_CHECK))
                    .ok_or_else(|| QueryError::MissingTable {
                        path: tb.path(0),
                        command: tb.generate_command(0),
                    })?,
            };
            let started = std::time::Instant::now();
            let report = query::abapa::verify(&tb, max_seeds)?;
            for mismatch in &report.mismatches {
                say(format_args!("MISMATCH {mismatch}"))?;
            }
            say(format_args!(
                "abapa: checked every position of 0 to {max_seeds} seeds ({}) against value iteration, {} mismatches, {:.2} s",
                report.checked,
                report.mismatches.len(),
                started.elapsed().as_secs_f64()
            ))?;
            Ok(if report.mismatches.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Verify {
            game,
            table,
            all,
            samples,
            seed,
        } => {
            if games::registry::SEQUENCE_IDS.contains(&game.game.as_str()) {
                query::api::no_variant(&game.game, &game.variant())?;
            }
            if let Some(report) = query::sequences::verify(&source, &game.game, samples, seed) {
                let report = report?;
                for mismatch in &report.mismatches {
                    say(format_args!("MISMATCH {mismatch}"))?;
                }
                let entries = match report.entries {
                    0 => String::new(),
                    n => format!("{n} table entries against the mex rule and formulas, "),
                };
                say(format_args!(
                    "{}: checked {entries}{} positions against live search, {} mismatches",
                    game.game,
                    report.searched,
                    report.mismatches.len()
                ))?;
                return Ok(if report.mismatches.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                });
            }
            let selection = if all {
                Selection::All
            } else {
                Selection::Samples {
                    count: samples,
                    seed,
                }
            };
            let passed = with_game(
                &game.game,
                &game.variant(),
                VerifyVisitor {
                    source: &source,
                    selection,
                    table: table.as_deref(),
                },
            )??;
            Ok(if passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Info { json } => {
            let entries = query::info::scan(&cli.dir)
                .with_context(|| format!("reading {}", cli.dir.display()))?;
            if json {
                let list: Vec<_> = entries.iter().map(|e| e.to_json()).collect();
                say(serde_json::json!({ "dir": cli.dir, "tables": list }))?;
            } else if entries.is_empty() {
                say(format_args!(
                    "no tables in {}; generate them with `tbgen all`",
                    cli.dir.display()
                ))?;
            } else {
                for entry in &entries {
                    say(entry.to_text())?;
                }
            }
            let all_readable = entries.iter().all(|e| e.table.is_ok());
            Ok(if all_readable {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Serve { addr } => {
            let runtime = tokio::runtime::Runtime::new().context("starting the server runtime")?;
            runtime.block_on(query::serve::serve(&addr, source))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Seeds up to which `tbquery verify abapa` checks by default (value iteration
/// takes a few seconds there).
const DEFAULT_ABAPA_CHECK: u32 = 12;

/// Probes an Abapa position and says who wins the whole game, given the seeds
/// already captured.
fn abapa_game_probe(
    source: &Source,
    game: &GameArgs,
    position: &str,
    captured: &str,
    json: bool,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        game.game == "abapa",
        "--captured is for abapa, not {}",
        game.game
    );
    let rules = games::abapa::Rules::parse(game.rules.as_deref())?;
    let abapa = games::abapa::Abapa::new(rules, games::abapa::MAX_TABLE_SEEDS);
    let pits = abapa.parse_position(position)?;
    let captured = query::abapa::parse_captured(captured, &pits)?;
    let tb = source.tablebase(&abapa);
    let answer = query::probe(&tb, &pits)?;
    let games::Value::Score(score) = answer.value else {
        unreachable!("abapa tables hold scores")
    };
    let (whole, line) = query::abapa::whole_game_answer(score, &pits, captured);
    if json {
        let mut out = answer.to_json(&abapa);
        out["whole_game"] = whole;
        say(out)?;
    } else {
        say(format_args!("{}\n{line}", answer.to_text(&abapa)))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Probes one position, or with `-` every line of standard input, answering bad
/// lines with an error and going on.
fn probe_command(
    source: &Source,
    game: &GameArgs,
    position: &str,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let variant = game.variant();
    let answer = |text: &str| -> Result<String, QueryError> {
        if games::registry::SEQUENCE_IDS.contains(&game.game.as_str()) {
            query::api::no_variant(&game.game, &variant)?;
        }
        if !json && let Some(answer) = query::sequences::probe_text(source, &game.game, text) {
            return answer;
        }
        if json {
            Ok(probe_json(source, &game.game, &variant, text)?.to_string())
        } else {
            Ok(with_game(
                &game.game,
                &variant,
                TextVisitor {
                    source,
                    position: text,
                },
            )??)
        }
    };
    if position != "-" {
        say(answer(position)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failures = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.context("reading standard input")?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match answer(text) {
            Ok(answer) => writeln!(out, "{answer}")?,
            Err(e) => {
                failures += 1;
                if json {
                    writeln!(out, "{}", error_json(text, &e))?;
                } else {
                    writeln!(out, "{text}: error: {e}")?;
                }
            }
        }
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

struct TextVisitor<'a> {
    source: &'a Source,
    position: &'a str,
}

impl Visitor for TextVisitor<'_> {
    type Output = Result<String, QueryError>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        let tb = self.source.tablebase(game);
        let position = game.parse_position(self.position)?;
        Ok(query::formula::answer(&tb, position)?.to_text(game))
    }
}

struct PlayVisitor<'a> {
    source: &'a Source,
    first: Side,
    from: Option<String>,
}

impl Visitor for PlayVisitor<'_> {
    type Output = Result<Ending, QueryError>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        let tb = self.source.tablebase(game);
        let start = match &self.from {
            Some(text) => game.parse_position(text)?,
            None => game.start().ok_or_else(|| {
                games::GameError::position(
                    "",
                    format!("{} has no standard start: give one with --from", game.id()),
                )
            })?,
        };
        play(
            &tb,
            start,
            self.first,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
        )
    }
}

struct VerifyVisitor<'a> {
    source: &'a Source,
    selection: Selection,
    table: Option<&'a str>,
}

impl Visitor for VerifyVisitor<'_> {
    type Output = Result<bool, QueryError>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        let tb = self.source.tablebase(game);
        let started = std::time::Instant::now();
        let tiers = match self.table {
            Some(name) => game.named_tiers(name)?,
            None => game.tiers(),
        };
        let report = verify_tiers(&tb, self.selection, &tiers)?;
        for mismatch in &report.mismatches {
            say(format_args!("MISMATCH {mismatch}"))?;
        }
        let search = match report.bound {
            Some(bound) => format!(
                "search proving wins and losses within {bound} plies ({} of them draws or longer: none within it)",
                report.beyond_bound
            ),
            None => "live search".to_string(),
        };
        let formula = match report.formula_checked {
            0 => String::new(),
            n => format!(", {n} positions against the formula"),
        };
        let formula = match report.consistency_checked {
            0 => formula,
            n => format!("{formula}, {n} positions against their moves' stored values"),
        };
        say(format_args!(
            "{}: checked {} positions against {search}{formula} ({} empty slots), {} mismatches, {:.2} s",
            game.id(),
            report.checked,
            report.empty_slots,
            report.mismatches.len(),
            started.elapsed().as_secs_f64()
        ))?;
        Ok(report.mismatches.is_empty())
    }
}
