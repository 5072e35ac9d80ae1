//! The server's Prometheus metrics: their names, what they count, and the calls that record
//! them. Recording goes through the `metrics` facade, which does nothing until a recorder is
//! installed, so the library, its tests and the client's in-process server pay nothing;
//! `npuzzle-server --metrics-listen ADDR` installs the Prometheus exporter with [`serve`], which
//! answers `GET /metrics` (any path but `/health`) in the Prometheus text format.
//!
//! | name | type | labels | what |
//! |---|---|---|---|
//! | `npuzzle_requests_total` | counter | `method` (`Solve`, `SolveStream`), `code` (`Ok`, `InvalidArgument`, `ResourceExhausted`, …) | finished requests |
//! | `npuzzle_request_duration_seconds` | histogram | `method` | time from a request's arrival to its answer (a stream: to its last message) |
//! | `npuzzle_searches_running` | gauge | | searches holding a search slot |
//! | `npuzzle_searches_queued` | gauge | | requests waiting for a search slot |
//! | `npuzzle_nodes_expanded_total` | counter | | nodes expanded by finished searches, answered or stopped |
//! | `npuzzle_unauthenticated_total` | counter | | calls refused UNAUTHENTICATED: no access token, or a wrong one (they reach no method, so `npuzzle_requests_total` does not count them) |
//! | `npuzzle_connections_refused_total` | counter | | connections closed at their accept: the server held `--max-connections` |
//! | `npuzzle_cluster_connected` | gauge | | with `--cluster`: 1 while the replica is joined to its cluster's NATS |
//! | `npuzzle_cluster_pieces_total` | counter | `outcome` (`done`, `redelivered`: done after another worker had it, `dropped`: its search had ended) | pieces of farmed iterations this replica ran |
//! | `npuzzle_cluster_remote_nodes_total` | counter | | nodes this replica searched for other replicas' requests |
//! | `npuzzle_cluster_pieces_published_total` | counter | | pieces this replica published as a coordinator |
//! | `npuzzle_pattern_databases_ready` | gauge | `partition` (`6-6-3`, `8-7` for the 7-8 tables) | 1 once those tables are loaded, 0 while they are awaited; new requests use the largest loaded |
//!
//! Requests the transport refuses before the service sees them (a message over
//! `--max-message-bytes`) are not counted.

use std::net::SocketAddr;
use std::time::Duration;

use metrics::{Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder};
use thiserror::Error;
use tonic::Code;

/// Finished requests, by `method` and `code`.
pub const REQUESTS: &str = "npuzzle_requests_total";
/// Request latency in seconds, by `method`.
pub const REQUEST_SECONDS: &str = "npuzzle_request_duration_seconds";
/// Searches holding a slot right now.
pub const SEARCHES_RUNNING: &str = "npuzzle_searches_running";
/// Requests waiting for a slot right now.
pub const SEARCHES_QUEUED: &str = "npuzzle_searches_queued";
/// Nodes expanded by finished searches.
pub const NODES_EXPANDED: &str = "npuzzle_nodes_expanded_total";
/// Calls refused for want of a right access token.
pub const UNAUTHENTICATED: &str = "npuzzle_unauthenticated_total";
/// Connections refused at the connection cap.
pub const CONNECTIONS_REFUSED: &str = "npuzzle_connections_refused_total";
/// Whether a partition's pattern databases are loaded, by `partition`.
pub const PATTERN_DATABASES_READY: &str = "npuzzle_pattern_databases_ready";

/// With `--cluster`: 1 while joined.
pub const CLUSTER_CONNECTED: &str = "npuzzle_cluster_connected";
/// Pieces this replica ran, by `outcome`.
pub const CLUSTER_PIECES: &str = "npuzzle_cluster_pieces_total";
/// Nodes searched for other replicas' requests.
pub const CLUSTER_REMOTE_NODES: &str = "npuzzle_cluster_remote_nodes_total";
/// Pieces published as a coordinator.
pub const CLUSTER_PIECES_PUBLISHED: &str = "npuzzle_cluster_pieces_published_total";

/// Latency buckets in seconds: from a trivial 3×3 answer (under a millisecond) to the longest
/// searches (minutes).
const LATENCY_BUCKETS: &[f64] =
    &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0];

/// Why the metrics endpoint could not be served.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MetricsError {
    /// The exporter could not be set up: the address is taken or not local, or a recorder is
    /// already installed in this process.
    #[error("cannot serve metrics on {address}: {source}")]
    Exporter {
        /// The address asked for.
        address: SocketAddr,
        /// What the exporter reported.
        source: BuildError,
    },
}

