//! [`Solver::plan`]: the method a request gets for a board, `Auto` resolved and every
//! combination that cannot run refused, before any search starts.

use super::error::SearchError;
use super::method::{DISTANCE_TABLE_DIMENSION, Method, Plan};
use super::options::{Algorithm, Heuristic, MAX_WEIGHT, Optimality, Options};
use super::pdb;
use super::runtime::Solver;

/// The smallest side on which MINIMUM finds a FAST path before its IDA*: the length is then
/// reported as the best known while the search runs, and ends it once the bound reaches it
/// (`search::minimum`). Smaller boards are solved in less time than that path takes.
pub const BEST_KNOWN_FROM: usize = 5;

impl Solver {
    /// Resolves `Auto` for a board of side `dimension` and picks the [`Method`], refusing
    /// combinations that cannot run.
    ///
    /// A 3×3 board is answered from its complete table of distances (microseconds) whenever
    /// the request leaves the method to the solver. For [`Optimality::Minimum`], `Auto` picks
    /// A* with Manhattan for 2×2; IDA* with the pattern databases for 4×4 and 5×5 when this
    /// solver holds them for that size, else IDA* with linear conflict (a hard 4×4 then takes
    /// seconds to minutes instead of milliseconds, and a random 5×5 is out of reach); IDA* with
    /// linear conflict for 6×6 and up, from 5×5 up after a FAST path ([`Method::Minimum`]).
    /// Asking for linear conflict or pattern databases with `Auto` as the algorithm gets IDA*,
    /// the only search that has them. [`Optimality::Bounded`] runs weighted IDA* with the
    /// heuristic IDA* would take; [`Optimality::Fast`] and [`Optimality::Anytime`] pick their
    /// own searches (both `Auto`).
    pub fn plan(&self, dimension: usize, options: &Options) -> Result<Plan, SearchError> {
        check_optimality(options)?;
        let auto = options.algorithm == Algorithm::Auto && options.heuristic == Heuristic::Auto;
        let own_methods = |method| Ok(Plan { algorithm: Algorithm::Auto, heuristic: Heuristic::Auto, method });
        match options.optimality {
            _ if dimension == DISTANCE_TABLE_DIMENSION && auto && options.optimality != Optimality::Bounded => {
                return own_methods(Method::DistanceTable);
            }
            Optimality::Fast => return own_methods(Method::Fast),
            Optimality::Anytime => return own_methods(Method::Anytime),
            Optimality::Minimum | Optimality::Bounded => {}
        }
        let has_databases = self.pattern_databases_for(dimension).is_some();
        let algorithm = match (options.algorithm, options.heuristic) {
            (Algorithm::Auto, _) if options.optimality == Optimality::Bounded => Algorithm::IdaStar,
            (Algorithm::Auto, Heuristic::LinearConflict | Heuristic::PatternDatabase) => Algorithm::IdaStar,
            (Algorithm::Auto, _) if dimension <= 3 => Algorithm::AStar,
            (Algorithm::Auto, _) => Algorithm::IdaStar,
            (chosen, _) => chosen,
        };
        let heuristic = match (algorithm, options.heuristic) {
            (Algorithm::IdaStar, Heuristic::Auto) if has_databases => Heuristic::PatternDatabase,
            (Algorithm::IdaStar, Heuristic::Auto) => Heuristic::LinearConflict,
            (_, Heuristic::Auto) => Heuristic::Manhattan,
            (_, chosen) => chosen,
        };
        let method = match (algorithm, options.optimality) {
            (Algorithm::AStar, _) => Method::AStar,
            (_, Optimality::Bounded) => Method::WeightedIdaStar,
            _ if dimension >= BEST_KNOWN_FROM => Method::Minimum,
            _ => Method::IdaStar,
        };
        let unsupported =
            |reason: &str| Err(SearchError::Unsupported { algorithm, heuristic, dimension, reason: reason.into() });
        match (algorithm, heuristic) {
            (Algorithm::AStar, _) if options.optimality == Optimality::Bounded => Err(SearchError::InvalidOptions {
                option: "algorithm",
                reason: "optimality BOUNDED runs weighted IDA*: leave the algorithm unset or ask for IDA*".into(),
            }),
            (Algorithm::AStar, Heuristic::Hamming | Heuristic::Manhattan) => Ok(Plan { algorithm, heuristic, method }),
            (Algorithm::AStar, _) => unsupported("A* runs with the Hamming or Manhattan heuristic"),
            (Algorithm::IdaStar, Heuristic::PatternDatabase) if !pdb::partition::DIMENSIONS.contains(&dimension) => {
                unsupported("pattern databases are built for 4x4 and 5x5 boards only")
            }
            (Algorithm::IdaStar, Heuristic::PatternDatabase) if !has_databases => {
                Err(SearchError::PatternDatabasesNotLoaded)
            }
            _ => Ok(Plan { algorithm, heuristic, method }),
        }
    }
}

/// Refuses a weight outside BOUNDED, BOUNDED without a usable weight, and FAST with a method.
fn check_optimality(options: &Options) -> Result<(), SearchError> {
    let invalid = |option, reason: String| Err(SearchError::InvalidOptions { option, reason });
    match (options.optimality, options.weight) {
        (Optimality::Anytime, Some(weight)) => {
            invalid("weight", format!("weight {weight} is only for optimality BOUNDED; leave it unset for ANYTIME"))
        }
        (Optimality::Anytime, None) if options.algorithm != Algorithm::Auto || options.heuristic != Heuristic::Auto => {
            invalid(
                "optimality",
                "optimality ANYTIME picks its own methods: leave the algorithm and heuristic unset".into(),
            )
        }
        (Optimality::Bounded, None) => {
            invalid("weight", "optimality BOUNDED needs a weight above 1, such as 1.1, 1.5 or 2".into())
        }
        (Optimality::Bounded, Some(weight)) if !(weight > 1.0 && weight <= MAX_WEIGHT) => invalid(
            "weight",
            format!(
                "weight {weight} is out of range: BOUNDED needs a weight above 1 and at most {MAX_WEIGHT}, such as 1.5"
            ),
        ),
        (Optimality::Minimum | Optimality::Fast, Some(weight)) => invalid(
            "weight",
            format!(
                "weight {weight} is only for optimality BOUNDED; leave it unset for {}",
                options.optimality.to_string().to_uppercase()
            ),
        ),
        (Optimality::Fast, None) if options.algorithm != Algorithm::Auto || options.heuristic != Heuristic::Auto => {
            invalid(
                "optimality",
                "optimality FAST picks its own methods: leave the algorithm and heuristic unset".into(),
            )
        }
        _ => Ok(()),
    }
}

/// Whether a search for a board of dimension `dimension` with this algorithm and heuristic
/// would read pattern databases, so a program loads them (288 MB for 4×4's 7-8, 702 MB for
/// 5×5's 6-6-6-6 twice) only when they serve.
pub fn wants_pattern_databases(dimension: usize, algorithm: Algorithm, heuristic: Heuristic) -> bool {
    pdb::partition::DIMENSIONS.contains(&dimension)
        && matches!(algorithm, Algorithm::Auto | Algorithm::IdaStar)
        && matches!(heuristic, Heuristic::Auto | Heuristic::PatternDatabase)
}
