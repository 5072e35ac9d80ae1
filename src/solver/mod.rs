//! The Solver API: one entry point, [`solve`], that picks an algorithm and heuristic for the
//! board, runs it under memory, time and node budgets and a stop flag, reports progress through a
//! callback, and checks the path it returns move by move before calling it a [`Solution`].
//!
//! Every algorithm behind it is optimal: it returns a shortest path or an error, never a longer
//! path. Each one is a file of its own and returns only the tile directions of its path; turning
//! them into boards and steps, and checking them, happens once, here.
//!
//! - `budget`: the [`Meter`] every search shares: limits, the stop flag, progress pacing.
//! - `advice`: what an error suggests when a budget runs out, by board size.
//! - [`search`]: the spec's A* and IDA*, one file each.
//! - [`heuristic`]: the [`heuristic::Estimator`] trait and the per-tile and linear-conflict bounds.
//! - [`pdb`]: pattern databases: partition, lookup, build, file and cache.

mod advice;
mod budget;
pub mod heuristic;
pub mod pdb;
pub mod search;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytesize::ByteSize;
use thiserror::Error;

use crate::board::{Board, Direction, Step};

pub use advice::stronger_methods;
pub use budget::{CHECK_INTERVAL, Meter};
pub use pdb::{DatabaseSlot, Partition, PatternDatabases, PdbError, cache_dir, default_cache_dir};

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
///
/// The defaults bound every search by memory ([`DEFAULT_MAX_MEMORY_BYTES`]) and time
/// ([`DEFAULT_MAX_SEARCH_TIME`]) but not by nodes: IDA* needs no memory and may expand billions.
#[derive(Debug, Clone)]
pub struct Options {
    /// The search; `Auto` picks for the board's size.
    pub algorithm: Algorithm,
    /// The heuristic; `Auto` picks the strongest the algorithm has.
    pub heuristic: Heuristic,
    /// The search fails with [`SearchError::NodeBudgetExhausted`] after expanding this many
    /// nodes; `u64::MAX` (the default) for no cap.
    pub max_expanded_nodes: u64,
    /// The bytes A* may hold (nodes, closed set and frontier, counted by capacity); past them
    /// it fails with [`SearchError::MemoryBudgetExhausted`]. `search::astar` documents the bytes
    /// per node for each board size. IDA* holds only its path.
    pub max_memory_bytes: u64,
    /// The search fails with [`SearchError::TimeLimitExceeded`] after running this long.
    pub max_search_time: Option<Duration>,
    /// The caller's deadline: the search fails with [`SearchError::DeadlineExceeded`] once this
    /// instant has passed.
    pub deadline: Option<Instant>,
    /// Loaded 4×4 pattern databases (see [`PatternDatabases::load_or_build`]). With them, `Auto`
    /// solves a 4×4 board with IDA* and the databases; without them, with IDA* and linear
    /// conflict, and an explicit [`Heuristic::PatternDatabase`] is refused as unsupported.
    pub pattern_databases: Option<Arc<PatternDatabases>>,
}

/// The default of [`Options::max_memory_bytes`]: 2 GiB, tens of millions of 4×4 A* nodes, so
/// two searches at once fit a small machine.
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 2 << 30;

/// The default of [`Options::max_search_time`]: 10 minutes, longer than any 4×4 board takes
/// with IDA* and pattern databases.
pub const DEFAULT_MAX_SEARCH_TIME: Duration = Duration::from_secs(600);

