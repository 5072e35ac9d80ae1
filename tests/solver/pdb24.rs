//! Pattern databases for the 5×5 board, with small 3-tile patterns that build in milliseconds:
//! the bound is admissible against exact distances near the goal, patterns read through a
//! symmetry of the grid give what their own tables give, every method finds the same length,
//! and a 5×5 file round-trips and is rebuilt when corrupt or foreign.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use crate::support::{Rng, bfs_distances_within, random_walk, solve_with};
use npuzzle::board::tile_to_slide;
use npuzzle::solver::heuristic::Estimator;
use npuzzle::solver::pdb::TableHeuristic;
use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::{Partition, PatternDatabases, PdbError, SearchError, Solver};
use npuzzle::{Algorithm, Board, Direction, Heuristic, Options};

/// Eight 3-tile patterns covering the 24 tiles: row pieces and the corner around the blank.
fn small_patterns() -> Vec<Vec<u8>> {
    vec![
        vec![1, 2, 3],
        vec![4, 5, 10],
        vec![6, 7, 8],
        vec![9, 14, 15],
        vec![11, 12, 13],
        vec![16, 17, 18],
        vec![19, 20, 24],
        vec![21, 22, 23],
    ]
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pdb24-tests").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The small 5×5 databases, built once per test binary.
fn small_databases() -> Arc<PatternDatabases> {
    static DATABASES: OnceLock<Arc<PatternDatabases>> = OnceLock::new();
    DATABASES
        .get_or_init(|| {
            let partition = Partition::for_dimension(5, small_patterns()).expect("a 5x5 partition");
            PatternDatabases::load_or_build_partition(&temp_dir("shared"), &partition).expect("built")
        })
        .clone()
}

fn bound(databases: &PatternDatabases, tiles: &[u16]) -> u32 {
    let heuristic = databases.heuristic();
    heuristic.value(&heuristic.start(tiles))
}

#[test]
fn symmetric_patterns_share_tables() {
    let databases = small_databases();
    // {1, 2, 3} and {21, 22, 23} are one row mirrored top to bottom, and so on: fewer tables than
    // patterns, every one of them 25³ main entries of four bits and 112 pockets of 3! orderings,
    // a byte each.
    let stored = databases.tables().len();
    let len = (25 * 25 * 25usize).div_ceil(2) + 112 * 6;
    assert!(stored < small_patterns().len(), "{stored} tables");
    assert!(databases.tables().iter().all(|table| table.len() == len));
    assert_eq!(databases.partition().table_bytes(), stored * len);
}

#[test]
fn the_bound_is_admissible_and_updates_like_a_fresh_evaluation() {
    let databases = small_databases();
    let heuristic = databases.heuristic();
    let exact = bfs_distances_within(5, 11);
    assert!(exact.len() > 10_000, "{} positions", exact.len());
    let mut tight = 0;
    for (tiles, &distance) in &exact {
        let memo = heuristic.start(tiles);
        let value = heuristic.value(&memo);
        assert!(value <= distance, "h = {value} > {distance} for {tiles:?}");
        tight += usize::from(value == distance);
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        if let Some(from) = tile_to_slide(5, blank, Direction::Left) {
            let slid = heuristic.slide(&memo, tiles, tiles[from], from, blank);
            let mut moved = tiles.clone();
            moved.swap(blank, from);
            assert_eq!(heuristic.value(&slid), bound(&databases, &moved), "after a slide from {tiles:?}");
        }
    }
    assert!(tight * 2 > exact.len(), "the bound is exact on most positions this near: {tight}");
}

#[test]
fn a_long_walk_keeps_the_bound_equal_to_a_fresh_evaluation() {
    // A 5×5 slide moves each view's index by the one tile that moved, through the view's
    // symmetry: thousands of slides later every bound must still be the one read afresh.
    let databases = small_databases();
    let heuristic = databases.heuristic();
    // The search's own reading, with its early stop, besides the trait's plain one.
    let TableHeuristic::Direct(direct) = databases.heuristic() else { panic!("a 5×5 heuristic") };
    let mut rng = Rng::new(2024);
    let mut tiles: Vec<u16> = (1..25).chain([0]).collect();
    let mut memo = heuristic.start(&tiles);
    let mut blank = 24;
    for step in 0..5_000 {
        let direction = Direction::ALL[rng.below(4)];
        let Some(from) = tile_to_slide(5, blank, direction) else { continue };
        let tile = tiles[from];
        let slid = heuristic.slide(&memo, &tiles, tile, from, blank);
        let mut within = memo;
        heuristic.slide_within(&mut within, &tiles, tile, from, blank, u32::MAX).expect("no limit");
        let mut direct_within = memo;
        direct.slide_within(&mut direct_within, &tiles, tile, from, blank, u32::MAX).expect("no limit");
        tiles.swap(blank, from);
        let fresh = bound(&databases, &tiles);
        assert_eq!(heuristic.value(&slid), fresh, "slide {step}: {tiles:?}");
        assert_eq!(heuristic.value(&within), fresh, "slide_within {step}: {tiles:?}");
        assert_eq!(direct.value(&direct_within), fresh, "the search's slide_within {step}: {tiles:?}");
        (memo, blank) = (within, from);
    }
    assert!(bound(&databases, &tiles) > 40, "the walk went far from the goal");
}

/// A catalogue of two small partitions: [`small_patterns`], and column strips with the corner
/// around the blank, so that patterns of the two share tiles and many triples of them do not.
fn small_catalogue() -> PatternDatabases {
    // The top three rows' five columns, and three pieces of the bottom two rows.
    let mut columns: Vec<Vec<u8>> = (1..=5).map(|column| vec![column, column + 5, column + 10]).collect();
    columns.extend([vec![16, 21, 22], vec![17, 18, 23], vec![19, 20, 24]]);
    let partition = Partition::catalogue(5, vec![small_patterns(), columns]).expect("a 5x5 catalogue");
    PatternDatabases::build(&partition).expect("built")
}

#[test]
fn disjoint_patterns_of_two_partitions_cut_children_the_sums_keep_and_never_a_near_one() {
    // Three patterns of different partitions that share no tile add up too: the search's
    // slide cuts on them once every side is read. Near the goal every distance is known, and no
    // child may be cut under its own distance, nor kept over a side's sum.
    let databases = small_catalogue();
    let TableHeuristic::Direct(direct) = databases.heuristic() else { panic!("a 5×5 heuristic") };
    let exact = bfs_distances_within(5, 11);
    let mut children = 0;
    for tiles in exact.keys() {
        let memo = direct.start(tiles);
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        for direction in Direction::ALL {
            let Some(from) = tile_to_slide(5, blank, direction) else { continue };
            let mut moved = tiles.clone();
            moved.swap(blank, from);
            let Some(&distance) = exact.get(&moved) else { continue };
            children += 1;
            let sums = direct.value(&direct.slide(&memo, tiles, tiles[from], from, blank));
            for limit in distance.saturating_sub(4)..=distance {
                let mut child = memo;
                match direct.slide_within(&mut child, tiles, tiles[from], from, blank, limit) {
                    Err(bound) => {
                        assert!(limit < distance && bound <= distance, "{moved:?}: cut at {bound}, {distance} away")
                    }
                    Ok(()) => assert!(sums <= limit, "{moved:?}: a sum over {limit} kept"),
                }
            }
        }
    }
    assert!(children > 10_000, "{children} children");
    // Farther out the sums are looser, and the triples cut children at the sums' own bound.
    let mut rng = Rng::new(17);
    let (mut beyond_the_sums, mut tried) = (0, 0);
    for _ in 0..200 {
        let board = random_walk(5, 60, &mut rng);
        let tiles = board.tiles();
        let memo = direct.start(tiles);
        let blank = board.blank_index();
        for direction in Direction::ALL {
            let Some(from) = tile_to_slide(5, blank, direction) else { continue };
            let sums = direct.value(&direct.slide(&memo, tiles, tiles[from], from, blank));
            let mut child = memo;
            tried += 1;
            beyond_the_sums +=
                usize::from(direct.slide_within(&mut child, tiles, tiles[from], from, blank, sums).is_err());
        }
    }
    assert!(beyond_the_sums > 0, "no child cut beyond the sums among {tried}");
}

#[test]
fn a_pattern_read_through_a_symmetry_gives_what_its_own_table_gives() {
    // The same patterns in another order: {21, 22, 23} first gets its own table, and {1, 2, 3}
    // is read from it mirrored top to bottom, the other way round from `small_patterns`.
    let mut patterns = small_patterns();
    patterns.reverse();
    let partition = Partition::for_dimension(5, patterns).expect("a 5x5 partition");
    let reversed = PatternDatabases::build(&partition).expect("built");
    let databases = small_databases();
    let mut rng = Rng::new(24);
    for steps in [10, 40, 200, 1000] {
        let board = random_walk(5, steps, &mut rng);
        assert_eq!(bound(&reversed, board.tiles()), bound(&databases, board.tiles()), "{board:?}");
    }
}

#[test]
fn every_method_finds_the_same_length_a_few_dozen_moves_out() {
    let databases = small_databases();
    let mut rng = Rng::new(5);
    for steps in [20, 30, 36] {
        let board = random_walk(5, steps, &mut rng);
        let with_tables = solve_with(&board, Algorithm::IdaStar, Heuristic::PatternDatabase, Some(databases.clone()));
        let auto = solve_with(&board, Algorithm::Auto, Heuristic::Auto, Some(databases.clone()));
        assert_eq!(auto.stats().heuristic, Heuristic::PatternDatabase, "Auto uses loaded 5x5 tables");
        let expected = with_tables.moves();
        assert_eq!(auto.moves(), expected);
        for heuristic in [Heuristic::LinearConflict, Heuristic::Manhattan] {
            assert_eq!(solve_with(&board, Algorithm::IdaStar, heuristic, None).moves(), expected, "{heuristic}");
        }
        assert_eq!(solve_with(&board, Algorithm::AStar, Heuristic::Manhattan, None).moves(), expected, "A*");
        assert!(with_tables.stats().nodes_expanded <= auto.stats().nodes_expanded.max(1) * 2);
    }
}

#[test]
fn five_by_five_tables_are_asked_for_by_size() {
    let four = crate::support::small_databases();
    let five = small_databases();
    let asked = Options { heuristic: Heuristic::PatternDatabase, ..Options::default() };
    let only_four = Solver::new().with_pattern_databases(vec![four.clone()]);
    assert_eq!(only_four.plan(5, &asked), Err(SearchError::PatternDatabasesNotLoaded));
    let both = Solver::new().with_pattern_databases(vec![four, five]);
    assert!(both.plan(4, &asked).is_ok() && both.plan(5, &asked).is_ok());
    assert_eq!(both.pattern_databases_for(5).map(PatternDatabases::dimension), Some(5));
    assert!(both.pattern_databases_for(6).is_none());
}

#[test]
fn a_five_by_five_file_round_trips_and_is_rebuilt_when_corrupt_or_foreign() {
    let dir = temp_dir("file");
    let partition = Partition::for_dimension(5, small_patterns()).expect("a 5x5 partition");
    let built = PatternDatabases::load_or_build_partition(&dir, &partition).expect("built");
    let path = dir.join(file_name(&partition));
    assert!(file_name(&partition).starts_with("pdb-5x5-3-3-3-3-3-3-3-3-"));
    // Version 3: four bits per region of the blank.
    assert!(file_name(&partition).ends_with("-v3.bin"), "{}", file_name(&partition));
    assert_eq!(PatternDatabases::load(&path, &partition).expect("loads"), *built);

    let mut bytes = std::fs::read(&path).expect("the file");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&path, &bytes).expect("corrupted");
    assert!(matches!(PatternDatabases::load(&path, &partition), Err(PdbError::ChecksumMismatch { .. })));
    assert_eq!(*PatternDatabases::load_or_build_partition(&dir, &partition).expect("rebuilt"), *built);
    assert!(PatternDatabases::load(&path, &partition).is_ok(), "the rebuilt file is saved");

    // A 4×4 file under the 5×5 name: another board.
    let four = Partition::new(vec![vec![1, 2, 3, 4, 5], (6..=10).collect(), (11..=15).collect()]).expect("4x4");
    PatternDatabases::build(&four).expect("built").save(&path).expect("saved");
    assert!(matches!(PatternDatabases::load(&path, &partition), Err(PdbError::PartitionMismatch { .. })));
}

