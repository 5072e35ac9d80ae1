//! One IDA* iteration split across cores (after Rao, Kumar & Ramesh's parallel IDA*, with a
//! shared work queue instead of stealing).
//!
//! The search's own thread expands the top of the tree breadth-first, within the iteration's
//! bound, until the layer holds enough nodes to share out ([`PIECES_PER_THREAD`] per thread);
//! those nodes are the pieces. The search's thread and its helpers then take pieces off a shared
//! counter, nearest the goal first (below), and search each below its node with the ordinary
//! bounded depth-first search (`dfs`). A piece is a few moves from the root, replayed on the
//! taker's own copy of the board, so nothing but the counter, the least cut f, each piece's
//! least h and the answer is shared. A search with no helper splits its iterations all the same,
//! for the order.
//!
//! A helper holds a lease on a core for each piece ([`Helpers::lend`]), and stops helping when
//! none is free. The first path found ends the iteration: every thread checks a shared flag
//! every few thousand nodes. Any path found within an IDA* bound is as short as the sequential
//! search's would be (the bound is the least f the last iteration cut, so no path is shorter), and
//! with a weight it is within the weight of the minimum all the same.
//!
//! Nearest the goal first: each piece keeps the least h its search reached, and the next
//! iteration's pieces (a layer at the same depth or above, as a higher bound widens the tree)
//! take the least of the pieces below them, or their own h where the last iteration had none.
//! An iteration that proves a bound searches every piece whatever their order, but the last one
//! stops at its first path, and in depth-first order the pieces that hold one were often among
//! the last. A path of the coming bound passes close to the goal, so the last iteration's search
//! below it came close too (see `docs/performance.md`, "2026-12-06 — Pieces nearest the goal
//! first").
//!
//! Node counts: helpers add theirs to shared counters every [`CHECK_INTERVAL`] nodes, and stop
//! once they have spent the node budget left; the search's thread folds their counts into its
//! [`Meter`] as often, so the node budget, the clocks, the stop flag and progress reports cover
//! every thread, and it keeps polling them while it waits for the helpers' last pieces.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use super::dfs::{self, Outcome, Position, ROOT, START, SubtreeRoot, Tally, Threshold};
use crate::solver::error::SearchError;
use crate::solver::helper_threads::{Helpers, Lease};
use crate::solver::heuristic::Estimator;
use crate::solver::meter::{CHECK_INTERVAL, Meter};

/// Pieces per thread: enough that the pieces' very uneven sizes even out.
const PIECES_PER_THREAD: usize = 512;

/// The deepest layer the pieces are cut at.
const MAX_SPLIT_DEPTH: usize = 32;

/// How often the search's thread polls its limits while helpers finish.
const POLL: Duration = Duration::from_millis(2);

/// A node of the layer the iteration is split at: the moves from the root that reach it.
#[derive(Clone, Copy)]
pub(super) struct Piece {
    moves: [u8; MAX_SPLIT_DEPTH],
    len: u8,
    /// The least h known at or below the node: its own, or what a search below it reached.
    closest: u32,
}

impl Piece {
    const ROOT: Piece = Piece { moves: [0; MAX_SPLIT_DEPTH], len: 0, closest: u32::MAX };

    pub(super) fn moves(&self) -> &[u8] {
        &self.moves[..usize::from(self.len)]
    }

    /// The child reached by `direction`, whose h is `h`.
    fn child(&self, direction: u8, h: u32) -> Piece {
        let mut child = *self;
        child.moves[usize::from(self.len)] = direction;
        child.len += 1;
        child.closest = h;
        child
    }

    /// Sets `puzzle` (a copy of `root`) to this piece's node and returns where a search from it
    /// starts. Every move of a piece fits the board: `layer` made it from a legal slide.
    pub(super) fn enter<E: Estimator>(
        &self,
        puzzle: &mut Position,
        root: &Position,
        estimator: &E,
        memo: E::Memo,
    ) -> SubtreeRoot<E::Memo> {
        enter(self.moves(), puzzle, root, estimator, memo)
    }
}

