//! `tbquery`: answers from tablebases. Its games and their options come from the
//! registry in `games`; every command works the same way for every game.

use anyhow::Context;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command, value_parser};
use games::registry;
use games::spec::{Entry, Options, Purpose, Spec, Values, Visitor};
use games::{Game, GameError};
use query::answer::{Beside, PositionAnswer};
use query::api::{self, error_answer};
use query::lines::{LineError, LineReader};
use query::oracle::{Oracle, parse_captured};
use query::play::{Ending, Player, Settings, play};
use query::verify::{Selection, verify};
use query::{Library, QueryError, render};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The most `--samples` accepted; a table with fewer slots is checked whole.
const MAX_SAMPLES: u64 = 1_000_000_000;

/// The longest line `probe GAME -` reads: a longer one is answered with an
/// error, counted but not held.
const MAX_INPUT_LINE: usize = 1 << 20;

/// What a game offers beyond the common commands, for its subcommands' options.
#[derive(Debug, Clone, Copy, Default)]
struct Features {
    whole_game: bool,
    search: bool,
    counted: bool,
}

fn features(entry: &Entry) -> Features {
    struct Ask;
    impl Visitor for Ask {
        type Output = Features;
        fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> Features {
            let caps = (spec.capabilities)(game);
            Features {
                whole_game: caps.whole_game.is_some(),
                search: caps.search_beyond_tables,
                counted: caps.counted_input,
            }
        }
    }
    registry::with_game(entry.id, &Options::query(), Ask).unwrap_or_default()
}

fn cli() -> Command {
    let games: Vec<String> = registry::entries()
        .iter()
        .map(|e| format!("  {:12} {}", e.id, e.about))
        .collect();
    Command::new("tbquery")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Probe tablebases, play perfectly, verify tables, serve HTTP")
        .subcommand_required(true)
        .after_help(format!(
            "Games (`tbquery probe GAME --help` gives a game's position notation and options; \
             every game takes `start` for its start position):\n{}",
            games.join("\n")
        ))
        .arg(
            Arg::new("dir")
                .long("dir")
                .global(true)
                .value_name("DIR")
                .default_value("tablebases")
                .value_parser(value_parser!(PathBuf))
                .help("Folder holding the tables"),
        )
        .arg(
            Arg::new("cache-mb")
                .long("cache-mb")
                .global(true)
                .value_name("MB")
                .value_parser(value_parser!(u64).range(1..=1 << 20))
                .default_value("256")
                .help("Memory for decompressed table blocks, in MB; the least used are dropped first"),
        )
        .subcommand(per_game(
            "probe",
            "The value of a position and every legal move with its value, best first",
            probe_args,
        ))
        .subcommand(per_game(
            "play",
            "Play a game in the terminal: against perfect play, each other, or to watch",
            play_args,
        ))
        .subcommand(per_game(
            "line",
            "The line of perfect play from a position to the end of the game",
            line_args,
        ))
        .subcommand(per_game(
            "verify",
            "Check tables against live search, formulas and their own moves; exits 1 on any mismatch",
            verify_args,
        ))
        .subcommand(
            Command::new("games")
                .about("Every game with its options, start position and tables")
                .arg(json_flag("One JSON object, the same as GET /api/v1/games")),
        )
        .subcommand(
            Command::new("standard")
                .about("A chess FEN as the lichess tablebase API answers it: the outcome under the 50-move rule from the FEN's halfmove clock, DTZ and DTM, and every move with the same, in lichess's order")
                .after_help("Reads the chess-* (DTM) and chess-dtz-* tables: tbgen chess ENDING --metric dtm,dtz makes both.")
                .arg(Arg::new("fen").required(true).value_name("FEN").help("A FEN; its halfmove clock counts toward the 50-move rule"))
                .arg(json_flag("The JSON GET /standard answers, as lichess's")),
        )
        .subcommand(
            Command::new("info")
                .about("The tables in the folder with their header statistics")
                .arg(json_flag("One JSON object listing every table")),
        )
        .subcommand(
            Command::new("check")
                .about("Read and check every block of every table in the folder; exits 1 on any damage")
                .arg(json_flag("One JSON object listing every table and its damage")),
        )
        .subcommand(
            Command::new("serve")
                .about("Serve the JSON API, metrics and a web page over HTTP; SIGTERM or Ctrl-C stops it gracefully")
                .after_help("Request logs go to standard error; TBQUERY_LOG sets their level (error, warn, info, debug), info by default.")
                .arg(
                    Arg::new("addr")
                        .long("addr")
                        .value_name("ADDRESS")
                        .default_value("127.0.0.1:8080")
                        .help("Address and port to listen on"),
                )
                .arg(
                    Arg::new("cors")
                        .long("cors")
                        .value_name("ORIGIN")
                        .help("Let pages from this origin call the API, e.g. https://example.org"),
                )
                .arg(
                    Arg::new("max-probes")
                        .long("max-probes")
                        .value_name("N")
                        .value_parser(value_parser!(u64).range(1..=65_536))
                        .default_value("256")
                        .help("Probes answered at once; more are refused with 503 and Retry-After"),
                )
                .arg(
                    Arg::new("max-view-mb")
                        .long("max-view-mb")
                        .value_name("MB")
                        .value_parser(value_parser!(u64).range(1..=4096))
                        .default_value("8")
                        .help("The most a page view's moves may take, in MB; a view that would take more answers without them"),
                )
                .arg(
                    Arg::new("max-connections")
                        .long("max-connections")
                        .value_name("N")
                        .value_parser(value_parser!(u64).range(1..=1_000_000))
                        .default_value("4096")
                        .help("Connections open at once; a new one closes the oldest beyond this"),
                )
                .arg(
                    Arg::new("header-timeout")
                        .long("header-timeout")
                        .value_name("SECONDS")
                        .value_parser(value_parser!(u64).range(1..=3600))
                        .default_value("10")
                        .help("Time a client has to send a request's head"),
                )
                .arg(
                    Arg::new("answer-timeout")
                        .long("answer-timeout")
                        .value_name("SECONDS")
                        .value_parser(value_parser!(u64).range(1..=3600))
                        .default_value("30")
                        .help("Time an answer may take; its work stops then (408)"),
                )
                .arg(
                    Arg::new("drain-timeout")
                        .long("drain-timeout")
                        .value_name("SECONDS")
                        .value_parser(value_parser!(u64).range(0..=3600))
                        .default_value("10")
                        .help("Time open connections may finish in after SIGTERM or Ctrl-C"),
                ),
        )
}

