//! Seeded random boards, so that benchmarks and tests draw the same boards on every run: a
//! small deterministic generator (xorshift64*), a uniform shuffle made solvable, and a walk of
//! the blank from the goal (a board near its goal).

use crate::board::{Board, BoardError, Direction};

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

/// `k` distinct indices of `0..len` (all of them when `k >= len`), drawn uniformly without
/// replacement in the order drawn, so a benchmark's seeded sample of its rows is the same on
/// every run.
pub fn sample(len: usize, k: usize, rng: &mut Rng) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..len).collect();
    let k = k.min(len);
    for i in 0..k {
        indices.swap(i, i + rng.below(len - i));
    }
    indices.truncate(k);
    indices
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

/// The goal of side `n` after `steps` random slides, none undoing the one before: a board at
/// most `steps` moves from its goal, as a shuffled physical puzzle is.
pub fn walked_board(n: usize, steps: usize, rng: &mut Rng) -> Result<Board, BoardError> {
    let mut board = Board::goal(n)?;
    let mut last: Option<Direction> = None;
    let mut made = 0;
    while made < steps {
        let direction = Direction::ALL[rng.below(Direction::ALL.len())];
        if last == Some(direction.opposite()) {
            continue;
        }
        if let Some((next, _)) = board.slide(direction) {
            (board, last, made) = (next, Some(direction), made + 1);
        }
    }
    Ok(board)
}

/// The cell whose tile a random slide moves into the blank at `blank` of a board of side `n`:
/// for tests that walk a board of their own, one slide at a time.
#[cfg(test)]
pub(crate) fn random_slide(n: usize, blank: usize, rng: &mut Rng) -> usize {
    loop {
        let direction = Direction::ALL[rng.below(Direction::ALL.len())];
        if let Some(from) = crate::board::tile_to_slide(n, blank, direction) {
            return from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_of_one_step_is_one_move_from_the_goal() {
        let board = walked_board(5, 1, &mut Rng::new(9)).expect("a board");
        assert_eq!(board.manhattan(), 1);
        assert_ne!(board.blank_index(), 24);
        assert_eq!(walked_board(5, 0, &mut Rng::new(9)).expect("a board"), Board::goal(5).expect("a goal"));
    }

    #[test]
    fn the_same_seed_draws_the_same_solvable_board() {
        let first = random_board(7, &mut Rng::new(5)).expect("a board");
        assert_eq!(first, random_board(7, &mut Rng::new(5)).expect("a board"));
        assert_ne!(first, random_board(7, &mut Rng::new(6)).expect("a board"));
        assert!(first.is_solvable());
    }

    #[test]
    fn a_sample_is_distinct_seeded_and_capped_at_the_whole() {
        let drawn = sample(50, 8, &mut Rng::new(3));
        assert_eq!(drawn, sample(50, 8, &mut Rng::new(3)));
        let mut sorted = drawn.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 8);
        assert!(sorted.iter().all(|&index| index < 50));
        let mut all = sample(5, 9, &mut Rng::new(3));
        all.sort_unstable();
        assert_eq!(all, vec![0, 1, 2, 3, 4]);
    }
}
