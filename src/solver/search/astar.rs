//! The spec's A*: best-first search on f = moves + Hamming or moves + Manhattan, never
//! re-enqueueing the previous board, plus a closed set so that no board is expanded twice.
//!
//! Both heuristics are consistent, so the first expansion of a board is along a shortest path
//! and every later copy can be dropped. Ties on f go to the deeper node, which reaches the goal
//! with far fewer expansions than FIFO order.
//!
//! # Memory
//! Every enqueued board is stored once, in the `Arena`; the closed set is a table of node
//! indices hashed by the state they point to, and the heap holds indices too. A node costs its
//! state (8 bytes for N ≤ 4, 16 for N = 5, 2·N² beyond), a 12-byte link (parent, g, blank,
//! move), a 16-byte heap entry and 5 bytes a bucket of the closed set, whose buckets are 1.1 to
//! 2.3 per board. The search counts the bytes its four containers really hold (capacity ×
//! entry size) and grows them itself, only when the peak of the growth (a table's rehash holds
//! the old and the new table) stays within [`Options::max_memory_bytes`]: doubling them, then,
//! near the budget, by an eighth. Past it the search fails with
//! [`SearchError::MemoryBudgetExhausted`], which reports the bytes held and the nodes.
//!
//! Measured when a 16 MiB budget ran out (`bytes_per_node_stay_within_the_documented_range`
//! below prints them): 36 bytes per node for 4×4 boards (`u64` states), 48.5 for 5×5 (`u128`),
//! 835 for 20×20 (flat, 2·N² + 35 in general). So the default 2 GiB reads as about 60 M 4×4
//! nodes, 44 M 5×5 nodes or 2.5 M 20×20 nodes (a real search's stop: `docs/performance.md`,
//! "A*'s memory (from `solver::search::astar`)").
//!
//! [`Options::max_memory_bytes`]: crate::solver::Options::max_memory_bytes

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use super::arena::{Arena, Flat, PackedWord};
use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::error::SearchError;
use crate::solver::meter::Meter;
use crate::solver::options::Heuristic;

/// Runs A* from `board` (which must be solvable) and returns the tile directions of a shortest
/// path to the goal.
pub fn search(board: &Board, heuristic: Heuristic, meter: &mut Meter<'_>) -> Result<Vec<Direction>, SearchError> {
    let cells = board.tiles().len();
    if cells <= <u64 as PackedWord>::MAX_CELLS {
        run::<Vec<u64>>(board, heuristic, meter)
    } else if cells <= <u128 as PackedWord>::MAX_CELLS {
        run::<Vec<u128>>(board, heuristic, meter)
    } else {
        run::<Flat>(board, heuristic, meter)
    }
}

/// How a node was reached; its state is at the same index in the arena.
struct Link {
    parent: u32,
    g: u32,
    blank: u16,
    /// The tile direction of the move from the parent; `None` for the root.
    last_move: Option<Direction>,
}

/// A heap entry for node `index`: least f first, then greatest g, packed in one word so that
/// ordering is a single compare.
type OpenEntry = Reverse<(u64, u32)>;

fn open_entry(f: u32, g: u32, index: u32) -> OpenEntry {
    Reverse(((u64::from(f) << 32) | u64::from(u32::MAX - g), index))
}

fn unpack_key(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, u32::MAX - key as u32)
}

/// The most children one expansion pushes: the room every container keeps.
const ROOM: usize = 4;

/// Everything the search holds: the states, their links, the closed set and the frontier.
struct Nodes<A> {
    arena: A,
    links: Vec<Link>,
    /// The best node of every board seen, hashed by its state.
    closed: HashTable<u32>,
    open: BinaryHeap<OpenEntry>,
}

impl<A: Arena> Nodes<A> {
    fn new(board: &Board, h0: u32) -> Nodes<A> {
        let arena = A::with_root(board.tiles());
        let mut closed = HashTable::new();
        closed.insert_unique(arena.hash(0), 0, |&index| arena.hash(index as usize));
        let links = vec![Link { parent: u32::MAX, g: 0, blank: board.blank_index() as u16, last_move: None }];
        Nodes { arena, links, closed, open: BinaryHeap::from([open_entry(h0, 0, 0)]) }
    }

    /// The bytes the four containers hold: their capacities times their entry sizes.
    fn held_bytes(&self) -> u64 {
        let bytes = self.arena.capacity() * self.arena.state_bytes()
            + self.links.capacity() * size_of::<Link>()
            + self.open.capacity() * size_of::<OpenEntry>()
            + self.closed.allocation_size();
        bytes as u64
    }

