//! What a driver that holds a path (MINIMUM, ANYTIME's proof) hands IDA*: the [`Incumbent`],
//! the shortest path in hand and the policy for proving it, and an [`Interlude`] to run between
//! iterations. IDA* answers with a [`Proof`]: a shorter path, the incumbent proven shortest, or
//! the next iteration out of reach of the time left.
//!
//! IDA* stops once its bound reaches the incumbent's length (the incumbent is then proven, and
//! the last iteration, the most expensive, would only find another path as long). Four under
//! that length, it skips to the iteration two under it, which proves the incumbent alone if it
//! finds nothing ([`Incumbent::skip_to`]). With forecasts on, it gives up before an iteration
//! that would not finish in the time left ([`Incumbent::iteration_in_reach`]), so that ANYTIME
//! spends the time shortening its path instead.

use std::time::{Duration, Instant};

use crate::board::Direction;
use crate::solver::error::{PROOF_OUT_OF_REACH_FACTOR, SearchError};
use crate::solver::meter::Meter;
use crate::solver::search::PathWithBound;

/// The gap between the incumbent's length and an IDA* threshold within which the iteration is
/// the last that can matter: a path's length has its board's parity, so the next length after
/// the threshold is two more.
const LAST_GAP: u32 = 2;

/// How far under the incumbent's length a threshold is when [`Incumbent::skip_to`] takes the
/// next one instead: two iterations of two moves, so that one is skipped.
const SKIP: u32 = 4;

/// How long the node rate is measured before an iteration's time is forecast from it: the
/// first iterations are too small to time.
const FORECAST_AFTER: Duration = Duration::from_millis(100);

/// How far over the optimum a FAST path may be (on the hardest 24-puzzles, up to eight moves):
/// the proof's forecast assumes the optimum that far under the incumbent, the fewest
/// iterations left, so that it errs toward "in reach".
const FAST_OVER_OPTIMUM: u32 = 8;

/// The longest forecast worth a number: past it, "years".
const LONGEST_FORECAST: Duration = Duration::from_secs(100 * 365 * 86_400);

/// How an IDA* that was handed an [`Incumbent`] ended, besides an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// A path at most the weight times the shortest, with the bound proven.
    Found(PathWithBound),
    /// The bound reached the incumbent's length: the incumbent is shortest.
    Settled,
    /// The next iteration, at `bound` (proven), would not finish in the time left.
    OutOfReach {
        /// The bound proven: the next iteration's threshold.
        bound: u32,
    },
}

/// The shortest path in hand while IDA* proves or betters it, and how IDA* goes about it.
#[derive(Debug, Clone, Default)]
pub struct Incumbent {
    /// The path; empty when there is none, and IDA* then runs as it would alone.
    path: Vec<Direction>,
    /// IDA* starts at this bound at least: a search resumed skips what it proved before.
    known: u32,
    /// While set, when and at which node count the forecasts' rate is measured from.
    forecast: Option<(Instant, u64)>,
    /// Whether IDA* gives up when its remaining iterations are far out of reach (MINIMUM).
    give_up: bool,
}

impl Incumbent {
    /// `path` in hand: IDA* stops once its bound reaches its length.
    pub fn new(path: Vec<Direction>) -> Incumbent {
        Incumbent { path, known: 0, forecast: None, give_up: false }
    }

    /// This incumbent, IDA* starting at `known` (the bound an earlier run proved).
    pub fn resumed_from(self, known: u32) -> Incumbent {
        Incumbent { known, ..self }
    }

    /// This incumbent with forecasts on, the node rate measured from now on `meter`: IDA* then
    /// stops before an iteration that would not finish in the time left.
    pub fn forecasting(self, meter: &Meter<'_>) -> Incumbent {
        Incumbent { forecast: Some((Instant::now(), meter.expanded)), ..self }
    }

    /// This incumbent, IDA* giving up (with [`SearchError::ProofOutOfReach`]) when its
    /// remaining iterations are forecast at over [`PROOF_OUT_OF_REACH_FACTOR`] times the time
    /// left: a proof clearly out of reach is no reason to keep a caller waiting.
    pub fn giving_up_out_of_reach(self) -> Incumbent {
        Incumbent { give_up: true, ..self }
    }

