//! The Solver API: one entry point, [`solve`], that picks an algorithm and heuristic for the
//! board, runs it under memory, time and node budgets and a stop flag, reports progress through a
//! callback, and checks the path it returns move by move before calling it a [`Solution`].
//!
//! By default ([`Optimality::Minimum`]) every method behind it is optimal: it returns a shortest
//! path or an error, never a longer path. [`Optimality::Bounded`] (weighted IDA*) returns at
//! most a weight times the minimum, [`Optimality::Fast`] (the constructive solver) any valid
//! path for every size; each answer says what it proved ([`Solution::is_optimal`],
//! [`Solution::lower_bound`]). Each method is a file of its own and returns only the tile
//! directions of its path; checking them, and turning them into boards and steps where they are
//! small enough, happens once, here.
//!
//! - `budget`: the [`Meter`] every search shares: limits, the stop flag, progress pacing.
//! - [`helpers`]: the cores a long IDA* may borrow besides its caller's thread.
//! - `advice`: what an error suggests when a budget runs out, by board size.
//! - `background`: idle priority for a thread that builds what searches use (tables, machines).
//! - [`search`]: the spec's A*, IDA* (plain and weighted), the 3×3 table, the constructive solver.
//! - [`heuristic`]: the [`heuristic::Estimator`] trait and the per-tile and linear-conflict bounds.
//! - [`pdb`]: pattern databases: partition, lookup, build, file and cache.
//! - `prefetch`: asking for a cache line before it is needed.

mod advice;
mod background;
mod budget;
pub mod helpers;
pub mod heuristic;
pub mod pdb;
mod prefetch;
pub mod search;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytesize::ByteSize;
use thiserror::Error;

use crate::board::{Board, Direction, Step, tile_to_slide};

pub use advice::stronger_methods;
pub use budget::{CHECK_INTERVAL, Interrupt, Meter};
pub use helpers::Helpers;
pub use pdb::{Partition, PatternDatabases, PdbError, TableMemory, cache_dir, default_cache_dir};
pub use search::Weight;

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
    /// Loaded pattern databases, at most one set per board dimension (4×4 and 5×5; see
    /// [`PatternDatabases::load_or_build_partition`]). With the set for a board's size, `Auto`
    /// solves it with IDA* and the databases; without, with IDA* and linear conflict, and an
    /// explicit [`Heuristic::PatternDatabase`] is refused as not loaded.
    pub pattern_databases: Vec<Arc<PatternDatabases>>,
    /// How short the answer must be: the minimum (the default), within a weight of it, or any.
    pub optimality: Optimality,
    /// For [`Optimality::Bounded`] only, and then required: above 1 and at most [`MAX_WEIGHT`].
    pub weight: Option<f64>,
    /// Threads a long IDA* may run beside the caller's, and where their cores come from
    /// ([`Helpers::lent`] in a server); none by default.
    pub helpers: Helpers,
}

impl Options {
    /// The loaded pattern databases for boards of side `dimension`, if any.
    pub fn pattern_databases_for(&self, dimension: usize) -> Option<&PatternDatabases> {
        self.pattern_databases.iter().map(Arc::as_ref).find(|databases| databases.dimension() == dimension)
    }
}

/// The default of [`Options::max_memory_bytes`]: 2 GiB, tens of millions of 4×4 A* nodes, so
/// two searches at once fit a small machine.
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 2 << 30;

/// The default of [`Options::max_search_time`]: 10 minutes, longer than any 4×4 board takes
/// with IDA* and pattern databases.
pub const DEFAULT_MAX_SEARCH_TIME: Duration = Duration::from_secs(600);

/// How short an answer must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Optimality {
    /// The fewest moves, proven. Random boards above 4×4 run out of budget.
    #[default]
    Minimum,
    /// At most [`Options::weight`] times the minimum, proven, by weighted IDA*.
    Bounded,
    /// Any valid path, for every size, in milliseconds: see [`search::constructive`].
    Fast,
    /// The shortest path found by the answer time, optimal when the proof finished by then,
    /// else with the best lower bound proven: see [`search::anytime`].
    Anytime,
}

