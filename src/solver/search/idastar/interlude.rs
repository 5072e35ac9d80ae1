//! Work a caller of IDA* runs between two iterations, on the search's own thread.
//!
//! Between iterations IDA* holds nothing but its bound, so this is where other work on the same
//! board can take its turn without a second thread: MINIMUM's beams look there for a path as
//! long as the threshold after the next one, so that the last iteration, the most expensive, need
//! not run (see `anytime::ahead`). Before what may be the last iteration they first let it run
//! a few nodes as a probe, and take their turn only if it ends nothing.

use crate::solver::{Meter, SearchError};

/// Work run before an IDA* iteration.
pub trait Interlude {
    /// Called before the iteration that proves `bound` (its threshold, when unweighted: every
    /// lower one has failed, so no path is shorter), forecast to expand about `nodes` nodes,
    /// from the third iteration on. It may lower [`Meter::best_moves`] to the length of a path
    /// it holds: with [`Meter::settle_on_best`], the search then stops with
    /// [`SearchError::BoundReached`] as soon as its
    /// bound reaches that length, and the holder answers with the path. `Some(probe)` asks for
    /// the iteration to run first within `probe` nodes: if it neither ends nor fails within
    /// them, [`Interlude::after_probe`] runs, and then the iteration runs again from its start.
    /// An error ends the search with it.
    fn before_iteration(&mut self, bound: u32, nodes: u64, meter: &mut Meter<'_>) -> Result<Option<u64>, SearchError>;

    /// Called when the probe that [`Interlude::before_iteration`] asked for ended without an
    /// answer, before the iteration at `bound` runs in full; as that one, it may lower
    /// [`Meter::best_moves`].
    fn after_probe(&mut self, _bound: u32, _meter: &mut Meter<'_>) -> Result<(), SearchError> {
        Ok(())
    }
}

/// No work between iterations.
impl Interlude for () {
    fn before_iteration(
        &mut self,
        _bound: u32,
        _nodes: u64,
        _meter: &mut Meter<'_>,
    ) -> Result<Option<u64>, SearchError> {
        Ok(None)
    }
}
