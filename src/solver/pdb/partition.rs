//! Partitions of a 4×4 or 5×5 board's tiles into disjoint patterns, which of them need a table
//! of their own, and how long each table is.
//!
//! A pattern that some symmetry of the goal maps onto a pattern listed before it is read from
//! that pattern's table (see [`symmetry`]), so Korf & Felner's 6-6-6-6 for 5×5
//! holds two tables, not four, and the reflected bound needs none of its own.

use super::cells::MAX_CELLS;
use super::entry::packed_len;
use super::error::PdbError;
use super::regions::Regions;
use super::symmetry;

/// The board sizes pattern databases are built for.
pub const DIMENSIONS: [usize; 2] = [4, 5];

/// The most tiles a pattern may have in any table (the 8-tile 4×4 table is 259 MB).
pub const MAX_PATTERN_TILES: usize = 8;

/// The most patterns a partition may have, all groups of a catalogue together: the 5×5
/// catalogue's four groups of four.
pub const MAX_PATTERNS: usize = 16;

/// The most tiles of a pattern on a `dimension`² board: 8 on 4×4, 6 on 5×5 (a 6-tile table is
/// 176 MB; 25⁷ entries would be 3 GB).
pub fn max_pattern_tiles(dimension: usize) -> usize {
    if dimension == 4 { MAX_PATTERN_TILES } else { 6 }
}

/// Bytes of the table of a `k`-tile pattern on a `dimension`² board: the dense 16!/(16-k)!
/// entries of four bits for 4×4 (see [`entry`](super::entry)); for 5×5, the direct 25^k of four
/// bits (see [`index`](super::index)) and a byte per pocket of the blank and ordering of the
/// tiles (see [`regions`](super::regions)).
pub fn table_len(dimension: usize, k: usize) -> usize {
    match dimension {
        4 => packed_len(placements(16, k)),
        _ => {
            let regions = Regions::of(k);
            regions.main_len() + regions.pockets_len()
        }
    }
}

/// Placements of `k` distinct tiles on `cells` cells: cells!/(cells-k)!.
pub fn placements(cells: usize, k: usize) -> usize {
    (cells - k + 1..=cells).product()
}

/// The tiles of each pattern, checked to be disjoint and to cover every tile of the board, and
/// which of them have a table of their own.
///
/// A partition may also be a *catalogue* of up to [`MAX_GROUPS`] groups of patterns, each group
/// a partition of the tiles on its own: the bound is the largest of the groups' sums (each with
/// its reflection), and a pattern read through a symmetry of one stored before it, in any
/// group, needs no table of its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partition {
    dimension: usize,
    patterns: Vec<Vec<u8>>,
    /// How many patterns each group has, in order.
    groups: Vec<usize>,
    /// Indices into `patterns` of those with a table of their own, in table order.
    stored: Vec<usize>,
}

/// The most groups of a catalogue: with its reflection, each is a sum the search keeps.
pub const MAX_GROUPS: usize = 4;

impl Partition {
    /// A partition of the 4×4 board's tiles; see [`Partition::for_dimension`].
    pub fn new(patterns: Vec<Vec<u8>>) -> Result<Partition, PdbError> {
        Partition::for_dimension(4, patterns)
    }

    /// Checks that `dimension` is one of [`DIMENSIONS`] and that `patterns` are non-empty, at
    /// most [`MAX_PATTERNS`] of at most [`max_pattern_tiles`] tiles each, and cover every tile
    /// of the board exactly once.
    pub fn for_dimension(dimension: usize, patterns: Vec<Vec<u8>>) -> Result<Partition, PdbError> {
        Partition::catalogue(dimension, vec![patterns])
    }

