//! The memory a finished search freed, given back to the system.
//!
//! The C allocator keeps the heap pages a search frees for later use, so a server that has run
//! one large search (an A* that filled its memory budget) would otherwise stay tens of MB
//! larger until its next one: a 128 MiB A* left a server at 30–35 MiB where it idles at 16 MiB.
//! After a search that may have held much, the heap's free pages are handed back.

use crate::solver::{SearchError, Solution};

/// Searches that expanded fewer nodes held too little to be worth a trim, which walks the heap.
const TRIM_FROM_NODES: u64 = 1 << 20;

/// Hands the heap's free pages back to the system after `searched`, when it ran out of memory
/// or expanded `nodes` ([`TRIM_FROM_NODES`] or more).
pub fn give_back(searched: &Result<Solution, SearchError>, nodes: u64) {
    let large = nodes >= TRIM_FROM_NODES || matches!(searched, Err(SearchError::MemoryBudgetExhausted { .. }));
    if large {
        trim();
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: `malloc_trim` only returns the allocator's own free pages to the system; it takes
    // the allocator's locks, so other threads may allocate meanwhile.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}
