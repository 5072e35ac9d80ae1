//! Load on a real `npuzzle-server` process through `npuzzle-bench load`'s library: many clients
//! get only the statuses their calls may get and only right answers, the server's memory stays
//! flat, and SIGTERM during load drains: every call the server took is answered (OK, or the
//! status its kind expects, or UNAVAILABLE), and the only other failures are calls that never
//! reached it (a refused connection, or a call raced by the server's GOAWAY in the client).
//!
//! The runs are short here (`NPUZZLE_LOAD_SECONDS`, 6 s by default, split in two halves); the
//! README gives the 60-second run.

use std::time::Duration;

use crate::process::Process;
use npuzzle::load::mix::Kind;
use npuzzle::load::transport::TransportFailure;
use npuzzle::load::{self, Config, Outcome};

/// How long the load test runs, in seconds.
fn load_seconds() -> u64 {
    std::env::var("NPUZZLE_LOAD_SECONDS").ok().and_then(|seconds| seconds.parse().ok()).unwrap_or(6)
}

async fn run(config: &Config) -> Outcome {
    let outcome = load::run(config).await.expect("the load runs");
    println!("{}", outcome.report);
    if let Some(rss) = outcome.rss {
        println!("server rss: {rss:?}");
    }
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_clients_get_only_expected_statuses_and_memory_stays_flat() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("server.log");
    let mut server = Process::server_logged(&["--max-concurrent-solves", "2"], &log);
    // What the server builds once at start is not the load's: the memory is watched from then.
    server.wait_for_log(&log, "duplicate-pruning machine ready");
    let half = Duration::from_secs(load_seconds().div_ceil(2));
    let config = Config { watch_pid: Some(server.pid()), ..Config::new(server.url(), 64, half) };
    let first = run(&config).await;
    let second = run(&config).await;
    for outcome in [&first, &second] {
        let tally = &outcome.report.tally;
        assert!(outcome.report.is_clean(), "wrong answers or unexpected statuses:\n{}", outcome.report);
        assert!(tally.count(Kind::Trivial, "OK") > 0 && tally.count(Kind::Hardest, "OK") > 0);
        assert!(tally.count(Kind::Fifteen, "OK") > 0);
        assert!(tally.count(Kind::Bad, "INVALID_ARGUMENT") > 0);
        assert!(tally.count(Kind::Cancelled, "CANCELLED") > 0);
    }
    // Flat: the second half of the load does not grow the server beyond what the first left.
    let (after_first, after_second) = (first.rss.expect("rss").end.current, second.rss.expect("rss").end.current);
    assert!(
        after_second <= after_first + after_first / 4 + (16 << 20),
        "the server grew from {after_first} to {after_second} bytes under the same load"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_during_load_drains_without_a_wrong_answer() {
    let mut server = Process::server(&["--max-concurrent-solves", "2", "--drain-timeout-ms", "1000"]);
    let config = Config { allow_unavailable: true, ..Config::new(server.url(), 16, Duration::from_secs(3)) };
    let load = tokio::spawn(async move { run(&config).await });
    tokio::time::sleep(Duration::from_secs(1)).await;
    server.signal("TERM");
    let status = tokio::task::spawn_blocking(move || server.wait(Duration::from_secs(10))).await.expect("waits");
    assert!(status.success(), "the server exits 0 after SIGTERM, not {status}");
    let outcome = load.await.expect("the load finishes");
    let tally = &outcome.report.tally;
    assert_eq!(tally.wrong_answers(), 0, "{}", outcome.report);
    assert_eq!(tally.unexpected(), 0, "{}", outcome.report);
    assert_eq!(tally.transport_failures(TransportFailure::Lost), 0, "a drain lost a call:\n{}", outcome.report);
    assert!(tally.count(Kind::Trivial, "OK") > 0, "{}", outcome.report);
}
