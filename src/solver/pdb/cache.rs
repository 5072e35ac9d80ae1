//! Where pattern databases live between runs, and how a program gets them: load the cached
//! file if it checks out, else build the tables and write the file atomically (a temporary file
//! in the same directory, then a rename), so a crash never leaves a half file under the real
//! name. One builder per file: a builder holds the file's lock (see `lock`) and everyone else
//! who wants that file waits for it and loads it.
//!
//! The cache directory is `$NPUZZLE_CACHE_DIR`, else `$XDG_CACHE_HOME/npuzzle`, else
//! `~/.cache/npuzzle`. A warm load maps the file and checks its header and size, and its
//! checksum the first time (see `checked`); a cold build is the breadth-first search of
//! `pdb_build` on every core.
//!
//! Cold start: [`load_in_stages`] serves a quick stand-in first (6-6-3, seconds to build, for
//! 7-8; a 5×5 catalogue's first half when its file is cached) and then builds the strong tables
//! at idle priority (see `background`), so the build takes only the CPU that searches leave.
//! What each file costs to build and hold: `docs/performance.md`, "Pattern-database files (from
//! `solver::pdb::cache`)".

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime};
use std::{env, fs, process};

use super::build as pdb_build;
use super::checked;
use super::error::PdbError;
use super::file::{self as pdb_file, format_version};
use super::lock::{BuildLock, lock_path};
use super::lookup::PatternDatabases;
use super::partition::Partition;
use super::tables::{TableMemory, Tables};
use crate::solver::background::yield_to_searches;

/// The cache directory: `$NPUZZLE_CACHE_DIR`, else `$XDG_CACHE_HOME/npuzzle`, else
/// `$HOME/.cache/npuzzle`.
pub fn default_cache_dir() -> Result<PathBuf, PdbError> {
    let from_env = |name| env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    from_env("NPUZZLE_CACHE_DIR")
        .or_else(|| from_env("XDG_CACHE_HOME").map(|dir| dir.join("npuzzle")))
        .or_else(|| from_env("HOME").map(|home| home.join(".cache").join("npuzzle")))
        .ok_or(PdbError::NoCacheDir)
}

/// The cache directory a program uses: `chosen` (its `--cache-dir` flag) when given, else
/// [`default_cache_dir`]. Every binary resolves its flag here, so they all agree on the default.
pub fn cache_dir(chosen: Option<&Path>) -> Result<PathBuf, PdbError> {
    chosen.map_or_else(default_cache_dir, |dir| Ok(dir.to_path_buf()))
}

/// The file name for `partition`, which names the pattern sizes, a digest of their tiles and the
/// format version, so different partitions and versions never share a file.
pub fn file_name(partition: &Partition) -> String {
    versioned_file_name(partition, format_version(partition.dimension()))
}

/// [`file_name`] in format `version`.
fn versioned_file_name(partition: &Partition, version: u32) -> String {
    let digest = partition
        .patterns()
        .iter()
        .flat_map(|pattern| pattern.iter().copied().chain([0]))
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    let side = partition.dimension();
    format!("pdb-{side}x{side}-{}-{:08x}-v{version}.bin", partition.sizes(), digest as u32)
}

/// Removes what older format versions left in `dir` for `partition` (their files, check records
/// and locks), once this version's file is saved: nothing reads them any more, and a 5×5 file
/// takes a gigabyte. A process that still maps one keeps its pages until it unmaps it.
fn remove_older_versions(dir: &Path, partition: &Partition) {
    for version in 1..format_version(partition.dimension()) {
        let old = dir.join(versioned_file_name(partition, version));
        for path in [checked::record_path(&old), lock_path(&old), old] {
            match fs::remove_file(&path) {
                Ok(()) => tracing::info!(path = %path.display(), "removed a file of an older table format"),
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => tracing::warn!(%error, path = %path.display(), "cannot remove an older table file"),
            }
        }
    }
}

impl PatternDatabases {
    /// Builds the tables of `partition` by breadth-first search (no file involved).
    pub fn build(partition: &Partition) -> Result<PatternDatabases, PdbError> {
        PatternDatabases::from_tables(partition.clone(), pdb_build::build(partition)?)
    }

