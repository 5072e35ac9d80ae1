//! One IDA* iteration split across cores (after Rao, Kumar & Ramesh's parallel IDA*, with a
//! shared work queue instead of stealing).
//!
//! The search's own thread expands the top of the tree breadth-first, within the iteration's
//! bound, until the layer holds enough nodes to share out ([`PIECES_PER_THREAD`] per thread);
//! those nodes are the pieces. The search's thread and its helpers then take pieces off a shared
//! counter, in depth-first order, and search each below its node with the ordinary bounded
//! depth-first search (`dfs`). A piece is a few moves from the root, replayed on the taker's
//! own copy of the board, so nothing but the counter, the least cut f and the answer is shared.
//!
//! A helper holds a lease on a core for each piece ([`Helpers::lend`]), and stops helping when
//! none is free. The first path found ends the iteration: every thread checks a shared flag
//! every few thousand nodes. Any path found within an IDA* bound is as short as the sequential
//! search's would be (the bound is the least f the last iteration cut, so no path is shorter), and
//! with a weight it is within the weight of the minimum all the same.
//!
//! Node counts: helpers add theirs to shared counters every [`CHECK_INTERVAL`] nodes, and stop
//! once they have spent the node budget left; the search's thread folds their counts into its
//! [`Meter`] as often, so the node budget, the clocks, the stop flag and progress reports cover
//! every thread, and it keeps polling them while it waits for the helpers' last pieces.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use super::dfs::{self, Bound, Outcome, Puzzle, ROOT, START, Start, Tally};
use crate::solver::helpers::{Helpers, Lease};
use crate::solver::heuristic::Estimator;
use crate::solver::{CHECK_INTERVAL, Meter, SearchError};

/// Pieces per thread: enough that the pieces' very uneven sizes even out.
const PIECES_PER_THREAD: usize = 512;

/// The deepest layer the pieces are cut at.
const MAX_SPLIT_DEPTH: usize = 32;

/// How often the search's thread polls its limits while helpers finish.
const POLL: Duration = Duration::from_millis(2);

/// A node of the layer the iteration is split at: the moves from the root that reach it.
#[derive(Clone, Copy)]
struct Piece {
    moves: [u8; MAX_SPLIT_DEPTH],
    len: u8,
}

impl Piece {
    const ROOT: Piece = Piece { moves: [0; MAX_SPLIT_DEPTH], len: 0 };

    fn moves(&self) -> &[u8] {
        &self.moves[..usize::from(self.len)]
    }

    fn child(&self, direction: u8) -> Piece {
        let mut child = *self;
        child.moves[usize::from(self.len)] = direction;
        child.len += 1;
        child
    }

    /// Sets `puzzle` (a copy of `root`) to this piece's node and returns where a search from it
    /// starts. Every move of a piece fits the board: `layer` made it from a legal slide.
    fn enter<E: Estimator>(&self, puzzle: &mut Puzzle, root: &Puzzle, estimator: &E, memo: E::Memo) -> Start<E::Memo> {
        puzzle.reset(root);
        let mut start = Start { memo, g: 0, last: ROOT, state: START };
        for &direction in self.moves() {
            if let Some((from, state)) = puzzle.slider(direction, start.state) {
                let tile = puzzle.tiles()[from];
                start.memo = estimator.slide(&start.memo, puzzle.tiles(), tile, from, puzzle.blank());
                puzzle.slide(from);
                start = Start { memo: start.memo, g: start.g + 1, last: direction, state };
            }
        }
        start
    }
}

/// What the threads of one iteration share.
struct Shared {
    /// The next piece to take.
    next: AtomicUsize,
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
struct Iteration<'e, E: Estimator> {
    root: &'e Puzzle,
    estimator: &'e E,
    memo: E::Memo,
    bound: Bound,
}

/// Runs one iteration within `bound` from `root` (not the goal, and counted already) on the
/// search's thread and up to `helpers` more. The iteration's outcome is the sequential search's:
/// a path from the root, or the least f cut.
pub fn iterate<E>(
    root: &Puzzle,
    estimator: &E,
    memo: E::Memo,
    bound: Bound,
    helpers: &Helpers,
    meter: &mut Meter<'_>,
) -> Result<Outcome, SearchError>
where
    E: Estimator + Sync,
    E::Memo: Send + Sync,
{
    let iteration = Iteration { root, estimator, memo, bound };
    let (pieces, cut) = layer(&iteration, (helpers.threads() + 1) * PIECES_PER_THREAD, meter)?;
    let shared = Shared {
        next: AtomicUsize::new(0),
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
        (None, Ok(())) => Ok(Outcome::Cut(shared.cut.into_inner())),
    }
}

/// The pieces: the first layer, breadth-first from the root within the bound, with at least
/// `wanted` nodes (or the layer at [`MAX_SPLIT_DEPTH`]), and the least f cut above it. A goal
/// node above that layer is the only piece.
fn layer<E: Estimator>(
    iteration: &Iteration<'_, E>,
    wanted: usize,
    meter: &mut Meter<'_>,
) -> Result<(Vec<Piece>, u64), SearchError> {
    let Bound { f: bound, weight, proven } = iteration.bound;
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
                        next.push(piece.child(direction));
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
        let Some(piece) = pieces.get(shared.next.fetch_add(1, Ordering::Relaxed)) else { break };
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
            Outcome::Cut(cut) => {
                shared.cut.fetch_min(cut, Ordering::Relaxed);
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
