//! The `Hint` RPC: the next best moves and the distance to the goal, for a person playing by
//! hand. It takes a search slot like a solve, and the solver's [`Hint`](crate::solver::Hint)
//! runs on the blocking pool within the request's time limit (the server's default for hints
//! when it names none, never past the server's own limit or the caller's deadline).

use std::time::{Duration, Instant};

use tonic::Status;

use super::call_record::CallRecord;
use super::{Puzzle, SolverService, answer_with, shutting_down};
use crate::proto::{self, hint_request};
use crate::solver::DEFAULT_HINT_TIME;

impl SolverService {
    /// Answers one `HintRequest` for `call`, before `deadline`.
    pub(super) async fn hint_once(
        &self,
        call: &mut CallRecord,
        request: proto::HintRequest,
        deadline: Option<Instant>,
    ) -> Result<proto::HintResponse, Status> {
        if self.shutdown.is_cancelled() {
            return Err(shutting_down());
        }
        let puzzle = request.puzzle.as_ref().map(Puzzle::from);
        let (job, slot) = self.admit(call, puzzle, None, deadline).await?;
        let asked = match request.time_limit_ms {
            0 => DEFAULT_HINT_TIME,
            ms => Duration::from_millis(u64::from(ms)),
        };
        let mut time = asked.min(self.limits.max_search_time);
        if let Some(deadline) = deadline {
            // Leave a tenth of the time left to answer in.
            time = time.min(deadline.saturating_duration_since(Instant::now()).mul_f64(0.9));
        }
        let stop = call.stop.clone();
        let search = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            job.solver.hint(&job.board, time, &stop).map(|hint| proto::HintResponse::from(&hint))
        });
        answer_with(search.await)
    }
}

impl<'a> From<&'a hint_request::Puzzle> for Puzzle<'a> {
    fn from(puzzle: &'a hint_request::Puzzle) -> Puzzle<'a> {
        match puzzle {
            hint_request::Puzzle::Board(board) => Puzzle::Board(board),
            hint_request::Puzzle::Text(text) => Puzzle::Text(text),
        }
    }
}
