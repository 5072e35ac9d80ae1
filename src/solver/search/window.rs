//! Windows of a path searched again: the moves between two boards of the path replaced by a
//! shortest sequence between the same two boards, where one is found within a small search.
//!
//! A window of `w` moves changes only the cells its blank visits, so the two boards agree
//! everywhere else. The window's box is the smallest rectangle holding those cells, grown by
//! one cell each side (clipped to the board) for the blank to route round; within the box,
//! IDA* with the Manhattan distance to where each tile stands at the window's end searches
//! for a sequence of fewer than `w` moves, within [`WINDOW_NODES`] expansions. Each search
//! reads only its box, so a window costs the same on a 128×128 board as on a 6×6, and the
//! path is walked once a pass, never copied board by board.

use std::time::{Duration, Instant};

use crate::board::{Direction, tile_to_slide_in};
use crate::solver::error::SearchError;
use crate::solver::meter::Meter;

/// The first windows' length, in moves; each pass that shortens nothing makes them half as
/// long again, up to [`LONGEST_WINDOW`].
pub const FIRST_WINDOW: usize = 12;

/// The longest windows searched.
pub const LONGEST_WINDOW: usize = 80;

/// The expansions each window's search may take; one that needs more keeps its moves.
pub const WINDOW_NODES: u64 = 200_000;

/// The largest box searched, in cells: a larger one is left as it is (the blank wandered far
/// in few moves, which a short window rarely shows).
const MAX_BOX_CELLS: usize = 200;

/// What a pass hands its shortened path to.
pub type Report<'r> = dyn FnMut(&[Direction], &mut Meter<'_>) -> Result<(), SearchError> + 'r;

/// One pass over `path` (tile directions from the board `tiles`, `n` wide) in windows of
/// `width` moves, each starting `width / 2` moves after the one before: every window that a
/// shorter sequence can replace is replaced. The path is a valid path to the goal after every
/// window, so a pass stopped by the meter's clock leaves it usable; `report` is handed it,
/// shortened, at most every `every` while the pass runs. Returns whether the path got shorter.
pub fn pass(
    n: usize,
    tiles: &[u16],
    path: &mut Vec<Direction>,
    width: usize,
    meter: &mut Meter<'_>,
    every: Duration,
    report: &mut Report<'_>,
) -> Result<bool, SearchError> {
    let mut reported = (Instant::now(), path.len());
    let mut board = tiles.to_vec();
    let mut blank = board.iter().position(|&tile| tile == 0).ok_or_else(no_blank)?;
    let step = (width / 2).max(1);
    let mut start = 0;
    let mut shortened = false;
    while start < path.len() {
        let end = (start + width).min(path.len());
        if end - start >= 2
            && let Some(shorter) = window(n, &board, blank, &path[start..end], meter)?
        {
            path.splice(start..end, shorter);
            shortened = true;
            if reported.0.elapsed() >= every && path.len() < reported.1 {
                report(path, meter)?;
                reported = (Instant::now(), path.len());
            }
        }
        let next = (start + step).min(path.len());
        for &direction in &path[start..next] {
            blank = slide(n, n, &mut board, blank, direction)
                .ok_or_else(|| SearchError::Internal("a path leaves the board".into()))?;
        }
        start = next;
    }
    Ok(shortened)
}

fn no_blank() -> SearchError {
    SearchError::Internal("a board of the path has no blank".into())
}

/// Slides the tile that moves `direction` on `board` (`rows` × `cols`, blank at `blank`) and
/// returns where the blank is then; `None` when no tile can.
fn slide(rows: usize, cols: usize, board: &mut [u16], blank: usize, direction: Direction) -> Option<usize> {
    let from = tile_to_slide_in(rows, cols, blank, direction)?;
    board.swap(from, blank);
    Some(from)
}

