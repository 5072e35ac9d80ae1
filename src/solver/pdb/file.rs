//! The pattern-database file: a versioned, checksummed image of one partition's tables, written
//! once and memory-mapped read-only by every process that searches with it.
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `NPZLPDB\0` |
//! | 4 | format version ([`format_version`]: 2 on 4×4, 3 on 5×5) |
//! | 4 | board dimension (4 or 5) |
//! | 1 + Σ(1 + k) | the partition: pattern count, then each pattern's size and tiles |
//! | Σ table length | the stored tables (see `Partition::stored`), in the partition's order: on 4×4, 16!/(16-k)! entries of four bits, two a byte, low nibble first (see [`entry`](super::entry)); on 5×5, 25^k entries of four bits likewise, then the pockets' entries of a byte (see [`regions`](super::regions)) |
//! | 8 | checksum of everything before it ([`Checksum`]) |
//!
//! [`open`] checks every field the caller expects and the file's size, and maps the file; it
//! reads the header only, so opening the 288 MB 7-8 file costs microseconds and its pages come
//! from the page cache that every process and server on the machine shares. [`Image::verify`]
//! reads it all and compares the checksum; the cache decides when that is needed (see
//! `checked`). Version 1 of the 4×4 files held a byte per entry, the distance itself; such a
//! file is refused as old and rebuilt. Version 1 of the 5×5 files held one distance per
//! placement, the least over the blank's regions; version 2 holds one per region (see
//! [`regions`](super::regions)), a byte each, and version 3 the same in four bits (see
//! [`entry`](super::entry)); older files are rebuilt.
//!
//! A mapped file must not shrink while it is mapped: a read past its new end raises `SIGBUS`,
//! which kills the process. npuzzle never writes a table file in place: [`write`](fn@write)
//! makes a new file that the cache renames over the old name, so a process that maps the old
//! file keeps the old inode, whole, until it unmaps it. Only another program truncating or rewriting the file in
//! place (`truncate`, `cp` onto it) can pull pages from under a mapping; a process that must
//! survive even that loads its tables resident (see `tables`), a copy of its own.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use memmap2::{Advice, Mmap, MmapOptions};

use super::error::PdbError;
use super::huge_pages;
use super::partition::{Partition, table_len};

/// The format version of the files of `dimension`² boards, bumped whenever the layout or the
/// meaning of their tables changes, so old files are rebuilt: 2 on 4×4 (four-bit entries), 3 on
/// 5×5 (four-bit entries, one per region of the blank).
pub fn format_version(dimension: usize) -> u32 {
    if dimension == 4 { 2 } else { 3 }
}

const MAGIC: [u8; 8] = *b"NPZLPDB\0";

/// Bytes of the checksum at the file's end.
const CHECKSUM_BYTES: usize = 8;

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
fn checksum<'a>(header: &[u8], tables: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let mut checksum = Checksum::default();
    checksum.update(header);
    tables.into_iter().for_each(|table| checksum.update(table));
    checksum.value()
}

/// Writes the `tables` of `partition` (in [`Partition::stored`]'s order) to a new file at `path`
/// (the caller makes this atomic with a rename, which also keeps any mapping of the file it
/// replaces whole).
pub fn write(path: &Path, partition: &Partition, tables: &[&[u8]]) -> Result<(), PdbError> {
    let io_error = |source| PdbError::Io { path: path.to_owned(), source };
    let header = header(partition);
    let mut out = BufWriter::new(File::create(path).map_err(io_error)?);
    out.write_all(&header).map_err(io_error)?;
    for table in tables {
        out.write_all(table).map_err(io_error)?;
    }
    out.write_all(&checksum(&header, tables.iter().copied()).to_le_bytes()).map_err(io_error)?;
    let file = out.into_inner().map_err(|err| io_error(err.into_error()))?;
    file.sync_all().map_err(io_error)?;
    huge_pages::forget_cached(&file);
    Ok(())
}

/// An opened table file: its header and size checked, its bytes mapped read-only.
#[derive(Debug)]
pub struct Image {
    path: PathBuf,
    /// The open file, kept for its metadata (see `checked`).
    file: File,
    map: Mmap,
    header: Range<usize>,
    /// Where each stored table lies in the map, in [`Partition::stored`]'s order.
    tables: Vec<Range<usize>>,
}

