//! `npuzzle` for Python: npuzzle's search core (the library built without its service) as an
//! extension module, so Python code solves boards in-process with no server. One concern a
//! file: `board` (the `Board` class and random boards), `options` (the keyword arguments as
//! the library's `Options`), `tables` (the pattern databases from the binaries' cache),
//! `interrupt` (searching without the GIL while Ctrl-C still stops it), `solve` (one board)
//! and `many` (an array of boards on several threads).

mod board;
mod interrupt;
mod many;
mod options;
mod solve;
mod tables;

use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

create_exception!(
    npuzzle,
    SearchError,
    PyRuntimeError,
    "A search that ended without an answer: a time, node or memory budget spent, or stopped."
);
create_exception!(
    npuzzle,
    TablesMissing,
    PyRuntimeError,
    "The pattern databases a board needs are not built, and building them was not allowed."
);

/// Optimal sliding-tile puzzle solutions from npuzzle's search core.
#[pymodule]
#[pyo3(name = "npuzzle")]
fn npuzzle_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<board::Board>()?;
    module.add_class::<solve::Solution>()?;
    module.add_class::<many::Labels>()?;
    module.add_function(wrap_pyfunction!(board::random_board, module)?)?;
    module.add_function(wrap_pyfunction!(solve::solve, module)?)?;
    module.add_function(wrap_pyfunction!(many::solve_many, module)?)?;
    module.add_function(wrap_pyfunction!(tables::cache_dir, module)?)?;
    module.add("SearchError", py.get_type::<SearchError>())?;
    module.add("TablesMissing", py.get_type::<TablesMissing>())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
