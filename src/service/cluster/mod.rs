//! Cluster mode: one search spread over the replicas that share a NATS JetStream server
//! (`npuzzle-server --cluster nats://HOST:4222`).
//!
//! Every replica of a cluster is a worker, and a replica that takes a request coordinates it:
//! IDA* hands the pieces of its long iterations to the [`Cluster`], the library's
//! [`Farm`]. The coordinator publishes them to a JetStream work-queue
//! stream (`coordinator`); every replica's workers pull them while a search slot is free, run
//! them, and report back (`worker`). Without `--cluster` nothing here runs and nothing touches
//! NATS.
//!
//! - `config`: the servers, name, credentials and TLS, and when an iteration goes out.
//! - `subjects`: the stream and subjects of a cluster.
//! - `wire`: a report's bytes on its way back.
//! - `members`: the replicas up, and the tables each holds.
//! - `liveness`: a worker's view of the iterations: ended, or their coordinator silent.
//! - `spare`: the core of a coordinator that waits, lent to its own replica's workers.
//! - `worker`, `coordinator`: the two sides of a farmed iteration.
//!
//! A replica that cannot reach NATS at start logs why, serves alone and tries again; the gauge
//! `npuzzle_cluster_connected` says whether it is joined.

mod config;
mod coordinator;
mod liveness;
mod members;
mod spare;
mod subjects;
mod wire;
mod worker;

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_nats::jetstream::{self, consumer, stream};
use bytes::Bytes;
use thiserror::Error;
use tokio::runtime::Handle;
use tokio::sync::{Semaphore, watch};
use tokio_stream::StreamExt;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

pub use config::{ClusterConfig, ClusterTls, Credentials, DEFAULT_CLUSTER_NAME, DEFAULT_FARM_AFTER, valid_name};

use crate::metrics;
use crate::service::DatabaseSlot;
use crate::solver::pdb::cache;
use crate::solver::{Farm, FarmError, FarmedIteration, PatternDatabases, PieceOrder};
use liveness::Liveness;
use members::{ANNOUNCE_EVERY, Members};
use spare::Spare;
use subjects::Subjects;

/// How long a worker holds a piece with no word before JetStream gives it to another: a
/// worker acks "in progress" every second while it runs one, so only a dead worker's piece
/// waits this long.
const ACK_WAIT: Duration = Duration::from_secs(5);

/// How long an order is kept in the stream at most: a dead coordinator's pieces go then.
const MAX_AGE: Duration = Duration::from_secs(3600);

/// How long a replica that could not join waits before it tries again.
const RETRY_JOIN: Duration = Duration::from_secs(5);

/// Why a replica could not join its cluster.
#[derive(Debug, Error)]
enum JoinError {
    #[error("cannot connect to NATS: {0}")]
    Connect(#[from] async_nats::ConnectError),
    #[error("cannot read the NATS credentials: {0}")]
    Credentials(#[from] std::io::Error),
    #[error("cannot set up the JetStream stream or consumer: {0}")]
    JetStream(String),
}

/// A joined replica's connection.
struct Joined {
    client: async_nats::Client,
    jetstream: jetstream::Context,
    stream: stream::Stream,
    consumer: consumer::PullConsumer,
}

/// What the coordinator and the workers of a replica share.
struct Shared {
    config: ClusterConfig,
    subjects: Subjects,
    /// This replica's name in the cluster.
    replica: String,
    joined: OnceLock<Joined>,
    members: Members,
    liveness: Liveness,
    spare: Arc<Spare>,
    /// The server's search slots, which pieces take like searches.
    slots: Arc<Semaphore>,
    tables: Vec<DatabaseSlot>,
    runtime: Handle,
    shutdown: CancellationToken,
    /// Counts the connection's (re)connects, which coordinators watch to publish again.
    reconnects: watch::Sender<u64>,
    /// Iterations this replica has farmed.
    iterations: AtomicU64,
}

/// A replica's membership of a cluster: the [`Farm`] its searches use. Cheap to clone.
#[derive(Clone)]
pub struct Cluster {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("name", &self.shared.config.name)
            .field("replica", &self.shared.replica)
            .finish()
    }
}

impl Cluster {
    /// Joins the cluster `config` names in the background, on the current tokio runtime; `slots`
    /// are the server's search slots, `tables` its pattern databases, `workers` how many
    /// pieces it may run at once, and `shutdown` ends it all.
    pub(crate) fn start(
        config: ClusterConfig,
        slots: Arc<Semaphore>,
        tables: Vec<DatabaseSlot>,
        workers: usize,
        shutdown: CancellationToken,
    ) -> Cluster {
        metrics::cluster_connected(false);
        let shared = Arc::new(Shared {
            subjects: Subjects::new(&config.name),
            config,
            replica: replica_name(),
            joined: OnceLock::new(),
            members: Members::default(),
            liveness: Liveness::default(),
            spare: Arc::new(Spare::default()),
            slots,
            tables,
            runtime: Handle::current(),
            shutdown,
            reconnects: watch::Sender::new(0),
            iterations: AtomicU64::new(0),
        });
        tokio::spawn(join(shared.clone(), workers));
        Cluster { shared }
    }
}

impl Farm for Cluster {
    fn workers(&self, tables: &str) -> usize {
        if self.shared.joined.get().is_none() {
            return 0;
        }
        self.shared.members.count(&self.shared.replica, tables)
    }

    fn after(&self) -> u64 {
        self.shared.config.farm_after
    }