    /// Makes room for one more expansion in every container, growing the full ones only if the
    /// peak of that growth stays within the memory budget: doubling them, or, near the budget,
    /// growing them by an eighth, so the search can use nearly all of it.
    fn make_room(&mut self, meter: &Meter<'_>) -> Result<(), SearchError> {
        let table_full = self.closed.capacity() - self.closed.len() < ROOM;
        let full = |len: usize, capacity: usize| capacity - len < ROOM;
        if !table_full
            && !full(self.arena.len(), self.arena.capacity())
            && !full(self.links.len(), self.links.capacity())
            && !full(self.open.len(), self.open.capacity())
        {
            return Ok(());
        }
        // A rehash holds the old table and the new one, twice its size, at once.
        let rehash = if table_full { 2 * self.closed.allocation_size().max(ROOM * 16) } else { 0 };
        let held = self.held_bytes() as usize;
        for divisor in [1, 8] {
            let arena = next_capacity(self.arena.len(), self.arena.capacity(), divisor);
            let links = next_capacity(self.links.len(), self.links.capacity(), divisor);
            let open = next_capacity(self.open.len(), self.open.capacity(), divisor);
            let peak = held
                + (arena - self.arena.capacity()) * self.arena.state_bytes()
                + (links - self.links.capacity()) * size_of::<Link>()
                + (open - self.open.capacity()) * size_of::<OpenEntry>()
                + rehash;
            if peak as u64 > meter.max_memory_bytes() || links > u32::MAX as usize {
                continue;
            }
            self.arena.reserve_exact(arena - self.arena.len());
            self.links.reserve_exact(links - self.links.len());
            self.open.reserve_exact(open - self.open.len());
            if table_full {
                let arena = &self.arena;
                self.closed.reserve(ROOM, |&index| arena.hash(index as usize));
            }
            return Ok(());
        }
        Err(meter.memory_exhausted(held as u64, self.links.len() as u64))
    }

    /// Whether a better node for the same board was enqueued after node `index`.
    fn is_stale(&self, index: u32) -> bool {
        let arena = &self.arena;
        let best = self.closed.find(arena.hash(index as usize), |&other| arena.same(other as usize, index as usize));
        best.is_some_and(|&best| best != index)
    }

    /// Enqueues the child of `parent` whose tile at `from` slides into the blank at `blank`,
    /// unless its board was already reached in `g` moves or fewer. Returns whether it was.
    fn push_child(&mut self, parent: u32, from: usize, blank: usize, g: u32, f: u32, direction: Direction) -> bool {
        self.arena.push_child(parent as usize, from, blank);
        let index = self.links.len() as u32;
        let arena = &self.arena;
        let hash = arena.hash(index as usize);
        let rehash = |&node: &u32| arena.hash(node as usize);
        match self.closed.entry(hash, |&other| arena.same(other as usize, index as usize), rehash) {
            Entry::Occupied(seen) if self.links[*seen.get() as usize].g <= g => {
                self.arena.pop();
                return false;
            }
            Entry::Occupied(mut seen) => *seen.get_mut() = index,
            Entry::Vacant(slot) => {
                slot.insert(index);
            }
        }
        self.links.push(Link { parent, g, blank: from as u16, last_move: Some(direction) });
        self.open.push(open_entry(f, g, index));
        true
    }

    /// The tile directions from the root to node `index`.
    fn path_to(&self, mut index: u32) -> Vec<Direction> {
        let mut path = Vec::new();
        while let Some(link) = self.links.get(index as usize) {
            match link.last_move {
                Some(direction) => path.push(direction),
                None => break,
            }
            index = link.parent;
        }
        path.reverse();
        path
    }
}

