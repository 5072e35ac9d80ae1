//! The Solver API: one entry point, [`solve`], that picks an algorithm and heuristic for the
//! board, runs it under a node budget, a deadline and a stop flag, reports progress through a
//! callback, and checks the path it returns move by move before calling it a [`Solution`].
//!
//! Every algorithm behind it is optimal: it returns a shortest path or an error, never a longer
//! path. Each one is a file of its own and returns only the tile directions of its path; turning
//! them into boards and steps, and checking them, happens once, here.
//!
//! - `budget`: the [`Meter`] every search shares: limits, the stop flag, progress pacing.
//! - [`search`]: the spec's A* and IDA*, one file each.
//! - [`heuristic`]: the [`heuristic::Estimator`] trait and the per-tile and linear-conflict bounds.
//! - [`pdb`]: pattern databases: partition, lookup, build, file and cache.

mod budget;
pub mod heuristic;
pub mod pdb;
pub mod search;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::{Board, Direction, Step};

pub use budget::{CHECK_INTERVAL, Meter};
pub use pdb::{DatabaseSlot, Partition, PatternDatabases, PdbError, default_cache_dir};

/// Which search to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Algorithm {
    /// The fastest optimal method for the board's size.
    #[default]
    Auto,
    /// Best-first search with a closed set, as the spec describes it.
    AStar,
    /// Iterative-deepening A*: memory linear in the depth.
    IdaStar,
}

/// Which lower bound on the remaining moves guides the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Heuristic {
    /// The strongest heuristic the chosen algorithm has for the board's size.
    #[default]
    Auto,
    /// Tiles out of place.
    Hamming,
    /// Sum of the tiles' grid distances to their goal cells.
    Manhattan,
    /// Manhattan plus two moves per pair of tiles that block each other in their goal row or column.
    LinearConflict,
    /// Additive disjoint pattern databases.
    PatternDatabase,
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::Auto => "auto",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
        })
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Heuristic::Auto => "auto",
            Heuristic::Hamming => "hamming",
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
            Heuristic::PatternDatabase => "pattern-database",
        })
    }
}

/// A name that is not one of the [`Algorithm`] or [`Heuristic`] names their `Display` gives.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {kind} {name:?}; expected one of: {expected}")]
pub struct UnknownName {
    kind: &'static str,
    name: String,
    expected: String,
}

/// Finds the value among `all` whose `Display` is `name`, for command-line flags.
fn parse_name<T: fmt::Display + Copy>(kind: &'static str, name: &str, all: &[T]) -> Result<T, UnknownName> {
    all.iter().copied().find(|value| value.to_string() == name).ok_or_else(|| UnknownName {
        kind,
        name: name.to_owned(),
        expected: all.iter().map(T::to_string).collect::<Vec<_>>().join(", "),
    })
}

impl std::str::FromStr for Algorithm {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Algorithm, UnknownName> {
        parse_name("algorithm", name, &[Algorithm::Auto, Algorithm::AStar, Algorithm::IdaStar])
    }
}

impl std::str::FromStr for Heuristic {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Heuristic, UnknownName> {
        let all = [
            Heuristic::Auto,
            Heuristic::Hamming,
            Heuristic::Manhattan,
            Heuristic::LinearConflict,
            Heuristic::PatternDatabase,
        ];
        parse_name("heuristic", name, &all)
    }
}

/// What to run and how far it may go.
#[derive(Debug, Clone)]
pub struct Options {
    /// The search; `Auto` picks for the board's size.
    pub algorithm: Algorithm,
    /// The heuristic; `Auto` picks the strongest the algorithm has.
    pub heuristic: Heuristic,
    /// The search fails with [`SearchError::NodeBudgetExhausted`] after expanding this many nodes.
    pub max_expanded_nodes: u64,
    /// The search fails with [`SearchError::DeadlineExceeded`] once this instant has passed.
    pub deadline: Option<Instant>,
    /// Loaded pattern databases, at most one set per board dimension (4×4 and 5×5; see
    /// [`PatternDatabases::load_or_build_partition`]). With the set for a board's size, `Auto`
    /// solves it with IDA* and the databases; without, with IDA* and linear conflict, and an
    /// explicit [`Heuristic::PatternDatabase`] is refused as not loaded.
    pub pattern_databases: Vec<Arc<PatternDatabases>>,
}

impl Options {
    /// The loaded pattern databases for boards of side `dimension`, if any.
    pub fn pattern_databases_for(&self, dimension: usize) -> Option<&PatternDatabases> {
        self.pattern_databases.iter().map(Arc::as_ref).find(|databases| databases.dimension() == dimension)
    }
}

/// The default node budget: any 3×3 board and most 4×4 boards with A*, which at about 106 bytes
/// per expanded node (see `astar`) keeps one A* search near 2 GiB.
pub const DEFAULT_MAX_EXPANDED_NODES: u64 = 20_000_000;

