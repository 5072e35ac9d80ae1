//! What a client prints: a server's `proto::Solution` back into the spec's stdout or into
//! canonical protobuf JSON, and the canonical names of gRPC status codes for error messages. (A board goes onto the wire with [`crate::convert`]'s `From`.)
//!
//! A server's answer is checked before it is printed: every board must be a real board and
//! their number must match the move count, so a client never prints a malformed solution as if
//! it were one.

use prost::{DecodeError, Message};
use prost_reflect::{DescriptorError, DescriptorPool, DynamicMessage, SerializeOptions};
use thiserror::Error;

use crate::board::{Board, BoardError, MAX_DIMENSION};
use crate::convert::board_from_proto;
use crate::proto;
use crate::text::format_boards;

/// Why a server's `Solution` cannot be shown.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ResponseError {
    /// A board in the solution is not a board.
    #[error("board {index} of the solution is malformed: {source}")]
    MalformedBoard {
        /// The board's place in the solution, 0 for the start.
        index: usize,
        /// What is wrong with it.
        source: BoardError,
    },
    /// The number of boards does not match the move count.
    #[error("the solution says {moves} moves but carries {boards} boards")]
    WrongBoardCount {
        /// The move count the solution states.
        moves: i32,
        /// The boards it carries.
        boards: usize,
    },
    /// The descriptor set compiled into the crate does not decode (a build problem).
    #[error("the built-in descriptor set is unusable: {0}")]
    Descriptor(#[from] DescriptorError),
    /// The descriptor set compiled into the crate lacks the message (a build problem).
    #[error("the built-in descriptor set has no message {0}")]
    MissingMessage(&'static str),
    /// The solution does not decode against its own descriptor.
    #[error("the solution does not match its descriptor: {0}")]
    Decode(#[from] DecodeError),
    /// serde_json refused the message.
    #[error("cannot write the solution as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The full name of the message `--json` prints.
const SOLUTION_MESSAGE: &str = "npuzzle.v1.Solution";

/// What the spec's `main()` prints for this solution, byte for byte.
pub fn solution_text(solution: &proto::Solution) -> Result<String, ResponseError> {
    if !solution.solvable() {
        return Ok(format_boards(None));
    }
    let expected_boards = usize::try_from(solution.moves).ok().and_then(|moves| moves.checked_add(1));
    if expected_boards != Some(solution.boards.len()) {
        return Err(ResponseError::WrongBoardCount { moves: solution.moves, boards: solution.boards.len() });
    }
    let boards = solution
        .boards
        .iter()
        .enumerate()
        // Any size a board can have: the server, not the client, decides what it accepts.
        .map(|(index, board)| {
            board_from_proto(board, MAX_DIMENSION).map_err(|source| ResponseError::MalformedBoard { index, source })
        })
        .collect::<Result<Vec<Board>, _>>()?;
    Ok(format_boards(Some(&boards)))
}

/// The solution in the canonical protobuf JSON mapping (camelCase names, enums by name, 64-bit
/// integers as strings), pretty-printed. Fields at their default value are printed too, so every
/// answer has the same shape: `"solvable": false` is there to read, not implied by its absence.
pub fn solution_json(solution: &proto::Solution) -> Result<String, ResponseError> {
    let pool = DescriptorPool::decode(proto::FILE_DESCRIPTOR_SET)?;
    let descriptor =
        pool.get_message_by_name(SOLUTION_MESSAGE).ok_or(ResponseError::MissingMessage(SOLUTION_MESSAGE))?;
    let message = DynamicMessage::decode(descriptor, solution.encode_to_vec().as_slice())?;
    // Written straight to bytes (not through serde_json::Value) to keep the fields in proto order.
    let mut json = Vec::new();
    let mut serializer = serde_json::Serializer::pretty(&mut json);
    message.serialize_with_options(&mut serializer, &SerializeOptions::new().skip_default_fields(false))?;
    json.push(b'\n');
    // serde_json writes only UTF-8, so nothing is ever replaced here.
    Ok(String::from_utf8_lossy(&json).into_owned())
}

/// The canonical name of a status code (`INVALID_ARGUMENT`), as grpcurl and other languages
/// print it, so one error reads the same whichever client reports it.
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code;
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_board;

    fn solved_in_one() -> proto::Solution {
        let start = parse_board("3\n1 2 3\n4 5 6\n7 0 8\n").expect("parses");
        let goal = Board::goal(3).expect("goal");
        proto::Solution {
            solvable: Some(true),
            moves: 1,
            boards: vec![proto::Board::from(&start), proto::Board::from(&goal)],
            ..Default::default()
        }
    }

    #[test]
    fn text_matches_the_spec() {
        let text = solution_text(&solved_in_one()).expect("renders");
        assert_eq!(
            text,
            "Minimum number of moves = 1\n3\n 1  2  3 \n 4  5  6 \n 7  0  8 \n\n3\n 1  2  3 \n 4  5  6 \n 7  8  0 \n\n"
        );
        let unsolvable = proto::Solution { solvable: Some(false), moves: -1, ..Default::default() };
        assert_eq!(solution_text(&unsolvable).expect("renders"), "No solution possible\n");
    }

    #[test]
    fn malformed_answers_are_refused() {
        let mut short = solved_in_one();
        short.boards.pop();
        assert!(matches!(solution_text(&short), Err(ResponseError::WrongBoardCount { moves: 1, boards: 1 })));
        let mut duplicate = solved_in_one();
        duplicate.boards[1].tiles[0] = 2;
        assert!(matches!(solution_text(&duplicate), Err(ResponseError::MalformedBoard { index: 1, .. })));
        let mut huge = solved_in_one();
        huge.boards[0].tiles[0] = 70_000;
        assert!(matches!(solution_text(&huge), Err(ResponseError::MalformedBoard { index: 0, .. })));
    }

    #[test]
    fn json_uses_the_canonical_mapping() {
        let mut solution = solved_in_one();
        solution.steps = vec![proto::Move { tile: 8, direction: proto::Direction::Left as i32 }];
        solution.stats = Some(proto::SearchStats { nodes_expanded: 2, ..Default::default() });
        let text = solution_json(&solution).expect("json");
        let order: Vec<Option<usize>> =
            ["\"solvable\"", "\"moves\"", "\"boards\"", "\"steps\"", "\"stats\""].map(|key| text.find(key)).into();
        assert!(order.windows(2).all(|pair| pair[0].is_some() && pair[0] < pair[1]), "fields in proto order: {text}");
        let json: serde_json::Value = serde_json::from_str(&text).expect("parses");
        assert_eq!(json["moves"], 1);
        assert_eq!(json["solvable"], true);
        assert_eq!(json["steps"][0]["direction"], "DIRECTION_LEFT");
        assert_eq!(json["stats"]["nodesExpanded"], "2");
        assert_eq!(json["stats"]["algorithm"], "ALGORITHM_UNSPECIFIED");
        assert_eq!(json["boards"][1]["tiles"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
    }

    #[test]
    fn code_names_are_canonical() {
        assert_eq!(code_name(tonic::Code::InvalidArgument), "INVALID_ARGUMENT");
        assert_eq!(code_name(tonic::Code::DeadlineExceeded), "DEADLINE_EXCEEDED");
    }
}
