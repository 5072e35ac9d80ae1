//! A server's error status in the command line's words. Every non-OK status of the service
//! carries a `google.rpc.ErrorInfo` (domain `npuzzle.v1`, a stable reason and metadata; see
//! docs/api.md, "Error details"), and [`status_in_flags`] turns it into one short line that
//! names the flags to change: `--weight: ...` for a bad weight, `line 3, column 5: ...` for a
//! bad puzzle, `... for the best answer found in time: --optimality anytime --time-limit 10s`
//! for a spent budget. A status without the detail has no such line: the caller prints the
//! status itself.

use std::collections::HashMap;
use std::time::Duration;

use tonic::Status;
use tonic_types::StatusExt;

use crate::proto;
use crate::solver::{Algorithm, Heuristic, Optimality, roughly};

/// The domain of the service's `ErrorInfo`.
pub const DOMAIN: &str = "npuzzle.v1";

/// The time limit suggested for ANYTIME when neither the server nor the command line names one.
pub const SUGGESTED_TIME_LIMIT: Duration = Duration::from_secs(10);

/// `status` as one line in the command line's words, if it carries the service's `ErrorInfo`
/// with a reason this client knows. `time_limit` is the `--time-limit` the call was made with,
/// suggested again when the answer is to retry with ANYTIME.
pub fn status_in_flags(status: &Status, time_limit: Option<Duration>) -> Option<String> {
    let info = status.get_details_error_info()?;
    if !info.domain.is_empty() && info.domain != DOMAIN {
        return None;
    }
    let details = Details { status, metadata: &info.metadata, time_limit };
    let board = details.board();
    let line = match info.reason.as_str() {
        "INVALID_PUZZLE" => {
            let problem = details.problem();
            match (details.get("line"), details.get("column")) {
                (Some(line), Some(column)) if !problem.starts_with("line ") => {
                    format!("line {line}, column {column}: {problem}")
                }
                (Some(_), Some(_)) => problem,
                _ => format!("the puzzle: {problem}"),
            }
        }
        "INVALID_OPTIONS" => {
            let flag = details.get("field").and_then(flag_of_field);
            format!("{}: {}", flag.unwrap_or("the options"), details.problem())
        }
        "UNSUPPORTED" => {
            let algorithm = details
                .get("algorithm")
                .and_then(proto::Algorithm::from_str_name)
                .map(Algorithm::from)
                .filter(|algorithm| *algorithm != Algorithm::Auto)
                .map(|algorithm| format!("--algorithm {algorithm}"));
            let heuristic = details
                .get("heuristic")
                .and_then(proto::Heuristic::from_str_name)
                .map(Heuristic::from)
                .filter(|heuristic| *heuristic != Heuristic::Auto)
                .map(|heuristic| format!("--heuristic {heuristic}"));
            let flags = [algorithm, heuristic].into_iter().flatten().collect::<Vec<_>>().join(" with ");
            let flags = if flags.is_empty() { "this search".to_string() } else { flags };
            format!("{flags} is not supported{board}; leave the flag out to let the server choose")
        }
        "TIME_LIMIT_REACHED" => {
            let limit = details.millis("limit_ms");
            let limit = limit.map(|limit| format!(" of {}", duration(limit))).unwrap_or_default();
            format!(
                "the search time limit{limit} was reached{board}{}; for the best answer found in time: {}",
                details.method(),
                details.suggestion(details.millis("limit_ms"))
            )
        }
        "NODE_BUDGET_SPENT" => {
            let limit = details.get("limit").map(|limit| format!(" of {limit} expanded nodes")).unwrap_or_default();
            format!(
                "the search spent its budget{limit}{board}{}; for the best answer found in time: {}",
                details.method(),
                details.suggestion(None)
            )
        }
        "MEMORY_BUDGET_SPENT" => {
            let limit = details
                .get("limit_bytes")
                .and_then(|bytes| bytes.parse::<u64>().ok())
                .map(|bytes| format!(" ({})", bytesize::ByteSize::b(bytes).display().iec()))
                .unwrap_or_default();
            let idastar = if details.get("method") == Some("METHOD_ASTAR") { "--algorithm idastar, or " } else { "" };
            format!(
                "the search ran out of its memory{limit}{board}{}; try {idastar}for the best answer found in time: {}",
                details.method(),
                details.suggestion(None)
            )
        }
        "PROOF_OUT_OF_REACH" => {
            let mut known = Vec::new();
            if let Some(forecast) = details.millis("forecast_ms") {
                known.push(format!("{} of search left", roughly(Duration::from_millis(forecast))));
            }
            if let Some(bound) = details.get("bound") {
                known.push(format!("at least {bound} moves"));
            }
            let known = if known.is_empty() { String::new() } else { format!(" ({})", known.join("; ")) };
            format!("a proof is out of reach{board}{known}; try {}", details.suggestion(None))
        }
        "SERVER_BUSY" => {
            let running = details.get("running").map(|running| format!(" ({running} searches running)"));
            format!("the server is busy{}; try again later or another server", running.unwrap_or_default())
        }
        "TABLES_LOADING" => format!("the server is still loading its pattern databases{board}; try again shortly"),
        "SHUTTING_DOWN" => "the server is shutting down; try again or another server".to_string(),
        "DEADLINE_EXCEEDED" => {
            let elapsed = details.millis("elapsed_ms").map(|ms| format!(" after {}", duration(ms)));
            format!("the deadline passed{}; a longer --timeout gives the search more time", elapsed.unwrap_or_default())
        }
        "CANCELLED" => "the search was cancelled".to_string(),
        _ => return None,
    };
    Some(line)
}

