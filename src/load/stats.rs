//! What a load run counts: per kind of call, a latency histogram (`hdrhistogram`), a count per
//! gRPC status code, wrong answers and unexpected statuses; calls that failed in the transport,
//! by how ([`TransportFailure`]); and how it prints them.
//!
//! Each client keeps its own [`Tally`] and the run merges them at the end, so counting takes no
//! lock on the hot path.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use hdrhistogram::Histogram;
use tonic::Code;

use crate::client::code_name;
use crate::load::mix::{Kind, Verdict};
use crate::load::transport::TransportFailure;

/// How one call ended, as the client saw it.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status (OK for a solution).
    pub code: Code,
    /// Whether that was right for the call.
    pub verdict: Verdict,
    /// Whether a proxy says the call took more than one attempt.
    pub retried: bool,
    /// How the call failed in the client's transport, if it did (then no server sent `code`).
    pub failure: Option<TransportFailure>,
    /// The status's message (with its source errors), or what was wrong with the solution.
    pub message: String,
}

/// The longest latency a histogram records exactly, in microseconds (one hour); longer ones are
/// recorded as this.
const MAX_MICROS: u64 = 3_600_000_000;

/// The counts of one kind of call.
#[derive(Debug, Clone)]
pub struct KindTally {
    /// Latency of every call of this kind, in microseconds.
    pub latency: Histogram<u64>,
    /// Calls by the status they ended with (OK for an answer).
    pub statuses: BTreeMap<&'static str, u64>,
    /// Answers that were not the optimal solution of the board sent.
    pub wrong_answers: u64,
    /// Statuses this kind of call must not get.
    pub unexpected: u64,
    /// The first message of each status code that was wrong or unexpected, to say why.
    pub first_failures: BTreeMap<&'static str, String>,
}

impl KindTally {
    fn new() -> KindTally {
        // 3 significant figures from 1 µs to an hour: a few tens of KiB per kind.
        let latency = Histogram::new_with_bounds(1, MAX_MICROS, 3).unwrap_or_else(|_| unreachable!("valid bounds"));
        KindTally {
            latency,
            statuses: BTreeMap::new(),
            wrong_answers: 0,
            unexpected: 0,
            first_failures: BTreeMap::new(),
        }
    }

    /// Calls of this kind.
    pub fn calls(&self) -> u64 {
        self.latency.len()
    }

    fn merge(&mut self, other: &KindTally) {
        // Both histograms have the same bounds, so adding never fails.
        let _ = self.latency.add(&other.latency);
        for (status, count) in &other.statuses {
            *self.statuses.entry(status).or_default() += count;
        }
        self.wrong_answers += other.wrong_answers;
        self.unexpected += other.unexpected;
        for (status, message) in &other.first_failures {
            self.first_failures.entry(status).or_insert_with(|| message.clone());
        }
    }

    fn millis_at(&self, quantile: f64) -> f64 {
        self.latency.value_at_quantile(quantile) as f64 / 1e3
    }
}

/// One client's counts, or a whole run's once merged.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Counts per kind of call that was sent at least once.
    pub kinds: BTreeMap<Kind, KindTally>,
    /// Calls a proxy answered after more than one attempt (Envoy's `x-envoy-attempt-count`).
    pub retried_by_proxy: u64,
    /// Calls that failed in the client's transport, by how, with the first one's message; their
    /// codes are counted in `kinds` as well, as the client reported them.
    pub transport_failures: BTreeMap<TransportFailure, (u64, String)>,
}

impl Tally {
    /// Counts one call: its kind, how long it took and how it ended.
    pub fn record(&mut self, kind: Kind, latency: Duration, answer: &Answer) {
        let tally = self.kinds.entry(kind).or_insert_with(KindTally::new);
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX).clamp(1, MAX_MICROS);
        // In bounds by the clamp, so recording never fails.
        let _ = tally.latency.record(micros);
        let status = code_name(answer.code);
        *tally.statuses.entry(status).or_default() += 1;
        match answer.verdict {
            Verdict::Expected => {}
            Verdict::WrongAnswer => tally.wrong_answers += 1,
            Verdict::UnexpectedStatus => tally.unexpected += 1,
        }
        if answer.verdict != Verdict::Expected {
            tally.first_failures.entry(status).or_insert_with(|| answer.message.clone());
        }
        self.retried_by_proxy += u64::from(answer.retried);
        if let Some(failure) = answer.failure {
            self.transport_failures.entry(failure).or_insert_with(|| (0, answer.message.clone())).0 += 1;
        }
    }

    /// Calls that failed in the transport in the way `failure` says.
    pub fn transport_failures(&self, failure: TransportFailure) -> u64 {
        self.transport_failures.get(&failure).map_or(0, |(count, _)| *count)
    }

    /// Adds another client's counts to these.
    pub fn merge(&mut self, other: &Tally) {
        for (kind, tally) in &other.kinds {
            self.kinds.entry(*kind).or_insert_with(KindTally::new).merge(tally);
        }
        self.retried_by_proxy += other.retried_by_proxy;
        for (failure, (count, message)) in &other.transport_failures {
            self.transport_failures.entry(*failure).or_insert_with(|| (0, message.clone())).0 += count;
        }
    }

    /// Every call of the run.
    pub fn calls(&self) -> u64 {
        self.kinds.values().map(KindTally::calls).sum()
    }

    /// Answers that were wrong, over every kind.
    pub fn wrong_answers(&self) -> u64 {
        self.kinds.values().map(|tally| tally.wrong_answers).sum()
    }

    /// Statuses that no call of their kind may get, over every kind.
    pub fn unexpected(&self) -> u64 {
        self.kinds.values().map(|tally| tally.unexpected).sum()
    }

    /// Calls by status code over every kind.
    pub fn statuses(&self) -> BTreeMap<&'static str, u64> {
        let mut statuses = BTreeMap::new();
        for tally in self.kinds.values() {
            for (status, count) in &tally.statuses {
                *statuses.entry(*status).or_default() += count;
            }
        }
        statuses
    }

    /// Calls of `kind` that ended with `status` (a canonical name, e.g. `OK`).
    pub fn count(&self, kind: Kind, status: &str) -> u64 {
        self.kinds.get(&kind).and_then(|tally| tally.statuses.get(status)).copied().unwrap_or(0)
    }
}

