//! Calls that failed in the client's transport, with no status from any server, told apart by
//! what the server can have seen of them.
//!
//! When a server stops, tonic's client reports calls that never reached it under whatever code
//! its transport error maps to: UNAVAILABLE ("tcp connect error": the listener is closed),
//! CANCELLED ("operation was canceled": the call was queued on a connection that closed before
//! sending it), UNKNOWN ("transport error": the connection had closed when the call came to
//! it), or a GOAWAY's "h2 protocol error" (the server refused the stream, unprocessed, in its
//! graceful shutdown). None of these reached a server, so none lost an answer: they are
//! [`TransportFailure::NeverSent`], and retrying them is always safe. Anything else (a reset
//! connection, a stream broken mid-answer) is [`TransportFailure::Lost`]: the server may have
//! taken the call, and only a killed server explains it.

use std::error::Error;

use tonic::{ConnectError, Status};

/// How a call failed in the client's transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TransportFailure {
    /// The call never reached a server: the connection was refused, closed before the call was
    /// sent, or the server's GOAWAY refused its stream unprocessed.
    NeverSent,
    /// The connection failed while the call was under way: the server may have taken it.
    Lost,
}

impl TransportFailure {
    /// How the report names calls that failed this way.
    pub fn name(self) -> &'static str {
        match self {
            TransportFailure::NeverSent => "never sent",
            TransportFailure::Lost => "lost under way",
        }
    }
}

/// How `status` failed in the transport, or `None` for a status a server (or proxy) sent: only
/// a transport failure carries a source error.
pub fn classify(status: &Status) -> Option<TransportFailure> {
    let source = Error::source(status)?;
    let never_sent = chain(source).any(|error| {
        error.is::<ConnectError>()
            || error.downcast_ref::<hyper::Error>().is_some_and(|error| error.is_canceled() || error.is_closed())
            || error.downcast_ref::<h2::Error>().is_some_and(refused_unprocessed)
    });
    Some(if never_sent { TransportFailure::NeverSent } else { TransportFailure::Lost })
}

/// A stream the server never processed (RFC 9113, 8.7): above a graceful GOAWAY's last stream
/// id, or reset with REFUSED_STREAM.
fn refused_unprocessed(error: &h2::Error) -> bool {
    error.is_remote()
        && match error.reason() {
            Some(h2::Reason::NO_ERROR) => error.is_go_away(),
            Some(h2::Reason::REFUSED_STREAM) => error.is_reset(),
            _ => false,
        }
}

/// `status`'s message followed by its chain of source errors, which says what happened where
/// tonic's message ("transport error") does not.
pub fn describe(status: &Status) -> String {
    let mut text = status.message().to_owned();
    if let Some(source) = Error::source(status) {
        for error in chain(source) {
            // Wrappers often repeat their source's text: say each thing once.
            let said = error.to_string();
            if !text.ends_with(&said) {
                text.push_str(": ");
                text.push_str(&said);
            }
        }
    }
    text
}

fn chain<'a>(first: &'a (dyn Error + 'static)) -> impl Iterator<Item = &'a (dyn Error + 'static)> {
    std::iter::successors(Some(first), |error: &&'a (dyn Error + 'static)| (*error).source())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic::Code;

    #[test]
    fn a_status_from_a_server_is_no_transport_failure() {
        assert_eq!(classify(&Status::unavailable("server shutting down")), None);
        assert_eq!(describe(&Status::unavailable("server shutting down")), "server shutting down");
    }

    #[test]
    fn a_refused_connection_was_never_sent() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let status = Status::from_error(Box::new(ConnectError(Box::new(refused))));
        assert_eq!(status.code(), Code::Unavailable);
        assert_eq!(classify(&status), Some(TransportFailure::NeverSent));
        assert_eq!(describe(&status), "connection refused");
    }

    #[test]
    fn a_reset_connection_lost_its_call() {
        let reset = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        let status = Status::from_error(Box::new(reset));
        assert_eq!(classify(&status), Some(TransportFailure::Lost));
        assert_eq!(describe(&status), "connection reset");
        let reason = Status::from_error(Box::new(h2::Error::from(h2::Reason::REFUSED_STREAM)));
        assert_eq!(classify(&reason), Some(TransportFailure::Lost), "not received from the server");
    }
}
