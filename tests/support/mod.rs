//! Helpers shared by the solver tests: an independent breadth-first search over every board of
//! a small dimension, the sample-puzzle manifest, and a move-by-move check of a solution.

#![allow(dead_code)] // Each test crate uses its own subset of these helpers.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use npuzzle::{Board, Solution};

/// Exact distance to the goal of every solvable board of dimension `n` (2 or 3), by BFS from the
/// goal over raw tile vectors, sharing no code with the solver.
pub fn bfs_distances(n: usize) -> HashMap<Vec<u16>, u32> {
    let cells = n * n;
    let goal: Vec<u16> = (1..cells as u16).chain([0]).collect();
    let mut distance = HashMap::from([(goal.clone(), 0u32)]);
    let mut frontier = vec![goal];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for tiles in &frontier {
            let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
            let (row, col) = (blank / n, blank % n);
            let mut targets = Vec::new();
            if row > 0 {
                targets.push(blank - n);
            }
            if row + 1 < n {
                targets.push(blank + n);
            }
            if col > 0 {
                targets.push(blank - 1);
            }
            if col + 1 < n {
                targets.push(blank + 1);
            }
            for target in targets {
                let mut moved = tiles.clone();
                moved.swap(blank, target);
                if !distance.contains_key(&moved) {
                    distance.insert(moved.clone(), depth);
                    next.push(moved);
                }
            }
        }
        frontier = next;
    }
    distance
}

/// Checks, independently of the solver, that `solution` starts at `initial`, makes legal single
/// slides, agrees with its own steps, and ends at the goal in `moves()` moves.
pub fn assert_valid_solution(initial: &Board, solution: &Solution) {
    let boards = solution.boards().expect("a solvable board has a solution");
    assert_eq!(boards.len() as i32, solution.moves() + 1, "boards = moves + 1");
    assert_eq!(solution.steps().len() as i32, solution.moves());
    assert_eq!(&boards[0], initial, "the solution starts at the initial board");
    assert!(boards.last().expect("at least one board").is_goal(), "the solution ends at the goal");
    for (pair, step) in boards.windows(2).zip(solution.steps()) {
        let (before, after) = (&pair[0], &pair[1]);
        assert!(before.neighbors().any(|b| &b == after), "{before:?} -> {after:?} is not one slide");
        let moved = before.tiles().iter().zip(after.tiles()).find(|(b, a)| b != a && **b != 0);
        assert_eq!(moved.map(|(b, _)| *b), Some(step.tile), "the step names the tile that moved");
    }
}

/// One row of `puzzles/manifest.tsv`.
pub struct SamplePuzzle {
    pub path: PathBuf,
    pub dimension: usize,
    pub moves: i32,
}

/// The project's sample puzzles with their optimal move counts.
pub fn sample_puzzles() -> Vec<SamplePuzzle> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("puzzles/manifest.tsv");
    manifest
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("file\t") && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            SamplePuzzle {
                path: dir.join(fields[0]),
                dimension: fields[1].parse().expect("a dimension"),
                moves: fields[2].parse().expect("a move count"),
            }
        })
        .collect()
}

/// The assignment's own test files beside the project, when they are there.
pub fn princeton_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/puzzles/princeton");
    dir.join("expected.tsv").is_file().then_some(dir)
}
