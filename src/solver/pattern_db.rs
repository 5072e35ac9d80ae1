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
//! `pdb_file` and `pdb_build`.

use std::fmt;

use super::heuristic::Estimator;
use super::pdb_file::PdbError;

/// The board side the databases are for.
pub const DIMENSION: usize = 4;

/// Cells of the board, blank included.
pub const CELLS: usize = DIMENSION * DIMENSION;

/// The most tiles a pattern may have (the 8-tile table is 16!/8! bytes, about 519 MB).
pub const MAX_PATTERN_TILES: usize = 8;

/// The most patterns a partition may have.
pub const MAX_PATTERNS: usize = 8;

/// Cell (r, c) mirrored to (c, r).
const fn reflect_cell(cell: usize) -> usize {
    (cell % DIMENSION) * DIMENSION + cell / DIMENSION
}

/// The label of the tile whose goal cell is the mirror of `tile`'s goal cell.
const fn reflect_tile(tile: usize) -> usize {
    reflect_cell(tile - 1) + 1
}

/// Placements of `k` distinct tiles on the 16 cells: 16!/(16-k)!.
pub fn placements(k: usize) -> usize {
    (CELLS - k + 1..=CELLS).product()
}

/// The rank of a placement of distinct cells, `0..placements(cells.len())`: the mixed-radix
/// number whose i-th digit (radix 16 - i) is the i-th cell counted among the cells not yet used.
///
/// Each of the sixteen 4-bit fields of `below` counts the cells used so far that lie below that
/// field's cell, so a digit is one shift and one subtraction, with no population count.
#[inline]
pub fn rank(cells: impl IntoIterator<Item = usize>) -> usize {
    const ONES: u64 = 0x1111_1111_1111_1111;
    let mut below = 0u64;
    let mut index = 0;
    for (i, cell) in cells.into_iter().enumerate() {
        let digit = cell - ((below >> (4 * cell)) & 0xF) as usize;
        index = index * (CELLS - i) + digit;
        below += (ONES << (4 * cell)) << 4;
    }
    index
}

/// The tiles of each pattern, checked to be disjoint and to cover tiles 1..=15.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partition {
    patterns: Vec<Vec<u8>>,
}

impl Partition {
    /// Checks that `patterns` are non-empty, at most [`MAX_PATTERNS`] of at most
    /// [`MAX_PATTERN_TILES`] tiles each, and cover every tile exactly once.
    pub fn new(patterns: Vec<Vec<u8>>) -> Result<Partition, PdbError> {
        let invalid = |reason: String| Err(PdbError::InvalidPartition(reason));
        if patterns.is_empty() || patterns.len() > MAX_PATTERNS {
            return invalid(format!("{} patterns; 1 to {MAX_PATTERNS} are allowed", patterns.len()));
        }
        let mut seen = [false; CELLS];
        for pattern in &patterns {
            if pattern.is_empty() || pattern.len() > MAX_PATTERN_TILES {
                return invalid(format!("a pattern of {} tiles; 1 to {MAX_PATTERN_TILES} are allowed", pattern.len()));
            }
            for &tile in pattern {
                let tile = usize::from(tile);
                if tile == 0 || tile >= CELLS {
                    return invalid(format!("tile {tile} is not a tile of the 4x4 board"));
                }
                if std::mem::replace(&mut seen[tile], true) {
                    return invalid(format!("tile {tile} is in two patterns"));
                }
            }
        }
        if let Some(missing) = (1..CELLS).find(|&tile| !seen[tile]) {
            return invalid(format!("tile {missing} is in no pattern"));
        }
        Ok(Partition { patterns })
    }

    /// The default partition, Korf & Felner's 7-8 turned to our goal: the top two rows (8 tiles)
    /// and the bottom two less the blank (7 tiles). 577 MB of tables; the build takes minutes and
    /// 3.6 GB (see `pdb_build`).
    pub fn seven_eight() -> Partition {
        Partition { patterns: vec![(1..=8).collect(), (9..=15).collect()] }
    }

    /// A small partition that builds in seconds: {1, 5, 6, 9, 10, 13}, {7, 8, 11, 12, 14, 15}
    /// and {2, 3, 4}, the best of the 6-6-3 splits measured on the Korf instances (with
    /// reflection, about 3× fewer nodes than splitting by columns). 11.5 MB of tables.
    pub fn six_six_three() -> Partition {
        Partition { patterns: vec![vec![1, 5, 6, 9, 10, 13], vec![7, 8, 11, 12, 14, 15], vec![2, 3, 4]] }
    }

    /// The tiles of each pattern.
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// The pattern sizes, as in "6-6-3".
    pub fn sizes(&self) -> String {
        self.patterns.iter().map(|pattern| pattern.len().to_string()).collect::<Vec<_>>().join("-")
    }

    /// Bytes of all tables together.
    pub fn table_bytes(&self) -> usize {
        self.patterns.iter().map(|pattern| placements(pattern.len())).sum()
    }
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
            .field("partition", &self.partition.patterns)
            .field("bytes", &self.partition.table_bytes())
            .finish()
    }
}

impl PatternDatabases {
    /// Wraps tables built or read for `partition`, checking their sizes.
    pub fn from_tables(partition: Partition, tables: Vec<Vec<u8>>) -> Result<PatternDatabases, PdbError> {
        let sizes_match = tables.len() == partition.patterns.len()
            && tables.iter().zip(&partition.patterns).all(|(table, pattern)| table.len() == placements(pattern.len()));
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

/// The built-in partitions by name, "7-8" or "6-6-3", as command lines spell them.
impl std::str::FromStr for Partition {
    type Err = String;

    fn from_str(name: &str) -> Result<Partition, String> {
        match name {
            "7-8" => Ok(Partition::seven_eight()),
            "6-6-3" => Ok(Partition::six_six_three()),
            _ => Err(format!("unknown partition {name:?}; expected 7-8 or 6-6-3")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_distinct() {
        let mut seen = vec![false; placements(2)];
        for a in 0..CELLS {
            for b in (0..CELLS).filter(|&b| b != a) {
                let index = rank([a, b]);
                assert!(!std::mem::replace(&mut seen[index], true), "rank of {a},{b} repeats");
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn reflection_fixes_the_goal() {
        assert_eq!(reflect_cell(15), 15);
        assert_eq!(reflect_tile(2), 5);
        assert_eq!(reflect_tile(12), 15);
        assert!((1..CELLS).all(|tile| reflect_tile(reflect_tile(tile)) == tile));
    }

    #[test]
    fn partitions_are_checked() {
        assert!(Partition::new(vec![vec![1, 2, 3]]).is_err());
        assert!(Partition::new(vec![(1..9).collect(), (8..16).collect()]).is_err());
        assert!(Partition::new(vec![(1..16).collect()]).is_err());
        assert_eq!(Partition::six_six_three().sizes(), "6-6-3");
        assert_eq!(Partition::six_six_three().table_bytes(), 2 * 5_765_760 + 3_360);
    }
}
