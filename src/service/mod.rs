//! The gRPC `npuzzle.v1.SolverService`: short handlers that validate, hand off and return.
//!
//! A request becomes a [`Board`] and [`Options`] before any thread is taken; malformed ones are
//! INVALID_ARGUMENT. The search then waits a bounded time for one of the server's slots (a
//! semaphore permit, else RESOURCE_EXHAUSTED "busy", marked with [`BUSY_METADATA`] so that a
//! proxy retries it on another replica and never a spent budget) and runs [`Solver::solve`] on
//! a blocking thread that owns the permit for as long as the search lives. `Solve` answers once; `SolveStream`
//! sends a Progress at once, then at most one per interval (dropped, never waited for, when the
//! client is slow), then exactly one Solution, last.
//!
//! A search's [`Stop`] is raised when its call ends however it ends (the client dropped a unary
//! call or a stream, so its future or its receiver went away), when the request's
//! `grpc-timeout` passes (DEADLINE_EXCEEDED), and when the server shuts down (UNAVAILABLE).
//! Every search runs under the service's [`Limits`]: a memory budget and a time limit of its
//! own (stopping at the earlier of that and the request's deadline), and a request's
//! `max_expanded_nodes`, clamped to the server's node cap when it has one; 0 means no limit of
//! the request's own.
//!
//! The slots no request holds are lent to running searches (`lend`): a long IDA* splits its
//! iterations over them, and hands each back within one piece of work when a request waits.
//! A large search's freed memory is handed back to the system when it ends (`memory`).
//!
//! In a cluster (`cluster`, [`SolverService::join_cluster`]) the longest iterations go further,
//! to every replica's free slots, this one's included.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::{JoinError, JoinHandle};
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::CancellationToken;
use tonic::{Code, Request, Response, Status};

use crate::board::Board;
use crate::convert::{board_from_proto, weight_from_proto};
use crate::metrics::{self, InProgress};
use crate::proto::{self, solve_request, solve_stream_request, solve_stream_response::Event};
use crate::solver::{
    self, Algorithm, Helpers, NoProgress, Options, PatternDatabases, Progress, ProgressReport, SearchError, Solution,
    Solver, Stop,
};
use crate::text;
use lend::SlotLender;

mod busy;
mod call_record;
pub mod cluster;
mod deadline;
mod details;
mod direct;
mod hint;
mod lend;
mod limits;
mod memory;
mod tables;

pub use busy::{BUSY_METADATA, NO_RETRY_METADATA, is_busy};
use call_record::CallRecord;
use deadline::deadline;
pub use limits::{DEFAULT_PROGRESS_INTERVAL, DEFAULT_QUEUE_TIMEOUT, Limits};
pub use tables::DatabaseSlot;

/// The shortest progress interval a client may ask for: the search only reports every few
/// thousand nodes anyway.
pub const MIN_PROGRESS_INTERVAL: Duration = Duration::from_millis(10);
/// The longest progress interval a client may ask for.
pub const MAX_PROGRESS_INTERVAL: Duration = Duration::from_secs(60);
/// How long a request that would use pattern databases waits for the first ones on a cold
/// start: the 6-6-3 tables take seconds to build, a search without them can take minutes.
pub const FIRST_TABLES_WAIT: Duration = Duration::from_secs(30);
/// Progress messages a stream holds for a slow client before further updates are dropped.
const PROGRESS_BUFFER: usize = 16;

/// The message stream of `SolveStream`.
pub type SolveEvents = ReceiverStream<Result<proto::SolveStreamResponse, Status>>;

/// How many searches are running right now. Clones share the count, so a test can hold one
/// and prove that a cancelled search really stopped.
#[derive(Debug, Clone, Default)]
pub struct RunningSearches(Arc<AtomicUsize>);

