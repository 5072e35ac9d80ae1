//! What a solve runs: the [`Method`] that [`Solver::plan`](super::Solver::plan) picks for a
//! board and its request, with the algorithm and heuristic that errors and stats name
//! ([`Plan`]).

use std::fmt;

use super::options::{Algorithm, Heuristic};

/// The side of the boards [`Method::DistanceTable`] answers: every 3×3 board.
pub const DISTANCE_TABLE_DIMENSION: usize = 3;

/// The method a solve runs, picked once before any search starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Every 3×3 board answered from the complete table of distances (`search::distance_table`).
    DistanceTable,
    /// The spec's A*, with Hamming or Manhattan.
    AStar,
    /// IDA*, plain: MINIMUM below 5×5, or when asked for by name with a weaker heuristic.
    IdaStar,
    /// Weighted IDA*: BOUNDED's answers within the weight of the minimum.
    WeightedIdaStar,
    /// MINIMUM from 5×5 up: a FAST path first, then IDA* until its bound reaches the best
    /// length known (`search::minimum`).
    Minimum,
    /// FAST: any valid path, built row by row (`search::constructive`).
    Fast,
    /// ANYTIME: the best path found by the answer time, with the bound proven (`search::anytime`).
    Anytime,
}

/// What [`Solver::solve`](super::Solver::solve) runs for a board: the method, and the
/// algorithm and heuristic it searches with, `Auto` resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// `Auto` only where no single search runs: the 3×3 distance table, FAST and ANYTIME.
    pub algorithm: Algorithm,
    /// `Auto` exactly when the algorithm is.
    pub heuristic: Heuristic,
    /// The method that runs.
    pub method: Method,
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let algorithm = match self.algorithm {
            Algorithm::AStar => "A*",
            Algorithm::IdaStar => "IDA*",
            Algorithm::Auto => "auto",
        };
        write!(f, "{algorithm} with {}", self.heuristic)
    }
}