    /// A catalogue of `groups`, each checked as [`Partition::for_dimension`] checks a
    /// partition; at most [`MAX_GROUPS`] groups and [`MAX_PATTERNS`] patterns in all.
    pub fn catalogue(dimension: usize, groups: Vec<Vec<Vec<u8>>>) -> Result<Partition, PdbError> {
        let invalid = |reason: String| Err(PdbError::InvalidPartition(reason));
        if !DIMENSIONS.contains(&dimension) {
            return invalid(format!("pattern databases are built for 4x4 and 5x5 boards, not {dimension}x{dimension}"));
        }
        if groups.is_empty() || groups.len() > MAX_GROUPS {
            return invalid(format!("{} groups of patterns; 1 to {MAX_GROUPS} are allowed", groups.len()));
        }
        let count: usize = groups.iter().map(Vec::len).sum();
        if groups.iter().any(Vec::is_empty) || count > MAX_PATTERNS {
            return invalid(format!("{count} patterns; 1 to {MAX_PATTERNS} are allowed"));
        }
        for group in &groups {
            check_covers(dimension, group)?;
        }
        let sizes = groups.iter().map(Vec::len).collect();
        let patterns: Vec<Vec<u8>> = groups.into_iter().flatten().collect();
        let mut stored: Vec<usize> = Vec::new();
        for (index, pattern) in patterns.iter().enumerate() {
            let tables: Vec<&[u8]> = stored.iter().map(|&table| patterns[table].as_slice()).collect();
            let goals: Vec<u8> = pattern.iter().map(|&tile| tile - 1).collect();
            if symmetry::find_view(dimension, &tables, &goals).is_none() {
                stored.push(index);
            }
        }
        Ok(Partition { dimension, patterns, groups: sizes, stored })
    }

    /// The default 4×4 partition, Korf & Felner's 7-8 turned to our goal: the top two rows (8
    /// tiles) and the bottom two less the blank (7 tiles). 288 MB of tables; the build takes
    /// about a minute and a half and 1.3 GB (see `build`).
    pub fn seven_eight() -> Partition {
        Partition::known(4, vec![vec![(1..=8).collect(), (9..=15).collect()]])
    }

    /// A small 4×4 partition that builds in seconds: {1, 5, 6, 9, 10, 13}, {7, 8, 11, 12, 14,
    /// 15} and {2, 3, 4}, the best of the 6-6-3 splits on Korf's instances (with reflection;
    /// see `docs/performance.md`, "Partitions (from `solver::pdb::partition`)"). 5.8 MB of tables.
    pub fn six_six_three() -> Partition {
        Partition::known(4, vec![vec![vec![1, 5, 6, 9, 10, 13], vec![7, 8, 11, 12, 14, 15], vec![2, 3, 4]]])
    }

    /// Korf & Felner's 5×5 partition, 6-6-6-6, turned half a turn to our goal (blank
    /// bottom-right): the six tiles around the blank's corner, {13, 18, 19, 20, 23, 24}, and
    /// three 3×2 corner blocks, {11, 12, 16, 17, 21, 22}, {4, 5, 9, 10, 14, 15} and
    /// {1, 2, 3, 6, 7, 8}. The blocks are one block turned, so two tables of 176 MB serve all
    /// four patterns and their reflections (8 lookups), 351 MB. The first group of both 5×5
    /// catalogues, [`Partition::catalogue_of_two`] and
    /// [`Partition::catalogue_of_four`].
    pub fn six_six_six_six() -> Partition {
        Partition::known(
            5,
            vec![vec![
                vec![13, 18, 19, 20, 23, 24],
                vec![11, 12, 16, 17, 21, 22],
                vec![4, 5, 9, 10, 14, 15],
                vec![1, 2, 3, 6, 7, 8],
            ]],
        )
    }

    /// A catalogue of two: Korf & Felner's 6-6-6-6 ([`Partition::six_six_six_six`]) and a
    /// second 6-6-6-6 from Clausecker's study of 24-puzzle partitions (his best single one,
    /// turned to our goal): {14, 15, 19, 20, 23, 24} and {13, 16, 17, 18, 21, 22} around the
    /// blank's corner, and two corner blocks, {1, 2, 6, 7, 11, 12} and {3, 4, 5, 8, 9, 10}, read
    /// from the first's block table. Four tables of 176 MB serve four sums (the two groups and
    /// their reflections, 16 lookups), 702 MB. The first half of the 5×5 catalogue
    /// ([`Partition::catalogue_of_four`]), and its stand-in while that builds.
    pub fn catalogue_of_two() -> Partition {
        Partition::known(
            5,
            vec![
                Partition::six_six_six_six().patterns,
                vec![
                    vec![14, 15, 19, 20, 23, 24],
                    vec![13, 16, 17, 18, 21, 22],
                    vec![1, 2, 6, 7, 11, 12],
                    vec![3, 4, 5, 8, 9, 10],
                ],
            ],
        )
    }

