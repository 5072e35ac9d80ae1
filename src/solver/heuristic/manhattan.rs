//! The per-tile heuristics: Manhattan distance and Hamming distance as incremental
//! [`Estimator`]s. A slide changes only the moved tile's term, so an update is two lookups of
//! that tile's cost.

use super::Estimator;
use crate::board::Coordinates;

/// Sum over the tiles of the grid distance to the goal cell; consistent, as a slide moves one
/// tile one cell.
#[derive(Debug, Clone, Copy)]
pub struct Manhattan {
    coordinates: Coordinates,
}

impl Manhattan {
    /// Manhattan distance on a `dimension`×`dimension` board.
    pub fn new(dimension: usize) -> Manhattan {
        Manhattan { coordinates: Coordinates::new(dimension) }
    }

    /// The row and column of `cell`, without a division.
    #[inline]
    pub(super) fn row_and_column(&self, cell: usize) -> (usize, usize) {
        self.coordinates.row_and_column(cell)
    }

    /// How far `tile` at cell `cell` is from its goal cell.
    #[inline]
    pub fn tile_distance(&self, tile: u16, cell: usize) -> u32 {
        let (row, column) = self.row_and_column(cell);
        let (goal_row, goal_column) = self.row_and_column(usize::from(tile) - 1);
        (row.abs_diff(goal_row) + column.abs_diff(goal_column)) as u32
    }
}

/// Number of tiles off their goal cell; weaker than Manhattan, kept because the spec names it.
#[derive(Debug, Clone, Copy)]
pub struct Hamming;

/// Sums `cost(tile, cell)` over the non-blank tiles of `tiles`.
fn tile_sum(tiles: &[u16], cost: impl Fn(u16, usize) -> u32) -> u32 {
    tiles.iter().enumerate().filter(|&(_, &tile)| tile != 0).map(|(cell, &tile)| cost(tile, cell)).sum()
}

impl Estimator for Manhattan {
    type Memo = u32;

    fn start(&self, tiles: &[u16]) -> u32 {
        tile_sum(tiles, |tile, cell| self.tile_distance(tile, cell))
    }

    #[inline]
    fn value(&self, memo: &u32) -> u32 {
        *memo
    }

    #[inline]
    fn slide(&self, memo: &u32, _: &[u16], tile: u16, from: usize, to: usize) -> u32 {
        memo + self.tile_distance(tile, to) - self.tile_distance(tile, from)
    }
}

impl Estimator for Hamming {
    type Memo = u32;

    fn start(&self, tiles: &[u16]) -> u32 {
        tile_sum(tiles, |tile, cell| u32::from(usize::from(tile) != cell + 1))
    }

    #[inline]
    fn value(&self, memo: &u32) -> u32 {
        *memo
    }

    #[inline]
    fn slide(&self, memo: &u32, _: &[u16], tile: u16, from: usize, to: usize) -> u32 {
        let goal = usize::from(tile) - 1;
        memo + u32::from(goal != to) - u32::from(goal != from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn starts_agree_with_the_board() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        assert_eq!(Manhattan::new(3).start(board.tiles()), board.manhattan());
        assert_eq!(Hamming.start(board.tiles()), board.hamming());
    }

    #[test]
    fn slides_agree_with_a_fresh_start() {
        let tiles = [8, 6, 7, 2, 5, 4, 3, 0, 1];
        let mut after = tiles;
        after.swap(7, 4); // tile 5 slides down into the blank
        let manhattan = Manhattan::new(3);
        assert_eq!(manhattan.slide(&manhattan.start(&tiles), &tiles, 5, 4, 7), manhattan.start(&after));
        assert_eq!(Hamming.slide(&Hamming.start(&tiles), &tiles, 5, 4, 7), Hamming.start(&after));
    }
}
