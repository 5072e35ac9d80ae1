//! `Board`: an immutable N×N sliding-tile position, with the spec's Hamming and Manhattan
//! distances, goal test, twin, neighbors, solvability by inversion parity, and its text form.
//!
//! The goal is the spec's: tiles `1..N*N-1` in row-major order, then the blank (`0`) in the
//! bottom-right corner.

use std::fmt;

use thiserror::Error;

/// The largest dimension a `Board` can hold: N*N-1 must fit a `u16` tile label.
pub const MAX_DIMENSION: usize = 255;

/// The dimension cap used unless a caller asks for another: the spec's grader goes to 127×127.
pub const DEFAULT_MAX_DIMENSION: usize = 128;

/// Why a set of tiles is not a board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BoardError {
    /// N must be at least 2: a 1×1 board has no moves and no twin.
    #[error("dimension {0} is too small: a board is at least 2x2")]
    DimensionTooSmall(usize),
    /// N is above what this board (or this server) accepts.
    #[error("dimension {dimension} is above the maximum {max}")]
    DimensionTooLarge {
        /// The N given.
        dimension: usize,
        /// The largest N accepted.
        max: usize,
    },
    /// The tile list is not N*N long.
    #[error("a {dimension}x{dimension} board needs {expected} tiles, got {actual}")]
    WrongTileCount {
        /// The N given.
        dimension: usize,
        /// N*N.
        expected: usize,
        /// The tiles given.
        actual: usize,
    },
    /// A tile label is not in `0..N*N`.
    #[error("tile {tile} at position {position} is out of range 0..={max}")]
    TileOutOfRange {
        /// The label given.
        tile: u64,
        /// Its index in the tile list (row-major).
        position: usize,
        /// The largest label allowed, N*N - 1.
        max: usize,
    },
    /// A tile label appears twice.
    #[error("tile {tile} appears twice (positions {first} and {second})")]
    DuplicateTile {
        /// The label given twice.
        tile: usize,
        /// The index of its first occurrence.
        first: usize,
        /// The index of its second occurrence.
        second: usize,
    },
}

/// Where a tile slides when it moves into the blank: the spec's "1 left", "2 up".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards row 0.
    Up,
    /// Towards row N - 1.
    Down,
    /// Towards column 0.
    Left,
    /// Towards column N - 1.
    Right,
}

impl Direction {
    /// All four, in a fixed order, so searches and neighbor lists are deterministic.
    pub const ALL: [Direction; 4] = [Direction::Up, Direction::Down, Direction::Left, Direction::Right];

    /// The move that undoes this one.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// Its letter in a solution's `blank_moves`: `U`, `D`, `L`, `R`.
    pub fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }

    /// The spec's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One move of a solution: which tile slid, and which way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    /// The tile's label (never 0).
    pub tile: u16,
    /// The way the tile slid (the blank moved the opposite way).
    pub direction: Direction,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.tile, self.direction)
    }
}

/// An immutable N×N position. Cheap to clone for the sizes searches keep (the tiles are one
/// boxed slice of `u16`), and equal boards hash equally.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    dimension: u16,
    blank: u16,
    tiles: Box<[u16]>,
}

impl Board {
    /// Builds a board from row-major tiles (0 = blank), checking that they are a permutation of
    /// `0..N*N` and that `2 <= N <= DEFAULT_MAX_DIMENSION`.
    pub fn new(dimension: usize, tiles: &[u16]) -> Result<Board, BoardError> {
        Board::with_max_dimension(dimension, tiles, DEFAULT_MAX_DIMENSION)
    }

    /// As [`Board::new`], with another cap on N (a server's `--max-dimension`); the cap itself
    /// never goes above [`MAX_DIMENSION`].
    pub fn with_max_dimension(dimension: usize, tiles: &[u16], max: usize) -> Result<Board, BoardError> {
        check_dimension(dimension, max)?;
        let cells = dimension * dimension;
        if tiles.len() != cells {
            return Err(BoardError::WrongTileCount { dimension, expected: cells, actual: tiles.len() });
        }
        let mut seen_at = vec![usize::MAX; cells];
        for (position, &tile) in tiles.iter().enumerate() {
            let label = usize::from(tile);
            if label >= cells {
                return Err(BoardError::TileOutOfRange { tile: u64::from(tile), position, max: cells - 1 });
            }
            if seen_at[label] != usize::MAX {
                return Err(BoardError::DuplicateTile { tile: label, first: seen_at[label], second: position });
            }
            seen_at[label] = position;
        }
        Ok(Board::from_checked(dimension, tiles.into()))
    }

