//! A request's deadline from its `grpc-timeout` header.
//!
//! tonic's transport enforces that header on both sides: the server drops a unary handler when
//! it expires (the call's drop guard then stops the search), and the client's own timer turns
//! into CANCELLED "Timeout expired". tonic does not expose the parsed value, so it is read here,
//! and the service answers DEADLINE_EXCEEDED a little before the caller's deadline, while the
//! caller still waits for the answer.

use std::time::{Duration, Instant};

use tonic::metadata::MetadataMap;

/// The most the server answers ahead of the caller's deadline (a tenth of the timeout when that
/// is less).
const MAX_DEADLINE_MARGIN: Duration = Duration::from_millis(100);

/// The instant to give up on a request with a `grpc-timeout`: a little before the caller's own
/// deadline, because tonic's transport turns a timer that fires first into CANCELLED.
pub(super) fn deadline(metadata: &MetadataMap) -> Option<Instant> {
    let timeout = grpc_timeout(metadata)?;
    let margin = (timeout / 10).min(MAX_DEADLINE_MARGIN);
    Instant::now().checked_add(timeout - margin)
}

/// The `grpc-timeout` header: at most 8 digits and a unit (gRPC over HTTP/2). A malformed
/// header is ignored, as tonic's transport ignores it.
fn grpc_timeout(metadata: &MetadataMap) -> Option<Duration> {
    let value = metadata.get("grpc-timeout")?.to_str().ok()?;
    let (amount, unit) = value.split_at_checked(value.len().checked_sub(1)?)?;
    if amount.is_empty() || amount.len() > 8 || !amount.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = amount.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeout_of(header: &str) -> Option<Duration> {
        let mut metadata = MetadataMap::new();
        metadata.insert("grpc-timeout", header.parse().expect("an ASCII header value"));
        grpc_timeout(&metadata)
    }

    #[test]
    fn grpc_timeout_reads_every_unit() {
        assert_eq!(timeout_of("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(timeout_of("3M"), Some(Duration::from_secs(180)));
        assert_eq!(timeout_of("4S"), Some(Duration::from_secs(4)));
        assert_eq!(timeout_of("250m"), Some(Duration::from_millis(250)));
        assert_eq!(timeout_of("7u"), Some(Duration::from_micros(7)));
        assert_eq!(timeout_of("9n"), Some(Duration::from_nanos(9)));
    }

    #[test]
    fn a_malformed_grpc_timeout_is_ignored() {
        for header in ["", "S", "5", "5x", "+5S", "123456789S", "-1m"] {
            assert_eq!(timeout_of(header), None, "{header:?}");
        }
    }

    #[test]
    fn the_deadline_comes_a_little_before_the_callers() {
        let mut metadata = MetadataMap::new();
        metadata.insert("grpc-timeout", "1000m".parse().expect("an ASCII header value"));
        let before = Instant::now();
        let deadline = deadline(&metadata).expect("a deadline");
        assert!(deadline >= before + Duration::from_millis(900));
        assert!(deadline <= Instant::now() + Duration::from_millis(900));
    }
}
