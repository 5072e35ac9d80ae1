//! The grpcurl examples of docs/api.md, run for real: grpcurl (a Go gRPC client that knows nothing
//! but what server reflection tells it) against the built `npuzzle-server` binary. It shows
//! that reflection (v1alpha, the only one grpcurl 1.8 speaks), the proto comments, health, and
//! the JSON forms of both RPCs work for clients that never saw `proto/npuzzle.proto`.
//!
//! grpcurl is found through the `GRPCURL` environment variable, which `.ci/run` sets. Without
//! it the tests print a note and pass, except under `CI=true`, where a missing grpcurl fails.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::process::{Process, tool_from_env};
use serde_json::{Value, json};

/// The spec's puzzle04 as a structured board.
const PUZZLE04_BOARD: &str = r#"{"board": {"dimension": 3, "tiles": [0, 1, 3, 4, 2, 5, 7, 8, 6]}}"#;
/// The spec's puzzle04 in its text format, as a file holds it.
const PUZZLE04_TEXT: &str = r#"{"text": "3\n 0  1  3\n 4  2  5\n 7  8  6\n"}"#;

/// A running `npuzzle-server` that reports progress often, and the grpcurl binary, or `None`
/// (after a note) when grpcurl is not installed and this is not CI.
fn server_and_grpcurl() -> Option<(Process, Grpcurl)> {
    let binary = tool_from_env("GRPCURL", "grpcurl")?;
    Some((Process::server(&["--progress-interval-ms", "20"]), Grpcurl(binary)))
}

/// The grpcurl binary.
struct Grpcurl(PathBuf);

impl Grpcurl {
    /// Runs grpcurl against `server` with `args` before the address and `method` after it.
    fn run(&self, server: &Process, args: &[&str], method: &[&str]) -> Output {
        Command::new(&self.0)
            .args(["-plaintext", "-max-time", "30"])
            .args(args)
            .arg(server.address.to_string())
            .args(method)
            .output()
            .expect("grpcurl runs")
    }
}

/// grpcurl's stdout, after checking that it succeeded.
fn success(output: Output) -> String {
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 stdout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "grpcurl failed: {stderr}\n{stdout}");
    stdout
}

/// The JSON messages grpcurl printed, one after the other (a stream prints several).
fn messages(stdout: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(stdout)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .expect("grpcurl prints JSON messages")
}

/// Checks that `solution` is puzzle04's: 4 moves, 5 boards, ending at the goal.
fn assert_puzzle04_solution(solution: &Value) {
    assert_eq!(solution["solvable"], true, "{solution}");
    assert_eq!(solution["moves"], 4, "{solution}");
    let boards = solution["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), 5, "{solution}");
    assert_eq!(boards[0]["tiles"], json!([0, 1, 3, 4, 2, 5, 7, 8, 6]));
    assert_eq!(boards[4]["tiles"], json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
    assert_eq!(solution["steps"][0], json!({"tile": 1, "direction": "DIRECTION_LEFT"}));
}

#[test]
fn list_and_describe_come_from_reflection_with_the_proto_comments() {
    let Some((server, grpcurl)) = server_and_grpcurl() else { return };
    let services = success(grpcurl.run(&server, &[], &["list"]));
    let services: Vec<&str> = services.lines().collect();
    assert!(services.contains(&"npuzzle.v1.SolverService"), "{services:?}");
    assert!(services.contains(&"grpc.health.v1.Health"), "{services:?}");
    let service = success(grpcurl.run(&server, &[], &["describe", "npuzzle.v1.SolverService"]));
    assert!(service.contains("// Solves sliding-tile puzzles in the fewest possible moves."), "{service}");
    assert!(service.contains("rpc Solve ( .npuzzle.v1.SolveRequest ) returns ( .npuzzle.v1.SolveResponse );"));
    assert!(service.contains("returns ( stream .npuzzle.v1.SolveStreamResponse );"), "{service}");
    let board = success(grpcurl.run(&server, &[], &["describe", "npuzzle.v1.Board"]));
    assert!(board.contains("row-major"), "{board}");
}

#[test]
fn solve_takes_a_board_or_text_and_gives_the_same_solution() {
    let Some((server, grpcurl)) = server_and_grpcurl() else { return };
    let mut solutions = [PUZZLE04_BOARD, PUZZLE04_TEXT].map(|request| {
        let stdout = success(grpcurl.run(&server, &["-d", request], &["npuzzle.v1.SolverService/Solve"]));
        let [response] = <[Value; 1]>::try_from(messages(&stdout)).expect("one response");
        response["solution"].clone()
    });
    for solution in &mut solutions {
        assert_puzzle04_solution(solution);
        // The time taken differs between two runs; everything else must not.
        solution["stats"]["elapsedMicros"].take();
    }
    assert_eq!(solutions[0], solutions[1]);
}

#[test]
fn solve_stream_sends_progress_first_and_one_solution_last() {
    let Some((server, grpcurl)) = server_and_grpcurl() else { return };
    let stdout = success(grpcurl.run(&server, &["-d", PUZZLE04_TEXT], &["npuzzle.v1.SolverService/SolveStream"]));
    let events = messages(&stdout);
    assert!(events.len() >= 2, "{events:?}");
    assert!(events[0].get("progress").is_some(), "the first event is progress: {events:?}");
    let (last, before) = events.split_last().expect("events");
    assert_puzzle04_solution(&last["solution"]);
    assert!(before.iter().all(|event| event.get("progress").is_some()), "one solution, last: {events:?}");
}

#[test]
fn health_reports_serving_for_the_server_and_the_solver() {
    let Some((server, grpcurl)) = server_and_grpcurl() else { return };
    for request in ["{}", r#"{"service": "npuzzle.v1.SolverService"}"#] {
        let stdout = success(grpcurl.run(&server, &["-d", request], &["grpc.health.v1.Health/Check"]));
        assert_eq!(messages(&stdout), [json!({"status": "SERVING"})], "{request}");
    }
}

#[test]
fn a_malformed_puzzle_is_invalid_argument_naming_the_problem() {
    let Some((server, grpcurl)) = server_and_grpcurl() else { return };
    let request = r#"{"text": "3\n0 1 3\n4 2 5\n7 8 8\n"}"#;
    let output = grpcurl.run(&server, &["-format-error", "-d", request], &["npuzzle.v1.SolverService/Solve"]);
    assert!(!output.status.success(), "a duplicate tile must fail");
    // With -format-error, grpcurl prints the status as JSON on stderr.
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 stderr");
    let [error] = <[Value; 1]>::try_from(messages(&stderr)).expect("one error");
    // 3 = INVALID_ARGUMENT.
    assert_eq!(error["code"], 3, "{error}");
    let message = error["message"].as_str().expect("a message");
    assert!(message.contains("line 4, column 5") && message.contains("appears twice"), "{message}");
}
