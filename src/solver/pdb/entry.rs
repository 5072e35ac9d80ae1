//! How a 4×4 table entry is stored: four bits, two entries a byte.
//!
//! A pattern move moves one tile one cell, so it changes the pattern tiles' Manhattan distance by
//! exactly one: every path from the goal to a placement has the parity of that distance, and the
//! pattern distance is the Manhattan distance plus an even number of extra moves. An entry stores
//! half of that excess, `(distance − manhattan) / 2`, which fits in four bits (the 7-8 tables need at
//! most 9, the 6-6-3 ones 6); a larger excess would be stored as 15, which only lowers the
//! bound and keeps it admissible. Entry `i` is the low nibble of byte `i / 2` when `i` is even,
//! the high nibble when it is odd. The lookup adds the Manhattan distance back (see
//! [`lookup`](super::lookup)); since all the patterns of a partition together hold every tile,
//! that is the board's Manhattan distance, kept up to date move by move.
//!
//! 5×5 tables keep one byte per entry, the distance itself, at their direct index (see
//! [`index`](super::index)).

/// The largest entry a nibble holds.
const MAX_ENTRY: u8 = 15;

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
/// cells from home in all: half the excess, at most `MAX_ENTRY`.
#[inline]
pub fn encode(distance: u8, manhattan: u8) -> u8 {
    ((distance - manhattan) / 2).min(MAX_ENTRY)
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
        assert_eq!(encode(7, 7), 0);
        assert_eq!(encode(13, 7), 3);
        assert_eq!(encode(60, 2), MAX_ENTRY, "clamped, so never above the true distance");
        assert_eq!(manhattan(4, 0, 15), 6);
        assert_eq!(manhattan(5, 4, 5), 5, "no wrapping around a row's end");
    }
}
