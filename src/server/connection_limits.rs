//! [`ConnectionLimits`]: every HTTP/2 and connection limit the server sets, each explicitly,
//! with why it has its value. tonic leaves most of them unset (no stream cap, no keepalive, no
//! age), and an unset limit is one an attacker sets for us: one connection could open thousands
//! of streams, and connections that never send a byte would be held until the file descriptors
//! run out.
//!
//! The HTTP/2 settings go to tonic's builder (`ConnectionLimits::configure`); the connection
//! cap, the handshake and idle timeouts and the hard end of an aged connection are kept by the
//! accept loop and each connection's I/O (`super::incoming`, [`super::connection`]).

use std::io;
use std::time::Duration;

use tonic::transport::Server;

/// The default of [`ConnectionLimits::max_connections`].
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// The default of [`ConnectionLimits::handshake_timeout`].
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// The default of [`ConnectionLimits::idle_timeout`].
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(300);
/// The default of [`ConnectionLimits::max_concurrent_streams`].
pub const DEFAULT_MAX_CONCURRENT_STREAMS: u32 = 100;
/// The default of [`ConnectionLimits::max_header_list_size`].
pub const DEFAULT_MAX_HEADER_LIST_SIZE: u32 = 16 * 1024;
/// The default of [`ConnectionLimits::keepalive_interval`].
pub const DEFAULT_KEEPALIVE_INTERVAL: Duration = Duration::from_secs(60);
/// The default of [`ConnectionLimits::keepalive_timeout`].
pub const DEFAULT_KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);
/// The default of [`ConnectionLimits::max_connection_age`].
pub const DEFAULT_MAX_CONNECTION_AGE: Duration = Duration::from_secs(3600);
/// What an aged connection's grace adds to the longest search: room for its answer to arrive.
const AGE_GRACE_MARGIN: Duration = Duration::from_secs(60);
/// File descriptors the process needs besides its connections: the listener, the metrics
/// endpoint, pattern-database files, the runtime's own.
const SPARE_FILE_DESCRIPTORS: u64 = 64;

/// The limits every connection is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Open connections at most; one beyond is accepted and closed at once, and counted
    /// (`npuzzle_connections_refused_total`). Each costs a file descriptor and a few kilobytes
    /// of buffers; the default, 1,024, is far more than clients a server of a few cores can
    /// serve, and the process raises its open-file limit to fit ([`raise_open_file_limit`]).
    pub max_connections: usize,
    /// A connection must finish its TLS handshake and send the HTTP/2 preface within this, from
    /// its accept, or it is closed: a client that means to talk does so in milliseconds, and a
    /// connection that sends nothing would otherwise hold its descriptor forever.
    pub handshake_timeout: Duration,
    /// A connection that carries no call for this long is closed. Longer than the handshake
    /// timeout: a client between calls may come back, and reconnecting costs it a handshake.
    pub idle_timeout: Duration,
    /// SETTINGS_MAX_CONCURRENT_STREAMS: calls in flight on one connection. A stream beyond is
    /// refused (REFUSED_STREAM, safe to retry). 100 is what RFC 9113 recommends as the least a
    /// server should allow, and far more than the search slots: the others only wait.
    pub max_concurrent_streams: u32,
    /// Streams a client may reset before the server has even accepted them, pending at once;
    /// past it the connection gets a GOAWAY (ENHANCE_YOUR_CALM). This is the cap that stops
    /// the "rapid reset" flood (CVE-2023-44487), where HEADERS each followed by RST_STREAM cost
    /// the server work but never count against the stream cap. 20 is h2's own default.
    pub max_pending_accept_reset_streams: usize,
    /// Streams the server may reset because the client broke the protocol on them (a stream
    /// over the cap, a malformed header) before it ends the connection with a GOAWAY: a client
    /// that keeps doing that is not a client to keep serving (RUSTSEC-2024-0003). 256 lets a
    /// client that overshoots the stream cap once recover.
    pub max_local_error_reset_streams: usize,
    /// The HTTP/2 flow-control window of each stream, in bytes: how much of a request the
    /// client may send before the server reads it. 1 MiB, the largest request by default, so a
    /// request goes in one round trip; a slow reader never holds more than this per stream.
    pub initial_stream_window_size: u32,
    /// The flow-control window of the whole connection, in bytes: what all its streams may
    /// have in flight together, so one connection holds at most this of unread requests.
    pub initial_connection_window_size: u32,
    /// SETTINGS_MAX_HEADER_LIST_SIZE: the largest header block accepted, in bytes (decoded).
    /// A gRPC call sends a few hundred bytes of headers; 16 KiB leaves room for tokens and
    /// tracing headers and refuses a header flood before it is buffered.
    pub max_header_list_size: u32,
    /// How often an HTTP/2 PING checks that a connection's peer is alive; with
    /// [`ConnectionLimits::keepalive_timeout`] it ends connections whose peer vanished without
    /// a FIN (a crashed host, a dropped NAT entry), which TCP alone notices only after hours.
    pub keepalive_interval: Duration,
    /// How long a PING may go unanswered before its connection is closed.
    pub keepalive_timeout: Duration,
    /// After this age a connection gets a GOAWAY: its running calls finish, new ones go to a
    /// new connection. It spreads long-lived clients across replicas again, and moves them to
    /// certificates reloaded since. The calls in flight then get a grace of the longest search
    /// (`--max-search-time`) plus a minute before the connection is closed regardless.
    pub max_connection_age: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_concurrent_streams: DEFAULT_MAX_CONCURRENT_STREAMS,
            max_pending_accept_reset_streams: 20,
            max_local_error_reset_streams: 256,
            initial_stream_window_size: 1 << 20,
            initial_connection_window_size: 2 << 20,
            max_header_list_size: DEFAULT_MAX_HEADER_LIST_SIZE,
            keepalive_interval: DEFAULT_KEEPALIVE_INTERVAL,
            keepalive_timeout: DEFAULT_KEEPALIVE_TIMEOUT,
            max_connection_age: DEFAULT_MAX_CONNECTION_AGE,
        }
    }
}

