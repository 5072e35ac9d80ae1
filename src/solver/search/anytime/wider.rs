//! MINIMUM's wider beam: one beam search, [`WIDTH`] boards a layer (eight times FAST's), run
//! between two of IDA*'s iterations once they grow long, for a shorter path than FAST's.
//!
//! MINIMUM stops once IDA*'s bound reaches the best length known, and skips the iteration four
//! under it (see [`Meter::skip_to`]); both pay only when that length is the optimum. FAST's path
//! is the optimum on about half of the random 24-puzzles, and less often on the hardest, where
//! it is two to eight moves over. A beam eight times as wide finds the optimum on many of those
//! in about a second and a half, while an iteration four under the optimum takes several
//! seconds there: so the beam runs once, before an iteration that follows one of at least
//! [`AFTER`] nodes, if its path could still let IDA* skip an iteration ([`GAP`]).

use crate::board::{Board, Direction};
use crate::solver::pdb::{PatternDatabases, with_heuristic};
use crate::solver::search::constructive::{self, beam};
use crate::solver::search::idastar::Interlude;
use crate::solver::{Meter, SearchError};

use super::widest_beam;

/// The beam's width: eight times FAST's, about 1.2 to 1.8 s and 70 MB on a 24-puzzle. On 23 of
/// DeepCubeA's hardest boards whose FAST path is over the optimum, it found the optimum on 9; a
/// quarter of the width found it on 2, and twice the width (twice the time) on 11.
pub const WIDTH: usize = constructive::BEAM_WIDTH * 8;

/// The beam runs before an iteration that follows one of at least this many nodes (about half
/// a second on two cores): the iteration it may spare is then several seconds, and the proof
/// after it tens.
pub const AFTER: u64 = 1 << 24;

/// The beam runs only while the best length known is at least this far over the coming
/// threshold: a path two shorter, if it is the optimum, then lets IDA* skip an iteration still
/// to come (the one four under it). Nearer, a shorter path ends the search no sooner.
pub const GAP: u32 = 6;

/// The best path in hand during MINIMUM's IDA*, and the beam that may shorten it, run once.
pub struct WiderBeam<'a> {
    board: &'a Board,
    /// The 5×5 databases the beam's heuristic reads; none, or another size's, and it never runs.
    databases: Option<&'a PatternDatabases>,
    /// The shortest path known: FAST's, or the beam's if shorter.
    path: Vec<Direction>,
    /// Whether the beam has run (or cannot).
    done: bool,
    width: usize,
    after: u64,
}

impl<'a> WiderBeam<'a> {
    /// The beam for `board`, read on `databases` (the 5×5 ones), with `path` (FAST's) in hand.
    pub fn new(board: &'a Board, databases: Option<&'a PatternDatabases>, path: Vec<Direction>) -> WiderBeam<'a> {
        WiderBeam::with(board, databases, path, WIDTH, AFTER)
    }

    /// [`WiderBeam::new`] with another width and node count to run after.
    fn with(
        board: &'a Board,
        databases: Option<&'a PatternDatabases>,
        path: Vec<Direction>,
        width: usize,
        after: u64,
    ) -> WiderBeam<'a> {
        let databases = databases.filter(|databases| databases.dimension() == board.dimension());
        WiderBeam { board, databases, path, done: databases.is_none(), width, after }
    }

    /// The shortest path known: what MINIMUM answers with once IDA*'s bound reaches its length.
    pub fn into_path(self) -> Vec<Direction> {
        self.path
    }
}

