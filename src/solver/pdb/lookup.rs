//! Additive disjoint pattern databases for the 4×4 and 5×5 boards (Korf & Felner 2002), and
//! the [`Estimator`] that reads them, maxed with its reflection about the main diagonal.
//!
//! A [`Partition`] splits the tiles into disjoint patterns. For each pattern, a table holds,
//! for every placement of its tiles, the fewest moves *of those tiles* that bring them home, the
//! other tiles being indistinct and the blank free to roam its region. A 4×4 table keeps the
//! least over the blank's cells; a 5×5 table keeps one distance per region of the blank (the free
//! cells it reaches without moving a pattern tile; see [`regions`]), which is
//! never less. Since only a pattern's own moves are counted, the tables of a partition add up to
//! a lower bound. A slide moves one tile, so it changes one table's term only: for every other
//! pattern the blank moves between two of its free cells side by side, inside one region. That
//! term can jump by more than one (the 4×4 least may be reached in a region the blank cannot get
//! to for free), so the bound is admissible but not always consistent, which IDA* does not need.
//!
//! Reflection: mirroring the board about its main diagonal, cell (r, c) to (c, r), maps the goal
//! to itself once tile t is relabelled with the tile whose goal is t's goal cell mirrored. The
//! mirrored position is exactly as far from the goal, so the same tables read on it give a
//! second bound, and the larger of the two is still admissible. This costs a second lookup per
//! move (skipped when the direct sum already prunes the child) and helps whenever the partition
//! is not itself symmetric.
//!
//! A catalogue (see [`Partition::catalogue`]) is several partitions of the same tiles: each
//! gives a sum and a mirrored sum, and the bound is the largest of them all, admissible since
//! each is. The sums are read in turn, and a slide stops reading as soon as one puts the child
//! over the search's bound. A 5×5 child that every sum keeps is then tried against the triples
//! of disjoint views from different sides (see `triples`), whose entries are
//! all in its memo by then: patterns that share no tile add up whichever partition they come
//! from.
//!
//! Every term, direct or mirrored, is a *view*: a stored table, the tiles to read in the
//! table's order, and the symmetry that maps a board cell to the cell the table is read at (see
//! [`symmetry`]). A 4×4 table is indexed by the dense rank of the cells, a 5×5
//! table directly (see [`index`](super::index)). A direct index is a base-25 number whose
//! digits are the view's cells, so the memo keeps each 5×5 view's index and a slide moves it by
//! the moved tile's digit alone: a read is an add and a load, not mapping and folding six cells.
//! The memo keeps a 4×4 view's dense rank too: a slide changes the moved tile's digit and, when
//! it crosses other cells in the table's order (a step between table rows crosses three), the
//! digits of the view's later tiles on them, so a read is a few adds and a load rather than
//! ranking seven or eight cells. What each gained: `docs/performance.md`, "2026-12-05 — Huge
//! pages and an incremental index" and "2026-12-05 — An incremental 4×4 rank, and a search loop
//! for each kind of table". The files and the build are described in `file` and `build`.
//!
//! An entry is half the pattern's moves beyond its tiles' Manhattan distance (see [`entry`]).
//! The patterns of a partition hold every tile, and a symmetry keeps each tile's distance to
//! its goal, so every sum leaves out the same amount, the board's Manhattan distance: a memo
//! keeps it (one tile's change per move) and the bound is that distance plus twice the largest
//! sum of entries.

use std::fmt;

use super::cells::{self, CellMap, MAX_CELLS};
use super::entry;
use super::error::PdbError;
use super::index::{direct25, direct25_place, rank16};
use super::partition::{MAX_GROUPS, MAX_PATTERN_TILES, MAX_PATTERNS, Partition, table_len};
use super::regions;
use super::symmetry;
use super::tables::{TableMemory, Tables};
use super::triples::Triples;
use crate::solver::heuristic::Estimator;
use crate::solver::prefetch::prefetch;

/// One way to read a table: a pattern's tiles, either as they stand or through a symmetry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct View {
    table: usize,
    /// The tiles whose mapped cells, in this order, are the table's placement.
    sources: [u8; MAX_PATTERN_TILES],
    len: usize,
    /// Where each board cell is read in the table.
    cell_map: CellMap,
    /// The sum it adds to: twice its group, plus one when mirrored.
    side: usize,
}

