//! The coordinator's side of a farmed iteration. [`start`] publishes the piece orders to the
//! cluster's stream (every publish acknowledged by JetStream, so they are on file before the
//! search waits for them) and returns the iteration, which hands the search each report as it
//! comes. A task of the runtime meanwhile:
//!
//! - receives the reports (`C.results.ITERATION`);
//! - sends the heartbeat every second (`C.alive.ITERATION`), by which workers tell a live
//!   coordinator from a dead one;
//! - publishes the pieces not yet reported again when the connection comes back after a NATS
//!   restart (a report sent while it was down is lost), or when no report has come for
//!   [`STALL`]: a piece reported twice counts once;
//! - and when the search drops the iteration (it ended: found, cut, cancelled or failed), tells
//!   the workers (`C.ended.ITERATION`), who drop its pieces, and purges what is left of them
//!   from the stream.
//!
//! While the iteration is out the search's own thread only waits, so it lends its core to this
//! replica's workers (`spare`).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use async_nats::Subscriber;
use bytes::Bytes;
use tokio_stream::StreamExt;
use tokio_util::sync::CancellationToken;
use tracing::{debug, warn};

use super::{Shared, wire};
use crate::metrics;
use crate::solver::{FarmError, FarmedIteration, FarmedResult, PieceOrder};

/// With no report for this long, the pieces not reported are published again.
const STALL: Duration = Duration::from_secs(30);

/// How long the search's thread waits for its pieces to be published.
const PUBLISH_WAIT: Duration = Duration::from_secs(30);

/// How often the coordinator's heartbeat goes out.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// A farmed iteration, as the search holds it.
struct Iteration {
    results: mpsc::Receiver<FarmedResult>,
    ended: CancellationToken,
    shared: Arc<Shared>,
}

/// Publishes `orders` as a new iteration of this replica's and returns it.
pub(super) fn start(shared: &Arc<Shared>, orders: Vec<PieceOrder>) -> Result<Box<dyn FarmedIteration>, FarmError> {
    let transport = |error: &dyn std::fmt::Display| FarmError::Transport(error.to_string());
    let id = format!("{}-{}", shared.replica, shared.iterations.fetch_add(1, Ordering::Relaxed));
    let orders: Vec<Bytes> = orders.iter().map(|order| Bytes::from(order.encode())).collect();
    let count = orders.len();
    let (published, wait) = mpsc::channel();
    let ended = shared.shutdown.child_token();
    let (results, received) = mpsc::channel();
    shared.runtime.spawn({
        let (shared, id, ended) = (shared.clone(), id.clone(), ended.clone());
        async move {
            match publish(&shared, &id, &orders).await {
                Ok(subscriber) => {
                    let _ = published.send(Ok(()));
                    collect(shared, id, subscriber, orders, results, ended).await;
                }
                Err(error) => {
                    let _ = published.send(Err(error));
                    end(&shared, &id).await;
                }
            }
        }
    });
    match wait.recv_timeout(PUBLISH_WAIT) {
        Ok(Ok(())) => {}
        Ok(Err(error)) => return Err(transport(&error)),
        Err(timeout) => {
            ended.cancel();
            return Err(transport(&timeout));
        }
    }
    metrics::cluster_pieces_published(count as u64);
    shared.spare.lend();
    Ok(Box::new(Iteration { results: received, ended, shared: shared.clone() }))
}

impl FarmedIteration for Iteration {
    fn next(&mut self, wait: Duration) -> Result<Option<FarmedResult>, FarmError> {
        match self.results.recv_timeout(wait) {
            Ok(result) => Ok(Some(result)),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(FarmError::Transport("the cluster connection stopped delivering reports".into()))
            }
        }
    }
}

impl Drop for Iteration {
    fn drop(&mut self) {
        self.ended.cancel();
        self.shared.spare.take_back();
    }
}

/// Subscribes to the iteration's reports, sends its first heartbeat and publishes its orders,
/// each acknowledged by the stream.
async fn publish(shared: &Shared, id: &str, orders: &[Bytes]) -> Result<Subscriber, String> {
    let Some(joined) = shared.joined.get() else { return Err("not joined".into()) };
    let subjects = &shared.subjects;
    let subscriber = joined.client.subscribe(subjects.results(id)).await.map_err(|error| error.to_string())?;
    joined.client.publish(subjects.alive(id), Bytes::new()).await.map_err(|error| error.to_string())?;
    publish_orders(shared, id, orders.iter()).await?;
    Ok(subscriber)
}

/// Publishes `orders` to the iteration's subject and waits for the stream's acknowledgements.
async fn publish_orders(shared: &Shared, id: &str, orders: impl Iterator<Item = &Bytes>) -> Result<(), String> {
    let Some(joined) = shared.joined.get() else { return Err("not joined".into()) };
    let subject = shared.subjects.pieces(id);
    let mut acks = Vec::new();
    for order in orders {
        acks.push(joined.jetstream.publish(subject.clone(), order.clone()).await.map_err(|error| error.to_string())?);
    }
    for ack in acks {
        ack.await.map_err(|error| error.to_string())?;
    }
    Ok(())
}

/// Hands each report to the search until the iteration ends, with the heartbeat and the
/// publishing again; then [`end`]s it.
async fn collect(
    shared: Arc<Shared>,
    id: String,
    mut subscriber: Subscriber,
    orders: Vec<Bytes>,
    results: mpsc::Sender<FarmedResult>,
    ended: CancellationToken,
) {
    let mut reported = vec![false; orders.len()];
    let mut heartbeat = tokio::time::interval(HEARTBEAT);
    let mut reconnects = shared.reconnects.subscribe();
    reconnects.borrow_and_update();
    let mut last_news = Instant::now();
    let client = shared.joined.get().map(|joined| joined.client.clone());
    loop {
        let again = tokio::select! {
            () = ended.cancelled() => break,
            message = subscriber.next() => {
                let Some(message) = message else { break };
                match wire::decode(&message.payload) {
                    Ok(result) => {
                        if let Some(slot) = reported.get_mut(result.index as usize) {
                            *slot = true;
                        }
                        last_news = Instant::now();
                        if results.send(result).is_err() {
                            break;
                        }
                    }
                    Err(error) => warn!(%error, iteration = %id, "a malformed report: ignored"),
                }
                false
            }
            _ = heartbeat.tick() => {
                if let Some(client) = &client {
                    let _ = client.publish(shared.subjects.alive(&id), Bytes::new()).await;
                }
                last_news.elapsed() > STALL
            }
            Ok(()) = reconnects.changed() => true,
        };
        if again {
            let left = orders.iter().zip(&reported).filter(|(_, reported)| !**reported).map(|(order, _)| order);
            if let Err(error) = publish_orders(&shared, &id, left).await {
                debug!(%error, iteration = %id, "cannot publish the pieces again yet");
            }
            last_news = Instant::now();
        }
    }
    end(&shared, &id).await;
}

/// Tells the workers that iteration `id` is over and purges its pieces from the stream.
async fn end(shared: &Shared, id: &str) {
    let Some(joined) = shared.joined.get() else { return };
    let _ = joined.client.publish(shared.subjects.ended(id), Bytes::new()).await;
    let _ = joined.client.flush().await;
    if let Err(error) = joined.stream.purge().filter(shared.subjects.pieces(id)).await {
        debug!(%error, iteration = %id, "cannot purge an ended iteration's pieces");
    }
}
