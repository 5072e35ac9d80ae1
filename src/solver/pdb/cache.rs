//! Where pattern databases live between runs, and how a program gets them: load the cached
//! file if it checks out, else build the tables and write the file atomically (a temporary file
//! in the same directory, then a rename), so a crash never leaves a half file under the real
//! name. One builder per file: a builder holds the file's lock (see `lock`) and everyone else
//! who wants that file waits for it and loads it. [`DatabaseSlot`] does this on a background
//! thread, for a server that must answer requests while the tables are still being built.
//!
//! The cache directory is `$NPUZZLE_CACHE_DIR`, else `$XDG_CACHE_HOME/npuzzle`, else
//! `~/.cache/npuzzle`.
//!
//! Costs, measured on a two-core machine with a release build:
//!
//! | partition | file | cold build | build peak | warm load | process RSS, loaded |
//! |---|---|---|---|---|---|
//! | 7-8 (the default) | 288 MB | 108 s on two quiet cores, 203 s of CPU (184 s on two cores shared with a load of about 3.5) | 1.27 GB | milliseconds mapped, 0.38 s the first time (the full checksum) | 286 MB |
//! | 6-6-3 | 5.8 MB | 3.6 s of CPU (3.6 s wall, loaded machine) | 33 MB | 0.02 to 0.14 s | 9.5 MB |
//! | 5×5 6-6-6-6 (zero-aware) | 351 MB | 60 s of CPU, 48 s wall (a byte an entry then: 596 MB) | 1.59 GB (then) | milliseconds mapped | |
//! | 5×5 6-6-6-6 twice | 702 MB | 97 s of CPU, 53 s wall | 1.69 GB | milliseconds mapped | see the README |
//! | 5×5 6-6-6-6 four times (the default) | 1.40 GB | 253 s of CPU, 132 s wall | 2.38 GB | milliseconds mapped | see the README |
//!
//! Every file holds its tables at four bits an entry (see `entry`). The 7-8 file holds the
//! 8-tile and the 7-tile tables. A 5×5 6-6-6-6 file holds two 176 MB tables (the corner pattern
//! and one 3×2 block, which serves the other two blocks and every reflection); the catalogue of
//! two adds two (its second partition's patterns by the blank's corner), and the catalogue of
//! four four more (the patterns of its last two partitions that no table before serves). Each
//! table is 25⁶ entries indexed directly (122 MB), whose entries with repeated cells are zero
//! and never read (about half of them: the price of an index without a rank), then the 53.5 MB
//! of the blank's pockets, a byte an entry (see [`regions`](super::regions)).
//!
//! A warm load maps the file and checks its header and size, and its checksum the first time
//! (see `checked`); a cold build is the breadth-first search of `pdb_build` on every core. The 5×5 tables load or build on a thread of their own
//! after the 4×4 ones; until they are ready, 5×5 boards use the catalogue of two (or, for that
//! one, Korf & Felner's 6-6-6-6) if its file is cached already, else IDA* with linear conflict.
//!
//! Cold start: a server runs [`DatabaseSlot::spawn_load_or_build`] at startup. When 7-8 is not
//! cached, it first loads or builds the 6-6-3 tables (seconds) and serves with them, then builds
//! 7-8 at idle scheduling priority (see `background`), so the build only takes CPU time that
//! searches leave, and switches to 7-8 when they are ready. Every 4×4 board is answered with a
//! pattern database from the first seconds; requests take the best tables loaded when they start.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use std::{env, fs, process, thread};

use tokio::sync::watch;

use super::build as pdb_build;
use super::checked;
use super::error::PdbError;
use super::file::{self as pdb_file, format_version};
use super::lock::{BuildLock, lock_path};
use super::lookup::PatternDatabases;
use super::partition::Partition;
use super::tables::{TableMemory, Tables};
use crate::metrics;
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
    } else if *partition == Partition::six_six_six_six_four_times() {
        load(Partition::six_six_six_six_twice())
    } else if *partition == Partition::six_six_six_six_twice() {
        load(Partition::six_six_six_six())
    } else {
        None
    }
}