impl RunningSearches {
    /// Searches whose blocking thread has not returned yet.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A search's claim on the server: a semaphore permit and a place in the running count, both
/// given back when the blocking task that owns it ends.
struct Slot {
    _permit: OwnedSemaphorePermit,
    _counted: InProgress,
    running: RunningSearches,
}

impl Slot {
    fn new(permit: OwnedSemaphorePermit, running: &RunningSearches) -> Slot {
        running.0.fetch_add(1, Ordering::SeqCst);
        Slot { _permit: permit, _counted: InProgress::search(), running: running.clone() }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.running.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The `SolverService` implementation. Cheap to clone: clones share the slots, the running
/// count and the shutdown signal.
#[derive(Debug, Clone)]
pub struct SolverService {
    limits: Limits,
    /// One slot per board size that has tables (4×4, 5×5).
    pattern_databases: Vec<DatabaseSlot>,
    slots: Arc<Semaphore>,
    /// The free slots, lent to long searches' helper threads.
    helpers: Helpers,
    running: RunningSearches,
    shutdown: CancellationToken,
}

impl SolverService {
    /// A service under `limits` (`max_concurrent_solves` is at least 1) that reads the pattern
    /// databases from `pattern_databases` (a slot per board size) when each request starts: a
    /// slot may be filled later, and until then its boards are solved with IDA* and linear
    /// conflict.
    pub fn new(limits: &Limits, pattern_databases: Vec<DatabaseSlot>) -> SolverService {
        let count = limits.max_concurrent_solves.clamp(1, Semaphore::MAX_PERMITS);
        let slots = Arc::new(Semaphore::new(count));
        SolverService {
            limits: limits.clone(),
            pattern_databases,
            helpers: Helpers::lent(count - 1, Arc::new(SlotLender(slots.clone()))),
            slots,
            running: RunningSearches::default(),
            shutdown: CancellationToken::new(),
        }
    }

    /// This service as a member of the cluster `config` names, joined in the background on the
    /// current tokio runtime: its searches' longest iterations go to every replica's free slots,
    /// and its own free slots run other replicas' pieces. Until it is joined (and whenever no
    /// other replica is up) it serves alone.
    pub fn join_cluster(self, config: cluster::ClusterConfig) -> SolverService {
        let workers = self.limits.max_concurrent_solves.clamp(1, Semaphore::MAX_PERMITS);
        let joined = cluster::Cluster::start(
            config,
            self.slots.clone(),
            self.pattern_databases.clone(),
            workers,
            self.shutdown.child_token(),
        );
        SolverService { helpers: self.helpers.clone().with_farm(Arc::new(joined)), ..self }
    }

    /// The live count of running searches.
    pub fn running_searches(&self) -> RunningSearches {
        self.running.clone()
    }

    /// Stops every running search and refuses new and queued ones with UNAVAILABLE: the end of
    /// a shutdown's drain.
    pub fn cancel_all(&self) {
        self.shutdown.cancel();
        self.slots.close();
    }

    /// Validates the request and takes a slot for it.
    async fn admit(
        &self,
        call: &mut CallRecord,
        puzzle: Option<Puzzle<'_>>,
        options: Option<&proto::SolveOptions>,
        deadline: Option<Instant>,
    ) -> Result<(Job, Slot), Status> {
        if self.shutdown.is_cancelled() {
            return Err(shutting_down());
        }
        let job = self.job(puzzle, options, deadline).await?;
        call.describe(&job);
        let slot = self.slot().await?;
        Ok((job, slot))
    }

    /// The validated request. A board that would search with pattern databases, arriving before
    /// the first ones are loaded (the first seconds of a cold start), waits for them at most
    /// [`FIRST_TABLES_WAIT`] (or until its deadline), then searches with whatever is there.
    async fn job(
        &self,
        puzzle: Option<Puzzle<'_>>,
        options: Option<&proto::SolveOptions>,
        deadline: Option<Instant>,
    ) -> Result<Job, Status> {
        let (board, options) = self.validate(puzzle, options, deadline)?;
        let mut loaded = self.tables_now();
        let dimension = board.dimension();
        if !loaded.iter().any(|databases| databases.dimension() == dimension)
            && solver::wants_pattern_databases(dimension, options.algorithm, options.heuristic)
        {
            let until = Instant::now() + FIRST_TABLES_WAIT;
            let until = deadline.map_or(until, |deadline| deadline.min(until));
            loaded.clear();
            for slot in &self.pattern_databases {
                loaded.extend(slot.first(dimension, until.saturating_duration_since(Instant::now())).await);
            }
        }
        Job::planned(board, options, self.solver(loaded))
    }

    /// The best tables loaded in each slot now.
    fn tables_now(&self) -> Vec<Arc<PatternDatabases>> {
        self.pattern_databases.iter().filter_map(DatabaseSlot::get).collect()
    }

    /// A solver with `tables`, whose searches may borrow the slots no request holds.
    fn solver(&self, tables: Vec<Arc<PatternDatabases>>) -> Solver {
        Solver::new().with_pattern_databases(tables).with_helpers(self.helpers.clone())
    }

    /// The request as a [`Job`] with the tables loaded now, without waiting for any.
    fn job_now(
        &self,
        puzzle: Option<Puzzle<'_>>,
        options: Option<&proto::SolveOptions>,
        deadline: Option<Instant>,
    ) -> Result<Job, Status> {
        let (board, options) = self.validate(puzzle, options, deadline)?;
        Job::planned(board, options, self.solver(self.tables_now()))
    }

    /// The request's board and the search options it asks for, within this server's limits.
    fn validate(
        &self,
        puzzle: Option<Puzzle<'_>>,
        options: Option<&proto::SolveOptions>,
        deadline: Option<Instant>,
    ) -> Result<(Board, Options), Status> {
        let board = self.board(puzzle)?;
        let options = self.options(options.cloned().unwrap_or_default(), deadline)?;
        Ok((board, options))
    }

    fn board(&self, puzzle: Option<Puzzle<'_>>) -> Result<Board, Status> {
        let max = self.limits.max_dimension;
        match puzzle {
            None => Err(details::bad_request(
                "INVALID_PUZZLE",
                "puzzle",
                "no puzzle: set either the board or the text",
                &[],
            )),
            Some(Puzzle::Board(board)) => board_from_proto(board, max)
                .map_err(|error| details::bad_request("INVALID_PUZZLE", "board", &error.to_string(), &[])),
            Some(Puzzle::Text(text)) => {
                text::parse_board_with_max(text, max).map_err(|error| details::invalid_text(&error))
            }
        }
    }

    fn options(&self, requested: proto::SolveOptions, deadline: Option<Instant>) -> Result<Options, Status> {
        let unknown = |field: &str, value: i32| {
            details::bad_request("INVALID_OPTIONS", &format!("options.{field}"), &format!("unknown value {value}"), &[])
        };
        let algorithm =
            proto::Algorithm::try_from(requested.algorithm).map_err(|_| unknown("algorithm", requested.algorithm))?;
        let heuristic =
            proto::Heuristic::try_from(requested.heuristic).map_err(|_| unknown("heuristic", requested.heuristic))?;
        let optimality = proto::Optimality::try_from(requested.optimality)
            .map_err(|_| unknown("optimality", requested.optimality))?;
        Ok(Options {
            algorithm: algorithm.into(),
            heuristic: heuristic.into(),
            max_expanded_nodes: self.limits.node_budget(requested.max_expanded_nodes),
            max_memory_bytes: self.limits.max_search_memory,
            max_search_time: Some(match requested.time_limit_ms {
                0 if optimality == proto::Optimality::Anytime => {
                    solver::DEFAULT_ANYTIME_TIME.min(self.limits.max_search_time)
                }
                0 => self.limits.max_search_time,
                ms => Duration::from_millis(u64::from(ms)).min(self.limits.max_search_time),
            }),
            deadline,
            optimality: optimality.into(),
            weight: weight_from_proto(requested.weight),
        })
    }

    /// Waits at most the queue timeout for a free slot. A `SolveStream` waits here before its
    /// stream starts, so its "busy" status, like `Solve`'s, is a trailers-only response whose
    /// headers carry the busy mark.
    async fn slot(&self) -> Result<Slot, Status> {
        let _queued = InProgress::queued();
        let waiting = tokio::time::timeout(self.limits.queue_timeout, self.slots.clone().acquire_owned());
        match waiting.await {
            Ok(Ok(permit)) => Ok(Slot::new(permit, &self.running)),
            Ok(Err(_closed)) => Err(shutting_down()),
            Err(_elapsed) => Err(details::busy(self.running.count())),
        }
    }

    fn progress_interval(&self, requested_ms: u32) -> Duration {
        let interval = match requested_ms {
            0 => self.limits.progress_interval,
            ms => Duration::from_millis(u64::from(ms)),
        };
        interval.clamp(MIN_PROGRESS_INTERVAL, MAX_PROGRESS_INTERVAL)
    }

    /// The search's answer, or the status that ended the wait for it first. On a deadline or a
    /// shutdown the search is stopped and answered for at once, without waiting for it to notice.
    async fn outcome(
        &self,
        search: JoinHandle<Result<Solution, SearchError>>,
        stop: &Stop,
        deadline: Option<Instant>,
    ) -> Result<Solution, Status> {
        let expired = async {
            match deadline {
                Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            joined = search => answer(joined),
            () = self.shutdown.cancelled() => {
                stop.stop();
                Err(shutting_down())
            }
            () = expired => {
                stop.stop();
                Err(details::status(
                    Code::DeadlineExceeded,
                    "deadline exceeded: the caller's deadline passed and the search was stopped",
                    "DEADLINE_EXCEEDED",
                    &[],
                ))
            }
        }
    }

    async fn solve_once(
        &self,
        call: &mut CallRecord,
        request: proto::SolveRequest,
        deadline: Option<Instant>,
    ) -> Result<Solution, Status> {
        let puzzle = request.puzzle.as_ref().map(Puzzle::from);
        let (job, slot) = self.admit(call, puzzle, request.options.as_ref(), deadline).await?;
        let search = spawn_search(job, slot, call.stop.clone(), NoProgress);
        self.outcome(search, &call.stop, deadline).await
    }

    /// Waits for a stream's search and sends its Solution (or ends the stream with a status);
    /// gives up, stopping the search, as soon as the client drops the stream.
    async fn finish_stream(
        self,
        mut call: CallRecord,
        search: JoinHandle<Result<Solution, SearchError>>,
        events: mpsc::Sender<Result<proto::SolveStreamResponse, Status>>,
        deadline: Option<Instant>,
    ) {
        let result = tokio::select! {
            biased;
            result = self.outcome(search, &call.stop, deadline) => result,
            () = events.closed() => return,
        };
        call.finish(result.as_ref());
        let last = result.and_then(|solution| event(Event::Solution(proto::Solution::from(&solution))));
        // Sent with a wait, never dropped; it fails only when the client has gone, and then
        // there is no one left to tell.
        let _ = events.send(last).await;
    }
}

#[tonic::async_trait]
impl proto::solver_service_server::SolverService for SolverService {
    async fn solve(&self, request: Request<proto::SolveRequest>) -> Result<Response<proto::SolveResponse>, Status> {
        let deadline = deadline(request.metadata());
        let mut call = CallRecord::new("Solve");
        let result = self.solve_once(&mut call, request.into_inner(), deadline).await;
        call.finish(result.as_ref());
        Ok(Response::new(proto::SolveResponse { solution: Some(proto::Solution::from(&result?)) }))
    }

    async fn hint(&self, request: Request<proto::HintRequest>) -> Result<Response<proto::HintResponse>, Status> {
        let deadline = deadline(request.metadata());
        let mut call = CallRecord::new("Hint");
        let result = self.hint_once(&mut call, request.into_inner(), deadline).await;
        call.finish_hint(result.as_ref());
        Ok(Response::new(result?))
    }

    type SolveStreamStream = SolveEvents;

    async fn solve_stream(&self, request: Request<proto::SolveStreamRequest>) -> Result<Response<SolveEvents>, Status> {
        let deadline = deadline(request.metadata());
        let started = Instant::now();
        let request = request.into_inner();
        let mut call = CallRecord::new("SolveStream");
        let puzzle = request.puzzle.as_ref().map(Puzzle::from);
        let (job, slot) = match self.admit(&mut call, puzzle, request.options.as_ref(), deadline).await {
            Ok(admitted) => admitted,
            Err(status) => {
                call.finish(Err(&status));
                return Err(status);
            }
        };
        let (events, receiver) = mpsc::channel(PROGRESS_BUFFER);
        // A fresh channel has room: the first Progress goes out at once, before the search
        // starts, with what is known already: the board's Manhattan distance is proven.
        let first = proto::Progress {
            priority: job.board.manhattan(),
            elapsed_micros: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX).max(1),
            ..proto::Progress::default()
        };
        let _ = events.try_send(event(Event::Progress(first)));
        let interval = self.progress_interval(request.progress_interval_ms);
        let progress = StreamProgress { events: events.clone(), interval, next: interval, stop: call.stop.clone() };
        let search = spawn_search(job, slot, call.stop.clone(), progress);
        tokio::spawn(self.clone().finish_stream(call, search, events, deadline));
        Ok(Response::new(ReceiverStream::new(receiver)))
    }
}

/// A request's puzzle, whichever RPC it came with.
enum Puzzle<'a> {
    Board(&'a proto::Board),
    Text(&'a str),
}

impl<'a> From<&'a solve_request::Puzzle> for Puzzle<'a> {
    fn from(puzzle: &'a solve_request::Puzzle) -> Puzzle<'a> {
        match puzzle {
            solve_request::Puzzle::Board(board) => Puzzle::Board(board),
            solve_request::Puzzle::Text(text) => Puzzle::Text(text),
        }
    }
}

impl<'a> From<&'a solve_stream_request::Puzzle> for Puzzle<'a> {
    fn from(puzzle: &'a solve_stream_request::Puzzle) -> Puzzle<'a> {
        match puzzle {
            solve_stream_request::Puzzle::Board(board) => Puzzle::Board(board),
            solve_stream_request::Puzzle::Text(text) => Puzzle::Text(text),
        }
    }
}

/// A validated request: what to solve, how, and the algorithm that will run (for the log).
struct Job {
    board: Board,
    options: Options,
    solver: Solver,
    algorithm: Algorithm,
}

impl Job {
    /// The job for `board` under `options` with `solver`'s tables and cores, refused before any
    /// thread is taken when the plan cannot run.
    fn planned(board: Board, options: Options, solver: Solver) -> Result<Job, Status> {
        let algorithm = solver.plan(board.dimension(), &options)?.algorithm;
        Ok(Job { board, options, solver, algorithm })
    }
}

fn spawn_search(
    job: Job,
    slot: Slot,
    stop: Stop,
    mut progress: impl Progress + Send + 'static,
) -> JoinHandle<Result<Solution, SearchError>> {
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let searched = job.solver.solve(&job.board, &job.options, &mut progress, &stop);
        let nodes = nodes_expanded(&searched);
        metrics::nodes_expanded(nodes);
        memory::give_back(&searched, nodes);
        searched
    })
}

/// The nodes a finished search expanded, whether it answered or was stopped.
fn nodes_expanded(searched: &Result<Solution, SearchError>) -> u64 {
    match searched {
        Ok(solution) => solution.stats().nodes_expanded,
        Err(
            SearchError::NodeBudgetExhausted { expanded, .. }
            | SearchError::DeadlineExceeded { expanded, .. }
            | SearchError::Cancelled { expanded },
        ) => *expanded,
        Err(_) => 0,
    }
}

fn answer(joined: Result<Result<Solution, SearchError>, JoinError>) -> Result<Solution, Status> {
    answer_with(joined)
}

/// What a search on the blocking pool answers: its result, or INTERNAL if it crashed.
fn answer_with<T>(joined: Result<Result<T, SearchError>, JoinError>) -> Result<T, Status> {
    match joined {
        Ok(searched) => searched.map_err(Status::from),
        Err(crash) => Err(Status::internal(format!("the search failed: {crash}"))),
    }
}

fn shutting_down() -> Status {
    details::shutting_down()
}

fn event(event: Event) -> Result<proto::SolveStreamResponse, Status> {
    Ok(proto::SolveStreamResponse { event: Some(event) })
}

/// Forwards a search's progress to its stream at most once per interval and never waits: an
/// update is dropped when the client is slow, and the search is stopped when the client is gone.
struct StreamProgress {
    events: mpsc::Sender<Result<proto::SolveStreamResponse, Status>>,
    interval: Duration,
    next: Duration,
    stop: Stop,
}

impl Progress for StreamProgress {
    fn report(&mut self, report: &ProgressReport) {
        if self.events.is_closed() {
            self.stop.stop();
        } else if report.elapsed >= self.next {
            self.next = report.elapsed + self.interval;
            // A full channel means a slow client: it misses this update, the search goes on.
            let _ = self.events.try_send(event(Event::Progress(report.into())));
        }
    }

