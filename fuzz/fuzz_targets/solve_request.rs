//! A `SolveRequest` from arbitrary bytes through decoding, the service's validation and a
//! search with a small node budget: no panic, and every answer is a solution of the board sent.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use npuzzle::proto::{self, solve_request};
use npuzzle::service::{Limits, SolverService};
use prost::Message;

/// Boards up to 5×5 and 512 nodes a search: each input is answered in well under a millisecond.
static SERVICE: LazyLock<SolverService> = LazyLock::new(|| {
    let limits = Limits { max_expanded_nodes: Some(512), max_dimension: 5, ..Limits::default() };
    SolverService::new(&limits, Vec::new())
});

fuzz_target!(
    init: {
        // IDA*'s duplicate machines take a second or more in an instrumented build: made before
        // the first input, so that no input is charged for them.
        npuzzle::solver::warm_up();
        LazyLock::force(&SERVICE);
    },
    |data: &[u8]| {
        let Ok(response) = SERVICE.solve_encoded(data) else { return };
        let solution = response.solution.expect("an answer carries a solution");
        if !solution.solvable() {
            return;
        }
        assert_eq!(solution.boards.len() as i64, i64::from(solution.moves) + 1, "one board per move, plus the first");
        // The request decoded, so its board (or text) is the first board of the answer.
        let request = proto::SolveRequest::decode(data).expect("it decoded once");
        if let Some(solve_request::Puzzle::Board(board)) = request.puzzle {
            assert_eq!(solution.boards.first().map(|first| &first.tiles), Some(&board.tiles));
        }
    }
);
