//! Certificates for the TLS tests, made with rcgen into a temporary directory: a CA, a server
//! certificate it signs for `localhost` and 127.0.0.1, a client certificate, and the ones a
//! server must refuse (from another CA, expired).

#![allow(dead_code)] // Each test crate uses its own subset of these helpers.

use std::path::{Path, PathBuf};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose, date_time_ymd};
use tempfile::TempDir;

/// A CA and the key it signs with.
pub struct Authority {
    params: CertificateParams,
    key: KeyPair,
    /// Its certificate (PEM).
    pub pem: String,
}

impl Authority {
    /// A new self-signed CA named `name`.
    pub fn new(name: &str) -> Authority {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::DigitalSignature];
        let key = KeyPair::generate().expect("a key");
        let pem = params.self_signed(&key).expect("a CA certificate").pem();
        Authority { params, key, pem }
    }

    /// A certificate for `localhost` and 127.0.0.1 signed by this CA (certificate, key),
    /// expired if `expired`.
    pub fn issue(&self, expired: bool) -> (String, String) {
        let mut params =
            CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()]).expect("leaf params");
        params.distinguished_name.push(DnType::CommonName, "npuzzle test");
        if expired {
            params.not_before = date_time_ymd(2020, 1, 1);
            params.not_after = date_time_ymd(2021, 1, 1);
        }
        let key = KeyPair::generate().expect("a key");
        let issuer = Issuer::from_params(&self.params, &self.key);
        let certificate = params.signed_by(&key, &issuer).expect("a signed certificate");
        (certificate.pem(), key.serialize_pem())
    }
}

/// The files of one test's certificates.
pub struct Files {
    dir: TempDir,
}

impl Files {
    /// A new directory for them.
    pub fn new() -> Files {
        Files { dir: tempfile::tempdir().expect("a temporary directory") }
    }

    /// Writes `contents` to `name` in the directory; its path.
    pub fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents).expect("writes a certificate file");
        path
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}
