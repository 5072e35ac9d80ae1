//! `npuzzle-bench load --addr URL --concurrency C --duration D` drives a running server (or a
//! local proxy) with a mix of calls and prints calls/s, latency percentiles per kind of call
//! and a count per status code (see [`npuzzle::load`]). It exits 1 if any answer was wrong or
//! any status unexpected. An `https://` address is called over TLS (`--tls-ca`, and
//! `--tls-cert`/`--tls-key` for mTLS), e.g. Envoy's listener in `deploy/`.
//!
//! The calls, their mix and the report are the library's; this module holds the flags and
//! prints the report with the server's memory beside it.

use std::time::Duration;

use anyhow::Result;
use npuzzle::client::TlsFlags;

/// `npuzzle-bench load`'s flags.
#[derive(Debug, clap::Args)]
pub struct LoadArgs {
    /// The server or proxy, on a loopback address; https:// for TLS (see --tls-ca).
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    addr: String,
    #[command(flatten)]
    tls: TlsFlags,
    /// Clients calling at once.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// How long clients start new calls, e.g. 60s or 2m.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    duration: Duration,
    /// The most calls of the run.
    #[arg(long, default_value_t = 100_000_000)]
    max_calls: u64,
    /// Weights of the kinds of call: 3x3-trivial, 3x3-hardest, 4x4, bad-input, cancelled.
    #[arg(long, default_value = "3x3-trivial=40,3x3-hardest=30,4x4=15,bad-input=10,cancelled=5")]
    mix: npuzzle::load::mix::Mix,
    /// When a `cancelled` call is dropped.
    #[arg(long, default_value = "50ms", value_parser = humantime::parse_duration)]
    cancel_after: Duration,
    /// The deadline of every call.
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    call_timeout: Duration,
    /// HTTP/2 connections the clients share.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Count UNAVAILABLE and lost connections as expected (a server is stopped during the run).
    #[arg(long)]
    allow_unavailable: bool,
    /// Sample this process's resident memory (the server's pid) during the run.
    #[arg(long, value_name = "PID")]
    server_pid: Option<u32>,
}

/// Runs `npuzzle-bench load`, prints its report; true if every answer and status was expected.
pub fn run_load(args: &LoadArgs) -> Result<bool> {
    let config = npuzzle::load::Config {
        tls: args.tls.read()?,
        max_calls: args.max_calls,
        mix: args.mix.clone(),
        cancel_after: args.cancel_after,
        call_timeout: args.call_timeout,
        connections: args.connections,
        allow_unavailable: args.allow_unavailable,
        watch_pid: args.server_pid,
        ..npuzzle::load::Config::new(&args.addr, args.concurrency, args.duration)
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let outcome = runtime.block_on(npuzzle::load::run(&config))?;
    println!("{}", outcome.report);
    if let Some(rss) = outcome.rss {
        let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
        println!(
            "server rss: start {:.1} MiB, end {:.1} MiB, most sampled {:.1} MiB, peak (VmHWM) {:.1} MiB",
            mib(rss.start.current),
            mib(rss.end.current),
            mib(rss.max_current),
            mib(rss.end.peak)
        );
    }
    Ok(outcome.report.is_clean())
}
