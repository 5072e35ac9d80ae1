//! The board the constructive solver works on, changed in place: tiles, where each tile is,
//! which cells are finished (locked), and every move made so far. It can be read through its
//! transpose, so that placing a column is placing a row.
//!
//! The blank is routed along a shortest route that moves the other tiles toward their goals as
//! much as possible: where a route with each step one closer exists, the best of them all by
//! dynamic programming over the rectangle between the blank and its target; else greedily
//! (each step one closer, preferring steps that do not run into the tile being moved), and by
//! a breadth-first search over a small window where the greedy route is stuck. A route costs
//! the rectangle's area at most, not the board's.

use std::cmp::Reverse;
use std::collections::VecDeque;

use crate::board::Direction;
use crate::solver::error::SearchError;

/// A cell as the current view sees it: (row, column).
pub type Cell = (usize, usize);

/// A cell that is on no board, for routes that avoid nothing.
pub const NOWHERE: Cell = (usize::MAX, usize::MAX);

/// The board being solved, and the moves that got it there.
pub struct Grid {
    n: usize,
    tiles: Vec<u16>,
    /// The cell of each tile label; `at[0]` is the blank.
    at: Vec<u32>,
    locked: Vec<bool>,
    /// The tile direction of each move made.
    pub path: Vec<Direction>,
    /// Whether rows and columns are swapped in [`Cell`]s.
    pub transposed: bool,
    /// The goal (row, column) of each tile label, not transposed.
    goals: Vec<(u16, u16)>,
    /// The dynamic programme's table, kept between routes.
    scratch: Vec<(i32, bool)>,
}

/// A cell no route reaches, in the dynamic programme of [`Grid::monotone_route`].
const BLOCKED: i32 = i32::MIN;

