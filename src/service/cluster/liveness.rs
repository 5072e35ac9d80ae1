//! A worker's view of the farmed iterations: which have ended, and which coordinators have gone
//! quiet. A coordinator sends a heartbeat every second while its iteration runs, and a notice
//! when it ends; a worker drops the pieces of an ended iteration, and of one whose coordinator
//! it has not heard from for [`DEAD_AFTER`] (it died), counting from the first piece it saw
//! when it has heard nothing yet.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A coordinator silent this long is taken to be dead, its pieces dropped.
pub(super) const DEAD_AFTER: Duration = Duration::from_secs(5);

/// How long an iteration is remembered after its last news.
const FORGET_AFTER: Duration = Duration::from_secs(600);

#[derive(Debug)]
struct News {
    /// The last heartbeat, or when the worker first heard of the iteration.
    last: Instant,
    ended: bool,
}

/// What the workers of a replica know of each iteration.
#[derive(Debug, Default)]
pub(super) struct Liveness {
    iterations: Mutex<HashMap<String, News>>,
}

impl Liveness {
    /// A heartbeat from `iteration`'s coordinator.
    pub(super) fn alive(&self, iteration: &str) {
        self.update(iteration, |news| news.last = Instant::now());
    }

    /// `iteration` has ended.
    pub(super) fn ended(&self, iteration: &str) {
        self.update(iteration, |news| news.ended = true);
    }

    /// Whether `iteration`'s pieces are to be dropped: it ended, or its coordinator is silent.
    pub(super) fn is_over(&self, iteration: &str) -> bool {
        let mut over = false;
        self.update(iteration, |news| over = news.ended || news.last.elapsed() > DEAD_AFTER);
        over
    }

    fn update(&self, iteration: &str, change: impl FnOnce(&mut News)) {
        let Ok(mut iterations) = self.iterations.lock() else { return };
        if !iterations.contains_key(iteration) {
            iterations.retain(|_, news| news.last.elapsed() < FORGET_AFTER);
        }
        change(iterations.entry(iteration.to_owned()).or_insert_with(|| News { last: Instant::now(), ended: false }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iteration_is_over_once_ended_and_not_before() {
        let liveness = Liveness::default();
        assert!(!liveness.is_over("a-1"), "first heard of: alive for now");
        liveness.alive("a-1");
        assert!(!liveness.is_over("a-1"));
        liveness.ended("a-1");
        assert!(liveness.is_over("a-1"));
        assert!(!liveness.is_over("a-2"));
    }
}
