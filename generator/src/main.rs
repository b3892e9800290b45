//! `tbgen`: generates tablebases. Its games, their options and what `tbgen all`
//! makes come from the registry in `games`.

use anyhow::Context;
use clap::{ArgMatches, Command, CommandFactory, FromArgMatches, Parser, value_parser};
use games::spec::{Entry, Options, Purpose, Scope};
use games::{cli, registry};
use generator::{Progress, Summary, WriteOptions, check_game};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The most worker threads `--threads` accepts.
const MAX_THREADS: u64 = 256;

/// `tbgen`'s fixed flags; its subcommands are `all` and one per game, with
/// the game's options from the registry ([`cli`]).
#[derive(Debug, Parser)]
#[command(
    name = "tbgen",
    version,
    about = "Solve games completely and write tablebase files",
    subcommand_required = true,
    arg_required_else_help = false
)]
struct Cli {
    /// Folder to write tables into
    #[arg(long, global = true, value_name = "DIR", default_value = "tablebases")]
    dir: PathBuf,
    /// Worker threads (default: one per core); tables are identical for any count
    #[arg(long, global = true, value_name = "N",
          value_parser = value_parser!(u64).range(1..=MAX_THREADS))]
    threads: Option<u64>,
    /// Record a solve time of 0 in headers, so files are identical byte for byte
    #[arg(long, global = true)]
    reproducible: bool,
    /// zstd level, 1-22 (default: 12 up to a million slots, 9 above; 15 makes
    /// 5-piece chess tables 12-20% smaller in about 9 times the compression time)
    #[arg(long, global = true, value_name = "LEVEL",
          value_parser = value_parser!(i32).range(1..=22))]
    level: Option<i32>,
    /// Store each table in its game's own order where it has one, weighed
    /// for size (chess: each side to move of a pawnless ending in a file
    /// index led by whichever piece compresses best): smaller tables, slower
    /// to write
    #[arg(long, global = true)]
    game_order: bool,
    /// Store one side to move (the lane that compresses smaller) in each
    /// table that searches its captures (chess), the other valued by a
    /// search of its moves when asked: about half the bytes, probes that
    /// look two plies down (DTZ then keeps its own draws)
    #[arg(long, global = true)]
    one_side: bool,
    /// Make every table again, even where a sound one is in the folder (by
    /// default a table whose header and blocks check is kept)
    #[arg(long, global = true)]
    remake: bool,
    /// Memory in GB a run may count on (default: what the system has
    /// available); a solve that needs more is refused before it starts
    #[arg(long, global = true, value_name = "GB", value_parser = gigabytes)]
    memory: Option<u64>,
    /// The default: sound tables are kept (for scripts written before it was)
    #[arg(long, global = true, hide = true, conflicts_with = "remake")]
    resume: bool,
}

/// Bytes from a figure in GB (decimal: 1 GB is 10^9 bytes), e.g. `20` or `12.5`.
fn gigabytes(text: &str) -> Result<u64, String> {
    match text.parse::<f64>() {
        Ok(gb) if gb.is_finite() && gb > 0.0 && gb < 1e9 => Ok((gb * 1e9) as u64),
        _ => Err("a number of gigabytes above 0, e.g. 20 or 12.5".into()),
    }
}

/// The whole command line: the fixed flags, `all`, and a subcommand per game.
fn command_line() -> Command {
    let all = Command::new("all")
        .about("Every default table of every game (each game's subcommand says what it makes)");
    registry::entries()
        .iter()
        .fold(Cli::command().subcommand(all), |command, entry| {
            command.subcommand(game_command(entry))
        })
}

/// A game's subcommand: its options, and what `tbgen all` makes of it.
fn game_command(entry: &'static Entry) -> Command {
    let all = match entry.all {
        [] => "no tables: every position is answered on demand".to_string(),
        sets => sets
            .iter()
            .map(|set| {
                let flags: Vec<String> = set
                    .iter()
                    .map(|&(name, value)| match entry.option(name) {
                        Some(o) if o.positional => value.to_string(),
                        _ => format!("--{name} {value}"),
                    })
                    .collect();
                match flags.is_empty() {
                    true => "its tables".to_string(),
                    false => flags.join(" "),
                }
            })
            .collect::<Vec<_>>()
            .join("; "),
    };
    let command = Command::new(entry.id)
        .about(entry.about)
        .after_help(format!(
            "Positions: {}\n`tbgen all` makes: {all}",
            entry.notation
        ));
    cli::option_args(command, entry, Purpose::Generate)
}

