//! The core of a search that waits on the cluster. A coordinator's own thread only collects
//! reports while its iteration is out, so it lends its search slot's core to this replica's
//! workers for that time, and takes it back after: a lent core still in use is given back when
//! its piece ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The cores coordinators lend while they wait.
#[derive(Debug)]
pub(super) struct Spare {
    cores: Arc<Semaphore>,
    /// Cores taken back while a worker held them: forgotten when it gives them back.
    owed: AtomicUsize,
}

/// One lent core in a worker's hands.
pub(super) struct SpareCore {
    permit: Option<OwnedSemaphorePermit>,
    spare: Arc<Spare>,
}

impl Default for Spare {
    fn default() -> Spare {
        Spare { cores: Arc::new(Semaphore::new(0)), owed: AtomicUsize::new(0) }
    }
}

impl Spare {
    /// A coordinator lends its core.
    pub(super) fn lend(&self) {
        self.cores.add_permits(1);
    }

    /// A coordinator takes its core back.
    pub(super) fn take_back(&self) {
        if self.cores.forget_permits(1) == 0 {
            self.owed.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Whether a lent core is free.
    pub(super) fn any_free(&self) -> bool {
        self.cores.available_permits() > 0
    }

    /// A free lent core, if any.
    pub(super) fn take(self: &Arc<Spare>) -> Option<SpareCore> {
        let permit = self.cores.clone().try_acquire_owned().ok()?;
        Some(SpareCore { permit: Some(permit), spare: self.clone() })
    }
}

impl Drop for SpareCore {
    fn drop(&mut self) {
        let owed = self.spare.owed.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |owed| owed.checked_sub(1));
        if let (Ok(_), Some(permit)) = (owed, self.permit.take()) {
            permit.forget();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_core_taken_back_while_in_use_is_not_lent_again() {
        let spare = Arc::new(Spare::default());
        assert!(spare.take().is_none(), "nothing lent");
        spare.lend();
        let core = spare.take().expect("lent");
        spare.take_back();
        drop(core);
        assert!(!spare.any_free(), "the core went back to its search");
        spare.lend();
        spare.take_back();
        assert!(spare.take().is_none());
    }
}