impl Interlude for WiderBeam<'_> {
    fn before_iteration(&mut self, bound: u32, nodes: u64, meter: &mut Meter<'_>) -> Result<(), SearchError> {
        let best = self.path.len() as u32;
        if self.done || nodes < self.after || best < bound.saturating_add(GAP) {
            return Ok(());
        }
        self.done = true;
        // As ANYTIME's beams, never one wider than the memory budget holds.
        let Some(databases) = self.databases.filter(|_| self.width <= widest_beam(meter)) else { return Ok(()) };
        // The beam's reports would carry its root's bound: IDA*'s stands while it runs.
        meter.hold_bound(Some(bound));
        // A shorter path has the board's parity: two moves shorter at least.
        let depth = self.path.len().saturating_sub(2);
        let found =
            with_heuristic!(databases, heuristic => beam::search(self.board, &heuristic, self.width, depth, meter));
        meter.hold_bound(None);
        if let Some(path) = found?.filter(|path| path.len() < self.path.len()) {
            meter.best_moves = path.len() as u32;
            self.path = path;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::pdb::Partition;
    use crate::solver::search::samples::reaches_goal;
    use crate::solver::{Algorithm, Heuristic, NoProgress, Options, Plan, SearchError, Stop};

    /// Small 5×5 databases: eight 3-tile patterns, tiles 1 to 3, 4 to 6 and so on, built in
    /// milliseconds.
    fn small_databases() -> PatternDatabases {
        let patterns = (0..8u8).map(|piece| (3 * piece + 1..=3 * piece + 3).collect()).collect();
        let partition = Partition::for_dimension(5, patterns).expect("a 5x5 partition");
        PatternDatabases::build(&partition).expect("built")
    }

    #[test]
    fn minimum_answers_with_the_beams_path_once_the_bound_reaches_it() {
        let databases = small_databases();
        // A random 24-puzzle of 100 moves (DeepCubeA's #1), on which FAST's path over these
        // weak tables is long.
        let tiles = [3, 19, 24, 9, 8, 11, 7, 12, 2, 4, 17, 23, 20, 18, 6, 16, 5, 1, 14, 21, 0, 15, 10, 13, 22];
        let board = Board::new(5, &tiles).expect("a 5x5 board");
        let plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::PatternDatabase };
        let (options, stop, mut progress) = (Options::default(), Stop::new(), NoProgress);
        let mut meter = Meter::new(&options, plan, 5, &mut progress, &stop);
        let mut fast = 0;
        // An IDA* that reaches its bound at once, after the interlude before a long iteration.
        let found = super::super::minimum(&board, Some(&databases), &mut meter, |meter, interlude| {
            fast = meter.best_moves;
            interlude.before_iteration(0, u64::MAX, meter)?;
            Err(SearchError::BoundReached { bound: meter.best_moves })
        })
        .expect("answers");
        assert!(found.path.len() < fast as usize, "{} moves, FAST's {fast}", found.path.len());
        assert_eq!(found.path.len() as u32, meter.best_moves);
        assert!(reaches_goal(&board, &found.path));
    }

    /// A 5×5 board 40 moves of a seeded walk from the goal, and a path back to the goal: the walk
    /// undone, with `detours` pairs of a move and its opposite added at the start.
    fn board_and_long_path(detours: usize) -> (Board, Vec<Direction>) {
        let mut board = Board::goal(5).expect("a 5x5 goal");
        let mut walk: Vec<Direction> = Vec::new();
        let mut seed = 0x2545_f491_u64;
        while walk.len() < 40 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let direction = Direction::ALL[(seed >> 33) as usize % 4];
            if walk.last() == Some(&direction.opposite()) {
                continue;
            }
            if let Some((next, _)) = board.slide(direction) {
                board = next;
                walk.push(direction);
            }
        }
        let back: Vec<Direction> = walk.iter().rev().map(|direction| direction.opposite()).collect();
        let mut long = Vec::new();
        let detour = if board.slide(back[0].opposite()).is_some() { back[0].opposite() } else { back[0] };
        for _ in 0..detours {
            long.extend([detour, detour.opposite()]);
        }
        long.extend(back);
        assert!(reaches_goal(&board, &long));
        (board, long)
    }

    /// Runs `beam`'s interlude before an iteration at `bound` after one of `nodes` nodes, with
    /// its path's length as the best known: the best known after it.
    fn run(beam: &mut WiderBeam<'_>, bound: u32, nodes: u64) -> u32 {
        let plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::PatternDatabase };
        let (options, stop, mut progress) = (Options::default(), Stop::new(), NoProgress);
        let mut meter = Meter::new(&options, plan, 5, &mut progress, &stop);
        meter.best_moves = beam.path.len() as u32;
        beam.before_iteration(bound, nodes, &mut meter).expect("runs");
        meter.best_moves
    }

    #[test]
    fn the_beam_runs_once_after_a_long_iteration_and_shortens_the_path_in_hand() {
        let databases = small_databases();
        let (board, long) = board_and_long_path(3);
        let best = long.len() as u32;
        let mut beam = WiderBeam::with(&board, Some(&databases), long, 1 << 10, 1000);
        // After a short iteration, nothing runs, and the beam waits for a longer one.
        assert_eq!(run(&mut beam, 20, 999), best);
        // With the best two under the gap, a shorter path would end the search no sooner.
        assert_eq!(run(&mut beam, best - GAP + 2, 1000), best);
        assert!(!beam.done);
        let shorter = run(&mut beam, 20, 1000);
        assert!(shorter < best, "{shorter} moves, {best} in hand");
        assert_eq!(beam.path.len() as u32, shorter);
        assert!(reaches_goal(&board, &beam.path));
        // Once only.
        assert!(beam.done);
        // Without 5×5 databases, or with a beam past the memory budget, it never runs.
        let (board, long) = board_and_long_path(3);
        let mut none = WiderBeam::with(&board, None, long.clone(), 1 << 10, 1000);
        assert_eq!(run(&mut none, 20, u64::MAX), best);
        let mut too_wide = WiderBeam::with(&board, Some(&databases), long, usize::MAX, 1000);
        assert_eq!(run(&mut too_wide, 20, u64::MAX), best);
    }
}
