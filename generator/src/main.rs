//! `tbgen`: generates tablebases.

use anyhow::Context;
use clap::{Parser, Subcommand};
use games::euler::Euler;
use games::lgame::LGame;
use generator::{Progress, Summary, WriteOptions, generate_layered, generate_retrograde};
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
    };
    let progress = Progress::terminal();
    let summaries: Vec<Summary> = match cli.command {
        Command::All => {
            let mut all = generate_layered(&Euler, &options, &progress)?;
            all.extend(generate_retrograde(&LGame, &options, &progress)?);
            all
        }
        Command::Euler => generate_layered(&Euler, &options, &progress)?,
        Command::Lgame => generate_retrograde(&LGame, &options, &progress)?,
    };
    for summary in summaries {
        println!("{summary}");
    }
    Ok(())
}