impl View {
    /// The table cells of this view's tiles, in the table's order, when the tiles stand on
    /// `cells`.
    #[inline]
    fn placement<'c>(&self, cells: &'c [u8; MAX_CELLS]) -> impl Iterator<Item = usize> + use<'_, 'c> {
        self.sources[..self.len].iter().map(|&tile| usize::from(self.cell_map[usize::from(cells[usize::from(tile)])]))
    }
}

/// How many slots [`step_of`] spreads a slide's step over.
const STEPS: usize = 11;

/// Where a slide from cell `from` to the adjacent cell `to` of the 5×5 board keeps its entry in
/// [`PatternHeuristic::steps`]: the board step plus 5, so 0, 4, 6 or 10.
#[inline]
fn step_of(from: usize, to: usize) -> usize {
    to + 5 - from
}

/// The most sums a bound is the largest of: each group of a catalogue, direct and mirrored.
const MAX_SIDES: usize = 2 * MAX_GROUPS;

/// The tables of one partition, ready to be read by [`PatternHeuristic`]: built here, copied
/// into memory, or mapped from their file (see [`TableMemory`]).
#[derive(Clone)]
pub struct PatternDatabases {
    partition: Partition,
    tables: Tables,
    /// For each group, the direct views, one per pattern, then the mirrored ones.
    views: Vec<View>,
    /// On 5×5, the triples of disjoint views from different sides (see `triples`), found once
    /// for every search.
    triples: Triples,
}

impl fmt::Debug for PatternDatabases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatternDatabases")
            .field("dimension", &self.partition.dimension())
            .field("partition", &self.partition.patterns())
            .field("bytes", &self.partition.table_bytes())
            .field("memory", &self.tables.memory())
            .finish()
    }
}

/// Equal when they are for the same partition and hold the same entries, wherever they live.
impl PartialEq for PatternDatabases {
    fn eq(&self, other: &PatternDatabases) -> bool {
        self.partition == other.partition && self.tables.slices() == other.tables.slices()
    }
}

impl Eq for PatternDatabases {}

impl PatternDatabases {
    /// Wraps tables built for `partition` (one per [`Partition::stored`] pattern), checking
    /// their sizes.
    pub fn from_tables(partition: Partition, tables: Vec<Vec<u8>>) -> Result<PatternDatabases, PdbError> {
        PatternDatabases::from_storage(partition, Tables::Resident(tables))
    }

    /// Wraps `tables` for `partition`, wherever they live, checking their sizes.
    pub(super) fn from_storage(partition: Partition, tables: Tables) -> Result<PatternDatabases, PdbError> {
        let dimension = partition.dimension();
        let stored: Vec<&[u8]> = partition.stored().collect();
        let slices = tables.slices();
        let sizes_match = slices.len() == stored.len()
            && slices.iter().zip(&stored).all(|(table, pattern)| table.len() == table_len(dimension, pattern.len()));
        if !sizes_match {
            return Err(PdbError::InvalidPartition("the tables do not match the partition's sizes".into()));
        }
        let transpose = cells::transpose(dimension);
        let mut views = Vec::with_capacity(2 * partition.patterns().len());
        for (side, (group, reflected)) in
            partition.groups().flat_map(|group| [(group, false), (group, true)]).enumerate()
        {
            for pattern in group {
                let goals: Vec<u8> = pattern
                    .iter()
                    .map(|&tile| if reflected { transpose[usize::from(tile) - 1] } else { tile - 1 })
                    .collect();
                let (table, tiles, cell_map) = symmetry::find_view(dimension, &stored, &goals).ok_or_else(|| {
                    PdbError::InvalidPartition(format!(
                        "no table serves the pattern {pattern:?} (reflected: {reflected})"
                    ))
                })?;
                let mut sources = [0u8; MAX_PATTERN_TILES];
                sources[..tiles.len()].copy_from_slice(&tiles);
                views.push(View { table, sources, len: tiles.len(), cell_map, side });
            }
        }
        let triples = if dimension == 5 {
            let tiles: Vec<u32> = views
                .iter()
                .map(|view| view.sources[..view.len].iter().fold(0, |set, &tile| set | 1 << tile))
                .collect();
            let sides: Vec<usize> = views.iter().map(|view| view.side).collect();
            Triples::new(&tiles, &sides)
        } else {
            Triples::default()
        };
        Ok(PatternDatabases { partition, tables, views, triples })
    }

