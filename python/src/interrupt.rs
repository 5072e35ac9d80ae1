//! Searching without the GIL while Ctrl-C still stops the search: the work runs on a thread of
//! its own with a [`Stop`] flag, while the caller's thread waits with the GIL released and,
//! every few tens of milliseconds, takes it back to let Python handle pending signals
//! (`Python::check_signals`). A KeyboardInterrupt (or any exception a signal handler raises)
//! raises the flag, waits for the search to stop, and is raised to the caller.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use npuzzle::solver::Stop;

/// How often the waiting thread looks at Python's signals.
const SIGNAL_CHECK_INTERVAL: Duration = Duration::from_millis(50);

/// Runs `work` with `stop` on a new thread, the GIL released, and returns what it returns; a
/// Python signal handler's exception raises `stop` and is returned once the work has ended.
pub fn run<T: Send + 'static>(py: Python<'_>, stop: &Stop, work: impl FnOnce() -> T + Send + 'static) -> PyResult<T> {
    let (sender, receiver) = mpsc::channel();
    let worker = thread::Builder::new()
        .name("npuzzle-search".into())
        .spawn(move || {
            // The receiver is gone only if the caller already returned.
            let _ = sender.send(work());
        })
        .map_err(|error| PyRuntimeError::new_err(format!("cannot start the search thread: {error}")))?;
    let mut receiver = receiver;
    loop {
        // The receiver goes into the closure and comes back: it may be sent, not shared.
        let (received, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_CHECK_INTERVAL), receiver));
        receiver = back;
        match received {
            Ok(result) => {
                let _ = py.detach(|| worker.join());
                return Ok(result);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    stop.stop();
                    let _ = py.detach(|| worker.join());
                    return Err(interrupt);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the search thread ended without an answer (a panic)"));
            }
        }
    }
}
