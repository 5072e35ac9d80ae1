//! Additive disjoint pattern databases for the 4×4 board (Korf & Felner 2002), and the
//! [`Estimator`] that reads them, maxed with its reflection about the main diagonal.
//!
//! A [`Partition`] splits the 15 tiles into disjoint patterns. For each pattern, a table holds,
//! for every placement of its tiles, the fewest moves *of those tiles* that bring them home, the
//! other tiles being indistinct and the blank free to go anywhere (the minimum over the blank's
//! cells). Since only a pattern's own moves are counted, the tables of a partition add up to a
//! lower bound. A slide moves one tile, so it changes one table's term only; that term can jump
//! by more than one when the minimum over the blank was reached in a region the blank cannot get
//! to for free, so the bound is admissible but not always consistent, which IDA* does not need.
//!
//! Reflection: mirroring the board about its main diagonal, cell (r, c) to (c, r), maps the goal
//! to itself once tile t is relabelled with the tile whose goal is t's goal cell mirrored. The
//! mirrored position is exactly as far from the goal, so the same tables read on it give a
//! second bound, and the larger of the two is still admissible. This costs a second lookup per
//! move (skipped when the direct sum already prunes the child) and helps whenever the partition
//! is not itself symmetric.
//!
//! A table for a k-tile pattern has 16!/(16-k)! entries of one byte, indexed by the mixed-radix
//! rank of the tiles' cells (see [`rank`]). The database files and their build are described in
//! `file` and `build`.

use std::fmt;

use super::error::PdbError;
use super::partition::{CELLS, DIMENSION, MAX_PATTERN_TILES, MAX_PATTERNS, Partition, placements, rank};
use crate::solver::heuristic::Estimator;

/// Cell (r, c) mirrored to (c, r).
const fn reflect_cell(cell: usize) -> usize {
    (cell % DIMENSION) * DIMENSION + cell / DIMENSION
}

/// The label of the tile whose goal cell is the mirror of `tile`'s goal cell.
const fn reflect_tile(tile: usize) -> usize {
    reflect_cell(tile - 1) + 1
}

/// The tables of one partition, ready to be read by [`PatternHeuristic`].
#[derive(Clone, PartialEq, Eq)]
pub struct PatternDatabases {
    partition: Partition,
    tables: Vec<Vec<u8>>,
}

impl fmt::Debug for PatternDatabases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatternDatabases")
            .field("partition", &self.partition.patterns())
            .field("bytes", &self.partition.table_bytes())
            .finish()
    }
}

impl PatternDatabases {
    /// Wraps tables built or read for `partition`, checking their sizes.
    pub fn from_tables(partition: Partition, tables: Vec<Vec<u8>>) -> Result<PatternDatabases, PdbError> {
        let sizes_match = tables.len() == partition.patterns().len()
            && tables.iter().zip(partition.patterns()).all(|(table, pattern)| table.len() == placements(pattern.len()));
        if !sizes_match {
            return Err(PdbError::InvalidPartition("the tables do not match the partition's sizes".into()));
        }
        Ok(PatternDatabases { partition, tables })
    }

    /// The partition the tables are for.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// One table per pattern, in the partition's order.
    pub fn tables(&self) -> &[Vec<u8>] {
        &self.tables
    }

    /// The heuristic that reads these tables, with reflection.
    pub fn heuristic(&self) -> PatternHeuristic<'_> {
        PatternHeuristic::new(self)
    }
}

/// One way to read a table: a pattern's tiles, either as they stand or mirrored.
#[derive(Debug, Clone, Copy)]
struct View {
    table: usize,
    /// The tiles whose cells (mirrored if `reflected`) are the pattern's placement.
    sources: [u8; MAX_PATTERN_TILES],
    len: usize,
    /// Where each cell is read: itself, or its mirror.
    cell_map: [u8; CELLS],
}

/// Additive pattern databases maxed with their reflection, as an [`Estimator`] for 4×4 boards.
#[derive(Debug, Clone)]
pub struct PatternHeuristic<'a> {
    tables: &'a [Vec<u8>],
    /// The direct views, one per pattern, then the mirrored ones.
    views: Vec<View>,
    /// For each tile, its direct view and its mirrored view.
    views_of_tile: [[u8; 2]; CELLS],
}

