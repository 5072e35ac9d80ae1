//! Linear conflict (Hansson, Mayer & Yung 1992): Manhattan distance plus, for every row and
//! column, two moves per tile that has to leave the line so that the tiles whose goal is in that
//! line can pass each other. The tiles that may stay form a longest increasing run of goal
//! positions, so a line adds 2 × (tiles with their goal in it − that run's length).
//!
//! Row and column terms add up: a row conflict costs vertical moves, a column conflict
//! horizontal ones. A slide moves one tile across one column (or row) boundary, so only the
//! moved tile's goal line can change its term, and the bound changes by exactly one per move:
//! the heuristic is consistent.

use super::Estimator;
use super::manhattan::Manhattan;

/// Manhattan distance plus linear conflicts, for any N×N board.
#[derive(Debug, Clone, Copy)]
pub struct LinearConflict {
    dimension: usize,
    manhattan: Manhattan,
}

/// A row or a column of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    Row(usize),
    Column(usize),
}

impl LinearConflict {
    /// Linear conflict on a `dimension`×`dimension` board.
    pub fn new(dimension: usize) -> LinearConflict {
        LinearConflict { dimension, manhattan: Manhattan::new(dimension) }
    }

    /// The extra moves `line` forces, reading its tiles through `tile_at(cell)`.
    #[inline]
    fn line_conflicts(&self, line: Line, tile_at: impl Fn(usize) -> u16) -> u32 {
        let n = self.dimension;
        // Patience sorting: tails[k] is the least last goal position of an increasing run of k + 1.
        let mut tails = [0u8; 256];
        let (mut in_line, mut longest) = (0u32, 0usize);
        for i in 0..n {
            let cell = match line {
                Line::Row(r) => r * n + i,
                Line::Column(c) => i * n + c,
            };
            let tile = tile_at(cell);
            if tile == 0 {
                continue;
            }
            let goal = usize::from(tile) - 1;
            // The goal's position along the line, if the goal lies on this line.
            let key = match line {
                Line::Row(r) if goal / n == r => goal % n,
                Line::Column(c) if goal % n == c => goal / n,
                _ => continue,
            };
            in_line += 1;
            let key = key as u8;
            let slot = tails[..longest].partition_point(|&tail| tail < key);
            tails[slot] = key;
            longest = longest.max(slot + 1);
        }
        2 * (in_line - longest as u32)
    }

    /// The line whose term a slide of `tile` from `from` to `to` can change: the tile's goal
    /// column for a sideways slide, its goal row for a vertical one, if the slide enters or
    /// leaves it.
    #[inline]
    fn touched_line(&self, tile: u16, from: usize, to: usize) -> Option<Line> {
        let n = self.dimension;
        let goal = usize::from(tile) - 1;
        if from / n == to / n {
            let column = goal % n;
            (from % n == column || to % n == column).then_some(Line::Column(column))
        } else {
            let row = goal / n;
            (from / n == row || to / n == row).then_some(Line::Row(row))
        }
    }
}

impl Estimator for LinearConflict {
    type Memo = u32;

    fn start(&self, tiles: &[u16]) -> u32 {
        let n = self.dimension;
        let lines = (0..n).flat_map(|i| [Line::Row(i), Line::Column(i)]);
        self.manhattan.start(tiles) + lines.map(|line| self.line_conflicts(line, |cell| tiles[cell])).sum::<u32>()
    }

    #[inline]
    fn value(&self, memo: &u32) -> u32 {
        *memo
    }

    #[inline]
    fn slide(&self, memo: &u32, tiles: &[u16], tile: u16, from: usize, to: usize) -> u32 {
        let manhattan = self.manhattan.slide(memo, tiles, tile, from, to);
        let Some(line) = self.touched_line(tile, from, to) else { return manhattan };
        let before = self.line_conflicts(line, |cell| tiles[cell]);
        let after = self.line_conflicts(line, |cell| {
            if cell == from {
                0
            } else if cell == to {
                tile
            } else {
                tiles[cell]
            }
        });
        manhattan + after - before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swapped_pair_in_its_row_costs_two_more() {
        // 2 1 3 / 4 5 6 / 7 8 _ : Manhattan 2, one row conflict.
        assert_eq!(LinearConflict::new(3).start(&[2, 1, 3, 4, 5, 6, 7, 8, 0]), 4);
        // A reversed row of three keeps one tile: two must leave.
        assert_eq!(LinearConflict::new(3).start(&[3, 2, 1, 4, 5, 6, 7, 8, 0]), 4 + 4);
    }

    #[test]
    fn slides_agree_with_a_fresh_start() {
        let estimator = LinearConflict::new(4);
        let tiles: [u16; 16] = [13, 6, 8, 12, 15, 14, 0, 10, 11, 7, 4, 5, 9, 1, 3, 2];
        for from in [2, 5, 7, 10] {
            let mut after = tiles;
            after.swap(from, 6);
            let slid = estimator.slide(&estimator.start(&tiles), &tiles, tiles[from], from, 6);
            assert_eq!(slid, estimator.start(&after), "slide from {from}");
        }
    }
}