    /// The partition the tables are for.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The board side the tables serve.
    pub fn dimension(&self) -> usize {
        self.partition.dimension()
    }

    /// One table per stored pattern, in the partition's order.
    pub fn tables(&self) -> Vec<&[u8]> {
        self.tables.slices()
    }

    /// Where the tables live: mapped from their file, or in this process's memory.
    pub fn memory(&self) -> TableMemory {
        self.tables.memory()
    }

    /// The heuristic that reads these tables, with reflection: one type for each way tables
    /// are read, so that a search compiled for one holds none of the other's work.
    pub fn heuristic(&self) -> TableHeuristic<'_> {
        if self.dimension() == 4 {
            TableHeuristic::Ranked(PatternHeuristic::new(self))
        } else {
            TableHeuristic::Direct(PatternHeuristic::new(self))
        }
    }
}

/// Evaluates `$body` with `$heuristic` bound to `$databases`' heuristic, whichever way its
/// tables are read: `$body` is compiled once for each.
macro_rules! with_heuristic {
    ($databases:expr, $heuristic:ident => $body:expr) => {
        match $databases.heuristic() {
            $crate::solver::pdb::TableHeuristic::Ranked($heuristic) => $body,
            $crate::solver::pdb::TableHeuristic::Direct($heuristic) => $body,
        }
    };
}
pub(crate) use with_heuristic;

/// The heuristic of a set of pattern databases, by the way its tables are read. A search runs
/// with either (see [`PatternDatabases::heuristic`]).
#[derive(Debug, Clone)]
pub enum TableHeuristic<'a> {
    /// 4×4: tables indexed by dense rank, four bits an entry.
    Ranked(PatternHeuristic<'a, false>),
    /// 5×5: tables indexed directly, four bits an entry, one per region of the blank.
    Direct(PatternHeuristic<'a, true>),
}

/// Calls `$method` on whichever heuristic `$heuristic` holds.
macro_rules! either {
    ($heuristic:expr, $method:ident($($argument:expr),*)) => {
        match $heuristic {
            TableHeuristic::Ranked(heuristic) => heuristic.$method($($argument),*),
            TableHeuristic::Direct(heuristic) => heuristic.$method($($argument),*),
        }
    };
}

/// Either heuristic, for a bound worked out now and then, as a test or a caller of the library
/// may want. Each call matches on the kind of tables, and the prefetches and the early stop of
/// `slide_within` are the trait's plain defaults: a search takes its heuristic out once (see
/// `with_heuristic!`), so that its loop is compiled for one kind.
impl Estimator for TableHeuristic<'_> {
    type Memo = PatternMemo;

    fn start(&self, tiles: &[u16]) -> PatternMemo {
        either!(self, start(tiles))
    }

    fn value(&self, memo: &PatternMemo) -> u32 {
        either!(self, value(memo))
    }

    fn slide(&self, memo: &PatternMemo, tiles: &[u16], tile: u16, from: usize, to: usize) -> PatternMemo {
        either!(self, slide(memo, tiles, tile, from, to))
    }
}

/// Additive pattern databases maxed with their reflection (and, for a catalogue, with the other
/// groups' sums), as an [`Estimator`] for the boards of their dimension. `DIRECT`: whether the
/// tables are indexed directly, with a distance per region of the blank (5×5), rather than by
/// dense rank (4×4).
#[derive(Debug, Clone)]
pub struct PatternHeuristic<'a, const DIRECT: bool> {
    /// Each view's table, held here so a lookup reaches it in one step.
    tables: [&'a [u8]; 2 * MAX_PATTERNS],
    views: &'a [View],
    /// For each tile, its view on each side: direct and mirrored, group by group.
    views_of_tile: [[u8; MAX_SIDES]; MAX_CELLS],
    /// How many sums the bound is the largest of: twice the groups.
    sides: usize,
    /// On 5×5, for each tile and side, what a slide of the tile adds to its view's index, by
    /// the slide's step on the board ([`step_of`]): the step in table cells times 25 to the power
    /// of the tiles after it in the view (wrapping for a step down). A 5×5 index is kept in the
    /// memo and moved by the one tile that slides, instead of recomputed from six cells.
    steps: [[[u32; STEPS]; MAX_SIDES]; MAX_CELLS],
    /// On 4×4, for each tile and side, the tile's place in its view and what one more in its
    /// digit adds to the view's dense rank (the radices after it multiplied; see
    /// [`rank16`]). A 4×4 rank is kept in the memo too, and moved by the digits a slide changes.
    ranks: [[(u8, u32); MAX_SIDES]; MAX_CELLS],
    /// On 4×4, for each view, the board cell read at each table cell: its cell map's inverse.
    board_cells: [CellMap; 2 * MAX_PATTERNS],
    /// The part of the bound the entries leave out, per tile and cell: the tile's Manhattan
    /// distance.
    base: [[u8; MAX_CELLS]; MAX_CELLS],
    /// On 5×5, the triples of disjoint views from different sides (see `triples`).
    triples: &'a Triples,
}

