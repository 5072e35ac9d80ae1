//! Building pattern-database tables by breadth-first search backwards from the goal.
//!
//! The search runs in the abstract space of one pattern: the cells of its k tiles plus the
//! blank's, all other tiles indistinct. Sliding a pattern tile costs one move, sliding an
//! indistinct tile costs nothing (it is another pattern's move), so this is a 0-1 BFS: states
//! reached through a free move join the current layer, the others the next. The table keeps,
//! for each placement of the pattern's tiles, the least distance over the blank's cells.
//!
//! Cost: a k-tile pattern has 16!/(15-k)! abstract states, one byte each while building (58 MB
//! for k = 6, 519 MB for k = 7), plus the two layer queues of 4-byte state ranks. The 6-6-3
//! default builds in about ten seconds on one core in a release build, its two 6-tile tables in
//! parallel.

use std::thread;

use super::pattern_db::{CELLS, DIMENSION, Partition, PatternDatabases, placements, rank};
use super::pdb_file::PdbError;

const UNSEEN: u8 = u8::MAX;

/// Builds every table of `partition`, one thread per pattern.
pub fn build(partition: &Partition) -> Result<PatternDatabases, PdbError> {
    let tables = thread::scope(|scope| {
        let workers: Vec<_> =
            partition.patterns().iter().map(|pattern| scope.spawn(move || build_table(pattern))).collect();
        workers.into_iter().map(|worker| worker.join()).collect::<Result<Vec<_>, _>>()
    })
    .map_err(|_| PdbError::BuildFailed)?;
    PatternDatabases::from_tables(partition.clone(), tables)
}

/// The cells next to each cell.
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
        let mut free = !used & ((1 << CELLS) - 1);
        for _ in 0..digit {
            free &= free - 1;
        }
        let cell = free.trailing_zeros();
        *slot = cell as u8;
        used |= 1 << cell;
    }
    cells
}

/// The table of one pattern: entry `rank(cells of its tiles)` is the fewest pattern moves home.
pub fn build_table(pattern: &[u8]) -> Vec<u8> {
    let k = pattern.len();
    let free_cells = CELLS - k;
    let mut distance = vec![UNSEEN; placements(k + 1)];
    // The goal: each tile on its own cell, the blank in the last cell.
    let goal = rank(pattern.iter().map(|&tile| usize::from(tile) - 1).chain([CELLS - 1]));
    distance[goal] = 0;
    let (mut current, mut next) = (vec![goal as u32], Vec::new());
    let mut depth = 0u8;
    while !current.is_empty() {
        let mut i = 0;
        while let Some(&state) = current.get(i) {
            i += 1;
            if distance[state as usize] != depth {
                continue; // Reached again, more cheaply, after it was queued.
            }
            let cells = unrank(state as usize, k + 1);
            let blank = usize::from(cells[k]);
            for target in neighbours(blank) {
                let mut moved = cells;
                moved[k] = target as u8;
                let pattern_tile = cells[..k].iter().position(|&cell| usize::from(cell) == target);
                if let Some(slot) = pattern_tile {
                    moved[slot] = blank as u8;
                }
                let cost = u8::from(pattern_tile.is_some());
                let child = rank(moved[..=k].iter().map(|&cell| usize::from(cell)));
                if distance[child] > depth + cost {
                    distance[child] = depth + cost;
                    if cost == 0 { current.push(child as u32) } else { next.push(child as u32) }
                }
            }
        }
        current.clear();
        std::mem::swap(&mut current, &mut next);
        depth += 1;
    }
    // The last rank digit is the blank's: each placement's blank cells are consecutive ranks.
    distance.chunks_exact(free_cells).map(|blanks| blanks.iter().copied().min().unwrap_or(UNSEEN)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::pattern_db::Partition;

    #[test]
    fn unrank_inverts_rank() {
        for index in [0, 1, 17, 4000, placements(3) - 1] {
            let cells = unrank(index, 3);
            assert_eq!(rank(cells[..3].iter().map(|&c| usize::from(c))), index);
        }
    }

    #[test]
    fn a_single_tile_table_is_its_manhattan_distance() {
        for tile in [1u8, 6, 15] {
            let table = build_table(&[tile]);
            let goal = usize::from(tile) - 1;
            for cell in 0..CELLS {
                let manhattan = (cell / 4).abs_diff(goal / 4) + (cell % 4).abs_diff(goal % 4);
                assert_eq!(usize::from(table[rank([cell])]), manhattan, "tile {tile} at {cell}");
            }
        }
    }

    #[test]
    fn every_placement_is_reached() {
        let partition = Partition::new(vec![vec![1, 2, 3], (4..10).collect(), (10..16).collect()]).expect("valid");
        let table = build_table(&partition.patterns()[0]);
        assert!(table.iter().all(|&d| d != UNSEEN));
        assert_eq!(table[rank([0, 1, 2])], 0);
    }
}
