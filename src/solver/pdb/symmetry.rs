//! The symmetries of the square grid, and how they let one table serve several patterns.
//!
//! A pattern's table depends only on its tiles' goal cells and on the abstract goal. A symmetry
//! σ of the grid (a rotation or a reflection) maps every abstract state of the pattern on goal
//! cells G, move for move, to a state of the pattern on goal cells σ(G), so the table of σ(G) is
//! the table of G read at the placement mapped back by σ⁻¹. That holds when σ also maps the
//! abstract goal to itself:
//!
//! - 5×5 tables take "the pattern's tiles home, the blank anywhere" as their goal, which every
//!   symmetry keeps, so all eight serve (as long as σ(G) avoids the blank's goal cell, which
//!   holds since σ(G) must be the goal cells of tiles);
//! - 4×4 tables keep the blank's goal in the bottom-right corner, the stronger bound that their
//!   files have always held, so only the symmetries that fix that corner serve: the identity
//!   and the reflection about the main diagonal.
//!
//! The reflection about the main diagonal maps the whole goal to itself, so it also gives a
//! second additive bound on the mirrored board (see [`lookup`](super::lookup)).

use super::partition::MAX_CELLS;

/// A symmetry of the grid: the image of every cell.
pub type CellMap = [u8; MAX_CELLS];

/// The reflection about the main diagonal of the `dimension`² grid: (r, c) to (c, r).
pub fn transpose(dimension: usize) -> CellMap {
    cell_map(dimension, |row, col| (col, row))
}

/// `map` as a table of cells (unused entries beyond the grid are 0).
fn cell_map(dimension: usize, map: impl Fn(usize, usize) -> (usize, usize)) -> CellMap {
    let mut cells = [0u8; MAX_CELLS];
    for (cell, image) in cells.iter_mut().enumerate().take(dimension * dimension) {
        let (row, col) = map(cell / dimension, cell % dimension);
        *image = (row * dimension + col) as u8;
    }
    cells
}

/// A symmetry as a function of the last row or column index and a cell's (row, column).
type GridMap = fn(usize, usize, usize) -> (usize, usize);

/// The symmetries that keep the abstract goal of a `dimension`² table (see the module docs),
/// the identity first.
pub fn goal_symmetries(dimension: usize) -> Vec<CellMap> {
    let last = dimension - 1;
    let all: [GridMap; 8] = [
        |_, r, c| (r, c),
        |_, r, c| (c, r),
        |l, r, c| (r, l - c),
        |l, r, c| (l - r, c),
        |l, r, c| (l - r, l - c),
        |l, r, c| (c, l - r),
        |l, r, c| (l - c, r),
        |l, r, c| (l - c, l - r),
    ];
    let corner = dimension * dimension - 1;
    all.iter()
        .map(|map| cell_map(dimension, |row, col| map(last, row, col)))
        .filter(|map| blank_anywhere(dimension) || usize::from(map[corner]) == corner)
        .collect()
}

/// Whether `dimension`² tables take "the blank anywhere" as their goal (5×5) rather than the
/// blank in its goal corner (4×4).
pub fn blank_anywhere(dimension: usize) -> bool {
    dimension == 5
}

/// The inverse of `map` on the `cells` cells of its grid.
pub fn inverse(map: &CellMap, cells: usize) -> CellMap {
    let mut inverse = [0u8; MAX_CELLS];
    for (cell, &image) in map.iter().enumerate().take(cells) {
        inverse[usize::from(image)] = cell as u8;
    }
    inverse
}

/// How to read the pattern whose tiles have the goal cells `goals` from one of the tables of
/// `stored` (each given by its tiles, in their table's order): the table, the tiles to read in
/// the table's order, and the map from a board cell to the cell the table is read at. `None` if
/// no symmetry of the goal maps a stored pattern onto `goals`.
pub fn find_view(dimension: usize, stored: &[&[u8]], goals: &[u8]) -> Option<(usize, Vec<u8>, CellMap)> {
    let cells = dimension * dimension;
    let mut wanted: Vec<u8> = goals.to_vec();
    wanted.sort_unstable();
    for map in goal_symmetries(dimension) {
        for (table, pattern) in stored.iter().enumerate() {
            let images: Vec<u8> = pattern.iter().map(|&tile| map[usize::from(tile) - 1]).collect();
            let mut sorted = images.clone();
            sorted.sort_unstable();
            if sorted == wanted {
                let tiles = images.iter().map(|&goal| goal + 1).collect();
                return Some((table, tiles, inverse(&map, cells)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_symmetries_on_five_by_five_two_on_four_by_four() {
        assert_eq!(goal_symmetries(5).len(), 8);
        let four = goal_symmetries(4);
        assert_eq!(four, vec![cell_map(4, |r, c| (r, c)), transpose(4)]);
        for map in goal_symmetries(5) {
            let mut images: Vec<u8> = map[..25].to_vec();
            images.sort_unstable();
            assert_eq!(images, (0..25).collect::<Vec<u8>>(), "a permutation");
            assert_eq!(inverse(&inverse(&map, 25), 25)[..25], map[..25]);
        }
    }

    #[test]
    fn a_rotated_block_is_read_from_the_stored_one() {
        // Tiles 11, 12, 16, 17, 21, 22 (a 3×2 block at the bottom left) seen from tiles 4, 5,
        // 9, 10, 14, 15 (the same block at the top right) turned half a turn.
        let stored: &[&[u8]] = &[&[11, 12, 16, 17, 21, 22]];
        let (table, tiles, back) = find_view(5, stored, &[3, 4, 8, 9, 13, 14]).expect("a symmetry");
        assert_eq!(table, 0);
        assert_eq!(tiles, vec![15, 14, 10, 9, 5, 4]);
        assert_eq!(back[14], 10);
        assert!(find_view(4, &[&[1, 2, 3]], &[0, 4, 8]).is_some(), "the transpose");
        assert!(find_view(4, &[&[1, 2, 3]], &[12, 13, 14]).is_none(), "no rotation on 4x4");
    }
}
