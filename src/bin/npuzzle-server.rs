//! `npuzzle-server`: serves the npuzzle gRPC API. It parses flags, sets up logging (`RUST_LOG`,
//! `info` by default), starts the pattern databases in the background and, with
//! `--metrics-listen`, the Prometheus endpoint, binds the listener and hands everything to
//! [`npuzzle::server::run`]; SIGINT or SIGTERM shuts it down gracefully and it exits 0.
//!
//! With `--tls-cert`/`--tls-key` it serves TLS (SIGHUP reloads the certificates), with
//! `--tls-client-ca` mTLS, with `--auth-token-file` access tokens; see [`security`].
//!
//! With `--cluster nats://HOST:4222` it joins a cluster of replicas that share their long
//! searches; see [`cluster`].
//!
//! `--prepare` instead builds (or checks) the pattern-database files the server would use and
//! exits: the step a container image or a deploy runs, so servers start warm.

#[path = "npuzzle-server/cluster.rs"]
mod cluster;
#[path = "npuzzle-server/security.rs"]
mod security;

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use bytesize::ByteSize;
use clap::Parser;
use clap::builder::RangedU64ValueParser;
use http::HeaderValue;
use npuzzle::board::{DEFAULT_MAX_DIMENSION, MAX_DIMENSION};
use npuzzle::metrics;
use npuzzle::server::{self, Config};
use npuzzle::service::DatabaseSlot;
use npuzzle::service::{self, Limits};
use npuzzle::solver::{Partition, PatternDatabases, TableMemory, cache_dir};
use tokio::net::TcpListener;
use tracing::{info, warn};
use tracing_subscriber::EnvFilter;

/// Serves optimal sliding-tile puzzle solutions over gRPC (npuzzle.v1.SolverService), with
/// health checking and server reflection.
#[derive(Debug, Parser)]
#[command(name = "npuzzle-server", version)]
struct Flags {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Searches that may run at once, one thread each [default: the number of cores].
    #[arg(long)]
    max_concurrent_solves: Option<NonZeroUsize>,
    /// Node cap per search: requests asking for more (or for 0) get this [default: none; memory
    /// and time bound every search].
    #[arg(long, value_name = "N")]
    max_expanded_nodes: Option<u64>,
    /// Memory one search may hold, e.g. 512MiB or 2GiB; past it A* answers RESOURCE_EXHAUSTED.
    #[arg(long, value_name = "SIZE", default_value = "2GiB")]
    max_search_memory: ByteSize,
    /// Time one search may run, e.g. 90s or 10m, whatever the request's deadline; past it the
    /// search answers RESOURCE_EXHAUSTED.
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = humantime::parse_duration)]
    max_search_time: Duration,
    /// The largest board dimension N accepted.
    #[arg(long, default_value_t = DEFAULT_MAX_DIMENSION,
          value_parser = RangedU64ValueParser::<usize>::new().range(2..=MAX_DIMENSION as u64))]
    max_dimension: usize,
    /// Milliseconds between progress messages when a stream's request leaves it at 0.
    #[arg(long, default_value_t = millis(service::DEFAULT_PROGRESS_INTERVAL))]
    progress_interval_ms: u64,
    /// Milliseconds a request waits for a free search slot before RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = millis(service::DEFAULT_QUEUE_TIMEOUT))]
    queue_timeout_ms: u64,
    /// Milliseconds a shutdown lets running searches finish before stopping them.
    #[arg(long, default_value_t = millis(server::DEFAULT_DRAIN_TIMEOUT))]
    drain_timeout_ms: u64,
    /// The largest request message accepted, in bytes.
    #[arg(long, default_value_t = server::DEFAULT_MAX_MESSAGE_BYTES)]
    max_message_bytes: usize,
    /// The 4×4 pattern databases: 7-8 (the fastest searches; built once in minutes, 288 MB) or
    /// 6-6-3 (built in seconds, 5.8 MB). Loaded or built in the background at startup; while
    /// 7-8 is built, the server answers with 6-6-3.
    #[arg(long, value_name = "PARTITION", default_value = "7-8")]
    pattern_db: Partition,
    /// Serve without pattern databases: 4×4 and 5×5 boards use IDA* with linear conflict.
    #[arg(long)]
    no_pattern_db: bool,
    /// Serve without the 5×5 pattern databases (four 6-6-6-6 partitions: 1.40 GB, built once in
    /// about two and a half minutes and 2.4 GB); 5×5 boards then use IDA* with linear conflict.
    #[arg(long)]
    no_pattern_db_5x5: bool,
    /// Where the pattern databases are cached [default: $NPUZZLE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// How the loaded tables are held: `mapped` (the file's pages, shared with every process
    /// that maps the file; loads in milliseconds) or `resident` (a copy of the server's own on
    /// huge pages, which no change to the file can reach).
    #[arg(long, value_name = "MEMORY", default_value = "mapped")]
    tables: TableMemory,
    /// Build (or check) the pattern-database files this server would use in the cache
    /// directory, then exit 0 without serving: the deploy or container-image step.
    #[arg(long)]
    prepare: bool,
    /// Serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9090).
    #[arg(long, value_name = "ADDR")]
    metrics_listen: Option<SocketAddr>,
    /// Serve neither the browser page at / nor gRPC-Web: HTTP/2 gRPC only.
    #[arg(long)]
    no_web: bool,
    /// Let pages served from ORIGIN (e.g. `https://puzzles.example.org`) call over gRPC-Web
    /// (CORS); repeatable. Without it, only the page this server serves can.
    #[arg(long, value_name = "ORIGIN", value_parser = parse_origin)]
    allow_origin: Vec<HeaderValue>,
    #[command(flatten)]
    security: security::SecurityFlags,
    #[command(flatten)]
    cluster: cluster::ClusterFlags,
}

