//! The server's flags for running beyond loopback: TLS and mTLS, access tokens, and the
//! connection and HTTP/2 limits an operator may want to change; what they make of the
//! [`Config`]; the warning for plaintext beyond loopback; the certificate reload on SIGHUP.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use npuzzle::server::Config;
use npuzzle::server::auth::AccessTokens;
use npuzzle::server::connection_limits::{self, ConnectionLimits};
use npuzzle::server::tls::{ServerTls, TlsFiles};
use tracing::{info, warn};

/// TLS, tokens and connection limits.
#[derive(Debug, clap::Args)]
pub struct SecurityFlags {
    /// Serve TLS with this certificate chain (PEM, leaf first); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM). SIGHUP reads both again.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Require client certificates that chain to these CAs (PEM): mTLS.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_client_ca: Option<PathBuf>,
    /// SolverService calls must carry `authorization: Bearer <token>` with a token from this
    /// file (one per line; the file must not be readable by group or others).
    #[arg(long, value_name = "FILE")]
    auth_token_file: Option<PathBuf>,
    /// Connections open at once; one more is closed at its accept (and counted).
    #[arg(long, value_name = "N", default_value_t = connection_limits::DEFAULT_MAX_CONNECTIONS)]
    max_connections: usize,
    /// A connection must finish its TLS handshake and HTTP/2 preface within this, e.g. 10s.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = humantime::parse_duration)]
    handshake_timeout: Duration,
    /// A connection that carries no call for this long is closed, e.g. 5m.
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = humantime::parse_duration)]
    idle_timeout: Duration,
    /// Calls in flight on one connection; more are refused with REFUSED_STREAM.
    #[arg(long, value_name = "N", default_value_t = connection_limits::DEFAULT_MAX_CONCURRENT_STREAMS)]
    max_concurrent_streams: u32,
    /// The largest header block accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = connection_limits::DEFAULT_MAX_HEADER_LIST_SIZE)]
    max_header_list_size: u32,
    /// How often an HTTP/2 PING checks that a connection's peer is alive.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = humantime::parse_duration)]
    keepalive_interval: Duration,
    /// How long a PING may go unanswered before its connection is closed.
    #[arg(long, value_name = "DURATION", default_value = "20s", value_parser = humantime::parse_duration)]
    keepalive_timeout: Duration,
    /// After this a connection gets a GOAWAY (its calls finish; the client reconnects).
    #[arg(long, value_name = "DURATION", default_value = "1h", value_parser = humantime::parse_duration)]
    max_connection_age: Duration,
}

impl SecurityFlags {
    /// `config` with these flags' TLS, tokens and limits, and the open-file limit raised to
    /// fit the connection cap.
    pub fn apply(&self, config: Config) -> anyhow::Result<Config> {
        let tls = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => {
                let files = TlsFiles { cert: cert.clone(), key: key.clone(), client_ca: self.tls_client_ca.clone() };
                Some(ServerTls::load(files).context("cannot set up TLS")?)
            }
            _ => None,
        };
        let access_tokens = self.auth_token_file.as_deref().map(AccessTokens::from_file).transpose()?;
        let connections = ConnectionLimits {
            max_connections: self.max_connections,
            handshake_timeout: self.handshake_timeout,
            idle_timeout: self.idle_timeout,
            max_concurrent_streams: self.max_concurrent_streams,
            max_header_list_size: self.max_header_list_size,
            keepalive_interval: self.keepalive_interval,
            keepalive_timeout: self.keepalive_timeout,
            max_connection_age: self.max_connection_age,
            ..ConnectionLimits::default()
        };
        match connection_limits::raise_open_file_limit(self.max_connections) {
            Ok(files) if files < self.max_connections as u64 => {
                warn!(
                    open_files = files,
                    max_connections = self.max_connections,
                    "the open-file limit is below --max-connections; raise it (ulimit -n) or lower the cap"
                )
            }
            Ok(_) => {}
            Err(error) => warn!(%error, "cannot raise the open-file limit"),
        }
        if let Some(tls) = &tls {
            info!(client_certificates = tls.requires_client_certificates(), "serving TLS");
        }
        Ok(Config { connections, tls, access_tokens, ..config })
    }
}

/// Warns when `address` is reachable beyond this host and `config` serves it in plaintext.
pub fn warn_if_exposed(address: SocketAddr, config: &Config) {
    if config.tls.is_none() && !address.ip().is_loopback() {
        warn!(%address, "serving plaintext beyond loopback: anyone on the network can read and alter the calls \
                         (and any access token); use --tls-cert and --tls-key, or a TLS proxy in front");
    }
}

/// Reads the certificates again on every SIGHUP, for the life of the process: new handshakes
/// use them, open connections keep theirs.
pub fn reload_on_sighup(config: &Config) {
    let Some(tls) = config.tls.clone() else { return };
    tokio::spawn(async move {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = match signal(SignalKind::hangup()) {
            Ok(hangups) => hangups,
            Err(error) => return warn!(%error, "cannot listen for SIGHUP: certificates are not reloaded"),
        };
        while hangups.recv().await.is_some() {
            reload(&tls);
        }
    });
}

fn reload(tls: &ServerTls) {
    match tls.reload() {
        Ok(()) => info!("SIGHUP: certificates reloaded; new connections use them"),
        Err(error) => warn!(error = %error, "SIGHUP: certificates not reloaded, the old ones stay in use"),
    }
}
