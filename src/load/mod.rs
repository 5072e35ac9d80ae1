//! Load runs against a running server (`npuzzle-bench load`): many concurrent clients send a
//! fixed mix of calls ([`mix`]) for a bounded time and count, and the run reports requests/s,
//! latency percentiles per kind and a count per gRPC status code ([`stats`]), checking every
//! answer against the board's known optimal length. A call that failed in the client's
//! transport is counted apart as never sent or lost under way ([`transport`]), and the server's
//! "busy" is recognised by its metadata ([`crate::service::is_busy`]).
//!
//! A run only targets loopback addresses: it is a test of this machine's server (or of a local
//! proxy in front of local replicas), never a way to flood another host. It is bounded by
//! [`Config::duration`], [`Config::max_calls`] and a per-call timeout, and it can sample a
//! process's resident memory ([`rss`]) while it runs.
//!
//! An `https://` address is called over TLS with [`Config::tls`] (the CA to trust, a client
//! certificate for mTLS), as a TLS proxy in front of the replicas is.

pub mod mix;
pub mod rss;
pub mod stats;
pub mod transport;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;
use tonic::Code;
use tonic::transport::{Channel, Endpoint, Uri};

use crate::client::{ClientError, ClientTls, Credentials};
use crate::proto::solver_service_client::SolverServiceClient;
use crate::service::is_busy;
use mix::{Call, Mix, Verdict};
use rss::{Rss, RssError};
use stats::{Answer, Report, Tally};

/// The longest run allowed.
pub const MAX_DURATION: Duration = Duration::from_secs(3600);
/// The most concurrent clients allowed.
pub const MAX_CONCURRENCY: usize = 1024;
/// The response header in which Envoy says how many attempts a call took (with
/// `include_attempt_count_in_response` on the route's virtual host).
const ATTEMPT_COUNT_HEADER: &str = "x-envoy-attempt-count";
/// How often the watched process's memory is sampled.
const RSS_INTERVAL: Duration = Duration::from_millis(500);

/// What a load run does.
#[derive(Debug, Clone)]
pub struct Config {
    /// The server (or proxy), e.g. `http://127.0.0.1:50051` or `https://127.0.0.1:8080`;
    /// loopback only.
    pub addr: String,
    /// For an `https://` address: the CA to trust, the client certificate, the name to expect
    /// (`None`: the system's CAs, no client certificate).
    pub tls: Option<ClientTls>,
    /// Clients calling at once, each waiting for its answer before the next call.
    pub concurrency: usize,
    /// How long clients start new calls.
    pub duration: Duration,
    /// The most calls of the run.
    pub max_calls: u64,
    /// The kinds of call, weighted.
    pub mix: Mix,
    /// When a `cancelled` call is dropped.
    pub cancel_after: Duration,
    /// The deadline sent with every call (`grpc-timeout`).
    pub call_timeout: Duration,
    /// HTTP/2 connections the clients share.
    pub connections: usize,
    /// Whether a server may stop during the run: then UNAVAILABLE, and calls that failed in the
    /// transport (never sent, or lost under way), are expected; the report counts the latter.
    pub allow_unavailable: bool,
    /// A process whose resident memory to sample during the run (the server's).
    pub watch_pid: Option<u32>,
}

impl Config {
    /// A run of `concurrency` clients for `duration` against `addr`, with the default mix and
    /// limits.
    pub fn new(addr: impl Into<String>, concurrency: usize, duration: Duration) -> Config {
        Config {
            addr: addr.into(),
            tls: None,
            concurrency,
            duration,
            max_calls: 100_000_000,
            mix: Mix::default(),
            cancel_after: Duration::from_millis(50),
            call_timeout: Duration::from_secs(60),
            connections: 4,
            allow_unavailable: false,
            watch_pid: None,
        }
    }
}

/// Why a load run could not start.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The address is not a URL.
    #[error("address {addr:?} is not a URL like http://127.0.0.1:50051: {reason}")]
    Address {
        /// The address given.
        addr: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The address is not a loopback one.
    #[error("address {0:?} is not on this machine: load runs only target loopback (127.0.0.0/8, [::1], localhost)")]
    NotLoopback(String),
    /// TLS could not be set up for the address (or was given for an `http://` one).
    #[error(transparent)]
    Tls(ClientError),
    /// A limit is out of range.
    #[error("{0}")]
    Limit(String),
    /// The server could not be reached.
    #[error("cannot connect to {addr}: {source}")]
    Connect {
        /// The address given.
        addr: String,
        /// The transport's error.
        source: tonic::transport::Error,
    },
    /// The watched process's memory could not be read.
    #[error("cannot watch the server's memory: {0}")]
    Rss(#[from] RssError),
}

/// Resident memory of the watched process over a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RssSamples {
    /// Before the first call.
    pub start: Rss,
    /// After the last answer.
    pub end: Rss,
    /// The most seen in any sample.
    pub max_current: u64,
}

