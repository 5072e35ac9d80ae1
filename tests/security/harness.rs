//! What every attack is measured by: a normal client on its own connection solving 3×3 boards
//! throughout (its p99 at most 50 ms), the server's resident memory sampled (growth at most
//! 64 MB), and the server alive with no panic in its log afterwards.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use npuzzle::Board;
use npuzzle::client::{Client, SolveOptions};
use npuzzle::load::rss;
use tempfile::TempDir;

use crate::process::Process;

/// The most the normal client's p99 may be during an attack.
const MAX_P99: Duration = Duration::from_millis(50);
/// The least number of answers the normal client's p99 is taken from.
const MIN_ANSWERS: usize = 100;
/// The most the server's RSS may grow during an attack.
const MAX_GROWTH: u64 = 64 << 20;

/// A server under attack, with its log.
pub struct Target {
    /// The server.
    pub server: Process,
    dir: TempDir,
}

impl Target {
    /// A plaintext server with `extra` flags.
    pub fn start(extra: &[&str]) -> Target {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut flags = vec!["--max-concurrent-solves", "2"];
        flags.extend_from_slice(extra);
        let mut server = Process::server_logged(&flags, &dir.path().join("server.log"));
        // What the server builds once at start is not the attack's: its memory and its cores
        // are watched from then.
        server.wait_for_log(&dir.path().join("server.log"), "duplicate-pruning machine ready");
        Target { server, dir }
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("server.log")
    }

    /// Runs `attack` while a normal client solves 3×3 boards on its own connection and the
    /// server's memory is sampled; prints and checks the figures. `attack` returns what the
    /// attacker received.
    pub async fn under_attack(&mut self, name: &str, attack: impl Future<Output = String>) {
        let pid = self.server.pid();
        let before = rss::read(pid).expect("the server's memory").current;
        let stop = Arc::new(AtomicBool::new(false));
        let (ready, connected) = tokio::sync::oneshot::channel();
        let prober = tokio::spawn(normal_client(self.server.url(), stop.clone(), ready));
        connected.await.expect("the normal client connected");
        let sampler = tokio::spawn(sample_rss(pid, stop.clone()));
        let received = attack.await;
        stop.store(true, Ordering::Release);
        let mut latencies = prober.await.expect("the normal client ran");
        let peak = sampler.await.expect("the sampler ran").max(before);
        latencies.sort();
        let p99 = latencies[(latencies.len() * 99).div_ceil(100).saturating_sub(1)];
        println!(
            "{name}: attacker received {received}; normal client: {} answers, p99 {:.2} ms; server RSS {:.1} MB \
             before, {:.1} MB peak",
            latencies.len(),
            p99.as_secs_f64() * 1e3,
            before as f64 / 1e6,
            peak as f64 / 1e6
        );
        assert!(self.server.is_running(), "{name}: the server died");
        let log = self.log();
        assert!(!log.contains("panicked"), "{name}: the server panicked:\n{log}");
        assert!(p99 <= MAX_P99, "{name}: the normal client's p99 was {p99:?}");
        assert!(peak <= before + MAX_GROWTH, "{name}: the server grew from {before} to {peak} bytes");
    }
}

/// Solves 3×3 boards one after the other until `stop` (and at least [`MIN_ANSWERS`]), on one
/// connection; every call must succeed. Says when its connection is up and its first call
/// (not counted: it warms the connection) answered. Returns each call's latency.
async fn normal_client(url: String, stop: Arc<AtomicBool>, ready: tokio::sync::oneshot::Sender<()>) -> Vec<Duration> {
    let client = Client::connect(&url).await.expect("the normal client connects");
    let boards = ["3\n0 1 3\n4 2 5\n7 8 6\n", "3\n1 2 3\n4 5 6\n0 7 8\n", "3\n4 1 3\n0 2 6\n7 5 8\n"];
    let boards: Vec<Board> = boards.iter().map(|text| npuzzle::text::parse_board(text).expect("a board")).collect();
    client.solve(&boards[0], SolveOptions::default()).await.expect("the normal client's first call");
    let _ = ready.send(());
    let mut latencies = Vec::new();
    while !stop.load(Ordering::Acquire) || latencies.len() < MIN_ANSWERS {
        let board = &boards[latencies.len() % boards.len()];
        let started = Instant::now();
        let solution = client.solve(board, SolveOptions::default()).await.expect("the normal client is answered");
        latencies.push(started.elapsed());
        assert!(solution.optimal && solution.moves > 0);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    latencies
}

/// The server's largest RSS, sampled every 10 ms until `stop`.
async fn sample_rss(pid: u32, stop: Arc<AtomicBool>) -> u64 {
    let mut peak = 0;
    while !stop.load(Ordering::Acquire) {
        peak = peak.max(rss::read(pid).map_or(0, |rss| rss.current));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    peak
}

/// The CPU time process `pid` has used, from `/proc/PID/stat` (utime + stime).
pub fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
    // The fields after the command (which may hold spaces) start after its closing ')'.
    let fields: Vec<&str> = stat.rsplit_once(')').expect("a stat line").1.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    // SAFETY: sysconf reads a constant of the system.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}
