//! `Meter`: the accounting every search shares. It counts nodes and enforces the node budget,
//! tells a search its memory budget, and every few thousand nodes polls the stop flag and the
//! time limits and hands a progress report out, so the hot loops pay one increment and one
//! compare per node. It carries the cores the search may borrow, which every search that splits
//! its work reads where it reads its budget.
//!
//! Two clocks bound a search: the caller's deadline ([`Options::deadline`]) and the search's own
//! time limit ([`Options::max_search_time`]); the earlier one stops it, and the error says which
//! ([`SearchError::DeadlineExceeded`] or [`SearchError::TimeLimitExceeded`]). A phase of a
//! search may run under a third, earlier one ([`Meter::within_phase`]), whose end is no error.

use std::time::{Duration, Instant};

use super::error::SearchError;
use super::helper_threads::Helpers;
use super::method::Plan;
use super::options::Options;
use super::progress::{Progress, ProgressReport, Stop};
use super::solution::{SearchStats, Solution};
use crate::board::{Board, Direction};

/// Expanded nodes between two polls of the stop flag, the clock and the progress callback.
/// About a millisecond of work for the fastest search, so a stop is seen well within 100 ms.
pub const CHECK_INTERVAL: u64 = 4096;

/// The clock that ends a search first.
#[derive(Debug, Clone, Copy)]
enum Clock {
    /// The caller's deadline.
    Deadline(Instant),
    /// The search's own time limit, this long after it started.
    TimeLimit(Instant, Duration),
    /// The end of a phase of the search (see [`Meter::within_phase`]).
    PhaseEnd(Instant),
}

impl Clock {
    /// The earlier of the caller's `deadline` and `started` + `limit`.
    fn earliest(started: Instant, deadline: Option<Instant>, limit: Option<Duration>) -> Option<Clock> {
        let limit = limit.and_then(|limit| Some(Clock::TimeLimit(started.checked_add(limit)?, limit)));
        let deadline = deadline.map(Clock::Deadline);
        [deadline, limit].into_iter().flatten().min_by_key(|clock| clock.at())
    }

    fn at(self) -> Instant {
        match self {
            Clock::Deadline(at) | Clock::TimeLimit(at, _) | Clock::PhaseEnd(at) => at,
        }
    }
}

/// Whether a search should stop, as [`Meter::interrupt`] gives it to work the meter does not
/// count.
#[derive(Debug, Clone, Copy)]
pub struct Interrupt<'a> {
    stop: &'a Stop,
    at: Option<Instant>,
}

impl Interrupt<'_> {
    /// Whether the stop flag is raised or the search's clock has passed.
    pub fn is_raised(&self) -> bool {
        self.stop.is_stopped() || self.at.is_some_and(|at| Instant::now() >= at)
    }
}

/// Node counts, limits and the progress channel of one running search.
pub struct Meter<'a> {
    started: Instant,
    clock: Option<Clock>,
    max_expanded: u64,
    max_memory: u64,
    dimension: usize,
    plan: Plan,
    next_check: u64,
    progress: &'a mut dyn Progress,
    stop: &'a Stop,
    helpers: Helpers,
    /// Nodes expanded so far.
    pub expanded: u64,
    /// Nodes generated so far.
    pub generated: u64,
    /// The largest frontier (A*) or deepest path (IDA*) seen so far.
    pub max_frontier: u64,
    /// The length of the best solution known so far, 0 while there is none: reported with
    /// every progress report (see [`Meter::report_best`]).
    best_moves: u32,
    /// The highest bound a progress report has carried: what the search has proven so far.
    proven: u32,
    /// While set, the bound every report carries instead of the running search's own (see
    /// [`Meter::hold_bound`]).
    held: Option<u32>,
    /// Set while a phase ends before the search's own clocks (see [`Meter::within_phase`]).
    phase_ended: bool,
    /// The proof's forecast every report carries (see [`Meter::report_forecast`]).
    forecast: Option<Duration>,
    /// The replicas every report names (see [`Meter::report_replicas`]).
    replicas: u32,
}