    /// The goal board of dimension N.
    pub fn goal(dimension: usize) -> Result<Board, BoardError> {
        check_dimension(dimension, MAX_DIMENSION)?;
        let cells = dimension * dimension;
        let tiles: Box<[u16]> = (1..cells).chain(std::iter::once(0)).map(|t| t as u16).collect();
        Ok(Board::from_checked(dimension, tiles))
    }

    fn from_checked(dimension: usize, tiles: Box<[u16]>) -> Board {
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        Board { dimension: dimension as u16, blank: blank as u16, tiles }
    }

    /// N.
    pub fn dimension(&self) -> usize {
        usize::from(self.dimension)
    }

    /// The tiles in row-major order, 0 = blank.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The tile at row `row`, column `col`.
    pub fn tile_at(&self, row: usize, col: usize) -> u16 {
        self.tiles[row * self.dimension() + col]
    }

    /// The blank's row-major index.
    pub fn blank_index(&self) -> usize {
        usize::from(self.blank)
    }

    /// Number of tiles out of place, the blank not counted.
    pub fn hamming(&self) -> u32 {
        self.tiles.iter().enumerate().filter(|&(i, &t)| t != 0 && usize::from(t) != i + 1).count() as u32
    }

    /// Sum over the tiles (not the blank) of their row and column distances to their goal cells.
    pub fn manhattan(&self) -> u32 {
        let n = self.dimension();
        self.tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(i, &t)| {
                let goal = usize::from(t) - 1;
                (i / n).abs_diff(goal / n) + (i % n).abs_diff(goal % n)
            })
            .sum::<usize>() as u32
    }

    /// Is this the goal board?
    pub fn is_goal(&self) -> bool {
        let last = self.tiles.len() - 1;
        self.tiles[last] == 0 && self.tiles[..last].iter().enumerate().all(|(i, &t)| usize::from(t) == i + 1)
    }

    /// The board with the first two adjacent non-blank tiles of a row swapped: row 0 unless the
    /// blank is there, else row 1. A twin has the opposite solvability.
    pub fn twin(&self) -> Board {
        let n = self.dimension();
        let row = if self.blank_index() / n == 0 { 1 } else { 0 };
        let mut tiles = self.tiles.clone();
        tiles.swap(row * n, row * n + 1);
        Board { dimension: self.dimension, blank: self.blank, tiles }
    }

    /// Every board one slide away, in the order of [`Direction::ALL`] (the tile's direction).
    pub fn neighbors(&self) -> impl Iterator<Item = Board> + '_ {
        Direction::ALL.into_iter().filter_map(|d| self.slide(d).map(|(board, _)| board))
    }

    /// The board after the tile that can slide `direction` does so, with that step; `None` when
    /// no tile can slide that way.
    pub fn slide(&self, direction: Direction) -> Option<(Board, Step)> {
        let from = self.tile_to_slide(direction)?;
        let mut tiles = self.tiles.clone();
        tiles.swap(from, self.blank_index());
        let step = Step { tile: self.tiles[from], direction };
        Some((Board { dimension: self.dimension, blank: from as u16, tiles }, step))
    }

    /// The index of the tile that would slide `direction` into the blank.
    fn tile_to_slide(&self, direction: Direction) -> Option<usize> {
        tile_to_slide(self.dimension(), self.blank_index(), direction)
    }

    /// Whether the goal can be reached, by inversion parity: for odd N the number of inversions
    /// must be even; for even N, inversions plus the blank's row distance from the bottom row
    /// must be even. O(N² log N²) with a Fenwick tree, so it stays fast at N = 128.
    pub fn is_solvable(&self) -> bool {
        let n = self.dimension();
        let inversions = count_inversions(&self.tiles);
        if n % 2 == 1 {
            inversions.is_multiple_of(2)
        } else {
            let blank_rows_from_bottom = n - 1 - self.blank_index() / n;
            (inversions + blank_rows_from_bottom as u64).is_multiple_of(2)
        }
    }
}

