//! `tbquery`: answers from tablebases. Its games and their options come from the
//! registry in `games`; every command works the same way for every game.

use anyhow::Context;
use clap::{
    ArgMatches, Args, Command, CommandFactory, FromArgMatches, Parser, Subcommand, value_parser,
};
use games::GameError;
use games::spec::{Entry, Purpose};
use games::{cli, registry};
use query::answer::PositionAnswer;
use query::api::error_answer;
use query::engine::Algorithm;
use query::lines::{LineError, LineReader};
use query::oracle::parse_captured;
use query::play::{Ending, Player, Settings};
use query::verify::Selection;
use query::{GameHandle, Library, QueryError, render};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The most `--samples` accepted; a table with fewer slots is checked whole.
const MAX_SAMPLES: u64 = 1_000_000_000;

/// The longest line `probe GAME -` reads: a longer one is answered with an
/// error, counted but not held.
const MAX_INPUT_LINE: usize = 1 << 20;

/// `tbquery`'s fixed commands and flags; the per-game commands get one
/// subcommand per game from the registry ([`cli`]).
#[derive(Debug, Parser)]
#[command(
    name = "tbquery",
    version,
    about = "Probe tablebases, play perfectly, verify tables, serve HTTP",
    subcommand_required = true,
    arg_required_else_help = false
)]
struct Cli {
    /// Folder holding the tables
    #[arg(long, global = true, value_name = "DIR", default_value = "tablebases")]
    dir: PathBuf,
    /// Memory for decompressed table blocks, in MB; the least used are dropped first
    #[arg(long = "cache-mb", global = true, value_name = "MB", default_value_t = 256,
          value_parser = value_parser!(u64).range(1..=1 << 20))]
    cache_mb: u64,
    #[command(subcommand)]
    tool: Tool,
}

#[derive(Debug, Subcommand)]
enum Tool {
    /// The value of a position and every legal move with its value, best first
    Probe,
    /// Play a game in the terminal: against perfect play, each other, or to watch
    Play,
    /// The line of perfect play from a position to the end of the game
    Line,
    /// Check tables against live search, formulas and their own moves; exits 1 on any mismatch
    Verify,
    /// Every game with its options, start position and tables
    Games {
        /// One JSON object, the same as GET /api/v1/games
        #[arg(long)]
        json: bool,
    },
    /// A chess FEN as the lichess tablebase API answers it: the outcome under the 50-move rule from the FEN's halfmove clock, DTZ and DTM, and every move with the same, in lichess's order
    #[command(
        after_help = "Reads the chess-* (DTM) and chess-dtz-* tables: tbgen chess ENDING makes both."
    )]
    Standard {
        /// A FEN; its halfmove clock counts toward the 50-move rule
        #[arg(value_name = "FEN")]
        fen: String,
        /// The JSON GET /standard answers, as lichess's
        #[arg(long)]
        json: bool,
    },
    /// The tables in the folder with their header statistics
    Info {
        /// One JSON object listing every table
        #[arg(long)]
        json: bool,
    },
    /// Read and check every block of every table in the folder; exits 1 on any damage
    Check {
        /// One JSON object listing every table and its damage
        #[arg(long)]
        json: bool,
    },
    /// Serve the JSON API, metrics and a web page over HTTP; SIGTERM or Ctrl-C stops it gracefully
    #[command(
        after_help = "Request logs go to standard error; TBQUERY_LOG sets their level (error, warn, info, debug), info by default."
    )]
    Serve(ServeArgs),
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// Address and port to listen on
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1:8080")]
    addr: String,
    #[arg(
        long,
        value_name = "ORIGIN",
        help = "Let pages from this origin call the API, e.g. https://example.org"
    )]
    cors: Option<String>,
    /// Probes answered at once; more are refused with 503 and Retry-After
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = value_parser!(u64).range(1..=65_536))]
    max_probes: u64,
    /// Answers one client address may have under way at once; behind a reverse proxy, raise it to --max-probes
    #[arg(long, value_name = "N", default_value_t = 64,
          value_parser = value_parser!(u64).range(1..=65_536))]
    max_per_address: u64,
    /// The most a page view's moves may take, in MB; a view that would take more answers without them
    #[arg(long = "max-view-mb", value_name = "MB", default_value_t = 8,
          value_parser = value_parser!(u64).range(1..=4096))]
    max_view_mb: u64,
    /// Connections open at once; beyond this a new one closes an idle one (no answer in progress is cut)
    #[arg(long, value_name = "N", default_value_t = 4096,
          value_parser = value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,
    /// Time a client may take nothing of its answer before it is cut off
    #[arg(long, value_name = "SECONDS", default_value_t = 10,
          value_parser = value_parser!(u64).range(1..=3600))]
    write_timeout: u64,
    /// The most memory answers waiting for their readers may hold, in MB; beyond it answers are refused with 503
    #[arg(long = "max-waiting-mb", value_name = "MB", default_value_t = 64,
          value_parser = value_parser!(u64).range(1..=65_536))]
    max_waiting_mb: u64,
    /// Time a client has to send a request's head
    #[arg(long, value_name = "SECONDS", default_value_t = 10,
          value_parser = value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Time an answer may take; its work stops then (408)
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = value_parser!(u64).range(1..=3600))]
    answer_timeout: u64,
    /// Time open connections may finish in after SIGTERM or Ctrl-C
    #[arg(long, value_name = "SECONDS", default_value_t = 10,
          value_parser = value_parser!(u64).range(0..=3600))]
    drain_timeout: u64,
}

