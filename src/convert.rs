//! Conversions between the wire types of [`crate::proto`] and the library's own: boards,
//! solutions, steps, stats, progress, and the algorithm and heuristic choices.
//!
//! They live at the edge so that the search never sees a protobuf type. Conversions that can
//! fail (a board or an enum value from a request) return the library's typed errors; turning
//! those into gRPC statuses is the service's job.

use std::time::Duration;

use crate::board::{Board, BoardError, Direction, Step};
use crate::proto;
use crate::solver::{Algorithm, Heuristic, Hint, Method, Optimality, ProgressReport, SearchStats, Solution};

/// Builds a [`Board`] from a request's structured board, refusing N above `max_dimension`.
///
/// A tile too large for any board is reported as out of range, like any other tile outside
/// `0..N*N`.
pub fn board_from_proto(board: &proto::Board, max_dimension: usize) -> Result<Board, BoardError> {
    let dimension = usize::try_from(board.dimension).unwrap_or(usize::MAX);
    let tiles = board
        .tiles
        .iter()
        .enumerate()
        .map(|(position, &tile)| {
            u16::try_from(tile).map_err(|_| {
                let cells = u64::from(board.dimension) * u64::from(board.dimension);
                let max = usize::try_from(cells.saturating_sub(1)).unwrap_or(usize::MAX);
                BoardError::TileOutOfRange { tile: u64::from(tile), position, max }
            })
        })
        .collect::<Result<Vec<u16>, BoardError>>()?;
    Board::with_max_dimension(dimension, &tiles, max_dimension)
}

impl From<&Board> for proto::Board {
    fn from(board: &Board) -> proto::Board {
        proto::Board {
            dimension: board.dimension() as u32,
            tiles: board.tiles().iter().map(|&tile| u32::from(tile)).collect(),
        }
    }
}

impl From<Direction> for proto::Direction {
    fn from(direction: Direction) -> proto::Direction {
        match direction {
            Direction::Up => proto::Direction::Up,
            Direction::Down => proto::Direction::Down,
            Direction::Left => proto::Direction::Left,
            Direction::Right => proto::Direction::Right,
        }
    }
}

impl From<&Step> for proto::Move {
    fn from(step: &Step) -> proto::Move {
        proto::Move { tile: u32::from(step.tile), direction: proto::Direction::from(step.direction).into() }
    }
}

impl From<Algorithm> for proto::Algorithm {
    fn from(algorithm: Algorithm) -> proto::Algorithm {
        match algorithm {
            Algorithm::Auto => proto::Algorithm::Unspecified,
            Algorithm::AStar => proto::Algorithm::Astar,
            Algorithm::IdaStar => proto::Algorithm::Idastar,
        }
    }
}

impl From<proto::Algorithm> for Algorithm {
    fn from(algorithm: proto::Algorithm) -> Algorithm {
        match algorithm {
            proto::Algorithm::Unspecified => Algorithm::Auto,
            proto::Algorithm::Astar => Algorithm::AStar,
            proto::Algorithm::Idastar => Algorithm::IdaStar,
        }
    }
}

impl From<Heuristic> for proto::Heuristic {
    fn from(heuristic: Heuristic) -> proto::Heuristic {
        match heuristic {
            Heuristic::Auto => proto::Heuristic::Unspecified,
            Heuristic::Hamming => proto::Heuristic::Hamming,
            Heuristic::Manhattan => proto::Heuristic::Manhattan,
            Heuristic::LinearConflict => proto::Heuristic::LinearConflict,
            Heuristic::PatternDatabase => proto::Heuristic::PatternDatabase,
        }
    }
}

impl From<proto::Heuristic> for Heuristic {
    fn from(heuristic: proto::Heuristic) -> Heuristic {
        match heuristic {
            proto::Heuristic::Unspecified => Heuristic::Auto,
            proto::Heuristic::Hamming => Heuristic::Hamming,
            proto::Heuristic::Manhattan => Heuristic::Manhattan,
            proto::Heuristic::LinearConflict => Heuristic::LinearConflict,
            proto::Heuristic::PatternDatabase => Heuristic::PatternDatabase,
        }
    }
}

impl From<proto::Optimality> for Optimality {
    fn from(optimality: proto::Optimality) -> Optimality {
        match optimality {
            proto::Optimality::Unspecified | proto::Optimality::Minimum => Optimality::Minimum,
            proto::Optimality::Bounded => Optimality::Bounded,
            proto::Optimality::Fast => Optimality::Fast,
            proto::Optimality::Anytime => Optimality::Anytime,
        }
    }
}

impl From<Optimality> for proto::Optimality {
    fn from(optimality: Optimality) -> proto::Optimality {
        match optimality {
            Optimality::Minimum => proto::Optimality::Minimum,
            Optimality::Bounded => proto::Optimality::Bounded,
            Optimality::Fast => proto::Optimality::Fast,
            Optimality::Anytime => proto::Optimality::Anytime,
        }
    }
}

