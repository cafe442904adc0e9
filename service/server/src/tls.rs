//! TLS for the gRPC port: the certificate chain and key named by the settings, read once at
//! start, and the acceptor every connection goes through when they are set.
//!
//! ALPN offers HTTP/2 (gRPC) and HTTP/1.1 (the web board and its grpc-web calls); the transport
//! still tells them apart by their first bytes, so a client that skips ALPN is served too.
//!
//! In cluster mode with TLS, the replicas forward to each other over TLS too: the CA
//! certificates in `cluster.peer_ca_path`, read once at start, are the only ones a peer's
//! certificate may chain to (no system roots), and the peer's name is the host of its advertise
//! URL. Both ends use rustls with ring; the forwarding client offers only `h2` by ALPN.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::crypto::ring;

use tokio_rustls::rustls::RootCertStore;
use tonic::transport::{Certificate, ClientTlsConfig};

use crate::config::{ClusterSettings, TlsSettings};

/// How long a TLS handshake with a peer may take: a peer that accepts the connection and then
/// says nothing costs a forwarded call at most this before the client gets NOT_OWNER to retry.
const PEER_HANDSHAKE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

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
    #[error(
        "cannot read the peers' CA certificates `{path}` (setting `cluster.peer_ca_path`): {detail}"
    )]
    PeerCa { path: String, detail: String },
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

/// The TLS the forwarding client speaks to peers advertising `https://`: trusting only the CA
/// certificates in `cluster.peer_ca_path`; `None` outside cluster mode or without that setting.
/// Every certificate in the file must parse as a trust anchor, so a broken file stops the
/// server here rather than failing each forwarded call later.
pub fn peer_client(settings: &ClusterSettings) -> Result<Option<ClientTlsConfig>, TlsError> {
    let Some(path) = settings
        .peer_ca_path
        .as_deref()
        .filter(|_| !settings.replica_id.is_empty())
    else {
        return Ok(None);
    };
    let failed = |detail: String| TlsError::PeerCa {
        path: path.display().to_string(),
        detail,
    };
    let pem = std::fs::read(path).map_err(|e| failed(e.to_string()))?;
    let anchors = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| failed(e.to_string()))?;
    if anchors.is_empty() {
        return Err(failed("no PEM certificate in it".to_owned()));
    }
    let mut roots = RootCertStore::empty();
    for anchor in anchors {
        roots.add(anchor).map_err(|e| failed(e.to_string()))?;
    }
    Ok(Some(
        ClientTlsConfig::new()
            .ca_certificate(Certificate::from_pem(pem))
            .timeout(PEER_HANDSHAKE_TIMEOUT),
    ))
}
