//! Load and faults against real `npuzzle-server` processes: one test binary for the area.
//! - [`runs`]: many clients through `npuzzle::load`, and SIGTERM under load;
//! - [`replicas`]: three replicas behind Envoy (`deploy/envoy.yaml`), one killed, one stopped;
//! - [`process`]: the servers and Envoy as child processes (shared with the other test binaries).

#[path = "../support/process.rs"]
mod process;
mod replicas;
mod runs;
