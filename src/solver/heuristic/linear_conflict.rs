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

/// The longest increasing run of a line's goal positions, by patience sorting: `tails[k]` is
/// the least last position of an increasing run of k + 1.
struct Run {
    tails: [u8; 256],
    longest: usize,
    keys: u32,
}

impl Default for Run {
    fn default() -> Run {
        Run { tails: [0; 256], longest: 0, keys: 0 }
    }
}

impl Run {
    #[inline]
    fn push(&mut self, key: u8) {
        self.keys += 1;
        // A line near its goal is mostly in order: most keys extend the longest run.
        if self.longest == 0 || self.tails[self.longest - 1] < key {
            self.tails[self.longest] = key;
            self.longest += 1;
            return;
        }
        let slot = self.tails[..self.longest].partition_point(|&tail| tail < key);
        self.tails[slot] = key;
        self.longest = self.longest.max(slot + 1);
    }

    /// Two moves for each key outside the longest run.
    fn conflicts(&self) -> u32 {
        2 * (self.keys - self.longest as u32)
    }
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
        let mut run = Run::default();
        self.each_key(line, tile_at, |_, key| run.push(key));
        run.conflicts()
    }

    /// Calls `key` with the cell and the position along `line` of the goal of each of its
    /// tiles (read through `tile_at(cell)`) whose goal lies on it, in order along the line.
    #[inline]
    fn each_key(&self, line: Line, tile_at: impl Fn(usize) -> u16, mut key: impl FnMut(usize, u8)) {
        let n = self.dimension;
        match line {
            Line::Row(row) => {
                let first = row * n;
                for cell in first..first + n {
                    let along = usize::from(tile_at(cell)).wrapping_sub(1).wrapping_sub(first);
                    if along < n {
                        key(cell, along as u8);
                    }
                }
            }
            Line::Column(column) => {
                for cell in (column..n * n).step_by(n) {
                    let tile = tile_at(cell);
                    if tile == 0 {
                        continue;
                    }
                    let (goal_row, goal_column) = self.manhattan.row_and_column(usize::from(tile) - 1);
                    if goal_column == column {
                        key(cell, goal_row as u8);
                    }
                }
            }
        }
    }

    /// The line whose term a slide of `tile` from `from` to `to` can change: the tile's goal
    /// column for a sideways slide, its goal row for a vertical one, if the slide enters or
    /// leaves it.
    #[inline]
    fn touched_line(&self, tile: u16, from: usize, to: usize) -> Option<Line> {
        let at = |cell| self.manhattan.row_and_column(cell);
        let (goal_row, goal_column) = at(usize::from(tile) - 1);
        let ((from_row, from_column), (to_row, to_column)) = (at(from), at(to));
        if from_row == to_row {
            (from_column == goal_column || to_column == goal_column).then_some(Line::Column(goal_column))
        } else {
            (from_row == goal_row || to_row == goal_row).then_some(Line::Row(goal_row))
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
        // One pass reads the line before the slide (the tile at `from`) and after it (at `to`).
        let (mut before, mut after) = (Run::default(), Run::default());
        self.each_key(
            line,
            |cell| if cell == to { tile } else { tiles[cell] },
            |cell, key| {
                if cell != to {
                    before.push(key);
                }
                if cell != from {
                    after.push(key);
                }
            },
        );
        manhattan + after.conflicts() - before.conflicts()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{Rng, random_slide};

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

    #[test]
    fn every_slide_on_a_scrambled_big_board_agrees_with_a_fresh_start() {
        let n = 9;
        let estimator = LinearConflict::new(n);
        let mut tiles: Vec<u16> = (1..(n * n) as u16).chain([0]).collect();
        let mut blank = n * n - 1;
        // A fixed walk of the blank that scrambles rows and columns alike.
        let mut rng = Rng::new(38);
        let mut memo = estimator.start(&tiles);
        for _ in 0..2_000 {
            let from = random_slide(n, blank, &mut rng);
            memo = estimator.slide(&memo, &tiles, tiles[from], from, blank);
            tiles.swap(from, blank);
            blank = from;
            assert_eq!(memo, estimator.start(&tiles));
        }
    }
}
