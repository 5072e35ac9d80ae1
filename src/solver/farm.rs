//! A search spread past this process: IDA* hands the pieces of a long iteration to a [`Farm`]
//! (a server's cluster of replicas) as [`PieceOrder`]s and collects a [`PieceReport`] for each.
//!
//! The library knows nothing of the transport: an order and a report are plain data with a
//! compact byte encoding of their own ([`PieceOrder::encode`], [`PieceReport::encode`]), and
//! anyone holding the same pattern databases runs an order with
//! [`run_piece`](crate::solver::run_piece). A decoded order or report is external input: every
//! field is checked before a search trusts it.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

use super::options::Heuristic;

/// The first byte of every encoding: a change of layout changes it, so that replicas of two
/// versions refuse each other's pieces rather than misread them.
const VERSION: u8 = 1;

/// The most tiles a piece's board may have: a 16×16 board (past every size IDA* searches).
const MAX_TILES: usize = 256;

/// The most moves from the root to a piece's node, or in a path a report carries.
const MAX_MOVES: usize = 4096;

/// One piece of an IDA* iteration: the subtree below the node that `moves` reach from the
/// iteration's root, searched within `bound`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceOrder {
    /// The piece's place in its iteration, which its report names.
    pub index: u32,
    /// The iteration's root board, row-major, 0 for the blank.
    pub tiles: Vec<u16>,
    /// The moves from the root to the piece's node, as indices into
    /// [`Direction::ALL`](crate::board::Direction::ALL).
    pub moves: Vec<u8>,
    /// Nodes with f above this (in thousandths of a move) are cut.
    pub bound: u64,
    /// The weight of f = g + w·h, in thousandths (1000 for plain IDA*).
    pub weight: u64,
    /// The bound the search has proven, which progress reports carry.
    pub proven: u32,
    /// The heuristic: never `Auto`.
    pub heuristic: Heuristic,
    /// The pattern databases the heuristic reads (their file name, which names the partition
    /// and the format), empty for a heuristic without tables.
    pub tables: String,
}

/// What the search of one piece found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceReport {
    /// Nodes expanded below the piece's node.
    pub expanded: u64,
    /// Nodes generated below it.
    pub generated: u64,
    /// The least f over the bound, `u64::MAX` if none was cut.
    pub cut: u64,
    /// The least h reached at or below the piece's node.
    pub closest: u32,
    /// A path to the goal from the iteration's root, as indices into
    /// [`Direction::ALL`](crate::board::Direction::ALL), if the piece holds one within the bound.
    pub path: Option<Vec<u8>>,
}

/// A report from some worker of the farm, for the piece `index` of the iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FarmedResult {
    /// The piece's index.
    pub index: u32,
    /// Who ran it: a name the farm gives each worker, to count them.
    pub worker: String,
    /// What it found.
    pub report: PieceReport,
}

/// Why a farm could not take or finish an iteration, or an order or report was refused. The
/// search then runs the iteration on its own cores: nothing is lost but time.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FarmError {
    /// The farm's transport failed.
    #[error("the cluster failed: {0}")]
    Transport(String),
    /// A message was not an order or report of this version.
    #[error("malformed piece message: {0}")]
    Malformed(String),
    /// The piece needs pattern databases this worker has not loaded.
    #[error("this replica has not loaded the pattern databases {0:?}")]
    TablesMissing(String),
}

/// Where IDA* may send the pieces of its long iterations: the other replicas of a cluster, and
/// this one's idle cores. A [`Helpers`](super::Helpers) carries it to every search.
pub trait Farm: Send + Sync {
    /// How many other workers are up that hold `tables` (empty: no tables needed); with none,
    /// the search stays on its own cores.
    fn workers(&self, tables: &str) -> usize;

    /// The least nodes an iteration is forecast to take for it to go to the farm: a short
    /// search stays local.
    fn after(&self) -> u64;

    /// Hands `pieces` out to the workers; their reports come back through the iteration, which
    /// ends (and the farm drops what is left of its pieces) when it is dropped.
    fn start(&self, pieces: Vec<PieceOrder>) -> Result<Box<dyn FarmedIteration>, FarmError>;
}

/// One iteration handed to a [`Farm`].
pub trait FarmedIteration: Send {
    /// The next report, waiting at most `wait`; `None` if none came by then.
    fn next(&mut self, wait: Duration) -> Result<Option<FarmedResult>, FarmError>;
}

impl fmt::Debug for dyn Farm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Farm")
    }
}

impl PieceOrder {
    /// The order as bytes, for [`PieceOrder::decode`].
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Writer(vec![VERSION]);
        out.u32(self.index);
        out.u16s(&self.tiles);
        out.bytes(&self.moves);
        out.u64(self.bound);
        out.u64(self.weight);
        out.u32(self.proven);
        out.bytes(self.heuristic.to_string().as_bytes());
        out.bytes(self.tables.as_bytes());
        out.0
    }

    /// An order from bytes that [`PieceOrder::encode`] made; anything else is
    /// [`FarmError::Malformed`].
    pub fn decode(bytes: &[u8]) -> Result<PieceOrder, FarmError> {
        let mut input = Reader::new(bytes)?;
        let order = PieceOrder {
            index: input.u32()?,
            tiles: input.u16s(MAX_TILES)?,
            moves: input.bytes(MAX_MOVES)?.to_vec(),
            bound: input.u64()?,
            weight: input.u64()?,
            proven: input.u32()?,
            heuristic: input.text()?.parse().map_err(|error| FarmError::Malformed(format!("{error}")))?,
            tables: input.text()?.to_owned(),
        };
        input.end()?;
        Ok(order)
    }
}

