//! A*'s state arena: the tiles of every enqueued board stored once, indexed by node, in one
//! contiguous allocation. Boards that fit a machine word are packed (4 bits a tile in a `u64`
//! for N ≤ 4, 5 bits in a `u128` for N = 5); larger ones are `N²` `u16` tiles each in one flat
//! `Vec<u16>`, never a box per node, so the allocator holds no per-node overhead and gives the
//! whole arena back in one piece when the search ends.
//!
//! The closed set holds node indices and hashes the state an index points to (see
//! [`Arena::hash`]), so no state is ever copied into a second structure.

use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

/// The states of A*'s nodes, indexed by node. A child is pushed at the end, looked up in the
/// closed set by its index, and popped again when it turns out to be a duplicate.
pub trait Arena {
    /// An arena holding one state, the root's `tiles` (row-major), at index 0.
    fn with_root(tiles: &[u16]) -> Self;
    /// States held.
    fn len(&self) -> usize;
    /// States the allocation has room for.
    fn capacity(&self) -> usize;
    /// Bytes one state takes in the allocation.
    fn state_bytes(&self) -> usize;
    /// Grows the allocation to room for exactly `additional` more states.
    fn reserve_exact(&mut self, additional: usize);
    /// The tile at `cell` of state `index`.
    fn tile(&self, index: usize, cell: usize) -> u16;
    /// Pushes the state after the tile at `from` of state `parent` slides into its blank at `blank`.
    fn push_child(&mut self, parent: usize, from: usize, blank: usize);
    /// Drops the last state pushed.
    fn pop(&mut self);
    /// Whether states `a` and `b` are the same board.
    fn same(&self, a: usize, b: usize) -> bool;
    /// The hash of state `index`, for the closed set.
    fn hash(&self, index: usize) -> u64;
}

/// A board packed into one machine word.
pub trait PackedWord: Copy + Eq + std::hash::Hash {
    /// The most cells this word holds.
    const MAX_CELLS: usize;
    /// Packs row-major tiles (at most `MAX_CELLS`).
    fn pack(tiles: &[u16]) -> Self;
    /// The tile at `index`.
    fn tile(self, index: usize) -> u16;
    /// The state after the tile at `from` slides into the blank at `blank`.
    fn slide(self, from: usize, blank: usize) -> Self;
}

macro_rules! packed_word {
    ($word:ty, $bits:expr) => {
        impl PackedWord for $word {
            const MAX_CELLS: usize = <$word>::BITS as usize / $bits;

            fn pack(tiles: &[u16]) -> Self {
                tiles.iter().enumerate().fold(0, |word, (i, &t)| word | (<$word>::from(t) << ($bits * i)))
            }

            #[inline]
            fn tile(self, index: usize) -> u16 {
                ((self >> ($bits * index)) & ((1 << $bits) - 1)) as u16
            }

            #[inline]
            fn slide(self, from: usize, blank: usize) -> Self {
                let tile = (self >> ($bits * from)) & ((1 << $bits) - 1);
                self - (tile << ($bits * from)) + (tile << ($bits * blank))
            }
        }
    };
}

packed_word!(u64, 4);
packed_word!(u128, 5);

impl<W: PackedWord> Arena for Vec<W> {
    fn with_root(tiles: &[u16]) -> Self {
        vec![W::pack(tiles)]
    }

    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn capacity(&self) -> usize {
        Vec::capacity(self)
    }

    fn state_bytes(&self) -> usize {
        size_of::<W>()
    }

    fn reserve_exact(&mut self, additional: usize) {
        Vec::reserve_exact(self, additional);
    }

    #[inline]
    fn tile(&self, index: usize, cell: usize) -> u16 {
        self[index].tile(cell)
    }

    #[inline]
    fn push_child(&mut self, parent: usize, from: usize, blank: usize) {
        let child = self[parent].slide(from, blank);
        self.push(child);
    }

    fn pop(&mut self) {
        self.truncate(self.len() - 1);
    }

    #[inline]
    fn same(&self, a: usize, b: usize) -> bool {
        self[a] == self[b]
    }

    #[inline]
    fn hash(&self, index: usize) -> u64 {
        StateHash::default().hash_one(self[index])
    }
}

/// Boards too large for a word: every state's `cells` tiles back to back in one vector.
pub struct Flat {
    tiles: Vec<u16>,
    cells: usize,
}

