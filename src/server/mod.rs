//! The npuzzle gRPC server: [`run`] serves the [`SolverService`], `grpc.health.v1` and server
//! reflection (v1 and v1alpha) on a listener until its shutdown future completes; on the same
//! port, unless [`Config::web`] is off, gRPC-Web and the browser page (`web`). The server
//! binary, the client's embedded mode and the tests all start it the same way.
//!
//! Shutdown is graceful: health turns NOT_SERVING, the listener closes (`incoming`: new
//! connections are refused from then on), running searches get [`Config::drain_timeout`] to
//! finish, then every search is stopped (its caller
//! gets UNAVAILABLE), and `run` returns once the connections have closed, or a short grace
//! later if a client holds one open (a health watch, say). A client that keeps calling during
//! the drain sees its new calls refused (the connection, or the stream by the GOAWAY), never
//! sent, so safe to retry; no connection that carried a call is reset.
//!
//! Beyond loopback: [`tls`] (TLS and mTLS), [`auth`] (access tokens), [`connection_limits`] (every
//! HTTP/2 and connection limit, set explicitly) and [`connection`] (each connection held to
//! its deadlines).

use std::future::Future;
use std::time::Duration;

use http::HeaderValue;

pub mod auth;
pub mod connection;
pub mod connection_limits;
mod incoming;
pub mod tls;
mod web;

use thiserror::Error;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic::transport;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tracing::{info, warn};

use incoming::{Admission, Listener};

use crate::proto::{self, solver_service_server::SolverServiceServer};
use crate::service::DatabaseSlot;
use crate::service::{Limits, RunningSearches, SolverService};

/// The default of [`Config::drain_timeout`].
pub const DEFAULT_DRAIN_TIMEOUT: Duration = Duration::from_secs(2);
/// The default of [`Config::max_message_bytes`]: room for a 255×255 board as text.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 1 << 20;
/// How long `run` waits, after stopping the searches, for the connections to close.
const CLOSE_GRACE: Duration = Duration::from_millis(500);

/// The server's settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// The service's limits: concurrent searches, and each one's memory, time and nodes.
    pub limits: Limits,
    /// How long a shutdown lets running searches finish before stopping them.
    pub drain_timeout: Duration,
    /// The largest request message accepted; a larger one is refused with OUT_OF_RANGE by the
    /// transport before it is decoded.
    pub max_message_bytes: usize,
    /// The pattern databases, a slot per board size (4×4, 5×5), read by every request when it
    /// starts. A slot may be filled later (the server binary loads or builds the tables in the
    /// background): until then its boards are solved with IDA* and linear conflict, slower but
    /// just as optimal, so a cold start never leaves a request waiting on the build (and a
    /// request naming the pattern-database heuristic gets UNAVAILABLE). Empty: no tables.
    pub pattern_databases: Vec<DatabaseSlot>,
    /// Serve the browser page at `/` and gRPC-Web (over HTTP/1.1 too) beside HTTP/2 gRPC.
    pub web: bool,
    /// Origins of pages served elsewhere that may call over gRPC-Web (CORS); empty: none.
    pub allowed_origins: Vec<HeaderValue>,
    /// The HTTP/2 and connection limits.
    pub connections: connection_limits::ConnectionLimits,
    /// The certificates to serve TLS with; `None` serves plaintext.
    pub tls: Option<tls::ServerTls>,
    /// The access tokens `SolverService` calls must carry one of; `None` lets every call in.
    pub access_tokens: Option<auth::AccessTokens>,
    /// The cluster this replica joins; `None` serves alone and never touches NATS.
    pub cluster: Option<crate::service::cluster::ClusterConfig>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits::default(),
            drain_timeout: DEFAULT_DRAIN_TIMEOUT,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            pattern_databases: Vec::new(),
            web: true,
            allowed_origins: Vec::new(),
            connections: connection_limits::ConnectionLimits::default(),
            tls: None,
            access_tokens: None,
            cluster: None,
        }
    }
}

