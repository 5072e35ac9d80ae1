//! Building pattern-database tables by breadth-first search backwards from the goal, in the
//! abstract space of one pattern: its k tiles are distinct, every other tile is not, and only
//! the pattern's own slides count.
//!
//! A state is a placement of the pattern's tiles plus the blank's cell. Sliding an indistinct
//! tile is free, so the blank roams its whole region (the free cells connected to it) at no
//! cost: the search keeps, for each placement, a 16-bit mask of the blank cells reached, and
//! each step of the BFS floods a newly reached blank cell to its region, then slides every
//! pattern tile next to that region into it (one move). A table entry is the depth at which its
//! placement was first reached with the blank anywhere: the least distance over the blank's
//! cells, the exact additive-database value (Korf & Felner 2002).
//!
//! The depths run one after the other; within a depth, every core scans its share of the
//! placements. Memory while building: three 16-bit masks and a byte per placement (7 bytes
//! per entry): 40 MB for a 6-tile pattern, 400 MB for 7 tiles, 3.6 GB for 8 tiles. Time, release
//! build on two shared cores: the 6-6-3 tables in 4 to 10 s, the 7-8 tables in 4 to 7 minutes
//! (about 340 s of CPU), so tests use the smaller partitions. (One 8-byte word per placement,
//! to keep a child's masks on one cache line, measured no faster and took 1 GB more.)

use std::sync::atomic::{AtomicU8, AtomicU16, Ordering};
use std::thread;

use super::error::PdbError;
use super::lookup::PatternDatabases;
use super::partition::{CELLS, DIMENSION, Partition, placements, rank};

const UNSEEN: u8 = u8::MAX;

/// Placements one worker scans before moving on to its next stretch.
const STRETCH: usize = 1 << 14;

/// Every cell.
const ALL_CELLS: u32 = (1 << CELLS) - 1;

/// The cells of the leftmost and of the rightmost column.
const LEFT_COLUMN: u32 = 0x1111;
const RIGHT_COLUMN: u32 = 0x8888;

/// Builds every table of `partition`, one after the other, each on every core.
pub fn build(partition: &Partition) -> Result<PatternDatabases, PdbError> {
    let tables = partition.patterns().iter().map(|pattern| build_table(pattern)).collect::<Result<Vec<_>, _>>()?;
    PatternDatabases::from_tables(partition.clone(), tables)
}

