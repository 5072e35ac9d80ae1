//! One long IDA* iteration handed to a [`Farm`]: a cluster's replicas, this one's idle cores
//! among them.
//!
//! The search's thread cuts the iteration into pieces as `split` does, but sized for a network
//! (about [`PIECE_NODES`] nodes each, tenths of a second), orders them nearest the goal first
//! from the same history, and hands them to the farm as [`PieceOrder`]s. It then only collects
//! reports: it adds their nodes to its [`Meter`], so the node budget, the clocks, the stop flag
//! and progress cover the whole cluster, keeps the least f cut and each piece's least h, and
//! ends the iteration at the first path or the last report. A piece reported twice (a worker
//! died after reporting, and its piece ran again) counts once.
//!
//! The farm failing is no failure of the search: the iteration then runs here, from the start,
//! as `split` runs it, and the answer is the same.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use super::dfs::Outcome;
use super::split::{self, History, Iteration};
use crate::solver::error::SearchError;
use crate::solver::farm::{Farm, PieceOrder};
use crate::solver::heuristic::Estimator;
use crate::solver::meter::Meter;
use crate::solver::options::Heuristic;

/// The nodes a piece is cut to hold, about: a few tenths of a second of one core's search, long
/// beside a message's round trip, short beside a worker's ack wait.
const PIECE_NODES: u64 = 1 << 22;

/// The fewest and the most pieces of one farmed iteration.
const MIN_PIECES: u64 = 64;
const MAX_PIECES: u64 = 16_384;

/// How long the search's thread waits for a report before it polls its meter.
const POLL: Duration = Duration::from_millis(20);

/// The farm a search may use, and what its pieces name: the heuristic (never `Auto`) and the
/// tables it reads.
pub(super) struct FarmPlan {
    pub(super) farm: Arc<dyn Farm>,
    pub(super) heuristic: Heuristic,
    pub(super) tables: String,
}

impl FarmPlan {
    /// Whether an iteration forecast at `expected` nodes goes to the farm: a long one, with
    /// another worker up that holds the tables.
    pub(super) fn takes(&self, expected: u64) -> bool {
        expected >= self.farm.after() && self.farm.workers(&self.tables) > 0
    }
}

