//! Placing one line of the unsolved region: its tiles one by one, then its last two together.
//!
//! A line is a row of the [`Grid`]'s current view (a column is a row of the transposed view).
//! All but the last two tiles go straight to their cells. The last two cannot: whichever went
//! first would be in the way of the second. So the second-to-last goes to the corner, the last
//! comes near, and a breadth-first search over the 3×3 window at the line's end (the blank, the
//! two tiles, the rest as interchangeable) finishes both; it has at most 9 × 8 × 7 states.

use std::collections::VecDeque;

use super::work_board::{Cell, Grid, NOWHERE, distance};
use crate::solver::error::SearchError;

/// Places the cells `(row, start..n)` of the current view, which must have at least three rows
/// from `row` down and three cells from `start`, and locks them. Cells above `row` and left of
/// `start` in those rows are already locked.
pub fn place(grid: &mut Grid, row: usize, start: usize) -> Result<(), SearchError> {
    let n = grid.n();
    for col in start..n - 2 {
        let cell = (row, col);
        grid.move_tile(grid.goal_tile(cell), cell)?;
        grid.lock(cell, true);
    }
    last_two(grid, row)?;
    grid.lock((row, n - 2), true);
    grid.lock((row, n - 1), true);
    Ok(())
}

/// The cells of the window at the end of `row` the blank may use: three rows from `row`, the
/// last three columns, locked cells left out.
fn window(grid: &Grid, row: usize) -> Vec<Cell> {
    let n = grid.n();
    (row..row + 3).flat_map(|r| (n - 3..n).map(move |c| (r, c))).filter(|&cell| grid.is_free(cell, NOWHERE)).collect()
}

/// Places the last two cells of `row`.
fn last_two(grid: &mut Grid, row: usize) -> Result<(), SearchError> {
    let n = grid.n();
    let (first, last) = ((row, n - 2), (row, n - 1));
    let (a, b) = (grid.goal_tile(first), grid.goal_tile(last));
    if grid.find(a) == first && grid.find(b) == last {
        return Ok(());
    }
    grid.move_tile(a, last)?;
    grid.lock(last, true);
    let in_window = |cell: Cell| cell.0 < row + 3 && cell.1 + 3 >= n;
    if !in_window(grid.find(b)) {
        // The cell left of the corner is a dead end while the corner is locked: leave it, and
        // keep the blank out of it while the last tile comes.
        if grid.blank() == first {
            grid.step((row + 1, n - 2));
        }
        grid.lock(first, true);
        grid.move_tile(b, (row + 1, n - 1))?;
        grid.lock(first, false);
    }
    let b_at = grid.find(b);
    grid.lock(b_at, true);
    if !in_window(grid.blank()) {
        let blank = grid.blank();
        let nearest = window(grid, row).into_iter().min_by_key(|&cell| distance(cell, blank));
        let nearest = nearest.ok_or_else(|| SearchError::Internal("the window at the end of a row is full".into()))?;
        grid.route(nearest, NOWHERE)?;
    }
    grid.lock(b_at, false);
    grid.lock(last, false);
    finish_window(grid, row, (a, first), (b, last))
}

/// Breadth-first search over the window for the blank's moves that bring both tiles home.
fn finish_window(
    grid: &mut Grid,
    row: usize,
    (a, a_home): (u16, Cell),
    (b, b_home): (u16, Cell),
) -> Result<(), SearchError> {
    let cells = window(grid, row);
    let k = cells.len();
    let slot = |cell: Cell| cells.iter().position(|&c| c == cell);
    let missing = || SearchError::Internal("a tile left the window at the end of a row".into());
    let start = [grid.find(a), grid.find(b), grid.blank()].map(&slot);
    let [Some(sa), Some(sb), Some(sblank)] = start else { return Err(missing()) };
    let (goal_a, goal_b) = (slot(a_home).ok_or_else(missing)?, slot(b_home).ok_or_else(missing)?);
    let key = |(pa, pb, pblank): (usize, usize, usize)| (pa * k + pb) * k + pblank;
    let mut came_from = vec![usize::MAX; k * k * k];
    let root = key((sa, sb, sblank));
    came_from[root] = root;
    let mut queue = VecDeque::from([(sa, sb, sblank)]);
    while let Some(state @ (pa, pb, pblank)) = queue.pop_front() {
        if pa == goal_a && pb == goal_b {
            let mut blanks = Vec::new();
            let mut at = key(state);
            while at != root {
                blanks.push(at % k);
                at = came_from[at];
            }
            for &blank in blanks.iter().rev() {
                grid.step(cells[blank]);
            }
            return Ok(());
        }
        for (next, &cell) in cells.iter().enumerate() {
            if distance(cell, cells[pblank]) != 1 {
                continue;
            }
            let moved = |p: usize| if p == next { pblank } else { p };
            let child = key((moved(pa), moved(pb), next));
            if came_from[child] == usize::MAX {
                came_from[child] = key(state);
                queue.push_back((moved(pa), moved(pb), next));
            }
        }
    }
    Err(SearchError::Internal("the window at the end of a row has no way to finish it".into()))
}
