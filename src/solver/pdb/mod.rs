//! Pattern databases: additive disjoint tables of exact pattern distances, and everything a
//! program needs to have them: the partition and its ranking, the breadth-first build, the
//! checksummed file mapped into memory, and the cache directory with load-or-build in the background.
//!
//! The modules read in one direction: each uses only those listed before it.
//!
//! - [`error`]: [`PdbError`], the typed errors of all of the below.
//! - [`cells`]: the grid's cells, the region a blank reaches (flood), the symmetries' cell maps.
//! - [`index`]: where a placement is found in a table: dense ranks (4×4), direct indices (5×5).
//! - [`regions`]: the blank's regions behind a 5×5 pattern's tiles, and the zero-aware read of a
//!   5×5 table (a distance per region of the blank).
//! - [`entry`]: how a 4×4 entry is stored in four bits, as its excess over Manhattan.
//! - [`symmetry`]: which symmetry lets one table serve several patterns.
//! - [`partition`]: which tiles form each pattern (4×4 or 5×5), and which have a table of their own.
//! - `huge_pages`: huge pages for the build's large arrays and for resident tables.
//! - `build`: the tables by breadth-first search over a pattern's abstract space.
//! - [`file`](mod@file): the versioned, checksummed file image of one partition's tables, mapped.
//! - `checked`: the record that a file passed its full check, so later loads skip it.
//! - [`tables`]: where loaded tables live, mapped or resident ([`TableMemory`]).
//! - `triples`: bounds from three disjoint patterns of different partitions of a catalogue.
//! - [`lookup`]: the tables wrapped with their views, and the
//!   [`Estimator`](super::heuristic::Estimator) that reads them, one type for each way tables
//!   are read ([`TableHeuristic`]; a search picks one with `with_heuristic!`).
//! - [`cache`]: the cache directory, load-or-build (build or file, then lookup's wrapper), and
//!   the staged load for a server (a quick stand-in first, then the strong tables).
//! - `lock`: one builder per table file, the others wait and load it.
//! - [`error`]: [`PdbError`], the typed errors of all of the above.

mod build;
pub mod cache;
pub mod cells;
mod checked;
pub mod entry;
pub mod error;
pub mod file;
mod huge_pages;
pub mod index;
mod lock;
pub mod lookup;
pub mod partition;
pub mod regions;
pub mod symmetry;
pub mod tables;
mod triples;

pub use cache::{cache_dir, default_cache_dir};
pub use error::PdbError;
pub(crate) use lookup::with_heuristic;
pub use lookup::{PatternDatabases, PatternHeuristic, TableHeuristic};
pub use partition::Partition;
pub use tables::TableMemory;
