//! The spec's text formats: its stdin format (N, then N*N tiles, 0 = blank) parsed into a
//! [`Board`] with errors that name the line and token, and a [`Solution`] written the way the
//! spec's `main()` prints it.
//!
//! Tokens may be separated by any whitespace. Anything after the N*N-th tile other than
//! whitespace is an error: extra numbers almost always mean the dimension is wrong, and
//! guessing would solve a different puzzle than the one the user meant.

use std::fmt::{self, Write};

use thiserror::Error;

use crate::board::{Board, DEFAULT_MAX_DIMENSION};
use crate::solver::Solution;

/// Where a token stands in the input, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Line number.
    pub line: usize,
    /// Column (in characters) where the token starts.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why a text is not a puzzle in the spec's format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Nothing but whitespace.
    #[error("empty input: expected the dimension N, then N*N tiles")]
    Empty,
    /// The first token is not a whole number.
    #[error("{at}: dimension {token:?} is not a whole number")]
    DimensionNotANumber {
        /// The token read.
        token: String,
        /// Where it is.
        at: Position,
    },
    /// N is below 2 or above the maximum.
    #[error("{at}: dimension {dimension} is out of range 2..={max}")]
    DimensionOutOfRange {
        /// The dimension as written.
        dimension: String,
        /// The largest N accepted.
        max: usize,
        /// Where it is.
        at: Position,
    },
    /// The input ended before N*N tiles.
    #[error("too few tiles: a {dimension}x{dimension} board needs {expected}, the input has {found}")]
    TooFewTiles {
        /// The N read.
        dimension: usize,
        /// N*N.
        expected: usize,
        /// The tiles the input has.
        found: usize,
    },
    /// A tile token is not a whole number.
    #[error("{at}: tile {token:?} is not a whole number")]
    TileNotANumber {
        /// The token read.
        token: String,
        /// Where it is.
        at: Position,
    },
    /// A tile is outside `0..N*N`.
    #[error("{at}: tile {token} is out of range 0..={max}")]
    TileOutOfRange {
        /// The tile as written.
        token: String,
        /// The largest label allowed, N*N - 1.
        max: usize,
        /// Where it is.
        at: Position,
    },
    /// A tile appears twice, so another is missing.
    #[error("{at}: tile {tile} appears twice (first at {first}), so tile {missing} is missing")]
    DuplicateTile {
        /// The label given twice.
        tile: usize,
        /// Where it first appears.
        first: Position,
        /// The smallest label not read before the duplicate, named as the missing one.
        missing: usize,
        /// Where it appears again.
        at: Position,
    },
    /// Something follows the last tile.
    #[error("{at}: unexpected {token:?} after the last of the {expected} tiles")]
    TrailingToken {
        /// The first extra token.
        token: String,
        /// N*N.
        expected: usize,
        /// Where it is.
        at: Position,
    },
}

impl ParseError {
    /// Where in the text the error is, when it is at a token.
    pub fn position(&self) -> Option<Position> {
        match self {
            ParseError::DimensionNotANumber { at, .. }
            | ParseError::DimensionOutOfRange { at, .. }
            | ParseError::TileNotANumber { at, .. }
            | ParseError::TileOutOfRange { at, .. }
            | ParseError::DuplicateTile { at, .. }
            | ParseError::TrailingToken { at, .. } => Some(*at),
            _ => None,
        }
    }
}

/// The whitespace-separated tokens of `text`, each with its position.
fn tokens(text: &str) -> impl Iterator<Item = (&str, Position)> {
    text.lines().enumerate().flat_map(|(line_index, line)| {
        let mut rest = line;
        let mut consumed_chars = 0;
        std::iter::from_fn(move || {
            let start = rest.find(|c: char| !c.is_whitespace())?;
            consumed_chars += rest[..start].chars().count();
            rest = &rest[start..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let (token, after) = rest.split_at(end);
            let at = Position { line: line_index + 1, column: consumed_chars + 1 };
            consumed_chars += token.chars().count();
            rest = after;
            Some((token, at))
        })
    })
}

/// Parses the spec's format with the default dimension cap.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    parse_board_with_max(text, DEFAULT_MAX_DIMENSION)
}

/// Parses the spec's format, refusing N above `max_dimension` before allocating anything for it.
pub fn parse_board_with_max(text: &str, max_dimension: usize) -> Result<Board, ParseError> {
    let max_dimension = max_dimension.min(crate::board::MAX_DIMENSION);
    let mut tokens = tokens(text);
    let (token, at) = tokens.next().ok_or(ParseError::Empty)?;
    let dimension: u64 = token.parse().map_err(|_| match token.parse::<i128>() {
        Ok(_) => ParseError::DimensionOutOfRange { dimension: token.into(), max: max_dimension, at },
        Err(_) => ParseError::DimensionNotANumber { token: token.into(), at },
    })?;
    if !(2..=max_dimension as u64).contains(&dimension) {
        return Err(ParseError::DimensionOutOfRange { dimension: token.into(), max: max_dimension, at });
    }
    let dimension = dimension as usize;
    let cells = dimension * dimension;
    let mut tiles = Vec::with_capacity(cells);
    let mut seen_at: Vec<Option<Position>> = vec![None; cells];
    for (token, at) in tokens.by_ref().take(cells) {
        let tile = parse_tile(token, cells, at)?;
        if let Some(first) = seen_at[tile] {
            let missing = seen_at.iter().position(Option::is_none).unwrap_or(tile);
            return Err(ParseError::DuplicateTile { tile, first, missing, at });
        }
        seen_at[tile] = Some(at);
        tiles.push(tile as u16);
    }
    if tiles.len() < cells {
        return Err(ParseError::TooFewTiles { dimension, expected: cells, found: tiles.len() });
    }
    if let Some((token, at)) = tokens.next() {
        return Err(ParseError::TrailingToken { token: token.into(), expected: cells, at });
    }
    // The checks above are the board's own, so this cannot fail; map it anyway, never panic.
    Board::with_max_dimension(dimension, &tiles, max_dimension).map_err(|_| ParseError::TooFewTiles {
        dimension,
        expected: cells,
        found: tiles.len(),
    })
}

