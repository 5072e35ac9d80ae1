//! The limits a search runs under, and `Meter`: the accounting every search shares. It counts nodes, enforces the node budget, and
//! every few thousand nodes polls the stop flag and the deadline and hands a progress report
//! out, so the hot loops pay one increment and one compare per node.

use std::time::Instant;

use super::{Options, Plan, Progress, ProgressReport, SearchError, SearchStats, Stop};

/// Expanded nodes between two polls of the stop flag, the clock and the progress callback.
/// About a millisecond of work for the fastest search, so a stop is seen well within 100 ms.
pub const CHECK_INTERVAL: u64 = 4096;

/// Node counts, limits and the progress channel of one running search.
pub struct Meter<'a> {
    started: Instant,
    deadline: Option<Instant>,
    max_expanded: u64,
    next_check: u64,
    progress: &'a mut dyn Progress,
    stop: &'a Stop,
    /// Nodes expanded so far.
    pub expanded: u64,
    /// Nodes generated so far.
    pub generated: u64,
    /// The largest frontier (A*) or deepest path (IDA*) seen so far.
    pub max_frontier: u64,
}

impl<'a> Meter<'a> {
    /// A meter for a search starting now under `options`.
    pub fn new(options: &Options, progress: &'a mut dyn Progress, stop: &'a Stop) -> Meter<'a> {
        Meter {
            started: Instant::now(),
            deadline: options.deadline,
            max_expanded: options.max_expanded_nodes,
            next_check: 0,
            progress,
            stop,
            expanded: 0,
            generated: 0,
            max_frontier: 0,
        }
    }

    /// Counts one expanded node. Every [`CHECK_INTERVAL`] nodes (and on the first) it checks the
    /// stop flag and the deadline and reports progress with `priority` and the frontier size
    /// that `frontier` gives; the closure runs only then.
    #[inline]
    pub fn expand(&mut self, priority: u32, frontier: impl FnOnce() -> u64) -> Result<(), SearchError> {
        if self.expanded >= self.max_expanded {
            return Err(SearchError::NodeBudgetExhausted { limit: self.max_expanded, expanded: self.expanded });
        }
        if self.expanded >= self.next_check {
            self.checkpoint(priority, frontier())?;
        }
        self.expanded += 1;
        Ok(())
    }

    /// Polls the stop flag and the deadline, and reports progress.
    #[cold]
    pub fn checkpoint(&mut self, priority: u32, frontier: u64) -> Result<(), SearchError> {
        self.next_check = self.expanded + CHECK_INTERVAL;
        self.max_frontier = self.max_frontier.max(frontier);
        if self.stop.is_stopped() {
            return Err(SearchError::Cancelled { expanded: self.expanded });
        }
        if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Err(SearchError::DeadlineExceeded { elapsed: self.started.elapsed(), expanded: self.expanded });
        }
        self.progress.report(&ProgressReport {
            nodes_expanded: self.expanded,
            nodes_generated: self.generated,
            priority,
            frontier_size: frontier,
            elapsed: self.started.elapsed(),
        });
        Ok(())
    }

    /// The final figures, for the [`Plan`] that ran.
    pub fn stats(&self, plan: Plan) -> SearchStats {
        SearchStats {
            algorithm: plan.algorithm,
            heuristic: plan.heuristic,
            nodes_expanded: self.expanded,
            nodes_generated: self.generated,
            max_frontier: self.max_frontier,
            elapsed: self.started.elapsed(),
        }
    }
}
