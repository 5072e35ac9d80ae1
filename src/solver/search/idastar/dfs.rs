//! One bounded depth-first search of IDA*: every node below a starting node whose
//! f = g + w·h is within the iteration's bound, in the order of [`Direction::ALL`].
//!
//! The inner loop follows Burns et al., "Implementing fast heuristic search code" (2012): one
//! board of tiles changed and restored in place, the blank's neighbours from a table, the
//! heuristic a generic [`Estimator`] updated from the moved tile alone, and a child whose f is
//! over the bound rejected before it is entered. A move that completes a duplicate sequence (the
//! one that undoes the move before, and the longer ones of `duplicates`) is never tried: each
//! frame carries the duplicate machine's state. The search keeps its own stack of frames rather
//! than recursing, so a deep bound on a large board cannot overflow the thread's stack; nothing
//! is allocated per node once the stack has grown to the depth of the search. A child's memo is
//! moved in place, in the frame after its parent's, before the search knows whether it enters
//! the child: a memo updated in narrow writes and then copied whole into its frame made the
//! copy wait for the writes (a store-forwarding stall; see `docs/performance.md`, "2026-12-06 —
//! A child moved in place, and two sums prefetched").
//!
//! Entering a node asks the estimator to prefetch what each child will read first
//! ([`Estimator::prefetch`]), so that the children's cache misses overlap rather than wait in
//! turn, and works out once the largest h its children may have.
//!
//! The same loop runs a whole iteration from the root, or one piece of a split iteration from a
//! node of its frontier (see `split`); its node counts go to a [`Tally`].

use super::move_pruning::{self, PruningMachine};
use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::error::SearchError;
use crate::solver::heuristic::Estimator;
use crate::solver::meter::Meter;
use crate::solver::search::Weight;

/// No tile can slide this way.
const NONE: u32 = u32::MAX;

/// The `last` of a node no move led to: the root.
pub const ROOT: u8 = 4;

/// Where a search's node counts go: the [`Meter`] on the search's own thread, a helper's share
/// on the others.
pub trait Tally {
    /// Counts one expanded node; an error ends the search. `depth` gives the current path's
    /// length for a progress report.
    fn expand(&mut self, priority: u32, depth: impl FnOnce() -> u64) -> Result<(), SearchError>;

    /// Counts one generated child.
    fn generate(&mut self);
}

impl Tally for Meter<'_> {
    #[inline]
    fn expand(&mut self, priority: u32, depth: impl FnOnce() -> u64) -> Result<(), SearchError> {
        Meter::expand(self, priority, depth)
    }

    #[inline]
    fn generate(&mut self) {
        self.generated += 1;
    }
}

/// One node on the depth-first stack.
#[derive(Clone, Copy)]
pub struct Frame<M> {
    memo: M,
    /// The index into [`Direction::ALL`] of the next move to try.
    next: u8,
    /// The move that made this node, as an index into [`Direction::ALL`]; [`ROOT`] for none.
    last: u8,
    /// The duplicate machine's state after the moves that led here.
    state: u32,
    /// The largest h a child may have within the bound: worked out once for all the children
    /// (it takes a division).
    limit: u32,
}

/// The board being searched, changed in place.
#[derive(Clone)]
pub struct Position {
    tiles: Vec<u16>,
    blank: usize,
    /// For each cell and each direction, the cell whose tile would slide that way into a blank
    /// there, or [`NONE`].
    sliders: Vec<[u32; 4]>,
    /// For each direction's index, the index of the opposite direction.
    opposite: [u8; 4],
    /// The moves that complete a duplicate sequence on this board's size.
    duplicates: &'static PruningMachine,
}

impl Position {
    /// `board`, ready to be searched.
    pub fn new(board: &Board) -> Position {
        let n = board.dimension();
        let sliders = (0..n * n)
            .map(|cell| Direction::ALL.map(|d| tile_to_slide(n, cell, d).map_or(NONE, |from| from as u32)))
            .collect();
        let opposite = Direction::ALL.map(|d| index_of(d.opposite()));
        let duplicates = PruningMachine::for_dimension(n);
        Position { tiles: board.tiles().to_vec(), blank: board.blank_index(), sliders, opposite, duplicates }
    }

    /// Whether a deeper duplicate machine is to be had for this board's size than the one the
    /// puzzle uses.
    pub fn can_deepen(&self) -> bool {
        !self.duplicates.is_deepest(self.tiles.len().isqrt())
    }

    /// Moves the puzzle to the deepest duplicate machine of its size, built on `workers` threads
    /// if need be (see [`PruningMachine::deepest`]); keeps the one it has if `interrupted` ends the
    /// build first. Only between iterations: a machine's states mean nothing to another, and an
    /// iteration starts from the root's.
    pub fn deepen(&mut self, workers: usize, interrupted: &(dyn Fn() -> bool + Sync)) {
        if let Some(deepest) = PruningMachine::deepest(self.tiles.len().isqrt(), workers, interrupted) {
            self.duplicates = deepest;
        }
    }

    /// Puts this copy of `root` back where `root` stands.
    pub fn reset(&mut self, root: &Position) {
        self.tiles.copy_from_slice(&root.tiles);
        self.blank = root.blank;
    }

