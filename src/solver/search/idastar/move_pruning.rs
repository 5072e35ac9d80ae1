//! Pruning duplicate move sequences with a finite-state machine (Taylor & Korf 1993).
//!
//! IDA* searches a tree, so every state it meets by two move sequences is searched twice. Not
//! undoing the last move removes the shortest such pairs; the longer ones (going round a 2×2
//! block, which shifts three tiles, in one direction or the other, and many more) each cost a
//! whole subtree. Over a search a hundred moves deep, the fraction of moves they waste compounds
//! into a factor of a few in nodes.
//!
//! The machine is built once per board size by a breadth-first search of move sequences from
//! every cell, in order of length and then of [`Direction::ALL`]'s order: the first sequence to
//! reach a state (the blank's cell and every tile's) is kept, and any later one that reaches it
//! is a *duplicate*: it has an equivalent that is shorter, or as long and earlier in that order.
//! A duplicate is recorded with the cells it was found from, and sequences that contain a known
//! duplicate are not extended. The duplicates become the patterns of an Aho–Corasick automaton
//! over the four directions: the search steps it with every move and drops a move that completes
//! a duplicate (whose first move was made from one of its cells).
//!
//! Why no shortest path is lost: the shortest path that comes first in that order contains no
//! duplicate, since replacing one by its equivalent would give a path that is shorter or earlier.
//! Every IDA* iteration therefore still meets every node of that path, and its bound and cut are
//! those of the search without pruning, and a weighted search's guarantee holds the same way.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::board::{Direction, tile_to_slide};
use crate::solver::prefetch::prefetch;

/// The longest duplicates searched for, by board side, in the machine a search builds on first
/// use. Longer ones prune more nodes but make a bigger machine that takes longer to build; on
/// 4×4 the build is part of every short process, so 10 moves is where the build stops paying
/// (see `docs/performance.md`, "Duplicate pruning (from `solver::search::idastar::move_pruning`)").
const LONGEST: [usize; 6] = [0, 0, 2, 14, 10, 14];

/// The longest duplicates of the deeper 5×5 machine ([`PruningMachine::deepest`]): 471,775 states,
/// built in about 3 s on two cores. It takes more nodes off long 5×5 searches at about the same
/// cost a node (see `docs/performance.md`, "2026-12-07 — A deeper duplicate machine, built once
/// and in the background"): too slow a build for every process, so a server builds it in the
/// background and a long search before its next iteration.
const DEEPER_5X5: usize = 16;

/// The deeper 5×5 machine, once built.
static DEEPER: OnceLock<PruningMachine> = OnceLock::new();

/// Set while a thread builds [`DEEPER`], so that no other starts the same build.
static BUILDING: AtomicBool = AtomicBool::new(false);

/// How often a thread that waits for another's build of the deeper machine checks whether it
/// is done, or whether its own search should stop.
const BUILD_POLL: Duration = Duration::from_millis(20);

/// Bits that say "every cell": a pattern valid wherever it can be played (the undoing move on
/// boards past 5×5, which have no search of their own).
const EVERYWHERE: u32 = u32::MAX;

/// A finite-state machine over moves that says which moves complete a duplicate sequence.
#[derive(Debug, Clone)]
pub struct PruningMachine {
    /// One row per state.
    rows: Vec<Row>,
}

/// What the search reads of a state when it tries the moves from a node there: half a cache
/// line, so one line serves all four moves.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(32))]
struct Row {
    /// For each index into [`Direction::ALL`], the state after that move.
    next: [u32; 4],
    /// For each index into [`Direction::ALL`], the blank's cells after that move (a bit per
    /// cell, all bits past 5×5) at which the move completes a duplicate.
    prune: [u32; 4],
}

/// The state before any move.
pub const START: u32 = 0;

