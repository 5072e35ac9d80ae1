//! Helpers shared by the solver tests: an independent breadth-first search over every board of
//! a small dimension, the sample-puzzle manifest, a move-by-move check of a solution, boards
//! from tile lists, seeded random walks and random solvable boards, the small 6-6-3 pattern databases cached under the
//! target directory, and solving with a given method.

#![allow(dead_code)] // Each test crate uses its own subset of these helpers.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::{NoProgress, Partition, PatternDatabases, Solution, Solver, Stop, default_cache_dir};
use npuzzle::{Algorithm, Board, Direction, Heuristic, Options};

/// Exact distance to the goal of every solvable board of dimension `n` (2 or 3), by BFS from the
/// goal over raw tile vectors, sharing no code with the solver.
pub fn bfs_distances(n: usize) -> HashMap<Vec<u16>, u32> {
    bfs_distances_within(n, u32::MAX)
}

/// [`bfs_distances`] for the boards at most `max_depth` moves from the goal, for any `n`.
pub fn bfs_distances_within(n: usize, max_depth: u32) -> HashMap<Vec<u16>, u32> {
    let cells = n * n;
    let goal: Vec<u16> = (1..cells as u16).chain([0]).collect();
    let mut distance = HashMap::from([(goal.clone(), 0u32)]);
    let mut frontier = vec![goal];
    let mut depth = 0;
    while !frontier.is_empty() && depth < max_depth {
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
    let steps = solution.steps().expect("a small solution lists its steps");
    assert_eq!(steps.len() as i32, solution.moves());
    assert_eq!(&boards[0], initial, "the solution starts at the initial board");
    assert!(boards.last().expect("at least one board").is_goal(), "the solution ends at the goal");
    for (pair, step) in boards.windows(2).zip(steps) {
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

/// The 6-6-3 databases, built once into the target directory and loaded from there after.
pub fn small_databases() -> Arc<PatternDatabases> {
    static DATABASES: OnceLock<Arc<PatternDatabases>> = OnceLock::new();
    DATABASES
        .get_or_init(|| {
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pattern-databases");
            PatternDatabases::load_or_build_partition(&dir, &Partition::six_six_three()).expect("6-6-3 databases")
        })
        .clone()
}

/// The default 7-8 databases if a run of `npuzzle-bench` (or the server) has already built them
/// into the cache directory; tests never build them, as that takes minutes.
pub fn cached_default_databases() -> Option<Arc<PatternDatabases>> {
    let partition = Partition::seven_eight();
    let path = default_cache_dir().ok()?.join(file_name(&partition));
    PatternDatabases::load(&path, &partition).ok().map(Arc::new)
}

/// A board from its dimension and row-major tiles.
pub fn board(dimension: usize, tiles: &[u16]) -> Board {
    Board::new(dimension, tiles).expect("a valid board")
}

/// Solves `board` with the given method and databases, with no node limit.
pub fn solve_with(
    board: &Board,
    algorithm: Algorithm,
    heuristic: Heuristic,
    databases: Option<Arc<PatternDatabases>>,
) -> Solution {
    let options = Options { algorithm, heuristic, max_expanded_nodes: u64::MAX, ..Options::default() };
    Solver::new()
        .with_pattern_databases(databases.into_iter().collect())
        .solve(board, &options, &mut NoProgress, &Stop::new())
        .unwrap_or_else(|err| panic!("{algorithm} with {heuristic} on {board:?}: {err}"))
}

/// The library's seeded generator, so that failures reproduce.
pub use npuzzle::random::Rng;

/// The board `steps` random slides away from the goal (never undoing the previous slide).
pub fn random_walk(dimension: usize, steps: usize, rng: &mut Rng) -> Board {
    let mut board = Board::goal(dimension).expect("a goal board");
    let mut last: Option<Direction> = None;
    for _ in 0..steps {
        let moves: Vec<Direction> =
            Direction::ALL.into_iter().filter(|&d| last != Some(d.opposite()) && board.slide(d).is_some()).collect();
        let direction = moves[rng.below(moves.len())];
        board = board.slide(direction).expect("a legal slide").0;
        last = Some(direction);
    }
    board
}

/// A uniformly random solvable board of side `n`.
pub fn random_board(n: usize, rng: &mut Rng) -> Board {
    npuzzle::random::random_board(n, rng).expect("a board of a valid size")
}