fn json_flag(help: &'static str) -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help(help)
}

/// What a command reads a game's options for: `play` takes the options of how
/// a game is played out too.
fn purpose_of(command: &str) -> Purpose {
    match command {
        "play" => Purpose::Play,
        _ => Purpose::Query,
    }
}

/// A command with one subcommand per game, each with the game's variant options
/// and the command's own arguments.
fn per_game(
    name: &'static str,
    about: &'static str,
    args: fn(Command, Features) -> Command,
) -> Command {
    let mut command = Command::new(name)
        .about(about)
        .subcommand_required(true)
        .allow_external_subcommands(true)
        .subcommand_value_name("GAME")
        .subcommand_help_heading("Games");
    for entry in registry::entries() {
        let mut game = Command::new(entry.id)
            .about(entry.about)
            .after_help(format!("Positions: {}", entry.notation));
        for option in entry.options_for(purpose_of(name)) {
            let mut help = format!("{} [{}", option.help, option.describe_values());
            if let Some(default) = option.default {
                help.push_str(&format!("; default {default}"));
            }
            help.push(']');
            let arg = Arg::new(option.name).long(option.name);
            game = game.arg(match option.values {
                Values::Flag => arg.action(ArgAction::SetTrue).help(option.help),
                _ => arg.value_name("VALUE").help(help),
            });
        }
        command = command.subcommand(args(game, features(entry)));
    }
    command
}

fn probe_args(command: Command, features: Features) -> Command {
    let command = command
        .arg(
            Arg::new("position")
                .required(true)
                .value_name("POSITION")
                .help("The position, `start`, or `-` to read one position per line from standard input"),
        )
        .arg(json_flag("One JSON object per position (JSON Lines when reading standard input)"));
    let command = match features.counted {
        false => command,
        true => command.arg(
            Arg::new("counted")
                .long("counted")
                .action(ArgAction::SetTrue)
                .help("Read the position as a count n and then n numbers, over any lines (with `-`, all of standard input is one position)"),
        ),
    };
    match features.whole_game {
        false => command,
        true => command.arg(
            Arg::new("captured")
                .long("captured")
                .value_name("M,O")
                .help("What the mover and the opponent have already taken; adds who wins the whole game"),
        ),
    }
}

