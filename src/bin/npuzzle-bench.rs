//! `npuzzle-bench FILE`: solves every row of a benchmark file in one process (or through a
//! running server with `--addr`) and prints `id<TAB>moves<TAB>expected<TAB>nodes<TAB>seconds`
//! per row, then a `total` row. It exits 1 if any length differs from the expected one, 2 if a
//! row cannot be read or solved.
//!
//! Rows are `id<TAB>optimal<TAB>tiles`, the tiles row-major and space-separated (0 = blank), the
//! dimension the square root of their count; `#` lines are comments. The pattern databases are
//! loaded (or built) once per board size, before the first row, and that time is printed on
//! stderr, a line per size.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Parser;
use npuzzle::proto::solver_service_client::SolverServiceClient;
use npuzzle::proto::{self, solve_request};
use npuzzle::solver::{self, NoProgress, Partition, PatternDatabases, Stop};
use npuzzle::{Algorithm, Board, Heuristic, Options};

/// Times optimal solves of the rows of a benchmark file.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Rows `id<TAB>optimal<TAB>tiles`, as in benchmarks/korf100.tsv.
    file: PathBuf,
    /// The search: auto, astar or idastar.
    #[arg(long, default_value = "auto")]
    algorithm: Algorithm,
    /// The heuristic: auto, hamming, manhattan, linear-conflict or pattern-database.
    #[arg(long, default_value = "auto")]
    heuristic: Heuristic,
    /// Solve through the npuzzle server at this URL (e.g. http://127.0.0.1:50051) instead of in
    /// this process.
    #[arg(long)]
    addr: Option<String>,
    /// Only the first K rows (after --ids).
    #[arg(long, value_name = "K")]
    limit: Option<usize>,
    /// Only the rows with these ids, comma-separated.
    #[arg(long, value_delimiter = ',')]
    ids: Vec<String>,
    /// Where the pattern databases are cached [default: $NPUZZLE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long)]
    cache_dir: Option<PathBuf>,
    /// The 4×4 pattern databases' partition: 7-8 (the strongest, built once in minutes) or
    /// 6-6-3 (built in seconds). 5×5 boards always use 6-6-6-6 (built once in minutes).
    #[arg(long, default_value = "7-8")]
    partition: Partition,
}

/// One benchmark instance.
struct Row {
    id: String,
    expected: i32,
    board: Board,
}

/// What solving one row gave.
struct Outcome {
    moves: i32,
    nodes: u64,
    elapsed: Duration,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
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

/// Solves the selected rows, prints the table, and says whether every length was right.
fn run(args: &Args) -> Result<bool> {
    let rows = select(read_rows(&args.file)?, args);
    let outcomes = match &args.addr {
        Some(addr) => solve_remotely(addr, &rows, args)?,
        None => solve_locally(&rows, args)?,
    };
    report(&rows, &outcomes)
}

fn read_rows(path: &Path) -> Result<Vec<Row>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let rows = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'));
    rows.map(|(index, line)| parse_row(line).with_context(|| format!("{}:{}", path.display(), index + 1))).collect()
}

fn parse_row(line: &str) -> Result<Row> {
    let mut fields = line.split('\t');
    let (Some(id), Some(expected), Some(tiles), None) = (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        bail!("expected three tab-separated fields: id, optimal moves, tiles");
    };
    let expected = expected.trim().parse().with_context(|| format!("optimal moves {expected:?}"))?;
    let tiles = tiles.split_whitespace().map(str::parse).collect::<Result<Vec<u16>, _>>().context("tiles")?;
    let dimension = tiles.len().isqrt();
    if dimension * dimension != tiles.len() {
        bail!("{} tiles do not make a square board", tiles.len());
    }
    Ok(Row { id: id.to_owned(), expected, board: Board::new(dimension, &tiles)? })
}

fn select(rows: Vec<Row>, args: &Args) -> Vec<Row> {
    let wanted = rows.into_iter().filter(|row| args.ids.is_empty() || args.ids.contains(&row.id));
    wanted.take(args.limit.unwrap_or(usize::MAX)).collect()
}