/// What a node carries: every tile's cell, each view's current table entry, and the part of the
/// bound the entries leave out.
#[derive(Debug, Clone, Copy)]
pub struct PatternMemo {
    cells: [u8; MAX_CELLS],
    values: [u8; 2 * MAX_PATTERNS],
    /// Each view's index in its table (see [`PatternHeuristic::index`]), moved by each slide.
    indices: [u32; 2 * MAX_PATTERNS],
    /// The sum of entries on each side (see [`PatternHeuristic::sides`]).
    sums: [u32; MAX_SIDES],
    /// The board's Manhattan distance.
    base: u32,
}

impl<'a, const DIRECT: bool> PatternHeuristic<'a, DIRECT> {
    fn new(databases: &'a PatternDatabases) -> PatternHeuristic<'a, DIRECT> {
        let mut views_of_tile = [[0u8; MAX_SIDES]; MAX_CELLS];
        let mut steps = [[[0u32; STEPS]; MAX_SIDES]; MAX_CELLS];
        let mut ranks = [[(0u8, 0u32); MAX_SIDES]; MAX_CELLS];
        let mut board_cells = [[0u8; MAX_CELLS]; 2 * MAX_PATTERNS];
        let dimension = databases.dimension();
        let mut tables: [&[u8]; 2 * MAX_PATTERNS] = [&[]; 2 * MAX_PATTERNS];
        let stored = databases.tables.slices();
        for (index, view) in databases.views.iter().enumerate() {
            tables[index] = stored[view.table];
            if !DIRECT {
                board_cells[index] = cells::inverse(&view.cell_map, dimension * dimension);
            }
            for (position, &tile) in view.sources[..view.len].iter().enumerate() {
                views_of_tile[usize::from(tile)][view.side] = index as u8;
                if !DIRECT {
                    let radix = (position + 1..view.len).map(|after| (16 - after) as u32).product();
                    ranks[usize::from(tile)][view.side] = (position as u8, radix);
                } else {
                    let place = direct25_place(view.len, position);
                    for (from, to) in cells::adjacent(dimension) {
                        let step = u32::from(view.cell_map[to]).wrapping_sub(u32::from(view.cell_map[from]));
                        steps[usize::from(tile)][view.side][step_of(from, to)] = step.wrapping_mul(place);
                    }
                }
            }
        }
        let sides = 2 * databases.partition.groups().count();
        let mut base = [[0u8; MAX_CELLS]; MAX_CELLS];
        for (tile, distances) in base.iter_mut().enumerate().take(dimension * dimension).skip(1) {
            for (cell, distance) in distances.iter_mut().enumerate().take(dimension * dimension) {
                *distance = entry::manhattan(dimension, tile - 1, cell);
            }
        }
        PatternHeuristic {
            tables,
            views: &databases.views,
            views_of_tile,
            sides,
            steps,
            ranks,
            board_cells,
            base,
            triples: &databases.triples,
        }
    }

    /// Where `view`'s entry for `cells` is in its table: its index among the entries (of the
    /// main part, on 5×5).
    #[inline]
    fn index(&self, view: usize, cells: &[u8; MAX_CELLS]) -> usize {
        let placement = self.views[view].placement(cells);
        if DIRECT { direct25(placement) } else { rank16(placement) }
    }

    /// The entry at `index` (see [`PatternHeuristic::index`]) of `view`'s table for `cells`: on
    /// 5×5, the pocket's entry when the main one is flagged and the blank is in a pocket.
    #[inline(always)]
    fn entry(&self, view: usize, index: usize, cells: &[u8; MAX_CELLS]) -> u8 {
        let value = entry::read(self.tables[view], index);
        if !DIRECT || value & regions::FLAG == 0 { value } else { self.pocket(view, cells, value) }
    }

    /// [`PatternHeuristic::entry`] for the flagged 5×5 entry `value`: the pocket's entry when
    /// the blank is in one, found from the cells.
    #[inline(never)]
    fn pocket(&self, index: usize, cells: &[u8; MAX_CELLS], value: u8) -> u8 {
        let view = &self.views[index];
        let mut mapped = [0usize; MAX_PATTERN_TILES];
        for (slot, cell) in mapped.iter_mut().zip(view.placement(cells)) {
            *slot = cell;
        }
        let blank = usize::from(view.cell_map[usize::from(cells[0])]);
        regions::read_flagged(self.tables[index], &mapped[..view.len], blank, value)
    }

    /// The bound of `memo` on one side.
    #[inline]
    fn side(&self, memo: &PatternMemo, side: usize) -> u32 {
        memo.base + 2 * memo.sums[side]
    }
}

impl<const DIRECT: bool> Estimator for PatternHeuristic<'_, DIRECT> {
    type Memo = PatternMemo;

