//! IDA* (Korf 1985): depth-first searches bounded by f = g + h, each bound the least f that
//! exceeded the last one, so memory is linear in the depth and the first path found is a
//! shortest one when the heuristic is admissible.
//!
//! Weighted, f = g + w·h: every node of a shortest path (length C) then has f <= w·C, so the
//! first path found is at most w·C long, and a bound that failed proves C > bound / w. f is
//! kept in thousandths of a move (see [`Weight`]); with w = 1 the search is plain IDA*.
//!
//! [`search`] runs alone until it finds a path. [`prove`] runs with a path in hand, an
//! [`Incumbent`] (MINIMUM's FAST path, ANYTIME's best), and an [`Interlude`] between
//! iterations; it answers with a [`Proof`].
//!
//! - `dfs`: the depth-first search of one iteration, with the fast inner loop.
//! - `move_pruning`: the machine that keeps it off move sequences with a shorter (or earlier)
//!   equivalent.
//! - `split`: a big iteration spread over the search's [`Helpers`], the cores it may borrow.
//! - `remote`: a longer one handed to the [`Farm`](crate::solver::Farm) the helpers carry, a
//!   cluster's replicas; `piece`: a worker's search of one of its pieces.
//! - `incumbent`: the path in hand and the policy for proving it.

mod dfs;
mod incumbent;
mod move_pruning;
mod piece;
mod remote;
mod split;

pub use incumbent::{Incumbent, Interlude, Proof};
pub use piece::run_piece;

use dfs::{Outcome, Position, ROOT, START, SubtreeRoot, Threshold};
use move_pruning::PruningMachine;
use remote::FarmPlan;

use crate::board::{Board, Direction};
use crate::solver::background;
use crate::solver::error::SearchError;
use crate::solver::helper_threads::{Helpers, Lease};
use crate::solver::heuristic::Estimator;
use crate::solver::meter::Meter;
use crate::solver::options::Heuristic;
use crate::solver::pdb::{PatternDatabases, cache};
use crate::solver::search::{PathWithBound, Weight};

/// Builds the move-pruning machines of the board sizes IDA* searches deepest, then, at idle
/// priority, 5×5's deeper one, logging when it is ready; its states (see
/// [`crate::solver::warm_up`]).
pub(crate) fn build_move_pruning() -> usize {
    for dimension in [4, 5] {
        PruningMachine::for_dimension(dimension);
    }
    background::yield_to_searches();
    let started = std::time::Instant::now();
    let machine = PruningMachine::deepest(5, move_pruning::every_core(), &|| false);
    if let Some(machine) = machine {
        tracing::info!(states = machine.states(), took = ?started.elapsed(), "5x5 deeper duplicate-pruning machine ready");
    }
    machine.map_or(0, PruningMachine::states)
}

/// Before an iteration that follows one of this many nodes, a search builds the deeper
/// move-pruning machine if it has none (see [`deepen`]): the next iteration is then forecast
/// to take tens of seconds, against the build's three.
const DEEPER_AFTER: u64 = 30_000_000;

/// An iteration that follows one of at least this many expanded nodes is split across the
/// search's helpers: tens of milliseconds of work, against a split's set-up of about a
/// thousand nodes and a thread start per helper.
pub const SPLIT_AFTER: u64 = 1 << 16;

/// The least growth from one iteration to the next that a forecast assumes: the ratio of the
/// last two iterations' nodes, but never less, since one iteration is rarely under twice the
/// one before on the boards the proof runs on.
const MIN_GROWTH: f64 = 2.0;