/// A finished run: the counts, and the watched process's memory if one was watched.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Calls, latencies, statuses and verdicts.
    pub report: Report,
    /// The watched process's memory.
    pub rss: Option<RssSamples>,
}

/// Checks that `addr` is an `http://` or `https://` URL on a loopback host.
pub fn check_loopback(addr: &str) -> Result<Uri, LoadError> {
    let bad = |reason: &str| LoadError::Address { addr: addr.to_owned(), reason: reason.to_owned() };
    let uri: Uri = addr.parse().map_err(|error: tonic::codegen::http::uri::InvalidUri| bad(&error.to_string()))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err(bad("the scheme must be http (plaintext HTTP/2) or https (TLS)"));
    }
    let host = uri.host().ok_or_else(|| bad("no host"))?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if loopback { Ok(uri) } else { Err(LoadError::NotLoopback(addr.to_owned())) }
}

fn check_limits(config: &Config) -> Result<(), LoadError> {
    if !(1..=MAX_CONCURRENCY).contains(&config.concurrency) {
        return Err(LoadError::Limit(format!("concurrency {} is not in 1..={MAX_CONCURRENCY}", config.concurrency)));
    }
    if config.duration.is_zero() || config.duration > MAX_DURATION {
        return Err(LoadError::Limit(format!("duration {:?} is not in (0, {MAX_DURATION:?}]", config.duration)));
    }
    if config.connections == 0 || config.max_calls == 0 || config.call_timeout.is_zero() {
        return Err(LoadError::Limit("connections, max calls and the call timeout must be above 0".to_owned()));
    }
    Ok(())
}

/// Runs the load described by `config` and reports on it. Clients stop starting calls at the
/// end of the duration or once `max_calls` have started; calls under way finish (each within
/// `call_timeout`).
pub async fn run(config: &Config) -> Result<Outcome, LoadError> {
    let uri = check_loopback(&config.addr)?;
    check_limits(config)?;
    let credentials = Credentials { tls: config.tls.clone(), token: None };
    let endpoint = credentials.endpoint(Endpoint::from(uri)).map_err(LoadError::Tls)?.tcp_nodelay(true);
    let start_rss = config.watch_pid.map(rss::read).transpose()?;
    let mut channels = Vec::with_capacity(config.connections);
    for _ in 0..config.connections.min(config.concurrency) {
        let channel =
            endpoint.connect().await.map_err(|source| LoadError::Connect { addr: config.addr.clone(), source })?;
        channels.push(channel);
    }
    let started = Instant::now();
    let end = started + config.duration;
    let next_call = Arc::new(AtomicU64::new(0));
    let sampler = config.watch_pid.map(|pid| tokio::spawn(sample_rss(pid, end)));
    let clients: Vec<_> = (0..config.concurrency)
        .map(|index| {
            let client = SolverServiceClient::new(channels[index % channels.len()].clone());
            tokio::spawn(client_loop(client, config.clone(), end, next_call.clone()))
        })
        .collect();
    let mut tally = Tally::default();
    for client in clients {
        // A client task only ends by returning its tally; a panic in one is a bug worth showing.
        match client.await {
            Ok(client_tally) => tally.merge(&client_tally),
            Err(error) => std::panic::resume_unwind(error.into_panic()),
        }
    }
    let elapsed = started.elapsed();
    let max_current = match sampler {
        Some(sampler) => sampler.await.unwrap_or(0),
        None => 0,
    };
    let rss = match (start_rss, config.watch_pid) {
        (Some(start), Some(pid)) => {
            let end = rss::read(pid)?;
            Some(RssSamples { start, end, max_current: max_current.max(start.current).max(end.current) })
        }
        _ => None,
    };
    Ok(Outcome { report: Report { tally, elapsed, concurrency: config.concurrency }, rss })
}

