//! The cores a long search may borrow. IDA* splits its big iterations into pieces that helper
//! threads run beside the search's own thread (see `search::idastar`). A helper holds a
//! [`Lease`] on a core for each piece it runs, so a server's count of busy cores stays true: a
//! request waiting for a core gets the next one free, before any helper does, and waits at most
//! one piece's time. In a cluster they also carry the [`Farm`] that takes the pieces of the
//! longest iterations to other replicas.

use std::fmt;
use std::sync::Arc;
use std::thread;

use super::farm::Farm;

/// A claim on one core for one piece of work, given back when dropped.
pub struct Lease {
    _held: Box<dyn Send>,
}

impl Lease {
    /// A lease that gives `held` back (drops it) when it ends, such as a semaphore permit.
    pub fn new(held: impl Send + 'static) -> Lease {
        Lease { _held: Box::new(held) }
    }
}

/// Whoever counts the cores a search may borrow, such as a server's pool of search slots.
pub trait Lender: Send + Sync {
    /// A core for one piece of work, or `None` when every core is taken or wanted.
    fn lend(&self) -> Option<Lease>;
}

/// The helper threads a search may start, and where their cores come from.
#[derive(Clone, Default)]
pub struct Helpers {
    threads: usize,
    lender: Option<Arc<dyn Lender>>,
    farm: Option<Arc<dyn Farm>>,
}

impl Helpers {
    /// No helpers: the search runs on its caller's thread alone (the default).
    pub fn none() -> Helpers {
        Helpers::default()
    }

    /// `threads` helpers that run whenever there is work, for a program that has the machine to
    /// itself (a benchmark, a command-line solve).
    pub fn dedicated(threads: usize) -> Helpers {
        Helpers { threads, lender: None, farm: None }
    }

    /// One dedicated helper per core but the caller's own.
    pub fn all_cores() -> Helpers {
        Helpers::dedicated(thread::available_parallelism().map_or(1, |n| n.get()).saturating_sub(1))
    }

    /// `threads` helpers, each running a piece of work only while `lender` lends it a core.
    pub fn lent(threads: usize, lender: Arc<dyn Lender>) -> Helpers {
        Helpers { threads, lender: Some(lender), farm: None }
    }

    /// These helpers, the longest iterations going to `farm` when it has other workers up.
    pub fn with_farm(self, farm: Arc<dyn Farm>) -> Helpers {
        Helpers { farm: Some(farm), ..self }
    }

    /// The farm a long iteration may go to, if any.
    pub fn farm(&self) -> Option<&Arc<dyn Farm>> {
        self.farm.as_ref()
    }

    /// How many helper threads a search may start.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A core for one piece of work: always, for dedicated helpers.
    pub fn lend(&self) -> Option<Lease> {
        match &self.lender {
            Some(lender) => lender.lend(),
            None => Some(Lease::new(())),
        }
    }
}

impl fmt::Debug for Helpers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Helpers")
            .field("threads", &self.threads)
            .field("lent", &self.lender.is_some())
            .field("farm", &self.farm.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Lends at most `cores` at once.
    struct Counted {
        cores: usize,
        out: Arc<AtomicUsize>,
    }

    struct Returned(Arc<AtomicUsize>);

    impl Drop for Returned {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }

    impl Lender for Counted {
        fn lend(&self) -> Option<Lease> {
            let out = self.out.fetch_add(1, Ordering::SeqCst);
            if out >= self.cores {
                self.out.fetch_sub(1, Ordering::SeqCst);
                return None;
            }
            Some(Lease::new(Returned(self.out.clone())))
        }
    }

    #[test]
    fn a_lease_is_given_back_when_dropped() {
        let out = Arc::new(AtomicUsize::new(0));
        let helpers = Helpers::lent(3, Arc::new(Counted { cores: 1, out: out.clone() }));
        let first = helpers.lend().expect("one core is free");
        assert!(helpers.lend().is_none(), "the only core is lent");
        drop(first);
        assert_eq!(out.load(Ordering::SeqCst), 0);
        assert!(helpers.lend().is_some(), "the core is back");
        assert_eq!(helpers.threads(), 3);
    }

    #[test]
    fn dedicated_helpers_always_have_a_core() {
        let helpers = Helpers::dedicated(2);
        let leases: Vec<_> = (0..10).filter_map(|_| helpers.lend()).collect();
        assert_eq!(leases.len(), 10);
        assert_eq!(Helpers::none().threads(), 0);
    }
}
