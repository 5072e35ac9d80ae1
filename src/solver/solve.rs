//! [`Solver::solve`], the dispatcher: the plan's method, run under the request's budgets, its
//! path checked into a [`Solution`]. Every method lives in `search`; this file only reads the
//! table from method to search.

use std::time::{Duration, Instant};

use super::error::SearchError;
use super::meter::Meter;
use super::method::Method;
use super::options::Options;
use super::progress::{Progress, Stop};
use super::runtime::Solver;
use super::search::{PathWithBound, Weight, anytime, astar, constructive, distance_table, idastar, minimum};
use super::solution::Solution;
use crate::board::Board;

/// The most an ANYTIME answer is kept back before the caller's deadline: time to stop the
/// search, check the path and send it.
pub const ANSWER_MARGIN: Duration = Duration::from_millis(500);

impl Solver {
    /// Solves `board` as `options.optimality` asks (optimally by default), or finds it
    /// unsolvable (moves = -1, no boards, no search).
    ///
    /// `progress` is called every few thousand nodes with a
    /// [`ProgressReport`](super::ProgressReport); the search stops with an error when `stop` is
    /// raised, the caller's deadline or the time limit in `options` passes, or the node or
    /// memory budget is spent. A* gives all its memory back when it returns.
    pub fn solve(
        &self,
        board: &Board,
        options: &Options,
        progress: &mut dyn Progress,
        stop: &Stop,
    ) -> Result<Solution, SearchError> {
        let plan = self.plan(board.dimension(), options)?;
        if !board.is_solvable() {
            return Ok(Solution::unsolvable(board));
        }
        let anytime;
        let options = match plan.method {
            Method::Anytime => {
                anytime = Options { deadline: answer_time(options), max_search_time: None, ..options.clone() };
                &anytime
            }
            _ => options,
        };
        let mut meter =
            Meter::new(options, plan, board.dimension(), progress, stop).with_helpers(self.helpers().clone());
        let (four, five) = (self.pattern_databases_for(4), self.pattern_databases_for(5));
        let own = self.pattern_databases_for(board.dimension());
        let found = match plan.method {
            Method::DistanceTable => distance_table::solve(board)?,
            Method::AStar => PathWithBound::optimal(astar::search(board, plan.heuristic, &mut meter)?),
            Method::IdaStar => idastar::search(board, plan.heuristic, own, Weight::ONE, &mut meter)?,
            Method::WeightedIdaStar => {
                let weight = Weight::new(options.weight.unwrap_or(1.0));
                idastar::search(board, plan.heuristic, own, weight, &mut meter)?
            }
            Method::Minimum => minimum::solve(board, plan.heuristic, own, five, &mut meter)?,
            Method::Fast => constructive::solve(board, four, five, &mut meter)?,
            Method::Anytime => anytime::solve(board, four, five, &mut meter)?,
        };
        let stats = meter.stats();
        Solution::from_path(board, found.path, found.lower_bound, stats)
    }
}

/// [`Solver::solve`] with no pattern databases and no helper threads.
///
/// ```
/// use npuzzle::solver::{NoProgress, Stop};
/// use npuzzle::{Options, solve, text};
///
/// let board = text::parse_board("3\n0 1 3\n4 2 5\n7 8 6\n")?;
/// let solution = solve(&board, &Options::default(), &mut NoProgress, &Stop::new())?;
/// assert_eq!((solution.moves(), solution.is_optimal()), (4, true));
/// assert!(text::format_solution(&solution).starts_with("Minimum number of moves = 4\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    board: &Board,
    options: &Options,
    progress: &mut dyn Progress,
    stop: &Stop,
) -> Result<Solution, SearchError> {
    Solver::new().solve(board, options, progress, stop)
}

/// When an ANYTIME search answers: at its time limit ([`Options::max_search_time`], from now),
/// or a margin before the caller's deadline if that comes first. The margin is a tenth of the
/// time left, at most [`ANSWER_MARGIN`].
fn answer_time(options: &Options) -> Option<Instant> {
    let now = Instant::now();
    let limit = options.max_search_time.and_then(|limit| now.checked_add(limit));
    let before_deadline = options.deadline.map(|deadline| {
        let left = deadline.saturating_duration_since(now);
        deadline - (left / 10).min(ANSWER_MARGIN)
    });
    [limit, before_deadline].into_iter().flatten().min()
}