/// A finished run: its counts and how long it took.
#[derive(Debug, Clone)]
pub struct Report {
    /// The merged counts of every client.
    pub tally: Tally,
    /// From the first call to the last answer.
    pub elapsed: Duration,
    /// Concurrent clients.
    pub concurrency: usize,
}

impl Report {
    /// Calls per second over the run.
    pub fn rate(&self) -> f64 {
        self.tally.calls() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// True if every answer was right and every status one its call may get.
    pub fn is_clean(&self) -> bool {
        self.tally.wrong_answers() == 0 && self.tally.unexpected() == 0
    }
}

fn statuses_text(statuses: &BTreeMap<&'static str, u64>) -> String {
    statuses.iter().map(|(status, count)| format!("{status}={count}")).collect::<Vec<_>>().join(" ")
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tally = &self.tally;
        writeln!(
            f,
            "{} calls in {:.1} s from {} clients: {:.1} calls/s; wrong answers {}, unexpected statuses {}, retried by a proxy {}",
            tally.calls(),
            self.elapsed.as_secs_f64(),
            self.concurrency,
            self.rate(),
            tally.wrong_answers(),
            tally.unexpected(),
            tally.retried_by_proxy
        )?;
        writeln!(
            f,
            "{:<12} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}  statuses",
            "kind", "calls", "p50 ms", "p90 ms", "p99 ms", "max ms", "wrong", "unexp"
        )?;
        for (kind, kind_tally) in &tally.kinds {
            writeln!(
                f,
                "{:<12} {:>9} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>6} {:>6}  {}",
                kind.name(),
                kind_tally.calls(),
                kind_tally.millis_at(0.5),
                kind_tally.millis_at(0.9),
                kind_tally.millis_at(0.99),
                kind_tally.latency.max() as f64 / 1e3,
                kind_tally.wrong_answers,
                kind_tally.unexpected,
                statuses_text(&kind_tally.statuses)
            )?;
        }
        for (kind, kind_tally) in &tally.kinds {
            for (status, message) in &kind_tally.first_failures {
                writeln!(f, "first failure of {} with {status}: {message}", kind.name())?;
            }
        }
        for (failure, (count, message)) in &tally.transport_failures {
            writeln!(f, "{count} calls {} (in the client's transport), the first: {message}", failure.name())?;
        }
        write!(f, "statuses: {}", statuses_text(&tally.statuses()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_merge_and_print() {
        let mut first = Tally::default();
        let answer = |verdict, retried, message: &str| Answer {
            code: Code::Ok,
            verdict,
            retried,
            failure: None,
            message: message.into(),
        };
        first.record(Kind::Trivial, Duration::from_millis(2), &answer(Verdict::Expected, true, ""));
        first.record(Kind::Bad, Duration::from_micros(300), &answer(Verdict::UnexpectedStatus, false, "solved"));
        let mut second = Tally::default();
        second.record(Kind::Trivial, Duration::from_millis(4), &answer(Verdict::WrongAnswer, true, "3 moves"));
        let refused = Answer {
            code: Code::Unavailable,
            failure: Some(TransportFailure::NeverSent),
            ..answer(Verdict::Expected, false, "tcp connect error")
        };
        second.record(Kind::Bad, Duration::from_micros(100), &refused);
        first.merge(&second);
        assert_eq!(first.calls(), 4);
        assert_eq!(first.count(Kind::Trivial, "OK"), 2);
        assert_eq!(first.count(Kind::Bad, "UNAVAILABLE"), 1);
        assert_eq!(first.transport_failures(TransportFailure::NeverSent), 1);
        assert_eq!(first.transport_failures(TransportFailure::Lost), 0);
        assert_eq!((first.wrong_answers(), first.unexpected(), first.retried_by_proxy), (1, 1, 2));
        let report = Report { tally: first, elapsed: Duration::from_secs(1), concurrency: 2 };
        assert!(!report.is_clean());
        let text = report.to_string();
        assert!(text.contains("4 calls in 1.0 s from 2 clients: 4.0 calls/s"), "{text}");
        assert!(text.contains("statuses: OK=3 UNAVAILABLE=1"), "{text}");
        assert!(
            text.contains("1 calls never sent (in the client's transport), the first: tcp connect error"),
            "{text}"
        );
        assert!(text.contains("first failure of 3x3-trivial with OK: 3 moves"), "{text}");
    }
}
