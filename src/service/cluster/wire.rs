//! A piece's report as it travels to its coordinator: the piece's index, the reporting replica
//! and the library's [`PieceReport`] bytes. Decoded as external input: anything malformed is an
//! error, never a panic.

use crate::solver::{FarmError, FarmedResult, PieceReport};

/// The longest replica name a report may carry.
const MAX_WORKER: usize = 64;

/// The bytes of `result`.
pub(super) fn encode(result: &FarmedResult) -> Vec<u8> {
    let worker = result.worker.as_bytes();
    let mut out = Vec::with_capacity(5 + worker.len() + 40);
    out.extend_from_slice(&result.index.to_le_bytes());
    out.push(worker.len().min(MAX_WORKER) as u8);
    out.extend_from_slice(&worker[..worker.len().min(MAX_WORKER)]);
    out.extend_from_slice(&result.report.encode());
    out
}

/// The result in `bytes`, as [`encode`] wrote it.
pub(super) fn decode(bytes: &[u8]) -> Result<FarmedResult, FarmError> {
    let short = || FarmError::Malformed("report cut short".into());
    let (index, rest) = bytes.split_first_chunk::<4>().ok_or_else(short)?;
    let (&len, rest) = rest.split_first().ok_or_else(short)?;
    let len = usize::from(len);
    if len > MAX_WORKER || rest.len() < len {
        return Err(short());
    }
    let (worker, report) = rest.split_at(len);
    Ok(FarmedResult {
        index: u32::from_le_bytes(*index),
        worker: String::from_utf8_lossy(worker).into_owned(),
        report: PieceReport::decode(report)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_comes_back_as_it_went_and_a_cut_one_is_refused() {
        let report = PieceReport { expanded: 5, generated: 9, cut: 40_000, closest: 3, path: None };
        let result = FarmedResult { index: 12, worker: "b1".into(), report };
        let bytes = encode(&result);
        assert_eq!(decode(&bytes), Ok(result));
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_err(), "cut at {len}");
        }
    }
}
