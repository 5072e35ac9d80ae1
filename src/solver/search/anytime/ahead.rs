//! MINIMUM's proof on a 5×5 with ANYTIME's improvement between its iterations: the path
//! shortened to IDA*'s next thresholds before its iterations reach them.
//!
//! IDA*'s last iteration, the one whose threshold is the optimum, is often its most expensive:
//! a whole one takes several times the nodes of all the iterations before it, and it ends only
//! where its depth-first order happens to meet a shortest path, at once on some boards and late
//! on others (on DeepCubeA's #143, after 1.05 G of its 1.51 G nodes). With a path of that length
//! already in hand it need not run: the iteration before it, failing, proves that path shortest
//! ([`Meter::settle_on_best`]).
//!
//! So before each iteration forecast to expand [`MIN_FORECAST`] nodes or more (from the third
//! on, when IDA* forecasts them), the improvement side of ANYTIME ([`Improvement`]: beams,
//! their ends searched again, then windows of the path) takes a turn at shortening the best
//! path to the threshold after it: if the iteration about to run then fails, that path is
//! shortest. Each turn expands at most [`SHARE`] of the nodes forecast for the iteration it
//! comes before, so the improvement costs a bounded share of the proof whether or not it finds
//! anything, and it stops as soon as the path is that short. Its beams and windows carry over
//! from one turn to the next, each turn having several times the nodes of the one before.
//!
//! The turns are counted in nodes, not time, so that a board gets the same turns whatever the
//! machine's pace. With turns given a share of the forecast time, Korf & Felner's #28 was
//! solved in 5 s in some runs and 13 s in others: whether its turn reached the 98-move path
//! before the last iteration depended on how fast the machine ran just then.
//!
//! Once the path is as long as the threshold after the coming iteration, that iteration may be
//! the last, and a turn before it is a gamble: the iteration may meet a shortest path at once.
//! So it first runs as a probe, [`PROBE`] of its forecast nodes: most last iterations that meet
//! a path early meet it there. Only if the probe ends nothing does a turn run, aiming at the
//! bound itself, of [`LAST_SHARE`] of the forecast (a path found then saves the whole
//! iteration), and then the iteration runs from its start (the probe's nodes spent again).
//! A turn aimed at the bound without the probe solved DeepCubeA's #143 (45 s, unsolved at 60 s
//! before) but lost more elsewhere, #156 taking 35.7 s against 19.5 s.
//!
//! That turn never pushes an answer that would come in time past the time limit: the iteration
//! after it ends the search whatever happens (it finds a path of its bound, or proves the best
//! one shortest), so when that iteration's forecast fits in the time left, the turn gets only the
//! time the iteration leaves ([`within_time`]), at the pace of IDA*'s iteration before (or of the
//! probe) and of the turns before. Such a turn finds nothing when the best path is already
//! shortest: on DeepCubeA's #1, #24, #215 and #449 it took 7.8–16.4 s before an iteration of
//! 28–50 s.
//!
//! Bare beams bounded by that length instead found it far less often: over DeepCubeA's seeded
//! sample of 40, 14 of 112 beams did, and they took 432 s of the 944 s.

use std::time::{Duration, Instant};

use super::{Best, Improvement, TurnEnd};
use crate::board::{Board, Direction};
use crate::solver::pdb::PatternDatabases;
use crate::solver::search::Found;
use crate::solver::search::constructive::beam;
use crate::solver::search::idastar::Interlude;
use crate::solver::{Meter, SearchError};

/// The most a turn of the improvement expands, as a share of the nodes forecast for the
/// iteration after it. A turn's node (a beam's board, a window's) takes about five times as
/// long as an IDA* node (2.9–4.6 M a second against 17–20 M on two cores, on Korf & Felner's
/// #13 and #28 and DeepCubeA's #143, #285 and #318), so this is about a quarter of the
/// iteration's time. At 0.04, #28's turn could not start the beam that finds its 98-move path,
/// and its last iteration ran: 247 M nodes against 54 M.
pub const SHARE: f64 = 0.05;