    /// The 5×5 catalogue: the two 6-6-6-6 partitions of [`Partition::catalogue_of_two`]
    /// and two more from Clausecker's zero-aware "small" catalogue (#4 and #5 in his numbering,
    /// turned to our goal), each maxed with its reflection: eight sums, read lazily. The third
    /// group is a strip down the right edge and the blank's corner, {5, 10, 15, 19, 20, 24}, a
    /// block in the middle of the top edge, {3, 4, 8, 9, 13, 14}, and two corner blocks the
    /// first table of blocks serves; the fourth, the second's corner pattern, a strip down the
    /// left edge, {1, 6, 11, 16, 21, 22}, a middle piece, {2, 7, 12, 13, 17, 18}, and a corner
    /// block. Eight tables of 176 MB, 1.40 GB. The hardest random 24-puzzles expand several
    /// times fewer nodes than with the first two groups alone, and the fourth group matters
    /// though it is rarely the largest sum (see `docs/performance.md`, "2026-12-06 — Four
    /// partitions" and "2026-12-06 — Where a node's time goes with eight sums"). Its patterns
    /// also make triples of disjoint patterns with the others' (see `triples`).
    pub fn catalogue_of_four() -> Partition {
        let mut groups: Vec<Vec<Vec<u8>>> = Partition::catalogue_of_two().groups().map(<[_]>::to_vec).collect();
        groups.push(vec![
            vec![5, 10, 15, 19, 20, 24],
            vec![16, 17, 18, 21, 22, 23],
            vec![3, 4, 8, 9, 13, 14],
            vec![1, 2, 6, 7, 11, 12],
        ]);
        groups.push(vec![
            vec![14, 15, 19, 20, 23, 24],
            vec![1, 6, 11, 16, 21, 22],
            vec![2, 7, 12, 13, 17, 18],
            vec![3, 4, 5, 8, 9, 10],
        ]);
        Partition::known(5, groups)
    }

    /// A built-in partition or catalogue of `groups`, valid by construction.
    fn known(dimension: usize, groups: Vec<Vec<Vec<u8>>>) -> Partition {
        Partition::catalogue(dimension, groups).unwrap_or_else(|err| unreachable!("built-in partition: {err}"))
    }

    /// The board side.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// The tiles of each pattern.
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// The patterns that have a table of their own, in table order; the others are read from
    /// these through a symmetry.
    pub fn stored(&self) -> impl Iterator<Item = &[u8]> {
        self.stored.iter().map(|&index| self.patterns[index].as_slice())
    }

    /// The patterns of each group, in order (one group unless this is a catalogue).
    pub fn groups(&self) -> impl Iterator<Item = &[Vec<u8>]> {
        self.groups.iter().scan(0, |start, &len| {
            *start += len;
            Some(&self.patterns[*start - len..*start])
        })
    }

    /// The pattern sizes, as in "6-6-3", and the groups' joined by "+".
    pub fn sizes(&self) -> String {
        let sizes = |group: &[Vec<u8>]| group.iter().map(|pattern| pattern.len().to_string()).collect::<Vec<_>>();
        self.groups().map(|group| sizes(group).join("-")).collect::<Vec<_>>().join("+")
    }

    /// Bytes of all tables together.
    pub fn table_bytes(&self) -> usize {
        self.stored().map(|pattern| table_len(self.dimension, pattern.len())).sum()
    }
}

