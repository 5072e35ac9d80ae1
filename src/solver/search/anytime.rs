//! ANYTIME answers: a FAST solution at once, then a proof search that either finishes (and its
//! path is optimal) or is stopped at the answer time, when the best path in hand is returned
//! with the best lower bound proven so far.
//!
//! The proof side is IDA* with the strongest heuristic loaded for the board's size (pattern
//! databases for 4×4 and 5×5, else linear conflict): each iteration it completes proves the
//! next threshold, which the meter records. Boards of 6×6 and larger, which no optimal search
//! reaches, keep FAST's path and the root's bound. Running out of time or nodes after the first
//! solution is not an error here; the stop flag (the caller's cancel) still is.

use crate::board::Board;
use crate::solver::pdb::PatternDatabases;
use crate::solver::search::{Found, Weight, constructive, eight, idastar};
use crate::solver::{Heuristic, Meter, SearchError};

/// The largest side whose proof search can finish: IDA* with 5×5 pattern databases.
pub const MAX_PROOF_DIMENSION: usize = 5;

/// The shortest path from `board` (solvable) found before `meter`'s clock ends it, with what
/// was proven; every shorter path found on the way is handed to [`Meter::improved`].
pub fn solve(
    board: &Board,
    four: Option<&PatternDatabases>,
    five: Option<&PatternDatabases>,
    meter: &mut Meter<'_>,
) -> Result<Found, SearchError> {
    let n = board.dimension();
    if n == eight::DIMENSION {
        return eight::solve(board);
    }
    let first = constructive::solve(board, four, five, meter)?;
    meter.improved(board, &first)?;
    if n > MAX_PROOF_DIMENSION || first.lower_bound as usize >= first.path.len() {
        return Ok(first);
    }
    let databases = [four, five].into_iter().flatten().find(|databases| databases.dimension() == n);
    let heuristic = if databases.is_some() { Heuristic::PatternDatabase } else { Heuristic::LinearConflict };
    match idastar::search(board, heuristic, databases, Weight::ONE, meter) {
        Ok(optimal) => Ok(optimal),
        Err(SearchError::DeadlineExceeded { .. } | SearchError::TimeLimitExceeded { .. })
        | Err(SearchError::NodeBudgetExhausted { .. }) => {
            let lower_bound = first.lower_bound.max(meter.proven()).min(first.path.len() as u32);
            Ok(Found { path: first.path, lower_bound })
        }
        Err(error) => Err(error),
    }
}
