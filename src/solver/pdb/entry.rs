//! How a table entry is stored: four bits, two entries a byte.
//!
//! A pattern move moves one tile one cell, so it changes the pattern tiles' Manhattan distance by
//! exactly one: every path from the goal to a placement has the parity of that distance, and the
//! pattern distance is the Manhattan distance plus an even number of extra moves. An entry stores
//! half of that excess, `(distance − manhattan) / 2`, which fits in four bits (the 7-8 tables need at
//! most 9, the 6-6-3 ones 6); a larger excess would be stored as the largest entry, which only
//! lowers the bound and keeps it admissible. Entry `i` is the low nibble of byte `i / 2` when `i`
//! is even, the high nibble when it is odd. The lookup adds the Manhattan distance back (see
//! [`lookup`](super::lookup)); since all the patterns of a partition together hold every tile,
//! that is the board's Manhattan distance, kept up to date move by move.
//!
//! A 5×5 entry has three bits for the half excess, [`MAX_FIVE_ENTRY`] at most (the 6-tile tables
//! of the 5×5 catalogue need at most 6), and its top bit flags a placement whose blank regions
//! differ (see [`regions`](super::regions)).

/// The largest entry a nibble holds.
pub const MAX_ENTRY: u8 = 15;

/// The largest half excess a 5×5 main entry holds: the nibble's top bit is the regions' flag.
pub const MAX_FIVE_ENTRY: u8 = 7;

/// Bytes of a table of `entries` four-bit entries.
pub const fn packed_len(entries: usize) -> usize {
    entries.div_ceil(2)
}

/// How far a tile whose goal is cell `goal` is from it at cell `cell`, on a `dimension`² board.
#[inline]
pub fn manhattan(dimension: usize, goal: usize, cell: usize) -> u8 {
    ((cell / dimension).abs_diff(goal / dimension) + (cell % dimension).abs_diff(goal % dimension)) as u8
}

/// The entry for a placement `distance` pattern moves from home whose tiles are `manhattan`
/// cells from home in all: half the excess, at most `max`.
#[inline]
pub fn encode(distance: u8, manhattan: u8, max: u8) -> u8 {
    ((distance - manhattan) / 2).min(max)
}

/// The pattern distance an entry stands for, the inverse of [`encode`] below its `max`.
#[inline]
pub fn distance(entry: u8, manhattan: u8) -> u8 {
    manhattan + 2 * entry
}

/// Where entry `index` lives: its byte, and the shift of its nibble in that byte.
#[inline]
pub fn position(index: usize) -> (usize, u32) {
    (index >> 1, ((index & 1) as u32) << 2)
}

/// Entry `index` of a packed table.
#[inline]
pub fn read(table: &[u8], index: usize) -> u8 {
    let (byte, shift) = position(index);
    (table[byte] >> shift) & MAX_ENTRY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pack_two_a_byte_low_nibble_first() {
        let table = [0x21, 0xF3];
        let entries: Vec<u8> = (0..4).map(|index| read(&table, index)).collect();
        assert_eq!(entries, [1, 2, 3, 15]);
        assert_eq!(packed_len(5), 3);
        assert_eq!(position(5), (2, 4));
    }

    #[test]
    fn the_excess_is_halved_and_clamped() {
        assert_eq!(encode(7, 7, MAX_ENTRY), 0);
        assert_eq!(encode(13, 7, MAX_ENTRY), 3);
        assert_eq!(distance(3, 7), 13);
        assert_eq!(encode(60, 2, MAX_ENTRY), MAX_ENTRY, "clamped, so never above the true distance");
        assert_eq!(encode(60, 2, MAX_FIVE_ENTRY), MAX_FIVE_ENTRY, "a 5x5 entry keeps its top bit free");
        assert_eq!(manhattan(4, 0, 15), 6);
        assert_eq!(manhattan(5, 4, 5), 5, "no wrapping around a row's end");
    }
}