/// Checks that `patterns` are of at most [`max_pattern_tiles`] tiles each and cover every tile
/// of the `dimension`² board exactly once.
fn check_covers(dimension: usize, patterns: &[Vec<u8>]) -> Result<(), PdbError> {
    let invalid = |reason: String| Err(PdbError::InvalidPartition(reason));
    let cells = dimension * dimension;
    let max_tiles = max_pattern_tiles(dimension);
    let mut seen = [false; MAX_CELLS];
    for pattern in patterns {
        if pattern.is_empty() || pattern.len() > max_tiles {
            return invalid(format!(
                "a pattern of {} tiles; 1 to {max_tiles} are allowed on {dimension}x{dimension}",
                pattern.len()
            ));
        }
        for &tile in pattern {
            let tile = usize::from(tile);
            if tile == 0 || tile >= cells {
                return invalid(format!("tile {tile} is not a tile of the {dimension}x{dimension} board"));
            }
            if std::mem::replace(&mut seen[tile], true) {
                return invalid(format!("tile {tile} is in two patterns"));
            }
        }
    }
    match (1..cells).find(|&tile| !seen[tile]) {
        Some(missing) => invalid(format!("tile {missing} is in no pattern")),
        None => Ok(()),
    }
}

/// The built-in partitions by name, "7-8" or "6-6-3" (4×4) or "6-6-6-6", "6-6-6-6+6-6-6-6" or
/// "6-6-6-6+6-6-6-6+6-6-6-6+6-6-6-6" (5×5), as command lines spell them (their
/// [`Partition::sizes`]).
impl std::str::FromStr for Partition {
    type Err = String;

    fn from_str(name: &str) -> Result<Partition, String> {
        match name {
            "7-8" => Ok(Partition::seven_eight()),
            "6-6-3" => Ok(Partition::six_six_three()),
            "6-6-6-6" => Ok(Partition::six_six_six_six()),
            "6-6-6-6+6-6-6-6" => Ok(Partition::catalogue_of_two()),
            "6-6-6-6+6-6-6-6+6-6-6-6+6-6-6-6" => Ok(Partition::catalogue_of_four()),
            _ => Err(format!(
                "unknown partition {name:?}; expected 7-8 or 6-6-3 (4x4), or 6-6-6-6, 6-6-6-6+6-6-6-6 or \
                 6-6-6-6+6-6-6-6+6-6-6-6+6-6-6-6 (5x5)"
            )),
        }
    }
}

/// Small 4×4 partitions that build in milliseconds, for the tests of the tables' life: a
/// cold cache, a stand-in, a slot.
#[cfg(test)]
pub(crate) mod samples {
    use super::Partition;

    /// Four small patterns: 3 × 43,680 + 3,360 entries, built in milliseconds.
    pub fn tiny() -> Partition {
        Partition::new(vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10, 11, 12], vec![13, 14, 15]])
            .expect("4-4-4-3")
    }

    /// Larger than [`tiny`], still quick: 3 × 524,160 entries.
    pub fn small() -> Partition {
        Partition::new(vec![vec![1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10], vec![11, 12, 13, 14, 15]]).expect("5-5-5")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_are_checked() {
        assert!(Partition::new(vec![vec![1, 2, 3]]).is_err());
        assert!(Partition::new(vec![(1..9).collect(), (8..16).collect()]).is_err());
        assert!(Partition::new(vec![(1..16).collect()]).is_err());
        assert!(Partition::for_dimension(5, vec![(1..8).collect(), (8..25).collect()]).is_err(), "too big");
        assert!(Partition::for_dimension(6, vec![(1..36).collect()]).is_err());
        assert_eq!(Partition::six_six_three().sizes(), "6-6-3");
        assert_eq!(Partition::six_six_three().table_bytes(), (2 * 5_765_760 + 3_360) / 2);
        assert_eq!(Partition::seven_eight().table_bytes(), (518_918_400 + 57_657_600) / 2);
    }

    #[test]
    fn symmetric_patterns_share_tables() {
        assert_eq!(Partition::six_six_three().stored().count(), 3);
        assert_eq!(Partition::seven_eight().stored().count(), 2);
        let korf = Partition::six_six_six_six();
        assert_eq!(korf.stored().collect::<Vec<_>>(), vec![&korf.patterns()[0][..], &korf.patterns()[1][..]]);
        assert_eq!(korf.table_bytes(), 2 * (244_140_625usize.div_ceil(2) + 53_496_000));
    }
}
