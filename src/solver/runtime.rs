//! A [`Solver`]: what its searches may use besides the request, the loaded pattern databases
//! and the cores a long search may borrow. The request itself is [`Options`]; a server makes a
//! solver for each request from the tables loaded when it starts and the cores no request holds.

use std::sync::Arc;

use super::helper_threads::Helpers;
#[cfg(doc)]
use super::options::{Heuristic, Options};
use super::pdb::PatternDatabases;

/// Solves boards with the tables and cores it was given (none by default): see
/// [`Solver::solve`] and [`Solver::plan`].
#[derive(Debug, Clone, Default)]
pub struct Solver {
    pattern_databases: Vec<Arc<PatternDatabases>>,
    helpers: Helpers,
}

impl Solver {
    /// A solver with no pattern databases and no helper threads.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// This solver with `pattern_databases` loaded, at most one set per board side (4×4 and
    /// 5×5; see [`PatternDatabases::load_or_build_partition`]). With the set for a board's
    /// size, `Auto` solves it with IDA* and the databases; without, with IDA* and linear
    /// conflict, and an explicit [`Heuristic::PatternDatabase`] is refused as not loaded.
    pub fn with_pattern_databases(self, pattern_databases: Vec<Arc<PatternDatabases>>) -> Solver {
        Solver { pattern_databases, ..self }
    }

    /// This solver with `helpers`: threads a long search may run beside the caller's, and
    /// where their cores come from ([`Helpers::lent`] in a server).
    pub fn with_helpers(self, helpers: Helpers) -> Solver {
        Solver { helpers, ..self }
    }

    /// The loaded pattern databases for boards of side `dimension`, if any.
    pub fn pattern_databases_for(&self, dimension: usize) -> Option<&PatternDatabases> {
        self.pattern_databases.iter().map(Arc::as_ref).find(|databases| databases.dimension() == dimension)
    }

    /// The helper threads a search may start.
    pub fn helpers(&self) -> &Helpers {
        &self.helpers
    }
}