/// A sequence shorter than `moves` from `board` (blank at `blank`) to where `moves` lead, if
/// the window's search finds one.
fn window(
    n: usize,
    board: &[u16],
    blank: usize,
    moves: &[Direction],
    meter: &mut Meter<'_>,
) -> Result<Option<Vec<Direction>>, SearchError> {
    let Some(area) = Area::around(n, blank, moves) else {
        return Ok(None);
    };
    let mut start = area.cut(n, board);
    let mut end = start.clone();
    let mut inner = area.index(n, blank);
    for &direction in moves {
        inner = slide(area.rows, area.cols, &mut end, inner, direction).ok_or_else(no_box)?;
    }
    // Each tile is labelled by its cell at the window's end: that end is then the goal of a
    // box whose tile `label` belongs at cell `label - 1`.
    let mut at_end: Vec<(u16, u16)> = end.iter().enumerate().map(|(cell, &tile)| (tile, cell as u16 + 1)).collect();
    at_end.sort_unstable();
    for tile in start.iter_mut().filter(|tile| **tile != 0) {
        let found = at_end.binary_search_by_key(tile, |&(tile, _)| tile).map_err(|_| no_box())?;
        *tile = at_end[found].1;
    }
    let mut search = BoxSearch::new(area.rows, area.cols, start);
    // Two paths between the same boards differ in length by an even number of moves.
    // The window's own allowance running out gives up on the window; the pass's ends the pass.
    Ok(meter.within_node_allowance(WINDOW_NODES, |meter| search.shortest(moves.len() - 2, meter))?.flatten())
}

fn no_box() -> SearchError {
    SearchError::Internal("a window's moves leave its box".into())
}

/// A window's box: the rectangle of rows `top..top + rows` and columns `left..left + cols`.
struct Area {
    top: usize,
    left: usize,
    rows: usize,
    cols: usize,
}

impl Area {
    /// The cells the blank visits from `blank` along `moves`, grown by one cell a side;
    /// `None` when that is larger than [`MAX_BOX_CELLS`].
    fn around(n: usize, blank: usize, moves: &[Direction]) -> Option<Area> {
        let (mut row, mut col) = (blank / n, blank % n);
        let (mut top, mut bottom, mut left, mut right) = (row, row, col, col);
        for &direction in moves {
            // The blank moves against the tile.
            match direction {
                Direction::Up => row += 1,
                Direction::Down => row = row.checked_sub(1)?,
                Direction::Left => col += 1,
                Direction::Right => col = col.checked_sub(1)?,
            }
            (top, bottom, left, right) = (top.min(row), bottom.max(row), left.min(col), right.max(col));
        }
        let (top, left) = (top.saturating_sub(1), left.saturating_sub(1));
        let (bottom, right) = ((bottom + 1).min(n - 1), (right + 1).min(n - 1));
        let area = Area { top, left, rows: bottom - top + 1, cols: right - left + 1 };
        (area.rows * area.cols <= MAX_BOX_CELLS).then_some(area)
    }

    /// The box's tiles, row by row.
    fn cut(&self, n: usize, board: &[u16]) -> Vec<u16> {
        (self.top..self.top + self.rows)
            .flat_map(|row| board[row * n + self.left..row * n + self.left + self.cols].iter().copied())
            .collect()
    }

    /// The box's index of the board's cell `cell`.
    fn index(&self, n: usize, cell: usize) -> usize {
        (cell / n - self.top) * self.cols + cell % n - self.left
    }
}

/// IDA* inside a box whose goal puts tile `label` at cell `label - 1`.
struct BoxSearch {
    rows: usize,
    cols: usize,
    tiles: Vec<u16>,
    blank: usize,
    path: Vec<Direction>,
}

impl BoxSearch {
    fn new(rows: usize, cols: usize, tiles: Vec<u16>) -> BoxSearch {
        let blank = tiles.iter().position(|&tile| tile == 0).unwrap_or(0);
        BoxSearch { rows, cols, tiles, blank, path: Vec::new() }
    }

    /// How far `tile` at `cell` is from its goal cell.
    fn distance(&self, tile: u16, cell: usize) -> u32 {
        let goal = usize::from(tile) - 1;
        ((goal / self.cols).abs_diff(cell / self.cols) + (goal % self.cols).abs_diff(cell % self.cols)) as u32
    }

