//! Pattern databases: additive disjoint tables of exact pattern distances, and everything a
//! program needs to have them: the partition and its ranking, the breadth-first build, the
//! checksummed file, and the cache directory with load-or-build in the background.
//!
//! - [`partition`]: which tiles form each pattern (4×4 or 5×5), and which have a table of their own.
//! - [`index`]: where a placement is found in a table: dense ranks (4×4), direct indices (5×5).
//! - [`symmetry`]: the grid's symmetries, which let one table serve several patterns.
//! - [`entry`]: how a 4×4 entry is stored in four bits, as its excess over Manhattan.
//! - [`lookup`]: the loaded tables and the [`Estimator`](super::heuristic::Estimator) that reads them.
//! - `build`: the tables by breadth-first search over a pattern's abstract space.
//! - [`file`]: the versioned, checksummed file image of one partition's tables.
//! - [`cache`]: the cache directory, load-or-build, and [`DatabaseSlot`] for background loading
//!   (a quick stand-in first, upgraded when the strong tables are ready).
//! - `huge_pages`: huge pages for the build's large arrays.
//! - `lock`: one builder per table file, the others wait and load it.
//! - `background`: idle scheduling priority for builds that must not slow searches.
//! - [`error`]: [`PdbError`], the typed errors of all of the above.

mod background;
mod build;
pub mod cache;
pub mod entry;
pub mod error;
pub mod file;
mod huge_pages;
pub mod index;
mod lock;
pub mod lookup;
pub mod partition;
pub mod symmetry;

pub use cache::{DatabaseSlot, cache_dir, default_cache_dir};
pub use error::PdbError;
pub use lookup::{PatternDatabases, PatternHeuristic};
pub use partition::Partition;
