//! [`warm_up`]: what a long-running program builds once, at start, so that no search waits for
//! it: IDA*'s move-pruning machines. Every program calls this one function: the server on a
//! thread of its own, the benchmark before it times anything, the fuzzer before its first input.

use super::search::idastar;

/// Builds the move-pruning machines of the board sizes IDA* searches deepest (4×4, and 5×5's
/// quick one: about half a second on two cores), then, at idle priority, 5×5's deeper one
/// (about 3 s), and logs when that one is ready; returns its states. Call it on a thread of its
/// own, which it leaves at idle priority. Without it, searches build the quick machines on
/// first use and the deeper one before a long iteration.
pub fn warm_up() -> usize {
    idastar::build_move_pruning()
}
