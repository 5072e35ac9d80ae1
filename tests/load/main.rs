//! Load and faults against real `npuzzle-server` processes: one test binary for the area.
//! - [`runs`]: many clients through `npuzzle::load`, and SIGTERM under load;
//! - [`replicas`]: three replicas behind Envoy (`deploy/envoy.yaml`), one killed, one stopped;
//! - [`retries`]: which answers Envoy retries: the server's "busy", never a spent budget;
//! - [`envoy`]: Envoy in front of three replicas, TLS on both sides, and its counters;
//! - [`certs`]: the certificates of the TLS, made with rcgen (shared with the security tests);
//! - [`process`]: the servers and Envoy as child processes (shared with the other test binaries).

#[path = "../security/certs.rs"]
mod certs;
mod envoy;
#[path = "../support/process.rs"]
mod process;
mod replicas;
mod retries;
mod runs;