impl Default for Options {
    fn default() -> Options {
        Options {
            algorithm: Algorithm::Auto,
            heuristic: Heuristic::Auto,
            max_expanded_nodes: u64::MAX,
            max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
            max_search_time: Some(DEFAULT_MAX_SEARCH_TIME),
            deadline: None,
            pattern_databases: None,
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

/// Why a search gave no answer. A budget's error names the limit, the method that ran
/// ([`Plan`]) and the board size, and suggests only methods that exist for that size
/// ([`stronger_methods`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The node budget ([`Options::max_expanded_nodes`]) ran out before the goal was reached.
    #[error(
        "node budget exhausted: {plan} expanded {expanded} nodes (limit {limit}) on a {dimension}x{dimension} \
         board without reaching the goal; raise max_expanded_nodes, or {}",
        stronger_methods(*dimension, *plan)
    )]
    NodeBudgetExhausted {
        /// The node budget the search had.
        limit: u64,
        /// The nodes it expanded.
        expanded: u64,
        /// The board's N.
        dimension: usize,
        /// The method that ran.
        plan: Plan,
    },
    /// The memory budget ([`Options::max_memory_bytes`]) could not hold the next nodes.
    #[error(
        "memory budget exhausted: {plan} holds {nodes} nodes in {} on a {dimension}x{dimension} board and \
         would pass the search memory limit of {} growing further; {}",
        ByteSize(*held), ByteSize(*limit), stronger_methods(*dimension, *plan)
    )]
    MemoryBudgetExhausted {
        /// The memory budget in bytes.
        limit: u64,
        /// The bytes the search held when it stopped.
        held: u64,
        /// The nodes it held.
        nodes: u64,
        /// The board's N.
        dimension: usize,
        /// The method that ran.
        plan: Plan,
    },
    /// The search's own time limit ([`Options::max_search_time`]) passed before the caller's deadline.
    #[error(
        "search time limit of {} reached (not the caller's deadline): {plan} expanded {expanded} nodes on a \
         {dimension}x{dimension} board; {}",
        humantime::format_duration(*limit), stronger_methods(*dimension, *plan)
    )]
    TimeLimitExceeded {
        /// The search's time limit.
        limit: Duration,
        /// The nodes it expanded.
        expanded: u64,
        /// The board's N.
        dimension: usize,
        /// The method that ran.
        plan: Plan,
    },
    /// The caller's deadline ([`Options::deadline`]) passed.
    #[error("the caller's deadline passed after {elapsed:?} and {expanded} expanded nodes")]
    DeadlineExceeded {
        /// How long the search ran.
        elapsed: Duration,
        /// The nodes it expanded.
        expanded: u64,
    },
    /// The stop flag was raised.
    #[error("search cancelled after {expanded} expanded nodes")]
    Cancelled {
        /// The nodes expanded before the stop.
        expanded: u64,
    },
    /// The algorithm and heuristic asked for cannot run on this board.
    #[error("{algorithm} with {heuristic} is not available for {dimension}x{dimension} boards: {reason}")]
    Unsupported {
        /// The algorithm asked for.
        algorithm: Algorithm,
        /// The heuristic asked for.
        heuristic: Heuristic,
        /// The board's N.
        dimension: usize,
        /// Why they cannot run on it.
        reason: String,
    },
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

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let algorithm = match self.algorithm {
            Algorithm::AStar => "A*",
            Algorithm::IdaStar => "IDA*",
            Algorithm::Auto => "auto",
        };
        write!(f, "{algorithm} with {}", self.heuristic)
    }
}

/// Resolves `Auto` for a board of dimension `dimension`, and refuses combinations that cannot
/// run, before any search starts.
///
/// `Auto` picks by measurement: A* with Manhattan for 2×2 and 3×3 (the spec's method, a few
/// milliseconds at most there); IDA* with the pattern databases for 4×4 when
/// `options.pattern_databases` holds them, else IDA* with linear conflict (a hard 4×4 then takes
/// seconds to minutes instead of milliseconds); IDA* with linear conflict for 5×5 and larger.
/// Asking for linear conflict or pattern databases with `Auto` as the algorithm gets IDA*,
/// the only search that has them.
pub fn plan(dimension: usize, options: &Options) -> Result<Plan, SearchError> {
    let has_databases = dimension == pdb::partition::DIMENSION && options.pattern_databases.is_some();
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
        (Algorithm::IdaStar, Heuristic::PatternDatabase) if dimension != pdb::partition::DIMENSION => {
            unsupported("pattern databases are built for 4x4 boards only")
        }
        (Algorithm::IdaStar, Heuristic::PatternDatabase) if !has_databases => {
            Err(SearchError::PatternDatabasesNotLoaded)
        }
        _ => Ok(Plan { algorithm, heuristic }),
    }
}

/// Whether a search for a board of dimension `dimension` with this algorithm and heuristic
/// would read pattern databases, so a program loads them (577 MB for 7-8) only when they serve.
pub fn wants_pattern_databases(dimension: usize, algorithm: Algorithm, heuristic: Heuristic) -> bool {
    dimension == pdb::partition::DIMENSION
        && matches!(algorithm, Algorithm::Auto | Algorithm::IdaStar)
        && matches!(heuristic, Heuristic::Auto | Heuristic::PatternDatabase)
}

/// Solves `board` optimally, or finds it unsolvable (moves = -1, no boards, no search).
///
/// `progress` is called every few thousand nodes with a [`ProgressReport`]; the search stops
/// with an error when `stop` is raised, the caller's deadline or the time limit in `options`
/// passes, or the node or memory budget is spent. A* gives all its memory back when it returns.
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
    let mut meter = Meter::new(options, plan, board.dimension(), progress, stop);
    let path = match plan.algorithm {
        Algorithm::AStar => search::astar::search(board, plan.heuristic, &mut meter)?,
        _ => search::idastar::search(board, plan.heuristic, options.pattern_databases.as_deref(), &mut meter)?,
    };
    let stats = meter.stats();
    Solution::from_path(board, &path, stats)
}