/// The most resident memory seen in samples of `pid` until `end` (0 if it could not be read).
async fn sample_rss(pid: u32, end: Instant) -> u64 {
    let mut most = 0;
    while Instant::now() < end {
        if let Ok(rss) = rss::read(pid) {
            most = most.max(rss.current);
        }
        tokio::time::sleep(RSS_INTERVAL).await;
    }
    most
}

/// One client: calls one after the other until the run ends, counting each.
async fn client_loop(
    mut client: SolverServiceClient<Channel>,
    config: Config,
    end: Instant,
    next_call: Arc<AtomicU64>,
) -> Tally {
    let mut tally = Tally::default();
    while Instant::now() < end {
        let index = next_call.fetch_add(1, Ordering::Relaxed);
        if index >= config.max_calls {
            break;
        }
        let call = config.mix.call(index);
        let started = Instant::now();
        let answer = send(&mut client, &call, &config).await;
        tally.record(call.kind, started.elapsed(), &answer);
    }
    tally
}

/// Sends one call and judges what came back.
async fn send(client: &mut SolverServiceClient<Channel>, call: &Call, config: &Config) -> Answer {
    let mut request = tonic::Request::new(call.request.clone());
    request.set_timeout(config.call_timeout);
    let answer = if call.kind.is_cancelled() {
        match tokio::time::timeout(config.cancel_after, client.solve(request)).await {
            Ok(answer) => answer,
            // Dropping the call's future resets its HTTP/2 stream: the server sees a cancellation.
            Err(_elapsed) => {
                let message = "dropped by the client".to_owned();
                return Answer {
                    code: Code::Cancelled,
                    verdict: Verdict::Expected,
                    retried: false,
                    failure: None,
                    message,
                };
            }
        }
    } else {
        client.solve(request).await
    };
    match answer {
        Ok(response) => {
            let retried = retried(response.metadata());
            let solution = &response.get_ref().solution;
            let verdict = solution.as_ref().map_or(Verdict::WrongAnswer, |solution| call.judge_solution(solution));
            let message = match solution {
                Some(solution) => format!(
                    "solvable {}, {} moves, {} boards",
                    solution.solvable(),
                    solution.moves,
                    solution.boards.len()
                ),
                None => "no solution in the response".to_owned(),
            };
            Answer { code: Code::Ok, verdict, retried, failure: None, message }
        }
        Err(status) => {
            let failure = transport::classify(&status);
            let verdict = if config.allow_unavailable && failure.is_some() {
                Verdict::Expected
            } else {
                call.judge_status(status.code(), is_busy(&status), config.allow_unavailable)
            };
            Answer {
                code: status.code(),
                verdict,
                retried: retried(status.metadata()),
                failure,
                message: transport::describe(&status),
            }
        }
    }
}

fn retried(metadata: &tonic::metadata::MetadataMap) -> bool {
    metadata
        .get(ATTEMPT_COUNT_HEADER)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u32>().ok())
        .is_some_and(|attempts| attempts > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_targets() {
        for addr in ["http://127.0.0.1:50051", "http://127.0.0.2:1", "http://[::1]:50051", "http://localhost:9"] {
            assert!(check_loopback(addr).is_ok(), "{addr}");
        }
        for addr in ["http://10.0.0.1:50051", "http://example.com:80", "http://[2001:db8::1]:1"] {
            assert!(matches!(check_loopback(addr), Err(LoadError::NotLoopback(_))), "{addr}");
        }
        assert!(check_loopback("https://127.0.0.1:8080").is_ok());
        assert!(matches!(check_loopback("https://10.0.0.1:8080"), Err(LoadError::NotLoopback(_))));
        assert!(matches!(check_loopback("ftp://127.0.0.1:1"), Err(LoadError::Address { .. })));
        assert!(matches!(check_loopback("127.0.0.1 50051"), Err(LoadError::Address { .. })));
    }

    #[test]
    fn limits_are_checked() {
        let config = Config::new("http://127.0.0.1:1", 0, Duration::from_secs(1));
        assert!(matches!(check_limits(&config), Err(LoadError::Limit(_))));
        let config = Config::new("http://127.0.0.1:1", 4, MAX_DURATION * 2);
        assert!(matches!(check_limits(&config), Err(LoadError::Limit(_))));
        assert!(check_limits(&Config::new("http://127.0.0.1:1", 4, Duration::from_secs(1))).is_ok());
    }
}
