//! The blank's regions on the 5×5 board: for every set of cells a pattern's tiles can stand on,
//! which free cells are connected, so that a 5×5 table can keep a distance per region of the
//! blank (a "zero-aware" table, after Clausecker) instead of the least over all of them.
//!
//! A set of k cells leaves 25 − k free cells in one region or several. The largest is the
//! *main* region (the one with the lowest cell on a tie); the others are *pockets*, cut off
//! behind the pattern's tiles: a corner cell behind two tiles, an edge cell behind three, and so
//! on (at most four pockets for six tiles). A 5×5 table is laid out as:
//!
//! - the main part, indexed directly (see [`index`](super::index)), four bits an entry (see
//!   [`entry`]): each placement's distance with the blank in its main region, as half its
//!   excess over the pattern's Manhattan distance, and [`FLAG`] when some pocket of that
//!   placement is nearer the goal (so a lookup with the blank in a pocket must read the pocket's
//!   entry);
//! - the pocket part: for every set of cells, for each of its pockets, one byte per ordering of
//!   the tiles over the set's cells ([`Regions::pocket_index`]), the half excess again. Six tiles
//!   make 74,300 pockets over the 177,100 sets: 53.5 M bytes beside the 122 M of the main part.
//!
//! A lookup reads the main entry and is done unless it is flagged (see `lookup`).

use std::sync::OnceLock;

use super::cells::flood;
use super::entry;
use super::index::direct25;

/// Cells of the 5×5 board.
const CELLS: usize = 25;

/// The bit of a main entry that says a pocket of its placement is nearer the goal: the top bit
/// of its four.
pub const FLAG: u8 = 0x8;

/// The most tiles a 5×5 pattern has.
const MAX_TILES: usize = 6;

/// Binomial coefficients C(n, k) for n ≤ 25, k ≤ 6: the colex rank of a set of cells.
const BINOMIAL: [[u32; MAX_TILES + 1]; CELLS + 1] = {
    let mut table = [[0u32; MAX_TILES + 1]; CELLS + 1];
    let mut n = 0;
    while n <= CELLS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_TILES {
            table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1] + table[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    table
};

/// The regions of every set of `k` cells of the 5×5 board, by the set's colex rank.
#[derive(Debug)]
pub struct Regions {
    /// For each set, the cells of its main region.
    main: Vec<u32>,
    /// For each set, the index of its first pocket in `pockets`; one more at the end.
    first: Vec<u32>,
    /// The cells of every pocket, set after set.
    pockets: Vec<u32>,
    /// k!: the orderings of the tiles over one set's cells.
    orderings: usize,
    /// Bytes of a table's main part, where its pocket part starts.
    main_len: usize,
}

impl Regions {
    /// The regions of the sets of `tiles` cells (1 to 6), computed on first use (a few
    /// milliseconds for six).
    pub fn of(tiles: usize) -> &'static Regions {
        static ALL: [OnceLock<Regions>; MAX_TILES + 1] = [const { OnceLock::new() }; MAX_TILES + 1];
        ALL[tiles.min(MAX_TILES)].get_or_init(|| Regions::new(tiles.min(MAX_TILES)))
    }

    fn new(tiles: usize) -> Regions {
        let sets = BINOMIAL[CELLS][tiles] as usize;
        let mut regions = Regions {
            main: vec![0; sets],
            first: Vec::with_capacity(sets + 1),
            pockets: Vec::new(),
            orderings: (1..=tiles).product(),
            main_len: entry::packed_len(CELLS.pow(tiles as u32)),
        };
        let all = (1u32 << CELLS) - 1;
        let mut set = (1u32 << tiles) - 1;
        for rank in 0..sets {
            debug_assert_eq!(colex(set), rank);
            let free = all & !set;
            let mut found = Vec::new();
            let mut rest = free;
            while rest != 0 {
                let region = flood(5, rest & rest.wrapping_neg(), free);
                found.push(region);
                rest &= !region;
            }
            // The first of the largest is main; the others keep their order (by lowest cell).
            let main = (0..found.len())
                .fold(0, |best, i| if found[i].count_ones() > found[best].count_ones() { i } else { best });
            regions.main[rank] = found.get(main).copied().unwrap_or(0);
            regions.first.push(regions.pockets.len() as u32);
            regions.pockets.extend(found.iter().enumerate().filter(|&(i, _)| i != main).map(|(_, &region)| region));
            set = next_set(set);
        }
        regions.first.push(regions.pockets.len() as u32);
        regions
    }

    /// Bytes of the main part of a table of this many tiles: 25^k entries, two a byte.
    pub fn main_len(&self) -> usize {
        self.main_len
    }

    /// Bytes of the pocket part.
    pub fn pockets_len(&self) -> usize {
        self.pockets.len() * self.orderings
    }

    /// The set of the placement `cells`, and the cells of its main region.
    #[inline]
    pub fn main_of(&self, cells: &[usize]) -> (usize, u32) {
        let set = cells.iter().fold(0u32, |set, &cell| set | 1 << cell);
        let rank = colex(set);
        (rank, self.main[rank])
    }

    /// Where, in the pocket part, the entry of the placement `cells` (of set rank `set`) with the
    /// blank in the pocket that holds `blank` is; `None` if `blank` is in no pocket.
    pub fn pocket_index(&self, cells: &[usize], set: usize, blank: usize) -> Option<usize> {
        let first = self.first[set] as usize;
        let pockets = self.pockets.get(first..self.first[set + 1] as usize)?;
        let pocket = pockets.iter().position(|&pocket| pocket >> blank & 1 != 0)?;
        Some((first + pocket) * self.orderings + ordering(cells))
    }

    /// The pockets of the set of rank `set`, with the index of each one's first entry.
    pub fn pockets_of(&self, set: usize) -> impl Iterator<Item = (u32, usize)> + '_ {
        (self.first[set] as usize..self.first[set + 1] as usize)
            .map(|pocket| (self.pockets[pocket], pocket * self.orderings))
    }
}