impl Flat {
    fn state(&self, index: usize) -> &[u16] {
        &self.tiles[index * self.cells..(index + 1) * self.cells]
    }
}

impl Arena for Flat {
    fn with_root(tiles: &[u16]) -> Self {
        Flat { tiles: tiles.to_vec(), cells: tiles.len() }
    }

    fn len(&self) -> usize {
        self.tiles.len() / self.cells
    }

    fn capacity(&self) -> usize {
        self.tiles.capacity() / self.cells
    }

    fn state_bytes(&self) -> usize {
        self.cells * size_of::<u16>()
    }

    fn reserve_exact(&mut self, additional: usize) {
        self.tiles.reserve_exact(additional * self.cells);
    }

    fn tile(&self, index: usize, cell: usize) -> u16 {
        self.tiles[index * self.cells + cell]
    }

    fn push_child(&mut self, parent: usize, from: usize, blank: usize) {
        let start = self.tiles.len();
        self.tiles.extend_from_within(parent * self.cells..(parent + 1) * self.cells);
        self.tiles.swap(start + from, start + blank);
    }

    fn pop(&mut self) {
        self.tiles.truncate(self.tiles.len() - self.cells);
    }

    fn same(&self, a: usize, b: usize) -> bool {
        self.state(a) == self.state(b)
    }

    fn hash(&self, index: usize) -> u64 {
        StateHash::default().hash_one(self.state(index))
    }
}

/// A folded-multiply hasher for the closed set: states are already well mixed bit patterns,
/// and SipHash's flood resistance costs more than the rest of a node expansion.
#[derive(Default, Clone, Copy)]
pub struct StateHasher(u64);

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    /// A folded multiply: the high half of the 128-bit product carries every input bit into
    /// the low bits the table indexes by, which a plain wrapping multiply would not.
    #[inline]
    fn write_u64(&mut self, word: u64) {
        let product = u128::from(self.0 ^ word) * u128::from(SEED);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }

    #[inline]
    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }
}

/// Hasher builder for packed and flat states.
pub type StateHash = BuildHasherDefault<StateHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs `tiles`, checks every tile reads back, slides a neighbour of the blank into it,
    /// and checks the child, its equality and its hash against a second arena built from the
    /// expected tiles.
    fn check_roundtrip_and_slide<A: Arena>(tiles: &[u16]) {
        let mut arena = A::with_root(tiles);
        let unpacked: Vec<u16> = (0..tiles.len()).map(|cell| arena.tile(0, cell)).collect();
        assert_eq!(unpacked, tiles);
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        let from = if blank > 0 { blank - 1 } else { blank + 1 };
        let mut expected = tiles.to_vec();
        expected.swap(from, blank);
        arena.push_child(0, from, blank);
        assert_eq!(arena.len(), 2);
        let child: Vec<u16> = (0..tiles.len()).map(|cell| arena.tile(1, cell)).collect();
        assert_eq!(child, expected);
        assert!(!arena.same(0, 1));
        arena.push_child(1, blank, from);
        assert!(arena.same(0, 2), "sliding back gives the root again");
        assert_eq!(arena.hash(0), arena.hash(2));
        arena.pop();
        assert_eq!(arena.len(), 2);
        assert!(arena.state_bytes() * arena.capacity() >= 2 * arena.state_bytes());
    }

    #[test]
    fn words_and_flat_states_pack_and_slide_alike() {
        let four: Vec<u16> = (0..16).rev().collect();
        check_roundtrip_and_slide::<Vec<u64>>(&four);
        check_roundtrip_and_slide::<Flat>(&four);
        let five: Vec<u16> = (0..25).map(|i| (i * 7) % 25).collect();
        check_roundtrip_and_slide::<Vec<u128>>(&five);
        check_roundtrip_and_slide::<Flat>(&five);
        assert_eq!(<u64 as PackedWord>::MAX_CELLS, 16);
        assert_eq!(<u128 as PackedWord>::MAX_CELLS, 25);
    }

    #[test]
    fn a_flat_state_takes_two_bytes_a_cell() {
        let six: Vec<u16> = (1..36).chain([0]).collect();
        assert_eq!(Flat::with_root(&six).state_bytes(), 72);
        assert_eq!(<Vec<u64> as Arena>::with_root(&six[..16]).state_bytes(), 8);
    }
}
