//! Path shortening after the construction: a move followed by its undo is two wasted moves.
//! Placing tiles one at a time leaves such pairs where one placement's last blank step is the
//! next one's first step back; removing a pair can expose another, so a stack removes them all
//! in one pass.

use crate::board::Direction;

/// `path` without any move that is immediately undone, repeatedly.
pub fn cancel_undos(path: &[Direction]) -> Vec<Direction> {
    let mut kept: Vec<Direction> = Vec::with_capacity(path.len());
    for &direction in path {
        if kept.last() == Some(&direction.opposite()) {
            kept.pop();
        } else {
            kept.push(direction);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::{Down, Left, Right, Up};

    #[test]
    fn nested_undos_all_go() {
        assert_eq!(cancel_undos(&[Up, Left, Right, Down, Left]), vec![Left]);
        assert_eq!(cancel_undos(&[Up, Up, Left]), vec![Up, Up, Left]);
    }
}
