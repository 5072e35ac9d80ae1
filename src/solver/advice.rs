//! What to try when a search runs out of a budget: the one place that knows which methods
//! exist for which board size, so every error message names only methods the board can use.
//! The suggestions name the request's options in [`Words`]: the library's own here, and an
//! interface's own at its edge (the service's wire names), never another's.

use super::method::Plan;
use super::options::{Algorithm, Heuristic};
use super::pdb::partition::DIMENSIONS as PDB_DIMENSIONS;

/// How a message names the answers a caller may ask for instead of the minimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// An ANYTIME answer by a time limit, e.g. "optimality ANYTIME with a time limit".
    pub anytime: &'static str,
    /// A BOUNDED answer, e.g. "optimality BOUNDED".
    pub bounded: &'static str,
    /// A FAST answer, e.g. "optimality FAST".
    pub fast: &'static str,
}

/// The library's own words: [`Optimality`](super::Optimality)'s names and a time limit.
pub const LIBRARY_WORDS: Words =
    Words { anytime: "optimality ANYTIME with a time limit", bounded: "optimality BOUNDED", fast: "optimality FAST" };

/// IDA* with the pattern databases, by name.
const WITH_PATTERN_DATABASES: &str = "IDA* with pattern databases";

/// The strongest optimal method that exists for an N×N board (`dimension`) and is stronger
/// than `plan`, by name; `None` when `plan` is the strongest.
pub fn stronger_method(dimension: usize, plan: Plan) -> Option<&'static str> {
    if PDB_DIMENSIONS.contains(&dimension) && plan.heuristic != Heuristic::PatternDatabase {
        Some(WITH_PATTERN_DATABASES)
    } else if weaker_than_linear_conflict(plan) {
        Some("IDA* with linear conflict")
    } else {
        None
    }
}

/// Whether `plan` searches with less than linear conflict gives (A*, Hamming or Manhattan).
fn weaker_than_linear_conflict(plan: Plan) -> bool {
    plan.algorithm == Algorithm::AStar || matches!(plan.heuristic, Heuristic::Hamming | Heuristic::Manhattan)
}

/// The methods stronger than `plan` that exist for an N×N board (`dimension`), as the end of
/// an error message in `words`: "try …", or, when `plan` is already the strongest, what is
/// left to raise.
///
/// IDA* with linear conflict runs on any size and needs no memory; pattern databases exist for
/// 4×4 and 5×5 boards only; ANYTIME, BOUNDED and FAST answers exist for every size. ANYTIME
/// comes first among those: it answers by its time limit with the best path found and the
/// bound proven, which is what a caller who hit a limit usually wants.
pub fn stronger_methods(dimension: usize, plan: Plan, words: &Words) -> String {
    let mut methods = Vec::new();
    if stronger_method(dimension, plan) == Some(WITH_PATTERN_DATABASES) {
        methods.push("IDA* with pattern databases (algorithm idastar, heuristic pattern-database)");
    }
    if weaker_than_linear_conflict(plan) {
        methods.push("IDA* with linear conflict (algorithm idastar, heuristic linear-conflict), which needs no memory");
    }
    let exact = match methods.as_slice() {
        [] => format!("{plan} is the strongest optimal method for {dimension}x{dimension} boards: allow it more time"),
        _ => format!("try {}", methods.join(", or ")),
    };
    let Words { anytime, bounded, fast } = words;
    format!(
        "{exact}; or, when an answer with a proven bound will do, ask for {anytime} (the best solution found by \
         then, optimal if the proof finishes, else with the lower bound proven), {bounded} with a weight such as \
         1.5, or {fast}, which answers boards of every size at once"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::method::Method;

    fn plan(algorithm: Algorithm, heuristic: Heuristic) -> Plan {
        let method = if algorithm == Algorithm::AStar { Method::AStar } else { Method::IdaStar };
        Plan { algorithm, heuristic, method }
    }

    #[test]
    fn pattern_databases_are_suggested_for_four_and_five_only() {
        let astar = plan(Algorithm::AStar, Heuristic::Manhattan);
        let four = stronger_methods(4, astar, &LIBRARY_WORDS);
        assert!(four.contains("pattern databases") && four.contains("linear conflict"), "{four}");
        assert!(stronger_methods(5, astar, &LIBRARY_WORDS).contains("pattern databases"));
        for dimension in [3, 6, 20] {
            let other = stronger_methods(dimension, astar, &LIBRARY_WORDS);
            assert!(!other.contains("pattern"), "{other}");
            assert!(other.contains("IDA* with linear conflict"), "{other}");
        }
    }

    #[test]
    fn the_strongest_method_suggests_only_what_is_left() {
        let linear_conflict = plan(Algorithm::IdaStar, Heuristic::LinearConflict);
        let twenty = stronger_methods(20, linear_conflict, &LIBRARY_WORDS);
        assert!(
            twenty.contains("strongest optimal method for 20x20")
                && twenty.contains("optimality FAST")
                && !twenty.contains("try"),
            "{twenty}"
        );
        let four = stronger_methods(4, linear_conflict, &LIBRARY_WORDS);
        assert!(four.starts_with("try IDA* with pattern databases") && !four.contains("linear-conflict"), "{four}");
        assert!(four.contains("optimality ANYTIME with a time limit"), "{four}");
        let databases = stronger_methods(4, plan(Algorithm::IdaStar, Heuristic::PatternDatabase), &LIBRARY_WORDS);
        assert!(databases.contains("strongest"), "{databases}");
    }
}
