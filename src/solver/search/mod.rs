//! The searches behind [`solve`](super::solve), one file each. Every one returns only the tile
//! directions of its path; [`Solution`](super::Solution) replays and checks them.
//!
//! - [`astar`]: the spec's A*, with previous-board pruning and a closed set.
//! - [`idastar`]: IDA* over any [`Estimator`](super::heuristic::Estimator).
//! - `packed`: boards packed into machine words for A*'s node arena and closed set.

pub mod astar;
pub mod idastar;
mod packed;
