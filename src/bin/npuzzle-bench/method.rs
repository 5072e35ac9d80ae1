//! How the rows of a benchmark file and `random`'s boards are solved in this process: the
//! flags both tools take ([`Method`]), the solver's [`Options`] they make, with the pattern
//! databases loaded once per board size before any board is timed, and the two figures both
//! report ([`gap`], [`median`]). One place, so both tools time the same search the same way.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use npuzzle::solver::{self, Helpers, Optimality, Partition, PatternDatabases, Solver, TableMemory};
use npuzzle::{Algorithm, Heuristic, Options};

/// How every board is solved, and where the pattern databases come from.
#[derive(Debug, clap::Args)]
pub struct Method {
    /// The search (auto: the fastest for each board's size).
    #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
    pub algorithm: Algorithm,
    /// The heuristic (auto: the strongest the search has).
    #[arg(long, value_enum, default_value_t = Heuristic::Auto)]
    pub heuristic: Heuristic,
    /// How short each answer must be: bounded needs --weight; anytime answers with the best
    /// found by --time-limit and its proven bound.
    #[arg(long, value_enum, default_value_t = Optimality::Minimum)]
    pub optimality: Optimality,
    /// For --optimality bounded: answers at most this many times the minimum (above 1).
    #[arg(long)]
    pub weight: Option<f64>,
    /// Each board's time limit (`20s`, `1m`): when anytime answers; the other modes give up there.
    #[arg(long, value_parser = humantime::parse_duration)]
    pub time_limit: Option<Duration>,
    /// Where the pattern databases are cached [default: $NPUZZLE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// How the loaded tables are held: `mapped` (the file's pages, from the page cache) or
    /// `resident` (copied into this process's memory, on huge pages).
    #[arg(long, value_name = "MEMORY", default_value = "mapped")]
    pub tables: TableMemory,
    /// The 4×4 pattern databases' partition: 7-8 (the strongest, built once in minutes) or
    /// 6-6-3 (built in seconds); or a 5×5 one: 6-6-6-6+6-6-6-6+6-6-6-6+6-6-6-6 (the default for
    /// 5×5 boards, built once in minutes), its first half 6-6-6-6+6-6-6-6, or Korf & Felner's
    /// 6-6-6-6 alone.
    #[arg(long, default_value = "7-8")]
    pub partition: Partition,
    /// Load no pattern databases: 4×4 boards (and FAST's last 4×4) use linear conflict.
    #[arg(long)]
    pub no_pattern_db: bool,
    /// Threads one in-process search may use: IDA* splits its long iterations over them
    /// [default: every core].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

/// Loads (or builds) the pattern databases once for each board size one of `dimensions` can
/// use them for, timing each on a line of its own on stderr, before any board is timed. FAST
/// finishes a board of 4×4 or more with a search on the last 4×4 or 5×5, which those tables
/// serve.
fn databases_for(dimensions: impl Iterator<Item = usize>, args: &Method) -> Result<Vec<Arc<PatternDatabases>>> {
    if args.no_pattern_db {
        return Ok(Vec::new());
    }
    let mut dimensions: Vec<usize> = dimensions
        .flat_map(|dimension| match args.optimality {
            Optimality::Fast | Optimality::Anytime => [4, 5].into_iter().filter(|&side| side <= dimension).collect(),
            _ => Vec::from_iter(
                solver::wants_pattern_databases(dimension, args.algorithm, args.heuristic).then_some(dimension),
            ),
        })
        .collect();
    dimensions.sort_unstable();
    dimensions.dedup();
    if dimensions.is_empty() {
        return Ok(Vec::new());
    }
    let dir = solver::cache_dir(args.cache_dir.as_deref())?;
    dimensions
        .into_iter()
        .map(|dimension| {
            let partition = match dimension {
                _ if args.partition.dimension() == dimension => args.partition.clone(),
                4 => Partition::seven_eight(),
                _ => Partition::catalogue_of_four(),
            };
            let started = Instant::now();
            let databases = PatternDatabases::load_or_build_as(&dir, &partition, args.tables)?;
            eprintln!(
                "{dimension}x{dimension} pattern databases {} ({} bytes, {}) ready in {:.3} s from {}",
                partition.sizes(),
                partition.table_bytes(),
                databases.memory(),
                started.elapsed().as_secs_f64(),
                dir.display()
            );
            Ok(databases)
        })
        .collect()
}

/// The options of every in-process solve.
pub fn options(args: &Method) -> Options {
    Options {
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        max_search_time: args.time_limit,
        optimality: args.optimality,
        weight: args.weight,
        ..Options::default()
    }
}

/// The solver of every in-process solve: the pattern databases `dimensions` can use, loaded,
/// and the threads `--threads` allows.
pub fn solver(dimensions: impl Iterator<Item = usize>, args: &Method) -> Result<Solver> {
    let helpers = match args.threads {
        Some(threads) => Helpers::dedicated(usize::from(threads) - 1),
        None => Helpers::all_cores(),
    };
    Ok(Solver::new().with_pattern_databases(databases_for(dimensions, args)?).with_helpers(helpers))
}

/// (moves - bound) / bound: how far an answer of `moves` may be from the optimum, by what was
/// proven.
pub fn gap(moves: i32, lower_bound: u32) -> f64 {
    f64::from(u32::try_from(moves).unwrap_or(0).saturating_sub(lower_bound)) / f64::from(lower_bound.max(1))
}

/// The median of `values` (the upper one of an even count), 0 for none.
pub fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}
