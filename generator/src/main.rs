//! `tbgen`: generates tablebases.

use anyhow::Context;
use clap::{Parser, Subcommand};
use games::dots::Dots;
use games::euler::Euler;
use games::lgame::LGame;
use generator::{
    Progress, Summary, WriteOptions, generate_dots, generate_layered, generate_retrograde,
};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "tbgen",
    version,
    about = "Solve games completely and write tablebase files"
)]
struct Cli {
    /// Folder to write tables into.
    #[arg(long, global = true, default_value = "tablebases")]
    dir: PathBuf,
    /// Worker threads (default: one per core). Tables are identical for any count.
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Record a solve time of 0 in headers, so files are identical byte for byte.
    #[arg(long, global = true)]
    reproducible: bool,
    /// zstd compression level, 1-22 (default: 19 for tables up to a million
    /// slots, 3 above).
    #[arg(long, global = true, value_parser = clap::value_parser!(i32).range(1..=22))]
    level: Option<i32>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Every default table.
    All,
    /// The Game of Euler (4x4, 65,536 boards).
    Euler,
    /// The L-Game (18,368 positions in 2,296 symmetry classes).
    Lgame,
    /// Dots-and-boxes: one table per board size.
    Dots {
        /// Board sizes in boxes, rows x columns, comma-separated (3x4 takes minutes
        /// and about 7 GiB of memory).
        #[arg(long, value_delimiter = ',', default_value = "3x3")]
        size: Vec<String>,
    },
}

/// The dots-and-boxes boards `tbgen all` solves: every board up to 2x4 and 3x3.
const DEFAULT_DOTS_SIZES: &[&str] = &["1x1", "1x2", "1x3", "1x4", "2x2", "2x3", "2x4", "3x3"];

fn generate_dots_sizes<S: AsRef<str>>(
    sizes: &[S],
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let boards = sizes
        .iter()
        .map(|size| Dots::parse_size(size.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut all = Vec::new();
    for board in &boards {
        all.extend(generate_dots(board, options, progress)?);
    }
    Ok(all)
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    if let Some(threads) = cli.threads {
        anyhow::ensure!(threads > 0, "--threads must be at least 1");
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("starting worker threads")?;
    }
    let options = WriteOptions {
        dir: cli.dir.clone(),
        reproducible: cli.reproducible,
        level: cli.level,
    };
    let progress = Progress::terminal();
    let summaries: Vec<Summary> = match cli.command {
        Command::All => {
            let mut all = generate_layered(&Euler, &options, &progress)?;
            all.extend(generate_retrograde(&LGame, &options, &progress)?);
            all.extend(generate_dots_sizes(
                DEFAULT_DOTS_SIZES,
                &options,
                &progress,
            )?);
            all
        }
        Command::Euler => generate_layered(&Euler, &options, &progress)?,
        Command::Lgame => generate_retrograde(&LGame, &options, &progress)?,
        Command::Dots { size } => generate_dots_sizes(&size, &options, &progress)?,
    };
    for summary in summaries {
        println!("{summary}");
    }
    Ok(())
}