    /// Maps the tables of `partition` from `path` (see [`PatternDatabases::load_as`]).
    pub fn load(path: &Path, partition: &Partition) -> Result<PatternDatabases, PdbError> {
        PatternDatabases::load_as(path, partition, TableMemory::Mapped)
    }

    /// The tables of `partition` from `path`, held as `memory` says. The header and size are
    /// always checked; the checksum, which reads the whole file, only when no record says this
    /// very file passed it before (see `checked`), and a pass is then recorded.
    pub fn load_as(path: &Path, partition: &Partition, memory: TableMemory) -> Result<PatternDatabases, PdbError> {
        PatternDatabases::open(path, partition, memory, Check::Recorded)
    }

    /// The tables from `path`, checked in full when `check` says so or no record vouches for
    /// the file.
    fn open(
        path: &Path,
        partition: &Partition,
        memory: TableMemory,
        check: Check,
    ) -> Result<PatternDatabases, PdbError> {
        let image = pdb_file::open(path, partition)?;
        if check == Check::Full || !checked::vouches_for(&image) {
            image.verify()?;
            if let Err(error) = checked::record(&image, SystemTime::now()) {
                tracing::debug!(%error, path = %path.display(), "cannot record the check; the next load checks again");
            }
        }
        PatternDatabases::from_storage(partition.clone(), Tables::from_image(image, memory))
    }

    /// Writes the tables to `path` atomically: a temporary file beside it, then a rename.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        let io_error = |source| PdbError::Io { path: path.to_owned(), source };
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(io_error)?;
        }
        let temporary = path.with_extension(format!("tmp{}", process::id()));
        checked::forget(path);
        pdb_file::write(&temporary, self.partition(), &self.tables())
            .and_then(|()| fs::rename(&temporary, path).map_err(io_error))
            .inspect_err(|_| {
                let _ = fs::remove_file(&temporary);
            })
    }

    /// The default 4×4 (7-8) databases from `dir`, built and saved there first if the file is
    /// missing, corrupt or from another version.
    pub fn load_or_build(dir: &Path) -> Result<Arc<PatternDatabases>, PdbError> {
        PatternDatabases::load_or_build_partition(dir, &Partition::seven_eight())
    }

    /// [`PatternDatabases::load_or_build`] for any partition. A file that fails a check is
    /// logged and rebuilt, never trusted. While another builder (another process, or another
    /// thread) holds the file's lock, this waits for it and loads what it wrote. If the rebuilt
    /// tables cannot be saved, they are still returned (and the failure logged): the caller can
    /// search now and the next run retries.
    pub fn load_or_build_partition(dir: &Path, partition: &Partition) -> Result<Arc<PatternDatabases>, PdbError> {
        PatternDatabases::load_or_build_as(dir, partition, TableMemory::Mapped)
    }

    /// [`PatternDatabases::load_or_build_partition`], a loaded file held as `memory` says.
    pub fn load_or_build_as(
        dir: &Path,
        partition: &Partition,
        memory: TableMemory,
    ) -> Result<Arc<PatternDatabases>, PdbError> {
        let (databases, saved) = obtain(dir, partition, memory, Check::Recorded)?;
        if let Err(err) = saved {
            tracing::warn!(error = %err, "could not save the pattern databases; they will be rebuilt next time");
        }
        Ok(Arc::new(databases))
    }

    /// Makes sure `dir` holds a good file for `partition`: checks the whole file (whatever a
    /// record says), or builds and saves it. What a deploy step runs (`npuzzle-server
    /// --prepare`): unlike [`PatternDatabases::load_or_build_partition`], a file that could not
    /// be saved is an error. Returns the file's path.
    pub fn prepare(dir: &Path, partition: &Partition) -> Result<PathBuf, PdbError> {
        let (_databases, saved) = obtain(dir, partition, TableMemory::Mapped, Check::Full)?;
        saved.map(|()| dir.join(file_name(partition)))
    }
}

