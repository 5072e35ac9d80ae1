//! Seeded random boards, so that benchmarks and tests draw the same boards on every run: a
//! small deterministic generator (xorshift64*) and a uniform shuffle made solvable.

use crate::board::{Board, BoardError};

/// A small deterministic generator (xorshift64*): the same seed gives the same numbers on every
/// machine, so a benchmark's boards and a failing test's board can be drawn again.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (0, which xorshift cannot leave, is taken as 1).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// A number in `0..bound` (`bound` at least 1).
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % bound.max(1)
    }
}

/// A uniformly random solvable board of side `n`: a shuffle, or its twin when the shuffle is
/// unsolvable (the twin of an unsolvable board is solvable).
pub fn random_board(n: usize, rng: &mut Rng) -> Result<Board, BoardError> {
    let mut tiles: Vec<u16> = (0..n * n).map(|tile| tile as u16).collect();
    for i in (1..tiles.len()).rev() {
        tiles.swap(i, rng.below(i + 1));
    }
    let board = Board::new(n, &tiles)?;
    Ok(if board.is_solvable() { board } else { board.twin() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_solvable_board() {
        let first = random_board(7, &mut Rng::new(5)).expect("a board");
        assert_eq!(first, random_board(7, &mut Rng::new(5)).expect("a board"));
        assert_ne!(first, random_board(7, &mut Rng::new(6)).expect("a board"));
        assert!(first.is_solvable());
    }
}
