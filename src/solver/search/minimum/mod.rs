//! MINIMUM from 5×5 up: a FAST path first, whose length every progress report then carries as
//! the best known, then IDA* with that path as its [`Incumbent`]: it stops once its bound
//! reaches the incumbent's length, which is then proven shortest and is the answer, and skips
//! the iteration under that proof.
//!
//! Between IDA*'s iterations, once they grow long, one wider beam ([`wider_beam`]) looks for a
//! shorter path than FAST's, so that IDA* can skip the iteration under its proof sooner.

pub mod wider_beam;

use crate::board::Board;
use crate::solver::error::SearchError;
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;
use crate::solver::meter::Meter;
use crate::solver::options::Heuristic;
use crate::solver::pdb::PatternDatabases;
use crate::solver::search::idastar::{self, Incumbent, Proof};
use crate::solver::search::{PathWithBound, Weight, constructive};
use wider_beam::WiderBeam;

/// A shortest path from `board` (solvable, 5×5 or larger): FAST's path (with the 5×5 tables
/// `five`, when loaded) in hand, then IDA* with `heuristic` (and `databases` for the board's
/// size) until it proves that path or finds a shorter one.
pub fn solve(
    board: &Board,
    heuristic: Heuristic,
    databases: Option<&PatternDatabases>,
    five: Option<&PatternDatabases>,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    let estimator = LinearConflict::new(board.dimension());
    // FAST searches boards other than the root: what is proven of the root stands meanwhile.
    meter.hold_bound(Some(estimator.value(&estimator.start(board.tiles()))));
    let first = constructive::solve(board, None, five, meter);
    meter.hold_bound(None);
    let first = first?;
    meter.report_best(first.path.len() as u32);
    if first.lower_bound >= first.path.len() as u32 {
        return Ok(PathWithBound::optimal(first.path));
    }
    let mut incumbent = Incumbent::new(first.path).giving_up_out_of_reach();
    let mut wider = WiderBeam::new(board, five);
    match idastar::prove(board, heuristic, databases, Weight::ONE, &mut incumbent, &mut wider, meter)? {
        Proof::Found(found) => Ok(found),
        Proof::Settled => Ok(PathWithBound::optimal(incumbent.into_path())),
        Proof::OutOfReach { bound } => {
            Err(SearchError::Internal(format!("MINIMUM's IDA* forecast nothing, yet stopped at bound {bound}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Options};
    use crate::solver::progress::Stop;
    use crate::solver::search::samples::{reaches_goal, sample};

    #[test]
    fn the_fast_path_in_hand_is_proven_or_bettered() {
        let board = sample("5x5-38.txt");
        let plan =
            Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::LinearConflict, method: Method::Minimum };
        let (options, stop) = (Options::default(), Stop::new());
        let mut best_known = Vec::new();
        let mut progress = |report: &crate::solver::progress::ProgressReport| best_known.push(report.best_moves);
        let mut meter = Meter::new(&options, plan, 5, &mut progress, &stop);
        let found = solve(&board, Heuristic::LinearConflict, None, None, &mut meter).expect("solves");
        assert_eq!((found.path.len(), found.lower_bound), (38, 38));
        assert!(reaches_goal(&board, &found.path));
        // Reports carry FAST's length (38 or more) as the best known from then on.
        meter.checkpoint(38, 0).expect("no limit reached");
        drop(meter);
        assert_eq!(best_known.first(), Some(&0), "nothing in hand at the start");
        assert!(best_known.last().is_some_and(|&best| best >= 38), "{best_known:?}");
    }
}
