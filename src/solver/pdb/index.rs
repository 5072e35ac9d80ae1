//! Where a placement of a pattern's tiles is found in a table, for each board size the
//! databases serve.
//!
//! - 4×4 tables are indexed by the dense rank of the placement ([`rank16`]): a k-tile table
//!   has 16!/(16-k)! entries, which keeps the 8-tile table at 519 M entries (259 MB, two
//!   entries a byte: see [`entry`](super::entry)).
//! - 5×5 tables are indexed directly, cell by cell in base 25 ([`direct25`]): a 6-tile table
//!   has 25⁶ entries (122 MB at four bits, about twice the dense 25!/19!), but an index is six
//!   multiply-adds, the cheapest a 5×5 search can pay per node. Entries whose cells repeat are
//!   never read and hold 0.
//! - The breadth-first build works on dense ranks for both sizes ([`rank25`] for 5×5), so its
//!   per-placement masks stay at 127.5 M entries for a 6-tile 5×5 pattern; [`unrank`] inverts
//!   either rank.

/// The dense rank of a placement of distinct cells on a board of `$cells` cells: the
/// mixed-radix number whose i-th digit (radix `$cells - i`) is the i-th cell counted among the
/// cells not yet used. Each `$bits`-bit field of `below` counts the cells used so far below
/// that field's cell, so a digit is a shift and a subtraction, with no population count.
macro_rules! dense_rank {
    ($(#[$doc:meta])* $name:ident, $word:ty, $bits:expr, $cells:expr) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(cells: impl IntoIterator<Item = usize>) -> usize {
            const FIELD: $word = (1 << $bits) - 1;
            const ONES: $word = {
                let mut ones: $word = 0;
                let mut field = 0;
                while field < $cells {
                    ones |= 1 << ($bits * field);
                    field += 1;
                }
                ones
            };
            let mut below: $word = 0;
            let mut index = 0;
            for (i, cell) in cells.into_iter().enumerate() {
                let digit = cell - ((below >> ($bits * cell)) & FIELD) as usize;
                index = index * ($cells - i) + digit;
                below += (ONES << ($bits * cell)) << $bits;
            }
            index
        }
    };
}

dense_rank!(
    /// The dense rank of a placement on the 4×4 board, `0..16!/(16-k)!` for k cells: the index
    /// of a 4×4 table, and of the 4×4 build's masks.
    rank16, u64, 4, 16
);

dense_rank!(
    /// The dense rank of a placement on the 5×5 board, `0..25!/(25-k)!` for k cells: the index
    /// of the 5×5 build's masks (its tables are indexed by [`direct25`]).
    rank25, u128, 5, 25
);

/// The direct index of a placement on the 5×5 board: its cells as the digits of a base-25
/// number, first cell most significant.
#[inline]
pub fn direct25(cells: impl IntoIterator<Item = usize>) -> usize {
    cells.into_iter().fold(0, |index, cell| index * 25 + cell)
}

/// What one cell more at `position` of a `len`-cell placement adds to its [`direct25`] index:
/// 25 to the power of the cells after it. A search moves an index by this times the step of the
/// one tile that slid, instead of folding every cell again.
pub fn direct25_place(len: usize, position: usize) -> u32 {
    25u32.pow((len - 1 - position) as u32)
}

/// The cells of a placement of `len` cells on a board of `cells` cells (at most 32) from its
/// dense rank: the inverse of [`rank16`] and [`rank25`].
pub fn unrank(mut index: usize, len: usize, cells: usize) -> [u8; 32] {
    let mut digits = [0usize; 32];
    for i in (0..len).rev() {
        digits[i] = index % (cells - i);
        index /= cells - i;
    }
    let mut placement = [0u8; 32];
    let mut used = 0u32;
    let all = u32::MAX >> (32 - cells);
    for (slot, &digit) in placement.iter_mut().zip(&digits[..len]) {
        let mut free = !used & all;
        for _ in 0..digit {
            free &= free - 1;
        }
        let cell = free.trailing_zeros();
        *slot = cell as u8;
        used |= 1 << cell;
    }
    placement
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placements(cells: usize, k: usize) -> usize {
        (cells - k + 1..=cells).product()
    }

    #[test]
    fn dense_ranks_are_dense_and_distinct() {
        for (cells, rank) in [(16, rank16 as fn([usize; 2]) -> usize), (25, rank25)] {
            let mut seen = vec![false; placements(cells, 2)];
            for a in 0..cells {
                for b in (0..cells).filter(|&b| b != a) {
                    let index = rank([a, b]);
                    assert!(!std::mem::replace(&mut seen[index], true), "rank of {a},{b} repeats");
                }
            }
            assert!(seen.iter().all(|&s| s), "{cells} cells");
        }
    }

    #[test]
    fn unrank_inverts_both_ranks() {
        for index in [0, 1, 17, 3000, placements(16, 3) - 1] {
            let cells = unrank(index, 3, 16);
            assert_eq!(rank16(cells[..3].iter().map(|&c| usize::from(c))), index);
        }
        for index in [0, 5, 99_999, placements(25, 6) - 1] {
            let cells = unrank(index, 6, 25);
            assert_eq!(rank25(cells[..6].iter().map(|&c| usize::from(c))), index);
        }
    }

    #[test]
    fn direct_indices_are_base_twenty_five() {
        assert_eq!(direct25([0, 0]), 0);
        assert_eq!(direct25([1, 2]), 27);
        assert_eq!(direct25([24; 6]), 25usize.pow(6) - 1);
    }
}
