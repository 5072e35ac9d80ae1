//! The built binaries run as a user runs them: `npuzzle-client` on stdin and stdout, and
//! `npuzzle-server` driven by grpcurl. One test binary for the area, a module per program.

mod batch;
mod bench;
mod client;
mod grpcurl;
#[path = "../support/metrics.rs"]
mod metrics;
mod ops;
#[path = "../support/process.rs"]
mod process;

use std::process::{Command, Output, Stdio};

/// Where the tests' pattern databases are cached: the target's scratch directory, never the
/// user's cache.
const CACHE_DIR: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/pattern-databases");

/// `command` (a shell command line) run on a pseudo-terminal by `script` (util-linux), so that
/// its stderr is a terminal, with no `NPUZZLE_ADDR` and [`CACHE_DIR`] as its cache; `None`
/// after a note when `script` is not installed.
fn on_terminal(command: &str) -> Option<Output> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("note: `script` is not installed, skipping this terminal test");
        return None;
    }
    let output = Command::new("script")
        .args(["--quiet", "--return", "--command", command, "/dev/null"])
        .env_remove("NPUZZLE_ADDR")
        .env("NPUZZLE_CACHE_DIR", CACHE_DIR)
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    Some(output)
}
