//! Placing a big board's rows and columns one by one, as FAST does and as the stage beams do
//! where they get stuck: the board changed in place (`work_board`), one line of the unsolved
//! region placed tile by tile (`line`), and a stage, the region's top row and left column.
//!
//! Each tile costs the blank's walk to it and about three moves per cell it climbs diagonally,
//! five per cell in a straight line. Every route of the blank is one of the shortest, and of
//! those the one that moves the other tiles closest to their goals in all, which makes their
//! own placing cheaper later.

mod line;
mod work_board;

pub(in crate::solver::search) use work_board::Grid;

use crate::board::Direction;
use crate::solver::error::SearchError;

/// Places the row and then the column of the unsolved region from `corner` on `grid`, whose
/// rows and columns before it are placed and locked.
pub(in crate::solver::search) fn stage(grid: &mut Grid, corner: usize) -> Result<(), SearchError> {
    grid.transposed = false;
    line::place(grid, corner, corner)?;
    grid.transposed = true;
    let placed = line::place(grid, corner, corner + 1);
    grid.transposed = false;
    placed
}

/// The tiles and the moves after FAST places the row and column from `corner` of `tiles` (an
/// `n`×`n` board whose rows and columns before `corner` are placed): where a search that
/// places a stage otherwise gets stuck.
pub(in crate::solver::search) fn place_stage(
    n: usize,
    tiles: &[u16],
    corner: usize,
) -> Result<(Vec<u16>, Vec<Direction>), SearchError> {
    let mut grid = Grid::new(n, tiles);
    for row in 0..n {
        for col in 0..n {
            grid.lock((row, col), row < corner || col < corner);
        }
    }
    stage(&mut grid, corner)?;
    Ok((grid.tiles().to_vec(), grid.path))
}