impl PruningMachine {
    /// The machine for `dimension`² boards: the deepest built so far, or the one of [`LONGEST`]
    /// moves, built on first use.
    pub fn for_dimension(dimension: usize) -> &'static PruningMachine {
        static MACHINES: [OnceLock<PruningMachine>; 6] = [const { OnceLock::new() }; 6];
        static UNDOING: OnceLock<PruningMachine> = OnceLock::new();
        if let Some(deeper) = DEEPER.get().filter(|_| dimension == 5) {
            return deeper;
        }
        match MACHINES.get(dimension) {
            Some(machine) if dimension >= 2 => {
                machine.get_or_init(|| PruningMachine::search(dimension, LONGEST[dimension]))
            }
            _ => UNDOING.get_or_init(PruningMachine::undoing),
        }
    }

    /// The deepest machine for `dimension`² boards: on 5×5, the one of [`DEEPER_5X5`] moves,
    /// built here on `workers` threads unless it is built already, or waited for while another
    /// thread builds it; elsewhere [`PruningMachine::for_dimension`]'s. `None` once `interrupted`
    /// says so (checked between the build's start cells, every tenth of a second or so), the
    /// build then left for a later call.
    pub fn deepest(
        dimension: usize,
        workers: usize,
        interrupted: &(dyn Fn() -> bool + Sync),
    ) -> Option<&'static PruningMachine> {
        if dimension != 5 {
            return Some(PruningMachine::for_dimension(dimension));
        }
        loop {
            if let Some(machine) = DEEPER.get() {
                return Some(machine);
            }
            if BUILDING.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_ok() {
                // Built twice only if another thread finished between the check above and the
                // flag: the first one set is kept.
                let built =
                    DEEPER.get().is_none().then(|| PruningMachine::build(dimension, DEEPER_5X5, workers, interrupted));
                if let Some(Some(machine)) = built {
                    let _ = DEEPER.set(machine);
                }
                BUILDING.store(false, Ordering::Release);
                release_freed_memory();
                return DEEPER.get();
            }
            // Another thread builds it (a server's, at idle priority): waiting leaves it this
            // thread's core.
            if interrupted() {
                return None;
            }
            std::thread::sleep(BUILD_POLL);
        }
    }

    /// Whether this is the deepest machine of its size: no deeper one is to be had.
    pub fn is_deepest(&self, dimension: usize) -> bool {
        dimension != 5 || DEEPER.get().is_some_and(|deeper| std::ptr::eq(self, deeper))
    }

    /// How many states the machine has.
    pub fn states(&self) -> usize {
        self.rows.len()
    }

    /// The state after the move of `direction`'s index from `state`, or `None` when that move,
    /// which put the blank on `cell`, completes a duplicate.
    #[inline]
    pub fn step(&self, state: u32, direction: u8, cell: usize) -> Option<u32> {
        let row = &self.rows[state as usize];
        let direction = usize::from(direction);
        // Past 5×5 the masks are all ones, so any shift reads a set bit.
        if row.prune[direction] >> (cell & 31) & 1 != 0 {
            return None;
        }
        let next = row.next[direction];
        // The search looks the child up in the tables before it enters it and steps from there.
        prefetch(&self.rows[next as usize]);
        Some(next)
    }

    /// Only the moves that undo the move before, wherever they are played.
    fn undoing() -> PruningMachine {
        let patterns =
            (0..4u8).map(|d| (vec![d, index_of(Direction::ALL[usize::from(d)].opposite())], EVERYWHERE)).collect();
        PruningMachine::automaton(patterns)
    }

    /// The duplicates up to `longest` moves on the `dimension`² board, as a machine, found on
    /// every core.
    fn search(dimension: usize, longest: usize) -> PruningMachine {
        // Never interrupted, so always built.
        PruningMachine::build(dimension, longest, every_core(), &|| false).unwrap_or_else(PruningMachine::undoing)
    }

    /// [`PruningMachine::search`] on `workers` threads; `None` once `interrupted` says so.
    fn build(
        dimension: usize,
        longest: usize,
        workers: usize,
        interrupted: &(dyn Fn() -> bool + Sync),
    ) -> Option<PruningMachine> {
        Some(PruningMachine::automaton(cell_masks(dimension, &find(dimension, longest, workers, interrupted)?)))
    }

    /// The Aho–Corasick automaton of `patterns` (moves, and the cells where their last move puts
    /// the blank when they are duplicates).
    fn automaton(mut patterns: Vec<(Vec<u8>, u32)>) -> PruningMachine {
        patterns.sort();
        let mut children: Vec<[u32; 4]> = vec![[0; 4]];
        let mut ends: Vec<u32> = vec![0];
        for (moves, cells) in &patterns {
            let mut state = 0usize;
            for &direction in moves {
                let child = children[state][usize::from(direction)];
                state = if child == 0 {
                    children.push([0; 4]);
                    ends.push(0);
                    let new = (children.len() - 1) as u32;
                    children[state][usize::from(direction)] = new;
                    new as usize
                } else {
                    child as usize
                };
            }
            ends[state] |= cells;
        }
        // Breadth first: a state's failure (its longest proper suffix that is a state) is
        // finished before the state.
        let mut next = vec![[0u32; 4]; children.len()];
        let mut prune = ends.clone();
        let mut fail = vec![0u32; children.len()];
        let mut queue = std::collections::VecDeque::new();
        for direction in 0..4 {
            let child = children[0][direction];
            next[0][direction] = child;
            if child != 0 {
                queue.push_back(child);
            }
        }
        while let Some(state) = queue.pop_front() {
            let state = state as usize;
            prune[state] |= prune[fail[state] as usize];
            for direction in 0..4 {
                let child = children[state][direction];
                let fallback = next[fail[state] as usize][direction];
                if child == 0 {
                    next[state][direction] = fallback;
                } else {
                    fail[child as usize] = fallback;
                    next[state][direction] = child;
                    queue.push_back(child);
                }
            }
        }
        let rows = next.iter().map(|&next| Row { next, prune: next.map(|state| prune[state as usize]) }).collect();
        PruningMachine { rows }
    }
}

