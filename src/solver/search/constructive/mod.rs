//! FAST answers for every size: a valid path in milliseconds, with no promise on its length.
//!
//! The unsolved region starts as the whole board. While it is larger than the region left to
//! search (5×5 when the 5×5 pattern databases are loaded, else 4×4), its top row and then its
//! left column are placed tile by tile (`search::placing`) and locked, and the region shrinks
//! by one. The last region is then solved by IDA*: a 5×5 weighted on its pattern databases (at
//! [`FINISH_WEIGHT_5X5`]; a whole 5×5 board then also by a beam search, `search::beam`, and its
//! path's suffixes searched again optimally, see `refine`); a 4×4 optimally with its pattern
//! databases when they are loaded, else weighted ([`FINISH_WEIGHT`]) with linear conflict.
//! `shorten` then removes moves that are undone at once. The lower bound is the root's linear
//! conflict (or the search's bound when the whole board was searched).
//!
//! A board near its goal pays for placing many times its distance, so when the placed path is
//! over twice the bound, the board's tiles are also walked back home (`retrace`, see
//! [`near_goal`]) within [`FAST_RETRACE_CELLS`], and the shorter path answers. A walked path
//! still over twice the bound has its windows searched again (`search::window`) for up to
//! [`FAST_WINDOWS_TIME`].
//!
//! What a placed path costs against the Manhattan distance on a 128×128 board is in
//! `docs/performance.md`, "Every size: FAST and BOUNDED".

mod layer;
mod retrace;
mod rings;
pub(in crate::solver::search) mod shorten;

use std::time::{Duration, Instant};

use crate::board::{Board, Direction};
use crate::solver::error::SearchError;
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;
use crate::solver::meter::Meter;
use crate::solver::options::Heuristic;
use crate::solver::pdb::{PatternDatabases, with_heuristic};
use crate::solver::search::beam;
use crate::solver::search::placing::{Grid, stage};
use crate::solver::search::window::{self, FIRST_WINDOW, LONGEST_WINDOW};
use crate::solver::search::{PathWithBound, Weight, distance_table, idastar};

/// The boards FAST's retrace may expand, times its region's cells: a board's work is mostly
/// copying and reading them, and this many cells take two to four seconds (a 128×128 board
/// 2,000 moves from its goal needs three to five billion; see `docs/performance.md`).
pub const FAST_RETRACE_CELLS: u64 = 1 << 33;

/// How long FAST's windows may take to bring a walked path within twice its bound: one or
/// two passes over a 128×128 board's.
pub const FAST_WINDOWS_TIME: Duration = Duration::from_millis(500);

/// The layers of the retrace's beams a unit of the region's distance is expected to take
/// (`docs/performance.md`, "Rings left behind, counted"): a walk expected to need more than
/// its budget of cells is not begun.
pub const RETRACE_LAYERS_PER_UNIT: u64 = 2;

/// The most of its unsolved region's cells a board near its goal has misplaced (see
/// [`near_goal`]): beyond that, the retrace's patches run into each other.
pub const NEAR_GOAL_SHARE: f64 = 0.5;

/// The side of the region left to search once rows and columns are placed, without 5×5
/// pattern databases.
pub const FINISH: usize = 4;

/// The weight of the search that finishes the last 4×4 without pattern databases: a random
/// 4×4 then takes thousands of nodes, not millions.
pub const FINISH_WEIGHT: f64 = 1.5;

/// The expansions the weighted search of the last 4×4 may take before the region is placed
/// down to a 3×3 instead: tens of milliseconds.
pub const FINISH_NODES: u64 = 200_000;

/// The weight of the search that finishes a 5×5 region on the 5×5 pattern databases: it finds
/// an answer in milliseconds (and alone finishes a larger board, whose length hardly depends on
/// it); a lower weight gives shorter paths but can take seconds (see `docs/performance.md`,
/// "Finishing a 5×5 region (from `solver::search::constructive`)").
pub const FINISH_WEIGHT_5X5: f64 = 1.5;

