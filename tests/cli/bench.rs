//! `npuzzle-bench` on a benchmark file: a seeded sample of its rows, the labeller's seconds
//! beside each row, and a board stopped at the time limit counted unsolved rather than failing
//! the run. The rows are small copies under tests/data/bench, so no shared files are needed.

use std::process::{Command, Output};

const TINY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench/tiny.tsv");

/// A 5×5 board far beyond a fraction of a second for IDA* with Manhattan alone.
const HARD_5X5: &str = "hard\t100\t3 19 24 9 8 11 7 12 2 4 17 23 20 18 6 16 5 1 14 21 0 15 10 13 22\n";

fn bench(args: &[&str]) -> Output {
    let cache = concat!(env!("CARGO_TARGET_TMPDIR"), "/pattern-databases");
    Command::new(env!("CARGO_BIN_EXE_npuzzle-bench")).args(args).env("NPUZZLE_CACHE_DIR", cache).output().expect("runs")
}

/// The ids of the rows printed, in order, without the total.
fn ids(output: &Output) -> Vec<String> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .filter(|line| !line.starts_with("total"))
        .map(|line| line.split('\t').next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn a_seeded_sample_is_the_same_rows_each_run_with_the_labellers_seconds() {
    let first = bench(&[TINY, "--sample", "3", "--seed", "7"]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let drawn = ids(&first);
    assert_eq!(drawn.len(), 3);
    assert_eq!(drawn, ids(&bench(&[TINY, "--sample", "3", "--seed", "7"])));
    let mut distinct = drawn.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "drawn without replacement");
    let stdout = String::from_utf8_lossy(&first.stdout);
    for line in stdout.lines().filter(|line| !line.starts_with("total")) {
        let fields: Vec<&str> = line.split('\t').collect();
        let expected = match fields[0] {
            "a" => "0.50",
            "b" => "1.50",
            "c" => "2.50",
            "e" => "4.50",
            _ => "-",
        };
        assert_eq!(fields.len(), 8, "{line}");
        assert_eq!(fields[7], expected, "{line}");
        assert_eq!(fields[1], fields[2], "optimal: {line}");
    }
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(stderr.contains("3 of 3 solved; time to an answer: median"), "{stderr}");
    assert!(stderr.contains("the labeller on the same"), "{stderr}");
}

#[test]
fn the_whole_file_and_the_old_flags_still_work() {
    let all = bench(&[TINY, "--sample", "9"]);
    assert!(all.status.success());
    assert_eq!(ids(&all).len(), 5, "a sample larger than the file is the whole file");
    let chosen = bench(&[TINY, "--ids", "c,e,a", "--limit", "2"]);
    assert!(chosen.status.success());
    assert_eq!(ids(&chosen), ["a", "c"], "in the file's order");
}

#[test]
fn a_board_at_the_time_limit_is_unsolved_not_an_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("hard.tsv");
    std::fs::write(&file, HARD_5X5).expect("written");
    let path = file.to_str().expect("a UTF-8 path");
    let output = bench(&[path, "--no-pattern-db", "--heuristic", "manhattan", "--time-limit", "300ms"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let row: Vec<&str> = stdout.lines().next().expect("a row").split('\t').collect();
    assert_eq!(row[..3], ["hard", "-", "100"]);
    assert!(row[3].parse::<u64>().expect("nodes") > 0, "the nodes it expanded");
    assert!(stderr.contains("0 of 1 solved; time to an answer: median unsolved"), "{stderr}");
}