/// Pattern databases that arrive, and improve, later: empty until a background load or build
/// finishes, then upgraded in place when stronger tables are ready. Clones share the slot. A
/// server hands [`DatabaseSlot::get`] (or [`DatabaseSlot::first`]) to each request's
/// [`Options`](crate::solver::Options), so a request searches with the best tables loaded when
/// it starts, and keeps them (an `Arc`) until it ends, however the slot changes meanwhile.
#[derive(Debug, Clone, Default)]
pub struct DatabaseSlot(Arc<watch::Sender<Loaded>>);

/// Tables up to this size build in seconds (6-6-3: 5.8 MB), so an early request waits for them
/// ([`DatabaseSlot::first`]); for larger ones with no stand-in it searches without them at once.
const QUICK_BUILD_BYTES: usize = 64 << 20;

/// What a slot holds: the best tables so far, whether a loader is still at work, and the board
/// side its tables are for (known once a loader is started).
#[derive(Debug, Default)]
struct Loaded {
    databases: Option<Arc<PatternDatabases>>,
    loading: bool,
    dimension: Option<usize>,
}

impl DatabaseSlot {
    /// An empty slot.
    pub fn new() -> DatabaseSlot {
        DatabaseSlot::default()
    }

    /// Fills the slot with `partition`'s tables from `dir` (a file mapped) on a thread of its
    /// own, and returns the slot with the thread's handle, which yields the outcome. If the file is cached it is
    /// simply loaded. Otherwise a quicker stand-in (6-6-3 for 7-8) is loaded or built first and
    /// serves while `partition` is built at idle priority. Each step logs "pattern databases
    /// ready" and sets the readiness metric.
    pub fn spawn_load_or_build(
        dir: PathBuf,
        partition: Partition,
    ) -> (DatabaseSlot, thread::JoinHandle<Result<(), PdbError>>) {
        let (mut slots, handle) = DatabaseSlot::spawn_load_or_build_each(dir, vec![partition], TableMemory::Mapped);
        (slots.pop().unwrap_or_default(), handle)
    }

    /// [`DatabaseSlot::spawn_load_or_build`] for several partitions (one slot each, in order),
    /// one after the other on one thread, so that two cold builds never add their memory peaks
    /// (1.3 GB for 7-8, 1.5 GB for 5×5). The thread's outcome is the first failure, if any; a
    /// failed partition does not stop the ones after it. Files are held as `memory` says.
    pub fn spawn_load_or_build_each(
        dir: PathBuf,
        partitions: Vec<Partition>,
        memory: TableMemory,
    ) -> (Vec<DatabaseSlot>, thread::JoinHandle<Result<(), PdbError>>) {
        let slots: Vec<DatabaseSlot> = partitions.iter().map(|_| DatabaseSlot::new()).collect();
        // A slot is "loading" (early requests wait for it) from its turn on, the first at once: a
        // 5×5 request does not wait for tables that come only after a 4×4 build of minutes.
        for (turn, (slot, partition)) in slots.iter().zip(&partitions).enumerate() {
            slot.0.send_modify(|loaded| {
                loaded.loading = turn == 0;
                loaded.dimension = Some(partition.dimension());
            });
        }
        let fillers = slots.clone();
        let handle = thread::spawn(move || {
            let mut outcome = Ok(());
            for (filler, partition) in fillers.iter().zip(&partitions) {
                filler.0.send_modify(|loaded| loaded.loading = true);
                let step = filler.load_in_stages(&dir, stand_in(partition), partition, memory);
                filler.0.send_modify(|loaded| loaded.loading = false);
                if let Err(error) = step {
                    tracing::warn!(%error, partition = %partition.sizes(), "pattern databases unavailable");
                    outcome = outcome.and(Err(error));
                }
            }
            outcome
        });
        (slots, handle)
    }

