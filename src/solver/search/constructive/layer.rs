//! One layer of the retrace's beam (`retrace`): its boards and the children they lead to.
//!
//! A layer's boards are copied whole, a slide apart from their parents', one after another
//! in one array; each child's rings left behind are followed from its parent's list, so a
//! layer of a big board is mostly copying and reading cells.

use std::collections::HashSet;

use crate::board::{Direction, tile_to_slide};
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;

use super::rings::{self, LeftBehind, Rings};

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
    /// Its rings left behind: a range of its layer's list of them.
    left_behind: (u32, u32),
}

/// The scratch the beam follows rings with, when it counts debts.
pub(super) type Scratch = Option<Rings>;

/// The shape of the boards and what ranks them: the same for every layer of a beam.
pub(super) struct Shape<'e> {
    pub n: usize,
    pub estimator: &'e LinearConflict,
}

/// A layer of the beam: its nodes, their tiles one after another, and the lists of their
/// rings left behind.
pub(super) struct Layer {
    pub nodes: Vec<Node>,
    tiles: Vec<u16>,
    left_behind: Vec<LeftBehind>,
}

impl Layer {
    /// The layer of `root` alone, its blank at `blank`, with its rings left behind found on
    /// the whole board when `scratch` counts debts.
    pub(super) fn root(shape: &Shape<'_>, root: &[u16], blank: usize, scratch: &mut Scratch) -> Layer {
        let mut left_behind = Vec::new();
        if let Some(rings) = scratch {
            rings.left_behind(root, blank, &mut left_behind);
        }
        let distance = shape.estimator.start(root);
        let node = Node {
            blank: blank as u32,
            distance,
            score: distance + rings::debt(&left_behind),
            direction: Direction::Up,
            hash: root.iter().enumerate().fold(0, |hash, (cell, &tile)| hash ^ zobrist(cell, tile)),
            left_behind: (0, left_behind.len() as u32),
        };
        Layer { nodes: vec![node], tiles: root.to_vec(), left_behind }
    }

    /// A layer with no boards, whose buffers [`Self::make`] fills.
    pub(super) fn empty() -> Layer {
        Layer { nodes: Vec::new(), tiles: Vec::new(), left_behind: Vec::new() }
    }

    /// The tiles of the board at `index`.
    fn board(&self, index: usize, cells: usize) -> &[u16] {
        &self.tiles[index * cells..(index + 1) * cells]
    }

    /// Puts in `children` every child of the layer's boards that is not `seen` and does not
    /// undo its parent's move (from the second layer on, `undo_known`), keyed by its distance
    /// plus its parent's debt.
    pub(super) fn children(&self, shape: &Shape<'_>, undo_known: bool, seen: &HashSet<u64>, children: &mut Vec<Child>) {
        let n = shape.n;
        children.clear();
        for (index, node) in self.nodes.iter().enumerate() {
            let board = self.board(index, n * n);
            let blank = node.blank as usize;
            for direction in Direction::ALL {
                let Some(from) = tile_to_slide(n, blank, direction) else { continue };
                if undo_known && direction == node.direction.opposite() {
                    continue;
                }
                let tile = board[from];
                let hash =
                    node.hash ^ zobrist(from, tile) ^ zobrist(blank, tile) ^ zobrist(blank, 0) ^ zobrist(from, 0);
                if seen.contains(&hash) {
                    continue;
                }
                let distance = shape.estimator.slide(&node.distance, board, tile, from, blank);
                // The parent's debt: the child's own is only followed for those the layer keeps.
                let key = (u64::from(distance + node.score - node.distance) << 32) | (hash & 0xffff_ffff);
                children.push(Child { key, hash, parent: index as u32, direction, blank: from as u32, distance });
            }
        }
    }

    /// Makes `children` of this layer into `next`: each one's tiles (its parent's, slid), and
    /// with `scratch` its rings left behind (from its parent's) and their debt in its score.
    pub(super) fn make(&self, shape: &Shape<'_>, children: &[Child], scratch: &mut Scratch, next: &mut Layer) {
        let cells = shape.n * shape.n;
        next.nodes.clear();
        next.tiles.clear();
        next.left_behind.clear();
        for child in children {
            let parent = &self.nodes[child.parent as usize];
            let start = next.tiles.len();
            next.tiles.extend_from_slice(self.board(child.parent as usize, cells));
            next.tiles.swap(start + parent.blank as usize, start + child.blank as usize);
            let first = next.left_behind.len();
            if let Some(rings) = scratch {
                let board = &next.tiles[start..start + cells];
                let (from, to) = parent.left_behind;
                let before = &self.left_behind[from as usize..to as usize];
                rings.after(board, parent.blank as usize, child.blank as usize, before, &mut next.left_behind);
            }
            next.nodes.push(Node {
                blank: child.blank,
                distance: child.distance,
                score: child.distance + rings::debt(&next.left_behind[first..]),
                direction: child.direction,
                hash: child.hash,
                left_behind: (first as u32, next.left_behind.len() as u32),
            });
        }
    }
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
