//! The answer to one board: [`Solution`], a path checked move by move when it is made, with
//! what was proven of it and what the search cost ([`SearchStats`]).

use std::time::Duration;

use super::error::SearchError;
use super::method::Method;
#[cfg(doc)]
use super::options::Options;
use super::options::{Algorithm, Heuristic};
use crate::board::{Board, Direction, Step, tile_to_slide};

/// What a search cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// The algorithm that ran (never `Auto`, except for an unsolvable board, where none ran).
    pub algorithm: Algorithm,
    /// The heuristic that guided it (never `Auto`, except for an unsolvable board).
    pub heuristic: Heuristic,
    /// Nodes expanded.
    pub nodes_expanded: u64,
    /// Nodes generated.
    pub nodes_generated: u64,
    /// The largest frontier (A*) or deepest path (IDA*) seen.
    pub max_frontier: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The method that answered; `None` for an unsolvable board, where none ran.
    pub method: Option<Method>,
}

/// Solutions with more tiles than this in all (moves + 1 boards of N*N tiles) keep no list of
/// boards and steps: [`Solution::boards`] and [`Solution::steps`] are `None` and
/// [`Solution::replay`] gives the boards one at a time. 4 Mi tiles are 8 MB of boards; a
/// 128×128 answer of 3 M moves would be 100 GB.
pub const MAX_LISTED_TILES: usize = 1 << 22;

/// The answer for one board: a path to the goal (the shortest unless [`Options::optimality`]
/// asked otherwise), or the finding that there is none. The path is checked move by move when
/// the solution is made; it is kept as the tiles' directions, and as boards and steps only up
/// to [`MAX_LISTED_TILES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    initial: Board,
    /// The tile direction of each move; empty when unsolvable.
    path: Vec<Direction>,
    /// Initial board .. goal, when small enough to list.
    boards: Option<Vec<Board>>,
    /// One per move, when the boards are listed.
    steps: Option<Vec<Step>>,
    solvable: bool,
    lower_bound: u32,
    stats: SearchStats,
}

impl Solution {
    /// The board that was solved.
    pub fn initial(&self) -> &Board {
        &self.initial
    }

    /// Whether the goal can be reached at all.
    pub fn is_solvable(&self) -> bool {
        self.solvable
    }

    /// The number of moves of this solution (the minimum when [`Solution::is_optimal`]), or -1
    /// when unsolvable (the spec's `moves()`).
    pub fn moves(&self) -> i32 {
        if self.solvable { i32::try_from(self.path.len()).unwrap_or(i32::MAX) } else { -1 }
    }

    /// Whether [`Solution::moves`] is proven minimal.
    pub fn is_optimal(&self) -> bool {
        self.solvable && self.lower_bound as usize == self.path.len()
    }

    /// Proven: no solution is shorter than this (0 when unsolvable).
    pub fn lower_bound(&self) -> u32 {
        self.lower_bound
    }

    /// The boards of the solution, initial to goal (the spec's `solution()`); `None` when
    /// unsolvable, or when there are more than [`MAX_LISTED_TILES`] tiles in all (then
    /// [`Solution::replay`] gives them one at a time).
    pub fn boards(&self) -> Option<&[Board]> {
        self.boards.as_deref()
    }

    /// The moves of the solution, one per step: which tile slid, and where; `None` exactly
    /// when [`Solution::boards`] is.
    pub fn steps(&self) -> Option<&[Step]> {
        self.steps.as_deref()
    }

    /// The tile direction of each move, for every size.
    pub fn directions(&self) -> &[Direction] {
        &self.path
    }

    /// The blank's path, one letter a move: `U` (toward row 0), `D`, `L`, `R`.
    pub fn blank_moves(&self) -> String {
        self.path.iter().map(|&direction| direction.opposite().letter()).collect()
    }

    /// The boards of the solution, initial to goal, made one at a time: for any size, in
    /// memory for one board.
    pub fn replay(&self) -> impl Iterator<Item = Board> + '_ {
        let mut board = self.solvable.then(|| self.initial.clone());
        let mut moves = self.path.iter();
        std::iter::from_fn(move || {
            let current = board.take()?;
            board = moves.next().and_then(|&direction| current.slide(direction)).map(|(next, _)| next);
            Some(current)
        })
    }

    /// What the search cost.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    pub(crate) fn unsolvable(initial: &Board) -> Solution {
        Solution {
            initial: initial.clone(),
            path: Vec::new(),
            boards: None,
            steps: None,
            solvable: false,
            lower_bound: 0,
            stats: SearchStats::default(),
        }
    }

    /// Replays `path` from `initial` in place, failing if a move is illegal or the end is not
    /// the goal; lists the boards and steps when they are small enough. `lower_bound` is what
    /// the search proved (raised to the root's Manhattan distance if lower, never above the
    /// path's length).
    pub(crate) fn from_path(
        initial: &Board,
        path: Vec<Direction>,
        lower_bound: u32,
        stats: SearchStats,
    ) -> Result<Solution, SearchError> {
        let n = initial.dimension();
        let mut tiles = initial.tiles().to_vec();
        let mut blank = initial.blank_index();
        for (index, &direction) in path.iter().enumerate() {
            let from = tile_to_slide(n, blank, direction)
                .ok_or_else(|| SearchError::Internal(format!("move {index} ({direction}) of the path is illegal")))?;
            tiles.swap(from, blank);
            blank = from;
        }
        let goal = tiles.len() - 1;
        if tiles[goal] != 0 || tiles[..goal].iter().enumerate().any(|(cell, &tile)| usize::from(tile) != cell + 1) {
            return Err(SearchError::Internal("the path does not end at the goal".into()));
        }
        let lower_bound = lower_bound.max(initial.manhattan()).min(path.len() as u32);
        let mut solution =
            Solution { initial: initial.clone(), path, boards: None, steps: None, solvable: true, lower_bound, stats };
        if (solution.path.len() + 1).saturating_mul(n * n) <= MAX_LISTED_TILES {
            let mut boards = Vec::with_capacity(solution.path.len() + 1);
            let mut steps = Vec::with_capacity(solution.path.len());
            let mut board = initial.clone();
            for &direction in &solution.path {
                let (next, step) = board
                    .slide(direction)
                    .ok_or_else(|| SearchError::Internal("the replayed path left the board".into()))?;
                boards.push(std::mem::replace(&mut board, next));
                steps.push(step);
            }
            boards.push(board);
            solution.boards = Some(boards);
            solution.steps = Some(steps);
        }
        Ok(solution)
    }
}
