//! IDA* (Korf 1985): depth-first searches bounded by f = g + h, each bound the least f that
//! exceeded the last one, so memory is linear in the depth and the first path found is a
//! shortest one when the heuristic is admissible.
//!
//! Weighted, f = g + w·h: every node of a shortest path (length C) then has f <= w·C, so the
//! first path found is at most w·C long, and a bound that failed proves C > bound / w. f is
//! kept in thousandths of a move (see [`Weight`]); with w = 1 the search is plain IDA*.
//!
//! The inner loop follows Burns et al., "Implementing fast heuristic search code" (2012): one
//! board of tiles changed and restored in place, the blank's neighbours from a table, the
//! heuristic a generic [`Estimator`] updated from the moved tile alone, the move that undoes the
//! previous one never tried, and a child whose f is over the bound rejected before it is
//! entered. The depth-first search keeps its own stack of frames rather than recursing, so a
//! deep bound on a large board cannot overflow the thread's stack; nothing is allocated per
//! node once the stack has grown to the depth of the search.

use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;
use crate::solver::heuristic::manhattan::{Hamming, Manhattan};
use crate::solver::pdb::PatternDatabases;
use crate::solver::search::{Found, Weight};
use crate::solver::{Algorithm, Heuristic, Meter, SearchError};

/// Runs IDA* from `board` (which must be solvable) with `heuristic` (never `Auto`) and
/// `weight`, and returns a path to the goal at most `weight` times the shortest, with the lower
/// bound the search proved. The pattern-database heuristic needs `databases`
/// for the board's dimension.
pub fn search(
    board: &Board,
    heuristic: Heuristic,
    databases: Option<&PatternDatabases>,
    weight: Weight,
    meter: &mut Meter<'_>,
) -> Result<Found, SearchError> {
    let n = board.dimension();
    match heuristic {
        Heuristic::Hamming => run(board, &Hamming, weight, meter),
        Heuristic::Manhattan => run(board, &Manhattan::new(n), weight, meter),
        Heuristic::LinearConflict | Heuristic::Auto => run(board, &LinearConflict::new(n), weight, meter),
        Heuristic::PatternDatabase => match databases {
            Some(databases) if n == databases.dimension() => run(board, &databases.heuristic(), weight, meter),
            _ => Err(SearchError::Unsupported {
                algorithm: Algorithm::IdaStar,
                heuristic,
                dimension: n,
                reason: "pattern databases for this board size must be loaded first \
                         (PatternDatabases::load_or_build_partition)"
                    .into(),
            }),
        },
    }
}

/// No tile can slide this way.
const NONE: u32 = u32::MAX;

/// One node on the depth-first stack.
#[derive(Clone, Copy)]
struct Frame<M> {
    memo: M,
    /// The index into [`Direction::ALL`] of the next move to try.
    next: u8,
    /// The move that made this node, as an index into [`Direction::ALL`]; 4 for the root.
    last: u8,
}

/// The board being searched, changed in place.
struct Puzzle {
    tiles: Vec<u16>,
    blank: usize,
    /// For each cell and each direction, the cell whose tile would slide that way into a blank
    /// there, or [`NONE`].
    sliders: Vec<[u32; 4]>,
}

impl Puzzle {
    fn new(board: &Board) -> Puzzle {
        let n = board.dimension();
        let sliders = (0..n * n)
            .map(|cell| Direction::ALL.map(|d| tile_to_slide(n, cell, d).map_or(NONE, |from| from as u32)))
            .collect();
        Puzzle { tiles: board.tiles().to_vec(), blank: board.blank_index(), sliders }
    }

    /// Slides the tile at `from` into the blank.
    #[inline]
    fn slide(&mut self, from: usize) {
        self.tiles[self.blank] = self.tiles[from];
        self.tiles[from] = 0;
        self.blank = from;
    }

    fn is_goal(&self) -> bool {
        let last = self.tiles.len() - 1;
        self.tiles[last] == 0
            && self.tiles[..last].iter().enumerate().all(|(cell, &tile)| usize::from(tile) == cell + 1)
    }
}

