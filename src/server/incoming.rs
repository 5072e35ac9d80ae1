//! The server's incoming connections: accepted with TCP_NODELAY, held to the connection cap,
//! taken through the TLS handshake when the server has TLS, and handed to tonic as [`Guarded`]
//! I/O under their deadlines; all from a listener that [`Listener::close`] closes the moment
//! shutdown begins.
//!
//! Why close it here: tonic stops accepting when its shutdown signal completes, but it keeps
//! the stream of connections, and so the listening socket, until every connection has closed.
//! Meanwhile the kernel still completes handshakes into the listen backlog: a client whose
//! connection got the GOAWAY reconnects at once and sends its next call on a connection no one
//! will accept, and when the listener finally closes, the kernel resets it. The client then
//! fails a call it has sent, as "connection reset". Closed at once, the listener refuses those
//! connections instead: calls never sent, which the client knows are safe to retry.
//!
//! Why the TLS handshake is done here rather than by tonic: here it runs under the handshake
//! timeout and inside the connection cap, and the certificates can be swapped between two
//! handshakes ([`ServerTls::reload`]). Each handshake is a task of its own, so a slow one never
//! holds up the accept loop.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_stream::Stream;
use tokio_util::either::Either;
use tonic::transport::server::TcpIncoming;
use tracing::{debug, warn};

use super::connection::Guarded;
use super::connection_limits::ConnectionLimits;
use super::tls::ServerTls;
use crate::metrics;

/// How a server takes its connections: the cap and deadlines, and TLS if it has it.
#[derive(Debug, Clone)]
pub(super) struct Admission {
    /// The connection limits.
    pub(super) limits: ConnectionLimits,
    /// When a connection closes whatever it carries ([`ConnectionLimits::hard_age`]).
    pub(super) hard_age: Duration,
    /// The server's certificates; `None` serves plaintext.
    pub(super) tls: Option<ServerTls>,
}

/// The listening socket and the handshakes under way, shared between the stream tonic serves
/// and the shutdown that closes it.
#[derive(Debug, Clone)]
pub(super) struct Listener {
    accepting: Arc<Mutex<Option<Accepting>>>,
    admission: Arc<Admission>,
    slots: Arc<Semaphore>,
}

/// What closing the listener drops: the socket, and the TLS handshakes not yet done.
#[derive(Debug)]
struct Accepting {
    incoming: TcpIncoming,
    handshakes: JoinSet<Option<Guarded>>,
}

impl Listener {
    pub(super) fn new(listener: TcpListener, admission: Admission) -> Listener {
        // Without TCP_NODELAY a small reply waits on the peer's delayed ACK: 40 ms a call.
        let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
        let slots = Arc::new(Semaphore::new(admission.limits.max_connections));
        let accepting = Accepting { incoming, handshakes: JoinSet::new() };
        Listener { accepting: Arc::new(Mutex::new(Some(accepting))), admission: Arc::new(admission), slots }
    }

    /// Closes the listening socket: from now on, connecting is refused, and handshakes under
    /// way are dropped. The stream ends.
    pub(super) fn close(&self) {
        self.accepting.lock().unwrap_or_else(PoisonError::into_inner).take();
    }

    /// A connection just accepted: refused (closed) beyond the cap; else ready at once
    /// (plaintext), or its handshake started among `handshakes`.
    fn admit(&self, tcp: TcpStream, handshakes: &mut JoinSet<Option<Guarded>>) -> Option<Guarded> {
        let accepted = Instant::now();
        let Ok(slot) = self.slots.clone().try_acquire_owned() else {
            metrics::connection_refused();
            debug!(peer = ?tcp.peer_addr().ok(), max = self.admission.limits.max_connections,
                   "connection refused: the server holds its most connections");
            return None;
        };
        let admission = self.admission.clone();
        match &admission.tls {
            None => Some(Guarded::new(Either::Left(tcp), accepted, &admission.limits, admission.hard_age, slot)),
            Some(tls) => {
                let acceptor = tls.acceptor();
                handshakes.spawn(async move {
                    let peer = tcp.peer_addr().ok();
                    let deadline = accepted + admission.limits.handshake_timeout;
                    match tokio::time::timeout_at(deadline, acceptor.accept(tcp)).await {
                        Ok(Ok(tls)) => Some(guarded(tls, accepted, &admission, slot)),
                        Ok(Err(error)) if error.kind() == io::ErrorKind::UnexpectedEof => {
                            debug!(?peer, "connection closed before its TLS handshake");
                            None
                        }
                        Ok(Err(error)) => {
                            warn!(?peer, %error, "TLS handshake failed");
                            None
                        }
                        Err(_) => {
                            debug!(?peer, "TLS handshake not done within the handshake timeout");
                            None
                        }
                    }
                });
                None
            }
        }
    }
}

/// A connection through its TLS handshake, under its deadlines.
fn guarded(
    tls: tokio_rustls::server::TlsStream<TcpStream>,
    accepted: Instant,
    admission: &Admission,
    slot: OwnedSemaphorePermit,
) -> Guarded {
    Guarded::new(Either::Right(Box::new(tls)), accepted, &admission.limits, admission.hard_age, slot)
}

impl Stream for Listener {
    type Item = io::Result<Guarded>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut accepting = self.accepting.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(Accepting { incoming, handshakes }) = accepting.as_mut() else { return Poll::Ready(None) };
        loop {
            while let Poll::Ready(Some(done)) = handshakes.poll_join_next(cx) {
                if let Ok(Some(connection)) = done {
                    return Poll::Ready(Some(Ok(connection)));
                }
            }
            match Pin::new(&mut *incoming).poll_next(cx) {
                Poll::Ready(Some(Ok(tcp))) => {
                    if let Some(connection) = self.admit(tcp, handshakes) {
                        return Poll::Ready(Some(Ok(connection)));
                    }
                }
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_stream::StreamExt;

    #[tokio::test]
    async fn a_closed_listener_refuses_connections_and_ends() {
        let socket = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let address = socket.local_addr().expect("an address");
        let admission = Admission { limits: ConnectionLimits::default(), hard_age: Duration::from_secs(60), tls: None };
        let mut listener = Listener::new(socket, admission);
        let _client = tokio::net::TcpStream::connect(address).await.expect("connects while open");
        assert!(listener.next().await.expect("a connection").is_ok());
        listener.clone().close();
        let refused = tokio::net::TcpStream::connect(address).await.expect_err("refused once closed");
        assert_eq!(refused.kind(), io::ErrorKind::ConnectionRefused);
        assert!(listener.next().await.is_none());
    }
}