    fn start(&self, tiles: &[u16]) -> PatternMemo {
        let mut memo = PatternMemo {
            cells: [0; MAX_CELLS],
            values: [0; 2 * MAX_PATTERNS],
            indices: [0; 2 * MAX_PATTERNS],
            sums: [0; MAX_SIDES],
            base: 0,
        };
        for (cell, &tile) in tiles.iter().enumerate() {
            memo.cells[usize::from(tile)] = cell as u8;
            memo.base += u32::from(self.base[usize::from(tile)][cell]);
        }
        for (index, view) in self.views.iter().enumerate() {
            let at = self.index(index, &memo.cells);
            let value = self.entry(index, at, &memo.cells);
            memo.indices[index] = at as u32;
            memo.values[index] = value;
            memo.sums[view.side] += u32::from(value);
        }
        memo
    }

    #[inline]
    fn value(&self, memo: &PatternMemo) -> u32 {
        memo.base + 2 * memo.sums[..self.sides].iter().copied().max().unwrap_or(0)
    }

    #[inline]
    fn slide(&self, memo: &PatternMemo, tiles: &[u16], tile: u16, from: usize, to: usize) -> PatternMemo {
        let mut next = *memo;
        self.shift(&mut next, tile, from, to);
        for side in 0..self.sides {
            self.update(&mut next, tiles, tile, side, from, to);
        }
        next
    }

    /// The first side's entry of the moved tile's view, and on 5×5 the second side's too (a
    /// child not cut by its first sum reads the second at once, and most are not). On 4×4 the
    /// moved rank is worked out here and again when the entry is read, which costs less than
    /// waiting for the entry. Measurements: `docs/performance.md`, "2026-12-06 — A child moved in
    /// place, and two sums prefetched" and "2026-12-05 — An incremental 4×4 rank, and a search
    /// loop for each kind of table".
    #[inline]
    fn prefetch(&self, memo: &PatternMemo, tiles: &[u16], tile: u16, from: usize, to: usize) {
        let tile = usize::from(tile);
        let view = usize::from(self.views_of_tile[tile][0]);
        let index = if DIRECT {
            self.stepped(memo, view, tile, 0, from, to)
        } else {
            self.ranked(memo, tiles, tile, 0, from, to)
        };
        self.prefetch_entry(view, index as usize);
        if DIRECT && self.sides > 1 {
            self.prefetch_side(memo, tile, 1, from, to);
        }
    }

    /// On 5×5, the moved tile's view's entry on every side; nothing on 4×4, whose ranks move
    /// with the board, which a beam keeps packed.
    #[inline]
    fn prefetch_slide(&self, memo: &PatternMemo, tile: u16, from: usize, to: usize) {
        if DIRECT {
            let tile = usize::from(tile);
            for side in 0..self.sides {
                self.prefetch_side(memo, tile, side, from, to);
            }
        }
    }