/// The row and column of an N×N board's cells by a multiplication rather than a division, for
/// loops that place many cells: exact for every board up to [`MAX_DIMENSION`] (the error of the
/// rounded reciprocal, under 2⁻¹⁶ for cells below 2¹⁶, stays under the 1 / N the next row is
/// away).
#[derive(Debug, Clone, Copy)]
pub struct Coordinates {
    dimension: usize,
    /// ⌈2³² / dimension⌉.
    reciprocal: u64,
}

impl Coordinates {
    /// The coordinates of a `dimension`×`dimension` board.
    pub fn new(dimension: usize) -> Coordinates {
        Coordinates { dimension, reciprocal: (1u64 << 32).div_ceil(dimension.max(1) as u64) }
    }

    /// The row and column of `cell`.
    #[inline]
    pub fn row_and_column(&self, cell: usize) -> (usize, usize) {
        let row = ((cell as u64 * self.reciprocal) >> 32) as usize;
        (row, cell - row * self.dimension)
    }
}

/// On an N×N board with the blank at row-major index `blank`, the index of the tile that would
/// slide `direction` into it, if there is one. Searches use it on their own packed states.
#[inline]
pub fn tile_to_slide(dimension: usize, blank: usize, direction: Direction) -> Option<usize> {
    tile_to_slide_in(dimension, dimension, blank, direction)
}

/// [`tile_to_slide`] on a rectangle of `rows` × `cols` cells: the part of a board a search
/// confines itself to.
#[inline]
pub fn tile_to_slide_in(rows: usize, cols: usize, blank: usize, direction: Direction) -> Option<usize> {
    let (row, col) = (blank / cols, blank % cols);
    match direction {
        Direction::Up => (row + 1 < rows).then(|| blank + cols),
        Direction::Down => (row > 0).then(|| blank - cols),
        Direction::Left => (col + 1 < cols).then(|| blank + 1),
        Direction::Right => (col > 0).then(|| blank - 1),
    }
}

fn check_dimension(dimension: usize, max: usize) -> Result<(), BoardError> {
    let max = max.min(MAX_DIMENSION);
    if dimension < 2 {
        Err(BoardError::DimensionTooSmall(dimension))
    } else if dimension > max {
        Err(BoardError::DimensionTooLarge { dimension, max })
    } else {
        Ok(())
    }
}

