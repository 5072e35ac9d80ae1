//! The built binaries run as a user runs them: `npuzzle-client` on stdin and stdout, and
//! `npuzzle-server` driven by grpcurl. One test binary for the area, a module per program.

mod bench;
mod client;
mod grpcurl;
#[path = "../support/metrics.rs"]
mod metrics;
mod ops;
#[path = "../support/process.rs"]
mod process;