/// The share of an iteration's forecast nodes that its probe takes, before the one iteration
/// that may be the last: when the best path is as long as the threshold after it.
pub const PROBE: f64 = 0.03;

/// The most the turn after a probe that ended nothing expands, as a share of the iteration's
/// forecast nodes: twice [`SHARE`]. That iteration is then likely the last, and it runs from its
/// start until it meets a path, so a path of its bound found first saves the most. On
/// DeepCubeA's #437 a turn of this share found the 80-move optimum (53.8 s in all), where one of
/// [`SHARE`] stopped at 82 and the last iteration ran (83.7 s).
pub const LAST_SHARE: f64 = 0.10;

/// How many times an IDA* node's time a turn's node is taken to take, until a turn of the
/// search has measured it: a beam's board or a window's node took 2.9–4.6 M a second against
/// IDA*'s 17–20 M (see [`SHARE`]).
pub const TURN_NODE_COST: f64 = 5.0;

/// A turn runs only before an iteration forecast to expand at least this many nodes (about ten
/// seconds on two cores): on a board whose iterations are smaller, a last iteration skipped
/// saves less than the turns cost.
pub const MIN_FORECAST: u64 = 160_000_000;

/// The improvement's turns in one MINIMUM search, run between its IDA* iterations
/// ([`Interlude`]).
pub struct Ahead<'a> {
    best: Best<'a>,
    improvement: Improvement,
    /// The 5×5 pattern databases the improvement's beams are scored by; `None` when the board
    /// is not a 5×5 or they are not loaded, and then no turn runs.
    databases: Option<&'a PatternDatabases>,
    /// The forecast nodes of the iteration whose probe runs, when one does, and the time an
    /// IDA* node took (see [`Ahead::node_time`]).
    probed: Option<(u64, Option<f64>)>,
    /// When the last iteration started, and the nodes expanded by then.
    iteration: Option<(Instant, u64)>,
    /// The nodes the turns so far expanded, and the time they took.
    turned: (u64, Duration),
}

impl<'a> Ahead<'a> {
    /// Turns for `board`'s proof from `first`, the best path known (its length is
    /// [`Meter::best_moves`]), when `five` is loaded and `board` is a 5×5.
    pub fn new(board: &'a Board, first: Found, five: Option<&'a PatternDatabases>) -> Ahead<'a> {
        let databases = five
            .filter(|databases| databases.dimension() == board.dimension() && board.dimension() == beam::MAX_DIMENSION);
        Ahead {
            best: Best::quiet(board, first),
            improvement: Improvement::new(),
            databases,
            probed: None,
            iteration: None,
            turned: (0, Duration::ZERO),
        }
    }

    /// The best path known: as long as [`Meter::best_moves`].
    pub fn into_path(self) -> Vec<Direction> {
        self.best.found.path
    }

    /// A turn of the improvement of at most `nodes` expansions, stopping once the path is
    /// `target` moves or fewer.
    fn turn(&mut self, target: u32, nodes: u64, meter: &mut Meter<'_>) -> Result<(), SearchError> {
        self.best.enough = target;
        self.improvement.run(&mut self.best, self.databases, self.databases, TurnEnd::After(nodes), meter)
    }
}

impl Interlude for Ahead<'_> {
    fn before_iteration(&mut self, bound: u32, nodes: u64, meter: &mut Meter<'_>) -> Result<Option<u64>, SearchError> {
        let last = self.iteration.take();
        let probe = self.probe(bound, nodes, last, meter);
        self.iteration = Some((Instant::now(), meter.expanded));
        probe
    }

    fn after_probe(&mut self, bound: u32, meter: &mut Meter<'_>) -> Result<(), SearchError> {
        let Some((forecast, node)) = self.probed.take() else { return Ok(()) };
        let node = node.or_else(|| Ahead::node_time(self.iteration, meter)).unwrap_or(0.0);
        let mut nodes = share_of(forecast, LAST_SHARE);
        if let Some(left) = meter.time_left() {
            let turn_node = match self.turned {
                (0, _) => node * TURN_NODE_COST,
                (nodes, time) => time.as_secs_f64() / nodes as f64,
            };
            let times = Times { iteration: forecast as f64 * node, turn_node, left: left.as_secs_f64() };
            nodes = within_time(nodes, times);
        }
        let turn = if nodes == 0 { Ok(()) } else { self.turn_holding(bound, bound, nodes, meter) };
        self.iteration = Some((Instant::now(), meter.expanded));
        turn
    }
}