    fn improved(&mut self, solution: &Solution) {
        // Like progress, never waited for: a slow client misses an improvement, and the final
        // Solution, which is at least as short, still reaches it.
        let _ = self.events.try_send(event(Event::Improved(proto::Solution::from(solution))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic_types::StatusExt;

    #[tokio::test]
    async fn a_search_that_panics_is_internal_not_a_crash() {
        let joined =
            tokio::task::spawn_blocking(|| -> Result<Solution, SearchError> { panic!("a bug in a search") }).await;
        let status = answer(joined).expect_err("no answer from a crashed search");
        assert_eq!(status.code(), Code::Internal);
        assert!(status.message().contains("a bug in a search"), "{status:?}");
    }

    #[test]
    fn every_search_error_has_its_status_code() {
        let plan = astar_plan();
        let cases = [
            (SearchError::NodeBudgetExhausted { limit: 10, expanded: 10, dimension: 3, plan }, Code::ResourceExhausted),
            (
                SearchError::MemoryBudgetExhausted { limit: 1 << 20, held: 1000, nodes: 10, dimension: 20, plan },
                Code::ResourceExhausted,
            ),
            (
                SearchError::TimeLimitExceeded { limit: Duration::from_secs(1), expanded: 3, dimension: 5, plan },
                Code::ResourceExhausted,
            ),
            (SearchError::DeadlineExceeded { elapsed: Duration::from_millis(5), expanded: 3 }, Code::DeadlineExceeded),
            (SearchError::Cancelled { expanded: 3 }, Code::Cancelled),
            (
                SearchError::Unsupported {
                    algorithm: Algorithm::IdaStar,
                    heuristic: solver::Heuristic::Hamming,
                    dimension: 3,
                    reason: "not built".into(),
                },
                Code::InvalidArgument,
            ),
            (SearchError::PatternDatabasesNotLoaded, Code::Unavailable),
            (
                SearchError::InvalidOptions { option: "weight", reason: "a weight without BOUNDED".into() },
                Code::InvalidArgument,
            ),
            (
                SearchError::ProofOutOfReach {
                    bound: 40,
                    expanded: 3,
                    forecast: Duration::from_secs(1 << 40),
                    time_left: Duration::from_secs(5),
                    dimension: 20,
                    plan,
                },
                Code::ResourceExhausted,
            ),
            (SearchError::Internal("bad path".into()), Code::Internal),
        ];
        for (error, code) in cases {
            let message = error.to_string();
            let reason = reason_of(&error);
            let status = Status::from(error);
            assert_eq!(status.code(), code, "{message}");
            assert!(!is_busy(&status), "{message}");
            assert!(status.message().chars().count() <= details::MAX_MESSAGE, "{}", status.message());
            assert!(!status.message().contains("OPTIMALITY_"), "no wire names: {}", status.message());
            let info = status.get_details_error_info().expect("an ErrorInfo");
            assert_eq!((info.reason.as_str(), info.domain.as_str()), (reason, details::DOMAIN));
            if code == Code::ResourceExhausted {
                // A spent budget says what ran out and what answers in time, and not to retry.
                assert_eq!(info.metadata.get("suggested_optimality").map(String::as_str), Some("OPTIMALITY_ANYTIME"));
                assert_eq!(info.metadata.get("method").map(String::as_str), Some("METHOD_ASTAR"));
                assert_eq!(status.metadata().get(NO_RETRY_METADATA).and_then(|value| value.to_str().ok()), Some("-1"));
                assert!(status.message().contains("; try IDA* with "), "{}", status.message());
            }
        }
        let weight = Status::from(SearchError::InvalidOptions { option: "weight", reason: "no weight".into() });
        let violations = weight.get_details_bad_request().expect("a BadRequest").field_violations;
        assert_eq!(violations[0].field, "options.weight");
    }

    /// The reason each error's status carries.
    fn reason_of(error: &SearchError) -> &'static str {
        match error {
            SearchError::NodeBudgetExhausted { .. } => "NODE_BUDGET_SPENT",
            SearchError::MemoryBudgetExhausted { .. } => "MEMORY_BUDGET_SPENT",
            SearchError::TimeLimitExceeded { .. } => "TIME_LIMIT_REACHED",
            SearchError::ProofOutOfReach { .. } => "PROOF_OUT_OF_REACH",
            SearchError::DeadlineExceeded { .. } => "DEADLINE_EXCEEDED",
            SearchError::Cancelled { .. } => "CANCELLED",
            SearchError::Unsupported { .. } => "UNSUPPORTED",
            SearchError::InvalidOptions { .. } => "INVALID_OPTIONS",
            SearchError::PatternDatabasesNotLoaded => "TABLES_LOADING",
            _ => "INTERNAL",
        }
    }

    fn astar_plan() -> solver::Plan {
        solver::Plan {
            algorithm: Algorithm::AStar,
            heuristic: solver::Heuristic::Manhattan,
            method: solver::Method::AStar,
        }
    }
}
