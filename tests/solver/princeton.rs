//! The assignment's 152 test files (read from `../shared/puzzles/princeton/` when it is there):
//! every one is solved in its published optimal count, or found unsolvable, and each solution
//! is checked move by move. Skips with a note when the files are absent.

use std::time::Instant;

use crate::support::{assert_valid_solution, princeton_dir};
use npuzzle::solver::{NoProgress, Options, Stop};
use npuzzle::text::parse_board;

/// The two files that need the pattern databases to finish within the node budget; this test
/// runs without them, and `tests/solver/korf.rs` and `tests/grpc/pattern_databases.rs` cover them.
const NEED_PATTERN_DATABASES: &[&str] = &["puzzle4x4-78.txt", "puzzle4x4-80.txt"];

#[test]
fn every_princeton_file_is_solved_optimally() {
    let Some(dir) = princeton_dir() else {
        eprintln!("note: ../shared/puzzles/princeton is absent; skipping");
        return;
    };
    let expected = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let mut solved = 0;
    for row in expected.lines().skip(1).filter(|row| !row.trim().is_empty()) {
        let fields: Vec<&str> = row.split('\t').collect();
        let (file, moves) = (fields[0], fields[2].parse::<i32>().expect("a move count"));
        if NEED_PATTERN_DATABASES.contains(&file) {
            continue;
        }
        let board = parse_board(&std::fs::read_to_string(dir.join(file)).expect("readable")).expect("parses");
        let started = Instant::now();
        let solution = npuzzle::solve(&board, &Options::default(), &mut NoProgress, &Stop::new())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(solution.moves(), moves, "{file}");
        if moves >= 0 {
            assert_valid_solution(&board, &solution);
        }
        eprintln!("{file}\t{moves}\t{:.3}s", started.elapsed().as_secs_f64());
        solved += 1;
    }
    assert!(solved >= 150, "only {solved} files were checked");
}
