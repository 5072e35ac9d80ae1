//! The pattern databases, from the same cache directory as the binaries (`NPUZZLE_CACHE_DIR`,
//! else `$XDG_CACHE_HOME/npuzzle`, else `~/.cache/npuzzle`), loaded once per process and
//! shared by every solve. 4×4 boards get 7-8 when it is cached, else 6-6-3 (built there in
//! seconds the first time). The 5×5 tables take minutes and gigabytes to build: a solve that
//! needs them and does not find them raises `TablesMissing`, saying what a build costs, unless
//! `build_tables=True` allows it (which warns first); an anytime or fast solve goes on without
//! them, after a warning.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyOSError, PyUserWarning};
use pyo3::prelude::*;

use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::{Optimality, Options, Partition, PatternDatabases, wants_pattern_databases};

use crate::TablesMissing;

/// The tables loaded so far, one set per board side.
static LOADED: Mutex<Vec<Arc<PatternDatabases>>> = Mutex::new(Vec::new());

/// The directory the pattern databases are read from (and built into).
#[pyfunction]
pub fn cache_dir() -> PyResult<PathBuf> {
    npuzzle::solver::cache_dir(None).map_err(|error| PyOSError::new_err(error.to_string()))
}

/// The board sides whose tables a solve of a `dimension` board with `options` reads: its own
/// side for the optimal methods, and for fast and anytime every table side up to its own.
fn sides(dimension: usize, options: &Options) -> Vec<usize> {
    match options.optimality {
        Optimality::Fast | Optimality::Anytime => [4, 5].into_iter().filter(|&side| side <= dimension).collect(),
        _ => Vec::from_iter(
            wants_pattern_databases(dimension, options.algorithm, options.heuristic).then_some(dimension),
        ),
    }
}

/// The tables the solves of `dimensions` boards with `options` use, loaded (or, for 4×4 and
/// with `build` for 5×5, built) the first time. Called with the GIL held, to warn; loads and
/// builds run with it released.
pub fn for_boards(
    py: Python<'_>,
    dimensions: impl IntoIterator<Item = usize>,
    options: &Options,
    build: bool,
) -> PyResult<Vec<Arc<PatternDatabases>>> {
    let mut wanted: Vec<usize> = dimensions.into_iter().flat_map(|dimension| sides(dimension, options)).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut tables = Vec::new();
    for side in wanted {
        let loaded = LOADED.lock().map_err(|_| PyOSError::new_err("the tables' lock was poisoned"))?.clone();
        if let Some(found) = loaded.iter().find(|databases| databases.dimension() == side) {
            tables.push(found.clone());
            continue;
        }
        if let Some(databases) = load(py, side, options, build)? {
            LOADED.lock().map_err(|_| PyOSError::new_err("the tables' lock was poisoned"))?.push(databases.clone());
            tables.push(databases);
        }
    }
    Ok(tables)
}

/// The tables for `side`, from the cache or built; `None` when a solve can go on without them.
fn load(py: Python<'_>, side: usize, options: &Options, build: bool) -> PyResult<Option<Arc<PatternDatabases>>> {
    let dir = cache_dir()?;
    let os_error = |error: npuzzle::solver::PdbError| PyOSError::new_err(error.to_string());
    if side == 4 {
        let (strongest, small) = (Partition::seven_eight(), Partition::six_six_three());
        let dir = dir.clone();
        let loaded = py.detach(move || {
            PatternDatabases::load(&dir.join(file_name(&strongest)), &strongest)
                .map(Arc::new)
                .or_else(|_| PatternDatabases::load_or_build_partition(&dir, &small))
        });
        return loaded.map(Some).map_err(os_error);
    }
    for partition in [Partition::catalogue_of_four(), Partition::catalogue_of_two()] {
        let path = dir.join(file_name(&partition));
        if let Ok(databases) = py.detach(|| PatternDatabases::load(&path, &partition)) {
            return Ok(Some(Arc::new(databases)));
        }
    }
    let partition = Partition::catalogue_of_four();
    let cost = format!(
        "the 5×5 pattern databases ({}, {:.2} GB) are not in {}; building them takes a few minutes once \
         (about two and a half on two cores) and about 2.4 GB of memory",
        partition.sizes(),
        partition.table_bytes() as f64 / 1e9,
        dir.display()
    );
    if build {
        warn(py, &format!("{cost}: building them now (build_tables=True)"))?;
        let built = py.detach(|| PatternDatabases::load_or_build_partition(&dir, &partition));
        return built.map(Some).map_err(os_error);
    }
    match options.optimality {
        Optimality::Fast | Optimality::Anytime => {
            warn(py, &format!("{cost}; solving without them (pass build_tables=True to build them)"))?;
            Ok(None)
        }
        _ => Err(TablesMissing::new_err(format!(
            "{cost}: pass build_tables=True to build them, point NPUZZLE_CACHE_DIR at a cache that has them \
             (npuzzle-server --prepare builds one), or ask for optimality=\"anytime\" with a time_limit"
        ))),
    }
}

/// A `UserWarning` with `message`.
fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let category = py.get_type::<PyUserWarning>();
    PyErr::warn(py, &category, &std::ffi::CString::new(message).unwrap_or_default(), 1)
}