/// Installs the Prometheus recorder for this process and serves its text at `address`, on the
/// current tokio runtime (or a thread of its own outside one). Call it once, at startup.
pub fn serve(address: SocketAddr) -> Result<(), MetricsError> {
    let exporter = |source| MetricsError::Exporter { address, source };
    PrometheusBuilder::new()
        .with_http_listener(address)
        .set_buckets_for_metric(Matcher::Full(REQUEST_SECONDS.to_owned()), LATENCY_BUCKETS)
        .map_err(exporter)?
        .install()
        .map_err(exporter)?;
    describe_counter!(REQUESTS, "Finished gRPC requests, by method and status code.");
    describe_histogram!(REQUEST_SECONDS, Unit::Seconds, "Time from a request's arrival to its answer.");
    describe_gauge!(SEARCHES_RUNNING, "Searches holding a search slot.");
    describe_gauge!(SEARCHES_QUEUED, "Requests waiting for a search slot.");
    describe_counter!(NODES_EXPANDED, "Nodes expanded by finished searches.");
    describe_gauge!(PATTERN_DATABASES_READY, "1 once a partition's pattern databases are loaded.");
    describe_counter!(UNAUTHENTICATED, "Calls refused UNAUTHENTICATED: no access token, or a wrong one.");
    describe_counter!(CONNECTIONS_REFUSED, "Connections closed at their accept: the connection cap was reached.");
    describe_gauge!(CLUSTER_CONNECTED, "1 while the replica is joined to its cluster.");
    describe_counter!(CLUSTER_PIECES, "Pieces of farmed iterations this replica ran, by outcome.");
    describe_counter!(CLUSTER_REMOTE_NODES, "Nodes this replica searched for other replicas' requests.");
    describe_counter!(CLUSTER_PIECES_PUBLISHED, "Pieces this replica published as a coordinator.");
    counter!(UNAUTHENTICATED).absolute(0);
    counter!(CONNECTIONS_REFUSED).absolute(0);
    gauge!(SEARCHES_RUNNING).set(0.0);
    gauge!(SEARCHES_QUEUED).set(0.0);
    Ok(())
}

/// Records a finished request: its method, status code and latency.
pub(crate) fn request_finished(method: &'static str, code: Code, elapsed: Duration) {
    counter!(REQUESTS, "method" => method, "code" => format!("{code:?}")).increment(1);
    histogram!(REQUEST_SECONDS, "method" => method).record(elapsed.as_secs_f64());
}

/// Records the nodes a finished search expanded.
pub(crate) fn nodes_expanded(nodes: u64) {
    counter!(NODES_EXPANDED).increment(nodes);
}

/// Records a call refused for want of a right access token.
pub(crate) fn unauthenticated() {
    counter!(UNAUTHENTICATED).increment(1);
}

/// Records a connection refused at the connection cap.
pub(crate) fn connection_refused() {
    counter!(CONNECTIONS_REFUSED).increment(1);
}

/// Records whether `partition`'s tables (named by their sizes, "8-7" for the 7-8 tables) are loaded.
pub(crate) fn pattern_databases_ready(partition: &str, ready: bool) {
    gauge!(PATTERN_DATABASES_READY, "partition" => partition.to_owned()).set(if ready { 1.0 } else { 0.0 });
}

/// Records whether the replica is joined to its cluster.
pub(crate) fn cluster_connected(connected: bool) {
    gauge!(CLUSTER_CONNECTED).set(if connected { 1.0 } else { 0.0 });
}

/// Records a piece this replica ran, by `outcome`.
pub(crate) fn cluster_piece(outcome: &'static str) {
    counter!(CLUSTER_PIECES, "outcome" => outcome).increment(1);
}

/// Records nodes searched for another replica's request.
pub(crate) fn cluster_remote_nodes(nodes: u64) {
    counter!(CLUSTER_REMOTE_NODES).increment(nodes);
}

/// Records pieces published as a coordinator.
pub(crate) fn cluster_pieces_published(pieces: u64) {
    counter!(CLUSTER_PIECES_PUBLISHED).increment(pieces);
}

/// One unit of a gauge of things in progress: counted while the guard lives.
#[derive(Debug)]
pub(crate) struct InProgress(&'static str);

impl InProgress {
    /// A running search, counted until dropped.
    pub(crate) fn search() -> InProgress {
        InProgress::start(SEARCHES_RUNNING)
    }

    /// A request waiting for a search slot, counted until dropped.
    pub(crate) fn queued() -> InProgress {
        InProgress::start(SEARCHES_QUEUED)
    }

    fn start(name: &'static str) -> InProgress {
        gauge!(name).increment(1.0);
        InProgress(name)
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        gauge!(self.0).decrement(1.0);
    }
}
