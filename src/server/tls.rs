//! The server's TLS: [`ServerTls`] reads a certificate chain and key (PEM), and for mTLS the CA
//! that client certificates must chain to, into a rustls configuration: TLS 1.2 and 1.3 only,
//! ALPN `h2` and `http/1.1` (the browser page's gRPC-Web). [`ServerTls::reload`] reads the files
//! again and swaps the configuration in: handshakes from then on use the new one, connections
//! already open keep theirs (rustls never renegotiates), so a renewed certificate is taken
//! without dropping a call. The server binary reloads on SIGHUP.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};

use thiserror::Error;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::WebPkiClientVerifier;
use tokio_rustls::rustls::{self, RootCertStore, ServerConfig};

/// Why the server's TLS configuration could not be made.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TlsError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A file holds no PEM item of the kind needed, or a broken one.
    #[error("{path} holds no usable {what} (PEM): {reason}")]
    Pem {
        /// The file.
        path: PathBuf,
        /// What it should hold.
        what: &'static str,
        /// What the PEM reader said.
        reason: String,
    },
    /// rustls refused the certificates or the key (a key that does not match, say).
    #[error("the TLS configuration is refused: {0}")]
    Rustls(#[from] rustls::Error),
    /// The client CA file's certificates cannot verify clients.
    #[error("cannot verify client certificates with {path}: {reason}")]
    ClientCa {
        /// The CA file.
        path: PathBuf,
        /// What rustls said.
        reason: String,
    },
}

/// The files the server's TLS is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, leaf first (PEM).
    pub cert: PathBuf,
    /// The private key (PEM: PKCS#8, PKCS#1 or SEC1).
    pub key: PathBuf,
    /// With it, every client must present a certificate that chains to one of these CAs (PEM).
    pub client_ca: Option<PathBuf>,
}

/// The server's TLS configuration, shared by every handshake and swapped by
/// [`ServerTls::reload`].
#[derive(Clone)]
pub struct ServerTls {
    files: Arc<TlsFiles>,
    current: Arc<RwLock<Arc<ServerConfig>>>,
}

impl fmt::Debug for ServerTls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerTls").field("files", &self.files).finish_non_exhaustive()
    }
}

impl ServerTls {
    /// Reads `files` into a configuration.
    pub fn load(files: TlsFiles) -> Result<ServerTls, TlsError> {
        let config = server_config(&files)?;
        Ok(ServerTls { files: Arc::new(files), current: Arc::new(RwLock::new(Arc::new(config))) })
    }

    /// Whether clients must present a certificate.
    pub fn requires_client_certificates(&self) -> bool {
        self.files.client_ca.is_some()
    }

    /// Reads the files again and, if they make a configuration, uses it for every handshake
    /// from now on; if not, the one in use stays and the error says why.
    pub fn reload(&self) -> Result<(), TlsError> {
        let config = server_config(&self.files)?;
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(config);
        Ok(())
    }

    /// An acceptor with the configuration in use now.
    pub(super) fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(self.current.read().unwrap_or_else(PoisonError::into_inner).clone())
    }
}

/// Installs rustls's ring provider as the process's default, once; tonic's client and this
/// server both use it. Later calls (and a provider already installed) change nothing.
pub fn install_crypto_provider() {
    // An Err only says a provider is installed already, which is all that is wanted.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

fn server_config(files: &TlsFiles) -> Result<ServerConfig, TlsError> {
    install_crypto_provider();
    let chain = certificates(&files.cert)?;
    let key = PrivateKeyDer::from_pem_slice(&read(&files.key)?).map_err(|error| TlsError::Pem {
        path: files.key.clone(),
        what: "private key",
        reason: error.to_string(),
    })?;
    let versions = [&rustls::version::TLS13, &rustls::version::TLS12];
    let builder = ServerConfig::builder_with_protocol_versions(&versions);
    let builder = match &files.client_ca {
        None => builder.with_no_client_auth(),
        Some(path) => {
            let mut roots = RootCertStore::empty();
            for certificate in certificates(path)? {
                roots.add(certificate)?;
            }
            let verifier = WebPkiClientVerifier::builder(Arc::new(roots))
                .build()
                .map_err(|error| TlsError::ClientCa { path: path.clone(), reason: error.to_string() })?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder.with_single_cert(chain, key)?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// Every certificate in the PEM file at `path`; at least one.
fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let pem_error = |reason: String| TlsError::Pem { path: path.to_owned(), what: "certificate", reason };
    let chain = CertificateDer::pem_slice_iter(&read(path)?)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| pem_error(error.to_string()))?;
    if chain.is_empty() {
        return Err(pem_error("no CERTIFICATE block".to_owned()));
    }
    Ok(chain)
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read { path: path.to_owned(), source })
}
