//! npuzzle: optimal solutions to sliding-tile puzzles (the 8-puzzle and its N×N
//! generalizations), as a library and as a gRPC service that streams its progress.
//!
//! Data flows one way: text or protobuf -> [`Board`] -> [`solver::solve`] -> [`Solution`] ->
//! text or protobuf. Conversions live at the edges, never inside a search.
//!
//! # Layout
//! - [`board`]: the immutable N×N `Board`: distances, goal test, twin, neighbors, solvability, text form.
//! - [`text`]: the spec's stdin format into a `Board`, and a `Solution` into the spec's stdout.
//! - [`solver`] (`solver/mod.rs`): the `solve` API, its options, errors and the plan for `Auto`;
//!   `solver/budget.rs`, the limits, the stop flag and progress pacing every search shares;
//!   `solver/advice.rs`, what a spent budget suggests for each board size; `solver/search/`,
//!   A* (with its node arena), IDA* (plain and weighted), the 3×3 distance table and the
//!   constructive FAST solver; `solver/heuristic/`, the `Estimator` trait, Manhattan and linear
//!   conflict; `solver/pdb/`, pattern databases for 4×4 and 5×5: partition, index, symmetry,
//!   lookup, build, file, cache (with [`solver::cache_dir`], the one place the
//!   cache directory is resolved, and the upgradable `DatabaseSlot`), lock (one builder per
//!   table file) and background (idle priority for builds).
//! - [`random`]: seeded random boards for benchmarks and tests.
//! - [`proto`]: the generated gRPC types and the descriptor set for reflection.
//! - [`convert`]: conversions between the `proto` types and the library's.
//! - [`service`] (`service/`): the tonic `SolverService`: validation, search slots, progress,
//!   cancellation, deadlines, and its own `Limits` (concurrent searches; each one's memory, time
//!   and nodes).
//! - [`metrics`]: the Prometheus metrics' names and recording, and the exporter behind `--metrics-listen`.
//! - [`server`] (`server/`): `run(listener, shutdown, config)`: the service with health and
//!   reflection; `server/incoming.rs`, the listener, closed the moment shutdown begins, with
//!   the connection cap and the TLS handshake; `server/connection.rs`, each connection's
//!   deadlines; `server/limits.rs`, the HTTP/2 and connection limits; `server/tls.rs`, TLS and
//!   mTLS; `server/auth.rs`, access tokens; `server/web.rs`, gRPC-Web for each service, the
//!   embedded page (`web/dist`) and CORS.
//! - [`client`] (`client/`): the [`client::Client`] of a server (connect, `solve`,
//!   `solve_stream`, the deadline); `client/tls.rs`, TLS, mTLS and the token; `client/embedded.rs`, the in-process server; `client/output.rs`,
//!   a server's `Solution` into the spec's stdout or JSON.
//! - [`load`]: load runs against a local server or proxy: a mix of calls, checked answers,
//!   latency percentiles and status counts (`npuzzle-bench load`).
//!
//! The binaries in `src/bin/` keep only flags and printing. Tests are one binary per area:
//! `tests/solver/` (the library's searches), `tests/grpc/` (the service over real gRPC, in
//! process), `tests/cli/` (the built binaries, with grpcurl), `tests/load/` (load, shutdown
//! under load, replicas behind Envoy), sharing `tests/support/`. Beside the crate: `deploy/`
//! (Envoy and nginx in front of replicas), `fuzz/` (cargo-fuzz targets), `scripts/` (cold-start
//! measurements).

pub mod board;
#[cfg(feature = "service")]
pub mod client;
#[cfg(feature = "service")]
pub mod convert;
#[cfg(feature = "service")]
pub mod load;
#[cfg(feature = "service")]
pub mod metrics;
#[cfg(feature = "service")]
pub mod proto;
pub mod random;
#[cfg(feature = "service")]
pub mod server;
#[cfg(feature = "service")]
pub mod service;
pub mod solver;
pub mod text;

pub use board::{Board, BoardError, Direction, Step};
pub use solver::{Algorithm, Heuristic, Options, Solution, solve};
