//! Who is in the cluster: every replica announces itself every [`ANNOUNCE_EVERY`] with the
//! pattern databases it holds, and a coordinator counts the others heard from lately that hold
//! a search's tables. With none, a search stays on its own replica.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a replica announces itself.
pub(super) const ANNOUNCE_EVERY: Duration = Duration::from_secs(1);

/// A replica not heard from for this long is taken to be gone.
const GONE_AFTER: Duration = Duration::from_secs(3);

/// The other replicas heard from, and when.
#[derive(Debug, Default)]
pub(super) struct Members {
    seen: Mutex<HashMap<String, (Instant, Vec<String>)>>,
}

impl Members {
    /// Notes an announcement from `replica` holding `tables` (one file name a line).
    pub(super) fn heard(&self, replica: &str, tables: &[u8]) {
        let tables = String::from_utf8_lossy(tables).lines().map(str::to_owned).collect();
        if let Ok(mut seen) = self.seen.lock() {
            seen.retain(|_, (at, _)| at.elapsed() < GONE_AFTER * 10);
            seen.insert(replica.to_owned(), (Instant::now(), tables));
        }
    }

    /// Replicas other than `me` heard from lately that hold `tables` (any, when empty).
    pub(super) fn count(&self, me: &str, tables: &str) -> usize {
        let Ok(seen) = self.seen.lock() else { return 0 };
        seen.iter()
            .filter(|(replica, (at, held))| {
                replica.as_str() != me
                    && at.elapsed() < GONE_AFTER
                    && (tables.is_empty() || held.iter().any(|held| held == tables))
            })
            .count()
    }
}

/// What a replica announces: the file names of the tables it holds, one a line.
pub(super) fn announcement(tables: &[String]) -> Vec<u8> {
    tables.join("\n").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_other_replicas_with_the_tables_count() {
        let members = Members::default();
        members.heard("a", &announcement(&["t1".into(), "t2".into()]));
        members.heard("b", &announcement(&[]));
        assert_eq!(members.count("a", ""), 1, "b, not a itself");
        assert_eq!(members.count("b", "t2"), 1);
        assert_eq!(members.count("b", "t3"), 0);
        assert_eq!(members.count("c", ""), 2);
    }
}
