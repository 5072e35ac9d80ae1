//! ANYTIME answers: a FAST solution at once, then an improvement side that shortens it and a
//! proof side that raises the lower bound, until the proof finishes, the bound reaches the
//! best length, or the answer time comes; the best path in hand is returned with the best
//! bound proven.
//!
//! - **First solution**: [`constructive::placed_solve`] without the 4×4 tables (FAST without
//!   its walk home), milliseconds on every size (a 3×3 board never comes here: its table
//!   answers it).
//! - **Improvement** (a share of the time, [`IMPROVE_SHARE`], where a proof can follow; all of
//!   it on boards larger than 5×5): on a 5×5 with its pattern databases, beam searches of
//!   ever wider beams (`Improvement::beams`); on a larger board near its goal, first its
//!   tiles walked back home ([`constructive::near_goal`], [`RETRACE_SHARE`] of the time left),
//!   else stage beams that place it row by row; then, on every size, windows of the path
//!   searched again (`window`), in passes with ever longer windows.
//! - **Proof** (4×4 and 5×5): IDA* with the strongest heuristic loaded; each iteration it
//!   completes proves the next threshold. It finishes with an optimal path, or stops once its
//!   bound reaches the best path's length, which is then proven shortest.
//!
//! Every shorter path is handed to [`Meter::improved`] as it is found (the windows' at most
//! every `REPORT_EVERY`). Searches of other boards than the root prove nothing about the
//! root, so the meter holds the root's bound while they run ([`Meter::hold_bound`]). Running
//! out of time or nodes once a first solution is in hand is not an error here; the stop flag
//! (the caller's cancel) still is.

use std::time::{Duration, Instant};

use crate::board::{Board, Direction};
use crate::solver::error::SearchError;
use crate::solver::heuristic::Estimator;
use crate::solver::heuristic::linear_conflict::LinearConflict;
use crate::solver::meter::Meter;
use crate::solver::options::Heuristic;
use crate::solver::pdb::{PatternDatabases, with_heuristic};
use crate::solver::search::beam::{self, stages, widest_beam};
use crate::solver::search::constructive::{self, WalkBudget, shorten};
use crate::solver::search::idastar::{self, Incumbent, Proof};
use crate::solver::search::window::{self, FIRST_WINDOW, LONGEST_WINDOW};
use crate::solver::search::{PathWithBound, Weight};

/// The largest side whose proof search can finish: IDA* with 5×5 pattern databases.
pub const MAX_PROOF_DIMENSION: usize = 5;

/// The share of the time the improvement side takes before the proof, where a proof can
/// follow.
pub const IMPROVE_SHARE: f64 = 0.3;

/// The share of the time left that walking a board near its goal back home may take.
pub const RETRACE_SHARE: f64 = 0.9;

/// The first beam's width on a 5×5: twice FAST's, whose path is already in hand.
const FIRST_BEAM: usize = constructive::BEAM_WIDTH * 2;

/// A beam twice as wide takes a little more than twice as long: one starts only when this
/// many times the last one's time is left.
const BEAM_GROWTH: f64 = 2.2;

/// A beam twice as wide expands at most twice the boards a layer, over no more layers (the
/// path it must beat only gets shorter): one starts only when this many times the last one's
/// nodes are left, the nodes of its path's suffixes searched again included.
const BEAM_NODES_GROWTH: f64 = 2.0;

/// A beam may find a path this fraction (one in ten) longer than the best before its end is
/// searched again.
const BEAM_SLACK: usize = 10;

/// The first stage beam's width on boards larger than 5×5.
const FIRST_STAGE_BEAM: usize = 16;

/// The widest stage beam.
const LARGEST_STAGE_BEAM: usize = 1 << 22;

/// The share of the improvement's time the stage beams take on boards larger than 5×5; the
/// windows take the rest.
const STAGE_SHARE: f64 = 0.85;

/// How often the windows hand their shortened path out while a pass runs (a path of a big
/// board has hundreds of thousands of moves: each hand-out replays it).
const REPORT_EVERY: Duration = Duration::from_millis(500);