/// The entry a 5×5 table holds for the placement `cells` (table order) with the blank on
/// `blank`, half the excess over the placement's Manhattan distance: the main entry, unless it
/// is flagged and the blank is in a pocket.
#[inline]
pub fn read(table: &[u8], cells: &[usize], blank: usize) -> u8 {
    let entry = entry::read(table, direct25(cells.iter().copied()));
    if entry & FLAG == 0 { entry } else { read_flagged(table, cells, blank, entry) }
}

/// [`read`] for a flagged main `entry`, already read: the pocket's entry when the blank is in
/// one, else the main one.
#[inline(never)]
pub fn read_flagged(table: &[u8], cells: &[usize], blank: usize, entry: u8) -> u8 {
    let regions = Regions::of(cells.len());
    let (set, main) = regions.main_of(cells);
    if main >> blank & 1 != 0 {
        return entry & !FLAG;
    }
    regions.pocket_index(cells, set, blank).map_or(entry & !FLAG, |index| table[regions.main_len() + index])
}

/// The colex rank of a set of cells: Σ C(cᵢ, i + 1) over its cells in ascending order.
#[inline]
fn colex(mut set: u32) -> usize {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += BINOMIAL[set.trailing_zeros() as usize][i];
        set &= set - 1;
        i += 1;
    }
    rank as usize
}

/// The next set of as many cells in colex order (Gosper's hack).
fn next_set(set: u32) -> u32 {
    let low = set & set.wrapping_neg();
    let ripple = set.wrapping_add(low);
    ripple | (((set ^ ripple) >> 2) / low)
}

/// The rank of the order in which the tiles stand over their cells: the Lehmer code of each
/// tile's place among the sorted cells, `0..k!`. Six tiles (every 5×5 pattern of the
/// catalogue) are ranked through a fixed-size array, whose loops unroll.
#[inline]
pub fn ordering(cells: &[usize]) -> usize {
    match <&[usize; MAX_TILES]>::try_from(cells) {
        Ok(six) => lehmer(six),
        Err(_) => lehmer(cells),
    }
}

/// [`ordering`] over a slice or an array of cells.
#[inline(always)]
fn lehmer<C: AsRef<[usize]> + ?Sized>(cells: &C) -> usize {
    let cells = cells.as_ref();
    let mut rank = 0;
    for (i, &cell) in cells.iter().enumerate() {
        let mut below = 0;
        for &other in &cells[i + 1..] {
            below += usize::from(other < cell);
        }
        rank = rank * (cells.len() - i) + below;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_tiles_leave_the_pockets_counted_by_hand() {
        let regions = Regions::of(6);
        assert_eq!(regions.main.len(), 177_100);
        assert_eq!(regions.pockets.len(), 74_300);
        assert_eq!(regions.pockets_len(), 53_496_000);
        // Tiles on cells 1 and 5 wall the top-left corner off.
        let cells = [1, 5, 12, 13, 14, 20];
        let (set, main) = regions.main_of(&cells);
        assert_eq!(main & 1, 0, "the corner is a pocket");
        assert_eq!(main.count_ones(), 18);
        assert!(regions.pocket_index(&cells, set, 0).is_some());
        assert_eq!(regions.pocket_index(&cells, set, 24), None, "cell 24 is in the main region");
    }

    #[test]
    fn orderings_are_the_lehmer_codes_the_files_were_built_with() {
        // The pocket part of every table file is laid out by this rank: it must not change.
        fn lehmer(cells: &[usize]) -> usize {
            let mut rank = 0;
            for (i, &cell) in cells.iter().enumerate() {
                rank = rank * (cells.len() - i) + cells[i + 1..].iter().filter(|&&other| other < cell).count();
            }
            rank
        }
        let mut cells = [2, 7, 8, 13, 19, 24];
        let mut seen = vec![false; 720];
        for _ in 0..720 {
            let rank = ordering(&cells);
            assert_eq!(rank, lehmer(&cells), "{cells:?}");
            assert!(!std::mem::replace(&mut seen[rank], true), "{cells:?}");
            next_permutation(&mut cells);
        }
    }

    /// The next permutation in lexicographic order, wrapping to the first.
    fn next_permutation(cells: &mut [usize]) {
        let Some(i) = (1..cells.len()).rev().find(|&i| cells[i - 1] < cells[i]) else {
            cells.reverse();
            return;
        };
        let j = (i..cells.len()).rev().find(|&j| cells[j] > cells[i - 1]).unwrap_or(i);
        cells.swap(i - 1, j);
        cells[i..].reverse();
    }

    #[test]
    fn orderings_are_dense_and_distinct() {
        let mut seen = [false; 6];
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let cells: Vec<usize> = order.iter().map(|&i| [3, 9, 20][i]).collect();
            assert!(!std::mem::replace(&mut seen[ordering(&cells)], true));
        }
        assert_eq!(colex(0b111), 0);
        assert_eq!(colex(0b1011), 1);
        assert_eq!(next_set(0b111), 0b1011);
    }
}
