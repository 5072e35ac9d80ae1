//! Helpers shared by the integration tests: boards from tile lists, a seeded random walk, the
//! small 6-6-3 pattern databases cached under the target directory, and solving with a method.

#![allow(dead_code)] // Each test binary uses its own subset.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use npuzzle::solver::pdb_cache::file_name;
use npuzzle::solver::{NoProgress, Partition, PatternDatabases, Solution, Stop, default_cache_dir};
use npuzzle::{Algorithm, Board, Direction, Heuristic, Options, solve};

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
    let options = Options {
        algorithm,
        heuristic,
        max_expanded_nodes: u64::MAX,
        pattern_databases: databases,
        ..Options::default()
    };
    solve(board, &options, &mut NoProgress, &Stop::new())
        .unwrap_or_else(|err| panic!("{algorithm} with {heuristic} on {board:?}: {err}"))
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % bound
    }
}

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
