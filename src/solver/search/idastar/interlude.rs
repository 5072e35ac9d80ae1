//! Work a caller of IDA* runs between two iterations, on the search's own thread.
//!
//! Between iterations IDA* holds nothing but its bound, so this is where other work on the same
//! board can take its turn without a second thread: MINIMUM's wider beam looks there for a
//! shorter path than the one in hand, early enough for IDA* to skip the iteration under the
//! proof (see [`Meter::skip_to`] and `anytime::wider`).

use crate::solver::{Meter, SearchError};

/// Work run before an IDA* iteration.
pub trait Interlude {
    /// Called before the iteration at `bound` (every lower threshold has failed, so no path is
    /// shorter; the iteration may still skip ahead, see [`Meter::skip_to`]) when the iteration
    /// before it expanded `nodes` nodes. It may lower
    /// [`Meter::best_moves`] to the length of a path it holds: with [`Meter::settle_on_best`],
    /// the search then stops with [`SearchError::BoundReached`] once its bound reaches that
    /// length, and the holder answers with the path. An error ends the search with it.
    fn before_iteration(&mut self, bound: u32, nodes: u64, meter: &mut Meter<'_>) -> Result<(), SearchError>;
}

/// No work between iterations.
impl Interlude for () {
    fn before_iteration(&mut self, _bound: u32, _nodes: u64, _meter: &mut Meter<'_>) -> Result<(), SearchError> {
        Ok(())
    }
}
