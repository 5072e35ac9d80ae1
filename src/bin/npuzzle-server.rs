//! `npuzzle-server`: serves the npuzzle gRPC API. It parses flags, sets up logging (`RUST_LOG`,
//! `info` by default), binds the listener and hands everything to [`npuzzle::server::run`];
//! SIGINT or SIGTERM shuts it down gracefully and it exits 0.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use clap::builder::RangedU64ValueParser;
use npuzzle::board::{DEFAULT_MAX_DIMENSION, MAX_DIMENSION};
use npuzzle::server::{self, Config};
use npuzzle::solver::{DEFAULT_MAX_EXPANDED_NODES, DatabaseSlot, Partition, PatternDatabases, default_cache_dir};
use tokio::net::TcpListener;
use tracing::{info, warn};
use tracing_subscriber::EnvFilter;

/// Serves optimal sliding-tile puzzle solutions over gRPC (npuzzle.v1.SolverService), with
/// health checking and server reflection.
#[derive(Debug, Parser)]
#[command(version)]
struct Flags {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Searches that may run at once, one thread each [default: the number of cores].
    #[arg(long)]
    max_concurrent_solves: Option<NonZeroUsize>,
    /// Node budget cap per search; requests asking for more (or for 0) get this. With A* it
    /// bounds memory too (the solver documents the bytes per node).
    #[arg(long, default_value_t = DEFAULT_MAX_EXPANDED_NODES)]
    max_expanded_nodes: u64,
    /// The largest board dimension N accepted.
    #[arg(long, default_value_t = DEFAULT_MAX_DIMENSION,
          value_parser = RangedU64ValueParser::<usize>::new().range(2..=MAX_DIMENSION as u64))]
    max_dimension: usize,
    /// Milliseconds between progress messages when a stream's request leaves it at 0.
    #[arg(long, default_value_t = millis(server::DEFAULT_PROGRESS_INTERVAL))]
    progress_interval_ms: u64,
    /// Milliseconds a request waits for a free search slot before RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = millis(server::DEFAULT_QUEUE_TIMEOUT))]
    queue_timeout_ms: u64,
    /// Milliseconds a shutdown lets running searches finish before stopping them.
    #[arg(long, default_value_t = millis(server::DEFAULT_DRAIN_TIMEOUT))]
    drain_timeout_ms: u64,
    /// The largest request message accepted, in bytes.
    #[arg(long, default_value_t = server::DEFAULT_MAX_MESSAGE_BYTES)]
    max_message_bytes: usize,
    /// The 4×4 pattern databases: 7-8 (the fastest searches; built once in minutes, 577 MB) or
    /// 6-6-3 (built in seconds, 11.5 MB). Loaded or built in the background at startup.
    #[arg(long, value_name = "PARTITION", default_value = "7-8")]
    pattern_db: Partition,
    /// Serve without pattern databases: 4×4 and 5×5 boards use IDA* with linear conflict.
    #[arg(long)]
    no_pattern_db: bool,
    /// Serve without the 5×5 pattern databases (6-6-6-6: 488 MB, built once in minutes and
    /// about 2 GB); 5×5 boards then use IDA* with linear conflict.
    #[arg(long)]
    no_pattern_db_5x5: bool,
    /// Where the pattern databases are cached [default: $NPUZZLE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Flags {
    fn config(&self) -> Config {
        let defaults = Config::default();
        Config {
            max_concurrent_solves: self.max_concurrent_solves.map_or(defaults.max_concurrent_solves, NonZeroUsize::get),
            max_expanded_nodes: self.max_expanded_nodes,
            max_dimension: self.max_dimension,
            progress_interval: Duration::from_millis(self.progress_interval_ms),
            queue_timeout: Duration::from_millis(self.queue_timeout_ms),
            drain_timeout: Duration::from_millis(self.drain_timeout_ms),
            max_message_bytes: self.max_message_bytes,
            pattern_databases: DatabaseSlot::new(),
            pattern_databases_5x5: DatabaseSlot::new(),
        }
    }

    /// Starts loading (or, the first time, building) the 4×4 and then the 5×5 pattern
    /// databases on a thread of their own, one after the other so that two cold builds never
    /// add their peaks, and returns the slots they will fill (left empty when turned off); each
    /// outcome is logged when it is known.
    fn start_pattern_databases(&self) -> anyhow::Result<[DatabaseSlot; 2]> {
        if self.pattern_db.dimension() != 4 {
            anyhow::bail!(
                "--pattern-db {} is a partition for 5x5 boards; expected 7-8 or 6-6-3",
                self.pattern_db.sizes()
            );
        }
        let slots = [DatabaseSlot::new(), DatabaseSlot::new()];
        if self.no_pattern_db {
            info!("pattern databases off: 4x4 and 5x5 boards use IDA* with linear conflict");
            return Ok(slots);
        }
        let dir = match &self.cache_dir {
            Some(dir) => dir.clone(),
            None => default_cache_dir()?,
        };
        let mut wanted = vec![(self.pattern_db.clone(), slots[0].clone())];
        if self.no_pattern_db_5x5 {
            info!("5x5 pattern databases off: 5x5 boards use IDA* with linear conflict");
        } else {
            wanted.push((Partition::six_six_six_six(), slots[1].clone()));
        }
        info!(
            dir = %dir.display(),
            partitions = ?wanted.iter().map(|(partition, _)| partition.sizes()).collect::<Vec<_>>(),
            "loading the pattern databases in the background; boards use linear conflict until theirs are ready"
        );
        std::thread::spawn(move || {
            for (partition, slot) in wanted {
                load_into(&dir, &partition, &slot);
            }
        });
        Ok(slots)
    }
}

/// Loads or builds the tables of `partition` from `dir` and fills `slot`, logging the outcome.
fn load_into(dir: &Path, partition: &Partition, slot: &DatabaseSlot) {
    let side = partition.dimension();
    let started = Instant::now();
    let loaded = panic::catch_unwind(AssertUnwindSafe(|| PatternDatabases::load_or_build_partition(dir, partition)));
    match loaded {
        Ok(Ok(databases)) => {
            slot.fill(databases);
            info!(elapsed = ?started.elapsed(), "{side}x{side} pattern databases ready");
        }
        Ok(Err(error)) => {
            warn!(%error, "{side}x{side} pattern databases unavailable; {side}x{side} boards stay on linear conflict")
        }
        Err(_) => {
            warn!("the {side}x{side} pattern-database loader crashed; {side}x{side} boards stay on linear conflict")
        }
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
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let [four, five] = flags.start_pattern_databases()?;
    let config = Config { pattern_databases: four, pattern_databases_5x5: five, ..flags.config() };
    let listener =
        TcpListener::bind(flags.listen).await.with_context(|| format!("cannot listen on {}", flags.listen))?;
    let address = listener.local_addr().context("cannot read the bound address")?;
    info!(%address, ?config, "npuzzle-server listening");
    server::run(listener, shutdown_signal(), config).await?;
    Ok(())
}
