//! The boards a load run sends, by kind, with the answer each must get: what a call is, and
//! whether its outcome is the right one.
//!
//! Every solvable board here has a known optimal length (from the spec's sample files), so a
//! load run checks each answer, not only its status. The mix is fixed per kind and weighted by
//! [`Mix`]; calls are dealt in a fixed order, so two runs with the same flags send the same calls.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use tonic::Code;

use crate::board::Board;
use crate::proto::{self, solve_request};

/// A kind of call in the mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// 3×3 boards a few moves from the goal: the per-call overhead of the service.
    Trivial,
    /// 3×3 boards of 31 moves, the most a 3×3 board needs.
    Hardest,
    /// 4×4 boards of 20 to 36 moves: real searches that take a slot for milliseconds.
    Fifteen,
    /// Malformed requests, which must be refused with INVALID_ARGUMENT before any search.
    Bad,
    /// An 80-move 4×4 board whose call the client drops midway: the server must stop it.
    Cancelled,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 5] = [Kind::Trivial, Kind::Hardest, Kind::Fifteen, Kind::Bad, Kind::Cancelled];

    /// The name used in `--mix` and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Trivial => "3x3-trivial",
            Kind::Hardest => "3x3-hardest",
            Kind::Fifteen => "4x4",
            Kind::Bad => "bad-input",
            Kind::Cancelled => "cancelled",
        }
    }

    /// Whether the client drops this kind of call midway.
    pub fn is_cancelled(self) -> bool {
        self == Kind::Cancelled
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A solvable board and its optimal length.
struct Known {
    tiles: &'static [u16],
    moves: i32,
}

/// 3×3 boards of 4 to 8 moves (the spec's puzzle04 and neighbours).
const TRIVIAL: &[Known] = &[
    Known { tiles: &[0, 1, 3, 4, 2, 5, 7, 8, 6], moves: 4 },
    Known { tiles: &[1, 2, 3, 4, 5, 6, 7, 0, 8], moves: 1 },
    Known { tiles: &[1, 2, 3, 4, 5, 6, 7, 8, 0], moves: 0 },
];

/// The two 3×3 boards of 31 moves.
const HARDEST: &[Known] = &[
    Known { tiles: &[8, 6, 7, 2, 5, 4, 3, 0, 1], moves: 31 },
    Known { tiles: &[6, 4, 7, 8, 5, 0, 3, 2, 1], moves: 31 },
];

/// 4×4 boards of the spec's sample files (puzzle4x4-20 to -36).
const FIFTEEN: &[Known] = &[
    Known { tiles: &[6, 3, 7, 4, 2, 9, 10, 8, 1, 5, 12, 15, 13, 0, 14, 11], moves: 20 },
    Known { tiles: &[9, 5, 1, 2, 6, 4, 8, 3, 10, 14, 7, 11, 13, 0, 15, 12], moves: 24 },
    Known { tiles: &[2, 5, 4, 7, 9, 1, 3, 8, 11, 10, 0, 6, 14, 13, 15, 12], moves: 28 },
    Known { tiles: &[6, 2, 3, 8, 5, 0, 7, 11, 1, 10, 4, 12, 13, 14, 9, 15], moves: 32 },
    Known { tiles: &[3, 14, 2, 4, 9, 1, 7, 8, 0, 12, 6, 10, 13, 5, 11, 15], moves: 36 },
];

/// An 80-move 4×4 board: no search ends on it before the client gives up.
const HARD_4X4: &[u16] = &[0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1];

/// Malformed puzzles, as text: a duplicate tile, a missing row, a non-number, no board at all.
const BAD: &[&str] = &["3\n1 2 3\n4 5 6\n7 8 8\n", "3\n1 2 3\n4 5 6\n", "3\n1 2 3\n4 x 6\n7 8 0\n", ""];

/// How many calls of each kind a run deals, in proportion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mix {
    weights: Vec<(Kind, u32)>,
}

impl Default for Mix {
    /// 40 trivial, 30 hardest, 15 4×4, 10 bad, 5 cancelled: mostly short calls, so a run
    /// measures the service more than the search, with enough of every kind for its percentiles.
    fn default() -> Mix {
        Mix {
            weights: vec![
                (Kind::Trivial, 40),
                (Kind::Hardest, 30),
                (Kind::Fifteen, 15),
                (Kind::Bad, 10),
                (Kind::Cancelled, 5),
            ],
        }
    }
}

/// Why a `--mix` value was refused.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum MixError {
    /// An entry is not `KIND=WEIGHT`.
    #[error("mix entry {0:?} is not KIND=WEIGHT (e.g. 3x3-trivial=40)")]
    Entry(String),
    /// The kind is not one of the known ones.
    #[error("unknown kind {0:?} in the mix: use 3x3-trivial, 3x3-hardest, 4x4, bad-input or cancelled")]
    Kind(String),
    /// The weights add up to nothing.
    #[error("the mix has no weight: give at least one kind a weight above 0")]
    Empty,
}

