//! `npuzzle-server` (and other programs) as child processes of a test: started on a free
//! loopback port, waited for until they accept connections, signalled, and killed when dropped;
//! and the external programs (grpcurl, Envoy) that CI points the tests at.

#![allow(dead_code)] // Each test crate uses its own subset of these helpers.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long a process may take to start accepting connections (and, in tests that wait for a
/// server's tables, how long those may take to load).
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

/// The program named by environment variable `var` (which `.ci/run` sets), or `None` after a
/// note when it is unset outside CI; under `CI=true` an unset variable fails the test.
pub fn tool_from_env(var: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(path) => Some(PathBuf::from(path)),
        None if std::env::var("CI").is_ok_and(|ci| ci == "true") => {
            panic!("{var} is not set: .ci/run installs {what} and must point {var} at it")
        }
        None => {
            eprintln!("note: {var} is not set, skipping this test (.ci/run installs {what})");
            None
        }
    }
}

/// A free loopback address: the OS hands out a port, the child binds it a moment later.
pub fn free_address() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0").and_then(|listener| listener.local_addr()).expect("a free port")
}

/// A child process listening on `address`, killed when dropped.
pub struct Process {
    child: Child,
    /// Where it listens.
    pub address: SocketAddr,
}

impl Process {
    /// Starts `command` (quiet) and waits until `address` accepts connections.
    pub fn start(command: Command, address: SocketAddr) -> Process {
        Process::start_with_stderr(command, address, Stdio::null())
    }

    /// Starts `command` with its stderr to `stderr` and waits until `address` accepts
    /// connections.
    pub fn start_with_stderr(mut command: Command, address: SocketAddr, stderr: Stdio) -> Process {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        let mut process = Process { child, address };
        let started = Instant::now();
        while TcpStream::connect(address).is_err() {
            if let Some(status) = process.child.try_wait().expect("the child's status") {
                panic!("{command:?} exited early with {status}");
            }
            assert!(started.elapsed() < STARTUP_TIMEOUT, "{command:?} did not listen on {address}");
            sleep(Duration::from_millis(20));
        }
        process
    }

    /// An `npuzzle-server` without pattern databases (so it never loads or builds the 7-8 tables
    /// in the user's cache) on a free port, with `extra` flags.
    pub fn server(extra: &[&str]) -> Process {
        let address = free_address();
        let mut command = Command::new(env!("CARGO_BIN_EXE_npuzzle-server"));
        command.args(["--listen", &address.to_string(), "--no-pattern-db"]).args(extra);
        Process::start(command, address)
    }

    /// Like [`Process::server`], with its log (stderr) written to `log`.
    pub fn server_logged(extra: &[&str], log: &std::path::Path) -> Process {
        Process::server_logged_with_env(extra, log, &[])
    }

    /// Like [`Process::server_logged`], with the environment variables `env` set.
    pub fn server_logged_with_env(extra: &[&str], log: &std::path::Path, env: &[(String, String)]) -> Process {
        let address = free_address();
        let mut command = Command::new(env!("CARGO_BIN_EXE_npuzzle-server"));
        command.args(["--listen", &address.to_string(), "--no-pattern-db"]).args(extra);
        command.envs(env.iter().map(|(key, value)| (key, value)));
        let file = std::fs::File::create(log).expect("create the server's log");
        Process::start_with_stderr(command, address, Stdio::from(file))
    }

    /// Waits until `log` (the file [`Process::server_logged`] writes) holds `line`, at most
    /// [`STARTUP_TIMEOUT`].
    pub fn wait_for_log(&mut self, log: &std::path::Path, line: &str) {
        let started = Instant::now();
        while !std::fs::read_to_string(log).is_ok_and(|logged| logged.contains(line)) {
            assert!(self.is_running(), "the server exited before logging {line:?}");
            assert!(started.elapsed() < STARTUP_TIMEOUT, "the server did not log {line:?}");
            sleep(Duration::from_millis(50));
        }
    }

    /// Whether it is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("the child's status").is_none()
    }

    /// Its `http://` URL.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends it `signal` (e.g. `TERM`, `KILL`) with kill(1).
    pub fn signal(&self, signal: &str) {
        let status =
            Command::new("kill").args([format!("-{signal}"), self.pid().to_string()]).status().expect("kill(1) runs");
        assert!(status.success(), "kill -{signal} {} failed", self.pid());
    }

    /// Waits at most `timeout` for it to exit, and returns how it exited.
    pub fn wait(&mut self, timeout: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("the child's status") {
                return status;
            }
            assert!(started.elapsed() < timeout, "process {} still running after {timeout:?}", self.pid());
            sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