/// Sets `puzzle` (a copy of `root`, whose memo is `memo`) to the node that `moves` reach and
/// returns where a search from it starts. A move that does not fit (no tile slides that way, or
/// it completes a duplicate) is skipped: the start's `g` then falls short of the moves.
pub(super) fn enter<E: Estimator>(
    moves: &[u8],
    puzzle: &mut Position,
    root: &Position,
    estimator: &E,
    memo: E::Memo,
) -> SubtreeRoot<E::Memo> {
    puzzle.reset(root);
    let mut start = SubtreeRoot { memo, g: 0, last: ROOT, state: START };
    for &direction in moves {
        if let Some((from, state)) = puzzle.slider(direction, start.state) {
            let tile = puzzle.tiles()[from];
            start.memo = estimator.slide(&start.memo, puzzle.tiles(), tile, from, puzzle.blank());
            puzzle.slide(from);
            start = SubtreeRoot { memo: start.memo, g: start.g + 1, last: direction, state };
        }
    }
    start
}

/// What one iteration leaves the next: its pieces, in the layer's order (the order of their
/// moves), each with the least h its search reached. Empty before the first split iteration; an
/// iteration that did not search every piece leaves the one before it in place.
#[derive(Default)]
pub struct History {
    pieces: Vec<Piece>,
}

impl History {
    /// Sets each of `pieces` (a layer, in its order) to the least h the last iteration reached
    /// below it, where that iteration searched there, and puts them nearest the goal first
    /// (the layer's order among equals).
    pub(super) fn order(&self, pieces: &mut [Piece]) {
        if let Some(depth) = self.pieces.first().map(|piece| usize::from(piece.len)) {
            for piece in pieces.iter_mut() {
                let prefix = &piece.moves()[..depth.min(usize::from(piece.len))];
                let key = |old: &Piece| old.moves()[..prefix.len()].cmp(prefix);
                let start = self.pieces.partition_point(|old| key(old).is_lt());
                let end = self.pieces.partition_point(|old| key(old).is_le());
                if let Some(closest) = self.pieces[start..end].iter().map(|old| old.closest).min() {
                    piece.closest = closest;
                }
            }
        }
        pieces.sort_by_key(|piece| piece.closest);
    }

    /// Keeps `pieces`, every one searched, with the least h at or below each (`closest`).
    pub(super) fn keep(&mut self, mut pieces: Vec<Piece>, closest: &[u32]) {
        for (piece, &closest) in pieces.iter_mut().zip(closest) {
            piece.closest = closest;
        }
        pieces.sort_by(|a, b| a.moves().cmp(b.moves()));
        self.pieces = pieces;
    }
}

/// What the threads of one iteration share.
struct Shared {
    /// The next piece to take.
    next: AtomicUsize,
    /// For each piece, the least h its search reached.
    closest: Vec<AtomicU32>,
    /// Pieces searched to the end.
    searched: AtomicUsize,
    /// The least f cut so far.
    cut: AtomicU64,
    /// The first path found, as moves from the root.
    found: Mutex<Option<Vec<u8>>>,
    /// A path is found or the search failed: every thread stops.
    done: AtomicBool,
    /// Nodes the helpers have expanded and generated, added up every few thousand.
    expanded: AtomicU64,
    generated: AtomicU64,
    /// Nodes the search's own thread has expanded in the iteration, as of its last fold.
    lead_expanded: AtomicU64,
    /// The node budget left when the iteration began: helpers stop once it is spent.
    allowance: u64,
}

impl Shared {
    fn found(&self, path: Vec<u8>) {
        if let Ok(mut found) = self.found.lock() {
            found.get_or_insert(path);
        }
        self.done.store(true, Ordering::Relaxed);
    }

    fn is_done(&self) -> bool {
        self.done.load(Ordering::Relaxed)
    }
}