/// One set of options per variant: a comma-separated variant option makes one
/// for each of its values, and a measure not given makes every one it has
/// ([`games::spec::OptionSpec::default_for`]).
fn variants(entry: &Entry, options: &Options) -> Vec<Options> {
    let mut options = options.clone();
    for option in entry.options_for(Purpose::Generate) {
        let every = option.default_for(Purpose::Generate);
        if let (Scope::Measure, None, Some(every)) = (option.scope, options.get(option.name), every)
        {
            options.set(option.name, &every);
        }
    }
    let mut all = vec![Options::generate()];
    for (name, value) in options.iter() {
        let split = entry.option(name).is_some_and(|o| o.scope.is_variant());
        let values: Vec<&str> = if split {
            value.split(',').map(str::trim).collect()
        } else {
            vec![value]
        };
        all = all
            .into_iter()
            .flat_map(|base| {
                values.iter().map(move |v| {
                    let mut next = base.clone();
                    next.set(name, v);
                    next
                })
            })
            .collect();
    }
    all
}

fn main() -> ExitCode {
    let matches = command_line().get_matches();
    let parsed = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match run(parsed, &matches) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(flags: Cli, matches: &ArgMatches) -> anyhow::Result<()> {
    if let Some(threads) = flags.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads as usize)
            .build_global()
            .context("starting worker threads")?;
    }
    let write = WriteOptions {
        dir: flags.dir,
        reproducible: flags.reproducible,
        level: flags.level,
        game_order: flags.game_order,
        one_side: flags.one_side,
        keep: flags.resume || !flags.remake,
        draft: false,
        memory: flags.memory,
    };
    let (name, sub) = matches.subcommand().expect("a subcommand is required");
    // Every game and variant to make, all checked before any work starts.
    let mut jobs: Vec<(&'static str, Options)> = Vec::new();
    if name == "all" {
        for entry in registry::entries() {
            for set in entry.all {
                let options = Options::with(Purpose::Generate, set.iter().copied());
                jobs.extend(variants(entry, &options).into_iter().map(|o| (entry.id, o)));
            }
        }
    } else {
        let entry = registry::entry(name)?;
        if entry.all.is_empty() {
            println!("{name} keeps no tables: every position is answered on demand");
            return Ok(());
        }
        let options = cli::given_options(entry, Purpose::Generate, sub);
        jobs.extend(variants(entry, &options).into_iter().map(|o| (entry.id, o)));
    }
    for (id, options) in &jobs {
        check_game(id, options)?;
    }
    // A folder that cannot be made is said before any work, not after it.
    std::fs::create_dir_all(&write.dir)
        .with_context(|| format!("{}: creating the folder", write.dir.display()))?;
    let started = Instant::now();
    #[cfg(feature = "mpi")]
    let cluster = generator::cluster::Cluster::join(write.keep)?;
    #[cfg(feature = "mpi")]
    let (leads, progress) = match cluster.leads() {
        true => (true, Progress::terminal()),
        false => (false, Progress::hidden()),
    };
    #[cfg(not(feature = "mpi"))]
    let (leads, progress) = (true, Progress::terminal());
    let mut summaries: Vec<Summary> = Vec::new();
    let made = |made: &[Summary]| {
        for summary in made {
            println!("{summary}");
            summaries.push(summary.clone());
        }
    };
    #[cfg(feature = "mpi")]
    {
        let mut made = made;
        generator::check_before(&jobs, &write, &progress)?;
        for (id, options) in &jobs {
            made(&generator::cluster::generate_game(
                id, options, &write, &progress, &cluster,
            )?);
        }
    }
    #[cfg(not(feature = "mpi"))]
    generator::generate_games(&jobs, &write, &progress, made)?;
    if leads && summaries.len() > 1 {
        let bytes: u64 = summaries.iter().map(|s| s.bytes).sum();
        let positions: u64 = summaries.iter().map(|s| s.stats.positions).sum();
        let kept = match summaries.iter().filter(|s| s.kept).count() {
            0 => String::new(),
            n => format!(" ({n} kept)"),
        };
        println!(
            "{} tables{kept}, {positions} positions, {bytes} bytes, {:.1} s in all",
            summaries.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
