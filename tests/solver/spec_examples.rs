//! The assignment's own examples, byte for byte: puzzle04's solution and the unsolvable 3×3.

use npuzzle::solver::{NoProgress, Options, Stop};
use npuzzle::text::{format_solution, parse_board};

fn spec_output(input: &str, options: &Options) -> String {
    let board = parse_board(input).expect("the example parses");
    let solution = npuzzle::solve(&board, options, &mut NoProgress, &Stop::new()).expect("the example solves");
    format_solution(&solution)
}

/// The spec's example output for puzzle04, byte for byte (see the notes in SPEC.md).
const PUZZLE04_OUTPUT: &str = include_str!("../data/puzzle04.out");

#[test]
fn puzzle04_prints_the_spec_output_byte_for_byte() {
    let input = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/puzzle04.txt")).expect("sample");
    assert_eq!(spec_output(&input, &Options::default()), PUZZLE04_OUTPUT);
}

#[test]
fn puzzle04_is_the_same_with_the_spec_heuristics() {
    for heuristic in [npuzzle::Heuristic::Hamming, npuzzle::Heuristic::Manhattan] {
        let options = Options { algorithm: npuzzle::Algorithm::AStar, heuristic, ..Options::default() };
        assert_eq!(spec_output("3\n0 1 3\n4 2 5\n7 8 6\n", &options), PUZZLE04_OUTPUT, "{heuristic}");
    }
}

#[test]
fn the_unsolvable_example_says_so() {
    let input = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/puzzle3x3-unsolvable.txt"))
        .expect("sample");
    assert_eq!(spec_output(&input, &Options::default()), "No solution possible\n");
    let board = parse_board(&input).expect("parses");
    let solution = npuzzle::solve(&board, &Options::default(), &mut NoProgress, &Stop::new()).expect("answers");
    assert!(!solution.is_solvable());
    assert_eq!(solution.moves(), -1);
    assert!(solution.boards().is_none());
    assert_eq!(solution.stats().nodes_expanded, 0, "no search runs for an unsolvable board");
}
