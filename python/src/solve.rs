//! `npuzzle.solve`: one board solved as `optimality` asks, in this process, the GIL released
//! while it searches; and `npuzzle.Solution`, the answer: moves, whether they are proven
//! optimal, the proven lower bound, the blank's path and what the search cost.

use pyo3::prelude::*;
use pyo3::types::{PyAny, PyDict};

use npuzzle::solver::{Helpers, NoProgress, SearchError as LibrarySearchError, Stop};
use npuzzle::{Solution as LibrarySolution, Solver};

use crate::board::{Board, board_from};
use crate::{SearchError, interrupt, options, tables};

/// The answer for one board.
#[pyclass(module = "npuzzle", frozen, get_all)]
pub struct Solution {
    /// The board that was solved.
    pub board: Board,
    /// The number of moves; -1 when the board is unsolvable.
    pub moves: i32,
    /// Whether `moves` is proven to be the minimum (False for an unsolvable board).
    pub optimal: bool,
    /// Proven: no solution is shorter than this (0 for an unsolvable board).
    pub lower_bound: u32,
    /// The blank's moves, one letter each: U (toward row 0), D, L, R; None when unsolvable.
    pub path: Option<String>,
    /// Nodes the search expanded.
    pub nodes: u64,
    /// The search's wall time in seconds.
    pub seconds: f64,
    /// What the search cost: `method`, `algorithm` and `heuristic` (what ran; `None`, `"auto"`
    /// for an unsolvable board), `nodes_expanded`, `nodes_generated`, `max_frontier` and
    /// `seconds`.
    pub stats: Py<PyDict>,
}

impl Solution {
    /// The library's answer as the Python class.
    pub fn from_library(py: Python<'_>, solution: &LibrarySolution) -> PyResult<Solution> {
        let stats = solution.stats();
        let described = PyDict::new(py);
        described.set_item("method", stats.method.map(|method| format!("{method:?}")))?;
        described.set_item("algorithm", stats.algorithm.to_string())?;
        described.set_item("heuristic", stats.heuristic.to_string())?;
        described.set_item("nodes_expanded", stats.nodes_expanded)?;
        described.set_item("nodes_generated", stats.nodes_generated)?;
        described.set_item("max_frontier", stats.max_frontier)?;
        described.set_item("seconds", stats.elapsed.as_secs_f64())?;
        Ok(Solution {
            board: Board(solution.initial().clone()),
            moves: solution.moves(),
            optimal: solution.is_optimal(),
            lower_bound: solution.lower_bound(),
            path: solution.is_solvable().then(|| solution.blank_moves()),
            nodes: stats.nodes_expanded,
            seconds: stats.elapsed.as_secs_f64(),
            stats: described.unbind(),
        })
    }
}

#[pymethods]
impl Solution {
    /// Whether the goal can be reached at all.
    #[getter]
    fn solvable(&self) -> bool {
        self.moves >= 0
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution(moves={}, optimal={}, lower_bound={}, path={})",
            self.moves,
            if self.optimal { "True" } else { "False" },
            self.lower_bound,
            self.path.as_ref().map_or("None".to_owned(), |path| format!("'{path}'"))
        )
    }
}

/// A failed search as the Python exception that says it, with the library's message.
pub fn search_error(error: &LibrarySearchError) -> PyErr {
    SearchError::new_err(error.to_string())
}

/// Solves `tiles` (a Board, N*N numbers flat or in rows, or a 1-D array) as `optimality` asks:
/// "minimum" (proven shortest, the default), "bounded" (at most `weight` times the minimum),
/// "fast" (any valid path) or "anytime" (the best found by `time_limit` seconds, with its proven
/// lower bound). ValueError for a bad board or option, SearchError when a budget runs out,
/// TablesMissing for a 5×5 board whose tables are not built (unless `build_tables`).
#[pyfunction]
#[pyo3(signature = (tiles, optimality = None, time_limit = None, weight = None, *, build_tables = false))]
pub fn solve(
    py: Python<'_>,
    tiles: &Bound<'_, PyAny>,
    optimality: Option<&str>,
    time_limit: Option<f64>,
    weight: Option<f64>,
    build_tables: bool,
) -> PyResult<Solution> {
    let board = board_from(tiles)?;
    let options = options::options(optimality, time_limit, weight)?;
    let tables = tables::for_boards(py, [board.dimension()], &options, build_tables)?;
    let solver = Solver::new().with_pattern_databases(tables).with_helpers(Helpers::all_cores());
    let stop = Stop::new();
    let searching = stop.clone();
    let answer = interrupt::run(py, &stop, move || solver.solve(&board, &options, &mut NoProgress, &searching))?;
    Solution::from_library(py, &answer.map_err(|error| search_error(&error))?)
}
