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

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use npuzzle::Board;
use npuzzle::client::{Client, SolveOptions};
use npuzzle::random::{Rng, sample};
use npuzzle::solver::{NoProgress, Optimality, SearchError, Stop};

use crate::method::{Method, gap, median, options, solver};
use crate::{Args, labeller};

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

/// Solves the selected rows, prints the table, and says whether every length was right.
pub fn run(args: &Args) -> Result<bool> {
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

fn solve_locally(rows: &[Row], args: &Method) -> Result<Vec<Outcome>> {
    let options = options(args);
    let solver = solver(rows.iter().map(|row| row.board.dimension()), args)?;
    if rows.iter().any(|row| row.board.dimension() == 5) {
        // A server builds it in the background at start: time the searches as they run there.
        let started = Instant::now();
        let states = std::thread::spawn(npuzzle::solver::warm_up).join().unwrap_or(0);
        eprintln!("5x5 duplicate-pruning machine ({states} states) ready in {:.3} s", started.elapsed().as_secs_f64());
    }
    let stop = Stop::new();
    rows.iter()
        .map(|row| {
            let started = Instant::now();
            let solution = match solver.solve(&row.board, &options, &mut NoProgress, &stop) {
                // A limit, or a proof forecast far past it: an unsolved row, not a failure.
                Err(error @ (SearchError::TimeLimitExceeded { .. } | SearchError::ProofOutOfReach { .. })) => {
                    let expanded = match error {
                        SearchError::TimeLimitExceeded { expanded, .. } => expanded,
                        _ => 0,
                    };
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
