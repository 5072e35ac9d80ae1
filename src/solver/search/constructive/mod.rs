//! FAST answers for every size: a valid path in milliseconds, with no promise on its length.
//!
//! The unsolved region starts as the whole board. While it is larger than 4×4, its top row
//! and then its left column are placed tile by tile (`place`, with the blank routed round
//! each tile by `grid`) and locked, and the region shrinks by one. The last 4×4 is then
//! solved by IDA*: optimally with the 4×4 pattern databases when they are loaded, else
//! weighted ([`FINISH_WEIGHT`]) with linear conflict. `shorten` then removes moves that are
//! undone at once. The lower bound is the root's linear conflict (or the search's bound on a
//! 4×4 board).
//!
//! Each tile costs the blank's walk to it and about three moves per cell it climbs diagonally,
//! five per cell in a straight line, so a random board takes a few times its Manhattan distance.

mod grid;
mod place;
mod shorten;

use grid::Grid;

use crate::board::Board;
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;
use crate::solver::pdb::PatternDatabases;
use crate::solver::search::{Found, Weight, eight, idastar};
use crate::solver::{Heuristic, Meter, SearchError};

/// The side of the region left to search once rows and columns are placed.
pub const FINISH: usize = 4;

/// The weight of the search that finishes the last 4×4 without pattern databases: a random
/// 4×4 then takes thousands of nodes, not millions.
pub const FINISH_WEIGHT: f64 = 1.5;

/// A path to the goal for a solvable `board` of any size. `meter` counts the nodes of the
/// finishing search, and its stop flag and deadline end it.
pub fn solve(board: &Board, databases: Option<&PatternDatabases>, meter: &mut Meter<'_>) -> Result<Found, SearchError> {
    let n = board.dimension();
    if n == eight::DIMENSION {
        return eight::solve(board);
    }
    if n <= FINISH {
        return search(board, databases, meter);
    }
    let mut grid = Grid::new(n, board.tiles());
    for corner in 0..n - FINISH {
        grid.transposed = false;
        place::line(&mut grid, corner, corner)?;
        grid.transposed = true;
        place::line(&mut grid, corner, corner + 1)?;
    }
    grid.transposed = false;
    let offset = n - FINISH;
    let rest = region(&grid, offset)?;
    let finish = search(&rest, databases, meter)?;
    let mut path = grid.path;
    path.extend(finish.path);
    let lower_bound = LinearConflict::new(n).start(board.tiles());
    Ok(Found { path: shorten::cancel_undos(&path), lower_bound })
}

/// The bottom-right `FINISH`×`FINISH` region of `grid` from row and column `offset`, as a board
/// of its own: each tile relabelled by its goal cell within the region.
fn region(grid: &Grid, offset: usize) -> Result<Board, SearchError> {
    let n = grid.n();
    let mut tiles = Vec::with_capacity(FINISH * FINISH);
    for row in offset..n {
        for &tile in &grid.tiles()[row * n + offset..(row + 1) * n] {
            if tile == 0 {
                tiles.push(0);
                continue;
            }
            let goal = usize::from(tile) - 1;
            let (goal_row, goal_col) = (goal / n, goal % n);
            if goal_row < offset || goal_col < offset {
                return Err(SearchError::Internal(format!("tile {tile} is left outside its row and column")));
            }
            tiles.push(((goal_row - offset) * FINISH + goal_col - offset + 1) as u16);
        }
    }
    Board::new(FINISH, &tiles).map_err(|error| SearchError::Internal(format!("the last region is no board: {error}")))
}

/// Solves a board of at most 4×4 by IDA*: optimally with the pattern databases, else weighted.
fn search(board: &Board, databases: Option<&PatternDatabases>, meter: &mut Meter<'_>) -> Result<Found, SearchError> {
    let has_databases = databases.is_some_and(|databases| databases.dimension() == board.dimension());
    let (heuristic, weight) = if has_databases {
        (Heuristic::PatternDatabase, Weight::ONE)
    } else {
        (Heuristic::LinearConflict, Weight::new(FINISH_WEIGHT))
    };
    idastar::search(board, heuristic, databases, weight, meter)
}
