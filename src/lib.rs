//! npuzzle: optimal solutions to sliding-tile puzzles (the 8-puzzle and its N×N
//! generalizations), as a library and as a gRPC service that streams its progress.
//!
//! Data flows one way: text or protobuf -> [`Board`] -> [`solver::solve`] -> [`Solution`] ->
//! text or protobuf. Conversions live at the edges, never inside a search.
//!
//! # Layout
//! - [`board`]: the immutable N×N `Board`: distances, goal test, twin, neighbors, solvability, text form.
//! - [`text`]: the spec's stdin format into a `Board`, and a `Solution` into the spec's stdout.
//! - [`solver`]: the `solve` API and its algorithms, one file each.
//! - [`proto`]: the generated gRPC types and the descriptor set for reflection.
//! - [`convert`]: conversions between the `proto` types and the library's.
//! - [`service`]: the tonic `SolverService`: validation, search slots, progress, cancellation.
//! - [`server`]: `run(listener, shutdown, config)`: the service with health and reflection.
//! - [`client`]: a `Board` into a request, a server's `Solution` into the spec's stdout or JSON.
//! - [`load`]: load runs against a local server or proxy: a mix of calls, checked answers,
//!   latency percentiles and status counts (`npuzzle-bench load`).

pub mod board;
pub mod client;
pub mod convert;
pub mod load;
pub mod proto;
pub mod server;
pub mod service;
pub mod solver;
pub mod text;

pub use board::{Board, BoardError, Direction, Step};
pub use solver::{Algorithm, Heuristic, Options, Solution, solve};
