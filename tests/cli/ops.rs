//! Running the server binary as an operator does: `--prepare` as a deploy step, a cold start on
//! an empty cache, and a server with `--metrics-listen`, whose Prometheus text is scraped and
//! checked after a few requests. The pattern databases are the small 6-6-3 ones, in temporary
//! directories or one under the target dir shared by the test runs (never the user's cache).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::metrics::{sample, scrape, wait_for_sample};
use crate::process::{Process, free_address};
use npuzzle::proto::{self, solve_request, solver_service_client::SolverServiceClient};
use tonic::Code;

/// The cache directory of these tests.
fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ops-pattern-databases")
}

/// `npuzzle-server` on `address` with the 6-6-3 tables in `cache` and `extra` flags, started
/// off the async runtime (it waits until the server listens).
async fn server(address: SocketAddr, cache: &Path, extra: &[String]) -> Process {
    let mut command = Command::new(env!("CARGO_BIN_EXE_npuzzle-server"));
    command
        .args(["--listen", &address.to_string(), "--pattern-db", "6-6-3", "--no-pattern-db-5x5", "--cache-dir"])
        .arg(cache)
        .args(extra);
    tokio::task::spawn_blocking(move || Process::start(command, address)).await.expect("a server")
}

fn solve_request(dimension: u32, tiles: &[u32]) -> proto::SolveRequest {
    let board = proto::Board { dimension, tiles: tiles.to_vec() };
    proto::SolveRequest { puzzle: Some(solve_request::Puzzle::Board(board)), ..Default::default() }
}

#[test]
fn prepare_builds_or_checks_the_tables_and_exits_zero() {
    let output = Command::new(env!("CARGO_BIN_EXE_npuzzle-server"))
        .args(["--prepare", "--pattern-db", "6-6-3", "--no-pattern-db-5x5", "--cache-dir"])
        .arg(cache_dir())
        .output()
        .expect("npuzzle-server --prepare runs");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    assert!(log.contains("pattern databases prepared"), "{log}");

    let blocked = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ops-a-file-not-a-directory");
    std::fs::write(&blocked, b"").expect("a plain file");
    let output = Command::new(env!("CARGO_BIN_EXE_npuzzle-server"))
        .args(["--prepare", "--pattern-db", "6-6-3", "--no-pattern-db-5x5", "--cache-dir"])
        .arg(&blocked)
        .output()
        .expect("npuzzle-server --prepare runs");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "a cache directory that is a file was prepared: {log}");
    assert!(log.contains("cannot prepare the 6-6-3 pattern databases"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_searches_and_table_readiness() {
    let (address, metrics) = (free_address(), free_address());
    let _server = server(address, &cache_dir(), &["--metrics-listen".to_owned(), metrics.to_string()]).await;
    let ready = [("partition", "6-6-3")];
    let metrics_ready =
        tokio::task::spawn_blocking(move || wait_for_sample(metrics, "npuzzle_pattern_databases_ready", &ready, 1.0));
    metrics_ready.await.expect("the 6-6-3 tables become ready");

    let mut client = SolverServiceClient::connect(format!("http://{address}")).await.expect("a client");
    let puzzle04 = solve_request(3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]);
    let four_by_four_30 = solve_request(4, &[0, 9, 2, 3, 5, 1, 7, 11, 6, 12, 14, 4, 13, 10, 8, 15]);
    for request in [puzzle04, four_by_four_30] {
        client.solve(request).await.expect("a solution");
    }
    let duplicate = solve_request(3, &[0, 1, 3, 4, 2, 5, 7, 8, 8]);
    let status = client.solve(duplicate).await.expect_err("a duplicate tile is refused");
    assert_eq!(status.code(), Code::InvalidArgument);

    let text = tokio::task::spawn_blocking(move || scrape(metrics)).await.expect("a scrape");
    let read = |name, labels: &[(&str, &str)]| sample(&text, name, labels);
    let solve = ("method", "Solve");
    assert_eq!(read("npuzzle_requests_total", &[solve, ("code", "Ok")]), Some(2.0), "{text}");
    assert_eq!(read("npuzzle_requests_total", &[solve, ("code", "InvalidArgument")]), Some(1.0), "{text}");
    assert_eq!(read("npuzzle_request_duration_seconds_count", &[solve]), Some(3.0), "{text}");
    assert_eq!(read("npuzzle_request_duration_seconds_bucket", &[solve, ("le", "+Inf")]), Some(3.0), "{text}");
    assert!(text.contains("# TYPE npuzzle_request_duration_seconds histogram"), "{text}");
    let nodes = read("npuzzle_nodes_expanded_total", &[]).expect("nodes expanded");
    assert!(nodes >= 30.0, "two searches of 4 and 30 moves expanded only {nodes} nodes");
    assert_eq!(read("npuzzle_searches_running", &[]), Some(0.0), "{text}");
    assert_eq!(read("npuzzle_searches_queued", &[]), Some(0.0), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_by_four_sent_at_a_cold_start_is_searched_with_the_first_tables() {
    let empty = tempfile::tempdir().expect("an empty cache directory");
    let address = free_address();
    let _server = server(address, empty.path(), &[]).await;

    let mut client = SolverServiceClient::connect(format!("http://{address}")).await.expect("a client");
    let board = solve_request(4, &[0, 9, 2, 3, 5, 1, 7, 11, 6, 12, 14, 4, 13, 10, 8, 15]);
    let response = client.solve(board).await.expect("a solution");
    let solution = response.into_inner().solution.expect("a solution");
    assert_eq!(solution.moves, 30);
    let heuristic = solution.stats.expect("stats").heuristic();
    assert_eq!(heuristic, proto::Heuristic::PatternDatabase, "the request did not wait for the tables being built");
}