/// Evaluates `$body` with `$estimator` bound to a reference to the estimator that `$heuristic`
/// names for boards of side `$n` (`Auto`: linear conflict), the pattern databases' from
/// `$databases` (an `Option<&PatternDatabases>`); without tables of that side, the body is not
/// run and the value is [`SearchError::Unsupported`]. The body's value is a `Result` whose error
/// is a [`SearchError`].
macro_rules! with_estimator {
    ($n:expr, $heuristic:expr, $databases:expr, $estimator:ident => $body:expr) => {{
        use $crate::solver::heuristic::linear_conflict::LinearConflict;
        use $crate::solver::heuristic::manhattan::{Hamming, Manhattan};
        use $crate::solver::options::{Algorithm, Heuristic};
        let (n, heuristic): (usize, Heuristic) = ($n, $heuristic);
        match heuristic {
            Heuristic::Hamming => {
                let $estimator = &Hamming;
                $body
            }
            Heuristic::Manhattan => {
                let $estimator = &Manhattan::new(n);
                $body
            }
            Heuristic::LinearConflict | Heuristic::Auto => {
                let $estimator = &LinearConflict::new(n);
                $body
            }
            Heuristic::PatternDatabase => match $databases {
                Some(databases) if n == databases.dimension() => {
                    $crate::solver::pdb::with_heuristic!(databases, table => {
                        let $estimator = &table;
                        $body
                    })
                }
                _ => Err($crate::solver::error::SearchError::Unsupported {
                    algorithm: Algorithm::IdaStar,
                    heuristic,
                    dimension: n,
                    reason: "pattern databases for this board size must be loaded first \
                             (PatternDatabases::load_or_build_partition)"
                        .into(),
                }),
            },
        }
    }};
}
use with_estimator;

/// Runs IDA* from `board` (which must be solvable) with `heuristic` (never `Auto`) and
/// `weight`, and returns a path to the goal at most `weight` times the shortest, with the lower
/// bound the search proved. The pattern-database heuristic needs `databases` for the board's
/// dimension.
pub fn search(
    board: &Board,
    heuristic: Heuristic,
    databases: Option<&PatternDatabases>,
    weight: Weight,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    match prove(board, heuristic, databases, weight, &mut Incumbent::default(), &mut (), meter)? {
        Proof::Found(found) => Ok(found),
        other => Err(SearchError::Internal(format!("IDA* with no path in hand ended with {other:?}"))),
    }
}

/// IDA* as [`search`] runs it, with `incumbent` in hand: it stops once its bound reaches the
/// incumbent's length ([`Proof::Settled`]), skips the iteration under the proof, gives up before
/// an iteration out of reach when the incumbent forecasts ([`Proof::OutOfReach`]), and starts at
/// the incumbent's known bound. `interlude` runs before each iteration from the second on, and
/// may shorten the incumbent.
pub fn prove(
    board: &Board,
    heuristic: Heuristic,
    databases: Option<&PatternDatabases>,
    weight: Weight,
    incumbent: &mut Incumbent,
    interlude: &mut dyn Interlude,
    meter: &mut Meter<'_>,
) -> Result<Proof, SearchError> {
    let farm = meter.helpers().farm().map(|farm| FarmPlan {
        farm: farm.clone(),
        heuristic: if heuristic == Heuristic::Auto { Heuristic::LinearConflict } else { heuristic },
        tables: match (heuristic, databases) {
            (Heuristic::PatternDatabase, Some(databases)) => cache::file_name(databases.partition()),
            _ => String::new(),
        },
    });
    let driver = Driver { incumbent, interlude, split_after: SPLIT_AFTER, deeper_after: DEEPER_AFTER, farm };
    with_estimator!(board.dimension(), heuristic, databases, estimator => run(board, estimator, weight, driver, meter))
}

/// What steers one run of IDA* besides its board and heuristic: the incumbent, the interlude,
/// after how many nodes an iteration is split and the deeper machine built, and the farm its
/// longest iterations may go to.
struct Driver<'d> {
    incumbent: &'d mut Incumbent,
    interlude: &'d mut dyn Interlude,
    split_after: u64,
    deeper_after: u64,
    farm: Option<FarmPlan>,
}

/// Moves `position` to the deepest move-pruning machine between two iterations, built on the
/// search's thread and the cores its `helpers` lend (or waited for while another thread builds
/// it); the stop flag and the clock end the build, and the search with them.
fn deepen(position: &mut Position, helpers: &Helpers, proven: u32, meter: &mut Meter<'_>) -> Result<(), SearchError> {
    let leases: Vec<Lease> = std::iter::from_fn(|| helpers.lend()).take(helpers.threads()).collect();
    let interrupt = meter.interrupt();
    position.deepen(1 + leases.len(), &|| interrupt.is_raised());
    meter.checkpoint(proven, 0)
}