/// The machine's cores, which a build with nothing to yield to takes.
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Hands the memory the build freed back to the system: its boards and patterns, tens of MB
/// spread over the workers' allocator arenas, which the C library otherwise keeps for the
/// process's lifetime (a server's own memory once the deeper machine is built: 64 MB with this,
/// 101 MB without; the machine itself is 15 MB, and the server 12 MB without it).
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's own to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Index of `direction` in [`Direction::ALL`].
fn index_of(direction: Direction) -> u8 {
    Direction::ALL.iter().position(|&d| d == direction).unwrap_or(0) as u8
}

/// The blank's cells after each of `moves` (indices into [`Direction::ALL`]) from `start`,
/// as far as they fit the board.
fn walk(dimension: usize, start: usize, moves: &[u8]) -> Vec<usize> {
    let mut cells = Vec::with_capacity(moves.len());
    let mut blank = start;
    for &direction in moves {
        match tile_to_slide(dimension, blank, Direction::ALL[usize::from(direction)]) {
            Some(next) => blank = next,
            None => break,
        }
        cells.push(blank);
    }
    cells
}

/// A move sequence from one cell, as [`find`] walks it.
#[derive(Clone, Copy)]
struct Sequence {
    /// Its moves (indices into [`Direction::ALL`]) as base-4 digits, the first most
    /// significant: of two sequences as long, the one that comes first has the smaller key.
    key: u64,
    /// Where the blank ends.
    blank: usize,
    /// The board it leaves: each cell's original cell, five bits a cell.
    board: u128,
    /// The machine's state after it.
    state: u32,
}

impl Sequence {
    /// The empty sequence from `start`.
    fn from(start: usize, cells: usize) -> Sequence {
        let board = (0..cells).fold(0u128, |board, cell| board | (cell as u128) << (5 * cell));
        Sequence { key: 0, blank: start, board, state: START }
    }

