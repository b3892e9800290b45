//! `tbgen`: generates tablebases. Its games, their options and what `tbgen all`
//! makes come from the registry in `games`.

use anyhow::Context;
use clap::{Arg, ArgAction, ArgMatches, Command, value_parser};
use games::registry;
use games::spec::{Entry, OptionSpec, Options, Purpose, Values};
use generator::{Progress, Summary, WriteOptions, check_game};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The most worker threads `--threads` accepts.
const MAX_THREADS: u64 = 256;

fn cli() -> Command {
    let mut command = Command::new("tbgen")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Solve games completely and write tablebase files")
        .subcommand_required(true)
        .arg(
            Arg::new("dir")
                .long("dir")
                .global(true)
                .value_name("DIR")
                .default_value("tablebases")
                .value_parser(value_parser!(PathBuf))
                .help("Folder to write tables into"),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .global(true)
                .value_name("N")
                .value_parser(value_parser!(u64).range(1..=MAX_THREADS))
                .help("Worker threads (default: one per core); tables are identical for any count"),
        )
        .arg(
            Arg::new("reproducible")
                .long("reproducible")
                .global(true)
                .action(ArgAction::SetTrue)
                .help("Record a solve time of 0 in headers, so files are identical byte for byte"),
        )
        .arg(
            Arg::new("level")
                .long("level")
                .global(true)
                .value_name("LEVEL")
                .value_parser(value_parser!(i32).range(1..=22))
                .help("zstd level, 1-22 (default: 12 up to a million slots, 3 above)"),
        )
        .arg(
            Arg::new("resume")
                .long("resume")
                .global(true)
                .action(ArgAction::SetTrue)
                .help("Keep the sound tables a stopped run wrote instead of making them again"),
        )
        .subcommand(Command::new("all").about(
            "Every default table of every game (each game's subcommand says what it makes)",
        ));
    for entry in registry::entries() {
        command = command.subcommand(game_command(entry));
    }
    command
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
    let mut command = Command::new(entry.id)
        .about(entry.about)
        .after_help(format!(
            "Positions: {}\n`tbgen all` makes: {all}",
            entry.notation
        ));
    for option in entry.options_for(Purpose::Generate) {
        command = command.arg(option_arg(option));
    }
    command
}

fn option_arg(option: &'static OptionSpec) -> Arg {
    let mut help = format!("{} [{}", option.help, option.describe_values());
    if let Some(default) = option.default {
        help.push_str(&format!("; default {default}"));
    }
    if option.scope.is_variant() {
        help.push_str("; comma-separated for several");
    }
    help.push(']');
    let arg = Arg::new(option.name).help(help).value_name("VALUE");
    if option.values == Values::Flag {
        Arg::new(option.name)
            .long(option.name)
            .action(ArgAction::SetTrue)
            .help(option.help)
    } else if option.positional {
        arg.num_args(0..).value_name(option.name.to_uppercase())
    } else {
        arg.long(option.name)
    }
}

/// The options given on the command line for `entry`.
fn given_options(entry: &Entry, matches: &ArgMatches) -> Options {
    let mut options = Options::generate();
    for option in entry.options_for(Purpose::Generate) {
        if option.values == Values::Flag {
            if matches.get_flag(option.name) {
                options.set(option.name, "yes");
            }
            continue;
        }
        let values: Vec<&String> = matches
            .get_many::<String>(option.name)
            .map(|v| v.collect())
            .unwrap_or_default();
        if !values.is_empty() {
            let joined: Vec<&str> = values.iter().map(|v| v.as_str()).collect();
            options.set(option.name, &joined.join(","));
        }
    }
    options
}

/// One set of options per variant: a comma-separated variant option makes one
/// for each of its values.
fn variants(entry: &Entry, options: &Options) -> Vec<Options> {
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
    match run(cli().get_matches()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(matches: ArgMatches) -> anyhow::Result<()> {
    if let Some(&threads) = matches.get_one::<u64>("threads") {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads as usize)
            .build_global()
            .context("starting worker threads")?;
    }
    let write = WriteOptions {
        dir: matches
            .get_one::<PathBuf>("dir")
            .cloned()
            .unwrap_or_else(|| PathBuf::from("tablebases")),
        reproducible: matches.get_flag("reproducible"),
        level: matches.get_one::<i32>("level").copied(),
        resume: matches.get_flag("resume"),
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
        let options = given_options(entry, sub);
        jobs.extend(variants(entry, &options).into_iter().map(|o| (entry.id, o)));
    }
    for (id, options) in &jobs {
        check_game(id, options)?;
    }
    let started = Instant::now();
    #[cfg(feature = "mpi")]
    let cluster = generator::cluster::Cluster::join(write.resume)?;
    #[cfg(feature = "mpi")]
    let (leads, progress) = match cluster.leads() {
        true => (true, Progress::terminal()),
        false => (false, Progress::hidden()),
    };
    #[cfg(not(feature = "mpi"))]
    let (leads, progress) = (true, Progress::terminal());
    let mut summaries: Vec<Summary> = Vec::new();
    for (id, options) in &jobs {
        #[cfg(feature = "mpi")]
        let made = generator::cluster::generate_game(id, options, &write, &progress, &cluster)?;
        #[cfg(not(feature = "mpi"))]
        let made = generator::generate_game(id, options, &write, &progress)?;
        for summary in made {
            println!("{summary}");
            summaries.push(summary);
        }
    }
    if leads && summaries.len() > 1 {
        let bytes: u64 = summaries.iter().map(|s| s.bytes).sum();
        let positions: u64 = summaries.iter().map(|s| s.stats.positions).sum();
        println!(
            "{} tables, {positions} positions, {bytes} bytes, {:.1} s in all",
            summaries.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
