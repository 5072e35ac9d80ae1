//! `npuzzle.solve_many`: a NumPy array of boards, shape (k, N*N), solved on `threads` threads
//! (one board each at a time, no helpers) with the GIL released, answered as arrays in the
//! boards' order: `npuzzle.Labels`. A board whose search fails keeps -1 and its error, and the
//! rest go on; Ctrl-C stops them all.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use npuzzle::solver::{NoProgress, SearchError as LibrarySearchError, Stop};
use npuzzle::{Board as LibraryBoard, Solution as LibrarySolution, Solver};

use crate::board::board_from_tiles;
use crate::{interrupt, options, tables};

/// The answers for an array of boards, each field in the boards' order.
#[pyclass(module = "npuzzle", frozen, get_all)]
pub struct Labels {
    /// Moves of each answer (int32); -1 for an unsolvable board or a failed search.
    pub moves: Py<PyArray1<i32>>,
    /// Whether each answer is proven optimal (bool).
    pub optimal: Py<PyArray1<bool>>,
    /// The proven lower bound of each board (uint32; 0 when unsolvable or failed).
    pub lower_bound: Py<PyArray1<u32>>,
    /// Whether each board can be solved at all (bool).
    pub solvable: Py<PyArray1<bool>>,
    /// Nodes expanded for each board (uint64).
    pub nodes: Py<PyArray1<u64>>,
    /// Search seconds for each board (float64).
    pub seconds: Py<PyArray1<f64>>,
    /// The blank's moves of each answer (None when unsolvable or failed), if asked for.
    pub paths: Option<Vec<Option<String>>>,
    /// The error of each failed search, None for the others.
    pub errors: Vec<Option<String>>,
}

/// Solves each row of `boards` (shape (k, N*N), whole numbers) with the options of `solve` on
/// `threads` threads [default: one per core], and returns the answers as arrays (`Labels`);
/// `paths=True` keeps the blank's moves too. A bad row raises ValueError naming it before any
/// search.
#[pyfunction]
#[pyo3(signature = (
    boards, optimality = None, time_limit = None, weight = None, *, threads = None, paths = false, build_tables = false
))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many(
    py: Python<'_>,
    boards: PyReadonlyArray2<'_, i64>,
    optimality: Option<&str>,
    time_limit: Option<f64>,
    weight: Option<f64>,
    threads: Option<usize>,
    paths: bool,
    build_tables: bool,
) -> PyResult<Labels> {
    let array = boards.as_array();
    let mut parsed = Vec::with_capacity(array.nrows());
    for (index, row) in array.rows().into_iter().enumerate() {
        let tiles = row
            .iter()
            .map(|&tile| {
                u16::try_from(tile)
                    .map_err(|_| PyValueError::new_err(format!("board {index}: tile {tile} is out of range")))
            })
            .collect::<PyResult<Vec<u16>>>()?;
        parsed.push(
            board_from_tiles(&tiles)
                .map_err(|error| PyValueError::new_err(format!("board {index}: {}", error.value(py))))?,
        );
    }
    let options = options::options(optimality, time_limit, weight)?;
    let dimensions = parsed.iter().map(LibraryBoard::dimension);
    let solver = Solver::new().with_pattern_databases(tables::for_boards(py, dimensions, &options, build_tables)?);
    let threads =
        threads.unwrap_or_else(|| thread::available_parallelism().map_or(1, usize::from)).clamp(1, parsed.len().max(1));
    let solvable = parsed.iter().map(LibraryBoard::is_solvable).collect();
    let stop = Stop::new();
    let searching = stop.clone();
    let answers = interrupt::run(py, &stop, move || solve_all(&solver, &parsed, &options, threads, &searching))?;
    Ok(labels(py, &answers, solvable, paths))
}

type Answer = Result<LibrarySolution, LibrarySearchError>;

/// Every board solved by `threads` threads, each taking the next board not yet taken.
fn solve_all(
    solver: &Solver,
    boards: &[LibraryBoard],
    options: &npuzzle::Options,
    threads: usize,
    stop: &Stop,
) -> Vec<Answer> {
    let next = AtomicUsize::new(0);
    let answers: Vec<Mutex<Option<Answer>>> = boards.iter().map(|_| Mutex::new(None)).collect();
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(board) = boards.get(index) else { break };
                    let answer = solver.solve(board, options, &mut NoProgress, stop);
                    if let Ok(mut slot) = answers[index].lock() {
                        *slot = Some(answer);
                    }
                }
            });
        }
    });
    answers
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err(LibrarySearchError::Internal("a search thread panicked".into())))
        })
        .collect()
}

/// The answers as arrays, with each board's solvability.
fn labels(py: Python<'_>, answers: &[Answer], solvable: Vec<bool>, paths: bool) -> Labels {
    let solved = || answers.iter().map(|answer| answer.as_ref().ok());
    Labels {
        moves: PyArray1::from_vec(py, solved().map(|s| s.map_or(-1, LibrarySolution::moves)).collect()).unbind(),
        optimal: PyArray1::from_vec(py, solved().map(|s| s.is_some_and(LibrarySolution::is_optimal)).collect())
            .unbind(),
        lower_bound: PyArray1::from_vec(py, solved().map(|s| s.map_or(0, LibrarySolution::lower_bound)).collect())
            .unbind(),
        solvable: PyArray1::from_vec(py, solvable).unbind(),
        nodes: PyArray1::from_vec(py, solved().map(|s| s.map_or(0, |s| s.stats().nodes_expanded)).collect()).unbind(),
        seconds: PyArray1::from_vec(py, solved().map(|s| s.map_or(0.0, |s| s.stats().elapsed.as_secs_f64())).collect())
            .unbind(),
        paths: paths
            .then(|| solved().map(|s| s.filter(|s| s.is_solvable()).map(LibrarySolution::blank_moves)).collect()),
        errors: answers.iter().map(|answer| answer.as_ref().err().map(ToString::to_string)).collect(),
    }
}