/// The shortest path from `board` (solvable) found before `meter`'s clock ends it, with what
/// was proven; every shorter path found on the way is handed to [`Meter::improved`].
pub fn solve(
    board: &Board,
    four: Option<&PatternDatabases>,
    five: Option<&PatternDatabases>,
    meter: &mut Meter<'_>,
) -> Result<PathWithBound, SearchError> {
    let n = board.dimension();
    let estimator = LinearConflict::new(n);
    meter.hold_bound(Some(estimator.value(&estimator.start(board.tiles()))));
    // FAST solves a 4×4 (and a bigger board's last 4×4) optimally when its tables are loaded,
    // which a hard one takes seconds to: the first solution here takes the weighted search,
    // bounded in nodes, that FAST uses without them. Nor does it walk a board near its goal
    // home, which takes seconds on a big one: the improvement does, with its share of the time.
    let first = constructive::placed_solve(board, None, five, meter)?;
    let mut best = Best::new(board, first, meter)?;
    let databases = [four, five].into_iter().flatten().find(|databases| databases.dimension() == n);
    let proof = n <= MAX_PROOF_DIMENSION;
    if best.is_proven() {
        return Ok(best.found);
    }
    let end = match (proof, meter.time_left()) {
        (true, Some(left)) => TurnEnd::At(Instant::now() + left.mul_f64(IMPROVE_SHARE)),
        _ => TurnEnd::Open,
    };
    let mut improvement = Improvement::new();
    improvement.run(&mut best, databases, five, end, meter)?;
    if !proof || best.is_proven() || meter.time_is_up() {
        return Ok(best.found);
    }
    let heuristic = if databases.is_some() { Heuristic::PatternDatabase } else { Heuristic::LinearConflict };
    // The proof gives its time back to the improvement when its next iteration cannot finish,
    // and takes it again, without that forecast, when the improvement has nothing left to try.
    // The rerun starts at the bound the first run reached, without repeating its iterations.
    let mut reached = 0;
    for forecast in [true, false] {
        meter.hold_bound(None);
        let mut incumbent = Incumbent::new(best.found.path.clone()).resumed_from(reached);
        if forecast {
            incumbent = incumbent.forecasting(meter);
        }
        let proved = idastar::prove(board, heuristic, databases, Weight::ONE, &mut incumbent, &mut (), meter);
        match proved {
            Ok(Proof::Found(optimal)) => return Ok(optimal),
            Ok(Proof::Settled) => return Ok(PathWithBound::optimal(best.found.path)),
            Ok(Proof::OutOfReach { bound }) => {
                reached = bound;
                meter.hold_bound(Some(bound));
                improvement.run(&mut best, databases, five, TurnEnd::Open, meter)?;
                if best.is_proven() || meter.time_is_up() {
                    break;
                }
            }
            Err(error) if error.is_out_of_budget() => break,
            Err(error) => return Err(error),
        }
    }
    let lower_bound = best.found.lower_bound.max(meter.proven()).min(best.moves());
    Ok(PathWithBound { path: best.found.path, lower_bound })
}

/// Where the improvement side stands, so that a second turn (after the proof gives its time
/// back) goes on with wider beams and longer windows instead of starting over.
struct Improvement {
    /// The next 5×5 beam's width.
    beam: usize,
    /// How long the last 5×5 beam took, and the nodes it expanded.
    last_beam: Duration,
    last_beam_nodes: u64,
    /// The next windows' length.
    window: usize,
    /// Whether a board near its goal was retraced (once is enough: it is no search that a
    /// longer turn widens).
    retraced: bool,
    /// Whether the retrace shortened the path: the stage beams, which place the board row by
    /// row as FAST does, then never come near it, and the windows take their time.
    walked_home: bool,
}

/// What ends a turn of the improvement side besides the search's own clock and node budget.
#[derive(Clone, Copy)]
enum TurnEnd {
    /// Nothing else: the turn runs until nothing is left to try.
    Open,
    /// This instant: ANYTIME's share of the time before its proof.
    At(Instant),
}

impl Improvement {
    fn new() -> Improvement {
        Improvement {
            beam: FIRST_BEAM,
            last_beam: Duration::ZERO,
            last_beam_nodes: 0,
            window: FIRST_WINDOW,
            retraced: false,
            walked_home: false,
        }
    }

