//! End-to-end tests of the `npuzzle-client` binary: a file or stdin in, the spec's stdout (or
//! JSON, moves, a hint) out, exit codes for bad input, bad flags, unreachable servers, deadlines
//! and closed pipes. Each run without
//! `--addr` starts the library's server in-process and talks real gRPC to it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::CACHE_DIR;
use crate::process::{Process, free_address};

const PUZZLE04: &str = include_str!("../../puzzles/puzzle04.txt");
const UNSOLVABLE: &str = include_str!("../../puzzles/puzzle3x3-unsolvable.txt");
/// The 3×3 sample 12 moves from the goal.
const THREE_BY_THREE_12: &str = include_str!("../../puzzles/3x3-12.txt");
/// The sample files, from the directory the tests run in (the crate's root).
const PUZZLE04_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/puzzle04.txt");
/// The spec's example output for puzzle04, byte for byte (see the notes in SPEC.md).
const PUZZLE04_SOLUTION: &str = include_str!("../data/puzzle04.out");
/// Princeton's puzzle4x4-hard1 (38 moves): far beyond a fraction of a second for A* with Hamming.
const HARD_4X4: &str = "4\n 5  4  3  8\n 9  2  6  1\n 0 13 14  7\n15 11 10 12\n";

/// The client as a test runs it: no `NPUZZLE_ADDR`, and [`CACHE_DIR`] as its cache.
fn client_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_npuzzle-client"));
    command.env_remove("NPUZZLE_ADDR").env("NPUZZLE_CACHE_DIR", CACHE_DIR);
    command
}

/// Runs the client with `args`, `stdin` as its input, and no `NPUZZLE_ADDR` unless `env` sets it.
fn client(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut command = client_command();
    command.args(args).envs(env.iter().copied());
    let mut child =
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the client starts");
    match child.stdin.take().expect("stdin is piped").write_all(stdin) {
        // A client that refuses its command line exits before it reads, closing its input.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("the client reads its input"),
    }
    child.wait_with_output().expect("the client ends")
}

fn stdout(output: &Output) -> &str {
    std::str::from_utf8(&output.stdout).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).expect("stderr is UTF-8")
}

/// The stdout of a run that must have succeeded.
fn succeeded(output: &Output) -> &str {
    assert!(output.status.success(), "stderr: {}", stderr(output));
    stdout(output)
}

/// The `--json` answer of a successful run with `args` on `input`.
fn json_answer(args: &[&str], input: &str) -> serde_json::Value {
    let mut args = args.to_vec();
    args.push("--json");
    serde_json::from_str(succeeded(&client(&args, input.as_bytes(), &[]))).expect("stdout is JSON")
}

/// An address where nothing listens: a port the OS just handed out, released again.
fn unused_address() -> String {
    free_address().to_string()
}

#[test]
fn puzzle04_prints_the_spec_output_byte_for_byte() {
    let output = client(&[], PUZZLE04.as_bytes(), &[]);
    assert_eq!(succeeded(&output), PUZZLE04_SOLUTION);
    assert_eq!(stderr(&output), "");
}

