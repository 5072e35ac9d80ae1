//! The gRPC service end to end, in this process: a real server on 127.0.0.1:0 and real gRPC
//! clients over TCP. One test binary for the area, a module per concern.

mod common;
#[path = "../support/process.rs"]
mod process;
#[path = "../support/mod.rs"]
mod support;

mod anytime;
mod budgets;
mod client;
mod hint;
mod lifecycle;
mod limits;
mod pattern_databases;
mod solve;
mod web;