#[test]
fn the_built_in_five_by_five_partition_is_korf_and_felners() {
    let korf: Partition = "6-6-6-6".parse().expect("a built-in partition");
    assert_eq!(korf.dimension(), 5);
    assert_eq!(korf.stored().count(), 2, "two tables serve the four patterns");
    assert_eq!(korf.table_bytes(), 2 * (25usize.pow(6).div_ceil(2) + 53_496_000));
    assert!(Partition::for_dimension(5, vec![(1..=12).collect(), (13..=24).collect()]).is_err(), "too big");
    let goal = Board::goal(5).expect("the goal");
    let plan = Solver::new().plan(goal.dimension(), &Options::default()).expect("a plan");
    assert_eq!(plan.heuristic, Heuristic::LinearConflict, "linear conflict until the tables are loaded");
}

#[test]
fn fast_finishes_on_the_five_by_five_tables_within_their_weight() {
    let five = small_databases();
    let fast = Options { optimality: npuzzle::solver::Optimality::Fast, ..Options::default() };
    let solver = Solver::new().with_pattern_databases(vec![five]);
    let mut rng = Rng::new(55);
    for steps in [16, 24, 30] {
        let board = random_walk(5, steps, &mut rng);
        let optimal = solve_with(&board, Algorithm::IdaStar, Heuristic::LinearConflict, None).moves();
        let stop = npuzzle::solver::Stop::new();
        let solution = solver.solve(&board, &fast, &mut npuzzle::solver::NoProgress, &stop).expect("a FAST answer");
        // The finish is weighted IDA* on the tables, its first weight 1.5: never longer than that.
        assert!(solution.moves() as f64 <= 1.5 * optimal as f64, "{} moves, optimal {optimal}", solution.moves());
        assert!(solution.lower_bound() as i32 <= optimal, "bound {} over {optimal}", solution.lower_bound());
    }
    // Past 5×5 the rows and columns are placed down to a 5×5 region, then finished the same way.
    let board = crate::support::random_board(7, &mut rng);
    let solution = solver
        .solve(&board, &fast, &mut npuzzle::solver::NoProgress, &npuzzle::solver::Stop::new())
        .expect("a FAST answer");
    assert!(solution.moves() > 0 && solution.lower_bound() as i32 <= solution.moves());
}