/// The boards per layer of the beam search (`beam`) that shortens a whole 5×5 board's path:
/// under a second a board, where twice as wide shortens little and takes twice as long (see
/// `docs/performance.md`, "Every size: FAST and BOUNDED").
pub const BEAM_WIDTH: usize = 1 << 13;

/// On a whole 5×5 board, after the beam search, the path's last moves are searched again
/// optimally from ever earlier boards along it, this many moves further back each time.
pub const SUFFIX_STEP: usize = 8;

/// The expansions of each optimal search of a suffix; the first that runs out ends them (what
/// the suffixes gained: `docs/performance.md`, "Finishing a 5×5 region (from
/// `solver::search::constructive`)").
pub const SUFFIX_NODES: u64 = 500_000;

/// A path to the goal for a solvable `board` of any size, finished with whichever of the 4×4
/// (`four`) and 5×5 (`five`) pattern databases are loaded. `meter` counts the nodes of the
/// finishing search, and its stop flag and deadline end it. A board near its goal whose placed
/// path is over twice its bound is also retraced ([`near_goal`]) within [`FAST_RETRACE_CELLS`],
/// and the shorter path answers.
pub fn solve(
    board: &Board,
    four: Option<&PatternDatabases>,
    five: Option<&PatternDatabases>,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    let mut found = placed_solve(board, four, five, meter)?;
    if found.path.len() as u64 > 2 * u64::from(found.lower_bound) {
        match near_goal(board, five, &WalkBudget::fast(found.path.len()), meter) {
            Ok(Some(path)) if path.len() < found.path.len() => {
                found.path = path;
                windows(board, &mut found, meter)?;
            }
            // Out of its budget or the time, the placed path in hand answers.
            Ok(_) => {}
            Err(error) if error.is_out_of_budget() => {}
            Err(error) => return Err(error),
        }
    }
    Ok(found)
}

/// `found.path` from `board` with its windows searched again (`search::window`), ever
/// longer, while it is over twice its bound, for at most [`FAST_WINDOWS_TIME`].
fn windows(board: &Board, found: &mut PathWithBound, meter: &mut Meter<'_>) -> Result<(), SearchError> {
    let twice_bound = 2 * found.lower_bound as usize;
    let mut width = FIRST_WINDOW;
    let passes = meter.within_phase(Instant::now() + FAST_WINDOWS_TIME, |meter| {
        while found.path.len() > twice_bound && width <= LONGEST_WINDOW {
            let (n, tiles) = (board.dimension(), board.tiles());
            if !window::pass(n, tiles, &mut found.path, width, meter, Duration::MAX, &mut |_, _| Ok(()))? {
                width += width / 2;
            }
        }
        Ok(())
    });
    // A pass the clock stopped leaves a valid path, shortened as far as it went.
    match passes {
        Err(error) if !error.is_out_of_budget() => Err(error),
        _ => Ok(()),
    }
}

/// [`solve`] without the retrace: rows and columns placed, the last region searched, in
/// milliseconds on every size.
pub(in crate::solver::search) fn placed_solve(
    board: &Board,
    four: Option<&PatternDatabases>,
    five: Option<&PatternDatabases>,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    let n = board.dimension();
    let (finish, databases) = finish_side(n, four, five);
    if n <= finish {
        return search(board, databases, Refinement::Full, meter);
    }
    placed(board, finish, |rest, meter| search(rest, databases, Refinement::None, meter), meter)
}

/// The side of the last region of an `n`×`n` board, and the tables that solve it: 5 with the
/// 5×5 tables (`five`), else [`FINISH`] with `four`'s.
pub(in crate::solver::search) fn finish_side<'d>(
    n: usize,
    four: Option<&'d PatternDatabases>,
    five: Option<&'d PatternDatabases>,
) -> (usize, Option<&'d PatternDatabases>) {
    match five {
        Some(five) if five.dimension() == 5 && n >= 5 => (5, Some(five)),
        _ => (FINISH, four),
    }
}