impl<'a> Meter<'a> {
    /// A meter for `plan` on a board of dimension `dimension`, starting now under `options`.
    pub fn new(
        options: &Options,
        plan: Plan,
        dimension: usize,
        progress: &'a mut dyn Progress,
        stop: &'a Stop,
    ) -> Meter<'a> {
        let started = Instant::now();
        Meter {
            started,
            clock: Clock::earliest(started, options.deadline, options.max_search_time),
            max_expanded: options.max_expanded_nodes,
            max_memory: options.max_memory_bytes,
            dimension,
            plan,
            next_check: 0,
            progress,
            stop,
            helpers: Helpers::none(),
            expanded: 0,
            generated: 0,
            max_frontier: 0,
            best_moves: 0,
            proven: 0,
            held: None,
            phase_ended: false,
            forecast: None,
            replicas: 0,
        }
    }

    /// This meter, its search free to borrow `helpers`' cores (none by default).
    pub fn with_helpers(self, helpers: Helpers) -> Meter<'a> {
        Meter { helpers, ..self }
    }

    /// Counts one expanded node. Every [`CHECK_INTERVAL`] nodes (and on the first) it checks the
    /// stop flag and the clocks and reports progress with `priority` and the frontier size
    /// that `frontier` gives; the closure runs only then.
    #[inline]
    pub fn expand(&mut self, priority: u32, frontier: impl FnOnce() -> u64) -> Result<(), SearchError> {
        if self.expanded >= self.max_expanded {
            return Err(self.over_budget());
        }
        if self.expanded >= self.next_check {
            self.checkpoint(priority, frontier())?;
        }
        self.expanded += 1;
        Ok(())
    }

    /// Polls the stop flag and the clocks, and reports progress.
    #[cold]
    pub fn checkpoint(&mut self, priority: u32, frontier: u64) -> Result<(), SearchError> {
        self.next_check = self.expanded + CHECK_INTERVAL;
        self.max_frontier = self.max_frontier.max(frontier);
        let priority = self.held.unwrap_or(priority);
        self.proven = self.proven.max(priority);
        if self.stop.is_stopped() {
            return Err(SearchError::Cancelled { expanded: self.expanded });
        }
        match self.clock {
            Some(clock) if Instant::now() >= clock.at() => return Err(self.out_of_time(clock)),
            _ => {}
        }
        self.progress.report(&ProgressReport {
            nodes_expanded: self.expanded,
            nodes_generated: self.generated,
            priority,
            frontier_size: frontier,
            elapsed: self.started.elapsed(),
            best_moves: self.best_moves,
            proof_forecast: self.forecast,
            replicas: self.replicas,
        });
        Ok(())
    }

    #[cold]
    fn over_budget(&self) -> SearchError {
        SearchError::NodeBudgetExhausted {
            limit: self.max_expanded,
            expanded: self.expanded,
            dimension: self.dimension,
            plan: self.plan,
        }
    }

    fn out_of_time(&mut self, clock: Clock) -> SearchError {
        match clock {
            Clock::PhaseEnd(_) => {
                self.phase_ended = true;
                SearchError::DeadlineExceeded { elapsed: self.started.elapsed(), expanded: self.expanded }
            }
            Clock::Deadline(_) => {
                SearchError::DeadlineExceeded { elapsed: self.started.elapsed(), expanded: self.expanded }
            }
            Clock::TimeLimit(_, limit) => SearchError::TimeLimitExceeded {
                limit,
                expanded: self.expanded,
                dimension: self.dimension,
                plan: self.plan,
            },
        }
    }

    /// Adds nodes that other threads of the search expanded and generated, and fails as
    /// [`Meter::expand`] does once they pass the node budget.
    pub fn absorb(&mut self, expanded: u64, generated: u64) -> Result<(), SearchError> {
        self.expanded += expanded;
        self.generated += generated;
        if self.expanded > self.max_expanded {
            return Err(self.over_budget());
        }
        Ok(())
    }

    /// Runs `search` with at most `nodes` more expansions (and never past the search's own node
    /// budget), so that a refinement of an answer already in hand can give up on its own
    /// ([`SearchError::NodeBudgetExhausted`]) without ending the whole solve.
    pub fn with_node_allowance<T>(
        &mut self,
        nodes: u64,
        search: impl FnOnce(&mut Meter<'a>) -> Result<T, SearchError>,
    ) -> Result<T, SearchError> {
        let budget = self.max_expanded;
        self.max_expanded = budget.min(self.expanded.saturating_add(nodes));
        let result = search(self);
        self.max_expanded = budget;
        result
    }

    /// Runs `search` as [`Meter::with_node_allowance`] does, but with its allowance running out
    /// as `Ok(None)`, so that the caller gives up on that one piece of work and goes on; the
    /// search's own budget running out first is still the error, which ends the caller's work.
    pub fn within_node_allowance<T>(
        &mut self,
        nodes: u64,
        search: impl FnOnce(&mut Meter<'a>) -> Result<T, SearchError>,
    ) -> Result<Option<T>, SearchError> {
        let allowance_binds = self.expanded.saturating_add(nodes) < self.max_expanded;
        match self.with_node_allowance(nodes, search) {
            Err(SearchError::NodeBudgetExhausted { .. }) if allowance_binds => Ok(None),
            result => result.map(Some),
        }
    }

    /// Runs `search` as one phase of the search, ending no later than `until`, so that it can
    /// be given a share of the time: the phase's end is `Ok(None)`, and only the search's own
    /// clocks, budgets and stop flag are errors.
    pub fn within_phase<T>(
        &mut self,
        until: Instant,
        search: impl FnOnce(&mut Meter<'a>) -> Result<T, SearchError>,
    ) -> Result<Option<T>, SearchError> {
        let clock = self.clock;
        if clock.is_none_or(|clock| until < clock.at()) {
            self.clock = Some(Clock::PhaseEnd(until));
        }
        let result = search(self);
        self.clock = clock;
        let ended = std::mem::take(&mut self.phase_ended);
        match result {
            Err(SearchError::DeadlineExceeded { .. }) if ended => Ok(None),
            result => result.map(Some),
        }
    }

    /// The time left on the search's clock; `None` when it has none.
    pub fn time_left(&self) -> Option<Duration> {
        self.clock.map(|clock| clock.at().saturating_duration_since(Instant::now()))
    }

    /// What work outside the search's loop, on any thread, checks to stop with it: the stop
    /// flag and the clock (the node budget counts nodes, which such work does not expand).
    pub fn interrupt(&self) -> Interrupt<'a> {
        Interrupt { stop: self.stop, at: self.clock.map(|clock| clock.at()) }
    }

    /// Whether the search's clock has passed.
    pub fn time_is_up(&self) -> bool {
        self.time_left().is_some_and(|left| left.is_zero())
    }

    /// The highest bound reported so far (IDA*: the threshold of the iteration running, every
    /// lower one having failed).
    pub fn proven(&self) -> u32 {
        self.proven
    }

    /// From now on every report carries `bound` (when `Some`) as its priority, whatever the
    /// running search passes: searches of other boards than the root (the windows and suffixes
    /// of a path, the last region of a big board) prove nothing about the root's distance, so
    /// while they run, what was proven of the root stands. `None` lets the searches' own
    /// bounds through again.
    pub fn hold_bound(&mut self, bound: Option<u32>) {
        self.held = bound;
        if let Some(bound) = bound {
            self.proven = self.proven.max(bound);
        }
    }

    /// Reports `forecast` as the time the proof's remaining iterations need, from now on.
    pub fn report_forecast(&mut self, forecast: Option<Duration>) {
        self.forecast = forecast;
    }

    /// Sets how many replicas the reports from now on name as running the search's pieces.
    pub fn report_replicas(&mut self, replicas: u32) {
        self.replicas = replicas;
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The error for a proof whose remaining iterations, forecast at `forecast`, are out of
    /// reach of the `time_left`, with `bound` proven.
    pub fn proof_out_of_reach(&self, bound: u32, forecast: Duration, time_left: Duration) -> SearchError {
        let (dimension, plan, expanded) = (self.dimension, self.plan, self.expanded);
        SearchError::ProofOutOfReach { bound, expanded, forecast, time_left, dimension, plan }
    }

    /// Reports `moves` as the length of the best solution known from now on (0: none).
    pub fn report_best(&mut self, moves: u32) {
        self.best_moves = moves;
    }

    /// Hands `path` from `board`, shorter than any before it and `lower_bound` proven, to the
    /// progress callback as a checked [`Solution`], and reports its length from now on as the
    /// best known.
    pub fn improved(&mut self, board: &Board, path: &[Direction], lower_bound: u32) -> Result<(), SearchError> {
        let lower_bound = lower_bound.max(self.proven);
        let solution = Solution::from_path(board, path.to_vec(), lower_bound, self.stats())?;
        self.best_moves = path.len() as u32;
        self.progress.improved(&solution);
        Ok(())
    }

    /// The expansions left in the node budget.
    pub fn nodes_left(&self) -> u64 {
        self.max_expanded.saturating_sub(self.expanded)
    }

    /// The cores the search may borrow besides its own thread.
    pub fn helpers(&self) -> &Helpers {
        &self.helpers
    }

    /// The bytes a search may hold (see [`Options::max_memory_bytes`]).
    pub fn max_memory_bytes(&self) -> u64 {
        self.max_memory
    }

    /// The error for a search that holds `held` bytes for `nodes` nodes and cannot grow
    /// within its memory budget.
    pub fn memory_exhausted(&self, held: u64, nodes: u64) -> SearchError {
        SearchError::MemoryBudgetExhausted {
            limit: self.max_memory,
            held,
            nodes,
            dimension: self.dimension,
            plan: self.plan,
        }
    }

    /// The final figures.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            algorithm: self.plan.algorithm,
            heuristic: self.plan.heuristic,
            nodes_expanded: self.expanded,
            nodes_generated: self.generated,
            max_frontier: self.max_frontier,
            elapsed: self.started.elapsed(),
            method: Some(self.plan.method),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::method::Method;
    use crate::solver::options::{Algorithm, Heuristic};
    use crate::solver::progress::NoProgress;

    const PLAN: Plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::Manhattan, method: Method::IdaStar };

    #[test]
    fn a_node_allowance_ends_only_the_refinement() {
        let options = Options { max_expanded_nodes: 10, ..Options::default() };
        let (mut progress, stop) = (NoProgress, Stop::new());
        let mut meter = Meter::new(&options, PLAN, 3, &mut progress, &stop);
        meter.expand(0, || 0).expect("within the budget");
        let spent = meter.with_node_allowance(2, |meter| (0..5).try_for_each(|_| meter.expand(0, || 0)));
        assert!(matches!(spent, Err(SearchError::NodeBudgetExhausted { limit: 3, expanded: 3, .. })), "{spent:?}");
        // The search's own budget is back: seven more nodes fit, the eighth does not.
        (0..7).try_for_each(|_| meter.expand(0, || 0)).expect("the budget restored");
        assert!(matches!(meter.expand(0, || 0), Err(SearchError::NodeBudgetExhausted { limit: 10, .. })));
        // An allowance never reaches past the search's own budget.
        let capped = meter.with_node_allowance(100, |meter| meter.expand(0, || 0));
        assert!(matches!(capped, Err(SearchError::NodeBudgetExhausted { limit: 10, .. })));
    }

    #[test]
    fn within_an_allowance_only_the_searchs_own_budget_is_an_error() {
        let options = Options { max_expanded_nodes: 10, ..Options::default() };
        let (mut progress, stop) = (NoProgress, Stop::new());
        let mut meter = Meter::new(&options, PLAN, 3, &mut progress, &stop);
        let five = |meter: &mut Meter<'_>| (0..5).try_for_each(|_| meter.expand(0, || 0));
        assert_eq!(meter.within_node_allowance(2, five), Ok(None), "the allowance ran out");
        assert_eq!(meter.within_node_allowance(5, five), Ok(Some(())), "the work fit");
        // Eight nodes spent: an allowance of five reaches past the search's budget of ten.
        let spent = meter.within_node_allowance(5, five);
        assert!(matches!(spent, Err(SearchError::NodeBudgetExhausted { limit: 10, .. })), "{spent:?}");
    }

    #[test]
    fn the_earlier_clock_wins_and_is_named() {
        let started = Instant::now();
        let soon = started + Duration::from_secs(1);
        let minute = Duration::from_secs(60);
        assert!(matches!(Clock::earliest(started, Some(soon), Some(minute)), Some(Clock::Deadline(at)) if at == soon));
        let late = started + Duration::from_secs(3600);
        assert!(matches!(
            Clock::earliest(started, Some(late), Some(minute)),
            Some(Clock::TimeLimit(at, limit)) if at == started + minute && limit == minute
        ));
        assert!(matches!(Clock::earliest(started, None, Some(minute)), Some(Clock::TimeLimit(..))));
        assert!(Clock::earliest(started, None, None).is_none());
        assert!(Clock::earliest(started, None, Some(Duration::MAX)).is_none(), "a limit past the end of time is none");
    }

    #[test]
    fn the_end_of_a_phase_is_no_error_and_the_searchs_own_clock_is() {
        let options = Options { max_search_time: Some(Duration::from_secs(60)), ..Options::default() };
        let (mut progress, stop) = (NoProgress, Stop::new());
        let mut meter = Meter::new(&options, PLAN, 3, &mut progress, &stop);
        let spin = |meter: &mut Meter<'_>| loop {
            meter.expand(0, || 0)?;
        };
        let phase = meter.within_phase(Instant::now() + Duration::from_millis(20), spin);
        assert_eq!(phase, Ok(None::<()>), "the phase ended");
        assert!(meter.time_left().is_some_and(|left| left > Duration::from_secs(50)), "the search's clock is back");
        let options = Options { max_search_time: Some(Duration::from_millis(20)), ..Options::default() };
        let mut meter = Meter::new(&options, PLAN, 3, &mut progress, &stop);
        let past = meter.within_phase(Instant::now() + Duration::from_secs(60), spin);
        assert!(matches!(past, Err(SearchError::TimeLimitExceeded { .. })), "{past:?}");
    }
}
