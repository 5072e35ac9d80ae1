//! Retrace: a short path for a big board near its goal, where placing rows and columns walks
//! the blank along every line of the unsolved region and pays many times the distance.
//!
//! Near the goal, the misplaced tiles lie along the trail the blank left, and the linear
//! conflict distance falls by one with each step back along it. So a beam over single moves
//! ([`WIDTH`] boards a layer, no board twice) walks back down, and stops [`STUCK_LAYERS`]
//! layers after its last new best, keeping the path to that best. It ranks boards by that
//! distance plus the debt of the rings they leave behind ([`super::rings`]): where the trail
//! crossed itself, a step back along it can skip a loop, and the trip back for it later costs
//! more than the whole loop.
//!
//! The beam sticks where the patch round the blank is done and the next one is far. Then the
//! tiles still misplaced near the blank are held where they are, the blank travels to the
//! nearest other misplaced tile, and the tiles it shifts on the way are held too: a held tile
//! counts as home where it stands, so the next beam works on the new patch alone. Once
//! nothing but held tiles is misplaced, they are all let go and a beam walks back along the
//! trails. The walk ends at the goal, or when letting go no longer lowers the distance; the
//! answer is the path to the best board reached with nothing held, which FAST's placing then
//! finishes.

use std::collections::{HashSet, VecDeque};

use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::error::SearchError;
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;
use crate::solver::meter::Meter;

use super::layer::{Layer, Scratch, Shape};
use super::rings::Rings;

/// The boards a layer of each beam keeps.
pub const WIDTH: usize = 256;

/// The layers a beam goes on past its last new best before it stops.
pub const STUCK_LAYERS: usize = 40;

/// How far from the blank, in rows and columns, a misplaced tile belongs to the patch the
/// beam left unfinished (with every misplaced tile next to one that does).
const PATCH_REACH: usize = 2;

/// The moves from `board` to the best board the walk reaches with no tile held, at most
/// about `max_moves` of them; the goal when the walk gets there. The meter counts the boards
/// the beams expand; when its budget or clock runs out, the walk ends with the best board
/// reached so far (a beam's best included), and any other error of the meter ends it.
pub(in crate::solver::search) fn walk(
    board: &Board,
    max_moves: usize,
    meter: &mut Meter<'_>,
) -> Result<Vec<Direction>, SearchError> {
    let mut walk = Walk::new(board);
    let mut last_release = u32::MAX;
    let mut best = (u32::MAX, 0);
    loop {
        let debts = walk.holds_nothing();
        let (moves, left, ended) = beam(walk.n, &walk.estimator, &walk.labels(), walk.blank, debts, meter)?;
        walk.apply(&moves)?;
        let distance = walk.estimator.start(&walk.tiles);
        if walk.holds_nothing() && distance < best.0 {
            best = (distance, walk.path.len());
        }
        if ended || distance == 0 || walk.path.len() > max_moves {
            break;
        }
        if left > 0 {
            walk.hold_patch();
            if walk.travel()? {
                continue;
            }
        }
        if walk.holds_nothing() || distance >= last_release {
            break;
        }
        last_release = distance;
        walk.release();
    }
    walk.path.truncate(best.1);
    Ok(walk.path)
}

/// The board as the walk leaves it, the moves that brought it there, and where each tile
/// counts as home: its goal, or where it is held.
struct Walk {
    n: usize,
    estimator: LinearConflict,
    tiles: Vec<u16>,
    blank: usize,
    path: Vec<Direction>,
    /// By tile: the cell it counts as home.
    home: Vec<usize>,
}

impl Walk {
    fn new(board: &Board) -> Walk {
        let n = board.dimension();
        Walk {
            n,
            estimator: LinearConflict::new(n),
            tiles: board.tiles().to_vec(),
            blank: board.blank_index(),
            path: Vec::new(),
            home: Walk::goals(n),
        }
    }

    /// By tile, its goal cell (the blank's entry is never read).
    fn goals(n: usize) -> Vec<usize> {
        (0..=n * n).map(|tile| tile.saturating_sub(1)).collect()
    }

    fn holds_nothing(&self) -> bool {
        self.home.iter().enumerate().all(|(tile, &home)| home == tile.saturating_sub(1))
    }

    fn release(&mut self) {
        self.home = Walk::goals(self.n);
    }

    /// The board with each tile named by the cell it counts as home, as the beam reads it.
    fn labels(&self) -> Vec<u16> {
        self.tiles.iter().map(|&tile| if tile == 0 { 0 } else { self.home[usize::from(tile)] as u16 + 1 }).collect()
    }

    fn is_misplaced(&self, cell: usize) -> bool {
        let tile = self.tiles[cell];
        tile != 0 && self.home[usize::from(tile)] != cell
    }

    /// Slides the blank `direction`.
    fn slide(&mut self, direction: Direction) -> Result<(), SearchError> {
        let from = tile_to_slide(self.n, self.blank, direction)
            .ok_or_else(|| SearchError::Internal("a retrace move leaves the board".into()))?;
        self.tiles.swap(from, self.blank);
        self.blank = from;
        self.path.push(direction);
        Ok(())
    }

    fn apply(&mut self, moves: &[Direction]) -> Result<(), SearchError> {
        moves.iter().try_for_each(|&direction| self.slide(direction))
    }

