//! The server's flags for cluster mode (`--cluster nats://HOST:4222`, repeatable): the cluster's
//! name, the NATS credentials and TLS, and what they make of a
//! [`ClusterConfig`]. Without `--cluster` there is none, and the server never touches NATS.

use std::path::PathBuf;

use npuzzle::service::cluster::{ClusterConfig, ClusterTls, Credentials, DEFAULT_CLUSTER_NAME, DEFAULT_FARM_AFTER};

/// Cluster mode.
#[derive(Debug, clap::Args)]
pub struct ClusterFlags {
    /// Join a cluster through this NATS server (with JetStream), e.g. nats://10.0.0.5:4222 or
    /// tls://nats.example.org:4222; repeatable, for the servers of one NATS cluster. Every
    /// replica of the cluster then runs pieces of every replica's long searches.
    #[arg(long = "cluster", value_name = "URL")]
    servers: Vec<String>,
    /// The cluster's name: replicas that share it and a NATS server share their searches.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLUSTER_NAME, value_parser = parse_name)]
    cluster_name: String,
    /// The NATS user; its password comes from NPUZZLE_CLUSTER_PASSWORD.
    #[arg(long, value_name = "USER", requires = "servers", conflicts_with_all = ["cluster_creds", "cluster_nkey"])]
    cluster_user: Option<String>,
    /// The NATS user's password (better from the environment than on the command line).
    #[arg(
        long,
        value_name = "PASSWORD",
        env = "NPUZZLE_CLUSTER_PASSWORD",
        hide_env_values = true,
        requires = "cluster_user"
    )]
    cluster_password: Option<String>,
    /// A NATS credentials file (.creds: a user JWT and its nkey seed).
    #[arg(long, value_name = "FILE", requires = "servers", conflicts_with = "cluster_nkey")]
    cluster_creds: Option<PathBuf>,
    /// A file holding the NATS nkey seed (SU…) this replica authenticates with.
    #[arg(long, value_name = "FILE", requires = "servers")]
    cluster_nkey: Option<PathBuf>,
    /// Require TLS to NATS even for nats:// URLs.
    #[arg(long, requires = "servers")]
    cluster_tls: bool,
    /// CA certificates (PEM) that the NATS server's certificate chains to.
    #[arg(long, value_name = "FILE", requires = "servers")]
    cluster_tls_ca: Option<PathBuf>,
    /// A client certificate (PEM) for a NATS server that verifies its clients; needs
    /// --cluster-tls-key.
    #[arg(long, value_name = "FILE", requires_all = ["servers", "cluster_tls_key"])]
    cluster_tls_cert: Option<PathBuf>,
    /// The private key (PEM) of --cluster-tls-cert.
    #[arg(long, value_name = "FILE", requires = "cluster_tls_cert")]
    cluster_tls_key: Option<PathBuf>,
    /// The least nodes an iteration is forecast to take for it to go to the cluster (tests set
    /// it low).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FARM_AFTER, hide = true)]
    cluster_farm_after: u64,
}

/// A `--cluster-name`: one NATS subject token.
fn parse_name(name: &str) -> Result<String, String> {
    if npuzzle::service::cluster::valid_name(name) {
        Ok(name.to_owned())
    } else {
        Err("expected up to 64 letters, digits, '-' or '_'".into())
    }
}

impl ClusterFlags {
    /// The cluster to join, if `--cluster` was given.
    pub fn config(&self) -> Option<ClusterConfig> {
        if self.servers.is_empty() {
            return None;
        }
        let credentials = match (&self.cluster_user, &self.cluster_creds, &self.cluster_nkey) {
            (Some(user), _, _) => Credentials::UserPassword {
                user: user.clone(),
                password: self.cluster_password.clone().unwrap_or_default(),
            },
            (None, Some(creds), _) => Credentials::CredsFile(creds.clone()),
            (None, None, Some(nkey)) => Credentials::NkeyFile(nkey.clone()),
            (None, None, None) => Credentials::None,
        };
        let tls = ClusterTls {
            required: self.cluster_tls,
            ca: self.cluster_tls_ca.clone(),
            client: self.cluster_tls_cert.clone().zip(self.cluster_tls_key.clone()),
        };
        Some(ClusterConfig {
            credentials,
            tls,
            farm_after: self.cluster_farm_after,
            ..ClusterConfig::new(self.servers.clone(), &self.cluster_name)
        })
    }
}