impl Ahead<'_> {
    /// The time an IDA* node took over the iteration that started at `started` (the one before
    /// the interlude now running, or the probe), if any nodes were expanded.
    fn node_time(started: Option<(Instant, u64)>, meter: &Meter<'_>) -> Option<f64> {
        let (since, from) = started?;
        let nodes = meter.expanded.checked_sub(from).filter(|&nodes| nodes > 0)?;
        Some(since.elapsed().as_secs_f64() / nodes as f64)
    }

    /// [`Interlude::before_iteration`]: `last` is when the iteration before started.
    fn probe(
        &mut self,
        bound: u32,
        nodes: u64,
        last: Option<(Instant, u64)>,
        meter: &mut Meter<'_>,
    ) -> Result<Option<u64>, SearchError> {
        self.probed = None;
        // A path's length has the board's parity: the threshold after this one is two more.
        let target = bound + 2;
        if self.databases.is_none() || self.best.moves() < target {
            return Ok(None);
        }
        if nodes < MIN_FORECAST {
            return Ok(None);
        }
        if self.best.moves() == target {
            // This may be the last iteration: a probe first, and a turn only if it ends nothing.
            self.probed = Some((nodes, Ahead::node_time(last, meter)));
            return Ok(Some(share_of(nodes, PROBE)));
        }
        self.turn_holding(bound, target, share_of(nodes, SHARE), meter).map(|()| None)
    }
}

/// What [`within_time`] weighs, in seconds.
#[derive(Debug, Clone, Copy)]
struct Times {
    /// The forecast time of the iteration after the turn.
    iteration: f64,
    /// A turn's node.
    turn_node: f64,
    /// The time left.
    left: f64,
}

/// The nodes of a turn of at most `nodes` before an iteration that ends the search: all of them
/// when the iteration cannot end in the time left anyway (the turn is then the one chance of an
/// answer in time), else no more than the time the iteration leaves.
fn within_time(nodes: u64, times: Times) -> u64 {
    if times.iteration > times.left {
        return nodes;
    }
    let spare = (times.left - times.iteration) / times.turn_node.max(f64::MIN_POSITIVE);
    nodes.min(spare as u64)
}

impl Ahead<'_> {
    /// A turn aiming at `target` before the iteration at `bound`, of at most `nodes`. The
    /// improvement searches other boards than the root, which prove nothing about it: reports
    /// keep the bound meanwhile.
    fn turn_holding(&mut self, bound: u32, target: u32, nodes: u64, meter: &mut Meter<'_>) -> Result<(), SearchError> {
        meter.hold_bound(Some(bound));
        let (started, from) = (Instant::now(), meter.expanded);
        let turn = self.turn(target, nodes, meter);
        meter.hold_bound(None);
        self.turned.0 += meter.expanded.saturating_sub(from);
        self.turned.1 += started.elapsed();
        turn
    }
}

