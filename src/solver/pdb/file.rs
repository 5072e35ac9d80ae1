//! The pattern-database file: a versioned, checksummed image of one partition's tables.
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `NPZLPDB\0` |
//! | 4 | format version ([`format_version`]: 2 on 4×4, 1 on 5×5) |
//! | 4 | board dimension (4 or 5) |
//! | 1 + Σ(1 + k) | the partition: pattern count, then each pattern's size and tiles |
//! | Σ table length | the stored tables (see `Partition::stored`), in the partition's order: on 4×4, 16!/(16-k)! entries of four bits, two a byte, low nibble first (see [`entry`](super::entry)); on 5×5, 25^k entries of a byte |
//! | 8 | checksum of everything before it ([`Checksum`]) |
//!
//! A file is trusted only if every field matches what the caller expects and the checksum
//! agrees; [`read`] says which check failed. Version 1 of the 4×4 files held a byte per entry,
//! the distance itself; such a file is refused as old and rebuilt. The 5×5 layout has not
//! changed since version 1, so its files stay valid.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use super::error::PdbError;
use super::partition::{Partition, table_len};

/// The format version of the files of `dimension`² boards, bumped whenever the layout or the
/// meaning of their tables changes, so old files are rebuilt: 2 on 4×4 (four-bit entries), 1 on
/// 5×5.
pub fn format_version(dimension: usize) -> u32 {
    if dimension == 4 { 2 } else { 1 }
}

const MAGIC: [u8; 8] = *b"NPZLPDB\0";

/// A 64-bit multiply-rotate checksum over 8-byte words (a short piece is zero-padded). Each step
/// is a bijection of the running value, so any single changed word changes the result; it reads
/// several GB/s, which keeps the check of the largest tables well under a second.
#[derive(Debug, Clone, Copy)]
pub struct Checksum(u64);

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum(0x6E70_757A_7A6C_6521)
    }
}

impl Checksum {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

    /// Folds `bytes` in.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.word(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(last));
        }
        self.word(bytes.len() as u64);
    }

    #[inline]
    fn word(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(Self::MULTIPLIER);
    }

    /// The value so far.
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// The header for `partition`: magic, version, dimension and the patterns.
fn header(partition: &Partition) -> Vec<u8> {
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&format_version(partition.dimension()).to_le_bytes());
    header.extend_from_slice(&(partition.dimension() as u32).to_le_bytes());
    header.push(partition.patterns().len() as u8);
    for pattern in partition.patterns() {
        header.push(pattern.len() as u8);
        header.extend_from_slice(pattern);
    }
    header
}

/// The checksum a file with `header` and `tables` must carry.
fn checksum(header: &[u8], tables: &[Vec<u8>]) -> u64 {
    let mut checksum = Checksum::default();
    checksum.update(header);
    tables.iter().for_each(|table| checksum.update(table));
    checksum.value()
}

/// Writes the `tables` of `partition` (in [`Partition::stored`]'s order) to `path` (the caller
/// makes this atomic with a rename).
pub fn write(path: &Path, partition: &Partition, tables: &[Vec<u8>]) -> Result<(), PdbError> {
    let io_error = |source| PdbError::Io { path: path.to_owned(), source };
    let header = header(partition);
    let mut out = BufWriter::new(File::create(path).map_err(io_error)?);
    out.write_all(&header).map_err(io_error)?;
    for table in tables {
        out.write_all(table).map_err(io_error)?;
    }
    out.write_all(&checksum(&header, tables).to_le_bytes()).map_err(io_error)?;
    let file = out.into_inner().map_err(|err| io_error(err.into_error()))?;
    file.sync_all().map_err(io_error)
}

/// Reads the tables of `partition` from `path`, refusing a file that is not exactly what
/// [`write()`] makes for that partition.
pub fn read(path: &Path, partition: &Partition) -> Result<Vec<Vec<u8>>, PdbError> {
    let io_error = |source| PdbError::Io { path: path.to_owned(), source };
    let file = File::open(path).map_err(io_error)?;
    let actual = file.metadata().map_err(io_error)?.len();
    let expected_header = header(partition);
    let expected = (expected_header.len() + partition.table_bytes() + 8) as u64;
    let mut input = BufReader::new(file);
    let mut header = vec![0u8; expected_header.len().min(actual as usize)];
    input.read_exact(&mut header).map_err(io_error)?;
    if !header.starts_with(&MAGIC) {
        return Err(PdbError::BadMagic { path: path.to_owned() });
    }
    // The versions differ by board size, so another board's file is told apart before its version.
    if header.get(12..16) != expected_header.get(12..16) {
        return Err(PdbError::PartitionMismatch { path: path.to_owned() });
    }
    let found = header.get(8..12).and_then(|bytes| bytes.try_into().ok()).map_or(0, u32::from_le_bytes);
    let expected_version = format_version(partition.dimension());
    if found != expected_version {
        return Err(PdbError::OldVersion { path: path.to_owned(), found, expected: expected_version });
    }
    if header != expected_header {
        return Err(PdbError::PartitionMismatch { path: path.to_owned() });
    }
    if actual != expected {
        return Err(PdbError::WrongSize { path: path.to_owned(), expected, actual });
    }
    let mut tables = Vec::new();
    for pattern in partition.stored() {
        let mut table = vec![0u8; table_len(partition.dimension(), pattern.len())];
        input.read_exact(&mut table).map_err(io_error)?;
        tables.push(table);
    }
    let mut stored = [0u8; 8];
    input.read_exact(&mut stored).map_err(io_error)?;
    let (stored, computed) = (u64::from_le_bytes(stored), checksum(&header, &tables));
    if stored != computed {
        return Err(PdbError::ChecksumMismatch { path: path.to_owned(), stored, computed });
    }
    Ok(tables)
}
