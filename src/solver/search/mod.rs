//! The searches behind [`Solver::solve`](super::Solver::solve), one file or folder per
//! method. Every one returns only the tile directions of its path and the lower bound it
//! proved, as a [`PathWithBound`]; [`Solution`](super::Solution) replays and checks them.
//!
//! - `arena`: A*'s states, each stored once: packed words, or one flat vector for large boards.
//! - `astar`: the spec's A*, with previous-board pruning and a closed set.
//! - [`distance_table`]: every 3×3 board answered from a complete table of distances.
//! - `idastar`: IDA* over any [`Estimator`](super::heuristic::Estimator), plain or weighted,
//!   alone or proving a path in hand.
//! - `beam`: beam searches: over moves (up to 5×5), and over a big board's placing stages.
//! - `placing`: a big board's rows and columns placed one by one, FAST's way.
//! - `constructive`: FAST answers for every size: rows and columns placed, the rest searched.
//! - `minimum`: MINIMUM from 5×5 up: FAST's path in hand, IDA* until it proves it.
//! - `anytime`: ANYTIME answers: FAST first, then shorter paths and a proof until the answer
//!   time.
//! - `window`: a path's windows searched again for shorter ones, by ANYTIME and by FAST after
//!   a walk home.

pub(crate) mod anytime;
mod arena;
pub(crate) mod astar;
pub(crate) mod beam;
pub(crate) mod constructive;
pub mod distance_table;
pub(crate) mod idastar;
pub(crate) mod minimum;
mod placing;
#[cfg(test)]
pub(crate) mod samples;
mod window;

use crate::board::Direction;

/// What a search found: a path to the goal and what it proved about the minimum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathWithBound {
    /// The tile direction of each move.
    pub path: Vec<Direction>,
    /// No path is shorter than this.
    pub lower_bound: u32,
}

impl PathWithBound {
    /// A path proven shortest.
    pub fn optimal(path: Vec<Direction>) -> PathWithBound {
        let lower_bound = path.len() as u32;
        PathWithBound { path, lower_bound }
    }
}

/// The weight of weighted IDA* (f = g + w·h), in thousandths so that f stays an integer. It is
/// rounded down, which keeps every answer within the weight asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weight(u64);

impl Weight {
    /// Plain IDA*: f = g + h, and the first path found is a shortest one.
    pub const ONE: Weight = Weight(Weight::SCALE);
    /// Thousandths.
    const SCALE: u64 = 1000;

    /// `weight` (at least 1; larger values are the caller's to cap) in thousandths.
    pub fn new(weight: f64) -> Weight {
        Weight(((weight * Weight::SCALE as f64).floor() as u64).max(Weight::SCALE))
    }

    /// The weight in thousandths, as [`Weight::from_thousandths`] takes it.
    pub fn thousandths(self) -> u64 {
        self.0
    }

    /// The weight of `thousandths` thousandths; `None` under 1, which no search runs with.
    pub fn from_thousandths(thousandths: u64) -> Option<Weight> {
        (thousandths >= Weight::SCALE).then_some(Weight(thousandths))
    }

    /// f in thousandths of a move.
    #[inline]
    pub fn f(self, g: u32, h: u32) -> u64 {
        u64::from(g) * Weight::SCALE + u64::from(h) * self.0
    }

    /// The largest h with `f(g, h) <= bound`, saturated to `u32`.
    #[inline]
    pub fn h_within(self, g: u32, bound: u64) -> u32 {
        let left = bound.saturating_sub(u64::from(g) * Weight::SCALE) / self.0;
        u32::try_from(left).unwrap_or(u32::MAX)
    }

    /// What an iteration that failed proves, from the least f it cut (`cut`): a shortest path
    /// (length C) has every node at f <= weight·C and one of them was cut, so weight·C >= cut.
    pub fn proven_by_cut(self, cut: u64) -> u32 {
        u32::try_from(cut.div_ceil(self.0)).unwrap_or(u32::MAX)
    }

    /// What a path of `moves` found under this weight proves: moves <= weight·C.
    pub fn proven_by(self, moves: usize) -> u32 {
        u32::try_from((moves as u64 * Weight::SCALE).div_ceil(self.0)).unwrap_or(u32::MAX)
    }
}
