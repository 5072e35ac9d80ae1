//! One accepted connection's I/O, holding it to its deadlines (`Guarded`), and what a
//! handler can learn of it ([`ConnectionInfo`], in every request's extensions).
//!
//! The deadlines live in the I/O because that is the one place that sees a connection from its
//! accept to its close, whatever hyper and h2 do with it: a read that finds a deadline passed
//! fails with `TimedOut`, and hyper closes the connection. hyper always has a read pending on a
//! server connection, so the timer that wakes it is the one place needed.
//! - before the preface: [`ConnectionLimits::handshake_timeout`] from the accept covers the
//!   TLS handshake (done in `super::incoming`) and the first 24 bytes, the HTTP/2 preface;
//! - while no call is in flight: [`ConnectionLimits::idle_timeout`] since the last one ended.
//!   Bytes alone cannot tell: the keepalive PINGs keep an idle connection talking. So
//!   `CallsLayer` counts the calls of each connection, from request to response body's end;
//! - whatever it carries: the age and its grace (`ConnectionLimits::hard_age`).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::{Body, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, Sleep};
use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::server::TlsStream;
use tokio_util::either::Either;
use tonic::codegen::Service;
use tonic::transport::server::Connected;

use super::connection_limits::ConnectionLimits;

/// The HTTP/2 client preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", is this long.
const PREFACE_BYTES: usize = 24;

/// A connection's transport: plain TCP or TLS over it.
pub(super) type Transport = Either<TcpStream, Box<TlsStream<TcpStream>>>;

/// What a handler can learn of the connection its request came on, from the request's
/// extensions (`request.extensions().get::<ConnectionInfo>()`): who the peer is, for logs.
#[derive(Debug, Clone)]
pub struct ConnectionInfo {
    /// The peer's address.
    pub remote_addr: Option<SocketAddr>,
    /// The certificate chain the client presented (mTLS), leaf first; `None` without TLS or
    /// without a client certificate.
    pub peer_certificates: Option<Arc<Vec<CertificateDer<'static>>>>,
    calls: Arc<Calls>,
}

/// The calls in flight on one connection, and when the count last changed.
#[derive(Debug)]
struct Calls {
    in_flight: AtomicUsize,
    changed: Mutex<Instant>,
}

impl Calls {
    fn touch(&self) {
        *self.changed.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    }

    /// When the connection turns idle-expired, if no call is in flight now.
    fn idle_since(&self) -> Option<Instant> {
        let changed = *self.changed.lock().unwrap_or_else(PoisonError::into_inner);
        (self.in_flight.load(Ordering::Acquire) == 0).then_some(changed)
    }
}

/// One call in flight, counted until dropped (with the end of its response body).
#[derive(Debug)]
struct CallGuard(Arc<Calls>);