/// The flag of a field of `SolveOptions`, as the server names it in `field`.
fn flag_of_field(field: &str) -> Option<&'static str> {
    Some(match field {
        "options.weight" => "--weight",
        "options.optimality" => "--optimality",
        "options.algorithm" => "--algorithm",
        "options.heuristic" => "--heuristic",
        "options.max_expanded_nodes" => "--max-expanded-nodes",
        "options.time_limit_ms" | "time_limit_ms" => "--time-limit",
        _ => return None,
    })
}

/// What one status says, read by key.
struct Details<'a> {
    status: &'a Status,
    metadata: &'a HashMap<String, String>,
    time_limit: Option<Duration>,
}

impl Details<'_> {
    /// The metadata value under `key`, if it is there and not empty.
    fn get(&self, key: &str) -> Option<&str> {
        self.metadata.get(key).map(String::as_str).filter(|value| !value.is_empty())
    }

    /// A number of milliseconds under `key`.
    fn millis(&self, key: &str) -> Option<u64> {
        self.get(key)?.parse().ok()
    }

    /// ` on this 6x6 board`, when the status names the dimension.
    fn board(&self) -> String {
        self.get("dimension").map(|n| format!(" on this {n}x{n} board")).unwrap_or_default()
    }

    /// ` (IDA*)`: the method that ran, when the status names one.
    fn method(&self) -> String {
        let name = match self.get("method") {
            Some("METHOD_ASTAR") => "A*",
            Some("METHOD_IDASTAR") => "IDA*",
            Some("METHOD_WEIGHTED_IDASTAR") => "weighted IDA*",
            Some("METHOD_MINIMUM") => "IDA* after a fast path",
            _ => return String::new(),
        };
        format!(" ({name})")
    }

    /// What is wrong, in the server's words: the first field violation of the `BadRequest`,
    /// else the status message without its leading field name.
    fn problem(&self) -> String {
        let violation = self.status.get_details_bad_request().and_then(|bad| bad.field_violations.into_iter().next());
        if let Some(violation) = violation.filter(|violation| !violation.description.is_empty()) {
            return violation.description;
        }
        let message = self.status.message();
        let field = self.get("field").unwrap_or_default();
        message.strip_prefix(field).and_then(|rest| rest.strip_prefix(": ")).unwrap_or(message).to_string()
    }

    /// The flags that answer in time: the optimality the server suggests (ANYTIME unless it
    /// says otherwise), with for ANYTIME a time limit: the one the command line gave, else
    /// `reached` (the limit the search ran into), else [`SUGGESTED_TIME_LIMIT`].
    fn suggestion(&self, reached: Option<u64>) -> String {
        let optimality = self
            .get("suggested_optimality")
            .and_then(proto::Optimality::from_str_name)
            .map(Optimality::from)
            .unwrap_or(Optimality::Anytime);
        match optimality {
            Optimality::Anytime => {
                let limit = self
                    .time_limit
                    .or_else(|| reached.map(Duration::from_millis))
                    .filter(|limit| !limit.is_zero())
                    .unwrap_or(SUGGESTED_TIME_LIMIT);
                format!("--optimality anytime --time-limit {}", humantime::format_duration(limit))
            }
            Optimality::Bounded => "--optimality bounded --weight 1.5".to_string(),
            other => format!("--optimality {other}"),
        }
    }
}

