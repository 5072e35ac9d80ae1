//! Every method agrees: `Auto` picks what the docs say for each size; every algorithm and
//! heuristic gives the A* + Manhattan length on random boards; and each heuristic is admissible
//! (and the per-tile ones and linear conflict consistent), checked against exact distances from
//! breadth-first search; IDA* with the deeper 5×5 duplicate machine gives that length too; with its incremental update equal to a fresh evaluation after every
//! slide.

use crate::support;

use std::collections::{HashMap, VecDeque};

use crate::support::{Rng, board, random_walk, small_databases, solve_with};
use npuzzle::board::tile_to_slide;
use npuzzle::solver::heuristic::Estimator;
use npuzzle::solver::heuristic::linear_conflict::LinearConflict;
use npuzzle::solver::heuristic::manhattan::{Hamming, Manhattan};
use npuzzle::solver::{SearchError, Solver};
use npuzzle::{Algorithm, Board, Direction, Heuristic, Options};

#[test]
fn auto_picks_by_board_size_and_loaded_databases() {
    let chosen = |dimension, solver: &Solver, options: &Options| {
        let plan = solver.plan(dimension, options).expect("a plan");
        (plan.algorithm, plan.heuristic)
    };
    let (without, with) = (Solver::new(), Solver::new().with_pattern_databases(vec![small_databases()]));
    let auto = Options::default();
    // 3×3 answers from its distance table, no search; 2×2 from A*.
    assert_eq!(chosen(3, &without, &auto), (Algorithm::Auto, Heuristic::Auto));
    assert_eq!(chosen(2, &without, &auto), (Algorithm::AStar, Heuristic::Manhattan));
    assert_eq!(chosen(4, &without, &auto), (Algorithm::IdaStar, Heuristic::LinearConflict));
    assert_eq!(chosen(4, &with, &auto), (Algorithm::IdaStar, Heuristic::PatternDatabase));
    assert_eq!(chosen(5, &with, &auto), (Algorithm::IdaStar, Heuristic::LinearConflict));
    let astar = Options { algorithm: Algorithm::AStar, ..Options::default() };
    assert_eq!(chosen(4, &with, &astar), (Algorithm::AStar, Heuristic::Manhattan));
    let conflict = Options { heuristic: Heuristic::LinearConflict, ..Options::default() };
    assert_eq!(chosen(3, &without, &conflict), (Algorithm::IdaStar, Heuristic::LinearConflict));
}

#[test]
fn pattern_databases_are_refused_when_absent_or_for_other_sizes() {
    let asked = Options { heuristic: Heuristic::PatternDatabase, ..Options::default() };
    assert_eq!(Solver::new().plan(4, &asked), Err(SearchError::PatternDatabasesNotLoaded));
    let loaded = Solver::new().with_pattern_databases(vec![small_databases()]);
    assert!(loaded.plan(4, &asked).is_ok());
    assert_eq!(loaded.plan(5, &asked), Err(SearchError::PatternDatabasesNotLoaded), "5x5 tables not loaded");
    assert!(matches!(loaded.plan(6, &asked), Err(SearchError::Unsupported { .. })));
    let astar = Options { algorithm: Algorithm::AStar, heuristic: Heuristic::LinearConflict, ..Options::default() };
    assert!(matches!(Solver::new().plan(3, &astar), Err(SearchError::Unsupported { .. })));
}

/// A uniformly random solvable 3×3 board.
fn random_eight_puzzle(rng: &mut Rng) -> Board {
    let mut tiles: Vec<u16> = (0..9).collect();
    for i in (1..tiles.len()).rev() {
        tiles.swap(i, rng.below(i + 1));
    }
    let candidate = board(3, &tiles);
    if candidate.is_solvable() { candidate } else { candidate.twin() }
}

#[test]
fn every_method_gives_the_astar_manhattan_length_on_three_by_three() {
    let mut rng = Rng::new(3);
    for _ in 0..25 {
        let start = random_eight_puzzle(&mut rng);
        let expected = solve_with(&start, Algorithm::AStar, Heuristic::Manhattan, None).moves();
        for (algorithm, heuristic) in [
            (Algorithm::AStar, Heuristic::Hamming),
            (Algorithm::IdaStar, Heuristic::Manhattan),
            (Algorithm::IdaStar, Heuristic::LinearConflict),
            (Algorithm::Auto, Heuristic::Auto),
        ] {
            assert_eq!(solve_with(&start, algorithm, heuristic, None).moves(), expected, "{algorithm}/{heuristic}");
        }
    }
    // IDA* with Hamming is only for short distances.
    for _ in 0..10 {
        let start = random_walk(3, 14, &mut rng);
        let expected = solve_with(&start, Algorithm::AStar, Heuristic::Manhattan, None).moves();
        assert_eq!(solve_with(&start, Algorithm::IdaStar, Heuristic::Hamming, None).moves(), expected);
    }
}

#[test]
fn every_method_gives_the_astar_manhattan_length_on_four_by_four() {
    let databases = small_databases();
    let mut rng = Rng::new(4);
    for _ in 0..10 {
        let start = random_walk(4, 40, &mut rng);
        let expected = solve_with(&start, Algorithm::AStar, Heuristic::Manhattan, None).moves();
        for (algorithm, heuristic) in [
            (Algorithm::IdaStar, Heuristic::Manhattan),
            (Algorithm::IdaStar, Heuristic::LinearConflict),
            (Algorithm::IdaStar, Heuristic::PatternDatabase),
            (Algorithm::Auto, Heuristic::Auto),
        ] {
            let moves = solve_with(&start, algorithm, heuristic, Some(databases.clone())).moves();
            assert_eq!(moves, expected, "{algorithm}/{heuristic} on {start:?}");
        }
        assert_eq!(solve_with(&start, Algorithm::Auto, Heuristic::Auto, None).moves(), expected);
    }
}