/// The moves that solve the last region of `tiles` (an `n`×`n` board whose rows and columns
/// are placed down to the last `finish`, the side [`finish_side`] gave with `databases`), with
/// the beam search and suffixes on a 5×5 when `full`.
pub(in crate::solver::search) fn finish_region(
    n: usize,
    tiles: &[u16],
    finish: usize,
    databases: Option<&PatternDatabases>,
    full: bool,
    meter: &mut Meter<'_>,
) -> Result<Vec<Direction>, SearchError> {
    let rest = region(n, tiles, n - finish)?;
    let refinement = if full { Refinement::Full } else { Refinement::None };
    Ok(search(&rest, databases, refinement, meter)?.path)
}

/// How far a retrace may go ([`near_goal`]).
pub(in crate::solver::search) struct WalkBudget {
    /// The walk's moves at most, about: a path in hand that long need not be beaten.
    pub max_moves: usize,
    /// The boards the walk expands times its region's cells: a board's work is copying them.
    pub max_cells: u64,
    /// When the walk ends, if before the meter's own clock.
    pub until: Option<Instant>,
}

impl WalkBudget {
    /// FAST's: [`FAST_RETRACE_CELLS`], to beat a path of `max_moves`.
    pub(in crate::solver::search) fn fast(max_moves: usize) -> WalkBudget {
        WalkBudget { max_moves, max_cells: FAST_RETRACE_CELLS, until: None }
    }
}

/// A path for a `board` near its goal, `None` for any other: where at most
/// [`NEAR_GOAL_SHARE`] of the cells of its unsolved region (the smallest bottom-right square
/// that holds the blank and every misplaced tile) are misplaced. The region's tiles are walked
/// back home (`retrace`) within `budget`, then whatever the walk leaves is placed and finished
/// as [`solve`] does with `five`. The walk's cells, its `until` or the meter's own clock,
/// whichever runs out first, end it with the best board reached so far, which is then placed
/// and finished on the meter's clock. A walk expected to need more cells than its budget
/// ([`RETRACE_LAYERS_PER_UNIT`]) is not begun, and answers `None`.
pub(in crate::solver::search) fn near_goal(
    board: &Board,
    five: Option<&PatternDatabases>,
    budget: &WalkBudget,
    meter: &mut Meter<'_>,
) -> Result<Option<Vec<Direction>>, SearchError> {
    let n = board.dimension();
    let tiles = board.tiles();
    let unsolved = |&cell: &usize| tiles[cell] == 0 || usize::from(tiles[cell]) != cell + 1;
    let Some(offset) = (0..n * n).filter(unsolved).map(|cell| (cell / n).min(cell % n)).min() else {
        return Ok(Some(Vec::new()));
    };
    let side = n - offset;
    let misplaced = (0..n * n).filter(unsolved).count();
    if side <= FINISH || misplaced as f64 > NEAR_GOAL_SHARE * (side * side) as f64 {
        return Ok(None);
    }
    let region = region(n, tiles, offset)?;
    let boards = budget.max_cells / (side * side) as u64;
    let expected = u64::from(LinearConflict::new(side).start(region.tiles())) * RETRACE_LAYERS_PER_UNIT;
    if expected.saturating_mul(retrace::WIDTH as u64) > boards {
        return Ok(None);
    }
    let walk = |meter: &mut Meter<'_>| {
        meter.with_node_allowance(boards, |meter| retrace::walk(&region, budget.max_moves, meter))
    };
    let mut path = match budget.until {
        Some(until) => match meter.within_phase(until, walk)? {
            Some(path) => path,
            None => return Ok(None),
        },
        None => walk(meter)?,
    };
    let mut reached = region.clone();
    for &direction in &path {
        reached =
            reached.slide(direction).ok_or_else(|| SearchError::Internal("a retraced move leaves the board".into()))?.0;
    }
    if !reached.is_goal() {
        path.extend(placed_solve(&reached, None, five, meter)?.path);
    }
    Ok(Some(shorten::cancel_undos(&path)))
}

