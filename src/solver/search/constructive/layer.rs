//! One layer of the retrace's beam (`retrace`): its boards and the children they lead to.
//!
//! A layer's boards are copied whole, a slide apart from their parents', so a layer of a big
//! board is mostly copying and reading cells. Its children are found in two halves, and
//! made (copied, slid, and their rings left behind followed from their parents') in two
//! halves; on a large layer the second half of each runs on a core the search's helpers lend,
//! with its own scratch, and the answers are the same either way.

use std::collections::HashSet;

use crate::board::{Direction, tile_to_slide};
use crate::solver::helper_threads::Helpers;
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;

use super::rings::{self, LeftBehind, Rings};

/// The cells (boards times their cells) from which a layer's halves run on two cores: below
/// it, starting the thread costs more than it saves.
const PARALLEL_CELLS: usize = 1 << 18;

/// A child of a layer's board, not yet made.
#[derive(Clone, Copy)]
pub(super) struct Child {
    /// The score (its distance plus its parent's debt) in the high half, the hash's low half
    /// below it.
    pub key: u64,
    pub hash: u64,
    pub parent: u32,
    pub direction: Direction,
    blank: u32,
    distance: u32,
}

/// One board of a layer.
#[derive(Clone, Copy)]
pub(super) struct Node {
    blank: u32,
    pub distance: u32,
    /// The distance plus the rings' debt: what the beam ranks by.
    pub score: u32,
    direction: Direction,
    pub hash: u64,
    /// Its rings left behind: a range of its half's list of them.
    left_behind: (u32, u32),
}

/// The boards of a layer one thread made: their tiles one after another, and the lists of
/// their rings left behind.
#[derive(Default)]
struct Half {
    tiles: Vec<u16>,
    left_behind: Vec<LeftBehind>,
}

/// The scratch each half of a layer follows rings with, when the beam counts debts.
pub(super) type Scratch = Option<[Rings; 2]>;

/// The shape of the boards and what ranks them: the same for every layer of a beam.
pub(super) struct Shape<'e> {
    pub n: usize,
    pub estimator: &'e LinearConflict,
    pub helpers: Helpers,
}

/// A layer of the beam: its nodes, the first `split` of them made in the first half.
pub(super) struct Layer {
    pub nodes: Vec<Node>,
    halves: [Half; 2],
    split: usize,
}

impl Layer {
    /// The layer of `root` alone, its blank at `blank`, with its rings left behind found on
    /// the whole board when `scratch` counts debts.
    pub(super) fn root(shape: &Shape<'_>, root: &[u16], blank: usize, scratch: &mut Scratch) -> Layer {
        let mut half = Half { tiles: root.to_vec(), left_behind: Vec::new() };
        if let Some([rings, _]) = scratch {
            rings.left_behind(root, blank, &mut half.left_behind);
        }
        let distance = shape.estimator.start(root);
        let node = Node {
            blank: blank as u32,
            distance,
            score: distance + rings::debt(&half.left_behind),
            direction: Direction::Up,
            hash: root.iter().enumerate().fold(0, |hash, (cell, &tile)| hash ^ zobrist(cell, tile)),
            left_behind: (0, half.left_behind.len() as u32),
        };
        Layer { nodes: vec![node], halves: [half, Half::default()], split: 1 }
    }

    /// A layer with no boards, whose buffers [`Self::make`] fills.
    pub(super) fn empty() -> Layer {
        Layer { nodes: Vec::new(), halves: [Half::default(), Half::default()], split: 0 }
    }

    /// The tiles of the board at `index`.
    fn board(&self, index: usize, cells: usize) -> &[u16] {
        let (half, at) = self.locate(index);
        &half.tiles[at * cells..(at + 1) * cells]
    }

    /// The rings left behind of the board at `index`.
    fn left_behind(&self, index: usize) -> &[LeftBehind] {
        let (half, _) = self.locate(index);
        let (first, last) = self.nodes[index].left_behind;
        &half.left_behind[first as usize..last as usize]
    }

    fn locate(&self, index: usize) -> (&Half, usize) {
        if index < self.split { (&self.halves[0], index) } else { (&self.halves[1], index - self.split) }
    }