fn parse_tile(token: &str, cells: usize, at: Position) -> Result<usize, ParseError> {
    let out_of_range = || ParseError::TileOutOfRange { token: token.into(), max: cells - 1, at };
    match token.parse::<u64>() {
        Ok(tile) if tile < cells as u64 => Ok(tile as usize),
        Ok(_) => Err(out_of_range()),
        Err(_) if token.parse::<i128>().is_ok() => Err(out_of_range()),
        Err(_) => Err(ParseError::TileNotANumber { token: token.into(), at }),
    }
}

/// The spec's stdout for a solution: `Minimum number of moves = K` (or, when not proven
/// minimal, the [`moves_header`] that says so) and each board followed by an empty line, or
/// `No solution possible`. The boards are replayed one at a time, so a solution past
/// [`MAX_LISTED_TILES`](crate::solver::MAX_LISTED_TILES) still prints, at N*N tiles a move.
pub fn format_solution(solution: &Solution) -> String {
    if !solution.is_solvable() {
        return format_boards(None);
    }
    let moves = u32::try_from(solution.moves()).unwrap_or(0);
    let mut out = moves_header(moves, solution.is_optimal(), solution.lower_bound());
    out.push('\n');
    for board in solution.replay() {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{board}");
    }
    out
}

/// The first line of an answer: the spec's `Minimum number of moves = K` when `optimal`, else
/// `Number of moves = K (not proven minimal; the minimum is at least L)`.
pub fn moves_header(moves: u32, optimal: bool, lower_bound: u32) -> String {
    if optimal {
        format!("Minimum number of moves = {moves}")
    } else {
        format!("Number of moves = {moves} (not proven minimal; the minimum is at least {lower_bound})")
    }
}

/// The spec's stdout for the boards of a shortest solution, initial to goal (so K is one less
/// than their number), or for no solution (`None`). Shared by [`format_solution`] and by
/// clients that rebuild the boards from a server's answer.
pub fn format_boards(boards: Option<&[Board]>) -> String {
    let mut out = String::new();
    match boards {
        None => out.push_str("No solution possible\n"),
        Some(boards) => {
            // Writing to a String cannot fail.
            let _ = writeln!(out, "Minimum number of moves = {}", boards.len().saturating_sub(1));
            for board in boards {
                let _ = writeln!(out, "{board}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_aligned_and_ragged_whitespace() {
        let board = parse_board("3\n 0  1  3\n 4  2  5\n 7  8  6\n\n\n").expect("parses");
        assert_eq!(board.tiles(), &[0, 1, 3, 4, 2, 5, 7, 8, 6]);
        let same = parse_board("3 0 1 3\t4 2 5 7\r\n8 6").expect("parses");
        assert_eq!(board, same);
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse_board("3\n0 1 3\n4 x 5\n7 8 6\n").unwrap_err();
        assert_eq!(err.to_string(), "line 3, column 3: tile \"x\" is not a whole number");
        let err = parse_board("3\n0 1 3\n4 2 5\n7 8 9\n").unwrap_err();
        assert_eq!(err.to_string(), "line 4, column 5: tile 9 is out of range 0..=8");
        let err = parse_board("3\n0 1 3\n4 2 5\n7 8 8\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4, column 5: tile 8 appears twice (first at line 4, column 3), so tile 6 is missing"
        );
    }

    #[test]
    fn each_error_kind() {
        assert_eq!(parse_board(" \n\t\n"), Err(ParseError::Empty));
        assert!(matches!(parse_board("three"), Err(ParseError::DimensionNotANumber { .. })));
        assert!(matches!(parse_board("1 0"), Err(ParseError::DimensionOutOfRange { .. })));
        assert!(matches!(parse_board("-3"), Err(ParseError::DimensionOutOfRange { .. })));
        assert!(matches!(parse_board("0"), Err(ParseError::DimensionOutOfRange { .. })));
        assert!(matches!(parse_board("2 0 1 2"), Err(ParseError::TooFewTiles { found: 3, .. })));
        assert!(matches!(parse_board("2 0 1 2 -3"), Err(ParseError::TileOutOfRange { .. })));
        assert!(matches!(parse_board("2 0 1 2 3 4"), Err(ParseError::TrailingToken { .. })));
    }

    #[test]
    fn huge_dimension_is_refused_without_allocating() {
        let err = parse_board("99999999999999999999999").unwrap_err();
        assert!(matches!(err, ParseError::DimensionOutOfRange { .. }), "{err}");
        let err = parse_board("18446744073709551615").unwrap_err();
        assert!(matches!(err, ParseError::DimensionOutOfRange { max: 128, .. }), "{err}");
        assert!(matches!(parse_board_with_max("5", 4), Err(ParseError::DimensionOutOfRange { max: 4, .. })));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let err = parse_board("2\n\u{a0}0 1 2 é").unwrap_err();
        assert_eq!(err.to_string(), "line 2, column 8: tile \"é\" is not a whole number");
    }
}