fn play_args(command: Command, features: Features) -> Command {
    let command = command
        .arg(
            Arg::new("from")
                .long("from")
                .value_name("POSITION")
                .help("Start from this position instead of the game's start"),
        )
        .arg(
            Arg::new("first")
                .long("first")
                .value_name("WHO")
                .value_parser(value_parser!(Player))
                .conflicts_with("players")
                .help("Who moves first against the other [default: human]"),
        )
        .arg(
            Arg::new("players")
                .long("players")
                .value_name("FIRST,SECOND")
                .value_delimiter(',')
                .value_parser(value_parser!(Player))
                .help(
                    "Who plays each side: human or computer, e.g. human,human or computer,computer",
                ),
        )
        .arg(
            Arg::new("level")
                .long("level")
                .value_name("0-10")
                .value_parser(value_parser!(u8).range(0..=10))
                .default_value("10")
                .help("The computer's strength: 10 plays perfectly; below, it makes a deliberate mistake with probability (10 - level)/10 on each move"),
        )
        .arg(
            Arg::new("seed")
                .long("seed")
                .value_name("N")
                .value_parser(value_parser!(u64))
                .help("Seeds the computer's mistakes below level 10, to play a game again [default: from the clock]"),
        )
        .arg(
            Arg::new("transcript")
                .long("transcript")
                .action(ArgAction::SetTrue)
                .help("Write the game to standard output as JSON Lines, one object per ply and a last one with the result; the board and prompts go to standard error"),
        );
    match features.search {
        false => command,
        true => command
            .arg(
                Arg::new("think")
                    .long("think")
                    .value_name("SECONDS")
                    .value_parser(value_parser!(f64))
                    .default_value("2")
                    .conflicts_with("depth")
                    .help("Seconds the computer may search where the tables do not reach, deepening one ply at a time"),
            )
            .arg(
                Arg::new("algorithm")
                    .long("algorithm")
                    .value_name("NAME")
                    .value_parser(value_parser!(query::engine::Algorithm))
                    .default_value("alphabeta")
                    .help("How the computer searches beyond the tables; all three find the same score at the same depth, alpha-beta visiting the fewest positions"),
            )
            .arg(
                Arg::new("depth")
                    .long("depth")
                    .value_name("PLIES")
                    .value_parser(value_parser!(u32).range(1..=i64::from(query::engine::MAX_DEPTH)))
                    .help("Search exactly this many plies beyond the tables instead of for --think seconds"),
            ),
    }
}

fn line_args(command: Command, _features: Features) -> Command {
    command
        .arg(
            Arg::new("position")
                .required(true)
                .value_name("POSITION")
                .help("The position, or `start`"),
        )
        .arg(json_flag("One JSON object: the line, ply by ply"))
        .arg(
            Arg::new("pgn")
                .long("pgn")
                .action(ArgAction::SetTrue)
                .conflicts_with("json")
                .help(
                    "The line in the game's record format (chess: PGN with FEN and SetUp headers)",
                ),
        )
        .arg(
            Arg::new("plies")
                .long("plies")
                .value_name("N")
                .value_parser(value_parser!(u64).range(1..=query::view::MAX_LINE as u64))
                .default_value("500")
                .help("The most plies; a drawn line also stops where a position repeats"),
        )
}

fn verify_args(command: Command, _features: Features) -> Command {
    command
        .arg(
            Arg::new("table")
                .value_name("TABLE")
                .help("Only this table and the tables its moves lead to (chess: a material such as KQvKR; abapa: the most seeds); by default every table present"),
        )
        .arg(
            Arg::new("all")
                .long("all")
                .action(ArgAction::SetTrue)
                .help("Check every slot against live search"),
        )
        .arg(
            Arg::new("samples")
                .long("samples")
                .value_name("N")
                .value_parser(value_parser!(u64).range(0..=MAX_SAMPLES))
                .default_value("10000")
                .conflicts_with("all")
                .help("Slots per table checked against live search, drawn at random (at most the slots a table has)"),
        )
        .arg(
            Arg::new("seed")
                .long("seed")
                .value_name("SEED")
                .value_parser(value_parser!(u64))
                .default_value("1")
                .help("Seed for drawing samples"),
        )
        .arg(json_flag("The report as one JSON object"))
}

