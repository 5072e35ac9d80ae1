//! Property test: random 3×3 boards, solvable or not, get exactly the breadth-first distance
//! with every built-in method, and a path that checks out move by move.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::support::{assert_valid_solution, bfs_distances};
use npuzzle::solver::{NoProgress, Options, Stop};
use npuzzle::{Algorithm, Board, Heuristic};
use proptest::prelude::*;

static DISTANCES: LazyLock<HashMap<Vec<u16>, u32>> = LazyLock::new(|| bfs_distances(3));

fn methods() -> [Options; 3] {
    [
        Options::default(),
        Options { algorithm: Algorithm::AStar, heuristic: Heuristic::Hamming, ..Options::default() },
        Options { algorithm: Algorithm::AStar, heuristic: Heuristic::Manhattan, ..Options::default() },
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_eight_puzzles_get_the_breadth_first_distance(tiles in Just((0u16..9).collect::<Vec<_>>()).prop_shuffle()) {
        let board = Board::new(3, &tiles).expect("a permutation is a board");
        let exact = DISTANCES.get(&tiles).map_or(-1, |&d| d as i32);
        for options in methods() {
            let solution = npuzzle::solve(&board, &options, &mut NoProgress, &Stop::new()).expect("3x3 fits the budget");
            prop_assert_eq!(solution.moves(), exact, "{:?} with {:?}", tiles, options);
            prop_assert_eq!(solution.is_solvable(), board.is_solvable());
            if exact >= 0 {
                assert_valid_solution(&board, &solution);
            }
        }
    }

    #[test]
    fn the_twin_flips_solvability(tiles in Just((0u16..16).collect::<Vec<_>>()).prop_shuffle()) {
        let board = Board::new(4, &tiles).expect("a permutation is a board");
        prop_assert_ne!(board.is_solvable(), board.twin().is_solvable());
    }
}

#[test]
fn half_of_all_eight_puzzles_are_solvable_and_the_farthest_is_31() {
    assert_eq!(DISTANCES.len(), 181_440);
    assert_eq!(DISTANCES.values().max(), Some(&31));
}