    /// The body of [`DatabaseSlot::spawn_load_or_build`]'s thread: `partition` from its file,
    /// else `quick` first (if any, and if it may be built or its file is there) and then
    /// `partition` built at idle priority.
    fn load_in_stages(
        &self,
        dir: &Path,
        quick: Option<StandIn>,
        partition: &Partition,
        memory: TableMemory,
    ) -> Result<(), PdbError> {
        let started = Instant::now();
        metrics::pattern_databases_ready(&partition.sizes(), false);
        if let Some(databases) = cached(&dir.join(file_name(partition)), partition, memory, Check::Recorded) {
            self.ready(Arc::new(databases), started);
            return Ok(());
        }
        let stand_in = match &quick {
            Some(StandIn { partition: quick, build: true }) => {
                metrics::pattern_databases_ready(&quick.sizes(), false);
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
            Some(databases) => self.ready(databases, started),
            // No quick tables are coming (a 5×5 build takes minutes): a request should not wait.
            None if quick.is_some() || partition.table_bytes() > QUICK_BUILD_BYTES => {
                self.0.send_modify(|loaded| loaded.loading = false);
            }
            None => {}
        }
        if !yield_to_searches() {
            tracing::warn!("cannot lower the build's priority: it competes with searches for the CPU");
        }
        let databases = PatternDatabases::load_or_build_as(dir, partition, memory)?;
        self.ready(databases, started);
        Ok(())
    }

    /// Puts `databases` in the slot, logs it and sets the readiness metric.
    fn ready(&self, databases: Arc<PatternDatabases>, started: Instant) {
        let partition = databases.partition().sizes();
        let side = databases.dimension();
        self.fill(databases);
        tracing::info!(%partition, elapsed = ?started.elapsed(), "pattern databases ready: new {side}x{side} requests use them");
        metrics::pattern_databases_ready(&partition, true);
    }

    /// Puts `databases` in the slot, unless it holds larger (so stronger) tables already.
    pub fn fill(&self, databases: Arc<PatternDatabases>) {
        self.0.send_if_modified(|loaded| {
            let stronger = loaded
                .databases
                .as_ref()
                .is_none_or(|held| databases.partition().table_bytes() > held.partition().table_bytes());
            if stronger {
                loaded.databases = Some(Arc::clone(&databases));
            }
            stronger
        });
    }

    /// The best databases loaded so far, if any.
    pub fn get(&self) -> Option<Arc<PatternDatabases>> {
        self.0.borrow().databases.clone()
    }

    /// The best databases loaded so far; if there are none yet but a background load of tables
    /// for `dimension`² boards is under way, waits up to `within` for its first tables (seconds,
    /// on a cold start), so an early request searches with them rather than without. A slot
    /// loading another board size's tables answers at once: a 4×4 request never waits for the
    /// 5×5 tables, which come only after the 4×4 ones.
    pub async fn first(&self, dimension: usize, within: Duration) -> Option<Arc<PatternDatabases>> {
        let mut loaded = self.0.subscribe();
        // The slot owns the sender, so waiting can only end by the condition or the timeout.
        let arrived = loaded
            .wait_for(|loaded| loaded.databases.is_some() || !loaded.loading || loaded.dimension != Some(dimension));
        let _ = tokio::time::timeout(within, arrived).await;
        self.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four small patterns: 3 × 43,680 + 3,360 entries, built in milliseconds.
    fn tiny() -> Partition {
        Partition::new(vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10, 11, 12], vec![13, 14, 15]])
            .expect("4-4-4-3")
    }

    /// Larger than [`tiny`], still quick: 3 × 524,160 entries.
    fn small() -> Partition {
        Partition::new(vec![vec![1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10], vec![11, 12, 13, 14, 15]]).expect("5-5-5")
    }

    fn held(slot: &DatabaseSlot) -> Option<String> {
        slot.get().map(|databases| databases.partition().sizes())
    }