/// A request's `weight`: 0 (the proto default) is unset; anything else, NaN included, is
/// for [`crate::solver::Solver::plan`] to judge.
pub fn weight_from_proto(weight: f64) -> Option<f64> {
    (weight != 0.0).then_some(weight)
}

/// Whole microseconds, saturating: a `u64` of microseconds outlasts any search.
fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX)
}

impl From<Method> for proto::Method {
    fn from(method: Method) -> proto::Method {
        match method {
            Method::DistanceTable => proto::Method::DistanceTable,
            Method::AStar => proto::Method::Astar,
            Method::IdaStar => proto::Method::Idastar,
            Method::WeightedIdaStar => proto::Method::WeightedIdastar,
            Method::Minimum => proto::Method::Minimum,
            Method::Fast => proto::Method::Fast,
            Method::Anytime => proto::Method::Anytime,
        }
    }
}

impl From<&Hint> for proto::HintResponse {
    fn from(hint: &Hint) -> proto::HintResponse {
        proto::HintResponse {
            distance: hint.distance.map_or(-1, |distance| i32::try_from(distance).unwrap_or(i32::MAX)),
            moves: hint.moves.iter().map(proto::Move::from).collect(),
            optimal: hint.optimal,
            lower_bound: hint.lower_bound,
        }
    }
}

impl From<&SearchStats> for proto::SearchStats {
    fn from(stats: &SearchStats) -> proto::SearchStats {
        proto::SearchStats {
            algorithm: proto::Algorithm::from(stats.algorithm).into(),
            heuristic: proto::Heuristic::from(stats.heuristic).into(),
            nodes_expanded: stats.nodes_expanded,
            nodes_generated: stats.nodes_generated,
            max_frontier: stats.max_frontier,
            elapsed_micros: micros(stats.elapsed),
            method: stats.method.map_or(proto::Method::Unspecified, proto::Method::from).into(),
        }
    }
}

impl From<&Solution> for proto::Solution {
    fn from(solution: &Solution) -> proto::Solution {
        proto::Solution {
            solvable: Some(solution.is_solvable()),
            moves: solution.moves(),
            boards: solution.boards().unwrap_or_default().iter().map(proto::Board::from).collect(),
            steps: solution.steps().unwrap_or_default().iter().map(proto::Move::from).collect(),
            stats: Some(proto::SearchStats::from(solution.stats())),
            optimal: solution.is_optimal(),
            lower_bound: solution.lower_bound(),
            blank_moves: solution.blank_moves(),
        }
    }
}

impl From<&ProgressReport> for proto::Progress {
    fn from(report: &ProgressReport) -> proto::Progress {
        proto::Progress {
            nodes_expanded: report.nodes_expanded,
            nodes_generated: report.nodes_generated,
            priority: report.priority,
            frontier_size: report.frontier_size,
            elapsed_micros: micros(report.elapsed),
            best_moves: report.best_moves,
            proof_forecast_ms: report.proof_forecast.map_or(0, |forecast| forecast.as_millis().max(1) as u64),
            replicas: report.replicas,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_survives_the_round_trip() {
        let board = Board::new(3, &[8, 1, 3, 4, 0, 2, 7, 6, 5]).expect("a valid board");
        let wire = proto::Board::from(&board);
        assert_eq!(board_from_proto(&wire, 128), Ok(board));
    }

    #[test]
    fn a_tile_too_large_for_u16_is_out_of_range() {
        let wire = proto::Board { dimension: 2, tiles: vec![1, 2, 70_000, 0] };
        assert_eq!(board_from_proto(&wire, 128), Err(BoardError::TileOutOfRange { tile: 70_000, position: 2, max: 3 }));
    }

    #[test]
    fn every_algorithm_and_heuristic_round_trips() {
        for algorithm in [Algorithm::Auto, Algorithm::AStar, Algorithm::IdaStar] {
            assert_eq!(Algorithm::from(proto::Algorithm::from(algorithm)), algorithm);
        }
        for heuristic in [
            Heuristic::Auto,
            Heuristic::Hamming,
            Heuristic::Manhattan,
            Heuristic::LinearConflict,
            Heuristic::PatternDatabase,
        ] {
            assert_eq!(Heuristic::from(proto::Heuristic::from(heuristic)), heuristic);
        }
        for optimality in [Optimality::Minimum, Optimality::Bounded, Optimality::Fast, Optimality::Anytime] {
            assert_eq!(Optimality::from(proto::Optimality::from(optimality)), optimality);
        }
        assert_eq!(Optimality::from(proto::Optimality::Unspecified), Optimality::Minimum);
    }

    #[test]
    fn a_zero_weight_is_unset_and_nan_is_kept_for_the_check() {
        assert_eq!(weight_from_proto(0.0), None);
        assert_eq!(weight_from_proto(1.5), Some(1.5));
        assert!(weight_from_proto(f64::NAN).is_some_and(f64::is_nan));
    }
}