/// The search's fixed inputs for one iteration.
pub(super) struct Iteration<'e, E: Estimator> {
    pub(super) root: &'e Position,
    pub(super) estimator: &'e E,
    pub(super) memo: E::Memo,
    pub(super) bound: Threshold,
}

/// Runs one iteration within `bound` from `root` (not the goal, and counted already) on the
/// search's thread and up to `helpers` more, its pieces ordered by `history`, which it then
/// updates if it searched every piece. The iteration's outcome is the sequential search's: a
/// path from the root, or the least f cut.
pub fn iterate<E>(
    root: &Position,
    estimator: &E,
    memo: E::Memo,
    bound: Threshold,
    helpers: &Helpers,
    history: &mut History,
    meter: &mut Meter<'_>,
) -> Result<Outcome, SearchError>
where
    E: Estimator + Sync,
    E::Memo: Send + Sync,
{
    let iteration = Iteration { root, estimator, memo, bound };
    let (mut pieces, cut) = layer(&iteration, (helpers.threads() + 1) * PIECES_PER_THREAD, meter)?;
    history.order(&mut pieces);
    let shared = Shared {
        next: AtomicUsize::new(0),
        closest: pieces.iter().map(|_| AtomicU32::new(u32::MAX)).collect(),
        searched: AtomicUsize::new(0),
        cut: AtomicU64::new(cut),
        found: Mutex::new(None),
        done: AtomicBool::new(false),
        expanded: AtomicU64::new(0),
        generated: AtomicU64::new(0),
        lead_expanded: AtomicU64::new(0),
        allowance: meter.nodes_left(),
    };
    let mut lead = Lead { meter, shared: &shared, folded: (0, 0), own: 0 };
    let result = thread::scope(|scope| {
        let workers: Vec<_> = (0..helpers.threads())
            .map(|_| {
                scope.spawn(|| {
                    let mut share = Share { shared: &shared, expanded: 0, generated: 0, flushed: (0, 0) };
                    // A helper's error only says that the iteration ended.
                    let _ = work(&iteration, &pieces, &shared, &mut share, || helpers.lend());
                    // The search's thread sees the spent budget when it folds these counts in.
                    let _ = share.flush();
                })
            })
            .collect();
        let mut result = work(&iteration, &pieces, &shared, &mut lead, || Some(Lease::new(())));
        while !workers.iter().all(|worker| worker.is_finished()) {
            if result.is_err() {
                shared.done.store(true, Ordering::Relaxed);
            } else {
                result = lead.fold().and_then(|()| lead.meter.checkpoint(bound.proven, 0));
            }
            thread::sleep(POLL);
        }
        result
    });
    // The helpers are done: their last counts are in.
    let folded = lead.fold();
    let found = shared.found.into_inner().ok().flatten();
    match (found, result.and(folded)) {
        (Some(path), _) => Ok(Outcome::Found(path)),
        (None, Err(error)) => Err(error),
        (None, Ok(())) => {
            let closest = shared.closest.iter().map(|slot| slot.load(Ordering::Relaxed)).min().unwrap_or(u32::MAX);
            if shared.searched.into_inner() == pieces.len() {
                let closest: Vec<u32> = shared.closest.iter().map(|slot| slot.load(Ordering::Relaxed)).collect();
                history.keep(pieces, &closest);
            }
            Ok(Outcome::Cut { f: shared.cut.into_inner(), closest })
        }
    }
}