/// A served probe makes a few hundred small strings (each move's name and
/// position); glibc's allocator sweeps its freed small blocks whenever a
/// larger one is asked for (each request's read buffer and answer), mimalloc
/// does not: about a tenth more probes a second at 16 connections.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let matches = cli().get_matches();
    match run(&matches) {
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

/// Writes an answer as one JSON line with `--json`, otherwise as `text`.
fn answer(sub: &ArgMatches, value: &impl serde::Serialize, text: String) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match sub.get_flag("json") {
        true => writeln!(out, "{}", serde_json::to_string(value)?)?,
        false => write!(out, "{text}")?,
    }
    Ok(())
}

/// Writes a line to standard output, returning an error (not panicking) when the
/// reader has gone away.
fn say(line: impl std::fmt::Display) -> std::io::Result<()> {
    writeln!(std::io::stdout().lock(), "{line}")
}

fn run(matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    let dir = matches
        .get_one::<PathBuf>("dir")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("tablebases"));
    let budget = matches.get_one::<u64>("cache-mb").copied().unwrap_or(256) << 20;
    let library = Library::with_budget(&dir, budget);
    let (command, sub) = matches.subcommand().expect("a subcommand is required");
    match command {
        "probe" | "play" | "line" | "verify" => {
            let (id, args) = sub.subcommand().expect("a game is required");
            let entry = registry::entry(id)?;
            let purpose = purpose_of(command);
            let mut options = Options::with(purpose, []);
            for option in entry.options_for(purpose) {
                if option.values == Values::Flag {
                    if args.get_flag(option.name) {
                        options.set(option.name, "yes");
                    }
                } else if let Some(value) = args.get_one::<String>(option.name) {
                    options.set(option.name, value);
                }
            }
            let options = entry.complete(&options)?;
            let run = Run {
                library: &library,
                id,
                options: &options,
                command,
                args,
            };
            registry::with_game(id, &options, run)?
        }
        "standard" => {
            let fen = sub.get_one::<String>("fen").expect("a required argument");
            let standard = query::lichess::standard(&library, fen)?;
            answer(sub, &standard, render::standard(fen, &standard))?;
            Ok(ExitCode::SUCCESS)
        }
        "games" => {
            let list = query::api::games(&library);
            answer(sub, &list, query::render::games(&list))?;
            Ok(ExitCode::SUCCESS)
        }
        "info" => {
            let listing =
                query::info::scan(&dir).with_context(|| format!("reading {}", dir.display()))?;
            answer(sub, &listing, query::render::listing(&listing, &dir))?;
            let all_readable = listing.tables.iter().all(|e| e.readable());
            Ok(if all_readable {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        "check" => {
            let report = query::check::check_dir(&dir)
                .with_context(|| format!("reading {}", dir.display()))?;
            answer(sub, &report, query::render::check(&report))?;
            Ok(if report.damaged() == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        "serve" => {
            let filter = tracing_subscriber::EnvFilter::try_from_env("TBQUERY_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
            tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .init();
            let addr = sub.get_one::<String>("addr").expect("has a default");
            let number = |name: &str| *sub.get_one::<u64>(name).expect("has a default");
            let cors = sub
                .get_one::<String>("cors")
                .map(|origin| {
                    origin
                        .parse::<axum::http::HeaderValue>()
                        .map_err(|_| GameError::option("cors", origin, "is not a valid origin"))
                })
                .transpose()?;
            let limits = query::serve::Limits {
                header_timeout: Duration::from_secs(number("header-timeout")),
                request_timeout: Duration::from_secs(number("answer-timeout")),
                drain_timeout: Duration::from_secs(number("drain-timeout")),
                max_probes: number("max-probes") as usize,
                max_connections: number("max-connections") as usize,
                cors,
                ..query::serve::Limits::default()
            };
            let mut library = library;
            library.max_view = (number("max-view-mb") << 20) as usize;
            let runtime = tokio::runtime::Runtime::new().context("starting the server runtime")?;
            runtime.block_on(query::serve::serve(
                addr,
                library,
                limits,
                query::serve::shutdown_signal(),
            ))?;
            // Dropping the connections left stops their work at its next
            // checkpoint; none takes longer than a probe to get there.
            runtime.shutdown_timeout(Duration::from_secs(1));
            Ok(ExitCode::SUCCESS)
        }
        other => unreachable!("clap knows no command {other}"),
    }
}

/// A per-game command, run with the concrete game.
struct Run<'a> {
    library: &'a Library,
    id: &'a str,
    /// The game's options, completed.
    options: &'a Options,
    command: &'a str,
    args: &'a ArgMatches,
}

impl Visitor for Run<'_> {
    type Output = anyhow::Result<ExitCode>;
    fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> Self::Output {
        let oracle = Oracle::new(spec, game, self.library);
        match self.command {
            "probe" => {
                // The game's other measures (chess: DTZ beside DTM), said
                // under the value in text.
                let beside = |text: &str| api::beside(self.library, self.id, self.options, text);
                probe_command(&oracle, self.args, beside)
            }
            "play" => play_command(&oracle, self.args),
            "line" => line_command(&oracle, self.args),
            _ => verify_command(&oracle, self.args),
        }
    }
}

/// Probes one position, or with `-` every line of standard input, answering bad
/// lines with an error and going on.
fn probe_command<G: Game>(
    oracle: &Oracle<G>,
    args: &ArgMatches,
    beside: impl Fn(&str) -> Vec<Beside>,
) -> anyhow::Result<ExitCode> {
    let json = args.get_flag("json");
    let captured = args
        .try_get_one::<String>("captured")
        .ok()
        .flatten()
        .map(|c| parse_captured(c))
        .transpose()?;
    let answer = |text: &str| -> Result<String, QueryError> {
        let answer: PositionAnswer = oracle.answer_text(text, captured)?;
        Ok(if json {
            serde_json::to_string(&answer).expect("answers serialize")
        } else {
            let position = oracle.read(text)?;
            render::position(oracle, &answer, &position, &beside(text))
                .trim_end()
                .to_string()
        })
    };
    let position = args.get_one::<String>("position").expect("required");
    if args.try_get_one::<bool>("counted").ok().flatten() == Some(&true) {
        let text = match position.as_str() {
            "-" => std::io::read_to_string(std::io::stdin()).context("reading standard input")?,
            given => given.to_string(),
        };
        say(answer(&uncount(&text)?)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if position != "-" {
        say(answer(position)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    // One answer per input line, in order, blank lines, lines that are not
    // UTF-8 and lines too long to read included.
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failures = 0;
    let mut reader = LineReader::new(MAX_INPUT_LINE);
    let mut input = std::io::stdin().lock();
    let mut number = 0;
    let mut ended = false;
    while !ended {
        let chunk = input.fill_buf().context("reading standard input")?;
        ended = chunk.is_empty();
        match ended {
            true => reader.finish(),
            false => {
                let taken = chunk.len();
                reader.push(chunk);
                input.consume(taken);
            }
        }
        for line in reader.lines() {
            number += 1;
            let (text, answered) = match line.text() {
                Ok(text) => {
                    let answered = answer(text.trim());
                    (text.trim().to_string(), answered)
                }
                Err(LineError::NotUtf8 { shown }) => {
                    let why = format!("line {number} is not UTF-8");
                    let error = GameError::position(&shown, why);
                    (shown, Err(QueryError::Input(error)))
                }
                Err(LineError::TooLong { shown, bytes }) => {
                    let limit = MAX_INPUT_LINE;
                    let error = QueryError::TooLong {
                        shown,
                        bytes,
                        limit,
                    };
                    (error.position().to_string(), Err(error))
                }
            };
            match answered {
                Ok(answer) => writeln!(out, "{answer}")?,
                Err(e) => {
                    failures += 1;
                    if json {
                        let error = serde_json::to_string(&error_answer(&text, &e))?;
                        writeln!(out, "{error}")?;
                    } else {
                        writeln!(out, "{text}: error: {e}")?;
                    }
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

/// A count `n` and then exactly `n` numbers, separated by spaces, commas or line
/// breaks, as the list of numbers they count.
fn uncount(text: &str) -> Result<String, GameError> {
    let mut words = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    let shown = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let refuse = |problem: String| GameError::position(&shown, problem);
    let count = words
        .next()
        .ok_or_else(|| refuse("nothing to read: give a count and then that many numbers".into()))?;
    let count: usize = count
        .parse()
        .map_err(|_| refuse(format!("the count is '{count}', not a whole number")))?;
    let numbers: Vec<&str> = words.collect();
    if numbers.len() != count {
        return Err(refuse(format!(
            "the count says {count} numbers, but {} follow it",
            numbers.len()
        )));
    }
    Ok(numbers.join(" "))
}

fn play_command<G: Game>(oracle: &Oracle<G>, args: &ArgMatches) -> anyhow::Result<ExitCode> {
    let start = match args.get_one::<String>("from") {
        Some(text) => oracle.read(text)?,
        None => oracle.game.start(),
    };
    let players = match args.get_many::<Player>("players") {
        Some(players) => match players.copied().collect::<Vec<_>>()[..] {
            [first, second] => [first, second],
            _ => {
                return Err(GameError::option(
                    "players",
                    "",
                    "takes two players, first and second: human,computer",
                )
                .into());
            }
        },
        None => {
            let first = args
                .get_one::<Player>("first")
                .copied()
                .unwrap_or(Player::Human);
            Settings::against_computer(first).players
        }
    };
    let think = args
        .try_get_one::<f64>("think")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(2.0);
    let think = Duration::try_from_secs_f64(think)
        .ok()
        .filter(|t| !t.is_zero() && *t <= Duration::from_secs(3600))
        .ok_or_else(|| {
            GameError::option(
                "think",
                &think.to_string(),
                "takes seconds from 0.001 to 3600",
            )
        })?;
    let search = query::engine::Limits {
        think,
        algorithm: args
            .try_get_one::<query::engine::Algorithm>("algorithm")
            .ok()
            .flatten()
            .copied()
            .unwrap_or_default(),
        depth: args.try_get_one::<u32>("depth").ok().flatten().copied(),
    };
    let seed = args.get_one::<u64>("seed").copied().unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos() as u64)
    });
    let settings = Settings {
        players,
        level: *args.get_one::<u8>("level").expect("has a default"),
        seed,
        search,
    };
    let input = &mut std::io::stdin().lock();
    let ending = if args.get_flag("transcript") {
        let mut transcript = std::io::stdout().lock();
        play(
            oracle,
            start,
            settings,
            input,
            &mut std::io::stderr().lock(),
            Some(&mut transcript),
        )?
    } else {
        play(
            oracle,
            start,
            settings,
            input,
            &mut std::io::stdout().lock(),
            None,
        )?
    };
    Ok(if ending == Ending::Abandoned {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn line_command<G: Game>(oracle: &Oracle<G>, args: &ArgMatches) -> anyhow::Result<ExitCode> {
    let position = args.get_one::<String>("position").expect("required");
    let plies = *args.get_one::<u64>("plies").expect("has a default") as usize;
    if args.get_flag("pgn") {
        say(query::view::record(oracle, position, plies)?.trim_end())?;
        return Ok(ExitCode::SUCCESS);
    }
    let line = query::view::line(oracle, position, plies)?.answer;
    if args.get_flag("json") {
        say(serde_json::to_string(&line)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    say(format_args!("{} {}", line.game, line.position))?;
    say(format_args!(
        "{} plies of perfect play ({}):",
        line.line.len(),
        line.end
    ))?;
    let width = line.line.iter().map(|s| s.mv.len()).max().unwrap_or(0);
    for (ply, step) in line.line.iter().enumerate() {
        say(format_args!(
            "{:>4}  {:width$}  {:22} -> {}",
            ply + 1,
            step.mv,
            render::value_words(oracle, step.value),
            step.position
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn verify_command<G: Game>(oracle: &Oracle<G>, args: &ArgMatches) -> anyhow::Result<ExitCode> {
    let seed = *args.get_one::<u64>("seed").expect("has a default");
    let selection = if args.get_flag("all") {
        Selection::All
    } else if args.value_source("samples") == Some(ValueSource::DefaultValue) {
        Selection::Default { seed }
    } else {
        Selection::Samples {
            count: *args.get_one::<u64>("samples").expect("has a default"),
            seed,
        }
    };
    let table = args.get_one::<String>("table").map(String::as_str);
    let report = verify(oracle, selection, table)?;
    if args.get_flag("json") {
        say(serde_json::to_string(&report)?)?;
    } else {
        for mismatch in &report.mismatches {
            say(format_args!("MISMATCH {mismatch}"))?;
        }
        say(report.summary())?;
    }
    Ok(if report.mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