impl Default for Options {
    fn default() -> Options {
        Options {
            algorithm: Algorithm::Auto,
            heuristic: Heuristic::Auto,
            max_expanded_nodes: DEFAULT_MAX_EXPANDED_NODES,
            deadline: None,
            pattern_databases: Vec::new(),
        }
    }
}

/// A snapshot of a running search, handed to [`Progress::report`] every few thousand nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProgressReport {
    /// Nodes taken off the frontier and expanded so far.
    pub nodes_expanded: u64,
    /// Child nodes generated so far.
    pub nodes_generated: u64,
    /// The bound proven so far: min f on the frontier (A*), the current threshold (IDA*).
    pub priority: u32,
    /// Nodes waiting on the frontier (A*) or on the current path (IDA*).
    pub frontier_size: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// Receives progress while a search runs. It is called on the search's own thread, so it must
/// be quick: the service only forwards the report, dropping it if its client is slow.
pub trait Progress {
    /// Called every few thousand expanded nodes, and once at the start.
    fn report(&mut self, report: &ProgressReport);
}

impl<F: FnMut(&ProgressReport)> Progress for F {
    fn report(&mut self, report: &ProgressReport) {
        self(report)
    }
}

/// A [`Progress`] that ignores every report.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn report(&mut self, _: &ProgressReport) {}
}

/// A shared flag that asks a search to stop; the search polls it every few thousand nodes.
/// Clones share the flag.
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag not yet raised.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks every search holding a clone of this flag to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Stop::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What a search cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// The algorithm that ran (never `Auto`, except for an unsolvable board, where none ran).
    pub algorithm: Algorithm,
    /// The heuristic that guided it (never `Auto`, except for an unsolvable board).
    pub heuristic: Heuristic,
    /// Nodes expanded.
    pub nodes_expanded: u64,
    /// Nodes generated.
    pub nodes_generated: u64,
    /// The largest frontier (A*) or deepest path (IDA*) seen.
    pub max_frontier: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// The answer for one board: a shortest path to the goal, or the finding that there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    initial: Board,
    /// Initial board .. goal; empty when unsolvable.
    boards: Vec<Board>,
    /// One per move.
    steps: Vec<Step>,
    solvable: bool,
    stats: SearchStats,
}

impl Solution {
    /// The board that was solved.
    pub fn initial(&self) -> &Board {
        &self.initial
    }

    /// Whether the goal can be reached at all.
    pub fn is_solvable(&self) -> bool {
        self.solvable
    }

    /// The minimum number of moves, or -1 when unsolvable (the spec's `moves()`).
    pub fn moves(&self) -> i32 {
        if self.solvable { self.steps.len() as i32 } else { -1 }
    }

    /// The boards of a shortest solution, initial to goal; `None` when unsolvable (the spec's
    /// `solution()`).
    pub fn boards(&self) -> Option<&[Board]> {
        self.solvable.then_some(self.boards.as_slice())
    }

    /// The moves of the solution, one per step: which tile slid, and where.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// What the search cost.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    fn unsolvable(initial: &Board) -> Solution {
        Solution {
            initial: initial.clone(),
            boards: Vec::new(),
            steps: Vec::new(),
            solvable: false,
            stats: SearchStats::default(),
        }
    }

    /// Replays `path` from `initial`, failing if a move is illegal or the end is not the goal.
    fn from_path(initial: &Board, path: &[Direction], stats: SearchStats) -> Result<Solution, SearchError> {
        let mut boards = Vec::with_capacity(path.len() + 1);
        let mut steps = Vec::with_capacity(path.len());
        boards.push(initial.clone());
        for (index, &direction) in path.iter().enumerate() {
            let last = boards.last().unwrap_or(initial);
            let (next, step) = last
                .slide(direction)
                .ok_or_else(|| SearchError::Internal(format!("move {index} ({direction}) of the path is illegal")))?;
            boards.push(next);
            steps.push(step);
        }
        if !boards.last().is_some_and(Board::is_goal) {
            return Err(SearchError::Internal("the path does not end at the goal".into()));
        }
        Ok(Solution { initial: initial.clone(), boards, steps, solvable: true, stats })
    }
}

