//! Building in the background without slowing searches: [`yield_to_searches`] puts the calling
//! thread at idle scheduling priority, and the build threads it spawns inherit it, so a table
//! build (or the deeper duplicate machine's) only gets the CPU time that no search wants.
//!
//! On Linux the thread moves to `SCHED_IDLE` (it runs only when a core would otherwise idle), and
//! its nice value goes to 19 in case the scheduler ignores that; on other Unix systems the nice
//! value alone; elsewhere nothing changes. Lowering a priority needs no privilege, but it cannot
//! be undone by an ordinary user, so call it on a thread that only builds.

/// Puts the calling thread, and every thread it starts from now on, at the lowest scheduling
/// priority. Returns whether the system accepted it (a refusal is harmless: the build just
/// competes with searches as an ordinary thread).
pub(crate) fn yield_to_searches() -> bool {
    idle_priority()
}

#[cfg(target_os = "linux")]
fn idle_priority() -> bool {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: both calls only read their arguments; 0 means the calling thread on Linux, where
    // scheduling policy and nice value are per thread and inherited by threads it creates.
    let (idle, nice) = unsafe {
        (libc::sched_setscheduler(0, libc::SCHED_IDLE, &param), libc::setpriority(libc::PRIO_PROCESS, 0, 19))
    };
    idle == 0 || nice == 0
}

#[cfg(all(unix, not(target_os = "linux")))]
fn idle_priority() -> bool {
    // SAFETY: setpriority only reads its arguments; 0 names the calling process.
    unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) == 0 }
}

#[cfg(not(unix))]
fn idle_priority() -> bool {
    false
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_thread_that_yields_runs_at_idle_priority_and_passes_it_on() {
        let policies = std::thread::spawn(|| {
            assert!(yield_to_searches(), "the system refused idle priority");
            // SAFETY: sched_getscheduler only reads its argument; 0 is the calling thread.
            let own = unsafe { libc::sched_getscheduler(0) };
            let child = std::thread::spawn(|| unsafe { libc::sched_getscheduler(0) }).join().expect("a child thread");
            (own, child)
        })
        .join()
        .expect("the yielding thread");
        assert_eq!(policies, (libc::SCHED_IDLE, libc::SCHED_IDLE));
        // SAFETY: as above; this test's own thread was never lowered.
        assert_ne!(unsafe { libc::sched_getscheduler(0) }, libc::SCHED_IDLE);
    }
}
