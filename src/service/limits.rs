//! The service's own limits: how many searches run at once and how far each may go. The server
//! (and any program embedding the service) fills one in; the service reads nothing else.

use std::time::Duration;

use crate::board::DEFAULT_MAX_DIMENSION;
use crate::solver::{DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_SEARCH_TIME};

/// The default of [`Limits::progress_interval`].
pub const DEFAULT_PROGRESS_INTERVAL: Duration = Duration::from_millis(200);
/// The default of [`Limits::queue_timeout`].
pub const DEFAULT_QUEUE_TIMEOUT: Duration = Duration::from_secs(2);

/// What the service lets one request, and all of them together, use.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Searches that may run at once, one blocking thread each (at least 1).
    pub max_concurrent_solves: usize,
    /// The server's node cap: a request asking for more (or for 0) gets this. `None` (the
    /// default): only the request's own `max_expanded_nodes` counts, since memory and time
    /// already protect the server.
    pub max_expanded_nodes: Option<u64>,
    /// The bytes one search may hold (A*'s nodes; IDA* holds only its path).
    pub max_search_memory: u64,
    /// How long one search may run, whatever the caller's deadline.
    pub max_search_time: Duration,
    /// The largest N a request may send.
    pub max_dimension: usize,
    /// Time between two Progress messages of a stream whose request leaves it at 0.
    pub progress_interval: Duration,
    /// How long a request waits for a free search slot before RESOURCE_EXHAUSTED.
    pub queue_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_concurrent_solves: std::thread::available_parallelism().map_or(1, usize::from),
            max_expanded_nodes: None,
            max_search_memory: DEFAULT_MAX_MEMORY_BYTES,
            max_search_time: DEFAULT_MAX_SEARCH_TIME,
            max_dimension: DEFAULT_MAX_DIMENSION,
            progress_interval: DEFAULT_PROGRESS_INTERVAL,
            queue_timeout: DEFAULT_QUEUE_TIMEOUT,
        }
    }
}

impl Limits {
    /// The node budget for a request asking for `requested` nodes (0 for no limit of its own):
    /// the smaller of that and the server's cap.
    pub fn node_budget(&self, requested: u64) -> u64 {
        let requested = if requested == 0 { u64::MAX } else { requested };
        self.max_expanded_nodes.map_or(requested, |cap| requested.min(cap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_gets_the_smaller_of_its_budget_and_the_cap() {
        let uncapped = Limits::default();
        assert_eq!(uncapped.node_budget(0), u64::MAX);
        assert_eq!(uncapped.node_budget(500), 500);
        let capped = Limits { max_expanded_nodes: Some(1000), ..Limits::default() };
        assert_eq!(capped.node_budget(0), 1000);
        assert_eq!(capped.node_budget(500), 500);
        assert_eq!(capped.node_budget(5000), 1000);
    }
}