/// Opens `path` as the file of `partition`: refuses a file whose header or size is not exactly
/// what [`write()`] makes for that partition, and maps the rest without reading it (see
/// [`Image::verify`] for the checksum).
pub fn open(path: &Path, partition: &Partition) -> Result<Image, PdbError> {
    let io_error = |source| PdbError::Io { path: path.to_owned(), source };
    let file = File::open(path).map_err(io_error)?;
    let actual = file.metadata().map_err(io_error)?.len();
    let expected_header = header(partition);
    let header_len = expected_header.len();
    let expected = (header_len + partition.table_bytes() + CHECKSUM_BYTES) as u64;
    let mut header = Vec::with_capacity(header_len);
    (&file).take(header_len as u64).read_to_end(&mut header).map_err(io_error)?;
    check_header(path, partition, &expected_header, &header)?;
    if actual != expected {
        return Err(PdbError::WrongSize { path: path.to_owned(), expected, actual });
    }
    // SAFETY: the map is read-only. npuzzle only
    // ever replaces a table file by renaming a new one over it, which leaves this inode as it
    // is; another program changing the file in place while it is mapped is the one way its
    // bytes could change under the slices handed out (see the module's documentation).
    let map = unsafe { MmapOptions::new().map(&file) }.map_err(io_error)?;
    if map.len() as u64 != expected {
        // The file changed size between the check above and the mapping.
        return Err(PdbError::WrongSize { path: path.to_owned(), expected, actual: map.len() as u64 });
    }
    // Ask for the file's pages on huge pages: a lookup is a random read into hundreds of MB, and
    // a 2 MB mapping keeps the page walk out of most of them (see `huge_pages`). The kernel then reads a missing part of the file into the
    // page cache 2 MB at a time, as a fault needs it, and maps it whole; pages cached already
    // stay as they were read. Where huge pages are refused, read ahead the whole file if it is
    // not in the page cache yet (a first run after a reboot), rather than fault it in page by
    // page at random. Only hints: ignore refusals.
    if map.advise(Advice::HugePage).is_err() {
        let _ = map.advise(Advice::WillNeed);
    }
    let mut start = header_len;
    let tables = partition
        .stored()
        .map(|pattern| {
            let range = start..start + table_len(partition.dimension(), pattern.len());
            start = range.end;
            range
        })
        .collect();
    Ok(Image { path: path.to_owned(), file, map, header: 0..header_len, tables })
}

/// Checks `found`, the first bytes of a file, against `expected`, the header of `partition`'s
/// file, saying which field differs first.
fn check_header(path: &Path, partition: &Partition, expected: &[u8], found: &[u8]) -> Result<(), PdbError> {
    if !found.starts_with(&MAGIC) {
        return Err(PdbError::BadMagic { path: path.to_owned() });
    }
    // The versions differ by board size, so another board's file is told apart before its version.
    if found.get(12..16) != expected.get(12..16) {
        return Err(PdbError::PartitionMismatch { path: path.to_owned() });
    }
    let version = found.get(8..12).and_then(|bytes| bytes.try_into().ok()).map_or(0, u32::from_le_bytes);
    let expected_version = format_version(partition.dimension());
    if version != expected_version {
        return Err(PdbError::OldVersion { path: path.to_owned(), found: version, expected: expected_version });
    }
    if found != expected {
        return Err(PdbError::PartitionMismatch { path: path.to_owned() });
    }
    Ok(())
}

impl Image {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// The stored tables, in [`Partition::stored`]'s order.
    pub fn tables(&self) -> impl Iterator<Item = &[u8]> {
        self.tables.iter().map(|range| &self.map[range.clone()])
    }

    /// The checksum the file carries at its end.
    pub fn stored_checksum(&self) -> u64 {
        let end = self.map.len();
        self.map.get(end - CHECKSUM_BYTES..).and_then(|bytes| bytes.try_into().ok()).map_or(0, u64::from_le_bytes)
    }

    /// Reads the whole file and compares its checksum with the one it carries: the check that
    /// catches a flipped bit or a torn copy, which the header and size cannot.
    pub fn verify(&self) -> Result<(), PdbError> {
        let computed = checksum(&self.map[self.header.clone()], self.tables());
        let stored = self.stored_checksum();
        if stored != computed {
            return Err(PdbError::ChecksumMismatch { path: self.path.clone(), stored, computed });
        }
        Ok(())
    }
}
