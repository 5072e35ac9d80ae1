//! Three `npuzzle-server` replicas behind Envoy ([`crate::envoy`]): under load, one replica is
//! killed (SIGKILL) and another stopped (SIGTERM), and every call still gets a right answer and
//! an expected status, because Envoy retries on another replica. The test prints Envoy's retry
//! counters.

use std::time::Duration;

use crate::envoy::Envoy;
use crate::process::Process;
use npuzzle::load::{self, Config};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_and_a_stopped_replica_cost_no_call_its_answer() {
    let Some(binary) = Envoy::binary() else { return };
    let flags = ["--max-concurrent-solves", "2", "--drain-timeout-ms", "1000"];
    let mut replicas = [Process::server(&flags), Process::server(&flags), Process::server(&flags)];
    let [first, second, third] = &replicas;
    let envoy = Envoy::start(&binary, &[first, second, third]).await;

    let config = Config::new(envoy.url(), 32, Duration::from_secs(8));
    let load = tokio::spawn(async move { load::run(&config).await });
    tokio::time::sleep(Duration::from_secs(2)).await;
    replicas[0].signal("KILL");
    tokio::time::sleep(Duration::from_secs(2)).await;
    replicas[1].signal("TERM");
    let outcome = load.await.expect("the load finishes").expect("the load runs");
    let stopped = tokio::task::spawn_blocking(move || replicas[1].wait(Duration::from_secs(10))).await.expect("waits");
    assert!(stopped.success(), "the stopped replica exits 0, not {stopped}");

    let names = ["upstream_rq_total", "upstream_rq_retry", "upstream_rq_retry_success", "upstream_rq_retry_overflow"];
    let counts = envoy.counters(&names).await;
    let counters: Vec<String> = names.iter().zip(&counts).map(|(name, count)| format!("{name}={count}")).collect();
    println!("{}\nenvoy: {}", outcome.report, counters.join(" "));
    let tally = &outcome.report.tally;
    assert!(outcome.report.is_clean(), "a call lost its answer to a replica's end:\n{}", outcome.report);
    assert!(tally.count(npuzzle::load::mix::Kind::Fifteen, "OK") > 0, "{}", outcome.report);
    assert!(counts[1] > 0, "the killed replica caused no retry: {counters:?}");
}