/// `board`'s rows and columns placed until the unsolved region is `finish` wide, and that
/// region solved by `last`. The lower bound is the root's linear conflict.
fn placed(
    board: &Board,
    finish: usize,
    last: impl FnOnce(&Board, &mut Meter<'_>) -> Result<PathWithBound, SearchError>,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    let n = board.dimension();
    let mut grid = Grid::new(n, board.tiles());
    for corner in 0..n - finish {
        stage(&mut grid, corner)?;
    }
    let offset = n - finish;
    let rest = region(n, grid.tiles(), offset)?;
    let finish = last(&rest, meter)?;
    let mut path = grid.path;
    path.extend(finish.path);
    let lower_bound = LinearConflict::new(n).start(board.tiles());
    Ok(PathWithBound { path: shorten::cancel_undos(&path), lower_bound })
}

/// The bottom-right region of the `n`×`n` `board` from row and column `offset`, as a board of
/// its own: each tile relabelled by its goal cell within the region.
fn region(n: usize, board: &[u16], offset: usize) -> Result<Board, SearchError> {
    let side = n - offset;
    let mut tiles = Vec::with_capacity(side * side);
    for row in offset..n {
        for &tile in &board[row * n + offset..(row + 1) * n] {
            if tile == 0 {
                tiles.push(0);
                continue;
            }
            let goal = usize::from(tile) - 1;
            let (goal_row, goal_col) = (goal / n, goal % n);
            if goal_row < offset || goal_col < offset {
                return Err(SearchError::Internal(format!("tile {tile} is left outside its row and column")));
            }
            tiles.push(((goal_row - offset) * side + goal_col - offset + 1) as u16);
        }
    }
    Board::new(side, &tiles).map_err(|error| SearchError::Internal(format!("the last region is no board: {error}")))
}

/// How much work a 5×5 finish may spend making its path shorter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refinement {
    /// Weighted IDA* only: the last region of a larger board.
    None,
    /// Weighted IDA*, then the beam search and the suffixes: a whole 5×5 board.
    Full,
}

/// Solves the last region by IDA*: a 4×4 optimally with its pattern databases, a 5×5 weighted
/// on its databases (see [`refine`]), and without databases weighted with linear conflict.
fn search(
    board: &Board,
    databases: Option<&PatternDatabases>,
    refinement: Refinement,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    let has_databases = databases.is_some_and(|databases| databases.dimension() == board.dimension());
    let (heuristic, weight) = match (has_databases, board.dimension()) {
        (true, 5) => return refine(board, databases, refinement, meter),
        (true, _) => (Heuristic::PatternDatabase, Weight::ONE),
        (false, _) => return without_databases(board, meter),
    };
    idastar::search(board, heuristic, databases, weight, meter)
}

/// A 4×4 (or smaller) answer without pattern databases: weighted IDA* with linear conflict
/// within [`FINISH_NODES`] expansions, which a random 4×4 needs a small part of; the rare hard
/// board that needs more has its top row and left column placed instead and the 3×3 left
/// answered from its table, so the answer never takes more than milliseconds.
fn without_databases(board: &Board, meter: &mut Meter<'_>) -> Result<PathWithBound, SearchError> {
    let weighted = meter.with_node_allowance(FINISH_NODES, |meter| {
        idastar::search(board, Heuristic::LinearConflict, None, Weight::new(FINISH_WEIGHT), meter)
    });
    match weighted {
        Err(SearchError::NodeBudgetExhausted { .. }) if board.dimension() > distance_table::DIMENSION => {
            placed(board, distance_table::DIMENSION, |rest, _| distance_table::solve(rest), meter)
        }
        found => found,
    }
}

