//! How a replica joins a cluster: the NATS servers, the cluster's name, the credentials and TLS
//! of the connection, and when a search's iterations go to the cluster. The server's flags fill
//! one in; nothing here connects.

use std::path::PathBuf;
use std::time::Duration;

use async_nats::ConnectOptions;

/// The default cluster name: the prefix of its subjects and the name of its stream.
pub const DEFAULT_CLUSTER_NAME: &str = "npuzzle";

/// The default of [`ClusterConfig::farm_after`]: an iteration forecast at this many nodes
/// goes to the cluster, about a second of one core's search. Shorter ones stay local, where a
/// message's round trip is not worth it.
pub const DEFAULT_FARM_AFTER: u64 = 1 << 24;

/// The NATS credentials of a replica: none, a user and password, a creds file (a user JWT and
/// its nkey seed), or an nkey seed alone.
#[derive(Debug, Clone, Default)]
pub enum Credentials {
    /// No credentials: a NATS server without authorization.
    #[default]
    None,
    /// A user and password.
    UserPassword {
        /// The user.
        user: String,
        /// The password.
        password: String,
    },
    /// A `.creds` file (decentralised JWT authentication).
    CredsFile(PathBuf),
    /// A file holding an nkey seed (`SU…`).
    NkeyFile(PathBuf),
}

/// The TLS of the NATS connection.
#[derive(Debug, Clone, Default)]
pub struct ClusterTls {
    /// Require TLS even when the URL does not say `tls://`.
    pub required: bool,
    /// CA certificates (PEM) to verify the NATS server with, besides the system's.
    pub ca: Option<PathBuf>,
    /// A client certificate and key (PEM), for a NATS server that verifies its clients.
    pub client: Option<(PathBuf, PathBuf)>,
}

/// A replica's membership of a cluster.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// NATS server URLs (`nats://HOST:4222`, `tls://HOST:4222`): the client connects to one and
    /// fails over to the others.
    pub servers: Vec<String>,
    /// The cluster's name: replicas that share it share their searches. Letters, digits, `-`
    /// and `_`.
    pub name: String,
    /// The connection's credentials.
    pub credentials: Credentials,
    /// The connection's TLS.
    pub tls: ClusterTls,
    /// An iteration forecast at at least this many nodes goes to the cluster.
    pub farm_after: u64,
}

impl ClusterConfig {
    /// A cluster named `name` (checked by [`valid_name`]) on `servers`, with no credentials or
    /// TLS of its own and the default [`ClusterConfig::farm_after`].
    pub fn new(servers: Vec<String>, name: &str) -> ClusterConfig {
        ClusterConfig {
            servers,
            name: name.to_owned(),
            credentials: Credentials::None,
            tls: ClusterTls::default(),
            farm_after: DEFAULT_FARM_AFTER,
        }
    }

    /// The client's options: credentials, TLS, and reconnecting for ever.
    pub(super) async fn options(&self, replica: &str) -> std::io::Result<ConnectOptions> {
        let options = match &self.credentials {
            Credentials::None => ConnectOptions::new(),
            Credentials::UserPassword { user, password } => {
                ConnectOptions::with_user_and_password(user.clone(), password.clone())
            }
            Credentials::CredsFile(path) => ConnectOptions::with_credentials_file(path).await?,
            Credentials::NkeyFile(path) => {
                ConnectOptions::with_nkey(tokio::fs::read_to_string(path).await?.trim().to_owned())
            }
        };
        let mut options = options
            .name(format!("npuzzle-{replica}"))
            .connection_timeout(Duration::from_secs(5))
            .max_reconnects(None)
            .require_tls(self.tls.required);
        if let Some(ca) = &self.tls.ca {
            options = options.add_root_certificates(ca.clone());
        }
        if let Some((cert, key)) = &self.tls.client {
            options = options.add_client_certificate(cert.clone(), key.clone());
        }
        Ok(options)
    }
}

/// Whether `name` can name a cluster: one NATS subject token and a stream name.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 64 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_name_is_one_subject_token() {
        assert!(valid_name("npuzzle") && valid_name("team-a_2"));
        for bad in ["", "a.b", "a b", "a*", "a>", &"x".repeat(65)] {
            assert!(!valid_name(bad), "{bad:?}");
        }
    }
}