/// Grid distance between two cells.
pub fn distance(a: Cell, b: Cell) -> usize {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// The blank's distance from `from` to `to` when `avoid` may not be crossed: two more when
/// `avoid` sits on the straight line between them, which every shortest route then crosses.
pub fn detour_distance(from: Cell, to: Cell, avoid: Cell) -> usize {
    let between = |x: usize, a: usize, b: usize| a.min(b) < x && x < a.max(b);
    let blocked = (from.0 == to.0 && avoid.0 == from.0 && between(avoid.1, from.1, to.1))
        || (from.1 == to.1 && avoid.1 == from.1 && between(avoid.0, from.0, to.0));
    distance(from, to) + if blocked { 2 } else { 0 }
}

impl Grid {
    /// The board of side `n` with row-major `tiles` (0 = blank), nothing locked.
    pub fn new(n: usize, tiles: &[u16]) -> Grid {
        let mut at = vec![0u32; tiles.len()];
        for (cell, &tile) in tiles.iter().enumerate() {
            at[usize::from(tile)] = cell as u32;
        }
        let goals = (0..tiles.len())
            .map(|tile| {
                let goal = (tile + tiles.len() - 1) % tiles.len();
                ((goal / n) as u16, (goal % n) as u16)
            })
            .collect();
        Grid {
            n,
            tiles: tiles.to_vec(),
            at,
            locked: vec![false; tiles.len()],
            path: Vec::new(),
            transposed: false,
            goals,
            scratch: Vec::new(),
        }
    }

    /// The side of the board.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The tiles, row-major (not transposed).
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    fn index(&self, (row, col): Cell) -> usize {
        if self.transposed { col * self.n + row } else { row * self.n + col }
    }

    fn cell(&self, index: usize) -> Cell {
        let (row, col) = (index / self.n, index % self.n);
        if self.transposed { (col, row) } else { (row, col) }
    }

    /// The tile whose goal is `cell`.
    pub fn goal_tile(&self, cell: Cell) -> u16 {
        (self.index(cell) + 1) as u16
    }

    /// Where `tile` is (0 = the blank).
    pub fn find(&self, tile: u16) -> Cell {
        self.cell(self.at[usize::from(tile)] as usize)
    }

    /// Where the blank is.
    pub fn blank(&self) -> Cell {
        self.find(0)
    }

    /// Marks `cell` finished (`true`) or free again.
    pub fn lock(&mut self, cell: Cell, locked: bool) {
        let index = self.index(cell);
        self.locked[index] = locked;
    }

    /// Whether the blank may enter `cell`: on the board, not locked, not `avoid`.
    pub fn is_free(&self, cell: Cell, avoid: Cell) -> bool {
        cell.0 < self.n && cell.1 < self.n && cell != avoid && !self.locked[self.index(cell)]
    }

    /// The up to four cells next to `cell` on the board.
    pub fn neighbours(&self, (row, col): Cell) -> impl Iterator<Item = Cell> + use<> {
        let n = self.n;
        let up = row.checked_sub(1).map(|r| (r, col));
        let left = col.checked_sub(1).map(|c| (row, c));
        let down = (row + 1 < n).then_some((row + 1, col));
        let right = (col + 1 < n).then_some((row, col + 1));
        [up, down, left, right].into_iter().flatten()
    }

    /// Moves the blank to the neighbouring cell `to`: the tile there slides into the blank.
    pub fn step(&mut self, to: Cell) {
        let blank = self.at[0] as usize;
        let from = self.index(to);
        let tile = self.tiles[from];
        let direction = if from == blank + self.n {
            Direction::Up
        } else if from + self.n == blank {
            Direction::Down
        } else if from == blank + 1 {
            Direction::Left
        } else {
            Direction::Right
        };
        self.tiles.swap(from, blank);
        self.at[usize::from(tile)] = blank as u32;
        self.at[0] = from as u32;
        self.path.push(direction);
    }

    /// How much closer to its goal the tile at `cell` gets by sliding into the blank (-1, 0 or
    /// 1): between routes of one length, the blank takes the one that helps the other tiles.
    fn gain(&self, cell: Cell) -> i32 {
        self.gain_between(cell, self.blank())
    }

    /// How much closer to its goal the tile at `from` gets by sliding to the neighbouring `to`.
    fn gain_between(&self, from: Cell, to: Cell) -> i32 {
        let (row, col) = self.goals[usize::from(self.tiles[self.index(from)])];
        let (row, col) = (usize::from(row), usize::from(col));
        let goal = if self.transposed { (col, row) } else { (row, col) };
        distance(from, goal) as i32 - distance(to, goal) as i32
    }

    /// Takes the blank to `target` without entering `avoid` or a locked cell.
    pub fn route(&mut self, target: Cell, avoid: Cell) -> Result<(), SearchError> {
        if self.monotone_route(target, avoid) || self.round(target, avoid) {
            return Ok(());
        }
        while self.blank() != target {
            let blank = self.blank();
            let here = detour_distance(blank, target, avoid);
            let next = self
                .neighbours(blank)
                .filter(|&cell| self.is_free(cell, avoid))
                .map(|cell| (detour_distance(cell, target, avoid), Reverse(self.gain(cell)), cell))
                .min();
            match next {
                Some((there, _, cell)) if there + 1 == here => self.step(cell),
                _ => return self.search_route(target, avoid),
            }
        }
        Ok(())
    }

    /// Takes the blank to `target` along the route, of those with each step one closer (inside
    /// the rectangle between them) that avoid `avoid` and locked cells, whose moves bring the
    /// tiles they slide closest to their goals in all: dynamic programming from `target` back.
    /// False, with nothing moved, when every such route is blocked.
    fn monotone_route(&mut self, target: Cell, avoid: Cell) -> bool {
        let blank = self.blank();
        let (rows, cols) = (blank.0.abs_diff(target.0) + 1, blank.1.abs_diff(target.1) + 1);
        let toward = |from: usize, to: usize, steps: usize| if to >= from { from + steps } else { from - steps };
        let at = |i: usize, j: usize| (toward(blank.0, target.0, i), toward(blank.1, target.1, j));
        // best[i * cols + j]: the most gain from the blank at `at(i, j)` to the target, and
        // whether the route from there goes across (true) or down.
        let mut best = std::mem::take(&mut self.scratch);
        best.clear();
        best.resize(rows * cols, (BLOCKED, false));
        best[rows * cols - 1] = (0, false);
        for i in (0..rows).rev() {
            for j in (0..cols).rev() {
                let here = at(i, j);
                if (i, j) == (rows - 1, cols - 1) || (here != blank && !self.is_free(here, avoid)) {
                    continue;
                }
                let via = |ni: usize, nj: usize| match best[ni * cols + nj].0 {
                    BLOCKED => BLOCKED,
                    rest => rest + self.gain_between(at(ni, nj), here),
                };
                let down = if i + 1 < rows { via(i + 1, j) } else { BLOCKED };
                let across = if j + 1 < cols { via(i, j + 1) } else { BLOCKED };
                best[i * cols + j] = if across > down { (across, true) } else { (down, false) };
            }
        }
        let found = best[0].0 != BLOCKED;
        if found {
            let (mut i, mut j) = (0, 0);
            while (i, j) != (rows - 1, cols - 1) {
                if best[i * cols + j].1 {
                    j += 1;
                } else {
                    i += 1;
                }
                self.step(at(i, j));
            }
        }
        self.scratch = best;
        found
    }

    /// Takes the blank round `avoid` when it sits between the blank and `target` in a line
    /// (the blank behind a tile it pushes straight on): of the two sides, the one whose three
    /// cells are free and whose four moves bring the tiles they slide closest to their goals.
    /// False, with nothing moved, when this is not that case or both sides are blocked.
    fn round(&mut self, target: Cell, avoid: Cell) -> bool {
        let blank = self.blank();
        let in_line = blank.0 == target.0 || blank.1 == target.1;
        if !in_line || distance(blank, target) != 2 || distance(blank, avoid) != 1 || distance(avoid, target) != 1 {
            return false;
        }
        let across = if blank.0 == target.0 { (1, 0) } else { (0, 1) };
        let side = |cell: Cell, plus: bool| {
            if plus {
                Some((cell.0 + across.0, cell.1 + across.1))
            } else {
                Some((cell.0.checked_sub(across.0)?, cell.1.checked_sub(across.1)?))
            }
        };
        let best = [true, false]
            .into_iter()
            .filter_map(|plus| {
                let cells = [side(blank, plus)?, side(avoid, plus)?, side(target, plus)?, target];
                if !cells.iter().all(|&cell| self.is_free(cell, avoid)) {
                    return None;
                }
                let mut from = blank;
                let gain: i32 = cells
                    .iter()
                    .map(|&cell| {
                        let gain = self.gain_between(cell, from);
                        from = cell;
                        gain
                    })
                    .sum();
                Some((gain, cells))
            })
            .max_by_key(|&(gain, _)| gain);
        let Some((_, cells)) = best else { return false };
        for cell in cells {
            self.step(cell);
        }
        true
    }

    /// A shortest route by breadth-first search, first within a window around the blank,
    /// `target` and `avoid`, then over the whole board.
    fn search_route(&mut self, target: Cell, avoid: Cell) -> Result<(), SearchError> {
        let blank = self.blank();
        let rows = [blank.0, target.0, avoid.0.min(self.n - 1)];
        let cols = [blank.1, target.1, avoid.1.min(self.n - 1)];
        let margin = 2;
        let low = |values: [usize; 3]| values.iter().min().map_or(0, |&v| v.saturating_sub(margin));
        let high = |values: [usize; 3]| values.iter().max().map_or(0, |&v| (v + margin).min(self.n - 1));
        let window = ((low(rows), high(rows)), (low(cols), high(cols)));
        for window in [window, ((0, self.n - 1), (0, self.n - 1))] {
            if let Some(route) = self.breadth_first(target, avoid, window) {
                for cell in route {
                    self.step(cell);
                }
                return Ok(());
            }
        }
        Err(SearchError::Internal(format!("no route for the blank from {blank:?} to {target:?}")))
    }

    /// The cells of a shortest route from the blank to `target` inside `window` (inclusive row
    /// and column ranges), the blank's own cell left out.
    fn breadth_first(&self, target: Cell, avoid: Cell, window: ((usize, usize), (usize, usize))) -> Option<Vec<Cell>> {
        let ((top, bottom), (left, right)) = window;
        let width = right - left + 1;
        let slot = |(row, col): Cell| (row - top) * width + (col - left);
        let inside = |(row, col): Cell| (top..=bottom).contains(&row) && (left..=right).contains(&col);
        let start = self.blank();
        let mut came_from = vec![usize::MAX; (bottom - top + 1) * width];
        came_from[slot(start)] = slot(start);
        let mut queue = VecDeque::from([start]);
        while let Some(cell) = queue.pop_front() {
            if cell == target {
                let mut route = vec![cell];
                let mut at = slot(cell);
                while came_from[at] != slot(start) {
                    at = came_from[at];
                    route.push((top + at / width, left + at % width));
                }
                route.reverse();
                return Some(route);
            }
            for next in self.neighbours(cell) {
                if inside(next) && self.is_free(next, avoid) && came_from[slot(next)] == usize::MAX {
                    came_from[slot(next)] = slot(cell);
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Slides `tile` to `target` one cell at a time, each step toward it, bringing the blank
    /// round to the cell ahead without disturbing locked cells. Of the (at most two) steps
    /// toward the target, the one whose cell ahead the blank reaches soonest goes first, so a
    /// tile that must go both across and down climbs a staircase (three moves a cell) rather
    /// than a straight line (five).
    pub fn move_tile(&mut self, tile: u16, target: Cell) -> Result<(), SearchError> {
        loop {
            let at = self.find(tile);
            if at == target {
                return Ok(());
            }
            let blank = self.blank();
            let ahead = self
                .neighbours(at)
                .filter(|&cell| distance(cell, target) < distance(at, target) && self.is_free(cell, NOWHERE))
                .min_by_key(|&cell| detour_distance(blank, cell, at))
                .ok_or_else(|| SearchError::Internal(format!("tile {tile} is walled in at {at:?}")))?;
            self.route(ahead, at)?;
            self.step(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_the_shortest_routes_the_blank_takes_the_one_that_helps_the_tiles_most() {
        let goal: Vec<u16> = (1..16).chain([0]).collect();
        let mut grid = Grid::new(4, &goal);
        // The blank walks up and left: 12 slides down and 11 right, each away from its goal.
        grid.step((2, 3));
        grid.step((2, 2));
        // Back to the corner, two routes are shortest; only the one through (2, 3) undoes both.
        grid.route((3, 3), NOWHERE).expect("a route");
        assert_eq!(grid.tiles(), &goal[..]);
        assert_eq!(grid.path.len(), 4);
    }

    #[test]
    fn round_a_pushed_tile_the_blank_takes_the_side_that_helps_the_tiles_most() {
        // The blank below tile 6 at (1, 1) goes round it to (0, 1): on the right 10, 15, 7 and
        // 3 slide toward their goals; on the left 9, 5, 1 and 3 would slide away from theirs.
        let tiles: Vec<u16> = vec![1, 3, 7, 4, 5, 6, 15, 8, 9, 0, 10, 12, 13, 14, 11, 2];
        let mut grid = Grid::new(4, &tiles);
        grid.route((0, 1), (1, 1)).expect("a route");
        assert_eq!(grid.path.len(), 4);
        assert_eq!(grid.find(6), (1, 1), "the tile in the way stays");
        assert_eq!(grid.find(0), (0, 1));
        assert_eq!(grid.find(3), (0, 2), "3 went right, round the right side");
    }
}