    /// Holds the misplaced tiles within [`PATCH_REACH`] of the blank, and every misplaced tile
    /// next to a held one, where they stand.
    fn hold_patch(&mut self) {
        let n = self.n;
        let (row, col) = (self.blank / n, self.blank % n);
        let mut patch: Vec<usize> = (row.saturating_sub(PATCH_REACH)..=(row + PATCH_REACH).min(n - 1))
            .flat_map(|r| (col.saturating_sub(PATCH_REACH)..=(col + PATCH_REACH).min(n - 1)).map(move |c| r * n + c))
            .filter(|&cell| self.is_misplaced(cell))
            .collect();
        while let Some(cell) = patch.pop() {
            if !self.is_misplaced(cell) {
                continue;
            }
            self.home[usize::from(self.tiles[cell])] = cell;
            let (row, col) = (cell / n, cell % n);
            for r in row.saturating_sub(1)..=(row + 1).min(n - 1) {
                for c in col.saturating_sub(1)..=(col + 1).min(n - 1) {
                    if self.is_misplaced(r * n + c) {
                        patch.push(r * n + c);
                    }
                }
            }
        }
    }

    /// Takes the blank by a shortest route next to the nearest misplaced tile, holding the
    /// tiles it shifts where they land; `false` when no tile is misplaced.
    fn travel(&mut self) -> Result<bool, SearchError> {
        let n = self.n;
        let mut previous = vec![usize::MAX; n * n];
        previous[self.blank] = self.blank;
        let mut queue = VecDeque::from([self.blank]);
        let mut target = None;
        while let Some(cell) = queue.pop_front() {
            if self.is_misplaced(cell) {
                target = Some(cell);
                break;
            }
            for next in Direction::ALL.into_iter().filter_map(|direction| tile_to_slide(n, cell, direction)) {
                if previous[next] == usize::MAX {
                    previous[next] = cell;
                    queue.push_back(next);
                }
            }
        }
        let Some(target) = target else { return Ok(false) };
        let mut route = Vec::new();
        let mut cell = previous[target];
        while cell != self.blank {
            route.push(cell);
            cell = previous[cell];
        }
        for &cell in route.iter().rev() {
            let direction = Direction::ALL
                .into_iter()
                .find(|&direction| tile_to_slide(n, self.blank, direction) == Some(cell))
                .ok_or_else(|| SearchError::Internal("a retrace route skips a cell".into()))?;
            self.home[usize::from(self.tiles[cell])] = self.blank;
            self.slide(direction)?;
        }
        Ok(true)
    }
}

/// The moves of a beam from `root` (an `n`×`n` board, blank at `root_blank`) to the board of
/// best score it reaches, that board's distance, and whether the meter's budget or clock ran
/// out (else [`STUCK_LAYERS`] layers passed without a better score, or the goal was reached).
/// With `debts` (no tile held, so the labels are a permutation) a board's score is its
/// distance plus its rings' debt (`rings::debt`), else its distance alone: the root's rings
/// left behind are found on the whole board, each child's from its parent's.
fn beam(
    n: usize,
    estimator: &LinearConflict,
    root: &[u16],
    root_blank: usize,
    debts: bool,
    meter: &mut Meter<'_>,
) -> Result<(Vec<Direction>, u32, bool), SearchError> {
    let shape = Shape { n, estimator };
    let mut scratch: Scratch = debts.then(|| Rings::new(n));
    let mut layer = Layer::root(&shape, root, root_blank, &mut scratch);
    let mut next = Layer::empty();
    let root = layer.nodes[0];
    let mut seen = HashSet::from([root.hash]);
    let mut links: Vec<Vec<(u32, Direction)>> = Vec::new();
    let mut children = Vec::new();
    let (mut best, mut best_depth, mut best_distance, mut best_index) = (root.score, 0, root.distance, 0);
    let mut ended = false;
    'layers: while best > 0 && links.len() < best_depth + STUCK_LAYERS {
        for node in &layer.nodes {
            match meter.expand(node.distance, || layer.nodes.len() as u64) {
                Ok(()) => {}
                Err(error) if error.is_out_of_budget() => {
                    ended = true;
                    break 'layers;
                }
                Err(error) => return Err(error),
            }
        }
        layer.children(&shape, !links.is_empty(), &seen, &mut children);
        if children.len() > WIDTH {
            children.select_nth_unstable_by_key(WIDTH, |child| child.key);
            children.truncate(WIDTH);
        }
        children.sort_unstable_by_key(|child| child.key);
        children.dedup_by_key(|child| child.hash);
        if children.is_empty() {
            break;
        }
        seen.extend(children.iter().map(|child| child.hash));
        layer.make(&shape, &children, &mut scratch, &mut next);
        links.push(children.iter().map(|child| (child.parent, child.direction)).collect());
        std::mem::swap(&mut layer, &mut next);
        if let Some((top, node)) = layer.nodes.iter().enumerate().min_by_key(|(_, node)| node.score)
            && node.score < best
        {
            (best, best_depth, best_distance, best_index) = (node.score, links.len(), node.distance, top as u32);
        }
    }
    links.truncate(best_depth);
    let mut path = Vec::with_capacity(links.len());
    let mut index = best_index;
    for link in links.iter().rev() {
        let (parent, direction) = link[index as usize];
        path.push(direction);
        index = parent;
    }
    path.reverse();
    Ok((path, best_distance, ended))
}