    /// Puts in `children` every child of the layer's boards that is not `seen` and does not
    /// undo its parent's move (from the second layer on, `undo_known`), keyed by its distance
    /// plus its parent's debt; `spare` is the second half's buffer.
    pub(super) fn children(
        &self,
        shape: &Shape<'_>,
        undo_known: bool,
        seen: &HashSet<u64>,
        children: &mut Vec<Child>,
        spare: &mut Vec<Child>,
    ) {
        let middle = self.nodes.len() / 2;
        let find = |nodes: std::ops::Range<usize>, out: &mut Vec<Child>| {
            out.clear();
            for index in nodes {
                self.children_of(shape, index, undo_known, seen, out);
            }
        };
        let parallel = self.nodes.len() * shape.n * shape.n >= PARALLEL_CELLS;
        both(&shape.helpers, parallel, || find(0..middle, children), || find(middle..self.nodes.len(), spare));
        children.append(spare);
    }

    fn children_of(
        &self,
        shape: &Shape<'_>,
        index: usize,
        undo_known: bool,
        seen: &HashSet<u64>,
        out: &mut Vec<Child>,
    ) {
        let (n, node) = (shape.n, &self.nodes[index]);
        let board = self.board(index, n * n);
        let blank = node.blank as usize;
        for direction in Direction::ALL {
            let Some(from) = tile_to_slide(n, blank, direction) else { continue };
            if undo_known && direction == node.direction.opposite() {
                continue;
            }
            let tile = board[from];
            let hash = node.hash ^ zobrist(from, tile) ^ zobrist(blank, tile) ^ zobrist(blank, 0) ^ zobrist(from, 0);
            if seen.contains(&hash) {
                continue;
            }
            let distance = shape.estimator.slide(&node.distance, board, tile, from, blank);
            // The parent's debt: the child's own is only followed for those the layer keeps.
            let key = (u64::from(distance + node.score - node.distance) << 32) | (hash & 0xffff_ffff);
            out.push(Child { key, hash, parent: index as u32, direction, blank: from as u32, distance });
        }
    }

    /// Makes `children` of this layer into `next`: each one's tiles (its parent's, slid), and
    /// with `scratch` its rings left behind (from its parent's) and their debt in its score.
    pub(super) fn make(&self, shape: &Shape<'_>, children: &[Child], scratch: &mut Scratch, next: &mut Layer) {
        let cells = shape.n * shape.n;
        let middle = children.len() / 2;
        let [first, second] = &mut next.halves;
        let (mine, spare) = match scratch {
            Some([mine, spare]) => (Some(mine), Some(spare)),
            None => (None, None),
        };
        let parallel = children.len() * cells >= PARALLEL_CELLS;
        let (mut nodes, rest) = both(
            &shape.helpers,
            parallel,
            || self.make_half(&children[..middle], cells, mine, first),
            || self.make_half(&children[middle..], cells, spare, second),
        );
        nodes.extend(rest);
        next.nodes = nodes;
        next.split = middle;
    }

    fn make_half(&self, children: &[Child], cells: usize, mut rings: Option<&mut Rings>, half: &mut Half) -> Vec<Node> {
        half.tiles.clear();
        half.left_behind.clear();
        let mut nodes = Vec::with_capacity(children.len());
        for child in children {
            let parent = &self.nodes[child.parent as usize];
            let start = half.tiles.len();
            half.tiles.extend_from_slice(self.board(child.parent as usize, cells));
            half.tiles.swap(start + parent.blank as usize, start + child.blank as usize);
            let first = half.left_behind.len();
            if let Some(rings) = rings.as_deref_mut() {
                let board = &half.tiles[start..start + cells];
                let before = self.left_behind(child.parent as usize);
                rings.after(board, parent.blank as usize, child.blank as usize, before, &mut half.left_behind);
            }
            nodes.push(Node {
                blank: child.blank,
                distance: child.distance,
                score: child.distance + rings::debt(&half.left_behind[first..]),
                direction: child.direction,
                hash: child.hash,
                left_behind: (first as u32, half.left_behind.len() as u32),
            });
        }
        nodes
    }
}

/// Runs `first` here and `second` on a core `helpers` lend, when `parallel` and one is free;
/// else both here, one after the other.
fn both<A: Send, B: Send>(
    helpers: &Helpers,
    parallel: bool,
    first: impl FnOnce() -> A + Send,
    second: impl FnOnce() -> B + Send,
) -> (A, B) {
    let Some(lease) = parallel.then(|| helpers.lend()).flatten() else {
        return (first(), second());
    };
    let answers = std::thread::scope(|scope| {
        let helper = scope.spawn(second);
        let mine = first();
        (mine, helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    drop(lease);
    answers
}

/// The Zobrist value of `tile` at `cell`, mixed from the pair rather than kept in a table of
/// cells × tiles.
#[inline]
fn zobrist(cell: usize, tile: u16) -> u64 {
    let mut z = (((cell as u64) << 16) | u64::from(tile)).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
