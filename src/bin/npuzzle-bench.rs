//! `npuzzle-bench`: three measurements in one binary. `npuzzle-bench FILE` solves the rows of
//! a benchmark file ([`rows`]), `npuzzle-bench random` seeded random boards of many sizes
//! ([`random`]), and `npuzzle-bench load` puts a running server under load ([`load`]).
//!
//! This file holds the top-level flags and picks the tool; each tool is a module of its own
//! beside it, so one reads without the others. [`method`] holds what the two that solve boards
//! in this process share: their flags, the pattern databases and the figures they report.

#[path = "npuzzle-bench/labeller.rs"]
mod labeller;
#[path = "npuzzle-bench/load.rs"]
mod load;
#[path = "npuzzle-bench/method.rs"]
mod method;
#[path = "npuzzle-bench/random.rs"]
mod random;
#[path = "npuzzle-bench/rows.rs"]
mod rows;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use crate::load::{LoadArgs, run_load};
use crate::method::Method;
use crate::random::{RandomArgs, run_random};

/// Times optimal solves of the rows of a benchmark file, or puts a server under load.
#[derive(Debug, Parser)]
#[command(name = "npuzzle-bench", version, args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Args {
    /// Another measurement than a benchmark file's rows.
    #[command(subcommand)]
    command: Option<Command>,
    /// Rows `id<TAB>optimal<TAB>tiles`, as in benchmarks/korf100.tsv.
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// How the rows are solved.
    #[command(flatten)]
    method: Method,
    /// Solve through the npuzzle server at this URL (e.g. http://127.0.0.1:50051; `http://` may
    /// be left out) instead of in this process.
    #[arg(long)]
    addr: Option<String>,
    /// Only the first K rows (after --ids).
    #[arg(long, value_name = "K")]
    limit: Option<usize>,
    /// Only the rows with these ids, comma-separated.
    #[arg(long, value_delimiter = ',')]
    ids: Vec<String>,
    /// Only K rows (after --ids, before --limit), drawn without replacement by --seed.
    #[arg(long, value_name = "K")]
    sample: Option<usize>,
    /// The seed of --sample's draw: the same seed draws the same rows.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Ask each row for a hint (the distance and the best first moves) instead of a solution:
    /// the distance must be the row's optimum.
    #[arg(long)]
    hint: bool,
}

/// The measurements other than a benchmark file.
#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Puts a running server (or a local proxy) under load: concurrent clients send a mix of
    /// calls for a while; prints calls/s, latency per kind and a count per status code.
    Load(LoadArgs),
    /// Solves seeded random solvable boards of each size in this process and prints, per size,
    /// the medians of the moves, moves / Manhattan distance and milliseconds.
    Random(RandomArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let outcome = match &args.command {
        Some(Command::Load(load)) => run_load(load),
        Some(Command::Random(random)) => run_random(random),
        None => rows::run(&args),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("npuzzle-bench: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.downcast_ref::<io::Error>().is_some_and(|err| err.kind() == io::ErrorKind::BrokenPipe)
}
