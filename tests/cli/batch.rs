//! `npuzzle-client batch` as a user runs it: a file of mixed boards labelled and checked line
//! by line (each path replayed to the goal here), bad lines refused with their line and column
//! before anything is solved, a batch killed halfway and resumed (every id once, all optimal),
//! and `--keep-going` against a server that refuses some boards. Pattern databases come from
//! the client tests' cache under the target directory (6-6-3, built there in seconds).

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::CACHE_DIR;
use crate::process::Process;

/// Korf's 100 15-puzzles with their optimal lengths.
const KORF100: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/korf100.tsv");

/// `npuzzle-client batch` with `args`, no `NPUZZLE_ADDR`, and the tests' cache.
fn batch_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_npuzzle-client"));
    command.arg("batch").args(args).env_remove("NPUZZLE_ADDR").env("NPUZZLE_CACHE_DIR", CACHE_DIR);
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

fn batch(args: &[&str]) -> Output {
    batch_command(args).output().expect("the client runs")
}

fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).expect("stderr is UTF-8")
}

/// The lines of the output file, parsed, by id; each id must appear once.
fn answers(out: &Path) -> HashMap<String, Value> {
    let text = std::fs::read_to_string(out).expect("the output file");
    assert!(text.is_empty() || text.ends_with('\n'), "the output ends with a whole line");
    let mut answers = HashMap::new();
    for line in text.lines() {
        let answer: Value = serde_json::from_str(line).unwrap_or_else(|error| panic!("{line:?} is not JSON: {error}"));
        let id = answer["id"].as_str().expect("an id").to_owned();
        assert!(answers.insert(id.clone(), answer).is_none(), "id {id} is in the output twice");
    }
    answers
}

/// Plays the blank's moves from `tiles` (row-major, side `n`) and says whether they end at
/// the goal, every move legal.
fn reaches_goal(tiles: &[u16], path: &str) -> bool {
    let n = tiles.len().isqrt();
    let mut tiles = tiles.to_vec();
    let mut blank = tiles.iter().position(|&tile| tile == 0).expect("a blank");
    for step in path.chars() {
        let (row, col) = (blank / n, blank % n);
        let target = match step {
            'U' if row > 0 => blank - n,
            'D' if row + 1 < n => blank + n,
            'L' if col > 0 => blank - 1,
            'R' if col + 1 < n => blank + 1,
            _ => return false,
        };
        tiles.swap(blank, target);
        blank = target;
    }
    tiles.iter().enumerate().all(|(cell, &tile)| usize::from(tile) == (cell + 1) % (n * n))
}

/// The boards of the mixed batch: (id, tiles, optimal length or -1).
const MIXED: [(&str, &[u16], i64); 5] = [
    ("spec-4", &[0, 1, 3, 4, 2, 5, 7, 8, 6], 4),
    ("3x3-31", &[8, 6, 7, 2, 5, 4, 3, 0, 1], 31),
    ("korf-97", &[13, 5, 0, 4, 10, 3, 12, 6, 14, 15, 1, 8, 9, 11, 2, 7], 44),
    ("unsolvable", &[1, 2, 3, 4, 5, 6, 8, 7, 0], -1),
    ("2x2", &[0, 3, 2, 1], 6),
];

/// `MIXED` as JSONL, the 3×3 31-move board in the spec's text and the rest as tile lists.
fn mixed_jsonl() -> String {
    MIXED
        .iter()
        .map(|(id, tiles, _)| match *id {
            "3x3-31" => format!("{{\"id\": \"{id}\", \"text\": \"3\\n8 6 7\\n2 5 4\\n3 0 1\\n\"}}\n"),
            _ => format!("{{\"id\": \"{id}\", \"tiles\": {tiles:?}}}\n"),
        })
        .collect()
}

#[test]
fn a_mixed_batch_is_labelled_line_by_line() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (input, out) = (dir.path().join("boards.jsonl"), dir.path().join("out.jsonl"));
    std::fs::write(&input, mixed_jsonl()).expect("write the input");
    let output = batch(&[input.to_str().expect("UTF-8"), "--out", out.to_str().expect("UTF-8")]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("5 done (5 optimal), 0 failed"), "{}", stderr(&output));
    let answers = answers(&out);
    assert_eq!(answers.len(), MIXED.len());
    for (id, tiles, optimal) in MIXED {
        let answer = &answers[id];
        assert_eq!(answer["moves"], optimal, "{id}: {answer}");
        if optimal < 0 {
            assert_eq!(answer["path"], Value::Null, "{id}");
            continue;
        }
        assert_eq!(answer["optimal"], true, "{id}");
        assert_eq!(answer["lower_bound"], optimal, "{id}");
        let path = answer["path"].as_str().expect("a path");
        assert_eq!(path.len() as i64, optimal, "{id}");
        assert!(reaches_goal(tiles, path), "{id}: {path} does not reach the goal");
        assert!(answer["nodes"].is_u64() && answer["seconds"].is_f64(), "{id}: {answer}");
        assert!(answer.get("status").is_none(), "{id}");
    }
}

