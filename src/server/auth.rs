//! Access tokens: with [`AccessTokens`] in the server's config, every `SolverService` call
//! must carry `authorization: Bearer <token>` with one of them, or it is answered
//! UNAUTHENTICATED before the service sees it (`RequireToken`). Health and reflection are not
//! wrapped, so load balancers and grpcurl's `list` work without one.
//!
//! Tokens are compared in constant time (`subtle`), against every token each time, so the time
//! an answer takes tells nothing of how much of a guess was right. They never reach a log: the
//! type's `Debug` shows only how many there are. A token file that the group or others can
//! read is refused, as ssh refuses such a key.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use subtle::ConstantTimeEq;
use thiserror::Error;
use tonic::service::Interceptor;
use tonic::{Request, Status};

use crate::metrics;

/// The scheme before the token in the `authorization` header.
const BEARER: &str = "Bearer ";

/// Why the token file could not be used.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum AuthError {
    /// The file could not be read.
    #[error("cannot read the token file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The group or others may read the file.
    #[error("the token file {path} is readable by its group or others (mode {mode:o}): chmod 600 it")]
    Exposed {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The file holds no token.
    #[error("the token file {0} holds no token (one per line)")]
    Empty(PathBuf),
}

/// The tokens a call may carry; any one of them lets it in.
#[derive(Clone)]
pub struct AccessTokens(Arc<Vec<Vec<u8>>>);

impl fmt::Debug for AccessTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AccessTokens({} tokens)", self.0.len())
    }
}

impl AccessTokens {
    /// `tokens`, each trimmed; blank ones are dropped.
    pub fn new<'a>(tokens: impl IntoIterator<Item = &'a str>) -> AccessTokens {
        let tokens =
            tokens.into_iter().map(str::trim).filter(|token| !token.is_empty()).map(|token| token.as_bytes().to_vec());
        AccessTokens(Arc::new(tokens.collect()))
    }

    /// The tokens in the file at `path`, one a line, refused if the group or others may read it.
    pub fn from_file(path: &Path) -> Result<AccessTokens, AuthError> {
        let read_error = |source| AuthError::Read { path: path.to_owned(), source };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).map_err(read_error)?.permissions().mode();
            if mode & 0o077 != 0 {
                return Err(AuthError::Exposed { path: path.to_owned(), mode: mode & 0o777 });
            }
        }
        let tokens = AccessTokens::new(std::fs::read_to_string(path).map_err(read_error)?.lines());
        if tokens.0.is_empty() {
            return Err(AuthError::Empty(path.to_owned()));
        }
        Ok(tokens)
    }

    /// Whether `given` is one of the tokens, in time that depends only on the lengths.
    fn accepts(&self, given: &[u8]) -> bool {
        let matched = self.0.iter().fold(subtle::Choice::from(0), |matched, token| matched | token.ct_eq(given));
        matched.into()
    }
}

/// The interceptor in front of the `SolverService`: lets every call in without tokens, and
/// with them only a call that carries one.
#[derive(Debug, Clone)]
pub(super) struct RequireToken(pub(super) Option<AccessTokens>);

impl Interceptor for RequireToken {
    fn call(&mut self, request: Request<()>) -> Result<Request<()>, Status> {
        let Some(tokens) = &self.0 else { return Ok(request) };
        let given = request
            .metadata()
            .get("authorization")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix(BEARER));
        match given {
            Some(token) if tokens.accepts(token.trim().as_bytes()) => Ok(request),
            Some(_) => Err(refuse("the access token is not one this server accepts")),
            None => Err(refuse("this server needs an access token: authorization: Bearer <token>")),
        }
    }
}

fn refuse(message: &str) -> Status {
    metrics::unauthenticated();
    Status::unauthenticated(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tokens: Option<AccessTokens>, header: Option<&str>) -> Result<(), tonic::Code> {
        let mut request = Request::new(());
        if let Some(header) = header {
            request.metadata_mut().insert("authorization", header.parse().expect("ASCII"));
        }
        RequireToken(tokens).call(request).map(drop).map_err(|status| status.code())
    }

    #[test]
    fn only_a_listed_bearer_token_lets_a_call_in() {
        let tokens = || Some(AccessTokens::new(["first", " second \n", ""]));
        assert_eq!(call(tokens(), Some("Bearer second")), Ok(()));
        assert_eq!(call(tokens(), Some("Bearer first")), Ok(()));
        for refused in [None, Some("Bearer secon"), Some("Bearer"), Some("Basic first"), Some("Bearer first2")] {
            assert_eq!(call(tokens(), refused), Err(tonic::Code::Unauthenticated), "{refused:?}");
        }
        assert_eq!(call(None, None), Ok(()), "no tokens, no check");
    }

    #[test]
    fn the_debug_form_shows_no_token() {
        let shown = format!("{:?}", AccessTokens::new(["s3cret"]));
        assert!(!shown.contains("s3cret"), "{shown}");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_may_read_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("tokens");
        std::fs::write(&path, "one\ntwo\n").expect("writes");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        assert!(matches!(AccessTokens::from_file(&path), Err(AuthError::Exposed { mode: 0o644, .. })));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        let tokens = AccessTokens::from_file(&path).expect("a private file is read");
        assert!(tokens.accepts(b"two") && !tokens.accepts(b"three"));
        std::fs::write(&path, "\n \n").expect("writes");
        assert!(matches!(AccessTokens::from_file(&path), Err(AuthError::Empty(_))));
    }
}
