//! Asking the memory system for a cache line ahead of its use, so that a miss overlaps other
//! work: the pattern-database build's children and IDA*'s duplicate machine both use it.

/// Asks the memory system for the cache line of `value`, without waiting for it.
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory; the address is a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