/// `share` of `nodes`: a probe's or a turn's allowance from an iteration's forecast.
fn share_of(nodes: u64, share: f64) -> u64 {
    (nodes as f64 * share) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::pdb::Partition;
    use crate::solver::search::anytime::FIRST_BEAM;
    use crate::solver::search::samples::{reaches_goal, sample};
    use crate::solver::search::{Weight, idastar};
    use crate::solver::{Algorithm, Heuristic, NoProgress, Options, Plan, Stop};

    const PLAN: Plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::PatternDatabase };

    /// Runs `test` on the 38-move sample board, with small 5×5 databases (eight 3-tile patterns
    /// of consecutive tiles, built in milliseconds) and a fresh meter.
    fn with_meter(test: impl FnOnce(&Board, &PatternDatabases, &mut Meter<'_>)) {
        let (options, stop, mut progress) = (Options::default(), Stop::new(), NoProgress);
        with_databases(|board, databases| {
            let mut meter = Meter::new(&options, PLAN, 5, &mut progress, &stop);
            test(board, databases, &mut meter);
        });
    }

    /// Runs `test` on the 38-move sample board with small 5×5 databases (see [`with_meter`]).
    fn with_databases(test: impl FnOnce(&Board, &PatternDatabases)) {
        let patterns = (0..8u8).map(|first| (3 * first + 1..=3 * first + 3).collect()).collect();
        let partition = Partition::for_dimension(5, patterns).expect("a 5x5 partition");
        let databases = PatternDatabases::build(&partition).expect("built");
        test(&sample("5x5-38.txt"), &databases);
    }

    fn replay(board: &Board, path: &[Direction]) -> Option<Board> {
        path.iter().try_fold(board.clone(), |board, &direction| board.slide(direction).map(|(next, _)| next))
    }

    /// A shortest path from `board` made twelve moves longer by a detour that no move undoes
    /// at once: the blank three times round a 2×2 block, which brings the board back.
    fn long_path(board: &Board, databases: &PatternDatabases, meter: &mut Meter<'_>) -> (Vec<Direction>, usize) {
        use Direction::{Down, Left, Right, Up};
        let shortest = idastar::search(board, Heuristic::PatternDatabase, Some(databases), Weight::ONE, meter)
            .expect("solves")
            .path;
        for round in
            [[Up, Left, Down, Right], [Up, Right, Down, Left], [Down, Left, Up, Right], [Down, Right, Up, Left]]
        {
            let detour: Vec<Direction> = round.iter().cycle().take(12).copied().collect();
            if replay(board, &detour).as_ref() == Some(board) {
                let optimal = shortest.len();
                return (detour.into_iter().chain(shortest).collect(), optimal);
            }
        }
        panic!("no 2x2 block round the blank");
    }

    /// Turns for `board` from a path twelve moves longer than the shortest, and the shortest
    /// length.
    fn ahead<'a>(board: &'a Board, databases: &'a PatternDatabases, meter: &mut Meter<'_>) -> (Ahead<'a>, usize) {
        let (path, optimal) = long_path(board, databases, meter);
        meter.best_moves = path.len() as u32;
        (Ahead::new(board, Found { path, lower_bound: 0 }, Some(databases)), optimal)
    }

    #[test]
    fn a_turn_shortens_the_path_to_its_target_and_makes_that_the_best_known() {
        with_meter(|board, databases, meter| {
            let (mut ahead, optimal) = ahead(board, databases, meter);
            assert_eq!((optimal, meter.best_moves), (38, 50));
            ahead.turn(40, u64::MAX, meter).expect("no limit is hit");
            let moves = ahead.best.moves();
            assert!((38..=40).contains(&moves), "{moves} moves");
            assert_eq!(meter.best_moves, moves);
            assert!(reaches_goal(board, &ahead.into_path()));
        });
    }

    #[test]
    fn a_turn_expands_at_most_its_nodes_and_the_same_turn_does_the_same_work() {
        // A turn of `nodes` with a target under the optimum, which only its nodes end, from a
        // fresh meter: the nodes it spent and the path's length after it.
        let turn = |nodes: u64| {
            let mut spent = None;
            with_meter(|board, databases, meter| {
                let (mut ahead, _) = ahead(board, databases, meter);
                let before = meter.expanded;
                ahead.turn(30, nodes, meter).expect("the allowance only ends the turn");
                assert!(reaches_goal(board, &ahead.best.found.path));
                spent = Some((meter.expanded - before, ahead.best.moves()));
            });
            spent.expect("the turn ran")
        };
        let (spent, moves) = turn(1_000_000);
        // A beam's layer is counted once expanded, so the last may run past by a layer.
        let layer = FIRST_BEAM as u64;
        assert!(spent > 0 && spent <= 1_000_000 + layer, "{spent} nodes");
        assert!(moves < 50, "the turn shortened the path: {moves} moves");
        assert_eq!(turn(1_000_000), (spent, moves), "the same turn again");
    }

    #[test]
    fn no_turn_runs_without_tables_a_large_forecast_or_a_longer_path_than_its_target() {
        with_meter(|board, databases, meter| {
            let (mut ahead, _) = ahead(board, databases, meter);
            let expanded = meter.expanded;
            let unchanged = |ahead: &Ahead<'_>, meter: &Meter<'_>| {
                meter.expanded == expanded && ahead.best.moves() == 50 && meter.best_moves == 50
            };
            assert_eq!(ahead.before_iteration(50, 1 << 40, meter), Ok(None));
            assert!(unchanged(&ahead, meter), "the path is as short as the bound");
            assert_eq!(ahead.before_iteration(36, MIN_FORECAST - 1, meter), Ok(None));
            assert!(unchanged(&ahead, meter), "an iteration forecast under the least worth a turn");
            ahead.databases = None;
            assert_eq!(ahead.before_iteration(36, 1 << 40, meter), Ok(None));
            assert!(unchanged(&ahead, meter), "no tables");
            ahead.databases = Some(databases);
            assert_eq!(ahead.before_iteration(36, 1 << 40, meter), Ok(None));
            assert!(ahead.best.moves() <= 38, "a turn ran: {} moves", ahead.best.moves());
        });
    }

    #[test]
    fn before_what_may_be_the_last_iteration_a_probe_runs_first_and_a_turn_only_after_it() {
        with_meter(|board, databases, meter| {
            let (mut ahead, optimal) = ahead(board, databases, meter);
            let expanded = meter.expanded;
            // The path (50 moves) is as long as the threshold after 48: no turn yet, a probe.
            let probe = ahead.before_iteration(48, 1 << 40, meter).expect("runs");
            assert_eq!(probe, Some(share_of(1 << 40, PROBE)));
            assert_eq!((meter.expanded, ahead.best.moves()), (expanded, 50), "no turn before the probe");
            // The probe ended nothing: the turn aims at the bound itself.
            ahead.after_probe(48, meter).expect("runs");
            let moves = ahead.best.moves();
            assert!((optimal..=48).contains(&(moves as usize)), "{moves} moves");
            assert_eq!(meter.best_moves, moves);
            // A second call finds no probe pending.
            ahead.after_probe(48, meter).expect("runs");
            assert_eq!(ahead.best.moves(), moves);
        });
    }

    #[test]
    fn the_turn_after_a_probe_takes_the_last_share_of_the_forecast() {
        // A forecast whose turn after the probe may expand 2 M nodes, aiming under the optimum
        // (38) so that only the allowance ends it.
        let forecast = (2_000_000.0 / LAST_SHARE) as u64;
        with_meter(|board, databases, meter| {
            let (mut ahead, _) = ahead(board, databases, meter);
            ahead.probed = Some((forecast, None));
            let before = meter.expanded;
            ahead.after_probe(30, meter).expect("the allowance only ends the turn");
            let spent = meter.expanded - before;
            let (share, last) = (share_of(forecast, SHARE), share_of(forecast, LAST_SHARE));
            assert!(
                spent > share + FIRST_BEAM as u64 && spent <= last + FIRST_BEAM as u64,
                "{spent} nodes, {share} to {last}"
            );
            assert!(reaches_goal(board, &ahead.into_path()));
        });
    }

    #[test]
    fn a_turn_before_an_iteration_that_ends_in_time_gets_only_the_time_it_leaves() {
        let times = |iteration: f64| Times { iteration, turn_node: 0.001, left: 100.0 };
        assert_eq!(within_time(50_000, times(150.0)), 50_000, "the iteration cannot end in time anyway");
        assert_eq!(within_time(50_000, times(40.0)), 50_000, "both fit");
        assert_eq!(within_time(50_000, times(90.0)), 10_000, "ten seconds left over");
        assert_eq!(within_time(50_000, times(100.0)), 0, "nothing left over");
    }

    #[test]
    fn an_iteration_s_pace_is_its_time_over_its_nodes() {
        with_meter(|_, _, meter| {
            assert_eq!(Ahead::node_time(None, meter), None, "no iteration measured");
            let started = Instant::now().checked_sub(Duration::from_secs(2)).expect("a clock two seconds back");
            assert_eq!(Ahead::node_time(Some((started, meter.expanded)), meter), None, "no nodes");
            meter.expanded += 1_000;
            let pace = Ahead::node_time(Some((started, meter.expanded - 1_000)), meter).expect("measured");
            assert!((0.002..0.003).contains(&pace), "{pace} s a node");
        });
    }

    #[test]
    fn the_turn_after_a_probe_is_cut_to_the_time_its_iteration_leaves() {
        // An iteration whose nodes took 1 ms each, before one forecast at `forecast` nodes, with
        // an hour left: the turn after the probe, aimed under the optimum so that only its
        // allowance ends it, and the nodes it spent.
        let turn = |forecast: u64| {
            let options = Options { max_search_time: Some(Duration::from_secs(3600)), ..Options::default() };
            let (stop, mut progress) = (Stop::new(), NoProgress);
            let mut spent = 0;
            with_databases(|board, databases| {
                let mut meter = Meter::new(&options, PLAN, 5, &mut progress, &stop);
                let (mut ahead, _) = ahead(board, databases, &mut meter);
                ahead.probed = Some((forecast, Some(0.001)));
                let before = meter.expanded;
                ahead.after_probe(30, &mut meter).expect("the allowance only ends the turn");
                assert!(reaches_goal(board, &ahead.into_path()));
                spent = meter.expanded - before;
            });
            spent
        };
        let layer = FIRST_BEAM as u64;
        // 3,580 s of iteration leave 20 s: 4,000 nodes of 5 ms, of the 358,000 allowed.
        let cut = turn(3_580_000);
        assert!(cut <= 4_000 + layer, "{cut} nodes");
        // The iteration alone would overrun the hour: the whole allowance, the one chance.
        let whole = turn(4_000_000);
        assert!(whole > 4_000 + layer && whole <= 400_000 + layer, "{whole} nodes");
        // A second left over, at most 200 nodes.
        let last = turn(3_599_000);
        assert!(last <= 200 + layer, "{last} nodes");
    }

    /// Turns whose iterations are forecast a million times larger than IDA* forecasts them on
    /// the small test board, so that each is worth a turn with room to find a path.
    struct Magnified<'a>(Ahead<'a>);

    impl Interlude for Magnified<'_> {
        fn before_iteration(
            &mut self,
            bound: u32,
            nodes: u64,
            meter: &mut Meter<'_>,
        ) -> Result<Option<u64>, SearchError> {
            self.0.before_iteration(bound, nodes.saturating_mul(1_000_000).max(MIN_FORECAST), meter)
        }

        fn after_probe(&mut self, bound: u32, meter: &mut Meter<'_>) -> Result<(), SearchError> {
            self.0.after_probe(bound, meter)
        }
    }

    #[test]
    fn a_path_shortened_ahead_ends_the_proof_before_its_last_iteration() {
        with_meter(|board, databases, meter| {
            let (ahead, optimal) = ahead(board, databases, meter);
            let mut ahead = Magnified(ahead);
            meter.settle_on_best();
            let heuristic = Heuristic::PatternDatabase;
            let proved = idastar::search_from(board, heuristic, Some(databases), Weight::ONE, 0, &mut ahead, meter);
            // Alone, IDA* would have found a path in its iteration at 38 and returned it.
            let skipped = Err(SearchError::BoundReached { bound: optimal as u32 });
            assert_eq!(proved, skipped, "the last iteration did not run");
            let path = ahead.0.into_path();
            assert_eq!(path.len(), optimal);
            assert!(reaches_goal(board, &path));
        });
    }
}