impl FromStr for Mix {
    type Err = MixError;

    /// `KIND=WEIGHT,...`, e.g. `3x3-trivial=40,4x4=10`; kinds left out get no calls.
    fn from_str(text: &str) -> Result<Mix, MixError> {
        let mut weights = Vec::new();
        for entry in text.split(',').map(str::trim).filter(|entry| !entry.is_empty()) {
            let (name, weight) = entry.split_once('=').ok_or_else(|| MixError::Entry(entry.to_owned()))?;
            let weight: u32 = weight.trim().parse().map_err(|_| MixError::Entry(entry.to_owned()))?;
            let kind = Kind::ALL
                .into_iter()
                .find(|kind| kind.name() == name.trim())
                .ok_or_else(|| MixError::Kind(name.trim().to_owned()))?;
            weights.push((kind, weight));
        }
        let mix = Mix { weights: weights.into_iter().filter(|&(_, weight)| weight > 0).collect() };
        if mix.total() == 0 { Err(MixError::Empty) } else { Ok(mix) }
    }
}

impl Mix {
    fn total(&self) -> u64 {
        self.weights.iter().map(|&(_, weight)| u64::from(weight)).sum()
    }

    /// The `index`-th call of the run: kinds are dealt in proportion to their weights, each
    /// kind cycling through its boards. Each round of `total` calls visits the weights' slots
    /// in a stride that is prime to `total`, so the kinds are interleaved in time rather than
    /// sent in blocks (a block of slow calls would hold every search slot at once and queue the
    /// next block behind it, and the latencies would measure the dealing order).
    pub fn call(&self, index: u64) -> Call {
        let total = self.total().max(1);
        let mut slot = index % total * stride(total) % total;
        let mut kind = Kind::Trivial;
        for &(candidate, weight) in &self.weights {
            kind = candidate;
            if slot < u64::from(weight) {
                break;
            }
            slot -= u64::from(weight);
        }
        Call::new(kind, index / total)
    }
}

/// One call: its kind, the request and what must come back.
#[derive(Debug, Clone)]
pub struct Call {
    /// Its kind.
    pub kind: Kind,
    /// The request to send.
    pub request: proto::SolveRequest,
    /// The board sent, for a solvable one; the answer must start from it.
    board: Option<Board>,
    /// The optimal length of a solvable board.
    moves: Option<i32>,
}

/// What a call's outcome says about the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The answer or status this kind of call may get.
    Expected,
    /// A solution that is not the optimal one for the board sent.
    WrongAnswer,
    /// A status this kind of call must not get.
    UnexpectedStatus,
}

/// The least number from 3/8 of `total` up that is prime to it: a step that visits every slot
/// of a round once, far apart.
fn stride(total: u64) -> u64 {
    let coprime = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a == 1
    };
    (total * 3 / 8..).find(|&step| coprime(step, total)).unwrap_or(1)
}

fn pick<T>(items: &[T], round: u64) -> &T {
    // The lists are non-empty constants; the index is always in range.
    &items[usize::try_from(round % items.len() as u64).unwrap_or(0)]
}

fn board_request(puzzle: solve_request::Puzzle) -> proto::SolveRequest {
    proto::SolveRequest { puzzle: Some(puzzle), options: None }
}

impl Call {
    fn new(kind: Kind, round: u64) -> Call {
        let known = match kind {
            Kind::Trivial => Some(pick(TRIVIAL, round)),
            Kind::Hardest => Some(pick(HARDEST, round)),
            Kind::Fifteen => Some(pick(FIFTEEN, round)),
            Kind::Bad | Kind::Cancelled => None,
        };
        match (kind, known) {
            (_, Some(known)) => {
                let board = board_of(known.tiles);
                let request = board_request(solve_request::Puzzle::Board(proto::Board::from(&board)));
                Call { kind, request, board: Some(board), moves: Some(known.moves) }
            }
            (Kind::Cancelled, None) => {
                let request = board_request(solve_request::Puzzle::Board(proto::Board::from(&board_of(HARD_4X4))));
                Call { kind, request, board: None, moves: None }
            }
            (_, None) => {
                let text = (*pick(BAD, round)).to_owned();
                Call { kind, request: board_request(solve_request::Puzzle::Text(text)), board: None, moves: None }
            }
        }
    }

    /// Judges a solution the server sent for this call.
    pub fn judge_solution(&self, solution: &proto::Solution) -> Verdict {
        let (Some(board), Some(moves)) = (&self.board, self.moves) else {
            // A bad input solved, or a cancelled call answered: neither may happen.
            return Verdict::UnexpectedStatus;
        };
        let expected_boards = usize::try_from(moves).map_or(0, |moves| moves + 1);
        let starts = solution.boards.first().is_some_and(|first| *first == proto::Board::from(board));
        let ends = solution
            .boards
            .last()
            .is_some_and(|last| Board::goal(board.dimension()).is_ok_and(|goal| *last == proto::Board::from(&goal)));
        if solution.solvable() && solution.moves == moves && solution.boards.len() == expected_boards && starts && ends
        {
            Verdict::Expected
        } else {
            Verdict::WrongAnswer
        }
    }

