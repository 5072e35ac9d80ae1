//! The rich error model at the service's edge: every non-OK status from `SolverService` keeps a
//! short message (at most [`MAX_MESSAGE`] characters, in plain words, no wire names) and
//! carries a `google.rpc.ErrorInfo` with a stable reason and metadata, and a
//! `google.rpc.BadRequest` for bad requests. Clients render these in their own words: the CLI in
//! flags, the page in its labels. The reasons and keys are the contract of docs/api.md.

use std::collections::HashMap;

use tonic::metadata::{MetadataMap, MetadataValue};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use super::busy::{BUSY_METADATA, NO_RETRY_METADATA};
use crate::proto;
use crate::solver::{Plan, SearchError, stronger_method};
use crate::text::ParseError;

/// The domain of every `ErrorInfo`.
pub const DOMAIN: &str = "npuzzle.v1";

/// The longest status message: a line a person reads; the details carry the rest.
pub const MAX_MESSAGE: usize = 200;

/// The optimality that answers in time whatever the board: what every spent budget suggests.
const SUGGESTED: &str = "OPTIMALITY_ANYTIME";

/// A status of `code` with `message` (cut to [`MAX_MESSAGE`]) and an `ErrorInfo` of `reason`
/// and `metadata`.
pub fn status(code: Code, message: &str, reason: &str, metadata: &[(&str, String)]) -> Status {
    with(code, message, details(reason, metadata), MetadataMap::new())
}

/// An INVALID_ARGUMENT status for `field` with `reason`, its `ErrorInfo` and a `BadRequest`
/// field violation that says what is wrong.
pub fn bad_request(reason: &str, field: &str, description: &str, metadata: &[(&str, String)]) -> Status {
    let mut all = vec![("field", field.to_owned())];
    all.extend(metadata.iter().cloned());
    let mut details = details(reason, &all);
    details.add_bad_request_violation(field, description);
    with(Code::InvalidArgument, &format!("{field}: {description}"), details, MetadataMap::new())
}

/// INVALID_ARGUMENT for a puzzle's text that does not parse, with its line and column.
pub fn invalid_text(error: &ParseError) -> Status {
    let at = error.position();
    let metadata: Vec<(&str, String)> =
        at.map(|at| vec![("line", at.line.to_string()), ("column", at.column.to_string())]).unwrap_or_default();
    bad_request("INVALID_PUZZLE", "text", &error.to_string(), &metadata)
}

/// The "busy" answer: no search slot freed up in time; marked to be retried elsewhere.
pub fn busy(running: usize) -> Status {
    let mut metadata = MetadataMap::new();
    metadata.insert(BUSY_METADATA, MetadataValue::from_static("1"));
    let message = format!("server busy: {running} searches running, retry later");
    with(Code::ResourceExhausted, &message, details("SERVER_BUSY", &[("running", running.to_string())]), metadata)
}

/// The server is shutting down.
pub fn shutting_down() -> Status {
    status(Code::Unavailable, "server shutting down: retry on another instance or later", "SHUTTING_DOWN", &[])
}

fn details(reason: &str, metadata: &[(&str, String)]) -> ErrorDetails {
    let metadata: HashMap<String, String> =
        metadata.iter().map(|(key, value)| ((*key).to_owned(), value.clone())).collect();
    ErrorDetails::with_error_info(reason, DOMAIN, metadata)
}

fn with(code: Code, message: &str, details: ErrorDetails, metadata: MetadataMap) -> Status {
    Status::with_error_details_and_metadata(code, shorten(message), details, metadata)
}

/// `message` cut to [`MAX_MESSAGE`] characters at a word, with an ellipsis when cut.
fn shorten(message: &str) -> String {
    if message.chars().count() <= MAX_MESSAGE {
        return message.to_owned();
    }
    let cut: String = message.chars().take(MAX_MESSAGE - 1).collect();
    let at_word = cut.rfind(' ').map_or(cut.as_str(), |space| &cut[..space]);
    format!("{at_word}…")
}

/// The method's name on the wire.
fn method(plan: Plan) -> String {
    proto::Method::from(plan.method).as_str_name().to_owned()
}

/// A spent budget's status: RESOURCE_EXHAUSTED with gRPC's "do not retry" (the same request
/// would spend it again anywhere), what ran out, and what to try.
fn spent(error: &SearchError, reason: &str, plan: Plan, dimension: usize, mut metadata: Vec<(&str, String)>) -> Status {
    let mut message = error.summary();
    if let Some(stronger) = stronger_method(dimension, plan) {
        message = format!("{message}; try {stronger}");
    }
    metadata.extend([
        ("dimension", dimension.to_string()),
        ("method", method(plan)),
        ("suggested_optimality", SUGGESTED.to_owned()),
    ]);
    if let Some(stronger) = stronger_method(dimension, plan) {
        metadata.push(("stronger_method", stronger.to_owned()));
    }
    let mut no_retry = MetadataMap::new();
    no_retry.insert(NO_RETRY_METADATA, MetadataValue::from_static("-1"));
    with(Code::ResourceExhausted, &message, details(reason, &metadata), no_retry)
}

impl From<SearchError> for Status {
    fn from(error: SearchError) -> Status {
        match error {
            SearchError::NodeBudgetExhausted { limit, expanded, dimension, plan } => spent(
                &error,
                "NODE_BUDGET_SPENT",
                plan,
                dimension,
                vec![("limit", limit.to_string()), ("expanded", expanded.to_string())],
            ),
            SearchError::MemoryBudgetExhausted { limit, held, dimension, plan, .. } => spent(
                &error,
                "MEMORY_BUDGET_SPENT",
                plan,
                dimension,
                vec![("limit_bytes", limit.to_string()), ("held_bytes", held.to_string())],
            ),
            SearchError::TimeLimitExceeded { limit, expanded, dimension, plan } => spent(
                &error,
                "TIME_LIMIT_REACHED",
                plan,
                dimension,
                vec![("limit_ms", limit.as_millis().to_string()), ("expanded", expanded.to_string())],
            ),
            SearchError::ProofOutOfReach { bound, forecast, time_left, dimension, plan } => spent(
                &error,
                "PROOF_OUT_OF_REACH",
                plan,
                dimension,
                vec![
                    ("bound", bound.to_string()),
                    ("forecast_ms", forecast.as_millis().to_string()),
                    ("time_left_ms", time_left.as_millis().to_string()),
                ],
            ),
            SearchError::DeadlineExceeded { elapsed, expanded } => status(
                Code::DeadlineExceeded,
                &error.to_string(),
                "DEADLINE_EXCEEDED",
                &[("elapsed_ms", elapsed.as_millis().to_string()), ("expanded", expanded.to_string())],
            ),
            SearchError::Cancelled { expanded } => {
                status(Code::Cancelled, &error.to_string(), "CANCELLED", &[("expanded", expanded.to_string())])
            }
            SearchError::Unsupported { algorithm, heuristic, dimension, .. } => status(
                Code::InvalidArgument,
                &error.to_string(),
                "UNSUPPORTED",
                &[
                    ("algorithm", algorithm.to_string()),
                    ("heuristic", heuristic.to_string()),
                    ("dimension", dimension.to_string()),
                ],
            ),
            SearchError::InvalidOptions { option, ref reason } => {
                bad_request("INVALID_OPTIONS", &format!("options.{option}"), reason, &[])
            }
            SearchError::PatternDatabasesNotLoaded => {
                status(Code::Unavailable, &error.to_string(), "TABLES_LOADING", &[])
            }
            SearchError::Internal(_) => status(Code::Internal, &error.to_string(), "INTERNAL", &[]),
        }
    }
}
