//! Building pattern-database tables by breadth-first search backwards from the goal, in the
//! abstract space of one pattern: its k tiles are distinct, every other tile is not, and only
//! the pattern's own slides count.
//!
//! A state is a placement of the pattern's tiles plus the blank's cell. Sliding an indistinct
//! tile is free, so the blank roams its whole region (the free cells connected to it) at no
//! cost: the search keeps, for each placement, a mask of the blank cells reached (16 bits on
//! 4×4, 32 on 5×5), and each step of the BFS floods a newly reached blank cell to its region,
//! then slides every pattern tile next to that region into it (one move). A table entry is the
//! depth at which its placement was first reached with the blank anywhere: the least distance
//! over the blank's cells, the exact additive-database value (Korf & Felner 2002). The search
//! starts from the pattern's tiles home with the blank in its goal corner (which is the blank
//! anywhere when the pattern leaves the free cells connected; see `symmetry`).
//!
//! The depths run one after the other; within a depth, every core scans its share of the
//! placements, indexed by their dense rank; a 5×5 table is then spread to its direct index.
//!
//! Memory while building, three blank masks and a byte per placement:
//!
//! | table | placements | bytes each | peak |
//! |---|---|---|---|
//! | 4×4, 6 tiles | 5.8 M | 7 | 40 MB |
//! | 4×4, 8 tiles | 519 M | 7 | 3.6 GB |
//! | 5×5, 6 tiles | 127.5 M | 13 | 1.66 GB, plus the 244 MB direct table |
//!
//! Time, release build on two shared cores: the 6-6-3 tables in 4 to 10 s, the 7-8 tables in
//! 4 to 7 minutes (about 340 s of CPU); the 5×5 6-6-6-6 tables are in `cache`'s table. Tests
//! use the smaller partitions. (One 8-byte word per placement, to keep a child's masks on one
//! cache line, measured no faster on 4×4 and took 1 GB more.)

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering};
use std::thread;

use super::error::PdbError;
use super::index::{direct25, rank16, rank25, unrank};
use super::lookup::PatternDatabases;
use super::partition::{Partition, placements, table_len};

const UNSEEN: u8 = u8::MAX;

/// Placements one worker scans before moving on to its next stretch.
const STRETCH: usize = 1 << 14;

/// Builds every stored table of `partition`, one after the other, each on every core.
pub fn build(partition: &Partition) -> Result<PatternDatabases, PdbError> {
    let dimension = partition.dimension();
    let tables = partition
        .stored()
        .map(|pattern| match dimension {
            4 => build_table::<Four>(pattern),
            _ => build_table::<Five>(pattern),
        })
        .collect::<Result<Vec<_>, _>>()?;
    PatternDatabases::from_tables(partition.clone(), tables)
}

/// A mask of blank cells shared between the build's workers.
trait BlankMask: Sync + Send {
    fn empty() -> Self;
    fn get(&self) -> u32;
    /// Reads the mask and clears it.
    fn take(&self) -> u32;
    /// Adds `cells`, returning the mask before.
    fn add(&self, cells: u32) -> u32;
}

macro_rules! blank_mask {
    ($atomic:ty, $word:ty) => {
        impl BlankMask for $atomic {
            fn empty() -> Self {
                <$atomic>::new(0)
            }

            #[inline]
            fn get(&self) -> u32 {
                u32::from(self.load(Ordering::Relaxed))
            }

            #[inline]
            fn take(&self) -> u32 {
                u32::from(self.swap(0, Ordering::Relaxed))
            }

            #[inline]
            fn add(&self, cells: u32) -> u32 {
                u32::from(self.fetch_or(cells as $word, Ordering::Relaxed))
            }
        }
    };
}

blank_mask!(AtomicU16, u16);
blank_mask!(AtomicU32, u32);

/// A board size the build runs on: its side, the mask type that holds its cells, the dense rank
/// of the build's arrays, and how a finished table is laid out.
trait Grid {
    const DIMENSION: usize;
    const CELLS: usize = Self::DIMENSION * Self::DIMENSION;
    type Mask: BlankMask;
    fn rank(cells: impl IntoIterator<Item = usize>) -> usize;
    /// The finished table, from entries indexed by dense rank to the lookup's layout.
    fn lay_out(by_rank: Vec<u8>, k: usize) -> Vec<u8>;
}

/// The 4×4 board: 16-bit masks; tables stay indexed by dense rank.
struct Four;

impl Grid for Four {
    const DIMENSION: usize = 4;
    type Mask = AtomicU16;

    #[inline]
    fn rank(cells: impl IntoIterator<Item = usize>) -> usize {
        rank16(cells)
    }

    fn lay_out(by_rank: Vec<u8>, _: usize) -> Vec<u8> {
        by_rank
    }
}

/// The 5×5 board: 32-bit masks; tables are spread to their direct index.
struct Five;

impl Grid for Five {
    const DIMENSION: usize = 5;
    type Mask = AtomicU32;

