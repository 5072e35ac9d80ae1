//! The Solver API: [`Solver::solve`] (or [`solve`], with nothing loaded) picks a method for the
//! board, runs it under memory, time and node budgets and a stop flag, reports progress through
//! a callback, and checks the path it returns move by move before calling it a [`Solution`].
//!
//! By default ([`Optimality::Minimum`]) every method behind it is optimal: it returns a shortest
//! path or an error, never a longer path. [`Optimality::Bounded`] (weighted IDA*) returns at
//! most a weight times the minimum, [`Optimality::Fast`] (the constructive solver) any valid
//! path for every size, and [`Optimality::Anytime`] the best path found by its time; each
//! answer says what it proved ([`Solution::is_optimal`], [`Solution::lower_bound`]).
//!
//! The files read in one direction, each using only those listed before it:
//!
//! - `options`: what a request asks ([`Options`], [`Algorithm`], [`Heuristic`], [`Optimality`]).
//! - `method`: what a solve runs ([`Method`], and the [`Plan`] that errors name).
//! - `advice`: what a spent budget suggests, by board size.
//! - `error`: [`SearchError`], real failures only.
//! - `solution`: [`Solution`] and [`SearchStats`].
//! - `progress`: [`Progress`] reports out, the [`Stop`] flag in.
//! - `farm`: the [`Farm`] a cluster lends a long search, and the pieces it runs.
//! - `helper_threads`: [`Helpers`], the cores a long search may borrow besides its own thread.
//! - `meter`: the [`Meter`] every search shares: nodes, memory, clocks, stop, progress.
//! - `background`, `prefetch`: idle priority for builds; a cache line asked for ahead.
//! - [`heuristic`]: the [`heuristic::Estimator`] trait and the per-tile and linear-conflict bounds.
//! - [`pdb`]: pattern databases: partition, lookup, build, file and cache.
//! - `runtime`: the [`Solver`]: the loaded tables and lent cores its searches may use.
//! - [`search`]: one file or folder per method.
//! - `plan`: [`Solver::plan`], which resolves `Auto` and picks the method.
//! - `solve`: [`Solver::solve`], the dispatcher: a table from method to search.
//! - `warm_up`: [`warm_up`], what a long-running program builds once at start.

mod advice;
mod background;
mod error;
mod farm;
mod helper_threads;
pub mod heuristic;
mod hint;
mod meter;
mod method;
mod options;
pub mod pdb;
mod plan;
mod prefetch;
mod progress;
mod runtime;
pub mod search;
mod solution;
mod solve;
mod warm_up;

pub use advice::{LIBRARY_WORDS, Words, stronger_method, stronger_methods};
pub use error::{PROOF_OUT_OF_REACH_FACTOR, SearchError, roughly};
pub use farm::{Farm, FarmError, FarmedIteration, FarmedResult, PieceOrder, PieceReport};
pub use helper_threads::{Helpers, Lease, Lender};
pub use hint::{DEFAULT_HINT_TIME, Hint};
pub use meter::{CHECK_INTERVAL, Interrupt, Meter};
pub use method::{Method, Plan};
pub use options::{
    Algorithm, DEFAULT_ANYTIME_TIME, DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_SEARCH_TIME, Heuristic, MAX_WEIGHT,
    Optimality, Options, UnknownName,
};
pub use pdb::{Partition, PatternDatabases, PdbError, TableMemory, cache_dir, default_cache_dir};
pub use plan::{BEST_KNOWN_FROM, wants_pattern_databases};
pub use progress::{NoProgress, Progress, ProgressReport, Stop};
pub use runtime::Solver;
pub use search::Weight;
pub use search::idastar::run_piece;
pub use solution::{MAX_LISTED_TILES, SearchStats, Solution};
pub use solve::{ANSWER_MARGIN, solve};
pub use warm_up::warm_up;