/// Why the server could not serve.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The gRPC transport failed.
    #[error("gRPC transport error: {0}")]
    Transport(#[from] transport::Error),
    /// The descriptor set for reflection did not decode (a build problem).
    #[error("cannot build server reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
}

/// A server not yet serving: [`Server::running_searches`] can be read before and while it runs.
#[derive(Debug)]
pub struct Server {
    config: Config,
    service: SolverService,
}

impl Server {
    /// A server with `config`'s limits.
    pub fn new(config: Config) -> Server {
        let service = SolverService::new(&config.limits, config.pattern_databases.clone());
        Server { config, service }
    }

    /// The live count of running searches.
    pub fn running_searches(&self) -> RunningSearches {
        self.service.running_searches()
    }

    /// Serves on `listener` until `shutdown` completes, then shuts down gracefully (see the
    /// module docs) and returns `Ok`.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let mut this = self;
        if let Some(cluster) = this.config.cluster.clone() {
            this.service = this.service.join_cluster(cluster);
        }
        this.serve_joined(listener, shutdown).await
    }

    /// [`Server::serve`], the cluster joined if there is one.
    async fn serve_joined(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let (health, health_service) = tonic_health::server::health_reporter();
        set_health(&health, ServingStatus::Serving).await;
        let solver =
            SolverServiceServer::new(self.service.clone()).max_decoding_message_size(self.config.max_message_bytes);
        let stopping = CancellationToken::new();
        let limits = self.config.connections;
        let hard_age = limits.hard_age(self.config.limits.max_search_time);
        let listener = Listener::new(listener, Admission { limits, hard_age, tls: self.config.tls.clone() });
        let signal = announce_shutdown(shutdown, health, listener.clone(), stopping.clone());
        let routes = web::Services::new(self.config.web)
            .add(health_service)
            .add(reflection().build_v1()?)
            .add(reflection().build_v1alpha()?)
            .add_guarded(solver, auth::RequireToken(self.config.access_tokens.clone()))
            .into_routes(&self.config.allowed_origins);
        let serving = limits
            .configure(transport::Server::builder())
            .layer(connection::CallsLayer)
            .accept_http1(self.config.web)
            .add_routes(routes)
            .serve_with_incoming_shutdown(listener, signal);
        let drained = drain(stopping, &self.service, self.config.drain_timeout);
        let served = tokio::select! {
            served = serving => served,
            () = drained => {
                warn!("connections still open {CLOSE_GRACE:?} after the searches were stopped; closing");
                Ok(())
            }
        };
        self.service.cancel_all();
        info!("server stopped");
        Ok(served?)
    }
}

/// Serves `config`'s server on `listener` until `shutdown` completes; see [`Server::serve`].
pub async fn run(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
    config: Config,
) -> Result<(), ServerError> {
    Server::new(config).serve(listener, shutdown).await
}

/// Reflection over the npuzzle and health services.
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
}

/// Sets the health of the whole server ("") and of the solver service.
async fn set_health(health: &HealthReporter, status: ServingStatus) {
    health.set_service_status("", status).await;
    health.set_service_status(<SolverServiceServer<SolverService> as tonic::server::NamedService>::NAME, status).await;
}

/// Completes when the transport should stop accepting: after `shutdown`, once health says
/// NOT_SERVING, the listener is closed and the drain has begun.
async fn announce_shutdown(
    shutdown: impl Future<Output = ()>,
    health: HealthReporter,
    listener: Listener,
    stopping: CancellationToken,
) {
    shutdown.await;
    info!("shutting down: no new connections; running searches may finish");
    set_health(&health, ServingStatus::NotServing).await;
    listener.close();
    stopping.cancel();
}

/// Once shutdown has begun: waits `drain_timeout`, stops every search, then waits a short grace
/// for the connections to close.
async fn drain(stopping: CancellationToken, service: &SolverService, drain_timeout: Duration) {
    stopping.cancelled().await;
    tokio::time::sleep(drain_timeout).await;
    info!(running = service.running_searches().count(), "drain over: stopping the remaining searches");
    service.cancel_all();
    tokio::time::sleep(CLOSE_GRACE).await;
}
