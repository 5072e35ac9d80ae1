//! The record that a table file passed its full check, so that later loads check only its
//! header and size and leave its pages alone.
//!
//! Why: the checksum reads the whole file, 288 MB for 7-8, which takes longer than the file's
//! header check and mapping by four orders of magnitude, and faults every page into the
//! process; a run of Korf's 100 spends more on that than on half its searches. The file is
//! written once (a new file renamed into place, see `cache`) and then only read, so checking it
//! once is enough, as long as a later change is noticed.
//!
//! How: after a full check passes, `<file>.checked` beside it records what identifies that
//! exact file: its device and inode, its size, its modification and status-change times (to the
//! nanosecond) and the checksum it carries. A load whose file still matches the record is
//! trusted; any write to the file changes its status-change time (which no program can set
//! back), a replacement changes its inode, so either brings the full check back, which then
//! records the new state. `npuzzle-server --prepare` always runs the full check.
//!
//! One gap is closed by waiting: file systems stamp times from a clock that may tick only every
//! few milliseconds, so a write in the same tick as the check could leave the times as
//! recorded. A file changed less than [`SETTLE`] before the check is therefore not recorded;
//! it is checked in full at each load until it has settled. What the record cannot see is a
//! change below the file system (a bit flipped on the disk); the full check at `--prepare`, and
//! whenever the record is missing, is the defence there.
//!
//! A cache directory that cannot be written to simply gets no record: every load then checks
//! in full, as before. On systems other than Unix no record is kept.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process;
use std::time::{Duration, SystemTime};

use super::file::Image;

/// How long a file must have been left unchanged before its check is recorded.
pub const SETTLE: Duration = Duration::from_secs(2);

/// The record beside the table file `path`.
pub fn record_path(path: &Path) -> PathBuf {
    path.with_extension("checked")
}

/// What identifies the file `image` maps, as a record's line, or `None` where files cannot be
/// identified so (not Unix).
fn identity(image: &Image) -> io::Result<Option<(String, SystemTime)>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = image.file().metadata()?;
        let line = format!(
            "npuzzle-checked 1 dev {} ino {} len {} mtime {}.{:09} ctime {}.{:09} checksum {:016x}\n",
            meta.dev(),
            meta.ino(),
            meta.len(),
            meta.mtime(),
            meta.mtime_nsec(),
            meta.ctime(),
            meta.ctime_nsec(),
            image.stored_checksum()
        );
        let changed = SystemTime::UNIX_EPOCH
            .checked_add(Duration::new(
                meta.ctime().max(0).unsigned_abs(),
                meta.ctime_nsec().clamp(0, 999_999_999) as u32,
            ))
            .unwrap_or(SystemTime::UNIX_EPOCH);
        let modified = meta.modified()?;
        Ok(Some((line, changed.max(modified))))
    }
    #[cfg(not(unix))]
    {
        let _ = image;
        Ok(None)
    }
}

/// Whether a record says the file `image` maps, exactly as it is now, passed its full check.
pub fn vouches_for(image: &Image) -> bool {
    let Ok(Some((line, _))) = identity(image) else { return false };
    fs::read_to_string(record_path(image.path())).is_ok_and(|recorded| recorded == line)
}

/// Records that the file `image` maps passed its full check, unless it changed less than
/// [`SETTLE`] before `now`. Returns whether a record was written.
pub fn record(image: &Image, now: SystemTime) -> io::Result<bool> {
    let Some((line, changed)) = identity(image)? else { return Ok(false) };
    if now.duration_since(changed).map_or(true, |age| age < SETTLE) {
        return Ok(false);
    }
    let path = record_path(image.path());
    let temporary = path.with_extension(format!("checked.tmp{}", process::id()));
    fs::write(&temporary, line).and_then(|()| fs::rename(&temporary, &path)).inspect_err(|_| {
        let _ = fs::remove_file(&temporary);
    })?;
    Ok(true)
}

/// Removes the record of the table file `path`, if any: the file is about to be replaced.
pub fn forget(path: &Path) {
    let _ = fs::remove_file(record_path(path));
}

#[cfg(all(test, unix))]
mod tests {
    use std::thread;

    use super::super::file;
    use super::super::partition::Partition;
    use super::*;

    fn tiny() -> Partition {
        Partition::new(vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8, 9], vec![10, 11, 12], vec![13, 14, 15]])
            .expect("3-3-3-3-3")
    }

    /// A file of `tiny`'s layout (its tables all zero) in a fresh directory.
    fn written(dir: &Path) -> PathBuf {
        let partition = tiny();
        let tables: Vec<Vec<u8>> =
            partition.stored().map(|pattern| vec![0; super::super::partition::table_len(4, pattern.len())]).collect();
        let slices: Vec<&[u8]> = tables.iter().map(Vec::as_slice).collect();
        let path = dir.join("tables.bin");
        file::write(&path, &partition, &slices).expect("written");
        path
    }

    fn later(image: &Image) -> SystemTime {
        let (_, changed) = identity(image).expect("metadata").expect("unix");
        changed + SETTLE + Duration::from_secs(1)
    }

    #[test]
    fn a_settled_check_is_recorded_and_vouches_until_the_file_changes() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = written(dir.path());
        let image = file::open(&path, &tiny()).expect("opens");
        assert!(!vouches_for(&image), "no record yet");
        assert!(record(&image, later(&image)).expect("recorded"));
        assert!(vouches_for(&image));
        drop(image);
        assert!(vouches_for(&file::open(&path, &tiny()).expect("opens again")), "the same file, opened again");

        // A byte changed in place, same size, same inode: its status-change time moves on.
        thread::sleep(Duration::from_millis(50));
        let mut bytes = fs::read(&path).expect("the file");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        fs::write(&path, &bytes).expect("changed in place");
        let changed = file::open(&path, &tiny()).expect("the header still matches");
        assert!(!vouches_for(&changed), "the record vouched for a changed file");
        assert!(changed.verify().is_err(), "the full check misses the change");
    }

    #[test]
    fn a_fresh_file_is_not_recorded_and_a_forgotten_record_vouches_for_nothing() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = written(dir.path());
        let image = file::open(&path, &tiny()).expect("opens");
        assert!(!record(&image, SystemTime::now()).expect("no error"), "a file changed just now was recorded");
        assert!(!record_path(&path).exists());
        assert!(record(&image, later(&image)).expect("recorded"));
        forget(&path);
        assert!(!vouches_for(&image));
    }
}
