//! The budgets that protect a server, end to end: A* on a large board stops at the memory
//! budget of a real `npuzzle-server` process, whose peak memory stays within it; IDA* runs past
//! the old 20 M node cap; the server's time limit stops a search and says it was the server's
//! limit, not the caller's deadline.
//!
//! `cargo test --test grpc budgets -- --nocapture` prints the memory and node figures measured.

use std::time::{Duration, Instant};

use crate::common::{SolverServiceClient, board, config, hard_request, solve_request, start, start_with_limits};
use crate::process::Process;
use npuzzle::load::rss;
use npuzzle::proto;
use npuzzle::service::Limits;
use tonic::{Code, Request};

const MIB: u64 = 1 << 20;

/// The process's (peak, current) resident memory in bytes.
fn memory(process: &Process) -> (u64, u64) {
    let rss = rss::read(process.pid()).expect("the server's memory from /proc");
    (rss.peak, rss.current)
}

fn astar_manhattan() -> Option<proto::SolveOptions> {
    Some(proto::SolveOptions {
        algorithm: proto::Algorithm::Astar.into(),
        heuristic: proto::Heuristic::Manhattan.into(),
        ..proto::SolveOptions::default()
    })
}

#[tokio::test]
async fn a_large_board_with_a_star_stops_at_the_memory_budget_within_it() {
    let budget = 128 * MIB;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("server.log");
    let mut server = Process::server_logged(&["--max-search-memory", "128MiB"], &log);
    // The server builds IDA*'s duplicate machines as it starts: wait for them, so that the idle
    // figure includes what they keep and the search's peak not what they build.
    server.wait_for_log(&log, "duplicate-pruning machine ready");
    let mut client = SolverServiceClient::connect(server.url()).await.expect("connects to the server");
    let (_, idle) = memory(&server);
    let twenty = crate::support::random_walk(20, 4000, &mut crate::support::Rng::new(20));
    let request = solve_request(proto::Board::from(&twenty), astar_manhattan());
    let status = client.solve(request).await.expect_err("the memory budget runs out");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let message = status.message();
    assert!(message.contains("memory budget exhausted") && message.contains("limit of 128.0 MiB"), "{message}");
    assert!(message.contains("try IDA* with linear conflict") && !message.contains("pattern"), "{message}");
    let (peak, after) = memory(&server);
    println!(
        "20x20 A* under a 128 MiB budget: server idle {} MiB, peak {} MiB, after the search {} MiB",
        idle / MIB,
        peak / MIB,
        after / MIB
    );
    // The slack covers the server itself (its idle size) and the allocator's rounding, which
    // grew with what the duplicate machine's build leaves with the allocator (measured: peaks
    // 145 MiB over idle sizes of 62 to 74 MiB).
    assert!(peak <= budget + idle + 24 * MIB, "peak {peak} bytes passes the budget of {budget}");
    assert!(peak >= budget / 4, "the search used its budget: peak {peak}");
    assert!(after <= idle + 16 * MIB, "the memory was given back: {after} bytes held after the search");
}

#[tokio::test]
async fn ida_star_runs_past_the_old_twenty_million_node_cap() {
    let server = start_with_limits(Limits { max_expanded_nodes: None, ..config().limits }).await;
    // Korf's instance #27 (53 moves): 47 M nodes with IDA* and Manhattan, duplicates pruned.
    let korf27 = [5, 11, 9, 12, 3, 6, 4, 7, 13, 0, 10, 14, 1, 8, 15, 2];
    let options = proto::SolveOptions {
        algorithm: proto::Algorithm::Idastar.into(),
        heuristic: proto::Heuristic::Manhattan.into(),
        ..proto::SolveOptions::default()
    };
    let started = Instant::now();
    let response = server.client().await.solve(solve_request(board(4, &korf27), Some(options))).await;
    let solution = response.expect("IDA* finishes").into_inner().solution.expect("a solution");
    let nodes = solution.stats.as_ref().expect("search stats").nodes_expanded;
    println!("Korf #27, IDA* + Manhattan through the service: {nodes} nodes in {:?}", started.elapsed());
    assert_eq!(solution.moves, 53);
    assert!(nodes > 20_000_000, "{nodes} nodes: not past the old cap");
}

#[tokio::test]
async fn the_servers_time_limit_stops_a_search_and_says_so() {
    let max_search_time = Duration::from_millis(300);
    let server = start_with_limits(Limits { max_search_time, ..config().limits }).await;
    let mut request = Request::new(hard_request());
    request.set_timeout(Duration::from_secs(30));
    let sent = Instant::now();
    let status = server.client().await.solve(request).await.expect_err("the time limit passes");
    let answered = sent.elapsed();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("search time limit of 300ms reached (not the caller's deadline)"), "{status:?}");
    assert!(status.message().contains("try IDA* with pattern databases"), "a 4x4 board has them: {status:?}");
    assert!(answered >= max_search_time && answered < Duration::from_secs(5), "answered after {answered:?}");
    server.time_until_idle().await;
}

#[tokio::test]
async fn a_callers_deadline_before_the_time_limit_is_named_as_the_callers() {
    let server = start(config()).await;
    let mut request = Request::new(hard_request());
    request.set_timeout(Duration::from_millis(300));
    let status = server.client().await.solve(request).await.expect_err("the deadline passes");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(status.message().contains("the caller's deadline passed"), "{status:?}");
    server.time_until_idle().await;
}
