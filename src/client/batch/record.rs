//! One line of a batch's output, written by hand rather than through a map so that its keys
//! keep the order a reader expects: `id`, `moves`, `optimal`, `lower_bound`, `path`, `nodes`,
//! `seconds`, and for a board that failed, `status` and `error` instead of the answer.

use std::fmt::Write;
use std::time::Duration;

use crate::client::{ClientError, advice, code_name};
use crate::proto;

/// The output line (with its newline) for `solution` of board `id`; `path` false leaves the
/// blank's moves out. An unsolvable board has `"moves": -1` and `"path": null`.
pub fn answer_line(id: &str, solution: &proto::Solution, path: bool) -> String {
    let stats = solution.stats.unwrap_or_default();
    let mut line = format!(
        "{{\"id\":{},\"moves\":{},\"optimal\":{},\"lower_bound\":{}",
        json_string(id),
        solution.moves,
        solution.optimal,
        solution.lower_bound
    );
    if path && solution.solvable() {
        let _ = write!(line, ",\"path\":{}", json_string(&solution.blank_moves));
    } else if path {
        line.push_str(",\"path\":null");
    }
    let seconds = Duration::from_micros(stats.elapsed_micros).as_secs_f64();
    let _ = writeln!(line, ",\"nodes\":{},\"seconds\":{seconds}}}", stats.nodes_expanded);
    line
}

/// The output line (with its newline) for board `id`, whose call failed with `error` after
/// `elapsed`: the status's name and the error in the command line's words.
pub fn failure_line(id: &str, error: &ClientError, elapsed: Duration, time_limit: Option<Duration>) -> String {
    format!(
        "{{\"id\":{},\"status\":\"{}\",\"error\":{},\"seconds\":{}}}\n",
        json_string(id),
        status_name(error),
        json_string(&failure_message(error, time_limit)),
        elapsed.as_secs_f64()
    )
}

/// The error of a failed call as the command line says it: a status with the service's details
/// in flag words, anything else as it is.
pub fn failure_message(error: &ClientError, time_limit: Option<Duration>) -> String {
    match error {
        ClientError::Status(status) => {
            advice::status_in_flags(status, time_limit).unwrap_or_else(|| crate::client::error_chain(error))
        }
        _ => crate::client::error_chain(error),
    }
}

/// The gRPC status name of a failed call; a failure before any answer (the connection, the
/// deadline) gets the name the service would have used.
pub fn status_name(error: &ClientError) -> &'static str {
    match error {
        ClientError::Status(status) => code_name(status.code()),
        ClientError::DeadlineExceeded(_) => "DEADLINE_EXCEEDED",
        ClientError::NoSolution => "INTERNAL",
        _ => "UNAVAILABLE",
    }
}

/// Whether `error` is about the board (refused, or too hard within its budgets), so that
/// `--keep-going` records it and goes on; any other failure (the server gone, a token refused)
/// would fail every board after it and stops the batch.
pub fn is_about_the_board(error: &ClientError) -> bool {
    use tonic::Code;
    match error {
        ClientError::Status(status) => matches!(
            status.code(),
            Code::InvalidArgument
                | Code::OutOfRange
                | Code::ResourceExhausted
                | Code::DeadlineExceeded
                | Code::FailedPrecondition
                | Code::Cancelled
        ),
        ClientError::DeadlineExceeded(_) => true,
        _ => false,
    }
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_line_keeps_its_keys_in_order_and_leaves_the_path_out_on_request() {
        let solution = proto::Solution {
            solvable: Some(true),
            moves: 2,
            optimal: true,
            lower_bound: 2,
            blank_moves: "DR".into(),
            stats: Some(proto::SearchStats { nodes_expanded: 3, elapsed_micros: 1500, ..Default::default() }),
            ..Default::default()
        };
        assert_eq!(
            answer_line("a\"b", &solution, true),
            "{\"id\":\"a\\\"b\",\"moves\":2,\"optimal\":true,\"lower_bound\":2,\"path\":\"DR\",\"nodes\":3,\"seconds\":0.0015}\n"
        );
        assert!(!answer_line("a", &solution, false).contains("path"));
        let unsolvable = proto::Solution { solvable: Some(false), moves: -1, ..Default::default() };
        assert!(answer_line("u", &unsolvable, true).contains("\"lower_bound\":0,\"path\":null,"));
    }
}
