//! MINIMUM's wider beam: one beam search, [`WIDTH`] boards a layer (eight times FAST's), run
//! between two of IDA*'s iterations once they grow long, for a shorter path than FAST's.
//!
//! MINIMUM stops once IDA*'s bound reaches the incumbent's length, and skips the iteration four
//! under it; both pay only when that length is the optimum. FAST's path is often two to eight
//! moves over it on the hardest 24-puzzles, where a beam eight times as wide finds the optimum
//! in about a second and a half, against several seconds for an iteration four under it: so
//! the beam runs once, before an iteration that follows one of at least [`AFTER`] nodes, if its
//! path could still let IDA* skip an iteration ([`GAP`]). What the widths found is in
//! `docs/performance.md`, "2026-12-06 — A wider beam between the iterations".

use crate::board::Board;
use crate::solver::error::SearchError;
use crate::solver::meter::Meter;
use crate::solver::pdb::{PatternDatabases, with_heuristic};
use crate::solver::search::beam::{self, widest_beam};
use crate::solver::search::constructive;
use crate::solver::search::idastar::{Incumbent, Interlude};

/// The beam's width: eight times FAST's, about 1.2 to 1.8 s and 70 MB on a 24-puzzle.
pub const WIDTH: usize = constructive::BEAM_WIDTH * 8;

/// The beam runs before an iteration that follows one of at least this many nodes (about half
/// a second on two cores): the iteration it may spare is then several seconds, and the proof
/// after it tens.
pub const AFTER: u64 = 1 << 24;

/// The beam runs only while the incumbent's length is at least this far over the coming
/// threshold: a path two shorter, if it is the optimum, then lets IDA* skip an iteration still
/// to come (the one four under it). Nearer, a shorter path ends the search no sooner.
pub const GAP: u32 = 6;

/// The beam that may shorten MINIMUM's incumbent, run once.
pub struct WiderBeam<'a> {
    board: &'a Board,
    /// The 5×5 databases the beam's heuristic reads; none, or another size's, and it never runs.
    databases: Option<&'a PatternDatabases>,
    /// Whether the beam has run (or cannot).
    done: bool,
    width: usize,
    after: u64,
}

impl<'a> WiderBeam<'a> {
    /// The beam for `board`, read on `databases` (the 5×5 ones).
    pub fn new(board: &'a Board, databases: Option<&'a PatternDatabases>) -> WiderBeam<'a> {
        WiderBeam::with(board, databases, WIDTH, AFTER)
    }

    /// [`WiderBeam::new`] with another width and node count to run after.
    fn with(board: &'a Board, databases: Option<&'a PatternDatabases>, width: usize, after: u64) -> WiderBeam<'a> {
        let databases = databases.filter(|databases| databases.dimension() == board.dimension());
        WiderBeam { board, databases, done: databases.is_none(), width, after }
    }
}

impl Interlude for WiderBeam<'_> {
    fn before_iteration(
        &mut self,
        bound: u32,
        nodes: u64,
        incumbent: &mut Incumbent,
        meter: &mut Meter<'_>,
    ) -> Result<(), SearchError> {
        if self.done || nodes < self.after || incumbent.moves() < bound.saturating_add(GAP) {
            return Ok(());
        }
        self.done = true;
        // As ANYTIME's beams, never one wider than the memory budget holds.
        let Some(databases) = self.databases.filter(|_| self.width <= widest_beam(meter)) else { return Ok(()) };
        // The beam's reports would carry its root's bound: IDA*'s stands while it runs.
        meter.hold_bound(Some(bound));
        // A shorter path has the board's parity: two moves shorter at least.
        let depth = (incumbent.moves() as usize).saturating_sub(2);
        let found =
            with_heuristic!(databases, heuristic => beam::search(self.board, &heuristic, self.width, depth, meter));
        meter.hold_bound(None);
        if let Some(path) = found? {
            incumbent.offer(path, meter);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Direction;
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Heuristic, Options};
    use crate::solver::pdb::Partition;
    use crate::solver::progress::{NoProgress, Stop};
    use crate::solver::search::samples::reaches_goal;

    /// Small 5×5 databases: eight 3-tile patterns, tiles 1 to 3, 4 to 6 and so on, built in
    /// milliseconds.
    fn small_databases() -> PatternDatabases {
        let patterns = (0..8u8).map(|piece| (3 * piece + 1..=3 * piece + 3).collect()).collect();
        let partition = Partition::for_dimension(5, patterns).expect("a 5x5 partition");
        PatternDatabases::build(&partition).expect("built")
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
    /// `incumbent` in hand: the incumbent's length after it.
    fn run(beam: &mut WiderBeam<'_>, incumbent: &mut Incumbent, bound: u32, nodes: u64) -> u32 {
        let plan =
            Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::PatternDatabase, method: Method::Minimum };
        let (options, stop, mut progress) = (Options::default(), Stop::new(), NoProgress);
        let mut meter = Meter::new(&options, plan, 5, &mut progress, &stop);
        beam.before_iteration(bound, nodes, incumbent, &mut meter).expect("runs");
        incumbent.moves()
    }

    #[test]
    fn the_beam_runs_once_after_a_long_iteration_and_shortens_the_path_in_hand() {
        let databases = small_databases();
        let (board, long) = board_and_long_path(3);
        let best = long.len() as u32;
        let mut beam = WiderBeam::with(&board, Some(&databases), 1 << 10, 1000);
        let mut incumbent = Incumbent::new(long.clone());
        // After a short iteration, nothing runs, and the beam waits for a longer one.
        assert_eq!(run(&mut beam, &mut incumbent, 20, 999), best);
        // With the best two under the gap, a shorter path would end the search no sooner.
        assert_eq!(run(&mut beam, &mut incumbent, best - GAP + 2, 1000), best);
        assert!(!beam.done);
        let shorter = run(&mut beam, &mut incumbent, 20, 1000);
        assert!(shorter < best, "{shorter} moves, {best} in hand");
        // Once only.
        assert!(beam.done);
        assert!(reaches_goal(&board, &incumbent.into_path()));
        // Without 5×5 databases, or with a beam past the memory budget, it never runs.
        let mut none = WiderBeam::with(&board, None, 1 << 10, 1000);
        assert_eq!(run(&mut none, &mut Incumbent::new(long.clone()), 20, u64::MAX), best);
        let mut too_wide = WiderBeam::with(&board, Some(&databases), usize::MAX, 1000);
        assert_eq!(run(&mut too_wide, &mut Incumbent::new(long), 20, u64::MAX), best);
    }
}