    /// One turn of the improvement side, until `end` or the meter's own limits: wider beams on
    /// a 5×5 with its databases, stage beams on larger boards, then windows of the path, until
    /// a limit ends it or no window shortens the path. Running out of time or nodes ends the
    /// turn; only the caller's cancel is an error.
    fn run(
        &mut self,
        best: &mut Best<'_>,
        databases: Option<&PatternDatabases>,
        five: Option<&PatternDatabases>,
        end: TurnEnd,
        meter: &mut Meter<'_>,
    ) -> Result<(), SearchError> {
        let mut improving = |meter: &mut Meter<'_>| {
            if let Some(databases) = databases.filter(|databases| databases.dimension() == beam::MAX_DIMENSION) {
                self.beams(best, databases, meter)?;
            }
            if best.board.dimension() > beam::MAX_DIMENSION {
                if !self.retraced {
                    self.retraced = true;
                    self.walked_home = retrace(best, five, meter)?;
                }
                if !self.walked_home {
                    stage_beams(best, five, meter)?;
                }
            }
            self.windows(best, meter)
        };
        let improved = match end {
            TurnEnd::Open => improving(meter),
            TurnEnd::At(until) => meter.within_phase(until, improving).map(|_| ()),
        };
        match improved {
            Err(error) if !error.is_out_of_budget() => Err(error),
            _ => Ok(()),
        }
    }
}

/// For a board near its goal ([`constructive::near_goal`]) whose path in hand is over twice its
/// bound (the first solution is placed, never walked), its path walked back home within
/// [`RETRACE_SHARE`] of the time left, and what the walk leaves placed in the rest. `true`
/// when that path is shorter than the one in hand.
fn retrace(best: &mut Best<'_>, five: Option<&PatternDatabases>, meter: &mut Meter<'_>) -> Result<bool, SearchError> {
    let until = meter.time_left().map(|left| Instant::now() + left.mul_f64(RETRACE_SHARE));
    if until.is_none() || best.moves() <= 2 * best.found.lower_bound {
        return Ok(false);
    }
    let budget = WalkBudget { max_moves: best.moves() as usize, max_cells: u64::MAX, until };
    match constructive::near_goal(best.board, five, &budget, meter) {
        Ok(Some(path)) if path.len() < best.found.path.len() => best.offer(path, meter).map(|()| true),
        Ok(_) => Ok(false),
        Err(error) if error.is_out_of_budget() => Ok(false),
        Err(error) => Err(error),
    }
}

/// Stage beams ([`stages`]) of [`FIRST_STAGE_BEAM`] boards a layer and then twice as wide
/// each time, for [`STAGE_SHARE`] of the time left, each path's last region finished as FAST
/// finishes it; then the last region of the shortest of them searched again with the 5×5
/// beam and suffixes, when `five` is loaded.
fn stage_beams(best: &mut Best<'_>, five: Option<&PatternDatabases>, meter: &mut Meter<'_>) -> Result<(), SearchError> {
    let board = best.board;
    let n = board.dimension();
    let (finish, databases) = constructive::finish_side(n, None, five);
    let until = meter.time_left().map(|left| Instant::now() + left.mul_f64(STAGE_SHARE));
    let Some(until) = until else { return Ok(()) };
    // The placed tiles and their moves of the shortest stage path so far.
    let mut shortest: Option<(usize, Vec<u16>, Vec<Direction>)> = None;
    let ran = meter.within_phase(until, |meter| {
        let mut width = FIRST_STAGE_BEAM;
        loop {
            let started = Instant::now();
            if let Some(stages::State { tiles, path: placed, .. }) =
                stages::search(n, board.tiles(), finish, width, best.moves() as usize, meter)?
            {
                let mut path = placed.clone();
                path.extend(constructive::finish_region(n, &tiles, finish, databases, false, meter)?);
                let path = shorten::cancel_undos(&path);
                if shortest.as_ref().is_none_or(|(moves, ..)| path.len() < *moves) {
                    shortest = Some((path.len(), tiles, placed));
                }
                best.offer(path, meter)?;
            }
            let last = started.elapsed();
            match next_stage_width(width, last, meter.time_left()) {
                Some(next) => width = next,
                None => return Ok(()),
            }
        }
    });
    match ran {
        Ok(_) => {}
        Err(error) if error.is_out_of_budget() => {}
        Err(error) => return Err(error),
    }
    if let (Some((_, tiles, mut path)), Some(_)) = (shortest, databases) {
        path.extend(constructive::finish_region(n, &tiles, finish, databases, true, meter)?);
        best.offer(shorten::cancel_undos(&path), meter)?;
    }
    Ok(())
}