/// A 5×5 answer by weighted IDA* on the 5×5 pattern databases at [`FINISH_WEIGHT_5X5`]; for
/// [`Refinement::Full`], then the beam search's path of [`BEAM_WIDTH`] boards a layer when it
/// is shorter, and that path's suffixes ([`suffixes`]).
fn refine(
    board: &Board,
    databases: Option<&PatternDatabases>,
    refinement: Refinement,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    let search = |board: &Board, weight: Weight, meter: &mut Meter<'_>| {
        idastar::search(board, Heuristic::PatternDatabase, databases, weight, meter)
    };
    let mut best = search(board, Weight::new(FINISH_WEIGHT_5X5), meter)?;
    if refinement == Refinement::None {
        return Ok(best);
    }
    if let Some(databases) = databases {
        let depth = best.path.len().saturating_sub(1);
        match with_heuristic!(databases, heuristic => beam::search(board, &heuristic, BEAM_WIDTH, depth, meter)) {
            Ok(Some(path)) => best.path = path,
            // Out of nodes, the answer in hand stands.
            Ok(None) | Err(SearchError::NodeBudgetExhausted { .. }) => {}
            Err(error) => return Err(error),
        }
    }
    best.path = shorten_suffixes(board, best.path, databases, meter)?;
    Ok(best)
}

/// `path` from the 5×5 `board` with its suffixes searched again optimally on `databases` (see
/// [`suffixes`]): what makes a beam's path short.
pub(in crate::solver::search) fn shorten_suffixes(
    board: &Board,
    path: Vec<Direction>,
    databases: Option<&PatternDatabases>,
    meter: &mut Meter<'_>,
) -> Result<Vec<Direction>, SearchError> {
    suffixes(board, path, meter, |from, meter| {
        idastar::search(from, Heuristic::PatternDatabase, databases, Weight::ONE, meter)
    })
}