/// The tables of `partition` from `dir`'s file if it checks out, else built (by this caller,
/// holding the file's lock, unless another builder wrote the file meanwhile), with the outcome
/// of saving them (`Ok` when they came from the file).
fn obtain(
    dir: &Path,
    partition: &Partition,
    memory: TableMemory,
    check: Check,
) -> Result<(PatternDatabases, Result<(), PdbError>), PdbError> {
    let path = dir.join(file_name(partition));
    if let Some(databases) = cached(&path, partition, memory, check) {
        return Ok((databases, Ok(())));
    }
    let _lock = BuildLock::acquire(&path)?;
    if let Some(databases) = cached(&path, partition, memory, check) {
        return Ok((databases, Ok(())));
    }
    tracing::info!(path = %path.display(), partition = %partition.sizes(), "building pattern databases");
    let databases = PatternDatabases::build(partition)?;
    let saved = databases.save(&path);
    if saved.is_ok() {
        remove_older_versions(dir, partition);
    }
    Ok((databases, saved))
}

/// The tables from `path`, if the file is there and checks out; a file that fails a check is
/// logged, to be rebuilt.
fn cached(path: &Path, partition: &Partition, memory: TableMemory, check: Check) -> Option<PatternDatabases> {
    match PatternDatabases::open(path, partition, memory, check) {
        Ok(databases) => Some(databases),
        Err(err) if err.is_missing() => None,
        Err(err) => {
            tracing::warn!(error = %err, "rebuilding pattern databases");
            None
        }
    }
}

/// How much of a file a load checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// The header and size, and the checksum unless a record vouches for the file.
    Recorded,
    /// The header, size and checksum, whatever a record says.
    Full,
}

/// Tables to serve with while stronger ones are built.
struct StandIn {
    partition: Partition,
    /// Whether to build it when its file is missing (it takes seconds), or only to load it.
    build: bool,
}

/// The tables to serve with while `partition` is built, if it is worth some: 6-6-3 (seconds to
/// build) for 7-8 (minutes); for a 5×5 catalogue, the one before it (its first half, or Korf &
/// Felner's 6-6-6-6, its first group) when that file is already there, as on a server that
/// served with it before.
fn stand_in(partition: &Partition) -> Option<StandIn> {
    let load = |partition| Some(StandIn { partition, build: false });
    if *partition == Partition::seven_eight() {
        Some(StandIn { partition: Partition::six_six_three(), build: true })
    } else if *partition == Partition::catalogue_of_four() {
        load(Partition::catalogue_of_two())
    } else if *partition == Partition::catalogue_of_two() {
        load(Partition::six_six_six_six())
    } else {
        None
    }
}

/// What [`load_in_stages`] tells its owner as it goes: a server's slot fills itself, logs and
/// sets its readiness metric from these.
pub trait StagedLoad {
    /// The tables of `partition` are on their way: loaded or built next.
    fn pending(&self, partition: &Partition);
    /// Tables are ready (a stand-in's, then the partition's own), `started` after the load began.
    fn ready(&self, databases: Arc<PatternDatabases>, started: Instant);
    /// No quick tables are coming (a 5×5 build takes minutes): a request should not wait.
    fn nothing_quick(&self);
}

/// Tables up to this size build in seconds (6-6-3: 5.8 MB), so an early request may wait for
/// them; for larger ones with no stand-in it searches without them at once.
const QUICK_BUILD_BYTES: usize = 64 << 20;

/// `partition`'s tables from `dir`'s file, else a quicker stand-in first (6-6-3 for 7-8, a
/// catalogue's first half when cached) and then `partition` built at idle priority: each step
/// is handed to `to`. A stand-in that fails is logged and skipped; the partition's own failure
/// is the error.
pub fn load_in_stages(
    dir: &Path,
    partition: &Partition,
    memory: TableMemory,
    to: &dyn StagedLoad,
) -> Result<(), PdbError> {
    load_stages(dir, stand_in(partition), partition, memory, to)
}