/// The pieces: the first layer, breadth-first from the root within the bound, with at least
/// `wanted` nodes (or the layer at [`MAX_SPLIT_DEPTH`]), and the least f cut above it. A goal
/// node above that layer is the only piece.
pub(super) fn layer<E: Estimator>(
    iteration: &Iteration<'_, E>,
    wanted: usize,
    meter: &mut Meter<'_>,
) -> Result<(Vec<Piece>, u64), SearchError> {
    let Threshold { f: bound, weight, proven } = iteration.bound;
    let mut layer = vec![Piece::ROOT];
    let mut cut = u64::MAX;
    let mut puzzle = iteration.root.clone();
    while layer.len() < wanted && layer.first().is_some_and(|piece| usize::from(piece.len) < MAX_SPLIT_DEPTH) {
        let mut next = Vec::with_capacity(layer.len() * 3);
        for piece in &layer {
            let start = piece.enter(&mut puzzle, iteration.root, iteration.estimator, iteration.memo);
            if iteration.estimator.value(&start.memo) == 0 && puzzle.is_goal() {
                return Ok((vec![*piece], cut));
            }
            for direction in 0..4 {
                let Some((from, _)) = puzzle.slider(direction, start.state) else { continue };
                let tile = puzzle.tiles()[from];
                meter.generated += 1;
                let limit = weight.h_within(start.g + 1, bound);
                let mut child = start.memo;
                match iteration.estimator.slide_within(&mut child, puzzle.tiles(), tile, from, puzzle.blank(), limit) {
                    Err(over) => cut = cut.min(weight.f(start.g + 1, over)),
                    Ok(_) => {
                        meter.expand(proven, || u64::from(start.g + 1))?;
                        next.push(piece.child(direction, iteration.estimator.value(&child)));
                    }
                }
            }
        }
        if next.is_empty() {
            return Ok((next, cut));
        }
        layer = next;
    }
    Ok((layer, cut))
}

/// Takes pieces until none is left, the iteration is done, or no core is lent, and searches
/// below each one.
fn work<E: Estimator, T: Tally>(
    iteration: &Iteration<'_, E>,
    pieces: &[Piece],
    shared: &Shared,
    tally: &mut T,
    lend: impl Fn() -> Option<Lease>,
) -> Result<(), SearchError> {
    let mut puzzle = iteration.root.clone();
    let mut stack = Vec::new();
    while !shared.is_done() {
        let Some(_lease) = lend() else { break };
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(piece) = pieces.get(index) else { break };
        let start = piece.enter(&mut puzzle, iteration.root, iteration.estimator, iteration.memo);
        if iteration.estimator.value(&start.memo) == 0 && puzzle.is_goal() {
            shared.found(piece.moves().to_vec());
            break;
        }
        match dfs::bounded(&mut puzzle, iteration.estimator, start, iteration.bound, tally, &mut stack)? {
            Outcome::Found(path) => {
                shared.found([piece.moves(), &path].concat());
                break;
            }
            Outcome::Cut { f, closest } => {
                shared.cut.fetch_min(f, Ordering::Relaxed);
                if let Some(slot) = shared.closest.get(index) {
                    slot.store(closest.min(iteration.estimator.value(&start.memo)), Ordering::Relaxed);
                }
                shared.searched.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    Ok(())
}

/// The search's own thread: counts go to its [`Meter`], with the helpers' folded in.
struct Lead<'m, 'a, 's> {
    meter: &'m mut Meter<'a>,
    shared: &'s Shared,
    /// The helpers' counts already folded into the meter.
    folded: (u64, u64),
    /// Nodes this thread expanded in the iteration.
    own: u64,
}

impl Lead<'_, '_, '_> {
    /// Adds the helpers' new counts to the meter, which checks its node budget.
    fn fold(&mut self) -> Result<(), SearchError> {
        self.shared.lead_expanded.store(self.own, Ordering::Relaxed);
        let expanded = self.shared.expanded.load(Ordering::Relaxed);
        let generated = self.shared.generated.load(Ordering::Relaxed);
        let (old_expanded, old_generated) = std::mem::replace(&mut self.folded, (expanded, generated));
        self.meter.absorb(expanded - old_expanded, generated - old_generated)
    }
}

impl Tally for Lead<'_, '_, '_> {
    #[inline]
    fn expand(&mut self, priority: u32, depth: impl FnOnce() -> u64) -> Result<(), SearchError> {
        self.own += 1;
        if self.own.is_multiple_of(CHECK_INTERVAL) {
            self.fold()?;
            if self.shared.is_done() {
                return Err(SearchError::Cancelled { expanded: self.meter.expanded });
            }
        }
        self.meter.expand(priority, depth)
    }

    #[inline]
    fn generate(&mut self) {
        self.meter.generated += 1;
    }
}

