//! The server's incoming connections: accepted with TCP_NODELAY, from a listener that
//! [`Listener::close`] closes the moment shutdown begins.
//!
//! Why close it here: tonic stops accepting when its shutdown signal completes, but it keeps
//! the stream of connections, and so the listening socket, until every connection has closed.
//! Meanwhile the kernel still completes handshakes into the listen backlog: a client whose
//! connection got the GOAWAY reconnects at once and sends its next call on a connection no one
//! will accept, and when the listener finally closes, the kernel resets it. The client then
//! fails a call it has sent, as "connection reset". Closed at once, the listener refuses those
//! connections instead: calls never sent, which the client knows are safe to retry.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use tokio::net::{TcpListener, TcpStream};
use tokio_stream::Stream;
use tonic::transport::server::TcpIncoming;

/// The listening socket, shared between the stream tonic serves and the shutdown that closes
/// it.
#[derive(Debug, Clone)]
pub(super) struct Listener(Arc<Mutex<Option<TcpIncoming>>>);

impl Listener {
    pub(super) fn new(listener: TcpListener) -> Listener {
        // Without TCP_NODELAY a small reply waits on the peer's delayed ACK: 40 ms a call.
        let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
        Listener(Arc::new(Mutex::new(Some(incoming))))
    }

    /// Closes the listening socket: from now on, connecting is refused. The stream ends.
    pub(super) fn close(&self) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
    }
}

impl Stream for Listener {
    type Item = io::Result<TcpStream>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.0.lock().unwrap_or_else(PoisonError::into_inner).as_mut() {
            Some(incoming) => Pin::new(incoming).poll_next(cx),
            None => Poll::Ready(None),
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
        let mut listener = Listener::new(socket);
        let _client = tokio::net::TcpStream::connect(address).await.expect("connects while open");
        assert!(listener.next().await.expect("a connection").is_ok());
        listener.clone().close();
        let refused = tokio::net::TcpStream::connect(address).await.expect_err("refused once closed");
        assert_eq!(refused.kind(), io::ErrorKind::ConnectionRefused);
        assert!(listener.next().await.is_none());
    }
}
