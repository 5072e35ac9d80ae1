//! Compact search states: a board's tiles packed into one machine word where they fit (4 bits a
//! tile in a `u64` for N ≤ 4, 5 bits in a `u128` for N = 5), else a boxed slice of `u16`. The
//! blank's position travels beside the state, so a slide is a couple of shifts, not a scan.

use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A board's tiles in a form that is cheap to copy, compare and hash.
pub trait PackedTiles: Clone + Eq + Hash {
    /// The most cells this form holds.
    const MAX_CELLS: usize;
    /// Packs row-major tiles (at most `MAX_CELLS`).
    fn pack(tiles: &[u16]) -> Self;
    /// The tile at `index`.
    fn tile(&self, index: usize) -> u16;
    /// The state after the tile at `from` slides into the blank at `blank`.
    fn slide(&self, from: usize, blank: usize) -> Self;
}

macro_rules! packed_word {
    ($word:ty, $bits:expr) => {
        impl PackedTiles for $word {
            const MAX_CELLS: usize = <$word>::BITS as usize / $bits;

            fn pack(tiles: &[u16]) -> Self {
                tiles.iter().enumerate().fold(0, |word, (i, &t)| word | (<$word>::from(t) << ($bits * i)))
            }

            #[inline]
            fn tile(&self, index: usize) -> u16 {
                ((self >> ($bits * index)) & ((1 << $bits) - 1)) as u16
            }

            #[inline]
            fn slide(&self, from: usize, blank: usize) -> Self {
                let tile = (self >> ($bits * from)) & ((1 << $bits) - 1);
                self - (tile << ($bits * from)) + (tile << ($bits * blank))
            }
        }
    };
}

packed_word!(u64, 4);
packed_word!(u128, 5);

impl PackedTiles for Box<[u16]> {
    const MAX_CELLS: usize = usize::MAX;

    fn pack(tiles: &[u16]) -> Self {
        tiles.into()
    }

    fn tile(&self, index: usize) -> u16 {
        self[index]
    }

    fn slide(&self, from: usize, blank: usize) -> Self {
        let mut next = self.clone();
        next.swap(from, blank);
        next
    }
}

/// A folded-multiply hasher for the search's hash sets: states are already well mixed bit
/// patterns, and SipHash's flood resistance costs more than the rest of a node expansion.
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

/// `HashMap`/`HashSet` builder for packed states.
pub type StateHash = BuildHasherDefault<StateHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    fn check_roundtrip_and_slide<P: PackedTiles + std::fmt::Debug>(tiles: &[u16]) {
        let packed = P::pack(tiles);
        let unpacked: Vec<u16> = (0..tiles.len()).map(|i| packed.tile(i)).collect();
        assert_eq!(unpacked, tiles);
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        let from = if blank > 0 { blank - 1 } else { blank + 1 };
        let mut expected = tiles.to_vec();
        expected.swap(from, blank);
        assert_eq!(packed.slide(from, blank), P::pack(&expected));
    }

    #[test]
    fn words_and_slices_pack_and_slide_alike() {
        let four: Vec<u16> = (0..16).rev().collect();
        check_roundtrip_and_slide::<u64>(&four);
        check_roundtrip_and_slide::<Box<[u16]>>(&four);
        let five: Vec<u16> = (0..25).map(|i| (i * 7) % 25).collect();
        check_roundtrip_and_slide::<u128>(&five);
        assert_eq!(<u64 as PackedTiles>::MAX_CELLS, 16);
        assert_eq!(<u128 as PackedTiles>::MAX_CELLS, 25);
    }
}
