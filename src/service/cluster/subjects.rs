//! The names a cluster uses on NATS, all under its name `C`:
//!
//! | name | kind | what |
//! |---|---|---|
//! | `C.pieces.ITERATION` | JetStream, stream `C_PIECES` (work queue, file storage) | a farmed iteration's piece orders, each taken by one worker |
//! | `C.results.ITERATION` | core NATS | the reports of its pieces, to the coordinator |
//! | `C.alive.ITERATION` | core NATS | the coordinator's heartbeat, every second while the iteration runs |
//! | `C.ended.ITERATION` | core NATS | the iteration is over: its pieces are dropped |
//! | `C.replicas.REPLICA` | core NATS | each replica's heartbeat, with the pattern databases it holds |
//!
//! ITERATION is `REPLICA-N`: the coordinating replica's id and a count of its farmed iterations.

/// The subjects and stream of one cluster.
#[derive(Debug, Clone)]
pub(super) struct Subjects {
    name: String,
}

/// The durable pull consumer every worker of a cluster shares.
pub(super) const WORKERS: &str = "workers";

impl Subjects {
    /// The names of the cluster `name` (a valid one, see `config::valid_name`).
    pub(super) fn new(name: &str) -> Subjects {
        Subjects { name: name.to_owned() }
    }

    pub(super) fn stream(&self) -> String {
        format!("{}_PIECES", self.name)
    }

    pub(super) fn all_pieces(&self) -> String {
        format!("{}.pieces.>", self.name)
    }

    pub(super) fn pieces(&self, iteration: &str) -> String {
        format!("{}.pieces.{iteration}", self.name)
    }

    pub(super) fn results(&self, iteration: &str) -> String {
        format!("{}.results.{iteration}", self.name)
    }

    pub(super) fn alive(&self, iteration: &str) -> String {
        format!("{}.alive.{iteration}", self.name)
    }

    pub(super) fn all_alive(&self) -> String {
        format!("{}.alive.*", self.name)
    }

    pub(super) fn ended(&self, iteration: &str) -> String {
        format!("{}.ended.{iteration}", self.name)
    }

    pub(super) fn all_ended(&self) -> String {
        format!("{}.ended.*", self.name)
    }

    pub(super) fn replica(&self, replica: &str) -> String {
        format!("{}.replicas.{replica}", self.name)
    }

    pub(super) fn all_replicas(&self) -> String {
        format!("{}.replicas.*", self.name)
    }

    /// The last token of `subject`: the iteration or the replica it names.
    pub(super) fn last_token(subject: &str) -> &str {
        subject.rsplit('.').next().unwrap_or(subject)
    }

    /// The replica that coordinates `iteration`.
    pub(super) fn coordinator(iteration: &str) -> &str {
        iteration.rsplit_once('-').map_or(iteration, |(replica, _)| replica)
    }
}
