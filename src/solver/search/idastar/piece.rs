//! One piece of an IDA* iteration run for a [`Farm`](crate::solver::Farm): the worker's side of
//! a farmed iteration. The order came from another process, so everything in it is checked
//! before it is searched: the board, every move to the piece's node, the weight, and that this
//! process holds the very pattern databases the order names.

use super::dfs::{self, Outcome, Position, Tally, Threshold};
use super::split;
use crate::board::Board;
use crate::solver::error::SearchError;
use crate::solver::farm::{FarmError, PieceOrder, PieceReport};
use crate::solver::heuristic::Estimator;
use crate::solver::meter::CHECK_INTERVAL;
use crate::solver::options::MAX_WEIGHT;
use crate::solver::pdb::{PatternDatabases, cache};
use crate::solver::search::Weight;

/// Searches the subtree `order` names, within its bound, on this thread, with `databases` (the
/// pattern databases of the order's board size, if any are loaded). `stopped` is asked every
/// few thousand nodes; `Ok(None)` once it says so. A malformed order, or one whose tables this
/// process does not hold, is refused.
pub fn run_piece(
    order: &PieceOrder,
    databases: Option<&PatternDatabases>,
    stopped: &dyn Fn() -> bool,
) -> Result<Option<PieceReport>, FarmError> {
    let n = order.tiles.len().isqrt();
    let malformed = |what: &str| FarmError::Malformed(what.to_owned());
    let board = Board::new(n, &order.tiles).map_err(|error| malformed(&format!("the board: {error}")))?;
    if order.moves.iter().any(|&direction| direction >= 4) {
        return Err(malformed("a move that is no direction"));
    }
    let weight = Weight::from_thousandths(order.weight)
        .filter(|weight| weight.thousandths() <= Weight::new(MAX_WEIGHT).thousandths())
        .ok_or_else(|| malformed("a weight under 1 or over the most a request may ask"))?;
    let bound = Threshold { f: order.bound, weight, proven: order.proven };
    let tables_match = databases.filter(|databases| cache::file_name(databases.partition()) == order.tables);
    let searched = super::with_estimator!(n, order.heuristic, tables_match, estimator => {
        search(&board, &order.moves, estimator, bound, stopped)
    });
    match searched {
        Ok(found) => found,
        Err(SearchError::Unsupported { .. }) => Err(FarmError::TablesMissing(order.tables.clone())),
        Err(error) => Err(FarmError::Malformed(error.to_string())),
    }
}

/// The piece's search with `estimator`; the outer `Result` is [`run_piece`]'s estimator choice.
fn search<E: Estimator>(
    board: &Board,
    moves: &[u8],
    estimator: &E,
    bound: Threshold,
    stopped: &dyn Fn() -> bool,
) -> Result<Result<Option<PieceReport>, FarmError>, SearchError> {
    let root = {
        let mut root = Position::new(board);
        // The deeper duplicate machine if this process has it built, never built here.
        if root.can_deepen() {
            root.deepen(1, &|| true);
        }
        root
    };
    let mut puzzle = root.clone();
    let memo = estimator.start(root.tiles());
    let start = split::enter(moves, &mut puzzle, &root, estimator, memo);
    if start.g as usize != moves.len() {
        return Ok(Err(FarmError::Malformed("a move that does not fit the board".into())));
    }
    let mut tally = Count { expanded: 0, generated: 0, stopped };
    let report = |tally: &Count<'_>, cut, closest, path| PieceReport {
        expanded: tally.expanded,
        generated: tally.generated,
        cut,
        closest,
        path,
    };
    let h = estimator.value(&start.memo);
    if h == 0 && puzzle.is_goal() {
        return Ok(Ok(Some(report(&tally, u64::MAX, 0, Some(moves.to_vec())))));
    }
    if bound.weight.f(start.g, h) > bound.f {
        // The node itself is over the bound: only a coordinator's mistake sends one.
        return Ok(Ok(Some(report(&tally, bound.weight.f(start.g, h), h, None))));
    }
    let mut stack = Vec::new();
    match dfs::bounded(&mut puzzle, estimator, start, bound, &mut tally, &mut stack) {
        Ok(Outcome::Found(path)) => Ok(Ok(Some(report(&tally, u64::MAX, 0, Some([moves, &path].concat()))))),
        Ok(Outcome::Cut { f, closest }) => Ok(Ok(Some(report(&tally, f, closest.min(h), None)))),
        Err(_stopped) => Ok(Ok(None)),
    }
}

/// A piece's node counts, and its stop.
struct Count<'s> {
    expanded: u64,
    generated: u64,
    stopped: &'s dyn Fn() -> bool,
}

impl Tally for Count<'_> {
    #[inline]
    fn expand(&mut self, _: u32, _: impl FnOnce() -> u64) -> Result<(), SearchError> {
        self.expanded += 1;
        if self.expanded.is_multiple_of(CHECK_INTERVAL) && (self.stopped)() {
            return Err(SearchError::Cancelled { expanded: self.expanded });
        }
        Ok(())
    }

    #[inline]
    fn generate(&mut self) {
        self.generated += 1;
    }
}
