//! Every 3×3 board from a table: the distance to the goal of all 181,440 solvable boards, found
//! by one breadth-first search back from the goal the first time it is needed (milliseconds,
//! 363 KB), then walked down to the goal one move at a time, each move to a
//! neighbour one closer. An answer is a few hundred table reads: microseconds, not the
//! milliseconds A* spends on a hard board.

use crate::solver::method::DISTANCE_TABLE_DIMENSION;
use std::sync::OnceLock;

use crate::board::{Board, Direction, tile_to_slide};
use crate::solver::error::SearchError;
use crate::solver::search::PathWithBound;

/// The side of the boards the table holds.
pub const DIMENSION: usize = DISTANCE_TABLE_DIMENSION;
const CELLS: usize = DIMENSION * DIMENSION;
/// Permutations of nine cells, solvable or not: the table's length.
const PERMUTATIONS: usize = 362_880;
/// The mark of a board the search from the goal never reached: an unsolvable one.
const UNREACHED: u8 = u8::MAX;

static DISTANCES: OnceLock<Vec<u8>> = OnceLock::new();

/// The position of a permutation of `0..9` in lexicographic order (its Lehmer code): each
/// digit counts the smaller values not yet used, one mask and one popcount.
fn rank(tiles: &[u8; CELLS]) -> usize {
    let mut unused: u32 = (1 << CELLS) - 1;
    let mut index = 0;
    for (i, &tile) in tiles.iter().enumerate() {
        index = index * (CELLS - i) + (unused & ((1 << tile) - 1)).count_ones() as usize;
        unused &= !(1 << tile);
    }
    index
}

/// The table, built on first use: a breadth-first search whose queue holds the boards
/// themselves (181,440 × 9 bytes), so each is ranked once more when taken off.
fn distances() -> &'static [u8] {
    DISTANCES.get_or_init(|| {
        let mut distances = vec![UNREACHED; PERMUTATIONS];
        let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        distances[rank(&goal)] = 0;
        let mut queue = Vec::with_capacity(PERMUTATIONS / 2);
        queue.push(goal);
        let mut head = 0;
        while let Some(&board) = queue.get(head) {
            head += 1;
            let next = distances[rank(&board)] + 1;
            let blank = board.iter().position(|&tile| tile == 0).unwrap_or(0);
            for direction in Direction::ALL {
                let Some(from) = tile_to_slide(DIMENSION, blank, direction) else { continue };
                let mut neighbour = board;
                neighbour.swap(from, blank);
                let slot = &mut distances[rank(&neighbour)];
                if *slot == UNREACHED {
                    *slot = next;
                    queue.push(neighbour);
                }
            }
        }
        distances
    })
}

/// The fewest moves from `tiles` (a 3×3 board, row-major, 0 = blank) to the goal; `None` when
/// it is not a solvable 3×3 board.
pub fn distance(tiles: &[u16]) -> Option<u8> {
    let tiles = packed(tiles)?;
    Some(distances()[rank(&tiles)]).filter(|&distance| distance != UNREACHED)
}

fn packed(tiles: &[u16]) -> Option<[u8; CELLS]> {
    let tiles: [u16; CELLS] = tiles.try_into().ok()?;
    Some(tiles.map(|tile| tile as u8))
}

/// A shortest path for a solvable 3×3 `board`, walked down the table.
pub fn solve(board: &Board) -> Result<PathWithBound, SearchError> {
    let not_eight = || SearchError::Internal(format!("the 3x3 table was asked for a {0}x{0} board", board.dimension()));
    let mut tiles = packed(board.tiles()).ok_or_else(not_eight)?;
    let table = distances();
    let mut left = table[rank(&tiles)];
    if left == UNREACHED {
        return Err(SearchError::Internal("the 3x3 table was asked for an unsolvable board".into()));
    }
    let mut blank = board.blank_index();
    let mut path = Vec::with_capacity(usize::from(left));
    while left > 0 {
        let closer = Direction::ALL.into_iter().find_map(|direction| {
            let from = tile_to_slide(DIMENSION, blank, direction)?;
            tiles.swap(from, blank);
            if table[rank(&tiles)] == left - 1 {
                return Some((direction, from));
            }
            tiles.swap(from, blank);
            None
        });
        let (direction, from) = closer.ok_or_else(|| SearchError::Internal("the 3x3 table has a dead end".into()))?;
        path.push(direction);
        blank = from;
        left -= 1;
    }
    Ok(PathWithBound::optimal(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The permutation at `index` in lexicographic order.
    fn unrank(mut index: usize) -> [u8; CELLS] {
        let mut digits = [0usize; CELLS];
        for (i, digit) in digits.iter_mut().enumerate().rev() {
            let base = CELLS - i;
            *digit = index % base;
            index /= base;
        }
        let mut unused: Vec<u8> = (0..CELLS as u8).collect();
        digits.map(|digit| unused.remove(digit))
    }

    #[test]
    fn rank_and_unrank_are_inverse() {
        for index in [0, 1, 4_321, 181_439, PERMUTATIONS - 1] {
            assert_eq!(rank(&unrank(index)), index);
        }
    }

    #[test]
    fn every_distance_is_one_more_than_its_best_neighbour() {
        let table = distances();
        assert_eq!(table.iter().filter(|&&distance| distance != UNREACHED).count(), PERMUTATIONS / 2);
        assert_eq!(table.iter().filter(|&&distance| distance != UNREACHED).max(), Some(&31));
        for (index, &distance) in
            table.iter().enumerate().filter(|&(_, &distance)| distance != UNREACHED && distance > 0)
        {
            let mut tiles = unrank(index);
            let blank = tiles.iter().position(|&tile| tile == 0).expect("a blank");
            let best = Direction::ALL
                .into_iter()
                .filter_map(|direction| {
                    let from = tile_to_slide(DIMENSION, blank, direction)?;
                    tiles.swap(from, blank);
                    let neighbour = table[rank(&tiles)];
                    tiles.swap(from, blank);
                    Some(neighbour)
                })
                .min();
            assert_eq!(best, Some(distance - 1), "board {tiles:?}");
        }
    }
}
