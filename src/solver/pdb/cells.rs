//! The square grid's cells: the region a blank can reach, and the maps of cells that the
//! grid's symmetries make.
//!
//! These are the pieces that the partition's check, the build and the lookup all use, kept
//! below them so that no module of the folder needs one above it.

/// Cells of the largest board served (5×5), blank included.
pub const MAX_CELLS: usize = 25;

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

/// The eight symmetries of the `dimension`² grid, the identity first.
pub fn symmetries(dimension: usize) -> Vec<CellMap> {
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
    all.iter().map(|map| cell_map(dimension, |row, col| map(last, row, col))).collect()
}

/// The inverse of `map` on the `cells` cells of its grid.
pub fn inverse(map: &CellMap, cells: usize) -> CellMap {
    let mut inverse = [0u8; MAX_CELLS];
    for (cell, &image) in map.iter().enumerate().take(cells) {
        inverse[usize::from(image)] = cell as u8;
    }
    inverse
}

/// Every ordered pair of cells side by side on a `dimension`² board: each slide a tile can make,
/// as (from, to).
pub fn adjacent(dimension: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..dimension * dimension).flat_map(move |from| {
        let (row, column) = (from / dimension, from % dimension);
        let right = (column + 1 < dimension).then_some(from + 1);
        let down = (row + 1 < dimension).then_some(from + dimension);
        right.into_iter().chain(down).flat_map(move |to| [(from, to), (to, from)])
    })
}

/// `region` and the cells next to it, on a `dimension`² board (bits beyond the board may be set).
#[inline]
pub fn grow(dimension: usize, region: u32) -> u32 {
    let left_column = (0..dimension).fold(0u32, |mask, row| mask | 1 << (row * dimension));
    let right_column = left_column << (dimension - 1);
    region
        | (region << dimension)
        | (region >> dimension)
        | ((region << 1) & !left_column)
        | ((region >> 1) & !right_column)
}

/// The cells of `free` connected to `seeds` through `free` (all masks of cells of a
/// `dimension`² board).
#[inline]
pub fn flood(dimension: usize, seeds: u32, free: u32) -> u32 {
    let mut region = seeds & free;
    loop {
        let grown = grow(dimension, region) & free;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_gives_every_slide_once_each_way() {
        let pairs: Vec<(usize, usize)> = adjacent(5).collect();
        assert_eq!(pairs.len(), 2 * 40, "a 5×5 board has 40 edges");
        for &(from, to) in &pairs {
            let (dr, dc) = ((from / 5).abs_diff(to / 5), (from % 5).abs_diff(to % 5));
            assert_eq!(dr + dc, 1, "{from} and {to} are not side by side");
            assert_eq!(pairs.iter().filter(|&&pair| pair == (from, to)).count(), 1);
        }
        assert!(!pairs.contains(&(4, 5)), "no slide wraps round a row");
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
    fn symmetries_are_permutations_with_their_inverses() {
        for map in symmetries(5) {
            let mut images: Vec<u8> = map[..25].to_vec();
            images.sort_unstable();
            assert_eq!(images, (0..25).collect::<Vec<u8>>(), "a permutation");
            assert_eq!(inverse(&inverse(&map, 25), 25)[..25], map[..25]);
        }
        assert_eq!(symmetries(4)[1], transpose(4));
    }
}
