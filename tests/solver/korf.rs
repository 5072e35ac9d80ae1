//! The 15-puzzle through the default method: Korf's instances give their published optimal
//! lengths with the 6-6-3 databases (built once into the target directory, in seconds), and the
//! two hardest Princeton 4×4 files solve.

use crate::support;

use crate::support::{board, small_databases, solve_with};
use npuzzle::{Algorithm, Heuristic};

/// The ten Korf (1985) instances that take the fewest nodes, in our goal convention, with
/// their published optimal lengths: (instance number, optimal moves, tiles).
const EASIEST_KORF: [(u32, i32, [u16; 16]); 10] = [
    (97, 44, [13, 5, 0, 4, 10, 3, 12, 6, 14, 15, 1, 8, 9, 11, 2, 7]),
    (47, 47, [4, 5, 7, 12, 9, 14, 0, 3, 11, 13, 8, 1, 2, 15, 6, 10]),
    (93, 46, [1, 5, 6, 11, 9, 0, 12, 13, 14, 15, 8, 4, 10, 2, 7, 3]),
    (42, 42, [6, 1, 15, 8, 5, 10, 13, 0, 3, 4, 2, 7, 14, 9, 11, 12]),
    (9, 46, [0, 1, 15, 6, 9, 10, 4, 3, 14, 8, 12, 11, 5, 7, 2, 13]),
    (19, 46, [6, 14, 4, 11, 7, 3, 12, 15, 1, 10, 0, 2, 13, 8, 5, 9]),
    (55, 41, [5, 10, 14, 4, 6, 12, 11, 1, 9, 0, 15, 7, 13, 2, 8, 3]),
    (79, 42, [1, 6, 10, 8, 14, 12, 4, 2, 13, 11, 3, 5, 9, 7, 15, 0]),
    (94, 53, [14, 12, 15, 10, 1, 13, 4, 6, 3, 7, 2, 0, 8, 5, 9, 11]),
    (73, 49, [3, 5, 7, 4, 0, 14, 12, 13, 15, 9, 8, 1, 11, 6, 2, 10]),
];

#[test]
fn the_ten_easiest_korf_instances_give_their_published_lengths() {
    let databases = small_databases();
    for (id, optimal, tiles) in EASIEST_KORF {
        let solution = solve_with(&board(4, &tiles), Algorithm::Auto, Heuristic::Auto, Some(databases.clone()));
        assert_eq!(solution.moves(), optimal, "Korf instance {id}");
        assert_eq!(solution.stats().algorithm, Algorithm::IdaStar);
        assert_eq!(solution.stats().heuristic, Heuristic::PatternDatabase);
    }
}

/// The two hardest Princeton 4×4 files: (name, optimal moves, tiles).
const PRINCETON_HARDEST: [(&str, i32, [u16; 16]); 2] = [
    ("puzzle4x4-78.txt", 78, [0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
    ("puzzle4x4-80.txt", 80, [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 5, 6, 4, 8, 2, 1]),
];

/// With the default 7-8 databases both take about a second; with 6-6-3 the 80-move board
/// takes about 650 M nodes (a minute), so it runs only when the 7-8 file is in the cache.
#[test]
fn the_princeton_78_and_80_move_boards_solve_through_the_default_method() {
    let (databases, boards) = match support::cached_default_databases() {
        Some(databases) => (databases, &PRINCETON_HARDEST[..]),
        None => {
            eprintln!("note: no 7-8 databases in the cache (run npuzzle-bench once); the 80-move board is skipped");
            (small_databases(), &PRINCETON_HARDEST[..1])
        }
    };
    for &(name, optimal, tiles) in boards {
        let solution = solve_with(&board(4, &tiles), Algorithm::Auto, Heuristic::Auto, Some(databases.clone()));
        assert_eq!(solution.moves(), optimal, "{name}");
        assert_eq!(solution.boards().map(<[_]>::len), Some(optimal as usize + 1));
    }
}

/// All 100 instances of `benchmarks/korf100.tsv` (a few seconds with 6-6-3).
#[test]
fn every_korf_instance_in_the_benchmarks_is_solved_optimally() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benchmarks/korf100.tsv");
    let text = std::fs::read_to_string(path).expect("benchmarks/korf100.tsv in the repository");
    let databases = small_databases();
    let rows = text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty());
    let mut solved = 0;
    for line in rows {
        let fields: Vec<&str> = line.split('\t').collect();
        let optimal: i32 = fields[1].parse().expect("a move count");
        let tiles: Vec<u16> = fields[2].split_whitespace().map(|t| t.parse().expect("a tile")).collect();
        let solution = solve_with(&board(4, &tiles), Algorithm::Auto, Heuristic::Auto, Some(databases.clone()));
        assert_eq!(solution.moves(), optimal, "Korf instance {}", fields[0]);
        solved += 1;
    }
    assert_eq!(solved, 100);
}