/// `ms` as the command line writes a duration: `5s`, `1m 30s`, `250ms`.
fn duration(ms: u64) -> String {
    humantime::format_duration(Duration::from_millis(ms)).to_string()
}

#[cfg(test)]
mod tests {
    use tonic::Code;
    use tonic_types::ErrorDetails;

    use super::*;

    fn status(code: Code, message: &str, reason: &str, metadata: &[(&str, &str)]) -> Status {
        let metadata: HashMap<String, String> =
            metadata.iter().map(|(key, value)| (key.to_string(), value.to_string())).collect();
        Status::with_error_details(code, message, ErrorDetails::with_error_info(reason, DOMAIN, metadata))
    }

    #[test]
    fn a_spent_time_limit_suggests_anytime() {
        let status = status(
            Code::ResourceExhausted,
            "time limit reached",
            "TIME_LIMIT_REACHED",
            &[("limit_ms", "5000"), ("dimension", "20"), ("suggested_optimality", "OPTIMALITY_ANYTIME")],
        );
        assert_eq!(
            status_in_flags(&status, None).as_deref(),
            Some(
                "the search time limit of 5s was reached on this 20x20 board; for the best answer found in time: \
                 --optimality anytime --time-limit 5s"
            )
        );
        let line = status_in_flags(&status, Some(Duration::from_secs(7))).expect("a line");
        assert!(line.ends_with("--time-limit 7s"), "{line}");
    }

    #[test]
    fn a_proof_out_of_reach_says_how_far() {
        let status = status(
            Code::ResourceExhausted,
            "out of reach",
            "PROOF_OUT_OF_REACH",
            &[("bound", "52"), ("forecast_ms", "90000000000000"), ("dimension", "6")],
        );
        assert_eq!(
            status_in_flags(&status, None).as_deref(),
            Some(
                "a proof is out of reach on this 6x6 board (years of search left; at least 52 moves); try \
                 --optimality anytime --time-limit 10s"
            )
        );
        assert_eq!(roughly(Duration::from_secs(7_200)), "about 2 hours");
        assert_eq!(roughly(Duration::from_secs(90)), "about a minute");
        assert_eq!(roughly(Duration::from_millis(10)), "about a second");
        assert_eq!(roughly(Duration::from_secs(99 * 31_557_600)), "years");
    }

    #[test]
    fn bad_options_and_puzzles_name_the_flag_or_the_place() {
        let mut details = ErrorDetails::with_error_info(
            "INVALID_OPTIONS",
            DOMAIN,
            [("field".to_string(), "options.weight".to_string())],
        );
        details.add_bad_request_violation("options.weight", "must be above 1, got 0.5");
        let weight = Status::with_error_details(Code::InvalidArgument, "options.weight: must be above 1", details);
        assert_eq!(status_in_flags(&weight, None).as_deref(), Some("--weight: must be above 1, got 0.5"));
        let puzzle = status(
            Code::InvalidArgument,
            "text: tile \"x\" is not a whole number",
            "INVALID_PUZZLE",
            &[("field", "text"), ("line", "3"), ("column", "5")],
        );
        assert_eq!(
            status_in_flags(&puzzle, None).as_deref(),
            Some("line 3, column 5: tile \"x\" is not a whole number")
        );
    }

    #[test]
    fn a_status_without_the_detail_has_no_line() {
        assert_eq!(status_in_flags(&Status::internal("boom"), None), None);
        let other = Status::with_error_details(
            Code::Internal,
            "boom",
            ErrorDetails::with_error_info("INTERNAL", DOMAIN, HashMap::new()),
        );
        assert_eq!(status_in_flags(&other, None), None);
        let foreign = Status::with_error_details(
            Code::ResourceExhausted,
            "busy",
            ErrorDetails::with_error_info("SERVER_BUSY", "example.com", HashMap::new()),
        );
        assert_eq!(status_in_flags(&foreign, None), None);
    }
}
