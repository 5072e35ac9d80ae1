//! `npuzzle-bench FILE`: solves every row of a benchmark file in one process (or through a
//! running server with `--addr`) and prints
//! `id<TAB>moves<TAB>expected<TAB>nodes<TAB>seconds<TAB>bound<TAB>proven` per row (the lower
//! bound proven, and `yes` when the answer is proven optimal), then a `total` row; with
//! `--optimality anytime` the summary also gives how many were proven and the mean gap. It
//! exits 1 if any answer is wrong (a length that differs from the expected optimum; with
//! `--optimality bounded`, exceeds `--weight` times it; with `fast` and `anytime`, is shorter;
//! or a bound above the optimum, or `optimal` on a longer path), 2 if a row cannot be read or
//! solved.
//!
//! Rows are `id<TAB>optimal<TAB>tiles`, the tiles row-major and space-separated (0 = blank), the
//! dimension the square root of their count; `#` lines are comments. The pattern databases are
//! loaded (or built) once per board size, before the first row, and that time is printed on
//! stderr, a line per size; so is the deeper 5×5 duplicate-pruning machine's build, which a
//! server runs in the background at start.
//!
//! `--sample K --seed S` solves K rows drawn without replacement (the same for a seed), and
//! with `--time-limit` a board that reaches the limit is a row with moves `-`, counted unsolved
//! (not an error). The summary gives how many were solved and the median, p75 and p90 times (an
//! unsolved board counts as longer than any). When `NAME-labeller.tsv` sits beside `NAME.tsv`
//! (`id<TAB>optimal<TAB>nodes<TAB>seconds`, another solver's cost per board), each row ends with
//! that solver's seconds, and the summary gives its median on the same boards.
//!
//! `npuzzle-bench load --addr URL --concurrency C --duration D` drives a running server (or a
//! local proxy) with a mix of calls and prints calls/s, latency percentiles per kind of call
//! and a count per status code (see [`npuzzle::load`]). It exits 1 if any answer was wrong or
//! any status unexpected. An `https://` address is called over TLS (`--tls-ca`, and
//! `--tls-cert`/`--tls-key` for mTLS), e.g. Envoy's listener in `deploy/`.
//!
//! `npuzzle-bench random --sizes 6,10,16,32,64,128 --optimality fast` solves seeded random
//! solvable boards of each size in this process and prints, per size, the medians of the
//! moves, of moves against the board's Manhattan distance, and of the milliseconds.

#[path = "npuzzle-bench/labeller.rs"]
mod labeller;

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Parser;
use npuzzle::client::{Client, SolveOptions, TlsFlags};
use npuzzle::random::{Rng, random_board, sample};
use npuzzle::solver::search::idastar;
use npuzzle::solver::{
    self, Helpers, NoProgress, Optimality, Partition, PatternDatabases, SearchError, Stop, TableMemory,
};
use npuzzle::{Algorithm, Board, Heuristic, Options};

/// Times optimal solves of the rows of a benchmark file, or puts a server under load.
#[derive(Debug, Parser)]
#[command(version, args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
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
}

