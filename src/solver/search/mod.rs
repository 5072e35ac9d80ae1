//! The searches behind [`solve`](super::solve), one file each. Every one returns only the tile
//! directions of its path; [`Solution`](super::Solution) replays and checks them.
//!
//! - [`astar`]: the spec's A*, with previous-board pruning and a closed set.
//! - [`idastar`]: IDA* over any [`Estimator`](super::heuristic::Estimator).
//! - `arena`: A*'s states, each stored once: packed words, or one flat vector for large boards.

mod arena;
pub mod astar;
pub mod idastar;
