//! TLS for the gRPC port: the certificate chain and key named by the settings, read once at
//! start, and the acceptor every connection goes through when they are set.
//!
//! ALPN offers HTTP/2 (gRPC) and HTTP/1.1 (the web board and its grpc-web calls); the transport
//! still tells them apart by their first bytes, so a client that skips ALPN is served too.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::crypto::ring;

use crate::config::TlsSettings;

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("setting `tls.{0}` is set but `tls.{1}` is not: give both or neither")]
    Half(&'static str, &'static str),
    #[error("cannot read the TLS certificate chain `{path}` (setting `tls.cert_path`): {detail}")]
    Certificates { path: String, detail: String },
    #[error("cannot read the TLS private key `{path}` (setting `tls.key_path`): {detail}")]
    Key { path: String, detail: String },
    #[error("the TLS certificate and key do not go together: {0}")]
    Mismatch(String),
}

/// The acceptor for these settings; `None` when TLS is off (neither path is set).
pub fn acceptor(settings: &TlsSettings) -> Result<Option<TlsAcceptor>, TlsError> {
    let (cert_path, key_path) = match (&settings.cert_path, &settings.key_path) {
        (None, None) => return Ok(None),
        (Some(_), None) => return Err(TlsError::Half("cert_path", "key_path")),
        (None, Some(_)) => return Err(TlsError::Half("key_path", "cert_path")),
        (Some(cert), Some(key)) => (cert, key),
    };
    let chain = certificates(cert_path)?;
    let key = private_key(key_path)?;
    let mut config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Mismatch(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| TlsError::Mismatch(e.to_string()))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Some(TlsAcceptor::from(Arc::new(config))))
}

fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let failed = |detail: String| TlsError::Certificates {
        path: path.display().to_string(),
        detail,
    };
    let chain = CertificateDer::pem_file_iter(path)
        .map_err(|e| failed(e.to_string()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| failed(e.to_string()))?;
    if chain.is_empty() {
        return Err(failed("no PEM certificate in it".to_owned()));
    }
    Ok(chain)
}

fn private_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    PrivateKeyDer::from_pem_file(path).map_err(|e| TlsError::Key {
        path: path.display().to_string(),
        detail: e.to_string(),
    })
}