/// How every board is solved, and where the pattern databases come from.
#[derive(Debug, clap::Args)]
struct Method {
    /// The search: auto, astar or idastar.
    #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
    algorithm: Algorithm,
    /// The heuristic: auto, hamming, manhattan, linear-conflict or pattern-database.
    #[arg(long, value_enum, default_value_t = Heuristic::Auto)]
    heuristic: Heuristic,
    /// How short each answer must be: minimum, bounded (needs --weight), fast, or anytime (the
    /// best found by --time-limit, with its proven bound).
    #[arg(long, value_enum, default_value_t = Optimality::Minimum)]
    optimality: Optimality,
    /// For --optimality bounded: answers at most this many times the minimum (above 1).
    #[arg(long)]
    weight: Option<f64>,
    /// Each board's time limit (`20s`, `1m`): when anytime answers; the other modes give up there.
    #[arg(long, value_parser = humantime::parse_duration)]
    time_limit: Option<Duration>,
    /// Where the pattern databases are cached [default: $NPUZZLE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long)]
    cache_dir: Option<PathBuf>,
    /// How the loaded tables are held: `mapped` (the file's pages, from the page cache) or
    /// `resident` (copied into this process's memory, on huge pages).
    #[arg(long, value_name = "MEMORY", default_value = "mapped")]
    tables: TableMemory,
    /// The 4×4 pattern databases' partition: 7-8 (the strongest, built once in minutes) or
    /// 6-6-3 (built in seconds); or a 5×5 one: 6-6-6-6+6-6-6-6+6-6-6-6+6-6-6-6 (the default for
    /// 5×5 boards, built once in minutes), its first half 6-6-6-6+6-6-6-6, or Korf & Felner's
    /// 6-6-6-6 alone.
    #[arg(long, default_value = "7-8")]
    partition: Partition,
    /// Load no pattern databases: 4×4 boards (and FAST's last 4×4) use linear conflict.
    #[arg(long)]
    no_pattern_db: bool,
    /// Threads one in-process search may use: IDA* splits its long iterations over them
    /// [default: every core].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

/// One benchmark instance.
struct Row {
    id: String,
    expected: i32,
    board: Board,
}

/// What solving one row gave.
struct Outcome {
    /// False when the board reached `--time-limit` first (its moves and bound are then 0).
    solved: bool,
    moves: i32,
    nodes: u64,
    elapsed: Duration,
    lower_bound: u32,
    optimal: bool,
}

impl Outcome {
    /// How far the answer may be from the optimum, by what was proven: (moves - bound) / bound.
    fn gap(&self) -> f64 {
        gap(self.moves, self.lower_bound)
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let outcome = match &args.command {
        Some(Command::Load(load)) => run_load(load),
        Some(Command::Random(random)) => run_random(random),
        None => run(&args),
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

/// Solves the selected rows, prints the table, and says whether every length was right.
fn run(args: &Args) -> Result<bool> {
    let file = args.file.as_deref().context("a benchmark FILE is required")?;
    let rows = select(read_rows(file)?, args);
    let labeller = match labeller::path_beside(file).filter(|path| path.exists()) {
        Some(path) => Some(labeller::read(&path)?),
        None => None,
    };
    let outcomes = match &args.addr {
        Some(addr) => solve_remotely(addr, &rows, &args.method)?,
        None => solve_locally(&rows, &args.method)?,
    };
    report(&rows, &outcomes, labeller.as_ref(), args)
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
    let mut wanted: Vec<Option<Row>> =
        rows.into_iter().filter(|row| args.ids.is_empty() || args.ids.contains(&row.id)).map(Some).collect();
    let drawn: Vec<Row> = match args.sample {
        Some(k) => sample(wanted.len(), k, &mut Rng::new(args.seed))
            .into_iter()
            .filter_map(|index| wanted[index].take())
            .collect(),
        None => wanted.into_iter().flatten().collect(),
    };
    drawn.into_iter().take(args.limit.unwrap_or(usize::MAX)).collect()
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
                _ => Partition::six_six_six_six_four_times(),
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

/// The options of every in-process solve, with the pattern databases `dimensions` can use
/// loaded.
fn options(dimensions: impl Iterator<Item = usize>, args: &Method) -> Result<Options> {
    Ok(Options {
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        max_search_time: args.time_limit,
        pattern_databases: databases_for(dimensions, args)?,
        optimality: args.optimality,
        weight: args.weight,
        helpers: match args.threads {
            Some(threads) => Helpers::dedicated(usize::from(threads) - 1),
            None => Helpers::all_cores(),
        },
        ..Options::default()
    })
}

fn solve_locally(rows: &[Row], args: &Method) -> Result<Vec<Outcome>> {
    let options = options(rows.iter().map(|row| row.board.dimension()), args)?;
    if rows.iter().any(|row| row.board.dimension() == 5) {
        // A server builds it in the background at start: time the searches as they run there.
        let started = Instant::now();
        let states = idastar::build_deepest_duplicates(5);
        eprintln!("5x5 duplicate-pruning machine ({states} states) ready in {:.3} s", started.elapsed().as_secs_f64());
    }
    let stop = Stop::new();
    rows.iter()
        .map(|row| {
            let started = Instant::now();
            let solution = match npuzzle::solve(&row.board, &options, &mut NoProgress, &stop) {
                Err(SearchError::TimeLimitExceeded { expanded, .. }) => {
                    let elapsed = started.elapsed();
                    return Ok(Outcome {
                        solved: false,
                        moves: 0,
                        nodes: expanded,
                        elapsed,
                        lower_bound: 0,
                        optimal: false,
                    });
                }
                solved => solved.with_context(|| format!("instance {}", row.id))?,
            };
            Ok(Outcome {
                solved: true,
                moves: solution.moves(),
                nodes: solution.stats().nodes_expanded,
                elapsed: started.elapsed(),
                lower_bound: solution.lower_bound(),
                optimal: solution.is_optimal(),
            })
        })
        .collect()
}

fn solve_remotely(addr: &str, rows: &[Row], args: &Method) -> Result<Vec<Outcome>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let client = Client::connect(addr).await?;
        let options = SolveOptions {
            algorithm: args.algorithm,
            heuristic: args.heuristic,
            max_expanded_nodes: None,
            optimality: args.optimality,
            weight: args.weight,
            time_limit: args.time_limit,
        };
        let mut outcomes = Vec::with_capacity(rows.len());
        for row in rows {
            let started = Instant::now();
            let solution = client.solve(&row.board, options).await.with_context(|| format!("instance {}", row.id))?;
            let nodes = solution.stats.map_or(0, |stats| stats.nodes_expanded);
            outcomes.push(Outcome {
                solved: true,
                moves: solution.moves,
                nodes,
                elapsed: started.elapsed(),
                lower_bound: solution.lower_bound,
                optimal: solution.optimal,
            });
        }
        Ok(outcomes)
    })
}

/// (moves - bound) / bound: how far an answer of `moves` may be from the optimum, by what was
/// proven.
fn gap(moves: i32, lower_bound: u32) -> f64 {
    f64::from(u32::try_from(moves).unwrap_or(0).saturating_sub(lower_bound)) / f64::from(lower_bound.max(1))
}

/// Whether `outcome` is a right answer for a row whose optimum is `expected`: its length, and
/// what it claims to have proven.
fn right_answer(outcome: &Outcome, expected: i32, args: &Method) -> bool {
    let moves = outcome.moves;
    let length = match args.optimality {
        Optimality::Minimum => moves == expected,
        Optimality::Bounded => f64::from(moves) <= args.weight.unwrap_or(1.0) * f64::from(expected),
        Optimality::Fast | Optimality::Anytime => moves >= expected,
    };
    let claims = i64::from(outcome.lower_bound) <= i64::from(expected) && (!outcome.optimal || moves == expected);
    length && claims
}

/// Prints the table on stdout and a summary on stderr; true if every length was right (a board
/// stopped at the time limit is unsolved, not wrong).
fn report(rows: &[Row], outcomes: &[Outcome], labeller: Option<&HashMap<String, f64>>, args: &Args) -> Result<bool> {
    let mut out = io::stdout().lock();
    let mut wrong = Vec::new();
    let labeller_seconds = |row: &Row| labeller.and_then(|labeller| labeller.get(&row.id)).copied();
    for (row, outcome) in rows.iter().zip(outcomes) {
        let seconds = outcome.elapsed.as_secs_f64();
        let proven = if outcome.optimal { "yes" } else { "no" };
        let moves = if outcome.solved { outcome.moves.to_string() } else { "-".to_owned() };
        write!(
            out,
            "{}\t{moves}\t{}\t{}\t{seconds:.6}\t{}\t{proven}",
            row.id, row.expected, outcome.nodes, outcome.lower_bound
        )?;
        match (labeller, labeller_seconds(row)) {
            (None, _) => writeln!(out)?,
            (Some(_), Some(theirs)) => writeln!(out, "\t{theirs:.2}")?,
            (Some(_), None) => writeln!(out, "\t-")?,
        }
        if outcome.solved && !right_answer(outcome, row.expected, &args.method) {
            wrong.push(row.id.as_str());
        }
    }
    let moves: i64 = outcomes.iter().map(|outcome| i64::from(outcome.moves)).sum();
    let expected: i64 = rows.iter().map(|row| i64::from(row.expected)).sum();
    let nodes: u64 = outcomes.iter().map(|outcome| outcome.nodes).sum();
    let total: Duration = outcomes.iter().map(|outcome| outcome.elapsed).sum();
    let bounds: u64 = outcomes.iter().map(|outcome| u64::from(outcome.lower_bound)).sum();
    let proven = outcomes.iter().filter(|outcome| outcome.optimal).count();
    writeln!(out, "total\t{moves}\t{expected}\t{nodes}\t{:.6}\t{bounds}\t{proven}", total.as_secs_f64())?;
    out.flush()?;
    if args.method.optimality != Optimality::Minimum {
        eprintln!("{moves} moves in all, {:.4} x the optima's {expected}", moves as f64 / expected.max(1) as f64);
    }
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
    let solved = outcomes.iter().filter(|outcome| outcome.solved).count();
    if !outcomes.is_empty() {
        // An unsolved board sorts after every solved one, whatever its time.
        let mut ranked: Vec<Option<f64>> =
            outcomes.iter().map(|outcome| outcome.solved.then_some(outcome.elapsed.as_secs_f64())).collect();
        ranked.sort_by(|a, b| a.unwrap_or(f64::INFINITY).total_cmp(&b.unwrap_or(f64::INFINITY)));
        let percentile = |p: usize| match ranked[(ranked.len() * p / 100).min(ranked.len() - 1)] {
            Some(seconds) => format!("{seconds:.3} s"),
            None => "unsolved".to_owned(),
        };
        eprintln!(
            "{solved} of {} solved; time to an answer: median {}, p75 {}, p90 {}",
            outcomes.len(),
            percentile(50),
            percentile(75),
            percentile(90)
        );
    }
    let theirs: Vec<f64> = rows.iter().filter_map(labeller_seconds).collect();
    if !theirs.is_empty() {
        eprintln!("the labeller on the same {} boards: median {:.2} s", theirs.len(), median(theirs.into_iter()));
    }
    if args.method.optimality == Optimality::Anytime && !outcomes.is_empty() {
        let gap = outcomes.iter().map(Outcome::gap).sum::<f64>() / outcomes.len() as f64;
        eprintln!("{proven} of {} proven optimal, mean proven gap {:.2} %", outcomes.len(), gap * 100.0);
    }
    if !wrong.is_empty() {
        eprintln!("wrong answers: {}", wrong.join(", "));
    }
    Ok(wrong.is_empty())
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

/// `npuzzle-bench random`'s flags.
#[derive(Debug, clap::Args)]
struct RandomArgs {
    /// The board sides, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "6,10,16,32,64,128")]
    sizes: Vec<usize>,
    /// Boards of each size; the figures are their medians.
    #[arg(long, default_value_t = 5)]
    boards: usize,
    /// The boards of side n are drawn from seed + n, so a size's boards do not depend on the
    /// other sizes asked for.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How the boards are solved.
    #[command(flatten)]
    method: Method,
}

/// What solving one random board gave.
struct Sample {
    moves: i32,
    manhattan: u32,
    elapsed: Duration,
    lower_bound: u32,
    optimal: bool,
}

/// Runs `npuzzle-bench random`: a row per size, `n<TAB>boards<TAB>moves<TAB>moves/manhattan
/// <TAB>ms<TAB>max ms<TAB>proven<TAB>gap`, each a median but max ms and the count of answers
/// proven optimal; gap is the median (moves - bound) / bound, in percent.
fn run_random(args: &RandomArgs) -> Result<bool> {
    let options = options(args.sizes.iter().copied(), &args.method)?;
    let stop = Stop::new();
    let mut out = io::stdout().lock();
    writeln!(out, "n\tboards\tmoves\tmoves/manhattan\tms\tmax ms\tproven\tgap %")?;
    for &n in &args.sizes {
        let mut rng = Rng::new(args.seed.wrapping_add(n as u64));
        let samples = (0..args.boards.max(1))
            .map(|_| {
                let board = random_board(n, &mut rng)?;
                let started = Instant::now();
                let solution = npuzzle::solve(&board, &options, &mut NoProgress, &stop)
                    .with_context(|| format!("a random {n}x{n} board"))?;
                Ok(Sample {
                    moves: solution.moves(),
                    manhattan: board.manhattan(),
                    elapsed: started.elapsed(),
                    lower_bound: solution.lower_bound(),
                    optimal: solution.is_optimal(),
                })
            })
            .collect::<Result<Vec<Sample>>>()?;
        let moves = median(samples.iter().map(|sample| f64::from(sample.moves)));
        let ratio = median(samples.iter().map(|sample| f64::from(sample.moves) / f64::from(sample.manhattan.max(1))));
        let ms = median(samples.iter().map(|sample| sample.elapsed.as_secs_f64() * 1e3));
        let max = samples.iter().map(|sample| sample.elapsed.as_secs_f64() * 1e3).fold(0.0, f64::max);
        let proven = samples.iter().filter(|sample| sample.optimal).count();
        let gap = median(samples.iter().map(|sample| gap(sample.moves, sample.lower_bound) * 100.0));
        writeln!(out, "{n}\t{}\t{moves:.0}\t{ratio:.3}\t{ms:.1}\t{max:.1}\t{proven}\t{gap:.1}", samples.len())?;
        out.flush()?;
    }
    Ok(true)
}

/// The median of `values` (the upper one of an even count), 0 for none.
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// `npuzzle-bench load`'s flags.
#[derive(Debug, clap::Args)]
struct LoadArgs {
    /// The server or proxy, on a loopback address; https:// for TLS (see --tls-ca).
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    addr: String,
    #[command(flatten)]
    tls: TlsFlags,
    /// Clients calling at once.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// How long clients start new calls, e.g. 60s or 2m.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    duration: Duration,
    /// The most calls of the run.
    #[arg(long, default_value_t = 100_000_000)]
    max_calls: u64,
    /// Weights of the kinds of call: 3x3-trivial, 3x3-hardest, 4x4, bad-input, cancelled.
    #[arg(long, default_value = "3x3-trivial=40,3x3-hardest=30,4x4=15,bad-input=10,cancelled=5")]
    mix: npuzzle::load::mix::Mix,
    /// When a `cancelled` call is dropped.
    #[arg(long, default_value = "50ms", value_parser = humantime::parse_duration)]
    cancel_after: Duration,
    /// The deadline of every call.
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    call_timeout: Duration,
    /// HTTP/2 connections the clients share.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Count UNAVAILABLE and lost connections as expected (a server is stopped during the run).
    #[arg(long)]
    allow_unavailable: bool,
    /// Sample this process's resident memory (the server's pid) during the run.
    #[arg(long, value_name = "PID")]
    server_pid: Option<u32>,
}

/// Runs `npuzzle-bench load`, prints its report; true if every answer and status was expected.
fn run_load(args: &LoadArgs) -> Result<bool> {
    let config = npuzzle::load::Config {
        tls: args.tls.read()?,
        max_calls: args.max_calls,
        mix: args.mix.clone(),
        cancel_after: args.cancel_after,
        call_timeout: args.call_timeout,
        connections: args.connections,
        allow_unavailable: args.allow_unavailable,
        watch_pid: args.server_pid,
        ..npuzzle::load::Config::new(&args.addr, args.concurrency, args.duration)
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let outcome = runtime.block_on(npuzzle::load::run(&config))?;
    println!("{}", outcome.report);
    if let Some(rss) = outcome.rss {
        let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
        println!(
            "server rss: start {:.1} MiB, end {:.1} MiB, most sampled {:.1} MiB, peak (VmHWM) {:.1} MiB",
            mib(rss.start.current),
            mib(rss.end.current),
            mib(rss.max_current),
            mib(rss.end.peak)
        );
    }
    Ok(outcome.report.is_clean())
}