    /// The tiles, row-major, 0 for the blank.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The cell of the tile that would slide the way of `direction`'s index into the blank,
    /// and the duplicate machine's state after that move from `state`; `None` when no tile
    /// can, or when the move would complete a duplicate (such as undoing the move before).
    #[inline]
    pub fn slider(&self, direction: u8, state: u32) -> Option<(usize, u32)> {
        match self.sliders[self.blank][usize::from(direction)] {
            NONE => None,
            from => Some((from as usize, self.duplicates.step(state, direction, from as usize)?)),
        }
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Slides the tile at `from` into the blank.
    #[inline]
    pub fn slide(&mut self, from: usize) {
        self.tiles[self.blank] = self.tiles[from];
        self.tiles[from] = 0;
        self.blank = from;
    }

    /// Undoes the move whose direction's index is `last`.
    #[inline]
    fn undo(&mut self, last: u8) {
        let back = self.sliders[self.blank][usize::from(self.opposite[usize::from(last)])];
        self.slide(back as usize);
    }

    /// Asks `estimator` to prefetch what each child of the current node (`memo`, made by the
    /// move `last`) will read first, so that the children's reads overlap. The duplicate machine
    /// is not consulted: a wasted prefetch is cheaper than its step.
    #[inline]
    fn prefetch_children<E: Estimator>(&self, estimator: &E, memo: &E::Memo, last: u8) {
        let back = self.opposite.get(usize::from(last)).copied();
        for (direction, &from) in self.sliders[self.blank].iter().enumerate() {
            if from != NONE && back != Some(direction as u8) {
                let from = from as usize;
                estimator.prefetch(memo, &self.tiles, self.tiles[from], from, self.blank);
            }
        }
    }

    /// Whether every tile is home.
    pub fn is_goal(&self) -> bool {
        let last = self.tiles.len() - 1;
        self.tiles[last] == 0
            && self.tiles[..last].iter().enumerate().all(|(cell, &tile)| usize::from(tile) == cell + 1)
    }
}

/// Index of `direction` in [`Direction::ALL`].
fn index_of(direction: Direction) -> u8 {
    Direction::ALL.iter().position(|&d| d == direction).unwrap_or(0) as u8
}

/// Where a bounded search starts: the puzzle's current node.
#[derive(Debug, Clone, Copy)]
pub struct SubtreeRoot<M> {
    /// The heuristic's memo of the node.
    pub memo: M,
    /// Its depth below the root.
    pub g: u32,
    /// The move that led to it ([`ROOT`] for the root).
    pub last: u8,
    /// The duplicate machine's state after the moves from the root ([`START`] at the root).
    pub state: u32,
}

/// The duplicate machine's state at the root.
pub const START: u32 = move_pruning::START;

/// What a bounded search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A path to the goal, from the starting node, as indices into [`Direction::ALL`].
    Found(Vec<u8>),
    /// No goal within the bound.
    Cut {
        /// The least f over the bound, `u64::MAX` if none was cut.
        f: u64,
        /// The least h of the nodes entered below the start (`u32::MAX` if none): how close to
        /// the goal the search came, which tells the next iteration where to look first (see
        /// `split`).
        closest: u32,
    },
}

/// The search's bound and what it reports.
#[derive(Debug, Clone, Copy)]
pub struct Threshold {
    /// Nodes with f above this are cut.
    pub f: u64,
    /// f = g + weight·h.
    pub weight: Weight,
    /// The priority progress reports give: the bound the search has proved on the moves.
    pub proven: u32,
}

/// Searches every node below `start` (the puzzle's current node, which is not the goal and is
/// counted already) within `bound`. On [`Outcome::Cut`] the puzzle is back at `start`; on
/// [`Outcome::Found`] it is at the goal. `stack` is reused between calls.
pub fn bounded<E: Estimator, T: Tally>(
    puzzle: &mut Position,
    estimator: &E,
    start: SubtreeRoot<E::Memo>,
    bound: Threshold,
    tally: &mut T,
    stack: &mut Vec<Frame<E::Memo>>,
) -> Result<Outcome, SearchError> {
    stack.clear();
    let (weight, proven) = (bound.weight, bound.proven);
    // A node on the stack has f <= bound and is not the goal, so h >= 1 and a child's g is
    // within the bound: only its h needs a limit.
    let limit = |g: u32| weight.h_within(g + 1, bound.f);
    stack.push(Frame { memo: start.memo, next: 0, last: start.last, state: start.state, limit: limit(start.g) });
    // The frames in use: the stack only grows, and a child is written into the frame after its
    // parent's before it is known to be entered (see `Estimator::slide_within`).
    let mut depth = 1;
    let mut cut = u64::MAX;
    let mut closest = u32::MAX;
    loop {
        let g = start.g + depth as u32 - 1;
        let frame = &mut stack[depth - 1];
        if frame.next == 4 {
            if depth == 1 {
                break;
            }
            // Every move from here is tried: undo the move that led here.
            let last = frame.last;
            depth -= 1;
            puzzle.undo(last);
            continue;
        }
        let direction = frame.next;
        frame.next += 1;
        let Some((from, state)) = puzzle.slider(direction, frame.state) else { continue };
        let tile = puzzle.tiles[from];
        tally.generate();
        if depth == stack.len() {
            stack.push(stack[depth - 1]);
        }
        let (parents, children) = stack.split_at_mut(depth);
        let (frame, child) = (&parents[depth - 1], &mut children[0]);
        child.memo = frame.memo;
        if let Err(over) = estimator.slide_within(&mut child.memo, &puzzle.tiles, tile, from, puzzle.blank, frame.limit)
        {
            cut = cut.min(weight.f(g + 1, over));
            continue;
        }
        let h = estimator.value(&child.memo);
        closest = closest.min(h);
        puzzle.slide(from);
        puzzle.prefetch_children(estimator, &child.memo, direction);
        (child.next, child.last, child.state, child.limit) = (0, direction, state, limit(g + 1));
        depth += 1;
        if h == 0 && puzzle.is_goal() {
            return Ok(Outcome::Found(stack[1..depth].iter().map(|frame| frame.last).collect()));
        }
        tally.expand(proven, || u64::from(g + 1))?;
    }
    Ok(Outcome::Cut { f: cut, closest })
}
