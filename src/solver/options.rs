//! What a request asks of a search: [`Options`] (the method, the optimality and the budgets),
//! and the names of its choices as flags and logs spell them (`Display` and `FromStr`).

use std::fmt;
use std::time::{Duration, Instant};

use thiserror::Error;

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

/// What a request asks for: the method, how short the answer must be, and how far the search
/// may go. What the search may use besides (loaded tables, lent cores) is the [`Solver`](super::Solver)'s.
///
/// The defaults bound every search by memory ([`DEFAULT_MAX_MEMORY_BYTES`]) and time
/// ([`DEFAULT_MAX_SEARCH_TIME`]) but not by nodes: IDA* needs no memory and may expand billions.
#[derive(Debug, Clone)]
pub struct Options {
    /// The search; `Auto` picks for the board's size.
    pub algorithm: Algorithm,
    /// The heuristic; `Auto` picks the strongest the algorithm has.
    pub heuristic: Heuristic,
    /// The search fails with [`SearchError::NodeBudgetExhausted`](super::SearchError::NodeBudgetExhausted) after expanding this many
    /// nodes; `u64::MAX` (the default) for no cap.
    pub max_expanded_nodes: u64,
    /// The bytes A* may hold (nodes, closed set and frontier, counted by capacity); past them
    /// it fails with [`SearchError::MemoryBudgetExhausted`](super::SearchError::MemoryBudgetExhausted). `search::astar` documents the bytes
    /// per node for each board size. IDA* holds only its path.
    pub max_memory_bytes: u64,
    /// The search fails with [`SearchError::TimeLimitExceeded`](super::SearchError::TimeLimitExceeded) after running this long.
    pub max_search_time: Option<Duration>,
    /// The caller's deadline: the search fails with [`SearchError::DeadlineExceeded`](super::SearchError::DeadlineExceeded) once this
    /// instant has passed.
    pub deadline: Option<Instant>,
    /// How short the answer must be: the minimum (the default), within a weight of it, or any.
    pub optimality: Optimality,
    /// For [`Optimality::Bounded`] only, and then required: above 1 and at most [`MAX_WEIGHT`].
    pub weight: Option<f64>,
}

/// The default of [`Options::max_memory_bytes`]: 2 GiB, tens of millions of 4×4 A* nodes, so
/// two searches at once fit a small machine.
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 2 << 30;

/// The default of [`Options::max_search_time`]: 10 minutes, longer than any 4×4 board takes
/// with IDA* and pattern databases.
pub const DEFAULT_MAX_SEARCH_TIME: Duration = Duration::from_secs(600);

/// How long ANYTIME searches when its caller names no time: an answer in seconds, not the
/// server's whole limit.
pub const DEFAULT_ANYTIME_TIME: Duration = Duration::from_secs(10);

/// How short an answer must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Optimality {
    /// The fewest moves, proven. Random boards above 4×4 run out of budget.
    #[default]
    Minimum,
    /// At most [`Options::weight`] times the minimum, proven, by weighted IDA*.
    Bounded,
    /// Any valid path, for every size, in milliseconds: see `search::constructive`.
    Fast,
    /// The shortest path found by the answer time, optimal when the proof finished by then,
    /// else with the best lower bound proven: see `search::anytime`.
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
            optimality: Optimality::Minimum,
            weight: None,
        }
    }
}
