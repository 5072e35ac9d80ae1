//! Where pattern databases live between runs, and how a program gets them: load the cached
//! file if it checks out, else build the tables and write the file atomically (a temporary file
//! in the same directory, then a rename), so a crash or a concurrent builder never leaves a half
//! file under the real name. [`DatabaseSlot`] does this on a background thread, for a server
//! that must answer requests while the tables are still being built.
//!
//! The cache directory is `$NPUZZLE_CACHE_DIR`, else `$XDG_CACHE_HOME/npuzzle`, else
//! `~/.cache/npuzzle`.
//!
//! Costs, measured on a shared two-core machine with a release build:
//!
//! | partition | file | cold build | build peak | warm load | process RSS, loaded |
//! |---|---|---|---|---|---|
//! | 7-8 (the default) | 577 MB | 4 to 7 min (about 340 s CPU) | 3.6 GB | 0.5 s | 566 MB |
//! | 6-6-3 | 11.5 MB | 4 to 10 s | 50 MB | 0.02 s | 15 MB |
//! | 5×5 6-6-6-6 | 488 MB | about 205 s of CPU (372 s wall on two cores shared with a load of 11) | 2.05 GB | 0.8 to 2.2 s (loaded machine) | 480 MB; `npuzzle-server` with 6-6-3 as well, 494 MB |
//!
//! The 5×5 file holds two 25⁶-byte tables (the corner pattern and one 3×2 block, which serves
//! the other two blocks and every reflection), indexed directly; the entries whose cells repeat
//! are zero and never read (about half the bytes: the price of an index without a rank).
//!
//! A warm load reads the file and checks its checksum; a cold build is the breadth-first
//! search of `pdb_build` on every core. A server loads or builds its tables on a thread of its
//! own at startup and meanwhile solves 4×4 and 5×5 boards with IDA* and linear conflict.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::{env, fs, process, thread};

use super::build as pdb_build;
use super::error::PdbError;
use super::file::{self as pdb_file, FORMAT_VERSION};
use super::lookup::PatternDatabases;
use super::partition::Partition;

/// The cache directory: `$NPUZZLE_CACHE_DIR`, else `$XDG_CACHE_HOME/npuzzle`, else
/// `$HOME/.cache/npuzzle`.
pub fn default_cache_dir() -> Result<PathBuf, PdbError> {
    let from_env = |name| env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    from_env("NPUZZLE_CACHE_DIR")
        .or_else(|| from_env("XDG_CACHE_HOME").map(|dir| dir.join("npuzzle")))
        .or_else(|| from_env("HOME").map(|home| home.join(".cache").join("npuzzle")))
        .ok_or(PdbError::NoCacheDir)
}

/// The file name for `partition`, which names the pattern sizes, a digest of their tiles and the
/// format version, so different partitions and versions never share a file.
pub fn file_name(partition: &Partition) -> String {
    let digest = partition
        .patterns()
        .iter()
        .flat_map(|pattern| pattern.iter().copied().chain([0]))
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    let side = partition.dimension();
    format!("pdb-{side}x{side}-{}-{:08x}-v{FORMAT_VERSION}.bin", partition.sizes(), digest as u32)
}

impl PatternDatabases {
    /// Builds the tables of `partition` by breadth-first search (no file involved).
    pub fn build(partition: &Partition) -> Result<PatternDatabases, PdbError> {
        pdb_build::build(partition)
    }

    /// Reads the tables of `partition` from `path`, checking the whole file.
    pub fn load(path: &Path, partition: &Partition) -> Result<PatternDatabases, PdbError> {
        pdb_file::read(path, partition)
    }

    /// Writes the tables to `path` atomically: a temporary file beside it, then a rename.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        let io_error = |source| PdbError::Io { path: path.to_owned(), source };
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(io_error)?;
        }
        let temporary = path.with_extension(format!("tmp{}", process::id()));
        pdb_file::write(&temporary, self).and_then(|()| fs::rename(&temporary, path).map_err(io_error)).inspect_err(
            |_| {
                let _ = fs::remove_file(&temporary);
            },
        )
    }

    /// The default 4×4 (7-8) databases from `dir`, built and saved there first if the file is
    /// missing, corrupt or from another version.
    pub fn load_or_build(dir: &Path) -> Result<Arc<PatternDatabases>, PdbError> {
        PatternDatabases::load_or_build_partition(dir, &Partition::seven_eight())
    }

    /// [`PatternDatabases::load_or_build`] for any partition. A file that fails a check is
    /// logged and rebuilt, never trusted. If the rebuilt tables cannot be saved, they are still
    /// returned (and the failure logged): the caller can search now and the next run retries.
    pub fn load_or_build_partition(dir: &Path, partition: &Partition) -> Result<Arc<PatternDatabases>, PdbError> {
        let path = dir.join(file_name(partition));
        match PatternDatabases::load(&path, partition) {
            Ok(databases) => return Ok(Arc::new(databases)),
            Err(err) if err.is_missing() => tracing::info!(path = %path.display(), "building pattern databases"),
            Err(err) => tracing::warn!(error = %err, "rebuilding pattern databases"),
        }
        let databases = PatternDatabases::build(partition)?;
        if let Err(err) = databases.save(&path) {
            tracing::warn!(error = %err, "could not save the pattern databases; they will be rebuilt next time");
        }
        Ok(Arc::new(databases))
    }
}

/// Pattern databases that arrive later: empty until a background load or build finishes.
/// Clones share the slot. A server hands [`DatabaseSlot::get`] to each request's
/// [`Options`](crate::solver::Options), so requests run with linear conflict until the tables are ready
/// and with them afterwards.
#[derive(Debug, Clone, Default)]
pub struct DatabaseSlot(Arc<OnceLock<Arc<PatternDatabases>>>);

impl DatabaseSlot {
    /// An empty slot.
    pub fn new() -> DatabaseSlot {
        DatabaseSlot::default()
    }

    /// Starts [`PatternDatabases::load_or_build_partition`] on `dir` on a thread of its own and
    /// returns the slot it fills, with the thread's handle, which yields the outcome.
    pub fn spawn_load_or_build(
        dir: PathBuf,
        partition: Partition,
    ) -> (DatabaseSlot, thread::JoinHandle<Result<(), PdbError>>) {
        let slot = DatabaseSlot::new();
        let filler = slot.clone();
        let handle = thread::spawn(move || {
            let databases = PatternDatabases::load_or_build_partition(&dir, &partition)?;
            filler.fill(databases);
            Ok(())
        });
        (slot, handle)
    }

    /// Puts `databases` in the slot, unless it was filled already.
    pub fn fill(&self, databases: Arc<PatternDatabases>) {
        let _ = self.0.set(databases);
    }

    /// The databases, once they are ready.
    pub fn get(&self) -> Option<Arc<PatternDatabases>> {
        self.0.get().cloned()
    }
}
