//! The attack suite: a real `npuzzle-server` process on 127.0.0.1, attacked the ways a server
//! exposed beyond loopback is, each attack bounded in count and time:
//! - [`streams`]: 2,000 streams on one connection, a rapid-reset flood, a 1 MB header block,
//!   a message that declares 2 GB;
//! - [`idle`]: 500 connections that send nothing, one idle after its preface, one past the
//!   connection cap;
//! - [`tokens`]: calls without, with a wrong and with the right access token;
//! - [`tls`]: TLS and mTLS, refused certificates, plaintext against TLS, grpcurl;
//! - [`harness`]: the normal client measured throughout, the server's memory and CPU;
//! - [`frames`]: raw HTTP/2 frames, for attacks a well-behaved client library cannot send;
//! - [`certs`]: certificates made for each test with rcgen.
//!
//! Every attack prints the normal client's p99, the server's RSS before and at its peak, and
//! what the attacking connection received (`cargo test --release --test security --
//! --nocapture`).

mod certs;
mod frames;
mod harness;
mod idle;
#[path = "../support/process.rs"]
mod process;
mod streams;
mod tls;
mod tokens;