/// Index of `direction` in [`Direction::ALL`].
fn index_of(direction: Direction) -> u8 {
    Direction::ALL.iter().position(|&d| d == direction).unwrap_or(0) as u8
}

/// IDA* with f = g + weight·h, run by [`search`] with each estimator.
pub fn run<E: Estimator>(
    board: &Board,
    estimator: &E,
    weight: Weight,
    meter: &mut Meter<'_>,
) -> Result<Found, SearchError> {
    let mut puzzle = Puzzle::new(board);
    let root = estimator.start(&puzzle.tiles);
    let opposite = Direction::ALL.map(|d| index_of(d.opposite()));
    let mut bound = weight.f(0, estimator.value(&root));
    let mut proven = estimator.value(&root);
    let mut stack: Vec<Frame<E::Memo>> = Vec::new();
    loop {
        stack.clear();
        stack.push(Frame { memo: root, next: 0, last: 4 });
        if puzzle.is_goal() {
            return Ok(Found::optimal(Vec::new()));
        }
        let moves_bound = proven;
        meter.expand(moves_bound, || 0)?;
        let mut next_bound = u64::MAX;
        loop {
            let depth = stack.len();
            let Some(frame) = stack.last_mut() else { break };
            let g = depth as u32 - 1;
            if frame.next == 4 {
                // Every move from here is tried: undo the move that led here.
                let last = frame.last;
                stack.pop();
                if last < 4 {
                    let back = puzzle.sliders[puzzle.blank][usize::from(opposite[usize::from(last)])];
                    puzzle.slide(back as usize);
                }
                continue;
            }
            let direction = frame.next;
            frame.next += 1;
            if frame.last < 4 && opposite[usize::from(frame.last)] == direction {
                continue; // It would slide the same tile straight back.
            }
            let from = puzzle.sliders[puzzle.blank][usize::from(direction)];
            if from == NONE {
                continue;
            }
            let from = from as usize;
            let tile = puzzle.tiles[from];
            meter.generated += 1;
            // A node on the stack has f <= bound and is not the goal, so h >= 1 and a child's
            // g is within the bound: only its h needs a limit.
            let limit = weight.h_within(g + 1, bound);
            let memo = match estimator.slide_within(&frame.memo, &puzzle.tiles, tile, from, puzzle.blank, limit) {
                Ok(memo) => memo,
                Err(over) => {
                    next_bound = next_bound.min(weight.f(g + 1, over));
                    continue;
                }
            };

            let h = estimator.value(&memo);
            puzzle.slide(from);
            stack.push(Frame { memo, next: 0, last: direction });
            if h == 0 && puzzle.is_goal() {
                let path: Vec<Direction> =
                    stack[1..].iter().map(|frame| Direction::ALL[usize::from(frame.last)]).collect();
                let lower_bound = proven.max(weight.proven_by(path.len()));
                return Ok(Found { path, lower_bound });
            }
            meter.expand(moves_bound, || u64::from(g + 1))?;
        }
        if next_bound == u64::MAX {
            return Err(SearchError::Internal("IDA* exhausted the space of a solvable board".into()));
        }
        proven = proven.max(weight.proven_by_cut(next_bound));
        bound = next_bound;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{NoProgress, Options, Stop, solve};

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

    #[test]
    fn progress_reports_the_threshold() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        let mut priorities = Vec::new();
        let mut record = |report: &crate::solver::ProgressReport| priorities.push(report.priority);
        let options = Options { algorithm: Algorithm::IdaStar, heuristic: Heuristic::Manhattan, ..Options::default() };
        solve(&board, &options, &mut record, &Stop::new()).expect("solves");
        assert_eq!(priorities.first(), Some(&board.manhattan()));
        assert!(priorities.windows(2).all(|pair| pair[0] <= pair[1]));
        assert!(priorities.iter().all(|&p| p <= 31));
    }
}