/// [`load_in_stages`] with the stand-in given.
fn load_stages(
    dir: &Path,
    quick: Option<StandIn>,
    partition: &Partition,
    memory: TableMemory,
    to: &dyn StagedLoad,
) -> Result<(), PdbError> {
    let started = Instant::now();
    to.pending(partition);
    if let Some(databases) = cached(&dir.join(file_name(partition)), partition, memory, Check::Recorded) {
        to.ready(Arc::new(databases), started);
        return Ok(());
    }
    let stand_in = match &quick {
        Some(StandIn { partition: quick, build: true }) => {
            to.pending(quick);
            match PatternDatabases::load_or_build_as(dir, quick, memory) {
                Ok(databases) => Some(databases),
                Err(error) => {
                    tracing::warn!(%error, partition = %quick.sizes(), "no stand-in pattern databases");
                    None
                }
            }
        }
        Some(StandIn { partition: quick, build: false }) => {
            cached(&dir.join(file_name(quick)), quick, memory, Check::Recorded).map(Arc::new)
        }
        None => None,
    };
    match stand_in {
        Some(databases) => to.ready(databases, started),
        None if quick.is_some() || partition.table_bytes() > QUICK_BUILD_BYTES => to.nothing_quick(),
        None => {}
    }
    if !yield_to_searches() {
        tracing::warn!("cannot lower the build's priority: it competes with searches for the CPU");
    }
    let databases = PatternDatabases::load_or_build_as(dir, partition, memory)?;
    to.ready(databases, started);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::thread;
    use std::time::Duration;

    use super::*;
    use crate::solver::pdb::partition::samples::{small, tiny};

    /// Keeps the last tables a staged load hands it.
    #[derive(Default)]
    struct Held(std::sync::Mutex<Option<Arc<PatternDatabases>>>);

    impl StagedLoad for Held {
        fn pending(&self, _: &Partition) {}

        fn ready(&self, databases: Arc<PatternDatabases>, _: Instant) {
            *self.0.lock().expect("not poisoned") = Some(databases);
        }

        fn nothing_quick(&self) {}
    }

    fn held(slot: &Held) -> Option<String> {
        slot.0.lock().expect("not poisoned").as_ref().map(|databases| databases.partition().sizes())
    }

    #[test]
    fn a_build_removes_what_older_versions_left_for_its_partition() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let five =
            Partition::for_dimension(5, (0..8u8).map(|first| (3 * first + 1..=3 * first + 3).collect()).collect())
                .expect("a 5x5 partition");
        assert_eq!(format_version(5), 3);
        let older: Vec<PathBuf> = (1..3).map(|version| dir.path().join(versioned_file_name(&five, version))).collect();
        let other = dir.path().join(versioned_file_name(&small(), 1));
        for path in older.iter().chain([&other]) {
            fs::write(path, b"old").expect("written");
            fs::write(checked::record_path(path), b"old").expect("written");
        }
        PatternDatabases::load_or_build_partition(dir.path(), &five).expect("built");
        assert!(dir.path().join(file_name(&five)).is_file());
        for path in &older {
            assert!(!path.exists() && !checked::record_path(path).exists(), "{} is left", path.display());
        }
        assert!(other.is_file(), "another partition's file is not this build's to remove");
    }

    #[test]
    fn a_cold_cache_gets_the_stand_in_first_then_the_strong_tables() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let slot = Held::default();
        let quick = StandIn { partition: tiny(), build: true };
        load_stages(dir.path(), Some(quick), &small(), TableMemory::Mapped, &slot).expect("both stages");
        assert_eq!(held(&slot).as_deref(), Some("5-5-5"));
        assert!(dir.path().join(file_name(&tiny())).is_file(), "the stand-in was not cached");
        assert!(dir.path().join(file_name(&small())).is_file(), "the strong tables were not cached");
    }

    #[test]
    fn a_warm_cache_loads_the_strong_tables_without_the_stand_in() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        PatternDatabases::prepare(dir.path(), &small()).expect("prepared tables");
        let slot = Held::default();
        let quick = StandIn { partition: tiny(), build: true };
        load_stages(dir.path(), Some(quick), &small(), TableMemory::Resident, &slot).expect("a load");
        assert_eq!(held(&slot).as_deref(), Some("5-5-5"));
        assert!(!dir.path().join(file_name(&tiny())).exists(), "the stand-in was built although not needed");
    }

    #[test]
    fn each_catalogue_stands_in_for_the_one_after_it_and_is_only_loaded() {
        let of = |partition: &Partition| stand_in(partition).map(|quick| (quick.partition, quick.build));
        assert_eq!(of(&Partition::seven_eight()), Some((Partition::six_six_three(), true)));
        assert_eq!(of(&Partition::catalogue_of_four()), Some((Partition::catalogue_of_two(), false)));
        assert_eq!(of(&Partition::catalogue_of_two()), Some((Partition::six_six_six_six(), false)));
        assert_eq!(of(&Partition::six_six_six_six()), None);
    }

    #[test]
    fn a_stand_in_that_is_only_loaded_serves_when_its_file_is_there_and_is_never_built() {
        for cached in [false, true] {
            let dir = tempfile::tempdir().expect("a temporary directory");
            if cached {
                PatternDatabases::prepare(dir.path(), &tiny()).expect("the stand-in's file");
            }
            // Holding the strong tables' lock keeps the loader before their build.
            let lock = BuildLock::acquire(&dir.path().join(file_name(&small()))).expect("the lock");
            let slot = Arc::new(Held::default());
            let loader = {
                let (slot, dir) = (Arc::clone(&slot), dir.path().to_owned());
                let quick = StandIn { partition: tiny(), build: false };
                thread::spawn(move || load_stages(&dir, Some(quick), &small(), TableMemory::Mapped, slot.as_ref()))
            };
            if cached {
                let deadline = Instant::now() + Duration::from_secs(30);
                while held(&slot).is_none() {
                    assert!(Instant::now() < deadline, "the cached stand-in never served");
                    thread::sleep(Duration::from_millis(10));
                }
            } else {
                thread::sleep(Duration::from_millis(200));
            }
            assert_eq!(held(&slot).as_deref(), cached.then_some("4-4-4-3"), "cached: {cached}");
            drop(lock);
            loader.join().expect("the loader thread").expect("the strong tables");
            assert_eq!(held(&slot).as_deref(), Some("5-5-5"));
            assert_eq!(dir.path().join(file_name(&tiny())).exists(), cached, "the stand-in was built");
        }
    }

    #[test]
    fn a_waiting_builder_loads_the_file_the_lock_holder_wrote() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join(file_name(&tiny()));
        let holder = BuildLock::acquire(&path).expect("the lock");
        let waiting_dir = dir.path().to_owned();
        let waiter = thread::spawn(move || PatternDatabases::load_or_build_partition(&waiting_dir, &tiny()));
        thread::sleep(std::time::Duration::from_millis(200));
        assert!(!waiter.is_finished(), "the second builder did not wait for the lock");
        PatternDatabases::build(&tiny()).expect("tiny tables").save(&path).expect("saved tables");
        let written = fs::metadata(&path).and_then(|meta| meta.modified()).expect("the file's time");
        drop(holder);
        let loaded = waiter.join().expect("the waiting thread").expect("tables");
        assert_eq!(loaded.partition(), &tiny());
        let after = fs::metadata(&path).and_then(|meta| meta.modified()).expect("the file's time");
        assert_eq!(written, after, "the waiting builder wrote the file again instead of loading it");
    }

    #[test]
    fn prepare_rebuilds_a_corrupt_file_and_fails_when_it_cannot_save() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join(file_name(&tiny()));
        fs::write(&path, b"not tables").expect("a corrupt file");
        assert_eq!(PatternDatabases::prepare(dir.path(), &tiny()).expect("a rebuild"), path);
        PatternDatabases::load(&path, &tiny()).expect("a good file now");

        let blocked = dir.path().join("a file, not a directory");
        fs::write(&blocked, b"").expect("a plain file");
        let error = PatternDatabases::prepare(&blocked, &tiny()).expect_err("no directory to save in");
        assert!(matches!(error, PdbError::Io { .. }), "{error}");
    }
}