impl fmt::Display for Optimality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Optimality::Minimum => "minimum",
            Optimality::Bounded => "bounded",
            Optimality::Fast => "fast",
            Optimality::Anytime => "anytime",
        })
    }
}

impl std::str::FromStr for Optimality {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Optimality, UnknownName> {
        let all = [Optimality::Minimum, Optimality::Bounded, Optimality::Fast, Optimality::Anytime];
        parse_name("optimality", name, &all)
    }
}

/// The largest weight [`Optimality::Bounded`] takes: past it the bound says nothing a FAST
/// answer does not, and the search's fixed-point f values stay far from overflow.
pub const MAX_WEIGHT: f64 = 1000.0;

impl Default for Options {
    fn default() -> Options {
        Options {
            algorithm: Algorithm::Auto,
            heuristic: Heuristic::Auto,
            max_expanded_nodes: u64::MAX,
            max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
            max_search_time: Some(DEFAULT_MAX_SEARCH_TIME),
            deadline: None,
            pattern_databases: Vec::new(),
            optimality: Optimality::Minimum,
            weight: None,
            helpers: Helpers::none(),
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
    /// The length of the best solution known so far, 0 while there is none.
    pub best_moves: u32,
}

/// Receives progress while a search runs. It is called on the search's own thread, so it must
/// be quick: the service only forwards the report, dropping it if its client is slow.
pub trait Progress {
    /// Called every few thousand expanded nodes, and once at the start.
    fn report(&mut self, report: &ProgressReport);

    /// Called by [`Optimality::Anytime`] with each solution shorter than every one before it,
    /// before the search goes on; ignored by default.
    fn improved(&mut self, _solution: &Solution) {}
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

/// Solutions with more tiles than this in all (moves + 1 boards of N*N tiles) keep no list of
/// boards and steps: [`Solution::boards`] and [`Solution::steps`] are `None` and
/// [`Solution::replay`] gives the boards one at a time. 4 Mi tiles are 8 MB of boards; a
/// 128×128 answer of 3 M moves would be 100 GB.
pub const MAX_LISTED_TILES: usize = 1 << 22;

/// The answer for one board: a path to the goal (the shortest unless [`Options::optimality`]
/// asked otherwise), or the finding that there is none. The path is checked move by move when
/// the solution is made; it is kept as the tiles' directions, and as boards and steps only up
/// to [`MAX_LISTED_TILES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    initial: Board,
    /// The tile direction of each move; empty when unsolvable.
    path: Vec<Direction>,
    /// Initial board .. goal, when small enough to list.
    boards: Option<Vec<Board>>,
    /// One per move, when the boards are listed.
    steps: Option<Vec<Step>>,
    solvable: bool,
    lower_bound: u32,
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

    /// The number of moves of this solution (the minimum when [`Solution::is_optimal`]), or -1
    /// when unsolvable (the spec's `moves()`).
    pub fn moves(&self) -> i32 {
        if self.solvable { i32::try_from(self.path.len()).unwrap_or(i32::MAX) } else { -1 }
    }

    /// Whether [`Solution::moves`] is proven minimal.
    pub fn is_optimal(&self) -> bool {
        self.solvable && self.lower_bound as usize == self.path.len()
    }

    /// Proven: no solution is shorter than this (0 when unsolvable).
    pub fn lower_bound(&self) -> u32 {
        self.lower_bound
    }

    /// The boards of the solution, initial to goal (the spec's `solution()`); `None` when
    /// unsolvable, or when there are more than [`MAX_LISTED_TILES`] tiles in all (then
    /// [`Solution::replay`] gives them one at a time).
    pub fn boards(&self) -> Option<&[Board]> {
        self.boards.as_deref()
    }

    /// The moves of the solution, one per step: which tile slid, and where; `None` exactly
    /// when [`Solution::boards`] is.
    pub fn steps(&self) -> Option<&[Step]> {
        self.steps.as_deref()
    }

    /// The tile direction of each move, for every size.
    pub fn directions(&self) -> &[Direction] {
        &self.path
    }

    /// The blank's path, one letter a move: `U` (toward row 0), `D`, `L`, `R`.
    pub fn blank_moves(&self) -> String {
        self.path.iter().map(|&direction| direction.opposite().letter()).collect()
    }

    /// The boards of the solution, initial to goal, made one at a time: for any size, in
    /// memory for one board.
    pub fn replay(&self) -> impl Iterator<Item = Board> + '_ {
        let mut board = self.solvable.then(|| self.initial.clone());
        let mut moves = self.path.iter();
        std::iter::from_fn(move || {
            let current = board.take()?;
            board = moves.next().and_then(|&direction| current.slide(direction)).map(|(next, _)| next);
            Some(current)
        })
    }

    /// What the search cost.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    fn unsolvable(initial: &Board) -> Solution {
        Solution {
            initial: initial.clone(),
            path: Vec::new(),
            boards: None,
            steps: None,
            solvable: false,
            lower_bound: 0,
            stats: SearchStats::default(),
        }
    }

