//! Beam search: a short path on boards up to 5×5 for little work, with no promise on its length.
//!
//! Layer by layer from the root, every board of a layer is expanded (never undoing its last
//! move), each child scored by the heuristic, and only the `width` children with the smallest
//! values are kept (ties broken by a hash of the board, so that equal values do not all come
//! from one parent); duplicates among them are dropped. A board is packed in a `u128`, five
//! bits a cell. Each layer keeps its parents and moves, which rebuild the path once the goal
//! appears. The search ends empty-handed at `max_depth` layers or when its layer empties. A
//! large layer's expansion is split over two threads when the search's [`Helpers`] lend a
//! core. Each layer's boards count as expanded nodes on the [`Meter`], which then checks the
//! node budget, the stop flag and the clocks, so a cancelled search stops within a layer.
//!
//! Measured on Korf & Felner's 50 24-puzzles with the 5×5 pattern databases (each beam bounded
//! by the length weighted IDA* at 1.5 found, its path then shortened by optimal suffixes), on
//! two cores under a load of about 4: 8,192 boards a layer give 1.043× the optimal 5,039 moves
//! in all, median 0.50 s a board, slowest 0.86 s; 16,384 give 1.035× but up to 1.6 s a board.
//! Alone (single-threaded, first ten boards) 4,096 a layer take about 0.15 s a board and
//! 16,384 about 0.8 s. Weighted IDA* at 1.3 before the beam no longer paid for its time.

use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::heuristic::Estimator;
use crate::solver::{Helpers, Meter, SearchError};

/// The largest side whose boards pack into a `u128` at five bits a cell.
pub const MAX_DIMENSION: usize = 5;

/// One board of a layer: the packed tiles, where the blank is, the heuristic's memo, and how
/// it was reached (the index of its parent in the previous layer and the move).
#[derive(Clone, Copy)]
struct Node<M> {
    /// The heuristic value in the high half, a hash of `packed` in the low half.
    key: u64,
    packed: u128,
    blank: u8,
    parent: u32,
    direction: Direction,
    memo: M,
}

/// A path from `board` to the goal found by a beam of `width` boards per layer, scored by
/// `estimator`, of at most `max_depth` moves; `None` if the beam found none, or if the board is
/// larger than [`MAX_DIMENSION`]. `meter` counts the boards expanded, and its limits end the
/// search with their error.
pub fn search<E>(
    board: &Board,
    estimator: &E,
    width: usize,
    max_depth: usize,
    meter: &mut Meter<'_>,
) -> Result<Option<Vec<Direction>>, SearchError>
where
    E: Estimator + Sync,
    E::Memo: Send + Sync,
{
    let n = board.dimension();
    if n > MAX_DIMENSION || width == 0 {
        return Ok(None);
    }
    let goal = pack(&goal_tiles(n));
    let root = pack(board.tiles());
    if root == goal {
        return Ok(Some(Vec::new()));
    }
    let memo = estimator.start(board.tiles());
    let bound = estimator.value(&memo);
    let helpers: Helpers = meter.helpers().clone();
    let mut layer = vec![Node {
        key: 0,
        packed: root,
        blank: board.blank_index() as u8,
        parent: u32::MAX,
        // The root's move is never read: it only forbids its opposite, which any root allows.
        direction: Direction::Up,
        memo,
    }];
    // The parent and move of every board of each layer after the root's.
    let mut links: Vec<Vec<(u32, Direction)>> = Vec::new();
    for depth in 0..max_depth {
        let lease = if layer.len() >= PARALLEL_LAYER && helpers.threads() > 0 { helpers.lend() } else { None };
        let expanded = if lease.is_none() {
            expand(estimator, n, goal, &layer, 0, depth == 0, width)
        } else {
            let (first, second) = layer.split_at(layer.len() / 2);
            std::thread::scope(|scope| {
                let helper = scope.spawn(|| expand(estimator, n, goal, second, first.len(), depth == 0, width));
                let mine = expand(estimator, n, goal, first, 0, depth == 0, width);
                let theirs = helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                let (mut mine, theirs) = (mine?, theirs?);
                mine.extend(theirs);
                Ok(mine)
            })
        };
        let mut children = match expanded {
            Ok(children) => children,
            Err((mut parent, direction)) => {
                let mut path = vec![direction];
                for links in links.iter().rev() {
                    let (grandparent, direction) = links[parent as usize];
                    path.push(direction);
                    parent = grandparent;
                }
                path.reverse();
                return Ok(Some(path));
            }
        };
        drop(lease);
        meter.absorb(layer.len() as u64, children.len() as u64)?;
        meter.checkpoint(bound, layer.len() as u64)?;
        keep_best(&mut children, width);
        // Equal boards have equal keys: sorted, their copies lie side by side.
        children.sort_unstable_by_key(|child| (child.key, child.packed));
        children.dedup_by_key(|child| child.packed);
        if children.is_empty() {
            return Ok(None);
        }
        links.push(children.iter().map(|child| (child.parent, child.direction)).collect());
        layer = children;
    }
    Ok(None)
}

