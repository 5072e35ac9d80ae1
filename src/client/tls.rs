//! What a [`super::Client`] brings to a server beyond loopback: TLS ([`ClientTls`]: the CA to
//! trust, a client certificate for mTLS, the name to expect) and an access token
//! ([`AccessToken`]), together its [`Credentials`]. A token is never sent in plaintext to a
//! host that is not this one: [`Credentials::endpoint`] refuses.

use std::fmt;
use std::net::IpAddr;

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
