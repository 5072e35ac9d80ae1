//! The sample puzzles in `puzzles/`: each parses, solves in its manifest's move count with a
//! checked path, and the 2×2 and 3×3 counts agree with an independent breadth-first search.

use crate::support::{assert_valid_solution, bfs_distances, sample_puzzles};
use npuzzle::solver::{NoProgress, Options, Stop};
use npuzzle::text::parse_board;

#[test]
fn manifest_covers_every_size_from_two_to_five() {
    let samples = sample_puzzles();
    for n in 2..=5 {
        assert!(samples.iter().filter(|s| s.dimension == n && s.moves >= 0).count() >= 3, "{n}x{n}");
    }
    let listed: Vec<_> = samples.iter().map(|s| s.path.clone()).collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    for entry in std::fs::read_dir(dir).expect("puzzles/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "txt") {
            assert!(listed.contains(&path), "{} is not in the manifest", path.display());
        }
    }
}

#[test]
fn small_sample_counts_match_breadth_first_search() {
    let tables = [(2, bfs_distances(2)), (3, bfs_distances(3))];
    for sample in sample_puzzles().iter().filter(|s| s.dimension <= 3) {
        let board = parse_board(&std::fs::read_to_string(&sample.path).expect("sample")).expect("parses");
        let table = &tables.iter().find(|(n, _)| *n == sample.dimension).expect("a table").1;
        let exact = table.get(board.tiles()).map_or(-1, |&d| d as i32);
        assert_eq!(exact, sample.moves, "{}", sample.path.display());
    }
}

#[test]
fn every_sample_solves_in_its_manifest_count() {
    for sample in sample_puzzles() {
        let board = parse_board(&std::fs::read_to_string(&sample.path).expect("sample")).expect("parses");
        assert_eq!(board.dimension(), sample.dimension, "{}", sample.path.display());
        let solution = npuzzle::solve(&board, &Options::default(), &mut NoProgress, &Stop::new())
            .unwrap_or_else(|e| panic!("{}: {e}", sample.path.display()));
        assert_eq!(solution.moves(), sample.moves, "{}", sample.path.display());
        if sample.moves >= 0 {
            assert_valid_solution(&board, &solution);
        }
    }
}