/// `probe GAME`'s own arguments.
#[derive(Debug, Args)]
struct ProbeArgs {
    /// The position, `start`, or `-` to read one position per line from standard input
    #[arg(value_name = "POSITION")]
    position: String,
    /// One JSON object per position (JSON Lines when reading standard input)
    #[arg(long)]
    json: bool,
}

/// `probe GAME --counted`, for games whose positions are lists of numbers.
#[derive(Debug, Args)]
struct CountedArg {
    /// Read the position as a count n and then n numbers, over any lines (with `-`, all of standard input is one position)
    #[arg(long)]
    counted: bool,
}

/// `probe GAME --captured`, for score games played for a fixed total.
#[derive(Debug, Args)]
struct CapturedArg {
    /// What the mover and the opponent have already taken; adds who wins the whole game
    #[arg(long, value_name = "M,O")]
    captured: Option<String>,
}

/// `play GAME`'s own arguments.
#[derive(Debug, Args)]
struct PlayArgs {
    /// Start from this position instead of the game's start
    #[arg(long, value_name = "POSITION")]
    from: Option<String>,
    /// Who moves first against the other [default: human]
    #[arg(long, value_name = "WHO", conflicts_with = "players")]
    first: Option<Player>,
    /// Who plays each side: human or computer, e.g. human,human or computer,computer
    #[arg(long, value_name = "FIRST,SECOND", value_delimiter = ',')]
    players: Option<Vec<Player>>,
    /// The computer's strength: 10 plays perfectly; below, it makes a deliberate mistake with probability (10 - level)/10 on each move
    #[arg(long, value_name = "0-10", default_value_t = 10,
          value_parser = value_parser!(u8).range(0..=10))]
    level: u8,
    /// Seeds the computer's mistakes below level 10, to play a game again [default: from the clock]
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Write the game to standard output as JSON Lines, one object per ply and a last one with the result; the board and prompts go to standard error
    #[arg(long)]
    transcript: bool,
}

/// `play GAME`'s search, for games whose play searches beyond the tables.
#[derive(Debug, Args)]
struct SearchArgs {
    /// Seconds the computer may search where the tables do not reach, deepening one ply at a time
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 2.0,
        conflicts_with = "depth"
    )]
    think: f64,
    /// How the computer searches beyond the tables; all three find the same score at the same depth, alpha-beta visiting the fewest positions
    #[arg(long, value_name = "NAME", value_enum, default_value_t = Algorithm::AlphaBeta)]
    algorithm: Algorithm,
    /// Search exactly this many plies beyond the tables instead of for --think seconds
    #[arg(long, value_name = "PLIES",
          value_parser = value_parser!(u32).range(1..=i64::from(query::engine::MAX_DEPTH)))]
    depth: Option<u32>,
}