    /// A shortest sequence of at most `limit` moves to the goal, if there is one.
    fn shortest(&mut self, limit: usize, meter: &mut Meter<'_>) -> Result<Option<Vec<Direction>>, SearchError> {
        let h: u32 = (0..self.tiles.len())
            .filter(|&cell| self.tiles[cell] != 0)
            .map(|cell| self.distance(self.tiles[cell], cell))
            .sum();
        let mut bound = h;
        while bound as usize <= limit {
            match self.dfs(0, h, bound, None, meter)? {
                None => return Ok(Some(std::mem::take(&mut self.path))),
                Some(next) => bound = next,
            }
        }
        Ok(None)
    }

    /// Depth-first below `g` moves with distance `h`: `None` when the goal is reached (the
    /// moves are in `path`), else the least f that passed `bound`.
    fn dfs(
        &mut self,
        g: u32,
        h: u32,
        bound: u32,
        last: Option<Direction>,
        meter: &mut Meter<'_>,
    ) -> Result<Option<u32>, SearchError> {
        if h == 0 {
            return Ok(None);
        }
        meter.expand(0, || 0)?;
        let mut least = u32::MAX;
        for direction in Direction::ALL {
            if last == Some(direction.opposite()) {
                continue;
            }
            let Some(from) = tile_to_slide_in(self.rows, self.cols, self.blank, direction) else {
                continue;
            };
            let tile = self.tiles[from];
            let child = h + self.distance(tile, self.blank) - self.distance(tile, from);
            let f = g + 1 + child;
            if f > bound {
                least = least.min(f);
                continue;
            }
            self.tiles.swap(from, self.blank);
            let blank = std::mem::replace(&mut self.blank, from);
            self.path.push(direction);
            let Some(below) = self.dfs(g + 1, child, bound, Some(direction), meter)? else {
                return Ok(None);
            };
            self.path.pop();
            self.blank = blank;
            self.tiles.swap(from, self.blank);
            least = least.min(below);
        }
        Ok(Some(least))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Heuristic, Options};
    use crate::solver::progress::{NoProgress, Stop};

    /// The blank's walk round the 2×2 block in the bottom-right corner: twelve moves that
    /// bring a board back to itself.
    fn round_the_block() -> Vec<Direction> {
        [Direction::Down, Direction::Right, Direction::Up, Direction::Left].repeat(3)
    }

    fn run_pass(tiles: &[u16], path: &mut Vec<Direction>, width: usize) -> bool {
        let plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::Manhattan, method: Method::Anytime };
        let (mut progress, stop) = (NoProgress, Stop::new());
        let mut meter = Meter::new(&Options::default(), plan, 4, &mut progress, &stop);
        let mut report = |_: &[Direction], _: &mut Meter<'_>| Ok(());
        pass(4, tiles, path, width, &mut meter, Duration::ZERO, &mut report).expect("a pass")
    }

    #[test]
    fn a_window_that_comes_back_to_its_board_is_cut_out() {
        let goal = Board::goal(4).expect("a goal");
        let mut path = round_the_block();
        assert!(run_pass(goal.tiles(), &mut path, 12));
        assert!(path.is_empty(), "{path:?}");
    }

    #[test]
    fn a_shortened_path_still_ends_where_the_old_one_did() {
        let goal = Board::goal(4).expect("a goal");
        // Away from the goal and back, with a detour: the windows may only shorten it.
        let mut path = vec![Direction::Down, Direction::Down, Direction::Right];
        path.extend(round_the_block());
        path.extend([Direction::Left, Direction::Up, Direction::Up]);
        let before = path.len();
        run_pass(goal.tiles(), &mut path, 12);
        assert!(path.len() < before);
        let mut board = goal.clone();
        for &direction in &path {
            board = board.slide(direction).expect("a legal move").0;
        }
        assert_eq!(board, goal);
    }
}
