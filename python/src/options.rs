//! The keyword arguments every solve takes (`optimality`, `time_limit`, `weight`) as the
//! library's [`Options`], checked the way the library checks them, with its names and words in
//! the ValueError when they are wrong.

use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use npuzzle::solver::{MAX_WEIGHT, Optimality};
use npuzzle::{Options, Solver};

/// `optimality`, `time_limit` (seconds) and `weight` as [`Options`]; `weight` alone implies
/// `"bounded"`, as it does on the command line.
pub fn options(optimality: Option<&str>, time_limit: Option<f64>, weight: Option<f64>) -> PyResult<Options> {
    let optimality = match (optimality, weight) {
        (Some(name), _) => name.parse::<Optimality>().map_err(|error| PyValueError::new_err(error.to_string()))?,
        (None, Some(_)) => Optimality::Bounded,
        (None, None) => Optimality::Minimum,
    };
    if let Some(weight) = weight
        && !(weight.is_finite() && weight > 1.0 && weight <= MAX_WEIGHT)
    {
        return Err(PyValueError::new_err(format!("weight {weight} is not above 1 and at most {MAX_WEIGHT}")));
    }
    let defaults = Options::default();
    let max_search_time = match time_limit {
        None => defaults.max_search_time,
        Some(seconds) => {
            Some(Duration::try_from_secs_f64(seconds).ok().filter(|limit| !limit.is_zero()).ok_or_else(|| {
                PyValueError::new_err(format!("time_limit {seconds} is not a positive number of seconds"))
            })?)
        }
    };
    let options = Options { optimality, weight, max_search_time, ..defaults };
    // The library's own check of the combination (bounded needs a weight, and only bounded takes
    // one), before any table is loaded for it.
    Solver::new().plan(3, &options).map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(options)
}
