//! Bounds from three patterns of different partitions: any patterns whose tiles are disjoint
//! add up, whichever partition each comes from.
//!
//! A side's sum (see `lookup`) adds the four patterns of one partition. But a pattern's entry
//! counts the moves of its own tiles only, so the entries of *any* patterns that share no tile
//! add up to a lower bound, the tiles outside them counting their Manhattan distance (an entry
//! is the excess over it, so they count nothing more). The views of a catalogue are tile sets
//! (a mirrored view is the transposed tiles' distance on the board itself), and three of them
//! from different partitions are often disjoint: the catalogue of four has 20 distinct tile sets
//! among its 32 views, and 56 triples of disjoint ones that no side holds whole (a fourth set
//! never fits: the only covers of all 24 tiles are the 8 sides). Once a child has read every
//! side, every view's entry is in its memo, so the triples cost additions only (what they cut:
//! `docs/performance.md`, "2026-12-06 — Triples of disjoint patterns").
//!
//! On a CPU with AVX2 the triples are summed 32 at a time: each of a triple's three views is a
//! byte index into the memo's 32 entries, looked up with byte shuffles.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_blendv_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi16,
};

/// Views a memo holds entries for, each an index into the entries.
const VIEWS: usize = 32;

/// The triples summed at once: a vector of bytes.
const LANES: usize = 32;

/// An index that reads nothing: a byte shuffle gives 0 for an index with its top bit set.
const NONE: u8 = 0x80;

/// [`LANES`] triples: for each of the three places, each lane's view.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(32))]
struct Chunk {
    views: [[u8; LANES]; 3],
}

/// Every triple of views with pairwise disjoint tiles that no side holds whole, ready to be
/// summed.
#[derive(Debug, Clone, Default)]
pub struct Triples {
    chunks: Vec<Chunk>,
    /// How many triples there are (the last chunk's other lanes read nothing).
    len: usize,
    /// Whether this CPU sums them with AVX2.
    wide: bool,
}

impl Triples {
    /// The triples of views whose tile sets are `tiles[view]` (a bit per tile) and whose side
    /// is `sides[view]`. A tile set read by several views is taken once, through its first.
    pub fn new(tiles: &[u32], sides: &[usize]) -> Triples {
        let mut distinct: Vec<(u32, usize)> = Vec::new();
        for (view, &set) in tiles.iter().enumerate().take(VIEWS) {
            if set != 0 && !distinct.iter().any(|&(known, _)| known == set) {
                distinct.push((set, view));
            }
        }
        // The sides each set is in, as bits: a triple within one side is that side's sum, less.
        let side_bits = |set: u32| {
            tiles.iter().zip(sides).filter(|&(&other, _)| other == set).fold(0u32, |bits, (_, &side)| bits | 1 << side)
        };
        let mut triples = Vec::new();
        for (a, &(first, first_view)) in distinct.iter().enumerate() {
            for (b, &(second, second_view)) in distinct.iter().enumerate().skip(a + 1) {
                for &(third, third_view) in distinct.iter().skip(b + 1) {
                    let disjoint = first & second == 0 && first & third == 0 && second & third == 0;
                    if disjoint && side_bits(first) & side_bits(second) & side_bits(third) == 0 {
                        triples.push([first_view, second_view, third_view].map(|view| view as u8));
                    }
                }
            }
        }
        let chunks = triples
            .chunks(LANES)
            .map(|lanes| {
                let mut chunk = Chunk { views: [[NONE; LANES]; 3] };
                for (lane, triple) in lanes.iter().enumerate() {
                    for (place, &view) in triple.iter().enumerate() {
                        chunk.views[place][lane] = view;
                    }
                }
                chunk
            })
            .collect();
        Triples { chunks, len: triples.len(), wide: Triples::avx2() }
    }

