//! One builder per table file: before building a table file, a program takes an exclusive
//! advisory lock on `<file>.lock` beside it (`flock` on Unix, `LockFileEx` on Windows). Any other
//! process, or another slot of the same process, that wants the same file waits on that lock and
//! then loads the file the first builder wrote, instead of spending minutes and gigabytes building
//! it again.
//!
//! The lock lives in the operating system, not in the file's existence: it is released when its
//! holder closes the file, exits or is killed, so a stale `.lock` file left on disk never blocks
//! anyone. (Network file systems that do not honour `flock` give no such guarantee; keep the
//! cache directory local.)

use std::fs::{self, File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::error::PdbError;

/// An exclusive claim on building one table file, released when dropped.
#[derive(Debug)]
pub(crate) struct BuildLock {
    _file: File,
}

/// The lock file that guards `path`.
pub(crate) fn lock_path(path: &Path) -> PathBuf {
    path.with_extension("lock")
}

impl BuildLock {
    /// Takes the lock that guards the table file `path`, waiting as long as another builder holds
    /// it (that builder logs its own progress; this one logs that it waits, and for how long).
    pub(crate) fn acquire(path: &Path) -> Result<BuildLock, PdbError> {
        let lock_path = lock_path(path);
        let io_error = |source| PdbError::Io { path: lock_path.clone(), source };
        if let Some(dir) = lock_path.parent() {
            fs::create_dir_all(dir).map_err(io_error)?;
        }
        let file = OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path).map_err(io_error)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let started = Instant::now();
                tracing::info!(lock = %lock_path.display(), "another builder holds this table file; waiting to load what it writes");
                file.lock().map_err(io_error)?;
                tracing::info!(lock = %lock_path.display(), waited = ?started.elapsed(), "the other builder finished");
            }
            Err(TryLockError::Error(source)) => return Err(io_error(source)),
        }
        Ok(BuildLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_second_claim_waits_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("table.bin");
        let first = BuildLock::acquire(&path).expect("the first claim");
        let (sender, acquired) = mpsc::channel();
        let waiter = thread::spawn(move || {
            let second = BuildLock::acquire(&path);
            let _ = sender.send(());
            second.map(drop)
        });
        assert!(acquired.recv_timeout(Duration::from_millis(300)).is_err(), "the second claim did not wait");
        drop(first);
        acquired.recv_timeout(Duration::from_secs(10)).expect("the second claim once the first was dropped");
        waiter.join().expect("the waiting thread").expect("the second claim");
    }

    #[test]
    fn a_lock_file_left_behind_by_a_dead_holder_does_not_block() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("table.bin");
        fs::write(lock_path(&path), b"").expect("a leftover lock file");
        BuildLock::acquire(&path).expect("a claim despite the leftover file");
    }
}
