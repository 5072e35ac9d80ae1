//! `npuzzle.Board`: a position, built from tiles (flat, in rows, or a NumPy array) or the
//! spec's text, with the library's distances, neighbours and solvability; and
//! `npuzzle.random_board`, the library's seeded random solvable boards. A list of tiles that is
//! not a board raises ValueError with the library's message.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyAny;

use npuzzle::random::{Rng, random_board as library_random_board};
use npuzzle::{Board as LibraryBoard, text};

/// An N×N sliding-tile position: tiles row-major, 0 for the blank; the goal is 1..N*N-1 then
/// the blank.
#[pyclass(module = "npuzzle", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board(pub LibraryBoard);

/// The board `tiles` stands for: a `Board`, N*N numbers (a list, a tuple, a 1-D array) or N
/// rows of N.
pub fn board_from(tiles: &Bound<'_, PyAny>) -> PyResult<LibraryBoard> {
    if let Ok(board) = tiles.cast::<Board>() {
        return Ok(board.get().0.clone());
    }
    let flat: Vec<u16> = match tiles.extract::<Vec<u16>>() {
        Ok(flat) => flat,
        Err(_) => match tiles.extract::<Vec<Vec<u16>>>() {
            Ok(rows) => rows.concat(),
            Err(_) => {
                return Err(PyValueError::new_err(
                    "tiles must be N*N whole numbers from 0 to N*N-1, flat or in N rows of N",
                ));
            }
        },
    };
    board_from_tiles(&flat)
}

/// The board of `tiles`, N*N of them, row-major.
pub fn board_from_tiles(tiles: &[u16]) -> PyResult<LibraryBoard> {
    let side = tiles.len().isqrt();
    if side * side != tiles.len() {
        return Err(PyValueError::new_err(format!(
            "{} tiles is not a board: an N×N board has N*N tiles (9, 16, 25...)",
            tiles.len()
        )));
    }
    LibraryBoard::new(side, tiles).map_err(|error| PyValueError::new_err(error.to_string()))
}

#[pymethods]
impl Board {
    /// A board from `tiles`: N*N numbers, flat or in N rows of N, 0 for the blank.
    #[new]
    fn new(tiles: &Bound<'_, PyAny>) -> PyResult<Board> {
        Ok(Board(board_from(tiles)?))
    }

    /// A board from the spec's text: N, then the N*N tiles.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Board> {
        text::parse_board(text).map(Board).map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// The goal board of side `n`.
    #[staticmethod]
    fn goal(n: usize) -> PyResult<Board> {
        LibraryBoard::goal(n).map(Board).map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// N, the board's side.
    #[getter]
    fn dimension(&self) -> usize {
        self.0.dimension()
    }

    /// The tiles, row-major, 0 for the blank.
    #[getter]
    fn tiles(&self) -> Vec<u16> {
        self.0.tiles().to_vec()
    }

    /// The sum of every tile's distance from its goal cell.
    fn manhattan(&self) -> u32 {
        self.0.manhattan()
    }

    /// The number of tiles not on their goal cell.
    fn hamming(&self) -> u32 {
        self.0.hamming()
    }

    /// Whether this is the goal.
    fn is_goal(&self) -> bool {
        self.0.is_goal()
    }

    /// Whether the goal can be reached (by the inversions' parity).
    fn is_solvable(&self) -> bool {
        self.0.is_solvable()
    }

    /// The boards one slide away.
    fn neighbors(&self) -> Vec<Board> {
        self.0.neighbors().map(Board).collect()
    }

    fn __repr__(&self) -> String {
        format!("Board({:?})", self.0.tiles())
    }

    /// The spec's text: N, then the rows.
    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

/// A random solvable board of side `n`, the same for the same seed.
#[pyfunction]
#[pyo3(signature = (n, seed = 0))]
pub fn random_board(n: usize, seed: u64) -> PyResult<Board> {
    library_random_board(n, &mut Rng::new(seed)).map(Board).map_err(|error| PyValueError::new_err(error.to_string()))
}