/// The capacity a container of `len` entries in `capacity` slots grows to, by `capacity /
/// divisor`, when it has no room for [`ROOM`] more; `capacity` when it has.
fn next_capacity(len: usize, capacity: usize, divisor: usize) -> usize {
    if capacity - len >= ROOM { capacity } else { (capacity + capacity / divisor).max(len + ROOM).max(64) }
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

fn run<A: Arena>(board: &Board, heuristic: Heuristic, meter: &mut Meter<'_>) -> Result<Vec<Direction>, SearchError> {
    let n = board.dimension();
    let h0 = match heuristic {
        Heuristic::Hamming => board.hamming(),
        _ => board.manhattan(),
    };
    let mut nodes = Nodes::<A>::new(board, h0);
    while let Some(Reverse((key, index))) = nodes.open.pop() {
        let (f, g) = unpack_key(key);
        if nodes.is_stale(index) {
            continue; // This board was enqueued again with fewer moves.
        }
        let h = f - g;
        if h == 0 {
            return Ok(nodes.path_to(index));
        }
        meter.expand(f, || nodes.open.len() as u64)?;
        nodes.make_room(meter)?;
        let Link { blank, last_move, .. } = nodes.links[index as usize];
        let blank = usize::from(blank);
        for direction in Direction::ALL {
            if last_move == Some(direction.opposite()) {
                continue; // The spec's optimization: never go straight back to the previous board.
            }
            let Some(from) = tile_to_slide(n, blank, direction) else { continue };
            let tile = nodes.arena.tile(index as usize, from);
            let child_h = h + tile_cost(heuristic, n, tile, blank) - tile_cost(heuristic, n, tile, from);
            if nodes.push_child(index, from, blank, g + 1, g + 1 + child_h, direction) {
                meter.generated += 1;
            }
        }
    }
    Err(SearchError::Internal("the frontier emptied before the goal of a solvable board".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::options::{Algorithm, Options};
    use crate::solver::progress::{NoProgress, Stop};
    use crate::solver::solve::solve;

    fn moves(n: usize, tiles: &[u16], heuristic: Heuristic) -> i32 {
        let board = Board::new(n, tiles).expect("valid board");
        let options = Options { algorithm: crate::solver::options::Algorithm::AStar, heuristic, ..Options::default() };
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
        assert!(
            matches!(err, SearchError::NodeBudgetExhausted { limit: 100, expanded: 100, dimension: 3, .. }),
            "{err}"
        );
    }

    #[test]
    fn the_memory_budget_stops_the_search_within_it() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        let budget = 64 << 10;
        let options = Options { algorithm: Algorithm::AStar, max_memory_bytes: budget, ..Options::default() };
        let err = solve(&board, &options, &mut NoProgress, &Stop::new()).unwrap_err();
        let SearchError::MemoryBudgetExhausted { limit, held, nodes, dimension: 3, .. } = err else {
            panic!("expected the memory budget to run out, got {err}");
        };
        assert_eq!(limit, budget);
        assert!(held <= budget && held >= budget / 2, "holds {held} bytes of {budget}");
        assert!(nodes > 500, "{nodes} nodes in {held} bytes");
        let message = err.to_string();
        assert!(message.contains("64.0 KiB") && message.contains("IDA* with linear conflict"), "{message}");
        assert!(!message.contains("pattern"), "no pattern databases for 3x3: {message}");
    }

    /// A board far from the goal: the tiles in reverse, made solvable by swapping two if need be.
    fn far_board(n: usize) -> Board {
        let mut tiles: Vec<u16> = (1..(n * n) as u16).rev().chain([0]).collect();
        let board = Board::new(n, &tiles).expect("valid board");
        if board.is_solvable() {
            return board;
        }
        tiles.swap(0, 1);
        Board::new(n, &tiles).expect("valid board")
    }

    /// The bytes per node each state size holds when a 16 MiB budget runs out, between the
    /// entries' own sizes and their doubling slack: the figures the module docs give.
    #[test]
    fn bytes_per_node_stay_within_the_documented_range() {
        let budget = 16 << 20;
        // (dimension, state bytes): u64, u128 and flat states.
        for (n, state) in [(4, 8), (5, 16), (20, 800)] {
            let options = Options {
                algorithm: crate::solver::options::Algorithm::AStar,
                max_memory_bytes: budget,
                ..Options::default()
            };
            let err = solve(&far_board(n), &options, &mut NoProgress, &Stop::new()).unwrap_err();
            let SearchError::MemoryBudgetExhausted { held, nodes, .. } = err else { panic!("{n}x{n}: {err}") };
            let per_node = held as f64 / nodes as f64;
            println!("{n}x{n}: {nodes} nodes in {held} bytes, {per_node:.1} bytes per node");
            // Every node has its state and link; the heap holds the frontier only, and the closed
            // set one to two 5-byte buckets per board.
            let least = (state + size_of::<Link>()) as f64;
            let most = 2.0 * (state + size_of::<Link>() + size_of::<OpenEntry>() + 12) as f64;
            assert!((least..=most).contains(&per_node), "{n}x{n}: {per_node:.1} bytes per node");
            assert!(held > budget * 3 / 4, "{n}x{n}: the budget is nearly all used: {held} of {budget}");
        }
    }

    #[test]
    fn the_time_limit_stops_the_search_and_says_so() {
        let board = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("valid board");
        let options = Options {
            algorithm: Algorithm::AStar,
            max_search_time: Some(std::time::Duration::ZERO),
            ..Options::default()
        };
        let err = solve(&board, &options, &mut NoProgress, &Stop::new()).unwrap_err();
        assert!(matches!(err, SearchError::TimeLimitExceeded { expanded: 0, dimension: 3, .. }), "{err}");
        assert!(err.to_string().contains("search time limit of 0s reached (not the caller's deadline)"), "{err}");
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