    /// Reads the sides in turn and skips the rest as soon as one's bound is over `limit`; on
    /// 5×5, a child every side keeps is cut if a triple of disjoint views from different sides
    /// puts it over (`Err` then gives the least bound over `limit`, not the triple's own).
    #[inline(always)]
    fn slide_within(
        &self,
        memo: &mut PatternMemo,
        tiles: &[u16],
        tile: u16,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Result<(), u32> {
        self.shift(memo, tile, from, to);
        for side in 0..self.sides {
            self.update(memo, tiles, tile, side, from, to);
            let bound = self.side(memo, side);
            if bound > limit {
                return Err(bound);
            }
        }
        if DIRECT && !self.triples.is_empty() {
            let most = limit.saturating_sub(memo.base) / 2;
            if self.triples.any_over(&memo.values, most) {
                return Err(memo.base + 2 * (most + 1));
            }
        }
        Ok(())
    }
}

impl<const DIRECT: bool> PatternHeuristic<'_, DIRECT> {
    /// Moves `tile` from cell `from` to cell `to` in `memo`, its entries not yet updated.
    #[inline(always)]
    fn shift(&self, memo: &mut PatternMemo, tile: u16, from: usize, to: usize) {
        let tile = usize::from(tile);
        memo.cells[tile] = to as u8;
        memo.cells[0] = from as u8;
        memo.base = memo.base + u32::from(self.base[tile][to]) - u32::from(self.base[tile][from]);
    }

    /// On 5×5, asks for the entry `tile`'s view on `side` reads once the tile moved from cell
    /// `from` to `to`.
    #[inline(always)]
    fn prefetch_side(&self, memo: &PatternMemo, tile: usize, side: usize, from: usize, to: usize) {
        let view = usize::from(self.views_of_tile[tile][side]);
        self.prefetch_entry(view, self.stepped(memo, view, tile, side, from, to) as usize);
    }

    /// Asks for the byte of entry `index` of `view`'s table.
    #[inline(always)]
    fn prefetch_entry(&self, view: usize, index: usize) {
        if let Some(entry) = self.tables[view].get(entry::position(index).0) {
            prefetch(entry);
        }
    }

    /// On 5×5, the index in `view` (`tile`'s view on `side`) once the tile moved from cell
    /// `from` to `to`: the memo's index stepped by the tile's digit alone.
    #[inline(always)]
    fn stepped(&self, memo: &PatternMemo, view: usize, tile: usize, side: usize, from: usize, to: usize) -> u32 {
        memo.indices[view].wrapping_add(self.steps[tile][side][step_of(from, to)])
    }

    /// On 4×4, the dense rank of `tile`'s view on `side` once the tile moved from cell `from` to
    /// `to` of `tiles` (the board before the slide): the memo's rank moved by the digits that
    /// change. In the table's cell order the tile crosses the cells between its two (none for a
    /// step along a table row, three for a step between rows): its digit moves by the cells
    /// crossed less the view's earlier tiles on them, and each later tile of the view on them
    /// has the moved tile below it now, or no longer.
    #[inline(always)]
    fn ranked(&self, memo: &PatternMemo, tiles: &[u16], tile: usize, side: usize, from: usize, to: usize) -> u32 {
        let view = usize::from(self.views_of_tile[tile][side]);
        let map = &self.views[view].cell_map;
        let (was, is) = (usize::from(map[from]), usize::from(map[to]));
        let (place, radix) = self.ranks[tile][side];
        let mut step = was.abs_diff(is) as u32 * radix;
        for cell in was.min(is) + 1..was.max(is) {
            let other = usize::from(tiles[usize::from(self.board_cells[view][cell])]);
            if other != 0 && usize::from(self.views_of_tile[other][side]) == view {
                let (other_place, other_radix) = self.ranks[other][side];
                step = if other_place < place { step - radix } else { step + other_radix };
            }
        }
        let rank = memo.indices[view];
        if is > was { rank + step } else { rank - step }
    }

