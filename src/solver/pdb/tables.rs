//! Where a partition's tables live in memory: mapped from their file, or resident in memory of
//! the process's own.
//!
//! - [`TableMemory::Mapped`] (the default): the tables are the file's pages, mapped read-only
//!   (see [`file`](super::file)). Loading costs a header check, the pages come from the page
//!   cache, and every process and server on the machine shares one copy; a short-lived process
//!   (`npuzzle-bench`, the client's local solve) pays neither for reading 288 MB nor for freeing
//!   it. Pages are 4 KB, so a random lookup across the 259 MB 8-tile table usually also misses
//!   the TLB.
//! - [`TableMemory::Resident`]: the tables are copied out of the mapping into memory advised to
//!   use 2 MB pages (see `huge_pages`), and the mapping is dropped. The copy costs a pass over
//!   the file and memory of the process's own; in return, lookups miss the TLB far less, and no
//!   change to the file on disk can reach the tables (see `file` on `SIGBUS`).
//!
//! Built tables are always resident: they were made in this process.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::file::Image;
use super::huge_pages;

/// How loaded tables are held, chosen per program: mapped for quick starts and shared pages,
/// resident for long searches and immunity to the file changing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum TableMemory {
    /// The file's pages, mapped read-only and shared with every process that maps them.
    #[default]
    Mapped,
    /// A copy in this process's memory, on huge pages where the system grants them.
    Resident,
}

impl fmt::Display for TableMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableMemory::Mapped => "mapped",
            TableMemory::Resident => "resident",
        })
    }
}

impl FromStr for TableMemory {
    type Err = String;

    fn from_str(name: &str) -> Result<TableMemory, String> {
        [TableMemory::Mapped, TableMemory::Resident]
            .into_iter()
            .find(|memory| memory.to_string() == name)
            .ok_or_else(|| format!("unknown table memory {name:?}; expected mapped or resident"))
    }
}

/// The stored tables of one partition, in [`Partition::stored`](super::Partition::stored)'s
/// order, wherever they live.
#[derive(Debug, Clone)]
pub(super) enum Tables {
    /// Built here, or copied out of the file.
    Resident(Vec<Vec<u8>>),
    /// The file's mapped pages.
    Mapped(Arc<Image>),
}

impl Tables {
    /// The tables of an opened (and checked) file, held as `memory` says.
    pub(super) fn from_image(image: Image, memory: TableMemory) -> Tables {
        match memory {
            TableMemory::Mapped => Tables::Mapped(Arc::new(image)),
            TableMemory::Resident => Tables::Resident(image.tables().map(huge_pages::copied).collect()),
        }
    }

    /// Each table's bytes.
    pub(super) fn slices(&self) -> Vec<&[u8]> {
        match self {
            Tables::Resident(tables) => tables.iter().map(Vec::as_slice).collect(),
            Tables::Mapped(image) => image.tables().collect(),
        }
    }

    /// Where the tables live.
    pub(super) fn memory(&self) -> TableMemory {
        match self {
            Tables::Resident(_) => TableMemory::Resident,
            Tables::Mapped(_) => TableMemory::Mapped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_names_round_trip() {
        for memory in [TableMemory::Mapped, TableMemory::Resident] {
            assert_eq!(memory.to_string().parse::<TableMemory>(), Ok(memory));
        }
        assert!("huge".parse::<TableMemory>().is_err());
    }
}
