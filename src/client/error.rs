//! [`ClientError`]: every way a call through [`super::Client`] can fail, typed, so a program
//! can tell a bad address from an unreachable server, a passed deadline or a refusal.

use std::time::Duration;

use thiserror::Error;

use super::output::code_name;

/// Why a call to an npuzzle server gave no solution.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The address given is not a URL (with or without `http://`).
    #[error("{address:?} is not a URL: {source}")]
    Address {
        /// The address as given.
        address: String,
        /// What the URL parser said.
        source: tonic::transport::Error,
    },
    /// No connection could be made to the server.
    #[error("cannot connect to {uri}: {source}")]
    Connect {
        /// The server's URL.
        uri: String,
        /// What the transport said.
        source: tonic::transport::Error,
    },
    /// TLS could not be set up for the address.
    #[error("cannot set up TLS for {uri}: {source}")]
    Tls {
        /// The server's URL.
        uri: String,
        /// What the transport said.
        source: tonic::transport::Error,
    },
    /// TLS settings were given for an `http://` address.
    #[error("TLS settings were given but {0} is not https://")]
    TlsWithoutHttps(String),
    /// An access token would go in plaintext to a host that is not this one.
    #[error("refusing to send the access token in plaintext to {0}: use https://")]
    TokenOverPlaintext(String),
    /// A TLS file or the token file could not be read.
    #[error("cannot read the credentials: {0}")]
    Credentials(#[source] std::io::Error),
    /// The access token is not visible ASCII.
    #[error("the access token is not visible ASCII")]
    BadToken,
    /// The in-process server could not be started.
    #[error("cannot start the in-process server: {0}")]
    Embedded(#[source] std::io::Error),
    /// The call's deadline passed before the answer came.
    #[error("deadline exceeded after {}s", .0.as_secs_f64())]
    DeadlineExceeded(Duration),
    /// The server answered with an error status.
    #[error("{}: {}", code_name(.0.code()), .0.message())]
    Status(tonic::Status),
    /// The server answered without a Solution (a unary answer without one, or a stream that
    /// ended before its Solution).
    #[error("the server's answer carries no solution")]
    NoSolution,
}