#[test]
fn stream_prints_the_same_solution() {
    let output = client(&["--stream"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(succeeded(&output), PUZZLE04_SOLUTION);
    // stderr is a pipe here, not a terminal, so no progress is drawn on it.
    assert_eq!(stderr(&output), "");
}

#[test]
fn stream_draws_progress_when_stderr_is_a_terminal() {
    let puzzle = std::env::temp_dir().join(format!("npuzzle-client-progress-{}.txt", std::process::id()));
    std::fs::write(&puzzle, HARD_4X4).expect("a temporary puzzle file");
    let command = format!(
        "'{}' --stream --timeout 1.5 --algorithm astar --heuristic hamming < '{}'",
        env!("CARGO_BIN_EXE_npuzzle-client"),
        puzzle.display()
    );
    let output = super::on_terminal(&command);
    let _ = std::fs::remove_file(&puzzle);
    let Some(output) = output else { return };
    let terminal = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "the search hits its deadline: {terminal}");
    assert!(terminal.contains("nodes expanded, priority "), "progress is drawn: {terminal}");
    assert!(terminal.contains("error: deadline exceeded after 1.5s"), "{terminal}");
}

#[test]
fn chosen_algorithm_and_heuristic_give_the_same_length() {
    let output = client(&["--algorithm", "astar", "--heuristic", "hamming"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(succeeded(&output), PUZZLE04_SOLUTION);
}

#[test]
fn unsolvable_board_is_an_answer_with_exit_zero() {
    let output = client(&[], UNSOLVABLE.as_bytes(), &[]);
    assert_eq!(succeeded(&output), "No solution possible\n");
}

#[test]
fn malformed_input_exits_2_naming_line_and_column_without_a_server() {
    // The address is unreachable: the error must come from the local parse, before any connection.
    let address = unused_address();
    let output = client(&["--addr", &address], b"3\n0 1 3\n4 x 5\n7 8 6\n", &[]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output), "error: line 3, column 3: tile \"x\" is not a whole number\n");
}

#[test]
fn input_that_is_not_text_exits_2() {
    let output = client(&[], b"3\n\xff\xfe\n", &[]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output).lines().count(), 1, "stderr: {}", stderr(&output));
}

#[test]
fn json_is_the_canonical_mapping_of_the_solution() {
    let json = json_answer(&[], PUZZLE04);
    assert_eq!(json["solvable"], true);
    assert_eq!(json["moves"], 4);
    assert_eq!(json["boards"].as_array().map(Vec::len), Some(5));
    assert_eq!(json["boards"][0]["tiles"], serde_json::json!([0, 1, 3, 4, 2, 5, 7, 8, 6]));
    assert_eq!(json["steps"][0], serde_json::json!({"tile": 1, "direction": "DIRECTION_LEFT"}));
    assert!(json["stats"]["nodesExpanded"].is_string(), "uint64 is a string in proto JSON: {json}");
}

#[test]
fn json_of_an_unsolvable_board_says_so() {
    let json = json_answer(&[], UNSOLVABLE);
    assert_eq!(json["solvable"], false);
    assert_eq!(json["moves"], -1);
    assert_eq!(json["boards"], serde_json::json!([]));
}

#[test]
fn unreachable_addr_exits_1() {
    let address = unused_address();
    let output = client(&["--addr", &format!("http://{address}")], PUZZLE04.as_bytes(), &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(stderr(&output).starts_with(&format!("error: cannot connect to http://{address}")), "{}", stderr(&output));
}

#[test]
fn npuzzle_addr_is_read_from_the_environment() {
    let address = unused_address();
    let output = client(&[], PUZZLE04.as_bytes(), &[("NPUZZLE_ADDR", &address)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains(&address), "{}", stderr(&output));
}

#[test]
fn deadline_is_reported_by_the_client_with_exit_1() {
    let args = ["--timeout", "0.3", "--algorithm", "astar", "--heuristic", "hamming"];
    for stream in [false, true] {
        let mut args = args.to_vec();
        if stream {
            args.push("--stream");
        }
        let output = client(&args, HARD_4X4.as_bytes(), &[]);
        assert_eq!(output.status.code(), Some(1), "stream {stream}: {}", stderr(&output));
        assert_eq!(stdout(&output), "");
        assert_eq!(stderr(&output), "error: deadline exceeded after 0.3s\n");
    }
}

#[test]
fn node_budget_is_a_server_error_with_its_status_name() {
    let output = client(&["--max-expanded-nodes", "1", "--algorithm", "astar"], HARD_4X4.as_bytes(), &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    // In the command line's words, from the status's details: what ran out, and the flags to try.
    let said = stderr(&output);
    assert!(said.starts_with("error: the search spent its budget of 1 expanded nodes"), "{said}");
    assert!(said.contains("--optimality anytime --time-limit") && !said.contains("RESOURCE_EXHAUSTED"), "{said}");
}

#[test]
fn closed_stdout_is_a_clean_exit() {
    let mut child = client_command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client starts");
    // Close the reading end before the client can write anything: its write gets EPIPE.
    drop(child.stdout.take());
    child.stdin.take().expect("stdin is piped").write_all(PUZZLE04.as_bytes()).expect("the client reads its input");
    let output = child.wait_with_output().expect("the client ends");
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(stderr(&output), "");
}

/// The 4×4 sample 30 moves from the goal.
const FOUR_BY_FOUR_30: &str = include_str!("../../puzzles/4x4-30.txt");

/// The heuristic the in-process server used, from `--json` output.
fn heuristic_used(extra_args: &[&str]) -> String {
    let mut args = vec!["--cache-dir", CACHE_DIR];
    args.extend_from_slice(extra_args);
    let json = json_answer(&args, FOUR_BY_FOUR_30);
    assert_eq!(json["moves"], 30);
    json["stats"]["heuristic"].as_str().expect("a heuristic name").to_string()
}

#[test]
fn the_in_process_server_loads_pattern_databases_for_a_four_by_four() {
    assert_eq!(heuristic_used(&["--pattern-db", "6-6-3"]), "HEURISTIC_PATTERN_DATABASE");
    assert_eq!(heuristic_used(&["--no-pattern-db"]), "HEURISTIC_LINEAR_CONFLICT");
}

#[test]
fn bounded_without_weight_is_a_usage_error_before_any_connection() {
    // Nothing listens at the address: a usage error must come first, and with exit 2.
    let address = unused_address();
    let output = client(&["--addr", &address, "--optimality", "bounded"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    let first = stderr(&output).lines().next().unwrap_or_default();
    assert!(first.starts_with("error: --optimality bounded requires --weight"), "{}", stderr(&output));
    assert!(!stderr(&output).contains("connect"), "{}", stderr(&output));
}

#[test]
fn weight_with_another_optimality_is_a_usage_error() {
    let address = unused_address();
    let output = client(&["--addr", &address, "--weight", "1.5", "--optimality", "fast"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let first = stderr(&output).lines().next().unwrap_or_default();
    assert!(first.starts_with("error: --weight cannot be used with --optimality fast"), "{}", stderr(&output));
    assert!(!stderr(&output).contains("connect"), "{}", stderr(&output));
}

#[test]
fn weight_alone_asks_for_bounded() {
    let json = json_answer(&["--weight", "1.5", "--no-pattern-db"], FOUR_BY_FOUR_30);
    assert_eq!(json["stats"]["method"], "METHOD_WEIGHTED_IDASTAR", "{json}");
    let moves = json["moves"].as_i64().expect("a move count");
    assert!((30..=45).contains(&moves), "at most 1.5 times the minimum of 30: {moves}");
}

#[test]
fn a_puzzle_file_is_read_and_dash_is_stdin() {
    let output = client(&[PUZZLE04_FILE], b"", &[]);
    assert_eq!(succeeded(&output), PUZZLE04_SOLUTION);
    let output = client(&["-"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(succeeded(&output), PUZZLE04_SOLUTION);
}

#[test]
fn a_missing_puzzle_file_exits_2_naming_the_path_once() {
    let address = unused_address();
    let path = concat!(env!("CARGO_TARGET_TMPDIR"), "/no-such-puzzle.txt");
    let output = client(&["--addr", &address, path], b"", &[]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output), format!("error: cannot read {path}: no such file or directory\n"));
}

#[test]
fn a_malformed_puzzle_file_names_the_file_line_and_column() {
    let path = std::env::temp_dir().join(format!("npuzzle-client-bad-{}.txt", std::process::id()));
    std::fs::write(&path, "3\n0 1 3\n4 x 5\n7 8 6\n").expect("a temporary puzzle file");
    let output = client(&["--addr", &unused_address(), path.to_str().expect("a UTF-8 path")], b"", &[]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        format!("error: {}: line 3, column 3: tile \"x\" is not a whole number\n", path.display())
    );
}

#[test]
fn version_names_the_binary() {
    let output = client(&["--version"], b"", &[]);
    assert_eq!(succeeded(&output), format!("npuzzle-client {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn hint_gives_the_distance_and_the_next_move() {
    let output = client(&["--hint"], THREE_BY_THREE_12.as_bytes(), &[]);
    assert_eq!(succeeded(&output), "12 moves to go; slide 5 down\n");
    assert_eq!(stderr(&output), "");
    let output = client(&["--hint"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(succeeded(&output), "4 moves to go; slide 1 left\n");
}

#[test]
fn hint_on_an_unsolvable_board_says_so_with_exit_zero() {
    let output = client(&["--hint"], UNSOLVABLE.as_bytes(), &[]);
    assert_eq!(succeeded(&output), "No solution possible\n");
}

#[test]
fn hint_goes_to_a_server_given_by_address() {
    let server = Process::server(&[]);
    let output = client(&["--hint", "--addr", &server.url()], THREE_BY_THREE_12.as_bytes(), &[]);
    assert_eq!(succeeded(&output), "12 moves to go; slide 5 down\n");
}

#[test]
fn hint_at_the_goal_has_no_moves_to_go() {
    let output = client(&["--hint"], b"3\n1 2 3\n4 5 6\n7 8 0\n", &[]);
    assert_eq!(succeeded(&output), "solved: no moves to go\n");
}

#[test]
fn a_connection_error_says_each_cause_once() {
    let address = unused_address();
    let output = client(&["--addr", &address], PUZZLE04.as_bytes(), &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert_eq!(message, format!("error: cannot connect to http://{address}/: connection refused\n"));
    let parts: Vec<&str> = message.trim_end().split(": ").collect();
    for (index, part) in parts.iter().enumerate() {
        assert!(!parts[index + 1..].contains(part), "{part:?} is said twice: {message}");
    }
}

#[test]
fn tile_moves_are_the_tiles_and_moves_stay_the_blanks() {
    let output = client(&["--tile-moves"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(succeeded(&output), "Minimum number of moves = 4\n1L 2U 5L 6U\n");
    let output = client(&["--moves"], PUZZLE04.as_bytes(), &[]);
    assert_eq!(succeeded(&output), "Minimum number of moves = 4\nRDRD\n");
}

#[test]
fn the_helps_say_whose_moves_they_print() {
    let help = client(&["--help"], b"", &[]);
    let help = succeeded(&help);
    assert!(help.contains("U D L R is the way the blank goes"), "{help}");
    assert!(help.contains("U D L R is the way the tile goes"), "{help}");
}