    #[test]
    fn a_slot_keeps_the_stronger_tables() {
        let slot = DatabaseSlot::new();
        assert_eq!(held(&slot), None);
        slot.fill(Arc::new(PatternDatabases::build(&tiny()).expect("tiny tables")));
        assert_eq!(held(&slot).as_deref(), Some("4-4-4-3"));
        let strong = Arc::new(PatternDatabases::build(&small()).expect("small tables"));
        slot.fill(Arc::clone(&strong));
        assert_eq!(held(&slot).as_deref(), Some("5-5-5"));
        slot.fill(Arc::new(PatternDatabases::build(&tiny()).expect("tiny tables")));
        assert_eq!(held(&slot).as_deref(), Some("5-5-5"), "a weaker fill replaced stronger tables");
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
        let slot = DatabaseSlot::new();
        let quick = StandIn { partition: tiny(), build: true };
        slot.load_in_stages(dir.path(), Some(quick), &small(), TableMemory::Mapped).expect("both stages");
        assert_eq!(held(&slot).as_deref(), Some("5-5-5"));
        assert!(dir.path().join(file_name(&tiny())).is_file(), "the stand-in was not cached");
        assert!(dir.path().join(file_name(&small())).is_file(), "the strong tables were not cached");
    }

    #[test]
    fn a_warm_cache_loads_the_strong_tables_without_the_stand_in() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        PatternDatabases::prepare(dir.path(), &small()).expect("prepared tables");
        let slot = DatabaseSlot::new();
        let quick = StandIn { partition: tiny(), build: true };
        slot.load_in_stages(dir.path(), Some(quick), &small(), TableMemory::Resident).expect("a load");
        assert_eq!(held(&slot).as_deref(), Some("5-5-5"));
        assert!(!dir.path().join(file_name(&tiny())).exists(), "the stand-in was built although not needed");
    }

    #[test]
    fn each_catalogue_stands_in_for_the_one_after_it_and_is_only_loaded() {
        let of = |partition: &Partition| stand_in(partition).map(|quick| (quick.partition, quick.build));
        assert_eq!(of(&Partition::seven_eight()), Some((Partition::six_six_three(), true)));
        assert_eq!(of(&Partition::six_six_six_six_four_times()), Some((Partition::six_six_six_six_twice(), false)));
        assert_eq!(of(&Partition::six_six_six_six_twice()), Some((Partition::six_six_six_six(), false)));
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
            let slot = DatabaseSlot::new();
            let loader = {
                let (slot, dir) = (slot.clone(), dir.path().to_owned());
                let quick = StandIn { partition: tiny(), build: false };
                thread::spawn(move || slot.load_in_stages(&dir, Some(quick), &small(), TableMemory::Mapped))
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

    #[tokio::test]
    async fn an_early_request_waits_for_the_first_tables_only_while_they_are_coming() {
        let nothing_coming = DatabaseSlot::new();
        let started = Instant::now();
        assert!(nothing_coming.first(4, Duration::from_secs(30)).await.is_none());
        assert!(started.elapsed() < Duration::from_secs(1), "waited for tables no one loads");

        // A slot whose 5×5 tables come later (after the 4×4 ones, minutes on a cold start): a
        // 4×4 request does not wait for it, a 5×5 one does, up to its limit.
        let five_coming = DatabaseSlot::new();
        five_coming.0.send_modify(|loaded| {
            loaded.loading = true;
            loaded.dimension = Some(5);
        });
        let started = Instant::now();
        assert!(five_coming.first(4, Duration::from_secs(30)).await.is_none());
        assert!(started.elapsed() < Duration::from_secs(1), "a 4x4 request waited for 5x5 tables");
        let waited = tokio::time::timeout(Duration::from_millis(300), five_coming.first(5, Duration::from_secs(30)));
        assert!(waited.await.is_err(), "a 5x5 request did not wait for the 5x5 tables on their way");

        let dir = tempfile::tempdir().expect("a temporary directory");
        let (coming, loader) = DatabaseSlot::spawn_load_or_build(dir.path().to_owned(), tiny());
        let first = coming.first(4, Duration::from_secs(60)).await.expect("the tables being built");
        assert_eq!(first.partition(), &tiny());
        loader.join().expect("the loader thread").expect("tables");
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