impl PieceReport {
    /// The report as bytes, for [`PieceReport::decode`].
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Writer(vec![VERSION]);
        out.u64(self.expanded);
        out.u64(self.generated);
        out.u64(self.cut);
        out.u32(self.closest);
        match &self.path {
            Some(path) => {
                out.0.push(1);
                out.bytes(path);
            }
            None => out.0.push(0),
        }
        out.0
    }

    /// A report from bytes that [`PieceReport::encode`] made; anything else is
    /// [`FarmError::Malformed`].
    pub fn decode(bytes: &[u8]) -> Result<PieceReport, FarmError> {
        let mut input = Reader::new(bytes)?;
        let (expanded, generated, cut, closest) = (input.u64()?, input.u64()?, input.u64()?, input.u32()?);
        let path = match input.take(1)? {
            [0] => None,
            [1] => Some(input.bytes(MAX_MOVES)?.to_vec()),
            _ => return Err(FarmError::Malformed("bad path marker".into())),
        };
        input.end()?;
        Ok(PieceReport { expanded, generated, cut, closest, path })
    }
}

/// Little-endian fields, each length-prefixed sequence with a u32.
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, value: u32) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn u64(&mut self, value: u64) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.u32(bytes.len() as u32);
        self.0.extend_from_slice(bytes);
    }

    fn u16s(&mut self, values: &[u16]) {
        self.u32(values.len() as u32);
        for value in values {
            self.0.extend_from_slice(&value.to_le_bytes());
        }
    }
}

/// Reads what a [`Writer`] wrote, refusing short input, long sequences and trailing bytes.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Result<Reader<'a>, FarmError> {
        match bytes.split_first() {
            Some((&VERSION, rest)) => Ok(Reader(rest)),
            Some((version, _)) => Err(FarmError::Malformed(format!("version {version}, expected {VERSION}"))),
            None => Err(FarmError::Malformed("empty message".into())),
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], FarmError> {
        if self.0.len() < n {
            return Err(FarmError::Malformed("message cut short".into()));
        }
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(taken)
    }

    fn u32(&mut self) -> Result<u32, FarmError> {
        let bytes = self.take(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn u64(&mut self) -> Result<u64, FarmError> {
        let (low, high) = (self.u32()?, self.u32()?);
        Ok(u64::from(low) | (u64::from(high) << 32))
    }

    fn len(&mut self, max: usize) -> Result<usize, FarmError> {
        let len = self.u32()? as usize;
        if len > max {
            return Err(FarmError::Malformed(format!("a sequence of {len}, more than {max}")));
        }
        Ok(len)
    }

    fn bytes(&mut self, max: usize) -> Result<&'a [u8], FarmError> {
        let len = self.len(max)?;
        self.take(len)
    }

    fn u16s(&mut self, max: usize) -> Result<Vec<u16>, FarmError> {
        let len = self.len(max)?;
        Ok(self.take(len * 2)?.chunks_exact(2).map(|pair| u16::from_le_bytes([pair[0], pair[1]])).collect())
    }

    fn text(&mut self) -> Result<&'a str, FarmError> {
        std::str::from_utf8(self.bytes(MAX_MOVES)?).map_err(|_| FarmError::Malformed("text not UTF-8".into()))
    }

    fn end(&self) -> Result<(), FarmError> {
        if self.0.is_empty() { Ok(()) } else { Err(FarmError::Malformed("trailing bytes".into())) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order() -> PieceOrder {
        PieceOrder {
            index: 7,
            tiles: vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
            moves: vec![0, 3, 2],
            bound: 31_000,
            weight: 1000,
            proven: 31,
            heuristic: Heuristic::PatternDatabase,
            tables: "pdb-4x4-7-8-v3.bin".into(),
        }
    }

    #[test]
    fn orders_and_reports_come_back_as_they_went() {
        assert_eq!(PieceOrder::decode(&order().encode()), Ok(order()));
        for path in [None, Some(vec![1, 2, 3])] {
            let report = PieceReport { expanded: 1 << 40, generated: 3, cut: u64::MAX, closest: 2, path };
            assert_eq!(PieceReport::decode(&report.encode()), Ok(report));
        }
    }

    #[test]
    fn every_cut_or_changed_message_is_refused_not_misread() {
        let bytes = order().encode();
        for len in 0..bytes.len() {
            assert!(PieceOrder::decode(&bytes[..len]).is_err(), "cut at {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(PieceOrder::decode(&longer).is_err(), "trailing byte");
        let mut other_version = bytes.clone();
        other_version[0] = VERSION + 1;
        assert!(matches!(PieceOrder::decode(&other_version), Err(FarmError::Malformed(m)) if m.contains("version")));
        // A sequence length far past the message is refused before anything is allocated.
        let mut huge = vec![VERSION];
        huge.extend_from_slice(&0u32.to_le_bytes());
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(PieceOrder::decode(&huge).is_err());
        assert!(PieceReport::decode(&[VERSION, 1, 2]).is_err());
    }
}