/// Loads (or builds) the pattern databases once for each board size some row can use them
/// for, timing each on a line of its own on stderr, before any row is timed.
fn databases_for(rows: &[Row], args: &Args) -> Result<Vec<Arc<PatternDatabases>>> {
    let mut dimensions: Vec<usize> = rows
        .iter()
        .map(|row| row.board.dimension())
        .filter(|&dimension| solver::wants_pattern_databases(dimension, args.algorithm, args.heuristic))
        .collect();
    dimensions.sort_unstable();
    dimensions.dedup();
    if dimensions.is_empty() {
        return Ok(Vec::new());
    }
    let dir = match &args.cache_dir {
        Some(dir) => dir.clone(),
        None => solver::default_cache_dir()?,
    };
    dimensions
        .into_iter()
        .map(|dimension| {
            let partition = match dimension {
                _ if args.partition.dimension() == dimension => args.partition.clone(),
                4 => Partition::seven_eight(),
                _ => Partition::six_six_six_six(),
            };
            let started = Instant::now();
            let databases = PatternDatabases::load_or_build_partition(&dir, &partition)?;
            eprintln!(
                "{dimension}x{dimension} pattern databases {} ({} bytes) ready in {:.3} s from {}",
                partition.sizes(),
                partition.table_bytes(),
                started.elapsed().as_secs_f64(),
                dir.display()
            );
            Ok(databases)
        })
        .collect()
}

fn solve_locally(rows: &[Row], args: &Args) -> Result<Vec<Outcome>> {
    let options = Options {
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        max_expanded_nodes: u64::MAX,
        deadline: None,
        pattern_databases: databases_for(rows, args)?,
    };
    let stop = Stop::new();
    rows.iter()
        .map(|row| {
            let started = Instant::now();
            let solution = npuzzle::solve(&row.board, &options, &mut NoProgress, &stop)
                .with_context(|| format!("instance {}", row.id))?;
            Ok(Outcome { moves: solution.moves(), nodes: solution.stats().nodes_expanded, elapsed: started.elapsed() })
        })
        .collect()
}

fn solve_remotely(addr: &str, rows: &[Row], args: &Args) -> Result<Vec<Outcome>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let mut client =
            SolverServiceClient::connect(addr.to_owned()).await.with_context(|| format!("connecting to {addr}"))?;
        let mut outcomes = Vec::with_capacity(rows.len());
        for row in rows {
            let request = proto::SolveRequest {
                puzzle: Some(solve_request::Puzzle::Board(proto::Board::from(&row.board))),
                options: Some(proto::SolveOptions {
                    algorithm: proto::Algorithm::from(args.algorithm).into(),
                    heuristic: proto::Heuristic::from(args.heuristic).into(),
                    max_expanded_nodes: 0,
                }),
            };
            let started = Instant::now();
            let response = client.solve(request).await.with_context(|| format!("instance {}", row.id))?;
            let solution =
                response.into_inner().solution.with_context(|| format!("instance {}: no solution", row.id))?;
            let nodes = solution.stats.map_or(0, |stats| stats.nodes_expanded);
            outcomes.push(Outcome { moves: solution.moves, nodes, elapsed: started.elapsed() });
        }
        Ok(outcomes)
    })
}

/// Prints the table on stdout and a summary on stderr; true if every length was as expected.
fn report(rows: &[Row], outcomes: &[Outcome]) -> Result<bool> {
    let mut out = io::stdout().lock();
    let mut wrong = Vec::new();
    for (row, outcome) in rows.iter().zip(outcomes) {
        let seconds = outcome.elapsed.as_secs_f64();
        writeln!(out, "{}\t{}\t{}\t{}\t{seconds:.6}", row.id, outcome.moves, row.expected, outcome.nodes)?;
        if outcome.moves != row.expected {
            wrong.push(row.id.as_str());
        }
    }
    let moves: i64 = outcomes.iter().map(|outcome| i64::from(outcome.moves)).sum();
    let expected: i64 = rows.iter().map(|row| i64::from(row.expected)).sum();
    let nodes: u64 = outcomes.iter().map(|outcome| outcome.nodes).sum();
    let total: Duration = outcomes.iter().map(|outcome| outcome.elapsed).sum();
    writeln!(out, "total\t{moves}\t{expected}\t{nodes}\t{:.6}", total.as_secs_f64())?;
    out.flush()?;
    let mut times: Vec<Duration> = outcomes.iter().map(|outcome| outcome.elapsed).collect();
    times.sort();
    if let (Some(median), Some(max)) = (times.get(times.len() / 2), times.last()) {
        eprintln!(
            "{} instances: {:.3} s in all, median {:.4} s, max {:.4} s, {} nodes, {:.1} M nodes/s",
            times.len(),
            total.as_secs_f64(),
            median.as_secs_f64(),
            max.as_secs_f64(),
            nodes,
            nodes as f64 / total.as_secs_f64().max(1e-9) / 1e6
        );
    }
    if !wrong.is_empty() {
        eprintln!("wrong lengths: {}", wrong.join(", "));
    }
    Ok(wrong.is_empty())
}
