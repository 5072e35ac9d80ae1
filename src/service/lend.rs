//! The server's search slots, lent to a running search's helper threads one piece of work at a
//! time: a long IDA* uses a core that no request wants, and gives it back within one piece when
//! a request comes (the semaphore serves waiting requests before a new lease).

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::solver::{Lease, Lender};

/// Lends the server's free search slots.
#[derive(Debug)]
pub struct SlotLender(pub Arc<Semaphore>);

impl Lender for SlotLender {
    fn lend(&self) -> Option<Lease> {
        self.0.clone().try_acquire_owned().ok().map(Lease::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_lent_only_when_free_and_comes_back() {
        let slots = Arc::new(Semaphore::new(1));
        let lender = SlotLender(slots.clone());
        let lease = lender.lend().expect("the slot is free");
        assert_eq!(slots.available_permits(), 0);
        assert!(lender.lend().is_none(), "no slot left");
        drop(lease);
        assert_eq!(slots.available_permits(), 1);
        slots.close();
        assert!(lender.lend().is_none(), "a closed pool lends nothing");
    }
}