#[test]
fn a_bad_line_exits_2_with_its_line_and_column_before_anything_is_solved() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (input, out) = (dir.path().join("boards.tsv"), dir.path().join("out.jsonl"));
    std::fs::write(&input, "# id, tiles\na\t1 2 3 4 5 6 7 0 8\nb\t1 2 3 4 5 9 7 0 8\n").expect("write the input");
    let output = batch(&[input.to_str().expect("UTF-8"), "--out", out.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("boards.tsv: line 3, column 13: tile 9 at position 5 is out of range 0..=8"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists(), "nothing was solved, so nothing was written");

    std::fs::write(
        &input,
        "{\"id\": \"a\", \"tiles\": [1, 2, 3, 4, 5, 6, 7, 0, 8]}\n{\"id\": \"b\", \"tiles\": [1, 2}\n",
    )
    .expect("write the input");
    let output = batch(&[input.to_str().expect("UTF-8"), "--out", out.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("boards.tsv: line 2, column 27: not JSON: expected `,` or `]`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_answer_that_disagrees_with_the_known_length_is_flagged_with_exit_1() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (input, out) = (dir.path().join("boards.tsv"), dir.path().join("out.jsonl"));
    std::fs::write(&input, "right\t4\t0 1 3 4 2 5 7 8 6\nwrong\t5\t0 1 3 4 2 5 7 8 6\n").expect("write the input");
    let output = batch(&[input.to_str().expect("UTF-8"), "--out", out.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("disagreement: wrong: the input says 5 moves, the answer has 4"),
        "{}",
        stderr(&output)
    );
    assert!(!stderr(&output).contains("disagreement: right"), "{}", stderr(&output));
    assert_eq!(answers(&out).len(), 2, "both are labelled all the same");
}

#[test]
fn a_batch_killed_halfway_resumes_with_every_id_once_and_all_optimal() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("out.jsonl");
    let args = [KORF100, "--out", out.to_str().expect("UTF-8"), "--concurrency", "1", "--pattern-db", "6-6-3"];
    let mut child = batch_command(&args).spawn().expect("the client starts");
    let started = Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |text| text.lines().count()) < 3 {
        assert!(child.try_wait().expect("its status").is_none(), "the batch ended before it was killed");
        assert!(started.elapsed() < Duration::from_secs(120), "no answers after two minutes");
        sleep(Duration::from_millis(5));
    }
    child.kill().expect("kill the batch");
    child.wait().expect("it ends");
    let before = answers(&out).len();
    assert!(before < 100, "killed halfway");
    // A machine that crashed mid-write leaves a torn line: it is cut off and its board redone.
    let mut text = std::fs::read_to_string(&out).expect("the output");
    text.push_str("{\"id\":\"100\",\"mov");
    std::fs::write(&out, text).expect("tear the last line");

    let output = batch(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("{} already in the output", before)), "{}", stderr(&output));
    assert!(stderr(&output).contains("last line was torn"), "{}", stderr(&output));
    let answers = answers(&out);
    assert_eq!(answers.len(), 100, "every id once");
    assert!(answers.values().all(|answer| answer["optimal"] == true), "all optimal");
    let known = std::fs::read_to_string(KORF100).expect("the benchmark");
    for row in known.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = row.split('\t').collect();
        assert_eq!(answers[fields[0]]["moves"].to_string(), fields[1], "Korf instance {}", fields[0]);
    }
}

#[test]
fn keep_going_records_the_boards_a_server_refuses_and_goes_on() {
    let server = Process::server(&["--max-dimension", "3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (input, out) = (dir.path().join("boards.jsonl"), dir.path().join("out.jsonl"));
    std::fs::write(&input, mixed_jsonl()).expect("write the input");
    let args = [input.to_str().expect("UTF-8"), "--out", out.to_str().expect("UTF-8"), "--addr", &server.url()];

    let output = batch(&args);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("error: board korf-97: "), "{}", stderr(&output));
    assert!(answers(&out).values().all(|answer| answer.get("status").is_none()), "no failure is recorded");

    let mut args = args.to_vec();
    args.push("--keep-going");
    let output = batch(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("1 failed"), "{}", stderr(&output));
    let answers = answers(&out);
    assert_eq!(answers.len(), MIXED.len(), "every board once");
    let refused = &answers["korf-97"];
    assert_eq!(refused["status"], "INVALID_ARGUMENT", "{refused}");
    assert!(
        refused["error"].as_str().is_some_and(|error| error.contains("dimension 4 is above the maximum 3")),
        "{refused}"
    );
    assert!(refused.get("moves").is_none(), "{refused}");
    for (id, _, optimal) in MIXED.iter().filter(|(id, _, _)| *id != "korf-97") {
        assert_eq!(answers[*id]["moves"], *optimal, "{id}");
    }
}

#[test]
fn a_puzzle_file_named_batch_is_still_solved_as_dot_slash_batch() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("batch"), "3\n0 1 3\n4 2 5\n7 8 6\n").expect("write the puzzle");
    let output = Command::new(env!("CARGO_BIN_EXE_npuzzle-client"))
        .arg("./batch")
        .current_dir(dir.path())
        .env_remove("NPUZZLE_ADDR")
        .env("NPUZZLE_CACHE_DIR", CACHE_DIR)
        .output()
        .expect("the client runs");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("Minimum number of moves = 4\n"));
}

#[test]
fn the_progress_bar_is_drawn_on_a_terminal_only() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("out.jsonl");
    let command = format!(
        "'{}' batch '{KORF100}' --out '{}' --concurrency 1 --pattern-db 6-6-3 --no-path",
        env!("CARGO_BIN_EXE_npuzzle-client"),
        out.display()
    );
    let Some(output) = super::on_terminal(&command) else { return };
    let terminal = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{terminal}");
    assert!(terminal.contains("/100 boards, 0 failed, ") && terminal.contains("ETA"), "a bar is drawn: {terminal}");
    assert!(terminal.contains("100 done (100 optimal), 0 failed"), "then the summary: {terminal}");

    std::fs::remove_file(&out).expect("remove the output");
    let output = batch(&[KORF100, "--out", out.to_str().expect("UTF-8"), "--pattern-db", "6-6-3", "--no-path"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("100 done (100 optimal)"), "{}", stderr(&output));
    assert!(!stderr(&output).contains("ETA"), "no bar on a pipe: {}", stderr(&output));
}
