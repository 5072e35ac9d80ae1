//! [`Solver::hint`]: the next best move and the distance to the goal, for a person playing by
//! hand. The position is solved as MINIMUM would solve it; then each neighbour that the
//! solution did not start with is searched for a path one move shorter, so that `moves` holds
//! every first move of a shortest solution. Past the time limit, or past 5×5, the answer is
//! ANYTIME's: the best found, its first move, and the bound proven.

use std::time::{Duration, Instant};

use super::error::SearchError;
use super::options::{Optimality, Options};
use super::progress::{NoProgress, Stop};
use super::runtime::Solver;
use crate::board::{Board, Direction, Step};

/// How long a hint may take when its caller names no time: a person is waiting.
pub const DEFAULT_HINT_TIME: Duration = Duration::from_secs(5);

/// The hint for one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The fewest moves to the goal when [`Hint::optimal`], else the shortest found; `None`
    /// when the goal cannot be reached.
    pub distance: Option<u32>,
    /// First moves of solutions of `distance` moves: every one of them when optimal.
    pub moves: Vec<Step>,
    /// Whether `distance` is proven the fewest and `moves` holds every such first move.
    pub optimal: bool,
    /// Proven: the goal is at least this many moves away.
    pub lower_bound: u32,
}

impl Solver {
    /// The hint for `board`, within `time_limit` (and before `stop`): see the module's doc.
    pub fn hint(&self, board: &Board, time_limit: Duration, stop: &Stop) -> Result<Hint, SearchError> {
        if !board.is_solvable() {
            return Ok(Hint { distance: None, moves: Vec::new(), optimal: true, lower_bound: 0 });
        }
        let deadline = Instant::now() + time_limit;
        let minimum = Options { deadline: Some(deadline), max_search_time: None, ..Options::default() };
        let solution = match self.solve(board, &minimum, &mut NoProgress, stop) {
            Ok(solution) => solution,
            Err(SearchError::DeadlineExceeded { .. } | SearchError::ProofOutOfReach { .. }) => {
                return self.best_found(board, deadline, stop);
            }
            Err(error) => return Err(error),
        };
        let distance = solution.moves() as u32;
        let Some(&first) = solution.directions().first() else {
            return Ok(Hint { distance: Some(0), moves: Vec::new(), optimal: true, lower_bound: 0 });
        };
        let mut moves = Vec::new();
        let mut every_one_checked = true;
        for direction in Direction::ALL {
            let Some((next, step)) = board.slide(direction) else { continue };
            if direction == first {
                moves.push(step);
                continue;
            }
            // A neighbour is one move closer or one further (a path keeps its board's parity).
            match self.solve(&next, &minimum, &mut NoProgress, stop) {
                Ok(rest) if rest.moves() as u32 + 1 == distance => moves.push(step),
                Ok(_) => {}
                Err(SearchError::DeadlineExceeded { .. } | SearchError::ProofOutOfReach { .. }) => {
                    every_one_checked = false;
                }
                Err(error) => return Err(error),
            }
        }
        Ok(Hint { distance: Some(distance), moves, optimal: every_one_checked, lower_bound: distance })
    }

    /// ANYTIME's best path by `deadline`: its length, its first move and the bound proven.
    fn best_found(&self, board: &Board, deadline: Instant, stop: &Stop) -> Result<Hint, SearchError> {
        let anytime = Options {
            optimality: Optimality::Anytime,
            deadline: Some(deadline.max(Instant::now() + MIN_ANYTIME)),
            max_search_time: None,
            ..Options::default()
        };
        let solution = self.solve(board, &anytime, &mut NoProgress, stop)?;
        let moves = solution.steps().and_then(|steps| steps.first().copied()).into_iter().collect();
        Ok(Hint { distance: Some(solution.moves() as u32), moves, optimal: false, lower_bound: solution.lower_bound() })
    }
}

/// The least time ANYTIME is given once MINIMUM ran out: FAST's path and a first improvement.
const MIN_ANYTIME: Duration = Duration::from_millis(200);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::search::samples::sample;

    #[test]
    fn every_first_move_of_a_shortest_solution_is_a_hint() {
        // Two moves from the goal with the blank in the middle: 1 2 3 / 4 0 5 / 7 8 6 is two
        // moves away (5 left, 6 up), and only sliding 5 starts a shortest solution.
        let board = Board::new(3, &[1, 2, 3, 4, 0, 5, 7, 8, 6]).expect("a board");
        let hint = Solver::new().hint(&board, DEFAULT_HINT_TIME, &Stop::new()).expect("a hint");
        assert_eq!((hint.distance, hint.optimal, hint.lower_bound), (Some(2), true, 2));
        assert_eq!(hint.moves, vec![Step { tile: 5, direction: Direction::Left }]);
        // A position whose two first moves both start shortest solutions: the hint gives both.
        let board = Board::new(2, &[0, 1, 3, 2]).expect("a board");
        let hint = Solver::new().hint(&board, DEFAULT_HINT_TIME, &Stop::new()).expect("a hint");
        let distance = hint.distance.expect("solvable");
        for step in &hint.moves {
            let direction = step.direction;
            let (next, _) = board.slide(direction).expect("a legal move");
            let rest = crate::solver::solve(&next, &Options::default(), &mut NoProgress, &Stop::new()).expect("solves");
            assert_eq!(rest.moves() as u32 + 1, distance, "{step} does not start a shortest solution");
        }
    }

    #[test]
    fn the_goal_and_an_unsolvable_board_have_no_move() {
        let goal = Board::goal(4).expect("the goal");
        let hint = Solver::new().hint(&goal, DEFAULT_HINT_TIME, &Stop::new()).expect("a hint");
        assert_eq!((hint.distance, hint.moves.len(), hint.optimal), (Some(0), 0, true));
        let twin = Board::goal(3).expect("the goal").twin();
        let hint = Solver::new().hint(&twin, DEFAULT_HINT_TIME, &Stop::new()).expect("a hint");
        assert_eq!((hint.distance, hint.moves.len()), (None, 0));
    }

    #[test]
    fn a_hint_past_its_time_is_the_best_found_and_says_so() {
        let board = sample("5x5-48.txt");
        let hint = Solver::new().hint(&board, Duration::from_millis(50), &Stop::new()).expect("a hint");
        let distance = hint.distance.expect("solvable");
        assert!(!hint.optimal && hint.lower_bound <= distance && hint.moves.len() == 1, "{hint:?}");
    }
}
