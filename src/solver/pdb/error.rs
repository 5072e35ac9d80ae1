//! The typed errors of everything about pattern databases: partitions, builds, files, the cache.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

/// Why pattern databases could not be built, read or written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PdbError {
    /// The partition is not a set of disjoint patterns covering the board's tiles.
    #[error("invalid partition: {0}")]
    InvalidPartition(String),
    /// A table build thread died.
    #[error("building a pattern-database table failed")]
    BuildFailed,
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file does not start with the magic bytes.
    #[error("{}: not a pattern-database file", path.display())]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by another version of the format.
    #[error("{}: format version {found}, expected {expected}", path.display())]
    OldVersion {
        /// The file.
        path: PathBuf,
        /// The format version the file states.
        found: u32,
        /// The version of this program's files for that board size.
        expected: u32,
    },
    /// The file holds another board size or partition.
    #[error("{}: built for another board or partition", path.display())]
    PartitionMismatch {
        /// The file.
        path: PathBuf,
    },
    /// The file is shorter or longer than its header says.
    #[error("{}: {actual} bytes, expected {expected}", path.display())]
    WrongSize {
        /// The file.
        path: PathBuf,
        /// The size its header implies, in bytes.
        expected: u64,
        /// Its real size, in bytes.
        actual: u64,
    },
    /// The contents do not match the stored checksum.
    #[error("{}: checksum mismatch (stored {stored:016x}, computed {computed:016x})", path.display())]
    ChecksumMismatch {
        /// The file.
        path: PathBuf,
        /// The checksum in the file.
        stored: u64,
        /// The checksum of its contents.
        computed: u64,
    },
    /// No cache directory could be found.
    #[error("no cache directory: set NPUZZLE_CACHE_DIR, XDG_CACHE_HOME or HOME")]
    NoCacheDir,
}

impl PdbError {
    /// Whether the file simply is not there yet (as opposed to being unreadable or wrong).
    pub fn is_missing(&self) -> bool {
        matches!(self, PdbError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}