/// IDA* with f = g + weight·h, run by [`prove`] with each estimator. Each turn of the loop:
///
/// 1. stops if the bound proven reaches the incumbent ([`Proof::Settled`]);
/// 2. from the second iteration, runs the interlude, and checks the incumbent again;
/// 3. after a long iteration, moves to the deeper move-pruning machine;
/// 4. picks the threshold: the bound proven, or two under the incumbent when that skips one;
/// 5. reports the forecast of the iterations left, fails when MINIMUM's is far out of reach,
///    and gives up if a forecast says the iteration would not finish ([`Proof::OutOfReach`]);
/// 6. runs the iteration, split over the helpers once iterations grow long;
/// 7. returns a path found, or keeps one found ahead of the bound proven until the iterations
///    under it prove or better it, or raises the bound to the least f cut.
fn run<E>(
    board: &Board,
    estimator: &E,
    weight: Weight,
    driver: Driver<'_>,
    meter: &mut Meter<'_>,
) -> Result<Proof, SearchError>
where
    E: Estimator + Sync,
    E::Memo: Send + Sync,
{
    let Driver { incumbent, interlude, split_after, deeper_after, farm } = driver;
    let mut position = Position::new(board);
    if position.is_goal() {
        return Ok(Proof::Found(PathWithBound::optimal(Vec::new())));
    }
    let memo = estimator.start(position.tiles());
    let mut proven = estimator.value(&memo).max(incumbent.known());
    let mut bound = weight.f(0, proven);
    let mut stack = Vec::new();
    let mut history = split::History::default();
    let mut last_iteration = 0;
    let mut iteration_before = 0;
    let helpers: Helpers = meter.helpers().clone();
    // A path found by an iteration that skipped ahead, longer than the bound proven, while the
    // iteration at that bound runs.
    let mut ahead_path: Option<Vec<u8>> = None;
    loop {
        if incumbent.settled(proven) {
            return Ok(Proof::Settled);
        }
        meter.expand(proven, || 0)?;
        if last_iteration > 0 && ahead_path.is_none() {
            interlude.before_iteration(proven, last_iteration, incumbent, meter)?;
            if incumbent.settled(proven) {
                return Ok(Proof::Settled);
            }
        }
        if last_iteration >= deeper_after && position.can_deepen() {
            deepen(&mut position, &helpers, proven, meter)?;
        }
        let threshold = if weight == Weight::ONE && ahead_path.is_none() { incumbent.skip_to(proven) } else { proven };
        let growth = match iteration_before {
            0 => MIN_GROWTH,
            before => (last_iteration as f64 / before as f64).max(MIN_GROWTH),
        };
        // The proof's forecast takes the least growth any iteration has, and before the first
        // iteration a node: an early iteration's growth says little about the last ones', and a
        // proof hundreds of iterations away is hopeless at any growth.
        let forecast = incumbent.forecast(proven, last_iteration.max(1), MIN_GROWTH, meter);
        meter.report_forecast(forecast);
        if let Some(forecast) = forecast
            && let Some(left) = incumbent.out_of_reach(forecast, meter)
        {
            return Err(meter.proof_out_of_reach(proven, forecast, left));
        }
        if iteration_before > 0 && !incumbent.iteration_in_reach(proven, (last_iteration as f64 * growth) as u64, meter)
        {
            return Ok(Proof::OutOfReach { bound: proven });
        }
        let f = if threshold > proven { weight.f(0, threshold) } else { bound };
        let limits = Threshold { f, weight, proven };
        let before = meter.expanded;
        // Split with no helper too: the pieces are then searched nearest the goal first. The
        // longest iterations go to the farm, when there is one with other workers up, and stay
        // here if it cannot take them.
        // Forecast from the last iteration, once more for each iteration the threshold skips.
        let skipped = threshold.saturating_sub(proven) / 2;
        let expected = (last_iteration as f64 * growth.powi(1 + skipped as i32)) as u64;
        let farmed = match &farm {
            Some(farm) if farm.takes(expected) => {
                let iteration = split::Iteration { root: &position, estimator, memo, bound: limits };
                remote::iterate(farm, &iteration, expected, &mut history, meter)?
            }
            _ => None,
        };
        let outcome = if let Some(outcome) = farmed {
            outcome
        } else if last_iteration >= split_after {
            split::iterate(&position, estimator, memo, limits, &helpers, &mut history, meter)?
        } else {
            let root = SubtreeRoot { memo, g: 0, last: ROOT, state: START };
            dfs::bounded(&mut position, estimator, root, limits, meter, &mut stack)?
        };
        let found = match outcome {
            // Skipped ahead and found a path longer than the bound proven: the iteration at that
            // bound runs next, and either finds a shorter path or proves this one.
            Outcome::Found(moves) if threshold > proven && moves.len() as u32 > proven => {
                ahead_path = Some(moves);
                // The search left the position at the goal.
                position = Position::new(board);
                None
            }
            Outcome::Found(moves) => Some(moves),
            Outcome::Cut { f: u64::MAX, .. } => {
                return Err(SearchError::Internal("IDA* exhausted the space of a solvable board".into()));
            }
            Outcome::Cut { f: cut, .. } => {
                proven = proven.max(weight.proven_by_cut(cut));
                bound = cut;
                // No path under the new bound: a path found ahead that long is shortest (on a
                // sliding-tile board, the first cut after it proves it: paths share a parity).
                ahead_path.take_if(|moves| moves.len() as u32 <= proven)
            }
        };
        if let Some(moves) = found {
            let path: Vec<Direction> = moves.iter().map(|&index| Direction::ALL[usize::from(index)]).collect();
            let lower_bound = proven.max(weight.proven_by(path.len()));
            return Ok(Proof::Found(PathWithBound { path, lower_bound }));
        }
        iteration_before = last_iteration;
        last_iteration = meter.expanded - before;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::heuristic::linear_conflict::LinearConflict;
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::Algorithm;
    use crate::solver::options::Options;
    use crate::solver::progress::{NoProgress, Stop};
    use crate::solver::search::samples::{reaches_goal, sample};
    use crate::solver::solve::solve;

    const PLAN: Plan =
        Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::LinearConflict, method: Method::IdaStar };

    /// A path of `moves` moves, for an incumbent whose length is all that is read.
    fn path_of(moves: u32) -> Vec<Direction> {
        vec![Direction::Up; moves as usize]
    }

    fn moves(n: usize, tiles: &[u16], heuristic: Heuristic) -> i32 {
        let board = Board::new(n, tiles).expect("valid board");
        let options = Options { algorithm: Algorithm::IdaStar, heuristic, ..Options::default() };
        solve(&board, &options, &mut NoProgress, &Stop::new()).expect("solves").moves()
    }

    #[test]
    fn hardest_eight_puzzle_takes_thirty_one_with_every_heuristic() {
        let tiles = [8, 6, 7, 2, 5, 4, 3, 0, 1];
        for heuristic in [Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::Hamming] {
            assert_eq!(moves(3, &tiles, heuristic), 31, "{heuristic}");
        }
    }

    #[test]
    fn the_goal_takes_no_moves() {
        assert_eq!(moves(4, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0], Heuristic::LinearConflict), 0);
    }

    #[test]
    fn pattern_databases_without_tables_are_refused() {
        let board = Board::goal(4).expect("valid board");
        let options =
            Options { algorithm: Algorithm::IdaStar, heuristic: Heuristic::PatternDatabase, ..Options::default() };
        let err = solve(&board, &options, &mut NoProgress, &Stop::new()).unwrap_err();
        assert_eq!(err, SearchError::PatternDatabasesNotLoaded);
    }

    #[test]
    fn the_node_budget_and_the_stop_flag_end_the_search() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        let options = Options { algorithm: Algorithm::IdaStar, max_expanded_nodes: 50, ..Options::default() };
        let err = solve(&board, &options, &mut NoProgress, &Stop::new()).unwrap_err();
        assert!(matches!(err, SearchError::NodeBudgetExhausted { limit: 50, expanded: 50, .. }), "{err}");
        let stop = Stop::new();
        stop.stop();
        let options = Options { algorithm: Algorithm::IdaStar, ..Options::default() };
        assert!(matches!(solve(&board, &options, &mut NoProgress, &stop), Err(SearchError::Cancelled { .. })));
    }

    /// Runs IDA* with linear conflict and `helpers`, splitting every iteration after the first.
    fn split_run(
        board: &Board,
        weight: Weight,
        helpers: Helpers,
        budget: u64,
        stop: &Stop,
    ) -> Result<PathWithBound, SearchError> {
        split_run_deepening_after(board, weight, helpers, budget, stop, u64::MAX)
    }

    /// [`split_run`], moving to the deeper duplicate machine after an iteration of
    /// `deeper_after` nodes.
    fn split_run_deepening_after(
        board: &Board,
        weight: Weight,
        helpers: Helpers,
        budget: u64,
        stop: &Stop,
        deeper_after: u64,
    ) -> Result<PathWithBound, SearchError> {
        let options = Options { max_expanded_nodes: budget, ..Options::default() };
        let mut progress = NoProgress;
        let mut meter = Meter::new(&options, PLAN, board.dimension(), &mut progress, stop).with_helpers(helpers);
        let estimator = LinearConflict::new(board.dimension());
        let driver = Driver {
            incumbent: &mut Incumbent::default(),
            interlude: &mut (),
            split_after: 0,
            deeper_after,
            farm: None,
        };
        match run(board, &estimator, weight, driver, &mut meter)? {
            Proof::Found(found) => Ok(found),
            other => panic!("{other:?} with no path in hand"),
        }
    }

    #[test]
    fn a_search_from_a_known_bound_skips_the_iterations_below_it() {
        let board = sample("4x4-52.txt");
        let options = Options::default();
        let stop = Stop::new();
        let mut nodes = Vec::new();
        for known in [0, 50] {
            let mut progress = NoProgress;
            let mut meter = Meter::new(&options, PLAN, board.dimension(), &mut progress, &stop);
            let mut from = Incumbent::default().resumed_from(known);
            let proved = prove(&board, Heuristic::LinearConflict, None, Weight::ONE, &mut from, &mut (), &mut meter);
            let Ok(Proof::Found(found)) = proved else { panic!("{proved:?}") };
            assert_eq!((found.path.len(), found.lower_bound), (52, 52), "from {known}");
            assert!(reaches_goal(&board, &found.path), "from {known}");
            nodes.push(meter.expanded);
        }
        assert!(nodes[1] < nodes[0], "from 50: {} nodes, from the heuristic: {}", nodes[1], nodes[0]);
    }

    #[test]
    fn a_best_length_known_ends_the_search_once_the_bound_reaches_it() {
        let board = sample("4x4-52.txt");
        let options = Options::default();
        let stop = Stop::new();
        let run = |best: Option<u32>| {
            let mut progress = NoProgress;
            let mut meter = Meter::new(&options, PLAN, board.dimension(), &mut progress, &stop);
            let mut incumbent = best.map_or_else(Incumbent::default, |best| Incumbent::new(path_of(best)));
            let searched =
                prove(&board, Heuristic::LinearConflict, None, Weight::ONE, &mut incumbent, &mut (), &mut meter);
            (searched, meter.expanded)
        };
        let (alone, alone_nodes) = run(None);
        let Ok(Proof::Found(alone)) = alone else { panic!("{alone:?}") };
        assert_eq!(alone.path.len(), 52);
        // A 52-move path in hand: the iteration at 50 fails and proves it, and the one at 52
        // does not run.
        let (searched, nodes) = run(Some(52));
        assert_eq!(searched, Ok(Proof::Settled));
        assert!(nodes < alone_nodes, "{nodes} nodes, {alone_nodes} without the last iteration skipped");
    }

    /// Searches the 52-move sample with linear conflict, a path of `best` moves in hand and the
    /// search settled on it, forecasts on or off (on, with no clock, they only turn the skip off),
    /// splitting every iteration or none: what the search gives and the nodes it took.
    fn settled_on(best: u32, forecast: bool, split_after: u64) -> (Result<Proof, SearchError>, u64) {
        settled_with(best, forecast, split_after, &mut ())
    }

    /// [`settled_on`], with `interlude` between the iterations.
    fn settled_with(
        best: u32,
        forecast: bool,
        split_after: u64,
        interlude: &mut dyn Interlude,
    ) -> (Result<Proof, SearchError>, u64) {
        let board = sample("4x4-52.txt");
        let (options, stop, mut progress) = (Options::default(), Stop::new(), NoProgress);
        let mut meter = Meter::new(&options, PLAN, board.dimension(), &mut progress, &stop);
        meter.report_best(best);
        let mut incumbent = Incumbent::new(path_of(best));
        if forecast {
            incumbent = incumbent.forecasting(&meter);
        }
        let estimator = LinearConflict::new(board.dimension());
        let driver = Driver { incumbent: &mut incumbent, interlude, split_after, deeper_after: u64::MAX, farm: None };
        let searched = run(&board, &estimator, Weight::ONE, driver, &mut meter);
        (searched, meter.expanded)
    }

    #[test]
    fn a_shortest_path_in_hand_skips_the_iteration_under_the_proof() {
        // With 52 moves in hand, the iteration at 48 is skipped: the one at 50 fails and proves
        // the path shortest on its own.
        for split_after in [0, u64::MAX] {
            let (skipped, skipped_nodes) = settled_on(52, false, split_after);
            let (stepped, stepped_nodes) = settled_on(52, true, split_after);
            assert_eq!(skipped, Ok(Proof::Settled));
            assert_eq!(stepped, Ok(Proof::Settled));
            assert!(skipped_nodes < stepped_nodes, "{skipped_nodes} nodes skipping, {stepped_nodes} without");
        }
    }

    /// An interlude that records its calls, and lowers the best known to `to` at the first.
    struct Lowers {
        to: u32,
        calls: Vec<(u32, u64)>,
    }

    impl Interlude for Lowers {
        fn before_iteration(
            &mut self,
            bound: u32,
            nodes: u64,
            incumbent: &mut Incumbent,
            meter: &mut Meter<'_>,
        ) -> Result<(), SearchError> {
            self.calls.push((bound, nodes));
            incumbent.offer(path_of(self.to), meter);
            Ok(())
        }
    }

    #[test]
    fn a_shorter_path_from_an_interlude_ends_the_search_sooner() {
        for split_after in [0, u64::MAX] {
            let (_, in_hand_nodes) = settled_on(52, false, split_after);
            let (_, long_nodes) = settled_on(58, false, split_after);
            let mut lowers = Lowers { to: 52, calls: Vec::new() };
            let (searched, nodes) = settled_with(58, false, split_after, &mut lowers);
            // Lowered from the second iteration on, the search takes the iterations it takes
            // with 52 in hand: the one at 48 skipped, the one at 50 the proof.
            assert_eq!(searched, Ok(Proof::Settled));
            assert!(nodes < long_nodes, "{nodes} nodes, {long_nodes} with 58 in hand");
            if split_after == u64::MAX {
                assert_eq!(nodes, in_hand_nodes);
            }
            // Called before every iteration from the second, with the nodes of the one before.
            let bounds: Vec<u32> = lowers.calls.iter().map(|&(bound, _)| bound).collect();
            assert!(lowers.calls.iter().all(|&(_, nodes)| nodes > 0), "{:?}", lowers.calls);
            assert!(bounds.windows(2).all(|pair| pair[1] == pair[0] + 2), "{bounds:?}");
            // The last before the iteration at 48 that skips to 50, which proves 52.
            assert_eq!(bounds.last(), Some(&48));
        }
    }

    #[test]
    fn a_path_found_ahead_is_proven_or_bettered_by_the_iteration_under_it() {
        // 54 or 56 moves in hand: the iteration that skips ahead finds a shorter path, and the
        // ones under it, from the root again, prove it or find the 52-move one.
        for (best, split_after) in [(54, 0), (56, 0), (54, u64::MAX), (56, u64::MAX)] {
            let (searched, _) = settled_on(best, false, split_after);
            let Ok(Proof::Found(found)) = searched else { panic!("{searched:?}") };
            let case = format!("{best} in hand, splitting after {split_after}");
            assert_eq!((found.path.len(), found.lower_bound), (52, 52), "{case}");
            assert!(reaches_goal(&sample("4x4-52.txt"), &found.path), "{case}");
        }
    }

    #[test]
    fn split_iterations_find_shortest_paths() {
        for (name, moves) in [("3x3-31.txt", 31), ("4x4-30.txt", 30), ("4x4-52.txt", 52), ("5x5-38.txt", 38)] {
            let board = sample(name);
            for threads in [1, 3] {
                let found = split_run(&board, Weight::ONE, Helpers::dedicated(threads), u64::MAX, &Stop::new())
                    .expect("solves");
                assert_eq!((found.path.len(), found.lower_bound), (moves, moves as u32), "{name}, {threads} helpers");
                assert!(reaches_goal(&board, &found.path), "{name}, {threads} helpers");
            }
        }
    }

    #[test]
    fn split_weighted_iterations_stay_within_the_weight() {
        let board = sample("4x4-52.txt");
        let found = split_run(&board, Weight::new(1.3), Helpers::dedicated(2), u64::MAX, &Stop::new()).expect("solves");
        assert!(
            found.path.len() <= 67 && found.lower_bound <= 52,
            "{} moves, bound {}",
            found.path.len(),
            found.lower_bound
        );
        assert!(reaches_goal(&board, &found.path));
    }

    /// Lends no core: helpers never run.
    struct NoCores;

    impl crate::solver::helper_threads::Lender for NoCores {
        fn lend(&self) -> Option<Lease> {
            None
        }
    }

    #[test]
    fn a_search_whose_helpers_get_no_core_runs_alone() {
        let board = sample("4x4-30.txt");
        let helpers = Helpers::lent(2, std::sync::Arc::new(NoCores));
        let found = split_run(&board, Weight::ONE, helpers, u64::MAX, &Stop::new()).expect("solves");
        assert_eq!(found.path.len(), 30);
    }

    #[test]
    fn a_split_search_keeps_to_the_node_budget_and_the_stop_flag() {
        let board = sample("4x4-52.txt");
        let err = split_run(&board, Weight::ONE, Helpers::dedicated(2), 200_000, &Stop::new()).unwrap_err();
        let SearchError::NodeBudgetExhausted { limit, expanded, .. } = err else { panic!("{err}") };
        // The helpers' nodes are counted every few thousand, so the overshoot is small.
        assert!(
            limit == 200_000 && expanded >= limit && expanded < limit + 4 * crate::solver::meter::CHECK_INTERVAL,
            "{expanded}"
        );
        let stop = Stop::new();
        stop.stop();
        let err = split_run(&board, Weight::ONE, Helpers::dedicated(2), u64::MAX, &stop).unwrap_err();
        assert!(matches!(err, SearchError::Cancelled { .. }), "{err}");
    }

    #[test]
    fn a_five_by_five_search_that_moves_to_the_deeper_machine_between_iterations_finds_a_shortest_path() {
        let board = sample("5x5-38.txt");
        for helpers in [Helpers::none(), Helpers::dedicated(2)] {
            let found =
                split_run_deepening_after(&board, Weight::ONE, helpers, u64::MAX, &Stop::new(), 0).expect("solves");
            assert_eq!((found.path.len(), found.lower_bound), (38, 38));
            assert!(reaches_goal(&board, &found.path));
        }
        assert!(!Position::new(&board).can_deepen(), "the search built the deeper machine");
    }

    #[test]
    fn a_stopped_search_does_not_wait_for_the_deeper_machine() {
        let board = sample("5x5-38.txt");
        let stop = Stop::new();
        stop.stop();
        let options = Options::default();
        let mut progress = NoProgress;
        let mut meter = Meter::new(&options, PLAN, 5, &mut progress, &stop);
        let started = std::time::Instant::now();
        let err = deepen(&mut Position::new(&board), &Helpers::dedicated(2), 0, &mut meter).unwrap_err();
        assert!(matches!(err, SearchError::Cancelled { .. }), "{err}");
        // The build takes seconds; an interrupted one stops at its first cell.
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    }

    #[test]
    fn progress_reports_the_threshold() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        let mut priorities = Vec::new();
        let mut record = |report: &crate::solver::progress::ProgressReport| priorities.push(report.priority);
        let options = Options { algorithm: Algorithm::IdaStar, heuristic: Heuristic::Manhattan, ..Options::default() };
        solve(&board, &options, &mut record, &Stop::new()).expect("solves");
        assert_eq!(priorities.first(), Some(&board.manhattan()));
        assert!(priorities.windows(2).all(|pair| pair[0] <= pair[1]));
        assert!(priorities.iter().all(|&p| p <= 31));
    }
}