    /// Judges a status the call ended with. `busy` is a RESOURCE_EXHAUSTED that says the server
    /// had no free slot, the only RESOURCE_EXHAUSTED a load run may see; UNAVAILABLE is allowed
    /// when `stopping_allowed` (a server being shut down during the run).
    pub fn judge_status(&self, code: Code, busy: bool, stopping_allowed: bool) -> Verdict {
        let expected = match code {
            Code::ResourceExhausted => busy && self.kind != Kind::Bad,
            Code::InvalidArgument => self.kind == Kind::Bad,
            Code::Cancelled => self.kind.is_cancelled(),
            Code::Unavailable => stopping_allowed,
            _ => false,
        };
        if expected { Verdict::Expected } else { Verdict::UnexpectedStatus }
    }
}

fn board_of(tiles: &[u16]) -> Board {
    let dimension = tiles.len().isqrt();
    // The constants above are valid boards; the unit tests below check every one.
    Board::new(dimension, tiles).unwrap_or_else(|_| Board::goal(dimension).unwrap_or_else(|_| unreachable!()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boards_are_valid_and_solvable() {
        for known in TRIVIAL.iter().chain(HARDEST).chain(FIFTEEN) {
            let board = Board::new(known.tiles.len().isqrt(), known.tiles).expect("a board");
            assert!(board.is_solvable(), "{:?}", known.tiles);
            assert!(board.manhattan() <= known.moves as u32, "{:?}", known.tiles);
        }
        assert!(Board::new(4, HARD_4X4).expect("a board").is_solvable());
    }

    #[test]
    fn the_known_lengths_are_optimal() {
        let options = crate::Options::default();
        for known in TRIVIAL.iter().chain(HARDEST).chain(FIFTEEN) {
            let board = board_of(known.tiles);
            let solution = crate::solve(&board, &options, &mut crate::solver::NoProgress, &crate::solver::Stop::new())
                .expect("solves");
            assert_eq!(solution.moves(), known.moves, "{:?}", known.tiles);
        }
    }

    #[test]
    fn weights_deal_calls_in_proportion() {
        let mix: Mix = "3x3-trivial=3, bad-input=1,4x4=0".parse().expect("a mix");
        let kinds: Vec<Kind> = (0..8).map(|index| mix.call(index).kind).collect();
        assert_eq!(kinds.iter().filter(|&&kind| kind == Kind::Bad).count(), 2);
        assert_eq!(kinds.iter().filter(|&&kind| kind == Kind::Trivial).count(), 6);
        // The default mix: every round of 100 calls holds each kind its weight's worth, and the
        // five cancelled calls lie apart, not in one block.
        let mix = Mix::default();
        for round in 0..3 {
            let kinds: Vec<Kind> = (round * 100..(round + 1) * 100).map(|index| mix.call(index).kind).collect();
            for (kind, weight) in [(Kind::Trivial, 40), (Kind::Bad, 10), (Kind::Cancelled, 5)] {
                assert_eq!(kinds.iter().filter(|&&dealt| dealt == kind).count(), weight, "{kind:?}");
            }
            let cancelled: Vec<usize> = (0..100).filter(|&i| kinds[i] == Kind::Cancelled).collect();
            assert!(cancelled.windows(2).all(|pair| pair[1] - pair[0] > 5), "cancelled calls at {cancelled:?}");
        }
        assert_eq!("4x4=0".parse::<Mix>(), Err(MixError::Empty));
        assert_eq!("15=2".parse::<Mix>(), Err(MixError::Kind("15".into())));
        assert_eq!("4x4".parse::<Mix>(), Err(MixError::Entry("4x4".into())));
    }

    #[test]
    fn answers_are_judged() {
        let call = Mix::default().call(0);
        assert_eq!(call.kind, Kind::Trivial);
        let board = call.board.clone().expect("a board");
        let goal = Board::goal(3).expect("goal");
        let wrong = proto::Solution {
            solvable: Some(true),
            moves: 3,
            boards: vec![proto::Board::from(&board), proto::Board::from(&goal)],
            ..Default::default()
        };
        assert_eq!(call.judge_solution(&wrong), Verdict::WrongAnswer);
        assert_eq!(call.judge_status(Code::ResourceExhausted, true, false), Verdict::Expected);
        assert_eq!(call.judge_status(Code::ResourceExhausted, false, false), Verdict::UnexpectedStatus);
        assert_eq!(call.judge_status(Code::Unavailable, false, false), Verdict::UnexpectedStatus);
        assert_eq!(call.judge_status(Code::InvalidArgument, false, false), Verdict::UnexpectedStatus);
    }
}