/// Runs `iteration` (its root not the goal, and counted already) over `plan`'s farm, its pieces
/// ordered by `history`, which it then updates; `expected` is the forecast of its nodes. The
/// outcome is the sequential search's; `None` when the farm could not take the iteration or
/// failed during it, which the caller then runs itself.
#[inline(never)]
pub(super) fn iterate<E: Estimator>(
    plan: &FarmPlan,
    iteration: &Iteration<'_, E>,
    expected: u64,
    history: &mut History,
    meter: &mut Meter<'_>,
) -> Result<Option<Outcome>, SearchError> {
    let wanted = (expected / PIECE_NODES).clamp(MIN_PIECES, MAX_PIECES) as usize;
    let (mut pieces, mut cut) = split::layer(iteration, wanted, meter)?;
    if pieces.len() < 2 {
        // A goal above the layer, or a layer of one: nothing to share.
        return Ok(None);
    }
    history.order(&mut pieces);
    let bound = iteration.bound;
    let tiles = iteration.root.tiles();
    let orders = pieces
        .iter()
        .enumerate()
        .map(|(index, piece)| PieceOrder {
            index: index as u32,
            tiles: tiles.to_vec(),
            moves: piece.moves().to_vec(),
            bound: bound.f,
            weight: bound.weight.thousandths(),
            proven: bound.proven,
            heuristic: plan.heuristic,
            tables: plan.tables.clone(),
        })
        .collect();
    let mut farmed = match plan.farm.start(orders) {
        Ok(farmed) => farmed,
        Err(error) => {
            tracing::warn!(%error, "the cluster could not take an iteration: searching it here");
            return Ok(None);
        }
    };
    let mut closest = vec![u32::MAX; pieces.len()];
    let mut done = vec![false; pieces.len()];
    let mut left = pieces.len();
    let mut workers = HashSet::new();
    loop {
        match farmed.next(POLL) {
            Ok(Some(result)) => {
                let index = result.index as usize;
                if done.get(index) != Some(&false) {
                    continue;
                }
                let report = result.report;
                meter.absorb(report.expanded, report.generated)?;
                if workers.insert(result.worker) {
                    meter.report_replicas(workers.len() as u32);
                }
                if let Some(path) = report.path {
                    // Checked move by move, with the whole answer, before it is called a solution.
                    return Ok(Some(Outcome::Found(path)));
                }
                cut = cut.min(report.cut);
                closest[index] = report.closest;
                done[index] = true;
                left -= 1;
                if left == 0 {
                    let least = closest.iter().copied().min().unwrap_or(u32::MAX);
                    history.keep(pieces, &closest);
                    return Ok(Some(Outcome::Cut { f: cut, closest: least }));
                }
            }
            Ok(None) => {}
            Err(error) => {
                tracing::warn!(%error, left, "the cluster failed during an iteration: searching it here");
                return Ok(None);
            }
        }
        meter.checkpoint(bound.proven, 0)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Helpers;
    use crate::solver::farm::{FarmError, FarmedIteration, FarmedResult, PieceReport};
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Options};
    use crate::solver::progress::{NoProgress, Stop};
    use crate::solver::search::idastar::{Incumbent, Proof, prove, run_piece};
    use crate::solver::search::samples::{reaches_goal, sample};
    use crate::solver::search::{PathWithBound, Weight};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A farm on the test's thread: each `next` runs the next order with [`run_piece`], the
    /// odd ones reported twice; it fails after `fail_after` reports.
    struct InProcess {
        fail_after: usize,
        ran: Arc<AtomicUsize>,
    }

    struct Orders {
        orders: Vec<PieceOrder>,
        reported: Vec<FarmedResult>,
        fail_after: usize,
        ran: Arc<AtomicUsize>,
    }

    impl Farm for InProcess {
        fn workers(&self, tables: &str) -> usize {
            usize::from(tables.is_empty())
        }

        fn after(&self) -> u64 {
            10_000
        }

        fn start(&self, orders: Vec<PieceOrder>) -> Result<Box<dyn FarmedIteration>, FarmError> {
            let ran = self.ran.clone();
            Ok(Box::new(Orders { orders, reported: Vec::new(), fail_after: self.fail_after, ran }))
        }
    }

    impl FarmedIteration for Orders {
        fn next(&mut self, _: Duration) -> Result<Option<FarmedResult>, FarmError> {
            if self.ran.load(Ordering::SeqCst) >= self.fail_after {
                return Err(FarmError::Transport("gone".into()));
            }
            if let Some(again) = self.reported.pop() {
                return Ok(Some(again));
            }
            let Some(order) = self.orders.pop() else { return Ok(None) };
            self.ran.fetch_add(1, Ordering::SeqCst);
            let report: PieceReport = run_piece(&order, None, &|| false)?.expect("not stopped");
            let result = FarmedResult { index: order.index, worker: format!("w{}", order.index % 3), report };
            if order.index % 2 == 1 {
                self.reported.push(result.clone());
            }
            Ok(Some(result))
        }
    }

    fn farmed(board: &crate::board::Board, fail_after: usize) -> (PathWithBound, usize) {
        let ran = Arc::new(AtomicUsize::new(0));
        let farm = Arc::new(InProcess { fail_after, ran: ran.clone() });
        let options = Options::default();
        let (stop, mut progress) = (Stop::new(), NoProgress);
        let plan =
            Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::LinearConflict, method: Method::IdaStar };
        let mut meter = Meter::new(&options, plan, board.dimension(), &mut progress, &stop)
            .with_helpers(Helpers::none().with_farm(farm));
        let proved =
            prove(board, Heuristic::LinearConflict, None, Weight::ONE, &mut Incumbent::default(), &mut (), &mut meter);
        let Ok(Proof::Found(found)) = proved else { panic!("{proved:?}") };
        (found, ran.load(Ordering::SeqCst))
    }

    #[test]
    fn an_iteration_over_a_farm_finds_the_shortest_path_and_counts_a_piece_once() {
        let board = sample("4x4-52.txt");
        let (found, ran) = farmed(&board, usize::MAX);
        assert!(ran > 0, "no piece went to the farm");
        assert_eq!((found.path.len(), found.lower_bound), (52, 52));
        assert!(reaches_goal(&board, &found.path));
    }

    #[test]
    fn a_farm_that_fails_mid_iteration_leaves_the_search_to_finish_here() {
        let board = sample("4x4-52.txt");
        let (found, ran) = farmed(&board, 5);
        assert_eq!(ran, 5, "the farm took pieces before it failed");
        assert_eq!((found.path.len(), found.lower_bound), (52, 52));
        assert!(reaches_goal(&board, &found.path));
    }

    #[test]
    fn a_worker_refuses_an_order_it_cannot_run() {
        let order = PieceOrder {
            index: 0,
            tiles: vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
            moves: vec![],
            bound: 1000,
            weight: 1000,
            proven: 1,
            heuristic: Heuristic::Manhattan,
            tables: String::new(),
        };
        let found = run_piece(&order, None, &|| false).expect("runs").expect("not stopped");
        assert_eq!(found.path.map(|path| path.len()), Some(1));
        let bad = |order: PieceOrder| run_piece(&order, None, &|| false);
        // The blank in the bottom row's middle cannot slide a tile from below it.
        assert!(matches!(bad(PieceOrder { moves: vec![0, 0], ..order.clone() }), Err(FarmError::Malformed(_))));
        assert!(matches!(bad(PieceOrder { moves: vec![9], ..order.clone() }), Err(FarmError::Malformed(_))));
        assert!(matches!(bad(PieceOrder { tiles: vec![1, 1, 2, 0], ..order.clone() }), Err(FarmError::Malformed(_))));
        for weight in [999, u64::MAX] {
            assert!(matches!(bad(PieceOrder { weight, ..order.clone() }), Err(FarmError::Malformed(_))), "{weight}");
        }
        let tables = PieceOrder { heuristic: Heuristic::PatternDatabase, tables: "other.bin".into(), ..order };
        assert_eq!(bad(tables), Err(FarmError::TablesMissing("other.bin".into())));
    }
}
