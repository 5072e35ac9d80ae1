//! `Estimator`: the one interface IDA* needs from a heuristic. A lower bound on the moves left,
//! carried from node to node in a small `Copy` memo and updated by each slide, so the search
//! never rescans the board.

/// A lower bound on the moves from a position to the goal, updated incrementally.
///
/// The search calls [`Estimator::start`] once on the root, then [`Estimator::slide`] for every
/// generated child. Implementations are monomorphised into the search loop (no `dyn`), so the
/// update inlines next to the move it follows.
pub trait Estimator {
    /// What one node carries for the heuristic: a running sum, tile positions, table indices.
    type Memo: Copy;

    /// The memo of the row-major position `tiles` (0 = blank).
    fn start(&self, tiles: &[u16]) -> Self::Memo;

    /// The bound a memo stands for.
    fn value(&self, memo: &Self::Memo) -> u32;

    /// The memo after `tile`, at cell `from` of `tiles`, slides into the blank at cell `to`.
    /// `tiles` is the position before the slide.
    fn slide(&self, memo: &Self::Memo, tiles: &[u16], tile: u16, from: usize, to: usize) -> Self::Memo;

    /// Asks the memory system for what [`Estimator::slide_within`] of this slide reads first,
    /// without waiting for it. The search calls it for every child of a node it enters, before
    /// reading any, so that the children's reads overlap instead of waiting in turn. `tiles`
    /// is the position before the slide.
    #[inline]
    fn prefetch(&self, _memo: &Self::Memo, _tiles: &[u16], _tile: u16, _from: usize, _to: usize) {}

    /// Asks the memory system for everything [`Estimator::slide`] of this slide reads first,
    /// every part's and not only the first: for a search that needs each child's whole value,
    /// such as a beam, and can ask well ahead of its reads.
    #[inline]
    fn prefetch_slide(&self, _memo: &Self::Memo, _tile: u16, _from: usize, _to: usize) {}

    /// Moves `memo`, a copy of the parent's, to the child's after the slide, and returns `Ok` if
    /// the child's bound is at most `limit`, else `Err` with a lower bound on its value above
    /// `limit` (and `memo` holds nothing of use). The search prunes such a child anyway, so an
    /// estimator made of several parts may stop at the first part that is over. The search
    /// passes the copy where it keeps the child, so that the child is not copied there
    /// afterwards: a memo updated in narrow writes and then copied whole makes the copy wait
    /// for the writes.
    #[inline]
    fn slide_within(
        &self,
        memo: &mut Self::Memo,
        tiles: &[u16],
        tile: u16,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Result<(), u32> {
        *memo = self.slide(memo, tiles, tile, from, to);
        match self.value(memo) {
            value if value > limit => Err(value),
            _ => Ok(()),
        }
    }
}