impl ConnectionLimits {
    /// `builder` with these HTTP/2 settings. The age's grace is kept by the connection's I/O
    /// ([`ConnectionLimits::hard_age`]), not given to tonic: tonic 0.14, given a grace, skips
    /// the GOAWAY at the age and only cuts the connection at age + grace.
    pub(super) fn configure<L>(&self, builder: Server<L>) -> Server<L> {
        builder
            .max_concurrent_streams(self.max_concurrent_streams)
            .http2_max_pending_accept_reset_streams(Some(self.max_pending_accept_reset_streams))
            .http2_max_local_error_reset_streams(Some(self.max_local_error_reset_streams))
            .initial_stream_window_size(self.initial_stream_window_size)
            .initial_connection_window_size(self.initial_connection_window_size)
            .http2_adaptive_window(Some(false))
            .http2_max_header_list_size(self.max_header_list_size)
            .http2_keepalive_interval(Some(self.keepalive_interval))
            .http2_keepalive_timeout(Some(self.keepalive_timeout))
            .max_connection_age(self.max_connection_age)
    }

    /// When a connection is closed whatever it carries: its age, then the grace of the
    /// longest search, `longest_search`, and a margin.
    pub(super) fn hard_age(&self, longest_search: Duration) -> Duration {
        self.max_connection_age.saturating_add(longest_search).saturating_add(AGE_GRACE_MARGIN)
    }
}

/// Raises this process's soft limit on open files so that `max_connections` connections fit,
/// as far as the hard limit allows, and returns the soft limit now in force. Call it once at
/// startup, before serving.
pub fn raise_open_file_limit(max_connections: usize) -> io::Result<u64> {
    let wanted = u64::try_from(max_connections).unwrap_or(u64::MAX).saturating_add(SPARE_FILE_DESCRIPTORS);
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit into the struct it is given, which lives here.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if limit.rlim_cur >= wanted {
        return Ok(limit.rlim_cur);
    }
    limit.rlim_cur = wanted.min(limit.rlim_max);
    // SAFETY: setrlimit reads the rlimit it is given, which lives here.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(limit.rlim_cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_file_limit_fits_the_default_cap_where_the_hard_limit_allows() {
        let soft = raise_open_file_limit(DEFAULT_MAX_CONNECTIONS).expect("getrlimit and setrlimit work");
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: as in raise_open_file_limit.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) }, 0);
        let wanted = DEFAULT_MAX_CONNECTIONS as u64 + SPARE_FILE_DESCRIPTORS;
        assert_eq!(soft, limit.rlim_cur);
        assert!(soft >= wanted.min(limit.rlim_max), "{soft} < {wanted}");
    }

    #[test]
    fn an_aged_connection_outlives_the_longest_search() {
        let limits = ConnectionLimits::default();
        let search = Duration::from_secs(600);
        assert!(limits.hard_age(search) > limits.max_connection_age + search);
    }
}
