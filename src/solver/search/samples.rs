//! What the searches' unit tests share: the repository's sample puzzles, and the check that a
//! path really reaches the goal.

use crate::board::{Board, Direction};

/// The board of `puzzles/NAME` in the repository.
pub fn sample(name: &str) -> Board {
    let path = format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the sample puzzle is readable");
    // The spec's format, read plainly: the side, then the tiles (the text module sits above
    // the solver, which the searches' tests do not reach up to).
    let numbers: Vec<u16> = text.split_whitespace().map(|token| token.parse().expect("a number")).collect();
    Board::new(usize::from(numbers[0]), &numbers[1..]).expect("the sample puzzle is a board")
}

/// Replays `path` from `board` and says whether it reaches the goal.
pub fn reaches_goal(board: &Board, path: &[Direction]) -> bool {
    let end = path.iter().try_fold(board.clone(), |board, &direction| board.slide(direction).map(|(next, _)| next));
    end.is_some_and(|end| end.is_goal())
}
