//! `CallRecord`: one request's bookkeeping. It owns the request's stop flag and raises it when the
//! call ends, however it ends: a client that drops a unary call or a stream drops the `CallRecord`
//! with it, and so stops its search. It writes the request's one log line then: rpc, N,
//! algorithm, outcome, moves, nodes, elapsed, and records the request's metrics.

use std::time::Instant;

use tonic::{Code, Status};
use tracing::{field, info};

use super::Job;
use crate::solver::{Algorithm, Solution, Stop};
use crate::{metrics, proto};

/// One request's bookkeeping: its stop flag, raised when the call ends however it ends (so a
/// call the client dropped stops its search), and its one log line, written then.
pub(super) struct CallRecord {
    rpc: &'static str,
    started: Instant,
    pub(super) stop: Stop,
    dimension: Option<usize>,
    algorithm: Option<Algorithm>,
    /// Cancelled until an answer is recorded: a call dropped before that was abandoned.
    outcome: Code,
    detail: Option<String>,
    moves: Option<i32>,
    nodes: Option<u64>,
}

impl CallRecord {
    pub(super) fn new(rpc: &'static str) -> CallRecord {
        CallRecord {
            rpc,
            started: Instant::now(),
            stop: Stop::new(),
            dimension: None,
            algorithm: None,
            outcome: Code::Cancelled,
            detail: Some("the client went away".into()),
            moves: None,
            nodes: None,
        }
    }

    pub(super) fn describe(&mut self, job: &Job) {
        self.dimension = Some(job.board.dimension());
        self.algorithm = Some(job.algorithm);
    }

    pub(super) fn finish(&mut self, result: Result<&Solution, &Status>) {
        self.record(result.map(|solution| (solution.moves(), Some(solution.stats().nodes_expanded))));
    }

    /// Records a hint's outcome: its distance as the moves.
    pub(super) fn finish_hint(&mut self, result: Result<&proto::HintResponse, &Status>) {
        self.record(result.map(|hint| (hint.distance, None)));
    }

    fn record(&mut self, result: Result<(i32, Option<u64>), &Status>) {
        match result {
            Ok((moves, nodes)) => {
                self.outcome = Code::Ok;
                self.detail = None;
                self.moves = Some(moves);
                self.nodes = nodes;
            }
            Err(status) => {
                self.outcome = status.code();
                self.detail = Some(status.message().to_owned());
            }
        }
    }
}

impl Drop for CallRecord {
    fn drop(&mut self) {
        self.stop.stop();
        metrics::request_finished(self.rpc, self.outcome, self.started.elapsed());
        info!(
            rpc = self.rpc,
            dimension = self.dimension,
            algorithm = self.algorithm.map(field::display),
            outcome = ?self.outcome,
            moves = self.moves,
            nodes = self.nodes,
            elapsed = ?self.started.elapsed(),
            detail = self.detail.as_deref(),
            "request finished"
        );
    }
}