    /// This sequence and one more move, the way of `direction`'s index, unless the move leaves
    /// the board or `machine` prunes it.
    fn then(&self, dimension: usize, machine: &PruningMachine, direction: u8) -> Option<Sequence> {
        let to = tile_to_slide(dimension, self.blank, Direction::ALL[usize::from(direction)])?;
        let state = machine.step(self.state, direction, to)?;
        let (here, there) = (5 * self.blank, 5 * to);
        let label = |at: usize| (self.board >> at) & 31;
        let board = self.board & !(31 << here) & !(31 << there) | label(there) << here | label(here) << there;
        Some(Sequence { key: self.key << 2 | u64::from(direction), blank: to, board, state })
    }

    /// Calls `visit` with every sequence of `depth` more moves that `machine` lets through.
    fn extend(&self, dimension: usize, machine: &PruningMachine, depth: usize, visit: &mut impl FnMut(&Sequence)) {
        if depth == 0 {
            return visit(self);
        }
        for direction in 0..4u8 {
            if let Some(next) = self.then(dimension, machine, direction) {
                next.extend(dimension, machine, depth - 1, visit);
            }
        }
    }
}

/// The duplicates of up to `longest` moves on the `dimension`² board (at most 5×5): for each,
/// its moves, and the cells it was found from. Each length is one round over every cell (on
/// `workers` threads), against the machine of the duplicates found in the rounds before. `None`
/// once `interrupted` says so, which each thread asks before each cell.
fn find(
    dimension: usize,
    longest: usize,
    workers: usize,
    interrupted: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<(Vec<u8>, u32)>> {
    let cells = dimension * dimension;
    let mut duplicates: Vec<(Vec<u8>, u32)> = Vec::new();
    let workers = workers.clamp(1, cells);
    let mut scratch = vec![Scratch::default(); workers];
    for len in 1..=longest {
        let machine = PruningMachine::automaton(cell_masks(dimension, &duplicates));
        let next = AtomicUsize::new(0);
        let found: Vec<(u64, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = scratch
                .iter_mut()
                .map(|scratch| {
                    let (machine, next) = (&machine, &next);
                    scope.spawn(move || {
                        let mut found = Vec::new();
                        loop {
                            let start = next.fetch_add(1, Ordering::Relaxed);
                            if start >= cells || interrupted() {
                                return found;
                            }
                            scratch.round(dimension, machine, start, len, &mut found);
                        }
                    })
                })
                .collect();
            handles.into_iter().flat_map(|handle| handle.join().unwrap_or_default()).collect()
        });
        if interrupted() {
            return None;
        }
        let mut round: HashMap<u64, u32> = HashMap::new();
        for (key, start) in found {
            *round.entry(key).or_default() |= 1 << start;
        }
        let mut round: Vec<(u64, u32)> = round.into_iter().collect();
        round.sort_unstable();
        duplicates.extend(round.into_iter().map(|(key, starts)| (unpack(key, len), starts)));
    }
    Some(duplicates)
}

/// The `len` moves of a [`Sequence`]'s `key`, the first first.
fn unpack(key: u64, len: usize) -> Vec<u8> {
    (0..len).rev().map(|i| (key >> (2 * i) & 3) as u8).collect()
}

/// `duplicates` (moves, and the cells they were found from) with the cells where their last
/// move puts the blank instead, as the machine wants them.
fn cell_masks(dimension: usize, duplicates: &[(Vec<u8>, u32)]) -> Vec<(Vec<u8>, u32)> {
    duplicates
        .iter()
        .map(|(moves, starts)| {
            let ends = (0..dimension * dimension)
                .filter(|&start| starts >> start & 1 != 0)
                .map(|start| walk(dimension, start, moves).last().copied().unwrap_or(start))
                .fold(0u32, |ends, end| ends | 1 << end);
            (moves.clone(), ends)
        })
        .collect()
}

/// A worker's boards in [`find`], kept from one round to the next: the vectors grow in place
/// (tens of MB on 5×5) and are freed once, so that the allocator does not keep the pages of
/// many freed vectors for the rest of the process.
#[derive(Clone, Default)]
struct Scratch {
    /// The boards `len` − 2 moves from the start.
    before: Vec<u128>,
    /// The boards `len` moves from the start, with the sequences that reach them.
    reached: Vec<(u128, u64)>,
}

