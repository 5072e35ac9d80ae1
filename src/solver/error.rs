//! Why a search gave no answer: [`SearchError`]. Every variant is a real failure (a budget
//! spent, the caller's stop or deadline, options that cannot run, a bug); how a search steers
//! itself is in its own outcomes, never here.

use std::time::Duration;

use bytesize::ByteSize;
use thiserror::Error;

use super::advice::{LIBRARY_WORDS, Words, stronger_methods};
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
    #[error(
        "node budget exhausted: {plan} expanded {expanded} nodes (limit {limit}) on a {dimension}x{dimension} \
         board without reaching the goal; raise max_expanded_nodes, or {}",
        stronger_methods(*dimension, *plan, &LIBRARY_WORDS)
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
        ByteSize(*held), ByteSize(*limit), stronger_methods(*dimension, *plan, &LIBRARY_WORDS)
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
        humantime::format_duration(*limit), stronger_methods(*dimension, *plan, &LIBRARY_WORDS)
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
    /// MINIMUM gave up early: IDA*'s remaining iterations, forecast at the least they can take,
    /// would take over [`PROOF_OUT_OF_REACH_FACTOR`] times the time left.
    #[error(
        "a proof is out of reach: {plan} proved at least {bound} moves on a {dimension}x{dimension} board, and \
         its remaining iterations would take {}, with {} left; {}",
        roughly(*forecast), roughly(*time_left), stronger_methods(*dimension, *plan, &LIBRARY_WORDS)
    )]
    ProofOutOfReach {
        /// The bound proven.
        bound: u32,
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
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// A bug: the search produced a path that does not check out.
    #[error("internal error: {0}")]
    Internal(String),
}

impl SearchError {
    /// This error's message with its suggestions in `words`: an interface that names the
    /// request's options its own way (the service's wire names) says it in its own words.
    pub fn message_in(&self, words: &Words) -> String {
        let message = self.to_string();
        match *self {
            SearchError::NodeBudgetExhausted { dimension, plan, .. }
            | SearchError::MemoryBudgetExhausted { dimension, plan, .. }
            | SearchError::TimeLimitExceeded { dimension, plan, .. }
            | SearchError::ProofOutOfReach { dimension, plan, .. } => message
                .replace(&stronger_methods(dimension, plan, &LIBRARY_WORDS), &stronger_methods(dimension, plan, words)),
            _ => message,
        }
    }
}

/// How far over the time left IDA*'s forecast must be before MINIMUM gives up: far enough that
/// no board it would have solved in time is lost to a forecast's error.
pub const PROOF_OUT_OF_REACH_FACTOR: u32 = 100;

/// `duration` as a person says a forecast: "about 3 s", "about 2 h", "years".
pub fn roughly(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    let (value, unit) = match seconds {
        s if s < 60.0 => (s.max(1.0), "s"),
        s if s < 3600.0 => (s / 60.0, "min"),
        s if s < 86_400.0 => (s / 3600.0, "h"),
        s if s < 365.0 * 86_400.0 => (s / 86_400.0, "days"),
        _ => return "years".into(),
    };
    format!("about {value:.0} {unit}")
}