    /// Replays `path` from `initial` in place, failing if a move is illegal or the end is not
    /// the goal; lists the boards and steps when they are small enough. `lower_bound` is what
    /// the search proved (raised to the root's Manhattan distance if lower, never above the
    /// path's length).
    fn from_path(
        initial: &Board,
        path: Vec<Direction>,
        lower_bound: u32,
        stats: SearchStats,
    ) -> Result<Solution, SearchError> {
        let n = initial.dimension();
        let mut tiles = initial.tiles().to_vec();
        let mut blank = initial.blank_index();
        for (index, &direction) in path.iter().enumerate() {
            let from = tile_to_slide(n, blank, direction)
                .ok_or_else(|| SearchError::Internal(format!("move {index} ({direction}) of the path is illegal")))?;
            tiles.swap(from, blank);
            blank = from;
        }
        let goal = tiles.len() - 1;
        if tiles[goal] != 0 || tiles[..goal].iter().enumerate().any(|(cell, &tile)| usize::from(tile) != cell + 1) {
            return Err(SearchError::Internal("the path does not end at the goal".into()));
        }
        let lower_bound = lower_bound.max(initial.manhattan()).min(path.len() as u32);
        let mut solution =
            Solution { initial: initial.clone(), path, boards: None, steps: None, solvable: true, lower_bound, stats };
        if (solution.path.len() + 1).saturating_mul(n * n) <= MAX_LISTED_TILES {
            let mut boards = Vec::with_capacity(solution.path.len() + 1);
            let mut steps = Vec::with_capacity(solution.path.len());
            let mut board = initial.clone();
            for &direction in &solution.path {
                let (next, step) = board
                    .slide(direction)
                    .ok_or_else(|| SearchError::Internal("the replayed path left the board".into()))?;
                boards.push(std::mem::replace(&mut board, next));
                steps.push(step);
            }
            boards.push(board);
            solution.boards = Some(boards);
            solution.steps = Some(steps);
        }
        Ok(solution)
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
    /// ANYTIME's proof search reached the length of the best solution in hand, which is then
    /// proven shortest. The anytime driver answers with that solution: `solve` never returns
    /// this.
    #[error("the proven bound {bound} reached the best solution's length")]
    BoundReached {
        /// The bound proven.
        bound: u32,
    },
    /// ANYTIME's proof search would not finish its next iteration before the answer time (see
    /// [`Meter::forecast_iterations`]), so the time left goes back to shortening the best
    /// solution. The anytime driver handles this: `solve` never returns it.
    #[error("IDA*'s next iteration (bound {bound}, about {nodes} nodes) would not finish in the time left")]
    IterationOutOfReach {
        /// The bound proven: the next iteration's threshold.
        bound: u32,
        /// The nodes the next iteration was forecast to expand.
        nodes: u64,
    },
    /// The pattern databases were asked for but are not loaded: a server is still loading or
    /// building them (a retry later succeeds), or a library caller gave none.
    #[error("the pattern databases are not loaded (yet): retry later, or ask for linear conflict, which needs none")]
    PatternDatabasesNotLoaded,
    /// The options contradict each other: a weight without BOUNDED, BOUNDED without a weight
    /// above 1, or a method the optimality cannot use.
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// A bug: the search produced a path that does not check out.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The algorithm and heuristic [`solve`] runs for a board, with `Auto` resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// `Auto` only where no single search runs: the 3×3 distance table and FAST's
    /// constructive solver.
    pub algorithm: Algorithm,
    /// `Auto` exactly when the algorithm is.
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
/// For [`Optimality::Minimum`], `Auto` picks by measurement: the complete distance table for
/// 3×3 ([`search::eight`], microseconds); A* with Manhattan for 2×2; IDA* with the pattern
/// databases for 4×4 and 5×5 when `options.pattern_databases` holds them for that size, else
/// IDA* with linear conflict (a hard 4×4 then takes seconds to minutes instead of
/// milliseconds, and a random 5×5 is out of reach); IDA* with linear conflict for 6×6 and up. Asking for linear conflict or pattern databases with
/// `Auto` as the algorithm gets IDA*, the only search that has them. [`Optimality::Bounded`]
/// runs weighted IDA* with the heuristic IDA* would take; [`Optimality::Fast`] picks its own
/// methods (both `Auto`).
pub fn plan(dimension: usize, options: &Options) -> Result<Plan, SearchError> {
    check_optimality(options)?;
    let auto = options.algorithm == Algorithm::Auto && options.heuristic == Heuristic::Auto;
    if matches!(options.optimality, Optimality::Fast | Optimality::Anytime)
        || (auto && dimension == 3 && options.optimality == Optimality::Minimum)
    {
        return Ok(Plan { algorithm: Algorithm::Auto, heuristic: Heuristic::Auto });
    }
    let has_databases = options.pattern_databases_for(dimension).is_some();
    let algorithm = match (options.algorithm, options.heuristic) {
        (Algorithm::Auto, _) if options.optimality == Optimality::Bounded => Algorithm::IdaStar,
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
        (Algorithm::AStar, _) if options.optimality == Optimality::Bounded => Err(SearchError::InvalidOptions(
            "optimality BOUNDED runs weighted IDA*: leave the algorithm unset or ask for IDA*".into(),
        )),
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

/// Refuses a weight outside BOUNDED, BOUNDED without a usable weight, and FAST with a method.
fn check_optimality(options: &Options) -> Result<(), SearchError> {
    let invalid = |message: String| Err(SearchError::InvalidOptions(message));
    match (options.optimality, options.weight) {
        (Optimality::Anytime, Some(weight)) => {
            invalid(format!("weight {weight} is only for optimality BOUNDED; leave it unset for ANYTIME"))
        }
        (Optimality::Anytime, None) if options.algorithm != Algorithm::Auto || options.heuristic != Heuristic::Auto => {
            invalid("optimality ANYTIME picks its own methods: leave the algorithm and heuristic unset".into())
        }
        (Optimality::Bounded, None) => {
            invalid("optimality BOUNDED needs a weight above 1, such as 1.1, 1.5 or 2".into())
        }
        (Optimality::Bounded, Some(weight)) if !(weight > 1.0 && weight <= MAX_WEIGHT) => invalid(format!(
            "weight {weight} is out of range: BOUNDED needs a weight above 1 and at most {MAX_WEIGHT}, such as 1.5"
        )),
        (Optimality::Minimum | Optimality::Fast, Some(weight)) => invalid(format!(
            "weight {weight} is only for optimality BOUNDED; leave it unset for {}",
            options.optimality.to_string().to_uppercase()
        )),
        (Optimality::Fast, None) if options.algorithm != Algorithm::Auto || options.heuristic != Heuristic::Auto => {
            invalid("optimality FAST picks its own methods: leave the algorithm and heuristic unset".into())
        }
        _ => Ok(()),
    }
}

/// The most an ANYTIME answer is kept back before the caller's deadline: time to stop the
/// search, check the path and send it.
pub const ANSWER_MARGIN: Duration = Duration::from_millis(500);

/// When an ANYTIME search answers: at its time limit ([`Options::max_search_time`], from now),
/// or a margin before the caller's deadline if that comes first. The margin is a tenth of the
/// time left, at most [`ANSWER_MARGIN`].
fn answer_time(options: &Options) -> Option<Instant> {
    let now = Instant::now();
    let limit = options.max_search_time.and_then(|limit| now.checked_add(limit));
    let before_deadline = options.deadline.map(|deadline| {
        let left = deadline.saturating_duration_since(now);
        deadline - (left / 10).min(ANSWER_MARGIN)
    });
    [limit, before_deadline].into_iter().flatten().min()
}

/// Whether a search for a board of dimension `dimension` with this algorithm and heuristic
/// would read pattern databases, so a program loads them (288 MB for 4×4's 7-8, 702 MB for
/// 5×5's 6-6-6-6 twice) only when they serve.
pub fn wants_pattern_databases(dimension: usize, algorithm: Algorithm, heuristic: Heuristic) -> bool {
    pdb::partition::DIMENSIONS.contains(&dimension)
        && matches!(algorithm, Algorithm::Auto | Algorithm::IdaStar)
        && matches!(heuristic, Heuristic::Auto | Heuristic::PatternDatabase)
}

/// The smallest side on which MINIMUM finds a FAST path before its IDA*: the length is then
/// reported as the best known while the search runs, and ends it once the bound reaches it
/// ([`search::anytime::minimum`]). Smaller boards are solved in less time than that path takes.
pub const BEST_KNOWN_FROM: usize = 5;

/// Solves `board` as `options.optimality` asks (optimally by default), or finds it
/// unsolvable (moves = -1, no boards, no search).
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
    let anytime;
    let options = match options.optimality {
        Optimality::Anytime => {
            anytime = Options { deadline: answer_time(options), max_search_time: None, ..options.clone() };
            &anytime
        }
        _ => options,
    };
    let mut meter = Meter::new(options, plan, board.dimension(), progress, stop);
    let found = match (options.optimality, plan.algorithm) {
        (Optimality::Anytime, _) => search::anytime::solve(
            board,
            options.pattern_databases_for(4),
            options.pattern_databases_for(5),
            &mut meter,
        )?,
        (Optimality::Fast, _) => search::constructive::solve(
            board,
            options.pattern_databases_for(4),
            options.pattern_databases_for(5),
            &mut meter,
        )?,
        (_, Algorithm::Auto) => search::eight::solve(board)?,
        (_, Algorithm::AStar) => search::Found::optimal(search::astar::search(board, plan.heuristic, &mut meter)?),
        (_, _) => {
            let weight = match options.optimality {
                Optimality::Bounded => Weight::new(options.weight.unwrap_or(1.0)),
                _ => Weight::ONE,
            };
            let databases = options.pattern_databases_for(board.dimension());
            let optimal = |meter: &mut Meter<'_>, interlude: &mut dyn search::idastar::Interlude| {
                search::idastar::search_from(board, plan.heuristic, databases, weight, 0, interlude, meter)
            };
            if options.optimality == Optimality::Minimum && board.dimension() >= BEST_KNOWN_FROM {
                search::anytime::minimum(board, options.pattern_databases_for(5), &mut meter, optimal)?
            } else {
                optimal(&mut meter, &mut ())?
            }
        }
    };
    let stats = meter.stats();
    Solution::from_path(board, found.path, found.lower_bound, stats)
}