/// Inversions among the non-blank tiles (pairs out of order), with a Fenwick tree.
fn count_inversions(tiles: &[u16]) -> u64 {
    let mut tree = vec![0u32; tiles.len() + 1];
    let mut inversions = 0u64;
    for (seen, &tile) in tiles.iter().filter(|&&t| t != 0).enumerate() {
        let mut i = usize::from(tile);
        let mut not_greater = 0u64;
        while i > 0 {
            not_greater += u64::from(tree[i]);
            i &= i - 1;
        }
        inversions += seen as u64 - not_greater;
        let mut i = usize::from(tile);
        while i < tree.len() {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    inversions
}

impl fmt::Display for Board {
    /// The spec's text form: N on a line, then each row with every tile right-aligned in a cell
    /// two wide (wider when N*N-1 has more digits) followed by a space, then a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.dimension();
        let width = (n * n - 1).to_string().len().max(2);
        writeln!(f, "{n}")?;
        for row in self.tiles.chunks(n) {
            for tile in row {
                write!(f, "{tile:>width$} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}: {:?})", self.dimension, self.tiles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_agree_with_division_on_every_size() {
        for n in 1..=MAX_DIMENSION {
            let coordinates = Coordinates::new(n);
            for cell in 0..n * n {
                assert_eq!(coordinates.row_and_column(cell), (cell / n, cell % n), "cell {cell} of {n}×{n}");
            }
        }
    }

    fn board(n: usize, tiles: &[u16]) -> Board {
        Board::new(n, tiles).expect("valid board")
    }

    #[test]
    fn spec_example_distances() {
        let b = board(3, &[8, 1, 3, 4, 0, 2, 7, 6, 5]);
        assert_eq!(b.hamming(), 5);
        assert_eq!(b.manhattan(), 10);
        assert!(!b.is_goal());
    }

    #[test]
    fn goal_is_goal_and_solvable() {
        for n in 2..=6 {
            let g = Board::goal(n).expect("goal");
            assert!(g.is_goal());
            assert!(g.is_solvable());
            assert_eq!(g.hamming(), 0);
            assert_eq!(g.manhattan(), 0);
            assert!(!g.twin().is_solvable());
        }
    }

    #[test]
    fn spec_unsolvable_example() {
        assert!(!board(3, &[1, 2, 3, 4, 5, 6, 8, 7, 0]).is_solvable());
    }

    #[test]
    fn even_dimension_parity_uses_blank_row() {
        // One slide up of the blank from the goal stays solvable.
        let b = board(4, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12]);
        assert!(b.is_solvable());
        let swapped = board(4, &[2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);
        assert!(!swapped.is_solvable());
    }

    #[test]
    fn twin_swaps_adjacent_tiles_off_the_blank_row() {
        let b = board(3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]);
        assert_eq!(b.twin().tiles(), &[0, 1, 3, 2, 4, 5, 7, 8, 6]);
        let c = board(3, &[1, 2, 3, 0, 4, 5, 7, 8, 6]);
        assert_eq!(c.twin().tiles(), &[2, 1, 3, 0, 4, 5, 7, 8, 6]);
        assert_eq!(c.twin(), c.twin());
    }

    #[test]
    fn neighbors_of_a_corner_and_a_center() {
        let corner = board(3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]);
        assert_eq!(corner.neighbors().count(), 2);
        let center = board(3, &[8, 1, 3, 4, 0, 2, 7, 6, 5]);
        let all: Vec<Board> = center.neighbors().collect();
        assert_eq!(all.len(), 4);
        assert!(all.iter().all(|b| b.manhattan().abs_diff(center.manhattan()) == 1));
        assert!(all.iter().all(|b| b.neighbors().any(|back| back == center)));
    }

    #[test]
    fn slide_reports_the_tile_and_its_direction() {
        let b = board(3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]);
        let (after, step) = b.slide(Direction::Left).expect("tile 1 can slide left");
        assert_eq!(step, Step { tile: 1, direction: Direction::Left });
        assert_eq!(after.tiles(), &[1, 0, 3, 4, 2, 5, 7, 8, 6]);
        assert!(b.slide(Direction::Right).is_none());
    }

    #[test]
    fn display_matches_the_spec_byte_for_byte() {
        let b = board(3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]);
        assert_eq!(b.to_string(), "3\n 0  1  3 \n 4  2  5 \n 7  8  6 \n");
    }

    #[test]
    fn display_widens_cells_for_three_digit_tiles() {
        let g = Board::goal(11).expect("goal");
        let text = g.to_string();
        let first_row = text.lines().nth(1).expect("a row");
        assert!(first_row.starts_with("  1   2 "), "{first_row:?}");
        assert!(text.lines().last().expect("a row").ends_with("120   0 "));
    }

    #[test]
    fn rejects_bad_tiles() {
        assert_eq!(Board::new(1, &[0]), Err(BoardError::DimensionTooSmall(1)));
        assert!(matches!(Board::new(2, &[0, 1, 2]), Err(BoardError::WrongTileCount { .. })));
        assert!(matches!(Board::new(2, &[0, 1, 2, 4]), Err(BoardError::TileOutOfRange { tile: 4, .. })));
        assert_eq!(Board::new(2, &[0, 1, 1, 3]), Err(BoardError::DuplicateTile { tile: 1, first: 1, second: 2 }));
        assert!(matches!(
            Board::with_max_dimension(5, &[0; 25], 4),
            Err(BoardError::DimensionTooLarge { dimension: 5, max: 4 })
        ));
    }

    #[test]
    fn inversions_match_a_quadratic_count() {
        let tiles = [5u16, 0, 3, 8, 1, 7, 2, 6, 4];
        let nonblank: Vec<u16> = tiles.iter().copied().filter(|&t| t != 0).collect();
        let mut naive = 0;
        for i in 0..nonblank.len() {
            for j in i + 1..nonblank.len() {
                if nonblank[i] > nonblank[j] {
                    naive += 1;
                }
            }
        }
        assert_eq!(count_inversions(&tiles), naive);
    }
}
