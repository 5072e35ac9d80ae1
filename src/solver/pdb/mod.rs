//! Pattern databases: additive disjoint tables of exact pattern distances, and everything a
//! program needs to have them: the partition and its ranking, the breadth-first build, the
//! checksummed file, and the cache directory with load-or-build in the background.
//!
//! - [`partition`]: which tiles form each pattern, and the rank that indexes a pattern's table.
//! - [`lookup`]: the loaded tables and the [`Estimator`](super::heuristic::Estimator) that reads them.
//! - `build`: the tables by breadth-first search over a pattern's abstract space.
//! - [`file`]: the versioned, checksummed file image of one partition's tables.
//! - [`cache`]: the cache directory, load-or-build, and [`DatabaseSlot`] for background loading.
//! - [`error`]: [`PdbError`], the typed errors of all of the above.

mod build;
pub mod cache;
pub mod error;
pub mod file;
pub mod lookup;
pub mod partition;

pub use cache::{DatabaseSlot, cache_dir, default_cache_dir};
pub use error::PdbError;
pub use lookup::{PatternDatabases, PatternHeuristic};
pub use partition::Partition;