/// What a node carries: every tile's cell, and each view's current table value.
#[derive(Debug, Clone, Copy)]
pub struct PatternMemo {
    cells: [u8; CELLS],
    values: [u8; 2 * MAX_PATTERNS],
    /// The direct sum and the mirrored sum.
    sums: [u32; 2],
}

impl<'a> PatternHeuristic<'a> {
    fn new(databases: &'a PatternDatabases) -> PatternHeuristic<'a> {
        let patterns = databases.partition.patterns();
        let count = patterns.len();
        let mut views = Vec::with_capacity(2 * count);
        let mut views_of_tile = [[0u8; 2]; CELLS];
        for reflected in [false, true] {
            for (table, pattern) in patterns.iter().enumerate() {
                let view = views.len();
                let mut sources = [0u8; MAX_PATTERN_TILES];
                for (slot, &tile) in sources.iter_mut().zip(pattern) {
                    let source = if reflected { reflect_tile(usize::from(tile)) } else { usize::from(tile) };
                    *slot = source as u8;
                    views_of_tile[source][usize::from(reflected)] = view as u8;
                }
                let cell_map = std::array::from_fn(|cell| if reflected { reflect_cell(cell) } else { cell } as u8);
                views.push(View { table, sources, len: pattern.len(), cell_map });
            }
        }
        PatternHeuristic { tables: &databases.tables, views, views_of_tile }
    }

    /// The table value of `view` for the tile cells `cells`.
    #[inline]
    fn lookup(&self, view: usize, cells: &[u8; CELLS]) -> u8 {
        let view = &self.views[view];
        let placement = view.sources[..view.len]
            .iter()
            .map(|&tile| usize::from(view.cell_map[usize::from(cells[usize::from(tile)])]));
        self.tables[view.table][rank(placement)]
    }
}

impl Estimator for PatternHeuristic<'_> {
    type Memo = PatternMemo;

    fn start(&self, tiles: &[u16]) -> PatternMemo {
        let mut memo = PatternMemo { cells: [0; CELLS], values: [0; 2 * MAX_PATTERNS], sums: [0; 2] };
        for (cell, &tile) in tiles.iter().enumerate() {
            memo.cells[usize::from(tile)] = cell as u8;
        }
        let count = self.views.len() / 2;
        for view in 0..self.views.len() {
            let value = self.lookup(view, &memo.cells);
            memo.values[view] = value;
            memo.sums[usize::from(view >= count)] += u32::from(value);
        }
        memo
    }

    #[inline]
    fn value(&self, memo: &PatternMemo) -> u32 {
        memo.sums[0].max(memo.sums[1])
    }

    #[inline]
    fn slide(&self, memo: &PatternMemo, _: &[u16], tile: u16, _: usize, to: usize) -> PatternMemo {
        let mut next = *memo;
        next.cells[usize::from(tile)] = to as u8;
        self.update(&mut next, tile, 0);
        self.update(&mut next, tile, 1);
        next
    }

    /// Reads the direct view first and skips the mirrored lookup when the direct sum is already
    /// over `limit`.
    #[inline]
    fn slide_within(
        &self,
        memo: &PatternMemo,
        _: &[u16],
        tile: u16,
        _: usize,
        to: usize,
        limit: u32,
    ) -> Result<PatternMemo, u32> {
        let mut next = *memo;
        next.cells[usize::from(tile)] = to as u8;
        for side in 0..2 {
            self.update(&mut next, tile, side);
            if next.sums[side] > limit {
                return Err(next.sums[side]);
            }
        }
        Ok(next)
    }
}

impl PatternHeuristic<'_> {
    /// Refreshes the value of `tile`'s view on `side` (0 direct, 1 mirrored) after it moved.
    #[inline]
    fn update(&self, memo: &mut PatternMemo, tile: u16, side: usize) {
        let view = usize::from(self.views_of_tile[usize::from(tile)][side]);
        let value = self.lookup(view, &memo.cells);
        memo.sums[side] = memo.sums[side] + u32::from(value) - u32::from(memo.values[view]);
        memo.values[view] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflection_fixes_the_goal() {
        assert_eq!(reflect_cell(15), 15);
        assert_eq!(reflect_tile(2), 5);
        assert_eq!(reflect_tile(12), 15);
        assert!((1..CELLS).all(|tile| reflect_tile(reflect_tile(tile)) == tile));
    }
}