/// `line GAME`'s own arguments.
#[derive(Debug, Args)]
struct LineArgs {
    /// The position, or `start`
    #[arg(value_name = "POSITION")]
    position: String,
    /// One JSON object: the line, ply by ply
    #[arg(long)]
    json: bool,
    /// The line in the game's record format (chess: PGN with FEN and SetUp headers)
    #[arg(long, conflicts_with = "json")]
    pgn: bool,
    /// The most plies; a drawn line also stops where a position repeats
    #[arg(long, value_name = "N", default_value_t = 500,
          value_parser = value_parser!(u64).range(1..=query::view::MAX_LINE as u64))]
    plies: u64,
}

/// `verify GAME`'s own arguments.
#[derive(Debug, Args)]
struct VerifyArgs {
    /// Only this table and the tables its moves lead to (chess: a material such as KQvKR; abapa: the most seeds); by default every table present
    #[arg(value_name = "TABLE")]
    table: Option<String>,
    /// Check every slot against live search
    #[arg(long)]
    all: bool,
    /// Slots per table checked against live search, drawn at random (at most the slots a table has) [default: 10000]
    #[arg(long, value_name = "N", conflicts_with = "all",
          value_parser = value_parser!(u64).range(0..=MAX_SAMPLES))]
    samples: Option<u64>,
    /// Seed for drawing samples
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    seed: u64,
    /// The report as one JSON object
    #[arg(long)]
    json: bool,
}

/// A per-game command with its arguments, read once the game is known.
#[derive(Debug)]
enum GameCommand {
    Probe {
        args: ProbeArgs,
        counted: bool,
        captured: Option<String>,
    },
    Play {
        args: PlayArgs,
        search: Option<SearchArgs>,
    },
    Line(LineArgs),
    Verify(VerifyArgs),
}

impl GameCommand {
    /// The purpose a command reads a game's options for: `play` takes the
    /// options of how a game is played out too.
    fn purpose(tool: &Tool) -> Purpose {
        match tool {
            Tool::Play => Purpose::Play,
            _ => Purpose::Query,
        }
    }

    /// `tool`'s subcommand for `entry`: the game's options, the command's own
    /// arguments and those of the extras the game has.
    fn command(tool: &Tool, entry: &'static Entry) -> Command {
        let game = cli::option_args(Command::new(entry.id), entry, Self::purpose(tool));
        let extras = entry.extras;
        let game = match tool {
            Tool::Probe => {
                let game = ProbeArgs::augment_args(game);
                let game = match extras.counted_input {
                    true => CountedArg::augment_args(game),
                    false => game,
                };
                match extras.whole_game {
                    true => CapturedArg::augment_args(game),
                    false => game,
                }
            }
            Tool::Play => match extras.search_beyond_tables {
                true => SearchArgs::augment_args(PlayArgs::augment_args(game)),
                false => PlayArgs::augment_args(game),
            },
            Tool::Line => LineArgs::augment_args(game),
            _ => VerifyArgs::augment_args(game),
        };
        // Set last: the arguments' own doc comments would be taken as its about.
        game.about(entry.about)
            .after_help(format!("Positions: {}", entry.notation))
    }

    /// The command `tool` asks of `entry` with `args`, parsed by [`Self::command`].
    fn read(tool: &Tool, entry: &Entry, args: &ArgMatches) -> Result<GameCommand, clap::Error> {
        let extras = entry.extras;
        Ok(match tool {
            Tool::Probe => GameCommand::Probe {
                args: ProbeArgs::from_arg_matches(args)?,
                counted: extras.counted_input && CountedArg::from_arg_matches(args)?.counted,
                captured: match extras.whole_game {
                    true => CapturedArg::from_arg_matches(args)?.captured,
                    false => None,
                },
            },
            Tool::Play => GameCommand::Play {
                args: PlayArgs::from_arg_matches(args)?,
                search: match extras.search_beyond_tables {
                    true => Some(SearchArgs::from_arg_matches(args)?),
                    false => None,
                },
            },
            Tool::Line => GameCommand::Line(LineArgs::from_arg_matches(args)?),
            _ => GameCommand::Verify(VerifyArgs::from_arg_matches(args)?),
        })
    }
}

