//! How the symmetries of the square grid (see [`cells`](super::cells)) let one table serve
//! several patterns.
//!
//! A pattern's table depends only on its tiles' goal cells and on the abstract goal. A symmetry
//! σ of the grid (a rotation or a reflection) maps every abstract state of the pattern on goal
//! cells G, move for move, to a state of the pattern on goal cells σ(G), so the table of σ(G) is
//! the table of G read at the placement mapped back by σ⁻¹. That holds when σ also maps the
//! abstract goal to itself. Every table's goal is the pattern's tiles home with the blank in its
//! goal corner, so:
//!
//! - when the free cells of the pattern's goal are connected, the blank reaches every one of them
//!   for free, the goal is "the tiles home, the blank anywhere", and every symmetry serves (as
//!   long as σ(G) avoids the blank's goal cell, which holds since σ(G) must be the goal cells of
//!   tiles): this is how one 3×2 block serves all three blocks of 6-6-6-6;
//! - when the pattern walls the corner off (as the six tiles around it do), only the symmetries
//!   that fix the corner serve: the identity and the reflection about the main diagonal; such a
//!   table keeps the stronger bound of the blank's true goal.
//!
//! The reflection about the main diagonal maps the whole goal to itself, so it also gives a
//! second additive bound on the mirrored board (see [`lookup`](super::lookup)).

use super::cells::{CellMap, flood, inverse, symmetries};

/// Whether the cells left free by `pattern`'s tiles at home are all connected, so that its
/// table's goal is the same for the blank anywhere (see the module docs).
fn goal_is_symmetric(dimension: usize, pattern: &[u8]) -> bool {
    let cells = dimension * dimension;
    let all = u32::MAX >> (32 - cells);
    let free = pattern.iter().fold(all, |free, &tile| free & !(1 << (tile - 1)));
    flood(dimension, 1 << (cells - 1), free) == free
}

/// How to read the pattern whose tiles have the goal cells `goals` from one of the tables of
/// `stored` (each given by its tiles, in their table's order): the table, the tiles to read in
/// the table's order, and the map from a board cell to the cell the table is read at. `None` if
/// no symmetry of the goal maps a stored pattern onto `goals`.
pub fn find_view(dimension: usize, stored: &[&[u8]], goals: &[u8]) -> Option<(usize, Vec<u8>, CellMap)> {
    let cells = dimension * dimension;
    let mut wanted: Vec<u8> = goals.to_vec();
    wanted.sort_unstable();
    let corner = cells - 1;
    for map in symmetries(dimension) {
        for (table, pattern) in stored.iter().enumerate() {
            if usize::from(map[corner]) != corner && !goal_is_symmetric(dimension, pattern) {
                continue;
            }
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
    fn walled_corners_allow_only_the_transpose() {
        assert!(goal_is_symmetric(4, &[1, 2, 3]));
        assert!(!goal_is_symmetric(4, &[12, 15]), "tiles 12 and 15 wall the corner off");
        // Tiles 12 and 15 read as tiles 2 and 5 (half a turn) would move the corner: refused.
        assert!(find_view(4, &[&[12, 15]], &[4, 1]).is_none());
        assert!(find_view(4, &[&[12, 15]], &[14, 11]).is_some(), "the transpose");
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
    }
}
