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
//! A wide beam's time goes to memory: every child reads an entry of each of the heuristic's
//! parts from tables of hundreds of MB, and a layer's boards with their memos fill over a
//! hundred MB. So the expansion asks for the entries of the children of the board
//! [`PREFETCH_AHEAD`] places ahead ([`Estimator::prefetch_slide`]), the best children are
//! chosen by sorting their keys rather than the boards, and the layers' buffers are kept from
//! one layer to the next rather than faulted in afresh.
//!
//! [`stages`] is the other beam: over a big board's placing stages rather than its moves.
//! What these choices gained is in `docs/performance.md`, "2026-12-05 — Faster beams"; what the
//! widths cost, in "Beam search (from `solver::search::beam`)".

pub mod stages;

use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::error::SearchError;
use crate::solver::helper_threads::Helpers;
use crate::solver::heuristic::Estimator;
use crate::solver::meter::Meter;

/// The largest side whose boards pack into a `u128` at five bits a cell.
pub const MAX_DIMENSION: usize = 5;

/// The bytes a beam of width 1 holds at most, over a path of a hundred moves: its layer's
/// children and every layer's links. A beam is never wider than the memory budget allows.
const BEAM_BYTES_PER_WIDTH: u64 = 1 << 10;

/// The widest 5×5 beam the meter's memory budget holds (see [`BEAM_BYTES_PER_WIDTH`]).
pub fn widest_beam(meter: &Meter<'_>) -> usize {
    usize::try_from(meter.max_memory_bytes() / BEAM_BYTES_PER_WIDTH).unwrap_or(usize::MAX)
}

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
    // Each half's children, kept from layer to layer: a wide beam's layer is over a hundred MB,
    // which a fresh allocation would fault in page by page every time.
    let mut halves: [Vec<Node<E::Memo>>; 2] = [Vec::new(), Vec::new()];
    let mut keys: Vec<(u64, u32)> = Vec::new();
    for depth in 0..max_depth {
        let lease = if layer.len() >= PARALLEL_LAYER && helpers.threads() > 0 { helpers.lend() } else { None };
        let [mine, theirs] = &mut halves;
        theirs.clear();
        let expanded = if lease.is_none() {
            expand(estimator, n, goal, &layer, 0, depth == 0, mine)
        } else {
            let (first, second) = layer.split_at(layer.len() / 2);
            std::thread::scope(|scope| {
                let helper = scope.spawn(|| expand(estimator, n, goal, second, first.len(), depth == 0, theirs));
                let mine = expand(estimator, n, goal, first, 0, depth == 0, mine);
                let theirs = helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                mine.and(theirs)
            })
        };
        drop(lease);
        if let Err((mut parent, direction)) = expanded {
            let mut path = vec![direction];
            for links in links.iter().rev() {
                let (grandparent, direction) = links[parent as usize];
                path.push(direction);
                parent = grandparent;
            }
            path.reverse();
            return Ok(Some(path));
        }
        let generated = halves.iter().map(Vec::len).sum::<usize>();
        meter.absorb(layer.len() as u64, generated as u64)?;
        meter.checkpoint(bound, layer.len() as u64)?;
        best_of(&halves, width, &mut keys, &mut layer);
        if layer.is_empty() {
            return Ok(None);
        }
        links.push(layer.iter().map(|child| (child.parent, child.direction)).collect());
    }
    Ok(None)
}

/// The layer size from which its expansion is split over two threads.
const PARALLEL_LAYER: usize = 1 << 11;

/// How many boards ahead of the one it expands [`expand`] asks for its children's table
/// entries, so that their cache misses overlap.
const PREFETCH_AHEAD: usize = 4;

