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
    /// A letter of the blank's moves is not U, D, L or R, or moves the blank off the board.
    #[error("the blank's move {index} ({letter:?}) is not a move on this board")]
    BadBlankMove {
        /// The move's place in `blank_moves`, 0 for the first.
        index: usize,
        /// The letter found there.
        letter: char,
    },
}

/// The full name of the message `--json` prints.
const SOLUTION_MESSAGE: &str = "npuzzle.v1.Solution";
/// The full name of the message `--hint --json` prints.
const HINT_MESSAGE: &str = "npuzzle.v1.HintResponse";

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
    message_json(solution, SOLUTION_MESSAGE)
}

/// The hint in the canonical protobuf JSON mapping, as [`solution_json`] writes a solution.
pub fn hint_json(hint: &proto::HintResponse) -> Result<String, ResponseError> {
    message_json(hint, HINT_MESSAGE)
}

/// `message`, whose full name is `name`, in the canonical protobuf JSON mapping.
fn message_json(message: &impl Message, name: &'static str) -> Result<String, ResponseError> {
    let pool = DescriptorPool::decode(proto::FILE_DESCRIPTOR_SET)?;
    let descriptor = pool.get_message_by_name(name).ok_or(ResponseError::MissingMessage(name))?;
    let message = DynamicMessage::decode(descriptor, message.encode_to_vec().as_slice())?;
    // Written straight to bytes (not through serde_json::Value) to keep the fields in proto order.
    let mut json = Vec::new();
    let mut serializer = serde_json::Serializer::pretty(&mut json);
    message.serialize_with_options(&mut serializer, &SerializeOptions::new().skip_default_fields(false))?;
    json.push(b'\n');
    // serde_json writes only UTF-8, so nothing is ever replaced here.
    Ok(String::from_utf8_lossy(&json).into_owned())
}

/// The tiles' moves of a solution on one line, `5L 6U 2R`: the tile that slides and the way
/// it goes (U toward row 0, D, L, R), the opposite of each of the blank's moves. `blank_moves`
/// is the solution's blank path from `start`.
pub fn tile_moves(start: &Board, blank_moves: &str) -> Result<String, ResponseError> {
    let n = start.dimension();
    let mut tiles = start.tiles().to_vec();
    let mut blank = start.blank_index();
    let mut line = String::with_capacity(blank_moves.len() * 4);
    for (index, letter) in blank_moves.chars().enumerate() {
        let (row, col) = (blank / n, blank % n);
        let (target, tile_way) = match letter {
            'U' if row > 0 => (blank - n, 'D'),
            'D' if row + 1 < n => (blank + n, 'U'),
            'L' if col > 0 => (blank - 1, 'R'),
            'R' if col + 1 < n => (blank + 1, 'L'),
            _ => return Err(ResponseError::BadBlankMove { index, letter }),
        };
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&format!("{}{tile_way}", tiles[target]));
        tiles.swap(blank, target);
        blank = target;
    }
    Ok(line)
}

/// A hint in words, one line: `12 moves to go; slide 5 left (or 6 up)` when proven, `at least
/// 40 moves to go (best found 44); slide 7 down` when not, `solved: no moves to go` at the
/// goal, `No solution possible` when the goal cannot be reached.
pub fn hint_text(hint: &proto::HintResponse) -> String {
    let distance = match u32::try_from(hint.distance) {
        Err(_) => return "No solution possible\n".to_string(),
        Ok(0) => return "solved: no moves to go\n".to_string(),
        Ok(distance) => distance,
    };
    let plural = |count: u32| if count == 1 { "move" } else { "moves" };
    let mut line = if hint.optimal {
        format!("{distance} {} to go", plural(distance))
    } else {
        format!("at least {} {} to go (best found {distance})", hint.lower_bound, plural(hint.lower_bound))
    };
    let slides: Vec<String> =
        hint.moves.iter().map(|step| format!("{} {}", step.tile, way(step.direction()))).collect();
    if let Some((first, others)) = slides.split_first() {
        line.push_str(&format!("; slide {first}"));
        if !others.is_empty() {
            line.push_str(&format!(" (or {})", others.join(", or ")));
        }
    }
    line.push('\n');
    line
}

/// The way a tile slides, in a word.
fn way(direction: proto::Direction) -> &'static str {
    match direction {
        proto::Direction::Up => "up",
        proto::Direction::Down => "down",
        proto::Direction::Left => "left",
        proto::Direction::Right => "right",
        proto::Direction::Unspecified => "somewhere",
    }
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
    fn tile_moves_are_the_opposite_of_the_blanks() {
        let start = parse_board("3\n0 1 3\n4 2 5\n7 8 6\n").expect("parses");
        assert_eq!(tile_moves(&start, "RDRD").expect("moves"), "1L 2U 5L 6U");
        assert_eq!(tile_moves(&start, "").expect("no moves"), "");
        assert!(matches!(tile_moves(&start, "RU"), Err(ResponseError::BadBlankMove { index: 1, letter: 'U' })));
        assert!(matches!(tile_moves(&start, "x"), Err(ResponseError::BadBlankMove { index: 0, .. })));
    }

    #[test]
    fn hints_read_as_words() {
        let step = |tile, direction: proto::Direction| proto::Move { tile, direction: direction as i32 };
        let proven = proto::HintResponse {
            distance: 12,
            moves: vec![step(5, proto::Direction::Left), step(6, proto::Direction::Up)],
            optimal: true,
            lower_bound: 12,
        };
        assert_eq!(hint_text(&proven), "12 moves to go; slide 5 left (or 6 up)\n");
        let found = proto::HintResponse {
            distance: 44,
            moves: vec![step(7, proto::Direction::Down)],
            optimal: false,
            lower_bound: 40,
        };
        assert_eq!(hint_text(&found), "at least 40 moves to go (best found 44); slide 7 down\n");
        let one = proto::HintResponse {
            distance: 1,
            moves: vec![step(8, proto::Direction::Left)],
            optimal: true,
            lower_bound: 1,
        };
        assert_eq!(hint_text(&one), "1 move to go; slide 8 left\n");
        assert_eq!(hint_text(&proto::HintResponse { optimal: true, ..Default::default() }), "solved: no moves to go\n");
        assert_eq!(hint_text(&proto::HintResponse { distance: -1, ..Default::default() }), "No solution possible\n");
        let json: serde_json::Value = serde_json::from_str(&hint_json(&proven).expect("json")).expect("parses");
        assert_eq!(json["moves"][1], serde_json::json!({"tile": 6, "direction": "DIRECTION_UP"}));
    }

    #[test]
    fn code_names_are_canonical() {
        assert_eq!(code_name(tonic::Code::InvalidArgument), "INVALID_ARGUMENT");
        assert_eq!(code_name(tonic::Code::DeadlineExceeded), "DEADLINE_EXCEEDED");
    }
}