    /// Refreshes the value of `tile`'s view on `side` after it moved from cell `from` to `to`
    /// of `tiles` (the board before the slide).
    #[inline(always)]
    fn update(&self, memo: &mut PatternMemo, tiles: &[u16], tile: u16, side: usize, from: usize, to: usize) {
        let tile = usize::from(tile);
        let view = usize::from(self.views_of_tile[tile][side]);
        let index = if DIRECT {
            self.stepped(memo, view, tile, side, from, to)
        } else {
            self.ranked(memo, tiles, tile, side, from, to)
        };
        memo.indices[view] = index;
        let value = self.entry(view, index as usize, &memo.cells);
        memo.sums[side] = memo.sums[side] + u32::from(value) - u32::from(memo.values[view]);
        memo.values[view] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_by_four_views_read_the_mirrored_tiles_through_the_transpose() {
        let partition = Partition::six_six_three();
        let tables = partition.stored().map(|pattern| vec![0; table_len(4, pattern.len())]).collect();
        let databases = PatternDatabases::from_tables(partition, tables).expect("sizes match");
        let mirrored = &databases.views[3 + 2];
        assert_eq!((mirrored.table, &mirrored.sources[..3]), (2, &[5u8, 9, 13][..]));
        assert_eq!(mirrored.cell_map[..16], cells::transpose(4)[..16]);
    }

    #[test]
    fn four_by_four_ranks_moved_slide_by_slide_are_the_ranks_of_the_board() {
        let partition = Partition::six_six_three();
        let tables = partition.stored().map(|pattern| vec![0; table_len(4, pattern.len())]).collect();
        let databases = PatternDatabases::from_tables(partition, tables).expect("sizes match");
        let TableHeuristic::Ranked(heuristic) = databases.heuristic() else { panic!("a 4×4 heuristic") };
        let mut tiles: Vec<u16> = (1..16).chain([0]).collect();
        let mut memo = heuristic.start(&tiles);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for slide in 0..2_000 {
            let blank = tiles.iter().position(|&tile| tile == 0).expect("a blank");
            let from: Vec<usize> = cells::adjacent(4).filter(|&(_, to)| to == blank).map(|(from, _)| from).collect();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let from = from[seed as usize % from.len()];
            memo = heuristic.slide(&memo, &tiles, tiles[from], from, blank);
            tiles.swap(from, blank);
            let fresh = heuristic.start(&tiles);
            assert_eq!(memo.indices, fresh.indices, "after slide {slide}: {tiles:?}");
        }
    }

    #[test]
    fn every_view_of_the_five_by_five_catalogues_reads_its_tables_goal_at_the_goal() {
        for partition in [Partition::catalogue_of_two(), Partition::catalogue_of_four()] {
            let stored: Vec<Vec<u8>> = partition.stored().map(<[u8]>::to_vec).collect();
            let tables = stored.iter().map(|pattern| vec![0; table_len(5, pattern.len())]).collect();
            let databases = PatternDatabases::from_tables(partition.clone(), tables).expect("sizes match");
            let sides = 2 * partition.groups().count();
            assert_eq!(databases.views.len(), 4 * sides, "{}", partition.sizes());
            for side in 0..sides {
                let mut tiles: Vec<u8> = databases
                    .views
                    .iter()
                    .filter(|view| view.side == side)
                    .flat_map(|view| view.sources[..view.len].to_vec())
                    .collect();
                tiles.sort_unstable();
                assert_eq!(tiles, (1..25).collect::<Vec<u8>>(), "side {side} reads every tile once");
            }
            // On the goal board tile t stands on cell t - 1: each view must see its table's goal
            // placement there, or its entries would be another pattern's distances.
            for view in &databases.views {
                let goal: Vec<u8> =
                    view.sources[..view.len].iter().map(|&tile| view.cell_map[usize::from(tile) - 1]).collect();
                let table_goal: Vec<u8> = stored[view.table].iter().map(|&tile| tile - 1).collect();
                assert_eq!(goal, table_goal, "{view:?}");
            }
        }
    }

    #[test]
    fn the_five_by_five_partition_reads_two_tables_eight_ways() {
        let partition = Partition::six_six_six_six();
        let tables = partition.stored().map(|pattern| vec![0; table_len(5, pattern.len())]).collect();
        let databases = PatternDatabases::from_tables(partition, tables).expect("sizes match");
        let tables_read: Vec<usize> = databases.views.iter().map(|view| view.table).collect();
        assert_eq!(tables_read, vec![0, 1, 1, 1, 0, 1, 1, 1]);
        let TableHeuristic::Direct(heuristic) = databases.heuristic() else { panic!("a 5×5 heuristic") };
        for tile in 1..25 {
            let [direct, mirrored, ..] = heuristic.views_of_tile[tile];
            assert!(direct < 4 && mirrored >= 4, "tile {tile}");
        }
    }
}