/// An `--allow-origin` value: a header value, with no trailing slash, as browsers send it.
fn parse_origin(origin: &str) -> anyhow::Result<HeaderValue> {
    anyhow::ensure!(
        !origin.ends_with('/') && origin.contains("://"),
        "expected an origin such as https://example.org (a scheme, a host, maybe a port, no path)"
    );
    HeaderValue::from_str(origin).context("not a valid header value")
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Flags {
    fn config(&self) -> Config {
        let defaults = Limits::default();
        let limits = Limits {
            max_concurrent_solves: self.max_concurrent_solves.map_or(defaults.max_concurrent_solves, NonZeroUsize::get),
            max_expanded_nodes: self.max_expanded_nodes,
            max_search_memory: self.max_search_memory.as_u64(),
            max_search_time: self.max_search_time,
            max_dimension: self.max_dimension,
            progress_interval: Duration::from_millis(self.progress_interval_ms),
            queue_timeout: Duration::from_millis(self.queue_timeout_ms),
        };
        Config {
            limits,
            drain_timeout: Duration::from_millis(self.drain_timeout_ms),
            max_message_bytes: self.max_message_bytes,
            pattern_databases: Vec::new(),
            web: !self.no_web,
            allowed_origins: self.allow_origin.clone(),
            cluster: self.cluster.config(),
            ..Config::default()
        }
    }

    /// The partitions whose files this server uses, in loading order (4×4, then 5×5): none
    /// with `--no-pattern-db`, no 5×5 with `--no-pattern-db-5x5`.
    fn partitions(&self) -> anyhow::Result<Vec<Partition>> {
        if self.pattern_db.dimension() != 4 {
            anyhow::bail!(
                "--pattern-db {} is a partition for 5x5 boards; expected 7-8 or 6-6-3",
                self.pattern_db.sizes()
            );
        }
        let mut partitions = Vec::new();
        if !self.no_pattern_db {
            partitions.push(self.pattern_db.clone());
            if !self.no_pattern_db_5x5 {
                partitions.push(Partition::catalogue_of_four());
            }
        }
        Ok(partitions)
    }

    /// Starts loading (or, the first time, building) the 4×4 and then the 5×5 pattern
    /// databases on a thread of their own, one after the other so that two cold builds never
    /// add their peaks, and returns the slots they will fill (left empty when turned off); each
    /// step is logged when it is ready, a failure when it is known.
    fn start_pattern_databases(&self) -> anyhow::Result<Vec<DatabaseSlot>> {
        let partitions = self.partitions()?;
        if partitions.is_empty() {
            info!("pattern databases off: 4x4 and 5x5 boards use IDA* with linear conflict");
            return Ok(Vec::new());
        }
        let dir = cache_dir(self.cache_dir.as_deref())?;
        info!(
            dir = %dir.display(),
            partitions = ?partitions.iter().map(Partition::sizes).collect::<Vec<_>>(),
            "loading the pattern databases in the background; boards use linear conflict until theirs are ready"
        );
        let (slots, loading) = DatabaseSlot::spawn_load_or_build_each(dir, partitions, self.tables);
        std::thread::spawn(move || {
            if loading.join().is_err() {
                warn!("the pattern-database loader crashed; boards keep what is loaded");
            }
        });
        Ok(slots)
    }

    /// `--prepare`: builds or checks every pattern-database file this server would use.
    fn prepare(&self) -> anyhow::Result<()> {
        let dir = cache_dir(self.cache_dir.as_deref())?;
        for partition in self.partitions()? {
            let started = Instant::now();
            let path = PatternDatabases::prepare(&dir, &partition)
                .with_context(|| format!("cannot prepare the {} pattern databases", partition.sizes()))?;
            info!(path = %path.display(), elapsed = ?started.elapsed(), "pattern databases prepared");
        }
        info!("prepared: a server started with the same flags loads its tables at once");
        Ok(())
    }
}

/// Completes on the first SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            warn!(%error, "cannot listen for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
            }
            Err(error) => {
                warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => info!("SIGINT received"),
        () = terminate => info!("SIGTERM received"),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let flags = Flags::parse();
    npuzzle::server::tls::install_crypto_provider();
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    if flags.prepare {
        return flags.prepare();
    }
    if let Some(address) = flags.metrics_listen {
        metrics::serve(address)?;
        info!(%address, "serving Prometheus metrics at /metrics");
    }
    // Bound before the pattern databases start: a server that cannot listen builds nothing.
    let listener =
        TcpListener::bind(flags.listen).await.with_context(|| format!("cannot listen on {}", flags.listen))?;
    let config = flags.security.apply(flags.config())?;
    let pattern_databases = flags.start_pattern_databases()?;
    // Half a second at start, so that the first 5×5 search does not wait for its machine; then
    // the deeper 5×5 machine, about 3 s at idle priority, logged when ready.
    std::thread::spawn(npuzzle::solver::warm_up);
    let config = Config { pattern_databases, ..config };
    let address = listener.local_addr().context("cannot read the bound address")?;
    security::warn_if_exposed(address, &config);
    security::reload_on_sighup(&config);
    let limits = &config.limits;
    info!(
        %address,
        searches = limits.max_concurrent_solves,
        search_time = %humantime::format_duration(limits.max_search_time),
        search_memory = %bytesize::ByteSize(limits.max_search_memory),
        max_dimension = limits.max_dimension,
        tls = config.tls.is_some(),
        tokens = config.access_tokens.is_some(),
        cluster = config.cluster.as_ref().map(|cluster| cluster.name.as_str()),
        "npuzzle-server listening"
    );
    if config.web {
        let scheme = if config.tls.is_some() { "https" } else { "http" };
        info!("page: {scheme}://{address}/");
    }
    server::run(listener, shutdown_signal(), config).await?;
    Ok(())
}