impl Scratch {
    /// One round of [`find`] for the sequences of `len` moves from `start`, which `machine`
    /// (the duplicates shorter than `len`) lets through: adds to `found` those that reach a
    /// board some other sequence reaches first.
    ///
    /// The machine lets through exactly the sequences that reach a board first, since any other
    /// one contains a shorter duplicate; so the sequences of `len` − 2 moves reach every board
    /// that far from `start` once. The puzzle's graph is bipartite, so a board `len` moves away
    /// from `start` is either one of those or new; a new board's first sequence is the least
    /// key. A round holds a depth-first walk's stack and two layers of one cell's boards, never
    /// every board within `len` moves of every cell.
    fn round(
        &mut self,
        dimension: usize,
        machine: &PruningMachine,
        start: usize,
        len: usize,
        found: &mut Vec<(u64, usize)>,
    ) {
        let from = Sequence::from(start, dimension * dimension);
        let Scratch { before, reached } = self;
        before.clear();
        if len >= 2 {
            from.extend(dimension, machine, len - 2, &mut |sequence| before.push(sequence.board));
            before.sort_unstable();
        }
        reached.clear();
        from.extend(dimension, machine, len, &mut |sequence| reached.push((sequence.board, sequence.key)));
        reached.sort_unstable();
        for group in reached.chunk_by(|a, b| a.0 == b.0) {
            let first = usize::from(before.binary_search(&group[0].0).is_err());
            found.extend(group[first..].iter().map(|&(_, key)| (key, start)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// Every path from `board` of at most `depth` moves that `machine` lets through, as the
    /// least depth at which each board was reached, and the number of paths.
    fn reached(board: &Board, machine: &PruningMachine, depth: usize) -> (HashMap<Board, usize>, usize) {
        fn visit(
            board: &Board,
            state: u32,
            g: usize,
            depth: usize,
            machine: &PruningMachine,
            reached: &mut HashMap<Board, usize>,
        ) -> usize {
            let least = reached.entry(board.clone()).or_insert(g);
            *least = (*least).min(g);
            if g == depth {
                return 1;
            }
            let mut paths = 1;
            for (index, &direction) in Direction::ALL.iter().enumerate() {
                let Some((child, _)) = board.slide(direction) else { continue };
                if let Some(next) = machine.step(state, index as u8, child.blank_index()) {
                    paths += visit(&child, next, g + 1, depth, machine, reached);
                }
            }
            paths
        }
        let mut found = HashMap::new();
        let paths = visit(board, START, 0, depth, machine, &mut found);
        (found, paths)
    }

    /// Every board within `depth` moves of `board`, at its distance (breadth first).
    fn distances(board: &Board, depth: usize) -> HashMap<Board, usize> {
        let mut distance = HashMap::from([(board.clone(), 0)]);
        let mut layer = vec![board.clone()];
        for g in 1..=depth {
            let mut next = Vec::new();
            for board in &layer {
                for child in board.neighbors() {
                    distance.entry(child.clone()).or_insert_with(|| {
                        next.push(child);
                        g
                    });
                }
            }
            layer = next;
        }
        distance
    }

    #[test]
    fn pruned_paths_still_reach_every_board_at_its_distance() {
        for (tiles, depth) in [
            (vec![1, 2, 3, 4, 5, 6, 7, 8, 0], 16),
            (vec![1, 2, 3, 4, 0, 6, 7, 8, 5], 16),
            ((1..16).chain([0]).collect(), 14),
            ([1, 2, 3, 4, 5, 0].into_iter().chain(7..16).chain([6]).collect(), 14),
            ((1..25).chain([0]).collect(), 15),
            ([1, 2, 3, 4, 5, 6, 0].into_iter().chain(8..25).chain([7]).collect(), 15),
        ] {
            let n = (tiles.len() as f64).sqrt() as usize;
            let board = Board::new(n, &tiles).expect("valid board");
            let machine = PruningMachine::for_dimension(n);
            let (found, paths) = reached(&board, machine, depth);
            let (_, unpruned) = reached(&board, PruningMachine::for_dimension(99), depth);
            assert_eq!(found, distances(&board, depth), "{n}x{n} from cell {}", board.blank_index());
            // Deterministic: 0.49 to 0.51 of the paths on 3×3, 0.73 to 0.75 on 4×4, 0.73 to 0.79 on 5×5.
            assert!(paths * 5 < unpruned * 4, "{n}x{n}: {paths} paths against {unpruned} undoing only");
        }
    }

    #[test]
    fn the_deeper_five_by_five_machine_prunes_more_and_still_reaches_every_board_at_its_distance() {
        let deeper = PruningMachine::deepest(5, 2, &|| false).expect("never interrupted");
        let quick = PruningMachine::search(5, LONGEST[5]);
        assert!(deeper.is_deepest(5) && !quick.is_deepest(5));
        assert!(std::ptr::eq(PruningMachine::for_dimension(5), deeper), "searches now start with the deeper one");
        assert_eq!(deeper.states(), 471_775);
        let board = Board::new(5, &(1..25).chain([0]).collect::<Vec<u16>>()).expect("the goal");
        assert_eq!(reached(&board, deeper, DEEPER_5X5).0, distances(&board, DEEPER_5X5));
        // The longer duplicates prune little of the first 16 moves, but they are pruned
        // wherever they end, which compounds with the depth.
        let count = |machine: &PruningMachine| {
            let mut paths = 0u64;
            Sequence::from(12, 25).extend(5, machine, 20, &mut |_| paths += 1);
            paths
        };
        // Deterministic: 31,519,666 paths against 33,843,951.
        let (paths, quick_paths) = (count(deeper), count(&quick));
        assert!(
            paths * 100 < quick_paths * 95,
            "{paths} paths of 20 moves against {quick_paths} with the quick machine"
        );
    }

    #[test]
    fn an_interrupted_build_gives_nothing() {
        assert!(find(5, DEEPER_5X5, 2, &|| true).is_none());
        let rounds = AtomicUsize::new(0);
        // Interrupted in its fourth round, after three whole ones.
        let interrupted = || rounds.fetch_add(1, Ordering::Relaxed) > 3 * 25;
        assert!(PruningMachine::build(5, DEEPER_5X5, 1, &interrupted).is_none());
        assert!(PruningMachine::is_deepest(PruningMachine::for_dimension(4), 4), "no deeper 4×4 machine");
    }

    #[test]
    fn past_five_by_five_only_the_undoing_move_is_pruned() {
        let machine = PruningMachine::for_dimension(8);
        let [up, down, left, right] = [0, 1, 2, 3];
        let after_up = machine.step(START, up, 20).expect("a first move is never pruned");
        assert_eq!(machine.step(after_up, down, 12), None, "down undoes up");
        let after_left = machine.step(after_up, left, 21).expect("left after up");
        assert!(machine.step(after_left, up, 29).is_some() && machine.step(after_left, right, 20).is_none());
    }

    #[test]
    fn going_round_a_block_twice_one_way_is_a_duplicate_of_once_the_other_way() {
        // Eight moves round the 2×2 block at the top left of a 4×4 board shift its three tiles
        // by two, as four moves the other way do: the eighth move is never made.
        let machine = PruningMachine::for_dimension(4);
        let mut state = START;
        let mut blank = 0usize;
        // Tiles slide left, up, right, down: the blank goes right, down, left, up.
        let round = [2u8, 0, 3, 1];
        let mut made = 0;
        for &direction in round.iter().cycle().take(8) {
            let to = tile_to_slide(4, blank, Direction::ALL[usize::from(direction)]).expect("on the board");
            match machine.step(state, direction, to) {
                Some(next) => (state, blank, made) = (next, to, made + 1),
                None => break,
            }
        }
        assert!(made < 8, "all eight moves were made");
        assert!(made >= 4, "only {made} moves were made: once round is no duplicate");
    }
}