/// The children of `layer` (whose first board is board `offset` of its whole layer), into
/// `children` (emptied first); `Err` with the parent's index and the move when one is the goal.
/// `root` says the layer is the root's, whose move is not to be undone.
fn expand<E: Estimator>(
    estimator: &E,
    n: usize,
    goal: u128,
    layer: &[Node<E::Memo>],
    offset: usize,
    root: bool,
    children: &mut Vec<Node<E::Memo>>,
) -> Result<(), (u32, Direction)> {
    let mut tiles = vec![0u16; n * n];
    children.clear();
    for (index, node) in layer.iter().enumerate() {
        if let Some(ahead) = layer.get(index + PREFETCH_AHEAD) {
            let to = usize::from(ahead.blank);
            for from in Direction::ALL.into_iter().filter_map(|direction| tile_to_slide(n, to, direction)) {
                estimator.prefetch_slide(&ahead.memo, tile_at(ahead.packed, from), from, to);
            }
        }
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
    Ok(())
}

/// The `width` children of smallest key among both `halves`, sorted by key, each board once,
/// into `chosen` (emptied first; `keys` is room to work in). The choice is made on keys and
/// places alone, and only the chosen boards are copied, since a board with its memo is ten
/// times a key's size.
fn best_of<M: Copy>(halves: &[Vec<Node<M>>; 2], width: usize, keys: &mut Vec<(u64, u32)>, chosen: &mut Vec<Node<M>>) {
    let at = |place: u32| {
        let place = place as usize;
        let first = halves[0].len();
        if place < first { &halves[0][place] } else { &halves[1][place - first] }
    };
    keys.clear();
    keys.extend(halves.iter().flatten().enumerate().map(|(place, child)| (child.key, place as u32)));
    if keys.len() > width {
        keys.select_nth_unstable(width);
        keys.truncate(width);
    }
    // Equal boards have equal keys: sorted, their copies lie side by side.
    keys.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| at(a.1).packed.cmp(&at(b.1).packed)));
    keys.dedup_by(|a, b| a.0 == b.0 && at(a.1).packed == at(b.1).packed);
    chosen.clear();
    chosen.extend(keys.iter().map(|&(_, place)| *at(place)));
}

/// The tile at `cell` of a packed board.
fn tile_at(packed: u128, cell: usize) -> u16 {
    (packed >> (5 * cell)) as u16 & 31
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
        *tile = tile_at(packed, cell);
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
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Heuristic, Options};
    use crate::solver::progress::{NoProgress, Stop};
    use crate::solver::search::samples::{reaches_goal, sample};

    /// Runs the beam with linear conflict, two dedicated helpers and `stop`.
    fn beam(board: &Board, width: usize, max_depth: usize, stop: &Stop) -> Result<Option<Vec<Direction>>, SearchError> {
        let options = Options::default();
        let plan = Plan { algorithm: Algorithm::Auto, heuristic: Heuristic::Auto, method: Method::Fast };
        let mut progress = NoProgress;
        let mut meter =
            Meter::new(&options, plan, board.dimension(), &mut progress, stop).with_helpers(Helpers::dedicated(1));
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
    fn the_best_of_both_halves_are_kept_sorted_and_each_board_once() {
        let node = |value: u64, packed: u128, parent: u32| Node {
            key: value << 32 | mix(packed),
            packed,
            blank: 0,
            parent,
            direction: Direction::Up,
            memo: (),
        };
        // Board 7 is reached from both halves; board 9 is the worst and does not fit.
        let halves = [vec![node(5, 7, 0), node(9, 9, 1), node(3, 4, 2)], vec![node(4, 8, 3), node(5, 7, 4)]];
        let (mut keys, mut chosen) = (Vec::new(), Vec::new());
        best_of(&halves, 4, &mut keys, &mut chosen);
        let boards: Vec<u128> = chosen.iter().map(|child| child.packed).collect();
        assert_eq!(boards, [4, 8, 7]);
        assert!(chosen.windows(2).all(|pair| pair[0].key <= pair[1].key));
        best_of(&halves, 2, &mut keys, &mut chosen);
        assert_eq!(chosen.iter().map(|child| child.parent).collect::<Vec<_>>(), [2, 3], "the buffers are reused");
    }

    #[test]
    fn beam_on_the_goal_is_the_empty_path() {
        let goal = Board::goal(5).expect("goal");
        assert_eq!(beam(&goal, 4, 10, &Stop::new()), Ok(Some(Vec::new())));
    }
}
