//! The server's pattern databases, which arrive and improve while it serves: a [`DatabaseSlot`]
//! per board size, filled on a background thread by the solver's staged load (a quick stand-in
//! first, the strong tables when they are built), read by each request as it starts. The slot
//! is the runtime side of the tables: a tokio watch channel, the readiness metric and the log.

use std::path::PathBuf;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::metrics;
use crate::solver::pdb::cache::{StagedLoad, load_in_stages};
use crate::solver::{Partition, PatternDatabases, PdbError, TableMemory};

/// Pattern databases that arrive, and improve, later: empty until a background load or build
/// finishes, then upgraded in place when stronger tables are ready. Clones share the slot. A
/// server hands [`DatabaseSlot::get`] (or [`DatabaseSlot::first`]) to each request's
/// search, so a request searches with the best tables loaded when
/// it starts, and keeps them (an `Arc`) until it ends, however the slot changes meanwhile.
#[derive(Debug, Clone, Default)]
pub struct DatabaseSlot(Arc<watch::Sender<Loaded>>);

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
                let step = load_in_stages(&dir, partition, memory, filler);
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

impl StagedLoad for DatabaseSlot {
    fn pending(&self, partition: &Partition) {
        metrics::pattern_databases_ready(&partition.sizes(), false);
    }

    /// Puts `databases` in the slot, logs it and sets the readiness metric.
    fn ready(&self, databases: Arc<PatternDatabases>, started: Instant) {
        let partition = databases.partition().sizes();
        let side = databases.dimension();
        self.fill(databases);
        tracing::info!(%partition, elapsed = ?started.elapsed(), "pattern databases ready: new {side}x{side} requests use them");
        metrics::pattern_databases_ready(&partition, true);
    }

    fn nothing_quick(&self) {
        self.0.send_modify(|loaded| loaded.loading = false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::pdb::partition::samples::{small, tiny};

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
}