/// A helper thread: counts its own nodes and adds them to the shared ones now and then.
struct Share<'s> {
    shared: &'s Shared,
    expanded: u64,
    generated: u64,
    flushed: (u64, u64),
}

impl Share<'_> {
    /// Adds the new counts to the shared ones; false once the search has spent its budget.
    fn flush(&mut self) -> bool {
        let (expanded, generated) = std::mem::replace(&mut self.flushed, (self.expanded, self.generated));
        let before = self.shared.expanded.fetch_add(self.expanded - expanded, Ordering::Relaxed);
        self.shared.generated.fetch_add(self.generated - generated, Ordering::Relaxed);
        let lead = self.shared.lead_expanded.load(Ordering::Relaxed);
        before + self.expanded - expanded + lead < self.shared.allowance
    }
}

impl Tally for Share<'_> {
    #[inline]
    fn expand(&mut self, _: u32, _: impl FnOnce() -> u64) -> Result<(), SearchError> {
        self.expanded += 1;
        if self.expanded.is_multiple_of(CHECK_INTERVAL) && (!self.flush() || self.shared.is_done()) {
            return Err(SearchError::Cancelled { expanded: self.expanded });
        }
        Ok(())
    }

    #[inline]
    fn generate(&mut self) {
        self.generated += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The piece reached by `moves` from the root, whose own h is `h`.
    fn piece(moves: &[u8], h: u32) -> Piece {
        moves.iter().fold(Piece::ROOT, |piece, &direction| piece.child(direction, h))
    }

    /// `history` holding these pieces, as searched with the least h each reached.
    fn searched(pieces: &[(&[u8], u32)]) -> History {
        let mut history = History::default();
        let closest: Vec<u32> = pieces.iter().map(|&(_, h)| h).collect();
        history.keep(pieces.iter().map(|&(moves, _)| piece(moves, 99)).collect(), &closest);
        history
    }

    fn order(history: &History, layer: &[(&[u8], u32)]) -> Vec<(Vec<u8>, u32)> {
        let mut pieces: Vec<Piece> = layer.iter().map(|&(moves, h)| piece(moves, h)).collect();
        history.order(&mut pieces);
        pieces.iter().map(|piece| (piece.moves().to_vec(), piece.closest)).collect()
    }

    #[test]
    fn a_layer_above_the_last_takes_the_least_h_below_each_piece_and_runs_nearest_first() {
        // Kept out of order: `keep` sorts them by their moves.
        let history = searched(&[(&[2, 3], 5), (&[0, 0], 30), (&[0, 1], 10), (&[1, 0], 20)]);
        let layer: &[(&[u8], u32)] = &[(&[0], 40), (&[1], 41), (&[2], 42), (&[3], 43)];
        let expected = [(vec![2], 5), (vec![0], 10), (vec![1], 20), (vec![3], 43)];
        assert_eq!(order(&history, layer), expected, "[3] was cut last time: its own h");
    }

    #[test]
    fn a_layer_below_the_last_takes_its_ancestors_h_and_keeps_the_layers_order_among_equals() {
        let history = searched(&[(&[0], 10), (&[1], 7)]);
        let layer: &[(&[u8], u32)] = &[(&[0, 1], 50), (&[0, 2], 50), (&[1, 3], 50), (&[2, 0], 3)];
        let expected = [(vec![2, 0], 3), (vec![1, 3], 7), (vec![0, 1], 10), (vec![0, 2], 10)];
        assert_eq!(order(&history, layer), expected);
    }

    #[test]
    fn without_a_history_the_pieces_run_by_their_own_h() {
        let layer: &[(&[u8], u32)] = &[(&[0], 12), (&[1], 11), (&[2], 12)];
        let expected = [(vec![1], 11), (vec![0], 12), (vec![2], 12)];
        assert_eq!(order(&History::default(), layer), expected);
    }
}
