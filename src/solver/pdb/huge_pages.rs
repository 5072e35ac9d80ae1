//! Memory for the build's large arrays and for resident tables, backed by huge pages where the
//! system allows it.
//!
//! The build reads its per-placement words and writes its table at random across a gigabyte,
//! and a search reads its tables at random across hundreds of megabytes; with 4 KB pages nearly
//! every such access also misses the TLB and walks the page tables. [`filled`] and [`copied`]
//! ask the kernel, before the memory is first touched, to back it with 2 MB pages
//! (`madvise(MADV_HUGEPAGE)`, honoured when transparent huge pages are `always` or `madvise`).
//! The advice is only a hint: where it is refused, or on other systems, the memory is ordinary.
//!
//! A table file is mapped with the same advice (see `file`), which the kernel can honour only
//! for pages it reads into the page cache afterwards: [`forget_cached`] drops a file the build
//! has just written, so that its first mapping reads it back on huge pages.

/// `len` values made by `make`, in memory advised to use huge pages.
pub(super) fn filled<T>(len: usize, make: impl Fn() -> T) -> Vec<T> {
    let mut values: Vec<T> = Vec::with_capacity(len);
    advise(values.as_mut_ptr().cast::<u8>(), len * size_of::<T>());
    values.extend((0..len).map(|_| make()));
    values
}

/// A copy of `bytes` in memory advised to use huge pages.
pub(super) fn copied(bytes: &[u8]) -> Vec<u8> {
    let mut copy: Vec<u8> = Vec::with_capacity(bytes.len());
    advise(copy.as_mut_ptr(), bytes.len());
    copy.extend_from_slice(bytes);
    copy
}

#[cfg(target_os = "linux")]
fn advise(start: *mut u8, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let first = (start as usize).next_multiple_of(HUGE_PAGE);
    let end = (start as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside the allocation that starts at `start`, and the advice
        // changes neither its contents nor its mapping's validity.
        unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize) {}

/// Drops the cached pages of `file`, written and synced, from the page cache. The writes left
/// them on small pages, which a mapping can only map one by one (see `docs/performance.md`,
/// "2026-12-05 — Huge pages and an incremental index"). Only a hint: pages still mapped
/// elsewhere, or dirty, stay.
#[cfg(target_os = "linux")]
pub(super) fn forget_cached(file: &std::fs::File) {
    use std::os::fd::AsRawFd;
    // SAFETY: the descriptor is open for the call's duration; the advice changes no data.
    unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
}

#[cfg(not(target_os = "linux"))]
pub(super) fn forget_cached(_: &std::fs::File) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_are_all_there() {
        let values = filled(3 << 20, || 7u16);
        assert_eq!(values.len(), 3 << 20);
        assert!(values.iter().all(|&value| value == 7));
    }

    #[test]
    fn a_copy_holds_the_same_bytes() {
        let bytes: Vec<u8> = (0..(5 << 20)).map(|i: u32| (i % 251) as u8).collect();
        assert_eq!(copied(&bytes), bytes);
    }
}
