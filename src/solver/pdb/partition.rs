//! Partitions of the 4×4 board's tiles into disjoint patterns, and the dense rank of a pattern's
//! placement that indexes its table.

use super::error::PdbError;

/// The board side the databases are for.
pub const DIMENSION: usize = 4;

/// Cells of the board, blank included.
pub const CELLS: usize = DIMENSION * DIMENSION;

/// The most tiles a pattern may have (the 8-tile table is 16!/8! bytes, about 519 MB).
pub const MAX_PATTERN_TILES: usize = 8;

/// The most patterns a partition may have.
pub const MAX_PATTERNS: usize = 8;

/// Placements of `k` distinct tiles on the 16 cells: 16!/(16-k)!.
pub fn placements(k: usize) -> usize {
    (CELLS - k + 1..=CELLS).product()
}

/// The rank of a placement of distinct cells, `0..placements(cells.len())`: the mixed-radix
/// number whose i-th digit (radix 16 - i) is the i-th cell counted among the cells not yet used.
///
/// Each of the sixteen 4-bit fields of `below` counts the cells used so far that lie below that
/// field's cell, so a digit is one shift and one subtraction, with no population count.
#[inline]
pub fn rank(cells: impl IntoIterator<Item = usize>) -> usize {
    const ONES: u64 = 0x1111_1111_1111_1111;
    let mut below = 0u64;
    let mut index = 0;
    for (i, cell) in cells.into_iter().enumerate() {
        let digit = cell - ((below >> (4 * cell)) & 0xF) as usize;
        index = index * (CELLS - i) + digit;
        below += (ONES << (4 * cell)) << 4;
    }
    index
}

/// The tiles of each pattern, checked to be disjoint and to cover tiles 1..=15.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partition {
    patterns: Vec<Vec<u8>>,
}

impl Partition {
    /// Checks that `patterns` are non-empty, at most [`MAX_PATTERNS`] of at most
    /// [`MAX_PATTERN_TILES`] tiles each, and cover every tile exactly once.
    pub fn new(patterns: Vec<Vec<u8>>) -> Result<Partition, PdbError> {
        let invalid = |reason: String| Err(PdbError::InvalidPartition(reason));
        if patterns.is_empty() || patterns.len() > MAX_PATTERNS {
            return invalid(format!("{} patterns; 1 to {MAX_PATTERNS} are allowed", patterns.len()));
        }
        let mut seen = [false; CELLS];
        for pattern in &patterns {
            if pattern.is_empty() || pattern.len() > MAX_PATTERN_TILES {
                return invalid(format!("a pattern of {} tiles; 1 to {MAX_PATTERN_TILES} are allowed", pattern.len()));
            }
            for &tile in pattern {
                let tile = usize::from(tile);
                if tile == 0 || tile >= CELLS {
                    return invalid(format!("tile {tile} is not a tile of the 4x4 board"));
                }
                if std::mem::replace(&mut seen[tile], true) {
                    return invalid(format!("tile {tile} is in two patterns"));
                }
            }
        }
        if let Some(missing) = (1..CELLS).find(|&tile| !seen[tile]) {
            return invalid(format!("tile {missing} is in no pattern"));
        }
        Ok(Partition { patterns })
    }

    /// The default partition, Korf & Felner's 7-8 turned to our goal: the top two rows (8 tiles)
    /// and the bottom two less the blank (7 tiles). 577 MB of tables; the build takes minutes and
    /// 3.6 GB (see `pdb_build`).
    pub fn seven_eight() -> Partition {
        Partition { patterns: vec![(1..=8).collect(), (9..=15).collect()] }
    }

    /// A small partition that builds in seconds: {1, 5, 6, 9, 10, 13}, {7, 8, 11, 12, 14, 15}
    /// and {2, 3, 4}, the best of the 6-6-3 splits measured on the Korf instances (with
    /// reflection, about 3× fewer nodes than splitting by columns). 11.5 MB of tables.
    pub fn six_six_three() -> Partition {
        Partition { patterns: vec![vec![1, 5, 6, 9, 10, 13], vec![7, 8, 11, 12, 14, 15], vec![2, 3, 4]] }
    }

    /// The tiles of each pattern.
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// The pattern sizes, as in "6-6-3".
    pub fn sizes(&self) -> String {
        self.patterns.iter().map(|pattern| pattern.len().to_string()).collect::<Vec<_>>().join("-")
    }

    /// Bytes of all tables together.
    pub fn table_bytes(&self) -> usize {
        self.patterns.iter().map(|pattern| placements(pattern.len())).sum()
    }
}

/// The built-in partitions by name, "7-8" or "6-6-3", as command lines spell them.
impl std::str::FromStr for Partition {
    type Err = String;

    fn from_str(name: &str) -> Result<Partition, String> {
        match name {
            "7-8" => Ok(Partition::seven_eight()),
            "6-6-3" => Ok(Partition::six_six_three()),
            _ => Err(format!("unknown partition {name:?}; expected 7-8 or 6-6-3")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn ranks_are_dense_and_distinct() {
        let mut seen = vec![false; placements(2)];
        for a in 0..CELLS {
            for b in (0..CELLS).filter(|&b| b != a) {
                let index = rank([a, b]);
                assert!(!std::mem::replace(&mut seen[index], true), "rank of {a},{b} repeats");
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn partitions_are_checked() {
        assert!(Partition::new(vec![vec![1, 2, 3]]).is_err());
        assert!(Partition::new(vec![(1..9).collect(), (8..16).collect()]).is_err());
        assert!(Partition::new(vec![(1..16).collect()]).is_err());
        assert_eq!(Partition::six_six_three().sizes(), "6-6-3");
        assert_eq!(Partition::six_six_three().table_bytes(), 2 * 5_765_760 + 3_360);
    }
}
