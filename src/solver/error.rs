//! Why a search gave no answer: [`SearchError`]. Every variant is a real failure (a budget
//! spent, the caller's stop or deadline, options that cannot run, a bug); how a search steers
//! itself is in its own outcomes, never here.

use std::time::Duration;

use bytesize::ByteSize;
use thiserror::Error;

use super::advice::{LIBRARY_WORDS, stronger_methods};
use super::method::Plan;
#[cfg(doc)]
use super::options::Options;
use super::options::{Algorithm, Heuristic};

/// Why a search gave no answer. A budget's error names the limit, the method that ran
/// ([`Plan`]) and the board size, and suggests only methods that exist for that size
/// ([`stronger_methods`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The node budget ([`Options::max_expanded_nodes`]) ran out before the goal was reached.
    #[error("{}; raise max_expanded_nodes, or {}", self.summary(), stronger_methods(*dimension, *plan, &LIBRARY_WORDS))]
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
    #[error("{}; {}", self.summary(), stronger_methods(*dimension, *plan, &LIBRARY_WORDS))]
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
    #[error("{}; {}", self.summary(), stronger_methods(*dimension, *plan, &LIBRARY_WORDS))]
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
    /// MINIMUM gave up early: IDA*'s remaining iterations, forecast at the least they can take,
    /// would take over [`PROOF_OUT_OF_REACH_FACTOR`] times the time left.
    #[error("{}; {}", self.summary(), stronger_methods(*dimension, *plan, &LIBRARY_WORDS))]
    ProofOutOfReach {
        /// The bound proven.
        bound: u32,
        /// The nodes expanded.
        expanded: u64,
        /// The time the remaining iterations were forecast to take.
        forecast: Duration,
        /// The time the search had left.
        time_left: Duration,
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
    /// The options contradict each other: a weight without BOUNDED, BOUNDED without a weight
    /// above 1, or a method the optimality cannot use.
    #[error("invalid options: {reason}")]
    InvalidOptions {
        /// The option at fault: `weight`, `optimality` or `algorithm`.
        option: &'static str,
        /// What is wrong with it, and what would do.
        reason: String,
    },
    /// A bug: the search produced a path that does not check out.
    #[error("internal error: {0}")]
    Internal(String),
}

impl SearchError {
    /// Whether a search ran out of its clock, its node budget or its memory budget (not the
    /// caller's cancel): a driver with a path in hand answers with it instead.
    pub fn is_out_of_budget(&self) -> bool {
        matches!(
            self,
            SearchError::DeadlineExceeded { .. }
                | SearchError::TimeLimitExceeded { .. }
                | SearchError::NodeBudgetExhausted { .. }
                | SearchError::MemoryBudgetExhausted { .. }
        )
    }

    /// What happened, in one sentence without what to try: a budget's limit, the method that ran
    /// and the board's size. An interface says what to try in its own words.
    pub fn summary(&self) -> String {
        match *self {
            SearchError::NodeBudgetExhausted { limit, expanded, dimension: n, plan } => format!(
                "node budget exhausted: {plan} expanded {expanded} nodes (limit {limit}) on a {n}x{n} board without \
                 reaching the goal"
            ),
            SearchError::MemoryBudgetExhausted { limit, held, nodes, dimension: n, plan } => format!(
                "memory budget exhausted: {plan} holds {nodes} nodes in {} on a {n}x{n} board and would pass the \
                 search memory limit of {} growing further",
                ByteSize(held),
                ByteSize(limit)
            ),
            SearchError::TimeLimitExceeded { limit, expanded, dimension: n, plan } => format!(
                "search time limit of {} reached (not the caller's deadline): {plan} expanded {expanded} nodes on a \
                 {n}x{n} board",
                humantime::format_duration(limit)
            ),
            SearchError::ProofOutOfReach { bound, forecast, time_left, dimension: n, plan, .. } => format!(
                "a proof is out of reach: {plan} proved at least {bound} moves on a {n}x{n} board, and its remaining \
                 iterations would take {}, with {} left",
                roughly(forecast),
                roughly(time_left)
            ),
            _ => self.to_string(),
        }
    }
}

/// How far over the time left IDA*'s forecast must be before MINIMUM gives up: far enough that
/// no board it would have solved in time is lost to a forecast's error.
pub const PROOF_OUT_OF_REACH_FACTOR: u32 = 100;

/// `duration` as a person says a forecast, to the unit that matters: "about a second",
/// "about 40 seconds", "about 3 hours"; past ten years, "years".
pub fn roughly(duration: Duration) -> String {
    const UNITS: [(u64, &str); 5] =
        [(1, "second"), (60, "minute"), (3_600, "hour"), (86_400, "day"), (31_557_600, "year")];
    let seconds = duration.as_secs();
    let Some(&(size, unit)) = UNITS.iter().rev().find(|(size, _)| seconds >= *size) else {
        return "about a second".into();
    };
    match seconds / size {
        count if unit == "year" && count >= 10 => "years".into(),
        1 => format!("about a {unit}"),
        count => format!("about {count} {unit}s"),
    }
}