/// `path` from `board` with its suffixes replaced by shortest ones: from the board
/// [`SUFFIX_STEP`] moves before the end, then that many further back each time, `optimal`
/// finds a shortest path to the goal within [`SUFFIX_NODES`] expansions, which replaces the
/// rest of the path when it is shorter. The first search that runs out of nodes ends this (an
/// earlier board is only harder).
fn suffixes(
    board: &Board,
    mut path: Vec<Direction>,
    meter: &mut Meter<'_>,
    optimal: impl Fn(&Board, &mut Meter<'_>) -> Result<PathWithBound, SearchError>,
) -> Result<Vec<Direction>, SearchError> {
    let mut boards = Vec::with_capacity(path.len() + 1);
    boards.push(board.clone());
    for &direction in &path {
        let (next, _) = boards[boards.len() - 1]
            .slide(direction)
            .ok_or_else(|| SearchError::Internal("the 5x5 finish leaves the board".into()))?;
        boards.push(next);
    }
    let mut end = path.len();
    while end > SUFFIX_STEP {
        end -= SUFFIX_STEP;
        match meter.with_node_allowance(SUFFIX_NODES, |meter| optimal(&boards[end], meter)) {
            Ok(found) if found.path.len() < path.len() - end => {
                path.truncate(end);
                path.extend(found.path);
            }
            Ok(_) => {}
            Err(SearchError::NodeBudgetExhausted { .. }) => break,
            Err(error) => return Err(error),
        }
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tile_to_slide;
    use crate::random::{Rng, random_board, walked_board};
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Options};
    use crate::solver::progress::{ProgressReport, Stop};
    use crate::solver::search::samples::reaches_goal;

    /// What `search` gives with a FAST meter of no limits for an `n`×`n` board.
    fn metered<T>(n: usize, search: impl FnOnce(&mut Meter<'_>) -> T) -> T {
        let plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::LinearConflict, method: Method::Fast };
        let (options, stop) = (Options::default(), Stop::new());
        let mut progress = |_: &ProgressReport| {};
        search(&mut Meter::new(&options, plan, n, &mut progress, &stop))
    }

    /// A retrace's budget with no limit of cells.
    fn unlimited(max_moves: usize, until: Option<Instant>) -> WalkBudget {
        WalkBudget { max_moves, max_cells: u64::MAX, until }
    }

    #[test]
    fn a_board_near_its_goal_is_walked_back_far_shorter_than_placed() {
        let board = walked_board(24, 400, &mut Rng::new(7)).expect("a board");
        let placed = metered(24, |meter| placed_solve(&board, None, None, meter)).expect("placed").path;
        let walked = metered(24, |meter| near_goal(&board, None, &unlimited(placed.len(), None), meter))
            .expect("walks")
            .expect("near its goal");
        let bound = LinearConflict::new(24).start(board.tiles()) as usize;
        assert!(reaches_goal(&board, &walked));
        assert!(walked.len() * 2 < placed.len(), "walked {} against placed {}", walked.len(), placed.len());
        assert!(walked.len() <= 2 * bound, "walked {} against a bound of {bound}", walked.len());
    }

    #[test]
    fn fast_retraces_a_board_near_its_goal_within_its_budget() {
        let board = walked_board(20, 200, &mut Rng::new(20)).expect("a board");
        let placed = metered(20, |meter| placed_solve(&board, None, None, meter)).expect("placed").path;
        let fast = metered(20, |meter| solve(&board, None, None, meter)).expect("FAST");
        assert!(reaches_goal(&board, &fast.path));
        let (moves, bound) = (fast.path.len(), fast.lower_bound as usize);
        assert!(moves <= 2 * bound, "FAST {moves} against a bound of {bound}");
        assert!(moves * 4 < placed.len(), "FAST {moves} against placed {}", placed.len());
    }

    #[test]
    fn fast_walks_boards_near_their_goal_within_twice_their_bound() {
        // A 64×64 board 500 moves from its goal, and a 128×128 one 2,000 moves away.
        for (n, steps, seed) in [(64, 500, 2), (128, 2_000, 4)] {
            let board = walked_board(n, steps, &mut Rng::new(seed)).expect("a board");
            let fast = metered(n, |meter| solve(&board, None, None, meter)).expect("FAST");
            assert!(reaches_goal(&board, &fast.path));
            let (moves, bound) = (fast.path.len(), fast.lower_bound as usize);
            assert!(moves <= 2 * bound, "{n}×{n}: FAST {moves} against a bound of {bound}");
        }
    }

    #[test]
    fn windows_bring_a_path_over_twice_its_bound_within_it() {
        let board = walked_board(12, 60, &mut Rng::new(4)).expect("a board");
        let mut found = metered(12, |meter| solve(&board, None, None, meter)).expect("FAST");
        let bound = found.lower_bound as usize;
        // A tile slid there and back, again and again, before the path.
        let there = Direction::ALL
            .into_iter()
            .find(|&direction| tile_to_slide(12, board.blank_index(), direction).is_some())
            .expect("a move");
        found.path.splice(0..0, [there, there.opposite()].repeat(bound));
        assert!(found.path.len() > 2 * bound);
        metered(12, |meter| windows(&board, &mut found, meter)).expect("windows");
        assert!(reaches_goal(&board, &found.path));
        assert!(found.path.len() <= 2 * bound, "{} moves against a bound of {bound}", found.path.len());
    }

    #[test]
    fn a_walk_out_of_time_answers_from_where_it_stopped() {
        let board = walked_board(24, 400, &mut Rng::new(7)).expect("a board");
        for until in [Instant::now(), Instant::now() + std::time::Duration::from_millis(20)] {
            let path = metered(24, |meter| near_goal(&board, None, &unlimited(usize::MAX, Some(until)), meter))
                .expect("no error")
                .expect("a path");
            assert!(reaches_goal(&board, &path));
        }
    }

    #[test]
    fn a_random_board_is_not_near_its_goal() {
        let board = random_board(12, &mut Rng::new(3)).expect("a board");
        metered(12, |meter| {
            assert_eq!(near_goal(&board, None, &unlimited(usize::MAX, None), meter).expect("no error"), None);
            assert_eq!(meter.stats().nodes_expanded, 0);
        });
    }
}