    #[inline]
    fn rank(cells: impl IntoIterator<Item = usize>) -> usize {
        rank25(cells)
    }

    fn lay_out(by_rank: Vec<u8>, k: usize) -> Vec<u8> {
        let mut direct = vec![0u8; table_len(Self::DIMENSION, k)];
        for (index, &depth) in by_rank.iter().enumerate() {
            let cells = unrank(index, k, Self::CELLS);
            direct[direct25(cells[..k].iter().map(|&cell| usize::from(cell)))] = depth;
        }
        direct
    }
}

/// The cells next to `cell` on a `dimension`² board.
fn neighbours(dimension: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / dimension, cell % dimension);
    [
        (row > 0).then(|| cell - dimension),
        (row + 1 < dimension).then(|| cell + dimension),
        (col > 0).then(|| cell - 1),
        (col + 1 < dimension).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// The cells of `free` connected to `seeds` through `free` (all masks of cells of a
/// `dimension`² board).
pub(super) fn flood(dimension: usize, seeds: u32, free: u32) -> u32 {
    let left_column = (0..dimension).fold(0u32, |mask, row| mask | 1 << (row * dimension));
    let right_column = left_column << (dimension - 1);
    let mut region = seeds & free;
    loop {
        let grown = region
            | (((region << dimension)
                | (region >> dimension)
                | ((region << 1) & !left_column)
                | ((region >> 1) & !right_column))
                & free);
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// Every cell of a board of `cells` cells.
const fn all_cells(cells: usize) -> u32 {
    u32::MAX >> (32 - cells)
}

/// The search's state: per placement, the blank cells reached, those to expand at this depth
/// and at the next, and the depth it was first reached at.
struct Layers<G: Grid> {
    k: usize,
    visited: Vec<G::Mask>,
    current: Vec<G::Mask>,
    next: Vec<G::Mask>,
    depth_of: Vec<AtomicU8>,
}

/// The table of one pattern on the board `G`: the fewest pattern moves home for every placement
/// of its tiles, laid out for lookups.
fn build_table<G: Grid>(pattern: &[u8]) -> Result<Vec<u8>, PdbError> {
    let k = pattern.len();
    let size = placements(G::CELLS, k);
    let masks = || (0..size).map(|_| G::Mask::empty()).collect::<Vec<_>>();
    let mut layers = Layers::<G> {
        k,
        visited: masks(),
        current: masks(),
        next: masks(),
        depth_of: (0..size).map(|_| AtomicU8::new(UNSEEN)).collect(),
    };
    let goal = G::rank(pattern.iter().map(|&tile| usize::from(tile) - 1));
    layers.current[goal].add(1 << (G::CELLS - 1));
    let workers = thread::available_parallelism().map_or(1, |n| n.get());
    for depth in 0..UNSEEN {
        let shared = &layers;
        let reached = thread::scope(|scope| {
            let handles: Vec<_> =
                (0..workers).map(|worker| scope.spawn(move || shared.expand(depth, worker, workers))).collect();
            handles.into_iter().map(|handle| handle.join().map_err(|_| PdbError::BuildFailed)).sum::<Result<usize, _>>()
        })?;
        if reached == 0 {
            break;
        }
        std::mem::swap(&mut layers.current, &mut layers.next);
    }
    let Layers { depth_of, .. } = layers;
    Ok(G::lay_out(depth_of.into_iter().map(AtomicU8::into_inner).collect(), k))
}

impl<G: Grid> Layers<G> {
    /// Expands the placements of stretches `worker`, `worker + workers`, ... that have blank
    /// cells to expand at `depth`, queueing their children for `depth + 1`; returns how many
    /// new (placement, blank) pairs it queued. Workers share the masks through atomic `or`s; a
    /// child queued twice, or queued after its region was reached, is cleaned up when expanded.
    fn expand(&self, depth: u8, worker: usize, workers: usize) -> usize {
        let mut queued = 0;
        let size = self.current.len();
        for start in (worker * STRETCH..size).step_by(workers * STRETCH) {
            for placement in start..(start + STRETCH).min(size) {
                // A plain load first: most placements have nothing at this depth, and a swap is
                // a locked instruction.
                if self.current[placement].get() == 0 {
                    continue;
                }
                let seeds = self.current[placement].take();
                let cells = unrank(placement, self.k, G::CELLS);
                let occupied = cells[..self.k].iter().fold(0u32, |mask, &cell| mask | (1 << cell));
                let visited = self.visited[placement].get();
                // Regions are reached whole, so a seed in a visited region is stale.
                let region = flood(G::DIMENSION, seeds & !visited, !occupied & all_cells(G::CELLS));
                if region == 0 {
                    continue;
                }
                self.visited[placement].add(region);
                if self.depth_of[placement].load(Ordering::Relaxed) == UNSEEN {
                    self.depth_of[placement].store(depth, Ordering::Relaxed);
                }
                queued += self.slide_into(&cells, region);
            }
        }
        queued
    }

    /// Queues every placement made by sliding a pattern tile next to `region` into it (the
    /// blank then stands where the tile was); returns how many were new.
    fn slide_into(&self, cells: &[u8; 32], region: u32) -> usize {
        let mut queued = 0;
        for (tile, &cell) in cells[..self.k].iter().enumerate() {
            let cell = usize::from(cell);
            for target in neighbours(G::DIMENSION, cell).filter(|&target| region & (1 << target) != 0) {
                let mut moved = *cells;
                moved[tile] = target as u8;
                let child = G::rank(moved[..self.k].iter().map(|&cell| usize::from(cell)));
                let blank = 1u32 << cell;
                // Plain loads first: most children are already reached or queued, and an atomic
                // `or` is a locked instruction.
                let seen = self.visited[child].get() | self.next[child].get();
                if seen & blank == 0 && self.next[child].add(blank) & blank == 0 {
                    queued += 1;
                }
            }
        }
        queued
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent check: the plain 0-1 BFS over (placement, blank) states, each kept
    /// separately, for small patterns on the board `G`, entries by dense rank.
    fn zero_one_bfs<G: Grid>(pattern: &[u8]) -> Vec<u8> {
        let k = pattern.len();
        let free_cells = G::CELLS - k;
        let mut distance = vec![UNSEEN; placements(G::CELLS, k + 1)];
        let goals: Vec<usize> = pattern.iter().map(|&tile| usize::from(tile) - 1).collect();
        let blanks = [G::CELLS - 1];
        let mut layer: Vec<usize> = blanks.iter().map(|&blank| G::rank(goals.iter().copied().chain([blank]))).collect();
        layer.iter().for_each(|&state| distance[state] = 0);
        let mut depth = 0;
        while !layer.is_empty() {
            let mut next = Vec::new();
            let mut i = 0;
            while let Some(&state) = layer.get(i) {
                i += 1;
                if distance[state] != depth {
                    continue;
                }
                let cells = unrank(state, k + 1, G::CELLS);
                let blank = usize::from(cells[k]);
                for target in neighbours(G::DIMENSION, blank) {
                    let mut moved = cells;
                    moved[k] = target as u8;
                    let slot = cells[..k].iter().position(|&cell| usize::from(cell) == target);
                    if let Some(slot) = slot {
                        moved[slot] = blank as u8;
                    }
                    let cost = u8::from(slot.is_some());
                    let child = G::rank(moved[..=k].iter().map(|&cell| usize::from(cell)));
                    if distance[child] > depth + cost {
                        distance[child] = depth + cost;
                        if cost == 0 { layer.push(child) } else { next.push(child) }
                    }
                }
            }
            layer = next;
            depth += 1;
        }
        let by_rank = distance.chunks_exact(free_cells).map(|blanks| blanks.iter().copied().min().unwrap_or(UNSEEN));
        G::lay_out(by_rank.collect(), k)
    }

    #[test]
    fn flood_stays_inside_the_free_cells() {
        // Cells 0 and 15 free, the rest blocked: two separate regions.
        assert_eq!(flood(4, 1, 1 | 1 << 15), 1);
        // The top row is one region, reaching down through cell 7.
        assert_eq!(flood(4, 1, 0xF), 0xF);
        assert_eq!(flood(4, 1, 0xF | 1 << 7), 0xF | 1 << 7);
        // Cells 3 and 4 are consecutive but not neighbours: nothing wraps around a row's end.
        assert_eq!(flood(4, 1 << 3, 1 << 3 | 1 << 4), 1 << 3);
        assert_eq!(flood(4, 1 << 4, 1 << 3 | 1 << 4), 1 << 4);
        // On 5×5, cells 4 and 5 are not neighbours either, and a column is one region.
        assert_eq!(flood(5, 1 << 4, 1 << 4 | 1 << 5), 1 << 4);
        assert_eq!(flood(5, 1, 0x0010_8421), 0x0010_8421);
    }

    #[test]
    fn a_single_tile_table_is_its_manhattan_distance() {
        for tile in [1u8, 6, 15] {
            let table = build_table::<Four>(&[tile]).expect("builds");
            let goal = usize::from(tile) - 1;
            for cell in 0..16usize {
                let manhattan = (cell / 4).abs_diff(goal / 4) + (cell % 4).abs_diff(goal % 4);
                assert_eq!(usize::from(table[rank16([cell])]), manhattan, "tile {tile} at {cell}");
            }
        }
    }

    #[test]
    fn the_region_search_agrees_with_a_plain_zero_one_bfs() {
        for pattern in [&[1u8, 2, 5][..], &[4, 8, 12], &[10, 14, 15]] {
            assert_eq!(build_table::<Four>(pattern).expect("builds"), zero_one_bfs::<Four>(pattern), "{pattern:?}");
        }
        for pattern in [&[1u8, 2, 6][..], &[19, 23, 24], &[13]] {
            assert_eq!(build_table::<Five>(pattern).expect("builds"), zero_one_bfs::<Five>(pattern), "{pattern:?}");
        }
    }
}