/// The stage beam to run after one of `width` boards that took `took`, with `left` to go:
/// twice as wide while that is likely to finish, then the widest that is, up to
/// [`LARGEST_STAGE_BEAM`]; `None` when no wider one fits.
fn next_stage_width(width: usize, took: Duration, left: Option<Duration>) -> Option<usize> {
    let next = match left {
        Some(left) if left < took.mul_f64(BEAM_GROWTH) => {
            // A beam's time grows a little faster than its width.
            let fits = width as f64 * left.as_secs_f64() / took.as_secs_f64().max(1e-6) / (BEAM_GROWTH / 2.0);
            fits as usize
        }
        _ => width * 2,
    };
    (next > width && next <= LARGEST_STAGE_BEAM).then_some(next)
}

impl Improvement {
    /// Beams of [`FIRST_BEAM`] boards a layer and then twice as wide each time, while the
    /// memory budget holds one and the time and nodes left are likely to finish one.
    fn beams(
        &mut self,
        best: &mut Best<'_>,
        databases: &PatternDatabases,
        meter: &mut Meter<'_>,
    ) -> Result<(), SearchError> {
        let widest = widest_beam(meter);
        while self.beam <= widest && !best.is_proven() {
            if meter.time_left().is_some_and(|left| left < self.last_beam.mul_f64(BEAM_GROWTH))
                || (meter.nodes_left() as f64) < self.last_beam_nodes as f64 * BEAM_NODES_GROWTH
            {
                break;
            }
            let (started, before) = (Instant::now(), meter.expanded);
            // A beam's path is shortened by searching its end again, so one a little longer
            // than the best may still end shorter.
            let depth = best.moves() as usize + best.moves() as usize / BEAM_SLACK;
            let path =
                with_heuristic!(databases, heuristic => beam::search(best.board, &heuristic, self.beam, depth, meter))?;
            if let Some(path) = path {
                best.offer(constructive::shorten_suffixes(best.board, path, Some(databases), meter)?, meter)?;
            }
            self.last_beam = started.elapsed();
            self.last_beam_nodes = meter.expanded - before;
            self.beam *= 2;
        }
        Ok(())
    }

    /// Passes of windows over the best path, [`FIRST_WINDOW`] moves long while they shorten
    /// it, then longer, until windows of [`LONGEST_WINDOW`] moves shorten nothing.
    fn windows(&mut self, best: &mut Best<'_>, meter: &mut Meter<'_>) -> Result<(), SearchError> {
        while self.window <= LONGEST_WINDOW && !best.is_proven() {
            let mut path = best.found.path.clone();
            let board = best.board;
            let mut report = |path: &[Direction], meter: &mut Meter<'_>| best.offer(path.to_vec(), meter);
            let passed = window::pass(
                board.dimension(),
                board.tiles(),
                &mut path,
                self.window,
                meter,
                REPORT_EVERY,
                &mut report,
            );
            // Even a pass the clock stopped leaves a valid path.
            let shortened = path.len() < best.found.path.len();
            if shortened {
                best.offer(path, meter)?;
            }
            passed?;
            if !shortened {
                self.window += self.window / 2;
            }
        }
        Ok(())
    }
}

/// The best path known from the root.
struct Best<'a> {
    board: &'a Board,
    found: PathWithBound,
}

impl<'a> Best<'a> {
    /// `first`, handed out as the first solution.
    fn new(board: &'a Board, first: PathWithBound, meter: &mut Meter<'_>) -> Result<Best<'a>, SearchError> {
        meter.improved(board, &first.path, first.lower_bound)?;
        Ok(Best { board, found: first })
    }

    fn moves(&self) -> u32 {
        self.found.path.len() as u32
    }

    /// Whether the path is as short as the bound proven.
    fn is_proven(&self) -> bool {
        self.found.lower_bound >= self.moves()
    }

    /// Takes `path` and hands it out if it is shorter than the best.
    fn offer(&mut self, path: Vec<Direction>, meter: &mut Meter<'_>) -> Result<(), SearchError> {
        if path.len() < self.found.path.len() {
            self.found.path = path;
            self.found.lower_bound = self.found.lower_bound.max(meter.proven()).min(self.moves());
            meter.improved(self.board, &self.found.path, self.found.lower_bound)?;
        }
        Ok(())
    }
}
