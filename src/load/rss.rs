//! The resident memory of a process, read from `/proc/PID/status` (Linux): what a load run
//! samples to show that a server's memory stays flat.

use std::path::PathBuf;

use thiserror::Error;

/// Why a process's memory could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RssError {
    /// `/proc/PID/status` could not be read (no such process, or not Linux).
    #[error("cannot read {path}: {source} (is the process running, on Linux?)")]
    Read {
        /// The file tried.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file has no `VmRSS` line (a kernel thread, or a zombie).
    #[error("{0} has no VmRSS line")]
    Missing(PathBuf),
}

/// A process's resident memory now and at its peak, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rss {
    /// `VmRSS`: resident now.
    pub current: u64,
    /// `VmHWM`: the most it has been resident (0 if the kernel does not say).
    pub peak: u64,
}

/// Reads process `pid`'s resident memory.
pub fn read(pid: u32) -> Result<Rss, RssError> {
    let path = PathBuf::from(format!("/proc/{pid}/status"));
    let status = std::fs::read_to_string(&path).map_err(|source| RssError::Read { path: path.clone(), source })?;
    let field = |name: &str| {
        status.lines().find_map(|line| line.strip_prefix(name)?.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
    };
    let current = field("VmRSS:").ok_or(RssError::Missing(path))?;
    Ok(Rss { current: current * 1024, peak: field("VmHWM:").unwrap_or(0) * 1024 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_process() {
        let rss = read(std::process::id()).expect("this process's memory");
        assert!(rss.current > 0 && rss.peak >= rss.current, "{rss:?}");
        assert!(matches!(read(u32::MAX), Err(RssError::Read { .. })));
    }
}