/// The whole command line: the derived commands, each per-game command with
/// a subcommand per game.
fn command_line() -> Command {
    let games: Vec<String> = registry::entries()
        .iter()
        .map(|e| format!("  {:12} {}", e.id, e.about))
        .collect();
    let mut command = Cli::command().after_help(format!(
        "Games (`tbquery probe GAME --help` gives a game's position notation and options; \
         every game takes `start` for its start position):\n{}",
        games.join("\n")
    ));
    // Every command in turn (each one changed moves to the end, so all keep
    // their order), the per-game ones given a subcommand per game.
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let tool = match name.as_str() {
            "probe" => Some(Tool::Probe),
            "play" => Some(Tool::Play),
            "line" => Some(Tool::Line),
            "verify" => Some(Tool::Verify),
            _ => None,
        };
        command = command.mut_subcommand(name, |command| match tool {
            Some(tool) => per_game(command, &tool),
            None => command,
        });
    }
    command
}

/// A per-game command with a subcommand for each game.
fn per_game(command: Command, tool: &Tool) -> Command {
    let command = command
        .subcommand_required(true)
        .allow_external_subcommands(true)
        .subcommand_value_name("GAME")
        .subcommand_help_heading("Games");
    registry::entries().iter().fold(command, |command, entry| {
        command.subcommand(GameCommand::command(tool, entry))
    })
}