/// The layer size from which its expansion is split over two threads.
const PARALLEL_LAYER: usize = 1 << 11;

/// The children of `layer` (whose first board is board `offset` of its whole layer), at most
/// `width` of the best; `Err` with the parent's index and the move when one is the goal.
/// `root` says the layer is the root's, whose move is not to be undone.
fn expand<E: Estimator>(
    estimator: &E,
    n: usize,
    goal: u128,
    layer: &[Node<E::Memo>],
    offset: usize,
    root: bool,
    width: usize,
) -> Result<Vec<Node<E::Memo>>, (u32, Direction)> {
    let mut tiles = vec![0u16; n * n];
    let mut children = Vec::with_capacity(layer.len() * 3);
    for (index, node) in layer.iter().enumerate() {
        let parent = (offset + index) as u32;
        unpack(node.packed, &mut tiles);
        let to = usize::from(node.blank);
        for direction in Direction::ALL {
            if !root && direction == node.direction.opposite() {
                continue;
            }
            let Some(from) = tile_to_slide(n, to, direction) else { continue };
            let tile = tiles[from];
            let packed = node.packed & !(31 << (5 * from)) | u128::from(tile) << (5 * to);
            if packed == goal {
                return Err((parent, direction));
            }
            let memo = estimator.slide(&node.memo, &tiles, tile, from, to);
            let key = u64::from(estimator.value(&memo)) << 32 | mix(packed);
            children.push(Node { key, packed, blank: from as u8, parent, direction, memo });
        }
    }
    keep_best(&mut children, width);
    Ok(children)
}

/// Keeps the `width` children of smallest key (in no order).
fn keep_best<M>(children: &mut Vec<Node<M>>, width: usize) {
    if children.len() > width {
        children.select_nth_unstable_by_key(width, |child| child.key);
        children.truncate(width);
    }
}

/// The goal's tiles on an `n`×`n` board: 1, 2, … in row-major order, the blank last.
fn goal_tiles(n: usize) -> Vec<u16> {
    (1..n * n).map(|tile| tile as u16).chain([0]).collect()
}

/// `tiles` at five bits a cell, cell 0 in the lowest bits.
fn pack(tiles: &[u16]) -> u128 {
    tiles.iter().rev().fold(0, |packed, &tile| packed << 5 | u128::from(tile))
}

/// The tiles of a packed board, into `tiles`.
fn unpack(packed: u128, tiles: &mut [u16]) {
    for (cell, tile) in tiles.iter_mut().enumerate() {
        *tile = (packed >> (5 * cell)) as u16 & 31;
    }
}

/// A 32-bit hash of a packed board, to break ties between children of equal value.
fn mix(packed: u128) -> u64 {
    let folded = (packed as u64) ^ ((packed >> 64) as u64).rotate_left(29);
    folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::heuristic::linear_conflict::LinearConflict;
    use crate::solver::search::samples::{reaches_goal, sample};
    use crate::solver::{Algorithm, Heuristic, NoProgress, Options, Plan, Stop};

    /// Runs the beam with linear conflict, two dedicated helpers and `stop`.
    fn beam(board: &Board, width: usize, max_depth: usize, stop: &Stop) -> Result<Option<Vec<Direction>>, SearchError> {
        let options = Options { helpers: Helpers::dedicated(1), ..Options::default() };
        let plan = Plan { algorithm: Algorithm::Auto, heuristic: Heuristic::Auto };
        let mut progress = NoProgress;
        let mut meter = Meter::new(&options, plan, board.dimension(), &mut progress, stop);
        search(board, &LinearConflict::new(board.dimension()), width, max_depth, &mut meter)
    }

    #[test]
    fn beam_paths_replay_to_the_goal() {
        for name in ["5x5-20.txt", "5x5-38.txt", "5x5-48.txt"] {
            let board = sample(name);
            let estimator = LinearConflict::new(5);
            let path = beam(&board, 1 << 12, 1000, &Stop::new()).expect("no limit is hit").expect("a path");
            assert!(reaches_goal(&board, &path), "{name}: the path does not reach the goal");
            assert!(path.len() as u32 >= estimator.start(board.tiles()), "{name}: shorter than the bound");
        }
    }

    #[test]
    fn beam_finds_nothing_beyond_its_depth() {
        let board = sample("5x5-48.txt");
        assert_eq!(beam(&board, 1 << 10, 10, &Stop::new()), Ok(None));
    }

    #[test]
    fn a_stopped_beam_ends_with_the_stop() {
        let board = sample("5x5-48.txt");
        let stop = Stop::new();
        stop.stop();
        assert!(matches!(beam(&board, 1 << 12, 1000, &stop), Err(SearchError::Cancelled { .. })));
    }

    #[test]
    fn beam_on_the_goal_is_the_empty_path() {
        let goal = Board::goal(5).expect("goal");
        assert_eq!(beam(&goal, 4, 10, &Stop::new()), Ok(Some(Vec::new())));
    }
}