    /// How long the iterations left are forecast to take at the least: from `bound` (proven)
    /// to the optimum, taken [`FAST_OVER_OPTIMUM`] under the incumbent, each iteration `growth`
    /// times the one before, the last of which took `nodes`, at the search's node rate so far.
    /// `None` with nothing in hand or nothing measured.
    pub(super) fn forecast(&self, bound: u32, nodes: u64, growth: f64, meter: &Meter<'_>) -> Option<Duration> {
        let elapsed = meter.elapsed().as_secs_f64();
        if self.path.is_empty() || meter.expanded == 0 || elapsed <= 0.0 {
            return None;
        }
        let optimum = self.moves().saturating_sub(FAST_OVER_OPTIMUM).max(bound + 2);
        let iterations = (optimum - bound).div_ceil(2);
        let left: f64 = (1..=iterations).map(|i| growth.powi(i as i32)).sum::<f64>() * nodes as f64;
        let rate = meter.expanded as f64 / elapsed;
        Some(Duration::try_from_secs_f64(left / rate).unwrap_or(LONGEST_FORECAST).min(LONGEST_FORECAST))
    }

    /// The time left, when this incumbent gives up and `forecast` is over
    /// [`PROOF_OUT_OF_REACH_FACTOR`] times it.
    pub(super) fn out_of_reach(&self, forecast: Duration, meter: &Meter<'_>) -> Option<Duration> {
        let left = meter.time_left()?;
        (self.give_up && forecast > left.saturating_mul(PROOF_OUT_OF_REACH_FACTOR)).then_some(left)
    }

    /// The length of the path in hand, 0 when there is none.
    pub fn moves(&self) -> u32 {
        self.path.len() as u32
    }

    /// The path in hand.
    pub fn into_path(self) -> Vec<Direction> {
        self.path
    }

    /// The bound IDA* starts from.
    pub(super) fn known(&self) -> u32 {
        self.known
    }

    /// Takes `path` if it is shorter than the one in hand, and reports its length as the best
    /// known from now on; whether it did.
    pub fn offer(&mut self, path: Vec<Direction>, meter: &mut Meter<'_>) -> bool {
        if self.path.is_empty() || path.len() >= self.path.len() {
            return false;
        }
        self.path = path;
        meter.report_best(self.moves());
        true
    }

    /// Whether a search that has proven `bound` should stop: the path in hand is then shortest.
    pub(super) fn settled(&self, bound: u32) -> bool {
        !self.path.is_empty() && bound >= self.moves()
    }

    /// The threshold IDA* may search at instead of `bound`, the next one it would take: two
    /// under the incumbent's length when `bound` is four under it, and `bound` otherwise.
    ///
    /// The iteration two under the incumbent is the proof: if it finds nothing, the incumbent is
    /// shortest, and the iteration at `bound` before it did nothing the proof does not. If it
    /// finds a path, that path is shorter than the incumbent, and the iteration at `bound` then
    /// runs to tell whether one shorter still exists, as it would have anyway.
    ///
    /// Not while forecasts are on: a path found ahead and left unproven when the next iteration
    /// is out of reach would be lost to ANYTIME's answer.
    pub(super) fn skip_to(&self, bound: u32) -> u32 {
        if self.forecast.is_none() && self.settled(bound.saturating_add(SKIP)) {
            bound.max(self.moves() - SKIP / 2)
        } else {
            bound
        }
    }

    /// Whether an iteration of `nodes` nodes, whose threshold is `bound` (already proven), would
    /// finish in the time left on `meter`'s clock at the rate measured since forecasts began.
    /// Without forecasts or a clock, or before [`FORECAST_AFTER`] of measurement, every iteration
    /// is in reach.
    ///
    /// So is the last iteration that can matter: the one whose threshold is within
    /// [`LAST_GAP`] of the incumbent's length. A sliding-tile path has its board's parity, so
    /// that iteration either finds a path of length `bound` (the optimum, proven at once) or
    /// proves the incumbent optimal, which nothing else could do with the time.
    pub(super) fn iteration_in_reach(&self, bound: u32, nodes: u64, meter: &Meter<'_>) -> bool {
        if !self.path.is_empty() && self.moves() <= bound.saturating_add(LAST_GAP) {
            return true;
        }
        let (Some((since, from)), Some(left)) = (self.forecast, meter.time_left()) else { return true };
        let measured = since.elapsed();
        if measured < FORECAST_AFTER {
            return true;
        }
        let rate = meter.expanded.saturating_sub(from) as f64 / measured.as_secs_f64();
        nodes as f64 <= rate * left.as_secs_f64()
    }
}