    /// How many triples there are.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether this CPU has AVX2.
    fn avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        return std::arch::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        return false;
    }

    /// Whether some triple's entries, in `values` (one per view), add up to more than `most`.
    #[inline]
    pub fn any_over(&self, values: &[u8; VIEWS], most: u32) -> bool {
        // An entry is a half excess of 7 at most (a pocket's byte too, for six tiles), so a
        // triple is far under 127, the most a byte's signed compare takes; a larger `most`
        // is never exceeded.
        let Ok(most) = u8::try_from(most) else { return false };
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            // SAFETY: `wide` says this CPU has AVX2.
            return unsafe { self.any_over_avx2(values, most) };
        }
        self.chunks.iter().any(|chunk| {
            (0..LANES).any(|lane| {
                let entry = |place: usize| values.get(usize::from(chunk.views[place][lane])).copied().unwrap_or(0);
                u32::from(entry(0)) + u32::from(entry(1)) + u32::from(entry(2)) > u32::from(most)
            })
        })
    }

    /// [`Triples::any_over`] with AVX2: a byte shuffle reads within a 16-byte half, so each place
    /// is read from both halves of the entries and blended by the index's fifth bit.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn any_over_avx2(&self, values: &[u8; VIEWS], most: u8) -> bool {
        // SAFETY: every load is of 32 bytes from an array of 32 bytes.
        let entries = unsafe { _mm256_loadu_si256(values.as_ptr().cast()) };
        let low = _mm256_permute2x128_si256::<0x00>(entries, entries);
        let high = _mm256_permute2x128_si256::<0x11>(entries, entries);
        let most = _mm256_set1_epi8(most.min(127) as i8);
        for chunk in &self.chunks {
            let mut sums: __m256i = _mm256_setzero_si256();
            for views in &chunk.views {
                // SAFETY: as above.
                let views = unsafe { _mm256_loadu_si256(views.as_ptr().cast()) };
                let in_high = _mm256_slli_epi16::<3>(views);
                let read =
                    _mm256_blendv_epi8(_mm256_shuffle_epi8(low, views), _mm256_shuffle_epi8(high, views), in_high);
                sums = _mm256_add_epi8(sums, read);
            }
            if _mm256_movemask_epi8(_mm256_cmpgt_epi8(sums, most)) != 0 {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tile sets as bits.
    fn set(tiles: &[u32]) -> u32 {
        tiles.iter().fold(0, |set, &tile| set | 1 << tile)
    }

    #[test]
    fn triples_are_disjoint_sets_of_different_sides_taken_once() {
        // Side 0: {1,2}, {3,4}, {5,6}; side 1: {1,3}, {2,4}, {5,6} (shared), side 2: {1,2} again.
        let tiles = [set(&[1, 2]), set(&[3, 4]), set(&[5, 6]), set(&[1, 3]), set(&[2, 4]), set(&[5, 6]), set(&[1, 2])];
        let sides = [0, 0, 0, 1, 1, 1, 2];
        let triples = Triples::new(&tiles, &sides);
        // {1,2} (sides 0 and 2), {3,4} and {5,6} are all in side 0; {1,3}, {2,4}, {5,6} all in
        // side 1: no triple of disjoint sets spans two sides.
        assert_eq!(triples.len(), 0);
        let tiles = [set(&[1, 2]), set(&[3, 4]), set(&[5, 6]), set(&[1, 3]), set(&[2, 4]), set(&[7, 8])];
        let sides = [0, 0, 0, 1, 1, 1];
        let triples = Triples::new(&tiles, &sides);
        // Of the eight disjoint triples, {1,2}+{3,4}+{5,6} is side 0's and {1,3}+{2,4}+{7,8}
        // side 1's; the other six mix the sides.
        assert_eq!(triples.len(), 6);
    }

    #[test]
    fn the_sums_cut_exactly_above_the_largest_triple_wide_or_not() {
        let tiles = [set(&[1, 2]), set(&[3, 4]), set(&[5, 6]), set(&[1, 3]), set(&[2, 4]), set(&[7, 8])];
        let sides = [0, 0, 0, 1, 1, 1];
        let wide = Triples::new(&tiles, &sides);
        let narrow = Triples { wide: false, ..wide.clone() };
        let mut values = [0u8; VIEWS];
        values[..6].copy_from_slice(&[3, 1, 4, 2, 5, 6]);
        // The largest triple is {2,4}+{5,6}+{7,8} = 5+4+6 = 15; side 1's own, {1,3}+{2,4}+{7,8}
        // = 13, is not a triple.
        for triples in [&wide, &narrow] {
            assert!(triples.any_over(&values, 14));
            assert!(!triples.any_over(&values, 15));
            assert!(!triples.any_over(&values, 300), "no sum reaches a large limit");
        }
        // A view past the sixteenth: the shuffles read the entries' upper half.
        let tiles: Vec<u32> =
            (0..20).map(|view| if view < 17 { 0 } else { set(&[2 * view - 33, 2 * view - 32]) }).collect();
        let sides: Vec<usize> = (0..20).collect();
        let triples = Triples::new(&tiles, &sides);
        assert_eq!(triples.len(), 1);
        values[17..20].copy_from_slice(&[7, 8, 9]);
        assert!(triples.any_over(&values, 23));
        assert!(!triples.any_over(&values, 24));
        assert!(!Triples { wide: false, ..triples.clone() }.any_over(&values, 24));
        assert!(Triples { wide: false, ..triples }.any_over(&values, 23));
    }
}