fn main() -> ExitCode {
    let matches = command_line().get_matches();
    let parsed = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match run(parsed, &matches) {
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
fn answer(json: bool, value: &impl serde::Serialize, text: String) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match json {
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

/// Success, or failure where `ok` is false.
fn exit_code(ok: bool) -> ExitCode {
    match ok {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    }
}

fn run(flags: Cli, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    let library = Library::with_budget(&flags.dir, flags.cache_mb << 20);
    let dir = &flags.dir;
    match flags.tool {
        tool @ (Tool::Probe | Tool::Play | Tool::Line | Tool::Verify) => {
            let (_, per_game) = matches.subcommand().expect("a subcommand is required");
            let (id, args) = per_game.subcommand().expect("a game is required");
            let entry = registry::entry(id)?;
            let purpose = GameCommand::purpose(&tool);
            let options = entry.complete(&cli::given_options(entry, purpose, args))?;
            let command = GameCommand::read(&tool, entry, args).unwrap_or_else(|e| e.exit());
            let handle = library.open(id, &options)?;
            let (handle, library) = (&*handle, &library);
            match command {
                GameCommand::Probe {
                    args,
                    counted,
                    captured,
                } => {
                    let captured = captured.as_deref();
                    probe_command(library, handle, &args, counted, captured)
                }
                GameCommand::Play { args, search } => play_command(library, handle, args, search),
                GameCommand::Line(args) => line_command(library, handle, &args),
                GameCommand::Verify(args) => verify_command(library, handle, &args),
            }
        }
        Tool::Standard { fen, json } => {
            let standard = query::lichess::standard(&library, &fen)?;
            answer(json, &standard, render::standard(&fen, &standard))?;
            Ok(ExitCode::SUCCESS)
        }
        Tool::Games { json } => {
            let list = query::api::games(&library);
            answer(json, &list, query::render::games(&list))?;
            Ok(ExitCode::SUCCESS)
        }
        Tool::Info { json } => {
            let listing =
                query::info::scan(dir).with_context(|| format!("reading {}", dir.display()))?;
            answer(json, &listing, query::render::listing(&listing, dir))?;
            Ok(exit_code(listing.tables.iter().all(|e| e.readable())))
        }
        Tool::Check { json } => {
            let report = query::check::check_dir(dir)
                .with_context(|| format!("reading {}", dir.display()))?;
            answer(json, &report, query::render::check(&report))?;
            Ok(exit_code(report.damaged() == 0))
        }
        Tool::Serve(args) => serve(library, args),
    }
}

/// `tbquery serve`: logs to standard error, then the server until a signal.
fn serve(mut library: Library, args: ServeArgs) -> anyhow::Result<ExitCode> {
    let filter = tracing_subscriber::EnvFilter::try_from_env("TBQUERY_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cors = args
        .cors
        .map(|origin| {
            origin
                .parse::<axum::http::HeaderValue>()
                .map_err(|_| GameError::option("cors", &origin, "is not a valid origin"))
        })
        .transpose()?;
    let limits = query::serve::Limits {
        header_timeout: Duration::from_secs(args.header_timeout),
        request_timeout: Duration::from_secs(args.answer_timeout),
        drain_timeout: Duration::from_secs(args.drain_timeout),
        max_probes: args.max_probes as usize,
        max_per_address: args.max_per_address as usize,
        max_connections: args.max_connections as usize,
        write_timeout: Duration::from_secs(args.write_timeout),
        max_waiting: (args.max_waiting_mb << 20) as usize,
        cors,
        ..query::serve::Limits::default()
    };
    library.max_view = (args.max_view_mb << 20) as usize;
    let runtime = tokio::runtime::Runtime::new().context("starting the server runtime")?;
    runtime.block_on(query::serve::serve(
        &args.addr,
        library,
        limits,
        query::serve::shutdown_signal(),
    ))?;
    // Dropping the connections left stops their work at its next
    // checkpoint; none takes longer than a probe to get there.
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(ExitCode::SUCCESS)
}

/// Probes one position, or with `-` every line of standard input, answering bad
/// lines with an error and going on.
fn probe_command(
    library: &Library,
    handle: &dyn GameHandle,
    args: &ProbeArgs,
    counted: bool,
    captured: Option<&str>,
) -> anyhow::Result<ExitCode> {
    let json = args.json;
    let captured = captured.map(parse_captured).transpose()?;
    let answer = |text: &str| -> Result<String, QueryError> {
        Ok(match json {
            true => {
                let answer: PositionAnswer = handle.probe(library, text, captured)?;
                serde_json::to_string(&answer).expect("answers serialize")
            }
            // With the game's other measures (chess: DTZ beside DTM) said
            // under the value.
            false => handle
                .probe_text(library, text, captured)?
                .trim_end()
                .to_string(),
        })
    };
    let position = &args.position;
    if counted {
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
    Ok(exit_code(failures == 0))
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

fn play_command(
    library: &Library,
    handle: &dyn GameHandle,
    args: PlayArgs,
    search: Option<SearchArgs>,
) -> anyhow::Result<ExitCode> {
    let players = match args.players.as_deref() {
        Some(&[first, second]) => [first, second],
        Some(_) => {
            return Err(GameError::option(
                "players",
                "",
                "takes two players, first and second: human,computer",
            )
            .into());
        }
        None => Settings::against_computer(args.first.unwrap_or(Player::Human)).players,
    };
    let think = search.as_ref().map_or(2.0, |s| s.think);
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
        algorithm: search.as_ref().map(|s| s.algorithm).unwrap_or_default(),
        depth: search.as_ref().and_then(|s| s.depth),
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos() as u64)
    });
    let settings = Settings {
        players,
        level: args.level,
        seed,
        search,
    };
    let input = &mut std::io::stdin().lock();
    let from = args.from.as_deref();
    let ending = if args.transcript {
        let mut transcript = std::io::stdout().lock();
        let out = &mut std::io::stderr().lock();
        handle.play(library, from, settings, input, out, Some(&mut transcript))?
    } else {
        let out = &mut std::io::stdout().lock();
        handle.play(library, from, settings, input, out, None)?
    };
    Ok(if ending == Ending::Abandoned {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn line_command(
    library: &Library,
    handle: &dyn GameHandle,
    args: &LineArgs,
) -> anyhow::Result<ExitCode> {
    let (position, plies) = (&args.position, args.plies as usize);
    if args.pgn {
        say(handle.record(library, position, plies)?.trim_end())?;
        return Ok(ExitCode::SUCCESS);
    }
    let line = handle.line(library, position, plies)?;
    if args.json {
        say(serde_json::to_string(&line)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    say(handle.line_text(library, &line).trim_end())?;
    Ok(ExitCode::SUCCESS)
}

fn verify_command(
    library: &Library,
    handle: &dyn GameHandle,
    args: &VerifyArgs,
) -> anyhow::Result<ExitCode> {
    let seed = args.seed;
    let selection = match (args.all, args.samples) {
        (true, _) => Selection::All,
        (false, None) => Selection::Default { seed },
        (false, Some(count)) => Selection::Samples { count, seed },
    };
    let progress = games::progress::Progress::terminal();
    let report = handle.verify(library, selection, args.table.as_deref(), &progress)?;
    if args.json {
        say(serde_json::to_string(&report)?)?;
    } else {
        for mismatch in &report.mismatches {
            say(format_args!("MISMATCH {mismatch}"))?;
        }
        say(report.summary())?;
    }
    Ok(exit_code(report.mismatches.is_empty()))
}