/// Work a driver runs before an IDA* iteration, on the search's own thread. Between iterations
/// IDA* holds nothing but its bound, so this is where other work on the same board can take its
/// turn: MINIMUM's wider beam looks there for a shorter path than the incumbent, early enough
/// for IDA* to skip the iteration under the proof.
pub trait Interlude {
    /// Called before the iteration at `bound` (every lower threshold has failed) when the
    /// iteration before it expanded `nodes` nodes. It may offer the incumbent a shorter path.
    /// An error ends the search with it.
    fn before_iteration(
        &mut self,
        bound: u32,
        nodes: u64,
        incumbent: &mut Incumbent,
        meter: &mut Meter<'_>,
    ) -> Result<(), SearchError>;
}

/// No work between iterations.
impl Interlude for () {
    fn before_iteration(&mut self, _: u32, _: u64, _: &mut Incumbent, _: &mut Meter<'_>) -> Result<(), SearchError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Heuristic, Options};
    use crate::solver::progress::{NoProgress, Stop};

    const PLAN: Plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::Manhattan, method: Method::IdaStar };

    #[test]
    fn a_forecast_iteration_past_the_time_left_is_out_of_reach() {
        let options = Options { max_search_time: Some(Duration::from_secs(60)), ..Options::default() };
        let (mut progress, stop) = (NoProgress, Stop::new());
        let mut meter = Meter::new(&options, PLAN, 3, &mut progress, &stop);
        let huge = u64::MAX / 2;
        let of = |moves: usize| vec![Direction::Up; moves];
        assert!(Incumbent::new(of(46)).iteration_in_reach(40, huge, &meter), "no forecast unless asked for");
        let forecasting = |moves| Incumbent::new(of(moves)).forecasting(&meter);
        let (early, best_46, best_42, none) = (forecasting(46), forecasting(46), forecasting(42), forecasting(0));
        assert!(early.iteration_in_reach(40, huge, &meter), "no forecast before the rate is measured");
        std::thread::sleep(FORECAST_AFTER);
        (0..1000).try_for_each(|_| meter.expand(0, || 0)).expect("within the budget");
        // A thousand nodes in a little over 100 ms: about ten thousand a second, so some six
        // hundred thousand fit in the minute left, and a huge iteration does not.
        assert!(best_46.iteration_in_reach(40, 1000, &meter));
        assert!(!best_46.iteration_in_reach(40, huge, &meter), "more than one iteration left to prove 46");
        assert!(best_42.iteration_in_reach(40, huge, &meter), "the last iteration that can matter is always run");
        assert!(!none.iteration_in_reach(40, huge, &meter), "nothing in hand: only the forecast counts");
    }

    #[test]
    fn only_a_shorter_path_replaces_the_incumbent_and_is_reported() {
        let options = Options::default();
        let (mut progress, stop) = (NoProgress, Stop::new());
        let mut meter = Meter::new(&options, PLAN, 5, &mut progress, &stop);
        let mut incumbent = Incumbent::new(vec![Direction::Up; 40]);
        assert!(!incumbent.offer(vec![Direction::Up; 40], &mut meter));
        assert!(incumbent.offer(vec![Direction::Up; 38], &mut meter));
        assert_eq!(incumbent.moves(), 38);
        assert!(incumbent.settled(38) && !incumbent.settled(36));
        assert_eq!(incumbent.skip_to(34), 36, "four under: the iteration two under is the proof");
        assert_eq!(incumbent.skip_to(32), 32);
        assert!(!Incumbent::default().settled(u32::MAX), "nothing in hand never settles");
    }
}
