//! [`ClientError`]: every way a call through [`super::Client`] can fail, typed, so a program
//! can tell a bad address from an unreachable server, a passed deadline or a refusal.

use std::error::Error;
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
    #[error("cannot connect to {uri}: {}", root_reason(source))]
    Connect {
        /// The server's URL.
        uri: String,
        /// What the transport said.
        source: tonic::transport::Error,
    },
    /// TLS could not be set up for the address.
    #[error("cannot set up TLS for {uri}: {}", root_reason(source))]
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

/// `error` and its causes on one line, `: ` between them, each said once. A cause whose text
/// the line already holds (a wrapper that prints its source, then the source itself) is left
/// out; once the innermost cause has been said, the wrappers between (`transport error`, `tcp
/// connect error`) add nothing and are left out too. An OS error reads as its reason alone
/// (`connection refused`, not `Connection refused (os error 111)`).
pub fn error_chain(error: &(dyn Error + 'static)) -> String {
    let mut line = said(error);
    let causes: Vec<&(dyn Error + 'static)> = std::iter::successors(error.source(), |&cause| cause.source()).collect();
    if causes.last().is_some_and(|root| holds(&line, &said(*root))) {
        return line;
    }
    for cause in causes {
        let text = said(cause);
        if !holds(&line, &text) {
            line.push_str(": ");
            line.push_str(&text);
        }
    }
    line
}

/// The innermost cause of `error` (`error` itself when it has none), as [`error_chain`] says it.
pub(crate) fn root_reason(error: &(dyn Error + 'static)) -> String {
    let root = std::iter::successors(Some(error), |&cause| cause.source()).last().unwrap_or(error);
    said(root)
}

/// The text of `error` alone: an OS error's reason without its number, in lower case.
fn said(error: &(dyn Error + 'static)) -> String {
    let text = error.to_string();
    let Some(os) = error.downcast_ref::<std::io::Error>().and_then(std::io::Error::raw_os_error) else {
        return text.trim().to_string();
    };
    let reason = text.strip_suffix(&format!(" (os error {os})")).unwrap_or(&text).trim();
    let mut chars = reason.chars();
    chars.next().map_or_else(String::new, |first| first.to_lowercase().chain(chars).collect())
}

/// Whether `line` already says `text` (or `text` says nothing).
fn holds(line: &str, text: &str) -> bool {
    text.is_empty() || line.to_lowercase().contains(&text.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Error)]
    #[error("{0}")]
    struct Wrapper(&'static str, #[source] Option<Box<dyn Error + Send + Sync>>);

    fn wrap(text: &'static str, source: impl Error + Send + Sync + 'static) -> Wrapper {
        Wrapper(text, Some(Box::new(source)))
    }

    #[test]
    fn a_chain_says_each_cause_once() {
        let refused = std::io::Error::from_raw_os_error(libc::ECONNREFUSED);
        let chain = wrap(
            "cannot connect to http://127.0.0.1:1/: connection refused",
            wrap("transport error", wrap("tcp connect error", refused)),
        );
        assert_eq!(error_chain(&chain), "cannot connect to http://127.0.0.1:1/: connection refused");
        let missing = std::io::Error::from_raw_os_error(libc::ENOENT);
        let chain =
            wrap("the tables are built once", wrap("cannot open /x: No such file or directory (os error 2)", missing));
        assert_eq!(
            error_chain(&chain),
            "the tables are built once: cannot open /x: No such file or directory (os error 2)"
        );
        let chain = wrap(
            "cannot read the credentials",
            wrap("cannot open /x", std::io::Error::from_raw_os_error(libc::ENOENT)),
        );
        assert_eq!(error_chain(&chain), "cannot read the credentials: cannot open /x: no such file or directory");
    }
}
