//! The server's "busy" answer, told apart from a spent budget by a metadata entry.
//!
//! Both are RESOURCE_EXHAUSTED (the wire contract), but they call for opposite things: "busy"
//! (no search slot freed up within the queue timeout) says nothing about the request, and
//! another replica, or this one a little later, may well answer it; a node, memory or time
//! budget that ran out would run out again wherever the request is sent. The busy status
//! carries [`BUSY_METADATA`], which a refused call returns in the headers of its trailers-only
//! response, before any message: a proxy can retry on it (Envoy's `retriable_headers`), and a
//! client can read it with [`is_busy`]. A spent budget carries gRPC's own "do not retry" instead,
//! [`NO_RETRY_METADATA`] at -1, which a client with a gRPC retry policy honours.

use tonic::{Code, Status};

/// The metadata key (a response header) that only the server's "busy" RESOURCE_EXHAUSTED
/// carries, with the value `1`; `deploy/envoy.yaml` retries on it.
pub const BUSY_METADATA: &str = "npuzzle-busy";

/// gRPC's retry pushback (gRFC A6): a negative value tells a client's retry policy not to retry
/// the call, whatever its status code.
pub const NO_RETRY_METADATA: &str = "grpc-retry-pushback-ms";

/// Whether `status` is the server's "busy" answer (safe to retry elsewhere), rather than a
/// spent budget or any other status.
pub fn is_busy(status: &Status) -> bool {
    status.code() == Code::ResourceExhausted && status.metadata().contains_key(BUSY_METADATA)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::details::busy;
    use tonic::metadata::MetadataValue;

    #[test]
    fn only_the_busy_status_is_busy() {
        let status = busy(2);
        assert!(is_busy(&status));
        assert_eq!(status.metadata().get(BUSY_METADATA).and_then(|value| value.to_str().ok()), Some("1"));
        assert_eq!(status.message(), "server busy: 2 searches running, retry later");
        // The message alone does not make a status busy, nor the key on another code.
        assert!(!is_busy(&Status::resource_exhausted("server busy: 2 searches running, retry later")));
        let mut unavailable = Status::unavailable("server shutting down");
        unavailable.metadata_mut().insert(BUSY_METADATA, MetadataValue::from_static("1"));
        assert!(!is_busy(&unavailable));
    }

    #[test]
    fn the_busy_mark_travels_in_the_response_headers() {
        let response: tonic::codegen::http::Response<()> = busy(1).into_http();
        let headers = response.headers();
        assert_eq!(headers.get(BUSY_METADATA).map(|value| value.as_bytes()), Some(&b"1"[..]));
        assert_eq!(headers.get("grpc-status").map(|value| value.as_bytes()), Some(&b"8"[..]));
        assert!(headers.get(NO_RETRY_METADATA).is_none(), "busy is worth retrying");
    }
}