/// Why a search gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The node budget ran out before the goal was reached.
    #[error(
        "node budget exhausted: expanded {expanded} nodes (limit {limit}) without reaching the goal; \
         raise max_expanded_nodes or use a stronger method (IDA* with a pattern database)"
    )]
    NodeBudgetExhausted { limit: u64, expanded: u64 },
    /// The deadline passed.
    #[error("deadline exceeded after {elapsed:?} and {expanded} expanded nodes")]
    DeadlineExceeded { elapsed: Duration, expanded: u64 },
    /// The stop flag was raised.
    #[error("search cancelled after {expanded} expanded nodes")]
    Cancelled { expanded: u64 },
    /// The algorithm and heuristic asked for cannot run on this board.
    #[error("{algorithm} with {heuristic} is not available for {dimension}x{dimension} boards: {reason}")]
    Unsupported { algorithm: Algorithm, heuristic: Heuristic, dimension: usize, reason: String },
    /// The pattern databases were asked for but are not loaded: a server is still loading or
    /// building them (a retry later succeeds), or a library caller gave none.
    #[error("the pattern databases are not loaded (yet): retry later, or ask for linear conflict, which needs none")]
    PatternDatabasesNotLoaded,
    /// A bug: the search produced a path that does not check out.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The algorithm and heuristic [`solve`] runs for a board, with `Auto` resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Never `Auto`.
    pub algorithm: Algorithm,
    /// Never `Auto`.
    pub heuristic: Heuristic,
}

/// Resolves `Auto` for a board of dimension `dimension`, and refuses combinations that cannot
/// run, before any search starts.
///
/// `Auto` picks by measurement: A* with Manhattan for 2×2 and 3×3 (the spec's method, a few
/// milliseconds at most there); IDA* with the pattern databases for 4×4 and 5×5 when
/// `options.pattern_databases` holds them for that size, else IDA* with linear conflict (a hard
/// 4×4 then takes seconds to minutes instead of milliseconds, and a random 5×5 is out of reach);
/// IDA* with linear conflict for 6×6 and larger.
/// Asking for linear conflict or pattern databases with `Auto` as the algorithm gets IDA*,
/// the only search that has them.
pub fn plan(dimension: usize, options: &Options) -> Result<Plan, SearchError> {
    let has_databases = options.pattern_databases_for(dimension).is_some();
    let algorithm = match (options.algorithm, options.heuristic) {
        (Algorithm::Auto, Heuristic::LinearConflict | Heuristic::PatternDatabase) => Algorithm::IdaStar,
        (Algorithm::Auto, _) if dimension <= 3 => Algorithm::AStar,
        (Algorithm::Auto, _) => Algorithm::IdaStar,
        (chosen, _) => chosen,
    };
    let heuristic = match (algorithm, options.heuristic) {
        (Algorithm::IdaStar, Heuristic::Auto) if has_databases => Heuristic::PatternDatabase,
        (Algorithm::IdaStar, Heuristic::Auto) => Heuristic::LinearConflict,
        (_, Heuristic::Auto) => Heuristic::Manhattan,
        (_, chosen) => chosen,
    };
    let unsupported =
        |reason: &str| Err(SearchError::Unsupported { algorithm, heuristic, dimension, reason: reason.into() });
    match (algorithm, heuristic) {
        (Algorithm::AStar, Heuristic::Hamming | Heuristic::Manhattan) => Ok(Plan { algorithm, heuristic }),
        (Algorithm::AStar, _) => unsupported("A* runs with the Hamming or Manhattan heuristic"),
        (Algorithm::IdaStar, Heuristic::PatternDatabase) if !pdb::partition::DIMENSIONS.contains(&dimension) => {
            unsupported("pattern databases are built for 4x4 and 5x5 boards only")
        }
        (Algorithm::IdaStar, Heuristic::PatternDatabase) if !has_databases => {
            Err(SearchError::PatternDatabasesNotLoaded)
        }
        _ => Ok(Plan { algorithm, heuristic }),
    }
}

/// Whether a search for a board of dimension `dimension` with this algorithm and heuristic
/// would read pattern databases, so a program loads them (577 MB for 4×4's 7-8, 488 MB for
/// 5×5's 6-6-6-6) only when they serve.
pub fn wants_pattern_databases(dimension: usize, algorithm: Algorithm, heuristic: Heuristic) -> bool {
    pdb::partition::DIMENSIONS.contains(&dimension)
        && matches!(algorithm, Algorithm::Auto | Algorithm::IdaStar)
        && matches!(heuristic, Heuristic::Auto | Heuristic::PatternDatabase)
}

/// Solves `board` optimally, or finds it unsolvable (moves = -1, no boards, no search).
///
/// `progress` is called every few thousand nodes with a [`ProgressReport`]; the search stops
/// with an error when `stop` is raised, the deadline in `options` passes, or the node budget is
/// spent.
pub fn solve(
    board: &Board,
    options: &Options,
    progress: &mut dyn Progress,
    stop: &Stop,
) -> Result<Solution, SearchError> {
    let plan = plan(board.dimension(), options)?;
    if !board.is_solvable() {
        return Ok(Solution::unsolvable(board));
    }
    let mut meter = Meter::new(options, progress, stop);
    let path = match plan.algorithm {
        Algorithm::AStar => search::astar::search(board, plan.heuristic, &mut meter)?,
        _ => search::idastar::search(
            board,
            plan.heuristic,
            options.pattern_databases_for(board.dimension()),
            &mut meter,
        )?,
    };
    let stats = meter.stats(plan);
    Solution::from_path(board, &path, stats)
}
