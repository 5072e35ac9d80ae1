//! How a running search talks to its caller: [`Progress`] reports (and ANYTIME's improved
//! solutions) out, the [`Stop`] flag in.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[cfg(doc)]
use super::options::Optimality;
use super::solution::Solution;

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
    /// How long IDA*'s remaining iterations are forecast to take, once it has
    /// measured two; `None` while there is no forecast.
    pub proof_forecast: Option<Duration>,
    /// Replicas of a cluster that ran pieces of the search's latest iteration handed to them (the
    /// coordinator's own included); 0 while the search has run on this process alone.
    pub replicas: u32,
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
