//! What a [`super::Client`] brings to a server beyond loopback: TLS ([`ClientTls`]: the CA to
//! trust, a client certificate for mTLS, the name to expect) and an access token
//! ([`AccessToken`]), together its [`Credentials`]. A token is never sent in plaintext to a
//! host that is not this one: [`Credentials::endpoint`] refuses. [`TlsFlags`] are the
//! command-line flags that name the TLS files, shared by the programs that call a server.

use std::fmt;
use std::io;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use tonic::metadata::{AsciiMetadataValue, MetadataValue};
use tonic::transport::{Certificate, ClientTlsConfig, Endpoint, Identity};

use super::error::ClientError;

/// The client's TLS: used for `https://` addresses.
#[derive(Debug, Clone, Default)]
pub struct ClientTls {
    /// The CA certificates (PEM) the server's certificate must chain to; `None`: the system's.
    pub ca_pem: Option<Vec<u8>>,
    /// The client certificate chain and its key (PEM), for a server that requires mTLS.
    pub identity_pem: Option<(Vec<u8>, Vec<u8>)>,
    /// The name the server's certificate must carry, when it is not the address's host (an IP
    /// address, say).
    pub server_name: Option<String>,
}

/// The client's TLS flags, the same in `npuzzle-client` and `npuzzle-bench load`, so that both
/// read certificates the same way; [`TlsFlags::read`] turns them into a [`ClientTls`].
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TlsFlags {
    /// For an https:// address: the CA certificates (PEM) to trust [default: the system's].
    #[arg(long, value_name = "FILE")]
    pub tls_ca: Option<PathBuf>,
    /// For a server that requires mTLS: this client certificate chain (PEM); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// The name the server's certificate must carry, when the address is an IP.
    #[arg(long, value_name = "NAME")]
    pub tls_server_name: Option<String>,
}

impl TlsFlags {
    /// The files the flags name, read; `None` when no flag was given (an `https://` address
    /// then trusts the system's CAs). A file that cannot be read is named in the error.
    pub fn read(&self) -> Result<Option<ClientTls>, ClientError> {
        let identity_pem = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Some((read_file(cert)?, read_file(key)?)),
            _ => None,
        };
        if self.tls_ca.is_none() && identity_pem.is_none() && self.tls_server_name.is_none() {
            return Ok(None);
        }
        let ca_pem = self.tls_ca.as_deref().map(read_file).transpose()?;
        Ok(Some(ClientTls { ca_pem, identity_pem, server_name: self.tls_server_name.clone() }))
    }
}

/// The contents of the credentials file at `path`, or an error that names it.
pub fn read_file(path: &Path) -> Result<Vec<u8>, ClientError> {
    std::fs::read(path)
        .map_err(|error| ClientError::Credentials(io::Error::new(error.kind(), format!("{}: {error}", path.display()))))
}

/// An access token, sent as `authorization: Bearer <token>`; its `Debug` does not show it.
#[derive(Clone)]
pub struct AccessToken(AsciiMetadataValue);

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessToken(..)")
    }
}

impl AccessToken {
    /// `token` (trimmed), which must be visible ASCII.
    pub fn new(token: &str) -> Result<AccessToken, ClientError> {
        let mut value: AsciiMetadataValue =
            MetadataValue::try_from(format!("Bearer {}", token.trim())).map_err(|_| ClientError::BadToken)?;
        value.set_sensitive(true);
        Ok(AccessToken(value))
    }

    /// The `authorization` header's value.
    pub(super) fn header(&self) -> AsciiMetadataValue {
        self.0.clone()
    }
}

/// TLS and a token, each optional.
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    /// TLS for an `https://` address.
    pub tls: Option<ClientTls>,
    /// The access token every call carries.
    pub token: Option<AccessToken>,
}

impl Credentials {
    /// `endpoint` set up for these credentials: TLS when its scheme is `https` (the system's
    /// CAs unless [`ClientTls::ca_pem`] says otherwise). Refused: TLS settings for an
    /// `http://` address, and a token over plaintext to a host other than loopback.
    pub fn endpoint(&self, endpoint: Endpoint) -> Result<Endpoint, ClientError> {
        let uri = endpoint.uri().clone();
        let https = uri.scheme_str() == Some("https");
        if !https {
            if self.tls.is_some() {
                return Err(ClientError::TlsWithoutHttps(uri.to_string()));
            }
            if self.token.is_some() && !uri.host().is_some_and(is_loopback) {
                return Err(ClientError::TokenOverPlaintext(uri.to_string()));
            }
            return Ok(endpoint);
        }
        let tls = self.tls.clone().unwrap_or_default();
        let mut config = ClientTlsConfig::new();
        config = match tls.ca_pem {
            Some(ca) => config.ca_certificate(Certificate::from_pem(ca)),
            None => config.with_native_roots(),
        };
        if let Some((cert, key)) = tls.identity_pem {
            config = config.identity(Identity::from_pem(cert, key));
        }
        if let Some(name) = tls.server_name {
            config = config.domain_name(name);
        }
        crate::server::tls::install_crypto_provider();
        endpoint.tls_config(config).map_err(|source| ClientError::Tls { uri: uri.to_string(), source })
    }
}

/// Whether `host` (as a URI spells it, IPv6 in brackets) is this machine.
fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost") || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(address: &str) -> Endpoint {
        Endpoint::from_shared(address.to_owned()).expect("a URI")
    }

    #[test]
    fn a_token_goes_in_plaintext_only_to_loopback() {
        let credentials = Credentials { tls: None, token: Some(AccessToken::new("t").expect("ASCII")) };
        for local in ["http://127.0.0.1:1", "http://localhost:1", "http://[::1]:1", "http://127.9.0.1:1"] {
            assert!(credentials.endpoint(endpoint(local)).is_ok(), "{local}");
        }
        for remote in ["http://10.0.0.1:1", "http://example.com:1", "http://[2001:db8::1]:1"] {
            let refused = credentials.endpoint(endpoint(remote)).expect_err(remote);
            assert!(matches!(refused, ClientError::TokenOverPlaintext(_)), "{remote}: {refused}");
        }
        assert!(credentials.endpoint(endpoint("https://example.com:1")).is_ok());
    }

    #[test]
    fn the_token_is_not_shown() {
        assert_eq!(format!("{:?}", AccessToken::new("s3cret").expect("ASCII")), "AccessToken(..)");
        assert!(AccessToken::new("bad\ntoken").is_err());
    }
}