impl CallGuard {
    fn new(calls: Arc<Calls>) -> CallGuard {
        calls.in_flight.fetch_add(1, Ordering::AcqRel);
        calls.touch();
        CallGuard(calls)
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// An accepted connection's I/O under its deadlines; it holds its place under the
/// connection cap until dropped.
#[derive(Debug)]
pub(super) struct Guarded {
    io: Transport,
    info: ConnectionInfo,
    accepted: Instant,
    preface_read: usize,
    handshake_timeout: Duration,
    idle_timeout: Duration,
    hard_age: Duration,
    timer: Pin<Box<Sleep>>,
    _slot: OwnedSemaphorePermit,
}

impl Guarded {
    /// `io`, accepted at `accepted`, under `limits`; `hard_age` is when it closes regardless.
    pub(super) fn new(
        io: Transport,
        accepted: Instant,
        limits: &ConnectionLimits,
        hard_age: Duration,
        slot: OwnedSemaphorePermit,
    ) -> Guarded {
        let (tcp, peer_certificates) = match &io {
            Either::Left(tcp) => (tcp, None),
            Either::Right(tls) => {
                let (tcp, session) = tls.get_ref();
                (tcp, session.peer_certificates().map(|chain| Arc::new(chain.to_vec())))
            }
        };
        let calls = Arc::new(Calls { in_flight: AtomicUsize::new(0), changed: Mutex::new(accepted) });
        let info = ConnectionInfo { remote_addr: tcp.peer_addr().ok(), peer_certificates, calls };
        let first = accepted + limits.handshake_timeout.min(limits.idle_timeout);
        Guarded {
            io,
            info,
            accepted,
            preface_read: 0,
            handshake_timeout: limits.handshake_timeout,
            idle_timeout: limits.idle_timeout,
            hard_age,
            timer: Box::pin(tokio::time::sleep_until(first)),
            _slot: slot,
        }
    }

    /// The next deadline, or why the connection is over.
    fn next_deadline(&self, now: Instant) -> Result<Instant, &'static str> {
        let mut deadlines = vec![(self.accepted + self.hard_age, "its age and grace are over")];
        if self.preface_read < PREFACE_BYTES {
            deadlines.push((self.accepted + self.handshake_timeout, "no HTTP/2 preface within the handshake timeout"));
        }
        match self.info.calls.idle_since() {
            Some(since) => deadlines.push((since + self.idle_timeout, "idle past the idle timeout")),
            // A call may end at any moment: look again one idle timeout from now at the latest.
            None => deadlines.push((now + self.idle_timeout, "")),
        }
        let (at, why) = deadlines.into_iter().min_by_key(|(at, _)| *at).unwrap_or((now + self.idle_timeout, ""));
        if at <= now && !why.is_empty() { Err(why) } else { Ok(at) }
    }

    /// Ready with an error once a deadline has passed; else arms the timer for the next.
    fn poll_deadlines(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        while self.timer.as_mut().poll(cx).is_ready() {
            match self.next_deadline(Instant::now()) {
                Ok(at) => self.timer.as_mut().reset(at),
                Err(why) => {
                    tracing::debug!(peer = ?self.info.remote_addr, why, "closing the connection");
                    return Poll::Ready(io::Error::new(io::ErrorKind::TimedOut, why));
                }
            }
        }
        Poll::Pending
    }
}

impl AsyncRead for Guarded {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        if let Poll::Ready(error) = self.poll_deadlines(cx) {
            return Poll::Ready(Err(error));
        }
        let before = buf.filled().len();
        let read = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) {
            self.preface_read = self.preface_read.saturating_add(buf.filled().len() - before);
        }
        read
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

impl Connected for Guarded {
    type ConnectInfo = ConnectionInfo;

    fn connect_info(&self) -> ConnectionInfo {
        self.info.clone()
    }
}

/// The layer that counts each connection's calls for its idle timer (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct CallsLayer;

impl<S> tower_layer::Layer<S> for CallsLayer {
    type Service = CountCalls<S>;

    fn layer(&self, inner: S) -> CountCalls<S> {
        CountCalls(inner)
    }
}

/// A service whose calls count as their connection's, from request to response body's end.
#[derive(Debug, Clone)]
pub(super) struct CountCalls<S>(S);

impl<S, B, R> Service<http::Request<B>> for CountCalls<S>
where
    S: Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
    R: Body<Data = tonic::codegen::Bytes> + Send + Unpin + 'static,
    R::Error: Into<tonic::codegen::StdError>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = tonic::codegen::BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let guard = request.extensions().get::<ConnectionInfo>().map(|info| CallGuard::new(info.calls.clone()));
        let response = self.0.call(request);
        Box::pin(async move {
            let response = response.await?;
            Ok(response.map(|body| tonic::body::Body::new(CountedBody { body, _guard: guard })))
        })
    }
}

/// A response body that keeps its call counted until it ends or is dropped.
struct CountedBody<R> {
    body: R,
    _guard: Option<CallGuard>,
}

impl<R: Body + Unpin> Body for CountedBody<R> {
    type Data = R::Data;
    type Error = R::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
