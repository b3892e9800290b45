//! `tbgen`: generates tablebases.

use anyhow::Context;
use clap::{Parser, Subcommand};
use games::abapa::{Abapa, MAX_TABLE_SEEDS, Rules};
use games::dots::Dots;
use games::endgame::{Endgame, Material};
use games::euler::Euler;
use games::grundy::HEAP_GAMES;
use games::lgame::LGame;
use games::nim::{GAME21, GAME100, Heaps, Rule};
use games::northcott::Northcott;
use games::pits::Pits;
use generator::grundy::generate_grundy;
use generator::{
    Progress, Summary, WriteOptions, generate_abapa, generate_dots, generate_endgame,
    generate_layered, generate_retrograde,
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
    /// Abapa (tournament Oware) endgame databases: every position with up to
    /// `--max-seeds` seeds on the board, one table per seed count.
    Abapa {
        /// The most seeds on the board (tiers 0 to this).
        #[arg(long, default_value_t = 12)]
        max_seeds: u32,
        /// `default`, or `thesis`: the game also ends when both sides hold fewer
        /// than 4 seeds after a move.
        #[arg(long)]
        rules: Option<String>,
    },
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
    /// Nim: up to 6 heaps of up to 15, order folded.
    Nim,
    /// Misère Nim (taking the last stone loses): up to 6 heaps of up to 15.
    NimMisere,
    /// A subtraction game (take 1 to k): up to 6 heaps of up to 15.
    Subtraction {
        /// The most stones a move may take.
        #[arg(long, default_value = "3")]
        max_take: String,
    },
    /// The 21 game: count up by 1-3; whoever must say 21 loses.
    Game21,
    /// The 100 game: add 1-10; whoever reaches 100 wins.
    Game100,
    /// Northcott's game, one table per board size (columns x rows).
    Northcott {
        /// Board sizes, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "4x8,6x6")]
        size: Vec<String>,
        /// `default` (forward and backward moves) or `forward`.
        #[arg(long)]
        rules: Option<String>,
    },
    /// Stones in pits: every row of up to 16 pits.
    Pits,
    /// Pawnless chess endings, e.g. `KQvKR`, with every smaller ending a capture
    /// leads to.
    Chess {
        /// Materials, e.g. KQvK KRvK KQvKR.
        materials: Vec<String>,
        /// Every ending of up to this many pieces (3 or 4).
        #[arg(long)]
        all: Option<usize>,
    },
    /// Grundy values of Kayles, Dawson's Kayles, Grundy's game and Lasker's Nim.
    Grundy {
        /// The largest heap (Kayles 100,000 takes a few seconds; Lasker's Nim stops at
        /// 65,000, where its values outgrow the table codes and its closed formula
        /// covers the rest).
        #[arg(long, default_value_t = DEFAULT_GRUNDY_LIMIT)]
        limit: u64,
    },
}

/// The impartial games' default tables.
fn generate_impartial(options: &WriteOptions, progress: &Progress) -> anyhow::Result<Vec<Summary>> {
    let mut all = Vec::new();
    for rule in [Rule::Nim, Rule::Misere, Rule::Subtract(3)] {
        all.extend(generate_layered(&Heaps::new(rule), options, progress)?);
    }
    for game in [GAME21, GAME100] {
        all.extend(generate_layered(&game, options, progress)?);
    }
    all.extend(generate_layered(&Pits, options, progress)?);
    all.extend(generate_northcott(
        &["4x8".to_string(), "6x6".to_string()],
        None,
        options,
        progress,
    )?);
    for game in HEAP_GAMES {
        all.push(generate_grundy(game, DEFAULT_GRUNDY_LIMIT, options)?);
    }
    Ok(all)
}

fn generate_northcott(
    sizes: &[String],
    rules: Option<&str>,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let boards = sizes
        .iter()
        .map(|size| {
            let board = Northcott::from_variant(Some(size), rules)?;
            board.table_fits()?;
            Ok(board)
        })
        .collect::<Result<Vec<_>, games::GameError>>()?;
    let mut all = Vec::new();
    for board in &boards {
        all.extend(generate_retrograde(board, options, progress)?);
    }
    Ok(all)
}

/// Heap sizes `tbgen all` computes Grundy values for.
const DEFAULT_GRUNDY_LIMIT: u64 = 10_000;

/// Abapa tiers in `tbgen all`: up to 12 seeds, 2.7 million positions per rule set.
const DEFAULT_ABAPA_SEEDS: u32 = 12;

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
            all.extend(generate_impartial(&options, &progress)?);
            // KQvKR and what its captures lead to: KvK, KQvK, KRvK.
            let queen_rook = Endgame::new(&Material::parse("KQvKR")?);
            all.extend(generate_endgame(&queen_rook, &options, &progress)?);
            for rules in [Rules::Default, Rules::Thesis] {
                let abapa = Abapa::new(rules, DEFAULT_ABAPA_SEEDS);
                all.extend(generate_abapa(&abapa, &options, &progress)?);
            }
            all
        }
        Command::Abapa { max_seeds, rules } => {
            anyhow::ensure!(
                max_seeds <= MAX_TABLE_SEEDS,
                "--max-seeds goes up to {MAX_TABLE_SEEDS} (24 seeds: 1.25 billion positions)"
            );
            let rules = games::abapa::Rules::parse(rules.as_deref())?;
            generate_abapa(&Abapa::new(rules, max_seeds), &options, &progress)?
        }
        Command::Euler => generate_layered(&Euler, &options, &progress)?,
        Command::Lgame => generate_retrograde(&LGame, &options, &progress)?,
        Command::Dots { size } => generate_dots_sizes(&size, &options, &progress)?,
        Command::Nim => generate_layered(&Heaps::new(Rule::Nim), &options, &progress)?,
        Command::NimMisere => generate_layered(&Heaps::new(Rule::Misere), &options, &progress)?,
        Command::Subtraction { max_take } => {
            generate_layered(&Heaps::subtraction(&max_take)?, &options, &progress)?
        }
        Command::Game21 => generate_layered(&GAME21, &options, &progress)?,
        Command::Game100 => generate_layered(&GAME100, &options, &progress)?,
        Command::Northcott { size, rules } => {
            generate_northcott(&size, rules.as_deref(), &options, &progress)?
        }
        Command::Pits => generate_layered(&Pits, &options, &progress)?,
        Command::Chess { materials, all } => {
            let mut wanted = materials
                .iter()
                .map(|m| Material::parse(m))
                .collect::<Result<Vec<_>, _>>()?;
            if let Some(pieces) = all {
                anyhow::ensure!((3..=4).contains(&pieces), "--all takes 3 or 4 pieces");
                wanted.extend(
                    Material::all_up_to_four()
                        .into_iter()
                        .filter(|m| m.count() <= pieces),
                );
            }
            anyhow::ensure!(
                !wanted.is_empty(),
                "name a material such as KQvKR, or give --all 4"
            );
            generate_endgame(&Endgame::of_all(&wanted), &options, &progress)?
        }
        Command::Grundy { limit } => HEAP_GAMES
            .into_iter()
            .map(|game| generate_grundy(game, limit, &options))
            .collect::<anyhow::Result<_>>()?,
    };
    for summary in summaries {
        println!("{summary}");
    }
    Ok(())
}