/// The cells next to `cell`.
fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / DIMENSION, cell % DIMENSION);
    [
        (row > 0).then(|| cell - DIMENSION),
        (row + 1 < DIMENSION).then(|| cell + DIMENSION),
        (col > 0).then(|| cell - 1),
        (col + 1 < DIMENSION).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// The cells of `free` connected to `seeds` through `free` (all masks of cells).
fn flood(seeds: u32, free: u32) -> u32 {
    let mut region = seeds & free;
    loop {
        let grown = region
            | (((region << DIMENSION)
                | (region >> DIMENSION)
                | ((region << 1) & !LEFT_COLUMN)
                | ((region >> 1) & !RIGHT_COLUMN))
                & free);
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// The cells of a placement from its rank: the inverse of [`rank`] for `len` cells.
fn unrank(mut index: usize, len: usize) -> [u8; CELLS] {
    let mut digits = [0usize; CELLS];
    for i in (0..len).rev() {
        digits[i] = index % (CELLS - i);
        index /= CELLS - i;
    }
    let mut cells = [0u8; CELLS];
    let mut used = 0u32;
    for (slot, &digit) in cells.iter_mut().zip(&digits[..len]) {
        let mut free = !used & ALL_CELLS;
        for _ in 0..digit {
            free &= free - 1;
        }
        let cell = free.trailing_zeros();
        *slot = cell as u8;
        used |= 1 << cell;
    }
    cells
}

/// The search's state: per placement, the blank cells reached, those to expand at this depth
/// and at the next, and the depth it was first reached at.
struct Layers {
    k: usize,
    visited: Vec<AtomicU16>,
    current: Vec<AtomicU16>,
    next: Vec<AtomicU16>,
    depth_of: Vec<AtomicU8>,
}

/// The table of one pattern: entry `rank(cells of its tiles)` is the fewest pattern moves home.
pub fn build_table(pattern: &[u8]) -> Result<Vec<u8>, PdbError> {
    let k = pattern.len();
    let size = placements(k);
    let masks = || (0..size).map(|_| AtomicU16::new(0)).collect::<Vec<_>>();
    let mut layers = Layers {
        k,
        visited: masks(),
        current: masks(),
        next: masks(),
        depth_of: (0..size).map(|_| AtomicU8::new(UNSEEN)).collect(),
    };
    let goal = rank(pattern.iter().map(|&tile| usize::from(tile) - 1));
    layers.current[goal].store(1 << (CELLS - 1), Ordering::Relaxed);
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
    Ok(layers.depth_of.into_iter().map(AtomicU8::into_inner).collect())
}

impl Layers {
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
                if self.current[placement].load(Ordering::Relaxed) == 0 {
                    continue;
                }
                let seeds = u32::from(self.current[placement].swap(0, Ordering::Relaxed));
                let cells = unrank(placement, self.k);
                let occupied = cells[..self.k].iter().fold(0u32, |mask, &cell| mask | (1 << cell));
                let visited = u32::from(self.visited[placement].load(Ordering::Relaxed));
                // Regions are reached whole, so a seed in a visited region is stale.
                let region = flood(seeds & !visited, !occupied & ALL_CELLS);
                if region == 0 {
                    continue;
                }
                self.visited[placement].fetch_or(region as u16, Ordering::Relaxed);
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
    fn slide_into(&self, cells: &[u8; CELLS], region: u32) -> usize {
        let mut queued = 0;
        for (tile, &cell) in cells[..self.k].iter().enumerate() {
            let cell = usize::from(cell);
            for target in neighbours(cell).filter(|&target| region & (1 << target) != 0) {
                let mut moved = *cells;
                moved[tile] = target as u8;
                let child = rank(moved[..self.k].iter().map(|&cell| usize::from(cell)));
                let blank = 1u16 << cell;
                // Plain loads first: most children are already reached or queued, and an atomic
                // `or` is a locked instruction.
                let seen = self.visited[child].load(Ordering::Relaxed) | self.next[child].load(Ordering::Relaxed);
                if seen & blank == 0 && self.next[child].fetch_or(blank, Ordering::Relaxed) & blank == 0 {
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
    /// separately, for small patterns.
    fn zero_one_bfs(pattern: &[u8]) -> Vec<u8> {
        let k = pattern.len();
        let free_cells = CELLS - k;
        let mut distance = vec![UNSEEN; placements(k + 1)];
        let goal = rank(pattern.iter().map(|&tile| usize::from(tile) - 1).chain([CELLS - 1]));
        distance[goal] = 0;
        let mut layers = vec![vec![goal]];
        let mut depth = 0;
        while let Some(mut layer) = layers.pop() {
            let mut next = Vec::new();
            let mut i = 0;
            while let Some(&state) = layer.get(i) {
                i += 1;
                if distance[state] != depth {
                    continue;
                }
                let cells = unrank(state, k + 1);
                let blank = usize::from(cells[k]);
                for target in neighbours(blank) {
                    let mut moved = cells;
                    moved[k] = target as u8;
                    let slot = cells[..k].iter().position(|&cell| usize::from(cell) == target);
                    if let Some(slot) = slot {
                        moved[slot] = blank as u8;
                    }
                    let cost = u8::from(slot.is_some());
                    let child = rank(moved[..=k].iter().map(|&cell| usize::from(cell)));
                    if distance[child] > depth + cost {
                        distance[child] = depth + cost;
                        if cost == 0 { layer.push(child) } else { next.push(child) }
                    }
                }
            }
            if !next.is_empty() {
                layers.push(next);
            }
            depth += 1;
        }
        distance.chunks_exact(free_cells).map(|blanks| blanks.iter().copied().min().unwrap_or(UNSEEN)).collect()
    }

    #[test]
    fn unrank_inverts_rank() {
        for index in [0, 1, 17, 3000, placements(3) - 1] {
            let cells = unrank(index, 3);
            assert_eq!(rank(cells[..3].iter().map(|&c| usize::from(c))), index);
        }
    }

    #[test]
    fn flood_stays_inside_the_free_cells() {
        // Cells 0 and 15 free, the rest blocked: two separate regions.
        assert_eq!(flood(1, 1 | 1 << 15), 1);
        // The top row is one region, reaching down through cell 7.
        assert_eq!(flood(1, 0xF), 0xF);
        assert_eq!(flood(1, 0xF | 1 << 7), 0xF | 1 << 7);
        // Cells 3 and 4 are consecutive but not neighbours: nothing wraps around a row's end.
        assert_eq!(flood(1 << 3, 1 << 3 | 1 << 4), 1 << 3);
        assert_eq!(flood(1 << 4, 1 << 3 | 1 << 4), 1 << 4);
    }

    #[test]
    fn a_single_tile_table_is_its_manhattan_distance() {
        for tile in [1u8, 6, 15] {
            let table = build_table(&[tile]).expect("builds");
            let goal = usize::from(tile) - 1;
            for cell in 0..CELLS {
                let manhattan = (cell / 4).abs_diff(goal / 4) + (cell % 4).abs_diff(goal % 4);
                assert_eq!(usize::from(table[rank([cell])]), manhattan, "tile {tile} at {cell}");
            }
        }
    }

    #[test]
    fn the_region_search_agrees_with_a_plain_zero_one_bfs() {
        for pattern in [&[1u8, 2, 5][..], &[4, 8, 12], &[10, 14, 15]] {
            assert_eq!(build_table(pattern).expect("builds"), zero_one_bfs(pattern), "pattern {pattern:?}");
        }
    }
}
