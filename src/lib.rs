//! npuzzle: optimal solutions to sliding-tile puzzles (the 8-puzzle and its N×N
//! generalizations), as a library and as a gRPC service that streams its progress.
//!
//! Data flows one way: text or protobuf -> [`Board`] -> [`Solver::solve`](solver::Solver::solve)
//! -> [`Solution`] -> text or protobuf. Conversions live at the edges, never inside a search.
//! The search core (`board`, `text`, `random`, `solver`) builds without the default `service`
//! feature, with none of tokio, tonic or prost; the rest needs it.
//!
//! # Layout
//! This is the one layout map; every file's own `//!` says what it holds and why.
//!
//! - [`board`]: the immutable N×N `Board`: distances, goal test, twin, neighbors, solvability.
//! - [`text`]: the spec's stdin format into a `Board`, and a `Solution` into the spec's stdout.
//! - [`random`]: seeded random boards for benchmarks and tests.
//! - [`solver`]: the Solver API, its files each using only those listed before them:
//!   - `options`, `method`, `advice`, `error`, `solution`, `progress`: what a request asks,
//!     what runs, what a spent budget suggests, real failures, the answer, progress and stop;
//!   - `helper_threads`, `meter`, `background`, `prefetch`: lent cores, the accounting every
//!     search shares, idle priority for builds, cache lines asked for ahead;
//!   - `heuristic/`: the `Estimator` trait, Manhattan, Hamming and linear conflict;
//!   - `pdb/`: pattern databases: cells, index, regions, entry, symmetry, partition, build,
//!     file, checked, tables, triples, lookup, cache (the cache directory and the staged load)
//!     and lock;
//!   - `runtime`: the `Solver` (loaded tables, lent cores); `search/`: one file or folder per
//!     method: `astar` (with `arena`), `distance_table` (3×3), `idastar/` (dfs, move pruning,
//!     split, the incumbent), `beam/` (moves, and stages), `placing/` (rows and columns),
//!     `constructive/` (FAST), `minimum/` (with the wider beam), `anytime/` (with windows);
//!   - `plan` (the method for a request), `solve` (the dispatcher), `warm_up`.
//! - [`proto`], [`convert`]: the generated gRPC types, and conversions to and from them.
//! - [`service`]: the tonic `SolverService`: validation, search slots, the tables' slots
//!   (`tables`), lent slots, progress, cancellation, deadlines, limits, the wire's words.
//! - [`metrics`]: the Prometheus metrics' names and recording, and their exporter.
//! - [`server`]: `run(listener, shutdown, config)`: the service with health, reflection,
//!   gRPC-Web and the page; the listener (`incoming`), each connection's deadlines
//!   (`connection`), the HTTP/2 and connection limits (`connection_limits`), TLS, tokens
//!   (`auth`) and the web routes (`web`).
//! - [`client`]: the [`client::Client`] of a server, TLS and tokens, the embedded server,
//!   printing, the command line's names for the library's choices and the flags one solve and
//!   a batch share (`flags`), and `batch/` (labelling a file of boards: input, record, output
//!   file, summary, progress).
//! - [`load`]: load runs against a server or proxy (`npuzzle-bench load`).
//!
//! The binaries in `src/bin/` keep only flags and printing: `npuzzle-client`, `npuzzle-server`
//! (with `security`) and `npuzzle-bench` (a module per tool: rows, random, load). Tests are one
//! binary per area, sharing `tests/support/`: `tests/solver/` (the library's searches),
//! `tests/grpc/` (the service over real gRPC, in process), `tests/cli/` (the built binaries,
//! with grpcurl), `tests/load/` (load, shutdown under load, replicas behind Envoy),
//! `tests/security/` (TLS, tokens and attacks on the HTTP/2 limits). Beside the crate:
//! `benchmarks/` (the benchmark sets), `docs/`, `web/` (the page), `deploy/` (Envoy and nginx
//! in front of replicas), `fuzz/` (cargo-fuzz targets), `scripts/` (cold-start measurements),
//! `python/` (the Python package: the search core with PyO3, its own crate and workspace).

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
pub use solver::{Algorithm, Heuristic, Options, Solution, Solver, solve};
