//! A replica's workers: each pulls one piece at a time from the cluster's stream while one of
//! the server's search slots (or a core a waiting coordinator lends) is free, runs it on a
//! blocking thread that holds that slot, and reports it to its coordinator.
//!
//! The server's core cap holds: a worker pulls only when a slot is free, and takes it with
//! `try_acquire`, which never goes ahead of a request waiting for a slot; a piece it cannot
//! give a slot to goes back to the stream at once (a NAK) for another replica. While a piece
//! runs, the worker acks it "in progress" every second, so JetStream gives it to another
//! worker only if this one dies; and it stops the piece within a fifth of a second once its
//! iteration ends or its coordinator goes silent (`liveness`), or the server shuts down.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use async_nats::jetstream::consumer::PullConsumer;
use async_nats::jetstream::{AckKind, Message};
use bytes::Bytes;
use tokio_stream::StreamExt;
use tracing::{debug, warn};

use super::subjects::Subjects;
use super::{Shared, wire};
use crate::metrics::{self, InProgress};
use crate::solver::{FarmError, FarmedResult, Lease, PieceOrder, run_piece};

/// How long a pull waits for a piece.
const PULL_WAIT: Duration = Duration::from_secs(1);

/// How often an idle worker with no free slot looks again, and a running piece's iteration is
/// checked.
const TICK: Duration = Duration::from_millis(200);

/// How many ticks between two "in progress" acks.
const TICKS_PER_PROGRESS: u32 = 5;

/// How long a piece that found no free slot, or no tables, waits before it is offered again.
const NOT_NOW: Duration = Duration::from_millis(200);

/// One worker, until the server shuts down.
pub(super) async fn work(shared: Arc<Shared>, consumer: PullConsumer) {
    while !shared.shutdown.is_cancelled() {
        if shared.slots.available_permits() == 0 && !shared.spare.any_free() {
            tokio::select! {
                () = tokio::time::sleep(TICK / 4) => continue,
                () = shared.shutdown.cancelled() => return,
            }
        }
        let pulled = tokio::select! {
            pulled = consumer.fetch().max_messages(1).expires(PULL_WAIT).messages() => pulled,
            () = shared.shutdown.cancelled() => return,
        };
        let mut batch = match pulled {
            Ok(batch) => batch,
            Err(error) => {
                debug!(%error, "cannot pull from the cluster's stream");
                tokio::time::sleep(PULL_WAIT).await;
                continue;
            }
        };
        while let Some(message) = batch.next().await {
            match message {
                Ok(message) => run(&shared, message).await,
                Err(error) => debug!(%error, "a pull from the cluster's stream failed"),
            }
        }
    }
}

/// Runs one pulled piece, or hands it back.
async fn run(shared: &Arc<Shared>, message: Message) {
    let iteration = Subjects::last_token(&message.subject).to_owned();
    let order = match PieceOrder::decode(&message.payload) {
        Ok(order) => order,
        Err(error) => {
            warn!(%error, subject = %message.subject, "dropping a piece this replica cannot read");
            let _ = message.ack_with(AckKind::Term).await;
            return;
        }
    };
    if shared.liveness.is_over(&iteration) {
        let _ = message.ack().await;
        metrics::cluster_piece("dropped");
        return;
    }
    let Some(lease) = lease(shared) else {
        let _ = message.ack_with(AckKind::Nak(Some(NOT_NOW))).await;
        return;
    };
    let redelivered = message.info().is_ok_and(|info| info.delivered > 1);
    let databases = shared.tables_named(&order.tables);
    let index = order.index;
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let piece = tokio::task::spawn_blocking({
        let stop = stop.clone();
        move || {
            let _lease = lease;
            let _running = InProgress::search();
            run_piece(&order, databases.as_deref(), &|| stop.load(Ordering::Relaxed))
        }
    });
    tokio::pin!(piece);
    let mut ticks = tokio::time::interval(TICK);
    let mut ticked = 0u32;
    let joined = loop {
        tokio::select! {
            joined = &mut piece => break joined,
            _ = ticks.tick() => {
                ticked += 1;
                if shared.liveness.is_over(&iteration) || shared.shutdown.is_cancelled() {
                    stop.store(true, Ordering::Relaxed);
                }
                if ticked.is_multiple_of(TICKS_PER_PROGRESS) {
                    let _ = message.ack_with(AckKind::Progress).await;
                }
            }
        }
    };
    match joined {
        Ok(Ok(Some(report))) => {
            let nodes = report.expanded;
            let result = FarmedResult { index, worker: shared.replica.clone(), report };
            let Some(joined) = shared.joined.get() else { return };
            let subject = shared.subjects.results(&iteration);
            if joined.client.publish(subject, Bytes::from(wire::encode(&result))).await.is_err() {
                let _ = message.ack_with(AckKind::Nak(None)).await;
                return;
            }
            let _ = message.ack().await;
            debug!(%iteration, index, nodes, took = ?started.elapsed(), "piece done");
            metrics::cluster_piece(if redelivered { "redelivered" } else { "done" });
            if Subjects::coordinator(&iteration) != shared.replica {
                metrics::cluster_remote_nodes(nodes);
            }
        }
        Ok(Ok(None)) if shared.shutdown.is_cancelled() => {
            let _ = message.ack_with(AckKind::Nak(None)).await;
        }
        Ok(Ok(None)) => {
            let _ = message.ack().await;
            metrics::cluster_piece("dropped");
        }
        Ok(Err(FarmError::TablesMissing(tables))) => {
            debug!(%tables, "a piece for tables this replica has not loaded: handed back");
            let _ = message.ack_with(AckKind::Nak(Some(NOT_NOW))).await;
        }
        Ok(Err(error)) => {
            warn!(%error, "dropping a piece this replica cannot run");
            let _ = message.ack_with(AckKind::Term).await;
        }
        Err(crash) => {
            warn!(%crash, "a piece's search failed: handed back");
            let _ = message.ack_with(AckKind::Nak(Some(NOT_NOW))).await;
        }
    }
}

/// A free search slot, or else a core a waiting coordinator lends; never one a request waits
/// for.
fn lease(shared: &Shared) -> Option<Lease> {
    match shared.slots.clone().try_acquire_owned() {
        Ok(permit) => Some(Lease::new(permit)),
        Err(_) => shared.spare.take().map(Lease::new),
    }
}