#[test]
fn every_method_gives_the_astar_manhattan_length_on_five_by_five() {
    let mut rng = Rng::new(5);
    for _ in 0..4 {
        let start = random_walk(5, 36, &mut rng);
        let expected = solve_with(&start, Algorithm::AStar, Heuristic::Manhattan, None).moves();
        assert_eq!(solve_with(&start, Algorithm::IdaStar, Heuristic::LinearConflict, None).moves(), expected);
        assert_eq!(solve_with(&start, Algorithm::Auto, Heuristic::Auto, None).moves(), expected);
    }
}

#[test]
fn the_deeper_five_by_five_duplicate_machine_keeps_the_astar_length() {
    // As a server builds it at start: every 5×5 search after this one prunes with it.
    assert_eq!(std::thread::spawn(npuzzle::solver::warm_up).join().expect("built"), 471_775);
    let mut rng = Rng::new(55);
    for _ in 0..4 {
        let start = random_walk(5, 40, &mut rng);
        let expected = solve_with(&start, Algorithm::AStar, Heuristic::Manhattan, None).moves();
        assert_eq!(solve_with(&start, Algorithm::IdaStar, Heuristic::LinearConflict, None).moves(), expected);
    }
}

#[test]
fn an_unsolvable_four_by_four_is_an_answer_for_every_method() {
    let start = Board::goal(4).expect("a goal board").twin();
    assert_eq!(solve_with(&start, Algorithm::Auto, Heuristic::Auto, Some(small_databases())).moves(), -1);
    assert_eq!(solve_with(&start, Algorithm::IdaStar, Heuristic::LinearConflict, None).moves(), -1);
}

/// Exact distances to the goal of every board within `radius` moves of it (the shared
/// `support::bfs_distances` enumerates whole small spaces; a 4×4 needs a ball around the goal).
fn distances_from_goal(dimension: usize, radius: u32) -> HashMap<Board, u32> {
    let goal = Board::goal(dimension).expect("a goal board");
    let mut distance = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(current) = queue.pop_front() {
        let d = distance[&current];
        if d == radius {
            continue;
        }
        for next in current.neighbors() {
            distance.entry(next.clone()).or_insert_with(|| {
                queue.push_back(next);
                d + 1
            });
        }
    }
    distance
}

/// Checks `estimator` on every board of `distances`: never above the exact distance, zero at
/// the goal, updated incrementally to exactly what a fresh evaluation of the child gives, and,
/// if `consistent`, changing by at most one per slide.
fn check_estimator<E: Estimator>(name: &str, estimator: &E, distances: &HashMap<Board, u32>, consistent: bool) {
    let n = distances.keys().next().expect("a board").dimension();
    for (position, &exact) in distances {
        let memo = estimator.start(position.tiles());
        let h = estimator.value(&memo);
        assert!(h <= exact, "{name}: {h} > {exact} on {position:?}");
        assert_eq!(h == 0, exact == 0, "{name}: zero exactly at the goal");
        let blank = position.blank_index();
        for direction in Direction::ALL {
            let Some(from) = tile_to_slide(n, blank, direction) else { continue };
            let tile = position.tiles()[from];
            let (child, _) = position.slide(direction).expect("a legal slide");
            let slid = estimator.value(&estimator.slide(&memo, position.tiles(), tile, from, blank));
            let fresh = estimator.value(&estimator.start(child.tiles()));
            assert_eq!(slid, fresh, "{name}: incremental update after sliding {tile} on {position:?}");
            assert!(!consistent || h.abs_diff(fresh) <= 1, "{name}: inconsistent on {position:?} -> {child:?}");
        }
    }
}

#[test]
fn three_by_three_heuristics_are_admissible_and_consistent_on_every_board() {
    let all: HashMap<Board, u32> =
        support::bfs_distances(3).into_iter().map(|(tiles, distance)| (board(3, &tiles), distance)).collect();
    assert_eq!(all.len(), 181_440);
    check_estimator("manhattan", &Manhattan::new(3), &all, true);
    check_estimator("hamming", &Hamming, &all, true);
    check_estimator("linear conflict", &LinearConflict::new(3), &all, true);
}

#[test]
fn four_by_four_heuristics_are_admissible_near_the_goal() {
    let near = distances_from_goal(4, 14);
    let databases = small_databases();
    // Taking the least distance over the blank's cells makes a table admissible but not always
    // consistent (see pattern_db); IDA* needs admissibility only.
    check_estimator("pattern databases", &databases.heuristic(), &near, false);
    check_estimator("linear conflict", &LinearConflict::new(4), &near, true);
}

#[test]
fn pattern_databases_stay_below_the_optimal_length_far_from_the_goal() {
    let databases = small_databases();
    let heuristic = databases.heuristic();
    let mut rng = Rng::new(44);
    for _ in 0..10 {
        let start = random_walk(4, 50, &mut rng);
        let optimal = solve_with(&start, Algorithm::IdaStar, Heuristic::LinearConflict, None).moves() as u32;
        let h = heuristic.value(&heuristic.start(start.tiles()));
        assert!(h <= optimal, "{h} > {optimal} on {start:?}");
        // Every table entry has the parity of its tiles' Manhattan distance, as the optimum does.
        assert_eq!(h % 2, optimal % 2, "parity on {start:?}");
    }
}