    fn start(&self, pieces: Vec<PieceOrder>) -> Result<Box<dyn FarmedIteration>, FarmError> {
        coordinator::start(&self.shared, pieces)
    }
}

impl Shared {
    /// The loaded tables whose file name is `name`.
    fn tables_named(&self, name: &str) -> Option<Arc<PatternDatabases>> {
        self.tables
            .iter()
            .filter_map(DatabaseSlot::get)
            .find(|databases| cache::file_name(databases.partition()) == name)
    }

    /// The file names of the tables loaded now.
    fn table_names(&self) -> Vec<String> {
        self.tables
            .iter()
            .filter_map(DatabaseSlot::get)
            .map(|databases| cache::file_name(databases.partition()))
            .collect()
    }
}

/// A name for this replica, unique in its cluster: its process id and start time.
fn replica_name() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_nanos());
    format!("r{:x}{:x}", std::process::id(), nanos & 0xffff_ffff_ffff)
}

/// Connects until it succeeds or the server shuts down, then starts the replica's heartbeat,
/// its listeners and its `workers` workers.
async fn join(shared: Arc<Shared>, workers: usize) {
    let joined = loop {
        match connect(&shared).await {
            Ok(joined) => break joined,
            Err(error) => {
                warn!(%error, servers = ?shared.config.servers, "cannot join the cluster: serving alone, trying again in {RETRY_JOIN:?}");
                tokio::select! {
                    () = tokio::time::sleep(RETRY_JOIN) => {}
                    () = shared.shutdown.cancelled() => return,
                }
            }
        }
    };
    let client = joined.client.clone();
    let consumer = joined.consumer.clone();
    if shared.joined.set(joined).is_err() {
        return;
    }
    metrics::cluster_connected(true);
    info!(cluster = %shared.config.name, replica = %shared.replica, "joined the cluster");
    tokio::spawn(announce(shared.clone(), client.clone()));
    tokio::spawn(listen(shared.clone(), client));
    for _ in 0..workers {
        tokio::spawn(worker::work(shared.clone(), consumer.clone()));
    }
}

/// The connection, the stream and the workers' consumer.
async fn connect(shared: &Arc<Shared>) -> Result<Joined, JoinError> {
    let config = &shared.config;
    let reconnects = shared.reconnects.clone();
    let options = config.options(&shared.replica).await?.event_callback(move |event| {
        match event {
            async_nats::Event::Connected => {
                metrics::cluster_connected(true);
                reconnects.send_modify(|count| *count += 1);
            }
            async_nats::Event::Disconnected | async_nats::Event::Closed => metrics::cluster_connected(false),
            _ => {}
        }
        async {}
    });
    let client = options.connect(config.servers.as_slice()).await?;
    let jetstream = jetstream::new(client.clone());
    let subjects = &shared.subjects;
    let failed = |error: &dyn std::fmt::Display| JoinError::JetStream(error.to_string());
    let stream = jetstream
        .get_or_create_stream(stream::Config {
            name: subjects.stream(),
            subjects: vec![subjects.all_pieces()],
            retention: stream::RetentionPolicy::WorkQueue,
            storage: stream::StorageType::File,
            max_age: MAX_AGE,
            ..Default::default()
        })
        .await
        .map_err(|error| failed(&error))?;
    let consumer = stream
        .get_or_create_consumer(
            subjects::WORKERS,
            consumer::pull::Config {
                durable_name: Some(subjects::WORKERS.to_owned()),
                ack_policy: consumer::AckPolicy::Explicit,
                ack_wait: ACK_WAIT,
                max_ack_pending: -1,
                filter_subject: subjects.all_pieces(),
                ..Default::default()
            },
        )
        .await
        .map_err(|error| failed(&error))?;
    Ok(Joined { client, jetstream, stream, consumer })
}

/// Announces this replica and the tables it holds every second.
async fn announce(shared: Arc<Shared>, client: async_nats::Client) {
    let subject = shared.subjects.replica(&shared.replica);
    let mut every = tokio::time::interval(ANNOUNCE_EVERY);
    loop {
        tokio::select! {
            _ = every.tick() => {
                let tables = members::announcement(&shared.table_names());
                let _ = client.publish(subject.clone(), Bytes::from(tables)).await;
            }
            () = shared.shutdown.cancelled() => return,
        }
    }
}

/// Listens to the replicas' announcements and the coordinators' heartbeats and end notices.
async fn listen(shared: Arc<Shared>, client: async_nats::Client) {
    let subjects = &shared.subjects;
    let subscribed = async {
        Ok::<_, async_nats::SubscribeError>((
            client.subscribe(subjects.all_replicas()).await?,
            client.subscribe(subjects.all_alive()).await?,
            client.subscribe(subjects.all_ended()).await?,
        ))
    };
    let (mut replicas, mut alive, mut ended) = match subscribed.await {
        Ok(subscribed) => subscribed,
        Err(error) => {
            warn!(%error, "cannot listen to the cluster: other replicas' searches will not come here");
            return;
        }
    };
    loop {
        tokio::select! {
            Some(message) = replicas.next() => {
                shared.members.heard(Subjects::last_token(&message.subject), &message.payload);
            }
            Some(message) = alive.next() => shared.liveness.alive(Subjects::last_token(&message.subject)),
            Some(message) = ended.next() => shared.liveness.ended(Subjects::last_token(&message.subject)),
            () = shared.shutdown.cancelled() => return,
            else => return,
        }
    }
}
