//! Shared setup for the end-to-end gRPC tests: a real [`Server`] on 127.0.0.1:0, clients
//! connected to it over TCP, the boards the tests send, and a poll of the running-search
//! count that shows a search really stopped.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use npuzzle::proto::{self, SolveStreamResponse, solve_request, solve_stream_request};
use npuzzle::server::{Config, Server, ServerError};
use npuzzle::service::Limits;
use npuzzle::service::RunningSearches;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::{Status, Streaming};

pub use npuzzle::proto::solver_service_client::SolverServiceClient;

/// How long a stopped search may take to give its thread back before the test fails: the
/// requirement is 100 ms, doubled for unoptimized test code on a loaded two-core machine. The
/// tests print what they measured.
pub const STOP_WITHIN: Duration = Duration::from_millis(200);

/// An 80-move 4×4 board: A* with Hamming does not finish it within seconds, so it makes a
/// search that is still running when the test cancels it.
pub const HARD_4X4: [u32; 16] = [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1];

/// The spec's puzzle04: four moves.
pub const PUZZLE04: [u32; 9] = [0, 1, 3, 4, 2, 5, 7, 8, 6];

/// A 3×3 board of 31 moves, the most a 3×3 board needs.
pub const HARDEST_3X3: [u32; 9] = [8, 6, 7, 2, 5, 4, 3, 0, 1];

/// The spec's unsolvable 3×3 example: two tiles swapped.
pub const UNSOLVABLE_3X3: [u32; 9] = [1, 2, 3, 4, 5, 6, 8, 7, 0];

/// A server serving in the background of a test.
pub struct TestServer {
    /// Where it listens.
    pub address: SocketAddr,
    /// Its live count of running searches.
    pub running: RunningSearches,
    shutdown: Option<oneshot::Sender<()>>,
    serving: JoinHandle<Result<(), ServerError>>,
}

/// A test configuration: two search slots and short waits, so tests that fill or stop the
/// server stay quick, and a node budget that ends in seconds a search whose cancellation
/// failed, so its test fails rather than hangs (about 1 GiB of A* nodes).
pub fn config() -> Config {
    Config {
        limits: Limits {
            max_concurrent_solves: 2,
            max_expanded_nodes: Some(10_000_000),
            queue_timeout: Duration::from_millis(200),
            ..Limits::default()
        },
        drain_timeout: Duration::from_millis(300),
        ..Config::default()
    }
}

/// Starts a server with `config` on 127.0.0.1:0.
pub async fn start(config: Config) -> TestServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let address = listener.local_addr().expect("the bound address");
    let server = Server::new(config);
    let running = server.running_searches();
    let (shutdown, shutdown_requested) = oneshot::channel::<()>();
    let serving = tokio::spawn(server.serve(listener, async {
        // A dropped sender (the test ended early) shuts down too.
        let _ = shutdown_requested.await;
    }));
    TestServer { address, running, shutdown: Some(shutdown), serving }
}

/// Starts a server with the test [`config`] but `limits`.
pub async fn start_with_limits(limits: Limits) -> TestServer {
    start(Config { limits, ..config() }).await
}

/// Reads `stream` to its end, which must be an error status after nothing but progress, and
/// returns that status.
pub async fn status_after_progress(stream: &mut Streaming<SolveStreamResponse>) -> Status {
    loop {
        match stream.message().await {
            Ok(Some(message)) => {
                assert!(
                    matches!(message.event, Some(proto::solve_stream_response::Event::Progress(_))),
                    "only progress"
                )
            }
            Ok(None) => panic!("the stream ended without a status"),
            Err(status) => return status,
        }
    }
}

impl TestServer {
    /// A new connection to the server.
    pub async fn channel(&self) -> Channel {
        Channel::from_shared(format!("http://{}", self.address))
            .expect("a valid URI")
            .connect()
            .await
            .expect("connect to the test server")
    }

    /// A solver client on a new connection.
    pub async fn client(&self) -> SolverServiceClient<Channel> {
        SolverServiceClient::new(self.channel().await)
    }

    /// Completes the server's shutdown future.
    pub fn shut_down(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            shutdown.send(()).expect("the server is still waiting for its shutdown");
        }
    }

    /// Waits for `run` to return, and returns what it returned.
    pub async fn stopped(self) -> Result<(), ServerError> {
        tokio::time::timeout(Duration::from_secs(10), self.serving)
            .await
            .expect("the server stops within 10 s")
            .expect("the server task did not panic")
    }

    /// A stream of [`hard_stream_request`] whose search is running (its first progress arrived).
    pub async fn running_hard_stream(&self) -> Streaming<SolveStreamResponse> {
        let mut stream = self.client().await.solve_stream(hard_stream_request()).await.expect("starts").into_inner();
        stream.message().await.expect("a first message").expect("the stream is open");
        self.wait_for_running(1).await;
        stream
    }

    /// Waits until `count` searches are running.
    pub async fn wait_for_running(&self, count: usize) {
        let started = Instant::now();
        while self.running.count() != count {
            assert!(started.elapsed() < Duration::from_secs(10), "{count} searches never ran");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// Polls the running count until it is 0 and returns how long that took, failing the test
    /// after [`STOP_WITHIN`].
    pub async fn time_until_idle(&self) -> Duration {
        let started = Instant::now();
        while self.running.count() != 0 {
            assert!(
                started.elapsed() < STOP_WITHIN,
                "{} searches still running after {STOP_WITHIN:?}",
                self.running.count()
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        started.elapsed()
    }
}

/// A structured board.
pub fn board(dimension: u32, tiles: &[u32]) -> proto::Board {
    proto::Board { dimension, tiles: tiles.to_vec() }
}

/// Options for a slow, long search: A* with Hamming.
pub fn slow_options() -> proto::SolveOptions {
    proto::SolveOptions {
        algorithm: proto::Algorithm::Astar.into(),
        heuristic: proto::Heuristic::Hamming.into(),
        ..proto::SolveOptions::default()
    }
}

/// A unary request for `board`.
pub fn solve_request(board: proto::Board, options: Option<proto::SolveOptions>) -> proto::SolveRequest {
    proto::SolveRequest { puzzle: Some(solve_request::Puzzle::Board(board)), options }
}

/// A streaming request for `board`, with progress every `interval_ms`.
pub fn stream_request(
    board: proto::Board,
    options: Option<proto::SolveOptions>,
    interval_ms: u32,
) -> proto::SolveStreamRequest {
    proto::SolveStreamRequest {
        puzzle: Some(solve_stream_request::Puzzle::Board(board)),
        options,
        progress_interval_ms: interval_ms,
    }
}

/// A search on [`HARD_4X4`] that outlasts any test.
pub fn hard_request() -> proto::SolveRequest {
    solve_request(board(4, &HARD_4X4), Some(slow_options()))
}

/// A streaming search on [`HARD_4X4`] that outlasts any test.
pub fn hard_stream_request() -> proto::SolveStreamRequest {
    stream_request(board(4, &HARD_4X4), Some(slow_options()), 0)
}

/// Prints a measured stop time so `cargo test -- --nocapture` shows it.
pub fn report_stop(what: &str, took: Duration) {
    println!("{what}: the search stopped {:.1} ms after the cancel", took.as_secs_f64() * 1e3);
}
