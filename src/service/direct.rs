//! A request answered without a transport: the bytes of a `SolveRequest` through decoding, the
//! service's own validation and a search on the calling thread. The fuzz target
//! `solve_request` drives it, so the code it reaches is the service's, not a copy.

use prost::Message;
use tonic::Status;

use crate::proto;
use crate::service::{Puzzle, SolverService};
use crate::solver::{NoProgress, Stop};

impl SolverService {
    /// Answers an encoded `SolveRequest` as `Solve` would, on this thread and without search
    /// slots, deadline or cancellation: bytes that do not decode are INVALID_ARGUMENT, then the
    /// request is validated and solved within this service's limits (its node cap bounds the
    /// search). This is what fuzzing exercises; a server never calls it.
    pub fn solve_encoded(&self, bytes: &[u8]) -> Result<proto::SolveResponse, Status> {
        let request = proto::SolveRequest::decode(bytes)
            .map_err(|error| Status::invalid_argument(format!("the request does not decode: {error}")))?;
        let puzzle = request.puzzle.as_ref().map(Puzzle::from);
        let job = self.job_now(puzzle, request.options.as_ref(), None)?;
        let solution = job.solver.solve(&job.board, &job.options, &mut NoProgress, &Stop::new())?;
        Ok(proto::SolveResponse { solution: Some(proto::Solution::from(&solution)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::Limits;

    fn service() -> SolverService {
        let limits = Limits { max_expanded_nodes: Some(1_000), max_dimension: 5, ..Limits::default() };
        SolverService::new(&limits, Vec::new())
    }

    #[test]
    fn answers_decode_validate_and_solve() {
        let text = proto::SolveRequest {
            puzzle: Some(proto::solve_request::Puzzle::Text("3\n0 1 3\n4 2 5\n7 8 6\n".into())),
            options: None,
        };
        let response = service().solve_encoded(&text.encode_to_vec()).expect("puzzle04 solves");
        assert_eq!(response.solution.expect("a solution").moves, 4);
        let garbage = service().solve_encoded(&[0xff, 0xff, 0xff]).expect_err("does not decode");
        assert_eq!(garbage.code(), tonic::Code::InvalidArgument);
        let big = proto::SolveRequest {
            puzzle: Some(proto::solve_request::Puzzle::Board(proto::Board { dimension: 6, tiles: (0..36).collect() })),
            options: None,
        };
        assert_eq!(
            service().solve_encoded(&big.encode_to_vec()).expect_err("too big").code(),
            tonic::Code::InvalidArgument
        );
    }
}
