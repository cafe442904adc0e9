//! TLS on the gRPC port: with a certificate and key set, gRPC clients connect over TLS (ALPN h2)
//! and plain-text connections are not served; a missing or broken certificate or key stops the
//! server at start with a message naming the setting.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_server::ServeError;
use tokio::net::TcpListener;
use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};

/// A self-signed certificate for `localhost` and its key, written as PEM into `dir`; returns the
/// certificate's PEM and the two paths.
fn certificate_in(dir: &Path) -> (String, PathBuf, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let issued = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let cert_pem = issued.cert.pem();
    let cert_path = dir.join("cert.pem");
    let key_path = dir.join("key.pem");
    std::fs::write(&cert_path, &cert_pem).unwrap();
    std::fs::write(&key_path, issued.signing_key.serialize_pem()).unwrap();
    (cert_pem, cert_path, key_path)
}

#[tokio::test]
async fn grpc_is_served_over_tls_and_plain_text_is_not() {
    let mut settings = test_settings();
    let (cert_pem, cert_path, key_path) = certificate_in(&settings.data_dir.join("tls"));
    settings.tls.cert_path = Some(cert_path);
    settings.tls.key_path = Some(key_path);
    let server = start_with(settings).await;

    let tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(&cert_pem))
        .domain_name("localhost");
    let channel = Endpoint::from_shared(format!("https://{}", server.address))
        .unwrap()
        .tls_config(tls)
        .unwrap()
        .connect()
        .await
        .expect("a TLS connection");
    let variants = VariantServiceClient::new(channel)
        .list_variants(pb::ListVariantsRequest::default())
        .await
        .expect("a call over TLS")
        .into_inner();
    assert!(!variants.variants.is_empty());

    // The web board: a browser's HTTP/1.1, negotiated by ALPN.
    let (alpn, head) = http1_over_tls(server.address, &cert_pem).await;
    assert_eq!(alpn.as_deref(), Some(&b"http/1.1"[..]));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");

    // A plain-text HTTP/2 client gets no answer: its preface is not a TLS ClientHello.
    let plain = Endpoint::from_shared(format!("http://{}", server.address))
        .unwrap()
        .connect_timeout(std::time::Duration::from_secs(5))
        .timeout(std::time::Duration::from_secs(5));
    let refused = match plain.connect().await {
        Err(_) => true,
        Ok(channel) => VariantServiceClient::new(channel)
            .list_variants(pb::ListVariantsRequest::default())
            .await
            .is_err(),
    };
    assert!(refused, "plain text is not served on a TLS port");
    server.stop().await;
}

/// `GET /` over TLS offering only HTTP/1.1 by ALPN: the protocol the server chose and the first
/// line of its answer.
async fn http1_over_tls(
    address: std::net::SocketAddr,
    cert_pem: &str,
) -> (Option<Vec<u8>>, String) {
    use rustls_pki_types::CertificateDer;
    use rustls_pki_types::pem::PemObject;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::rustls::{ClientConfig, RootCertStore};

    let mut roots = RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(cert_pem.as_bytes()).unwrap())
        .unwrap();
    let mut config = ClientConfig::builder_with_provider(std::sync::Arc::new(
        tokio_rustls::rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut tls = connector
        .connect("localhost".try_into().unwrap(), tcp)
        .await
        .expect("a TLS handshake");
    let alpn = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
    tls.write_all(b"GET / HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    // The server may close without close_notify once it has answered.
    let _ = tls.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer);
    (alpn, answer.lines().next().unwrap_or_default().to_owned())
}

/// Starting with these TLS settings fails; the error's text.
async fn start_fails(cert_path: Option<PathBuf>, key_path: Option<PathBuf>) -> String {
    let mut settings = test_settings();
    settings.tls.cert_path = cert_path;
    settings.tls.key_path = key_path;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let data_dir = settings.data_dir.clone();
    let error = pitchmate_server::serve(&settings, listener, std::future::pending())
        .await
        .expect_err("the server does not start");
    assert!(matches!(error, ServeError::Tls(_)), "{error:?}");
    let _ = std::fs::remove_dir_all(data_dir);
    error.to_string()
}

#[tokio::test]
async fn bad_certificates_and_keys_stop_the_server_at_start() {
    let dir = std::env::temp_dir().join(format!("pitchmate-tls-{}", uuid::Uuid::new_v4()));
    let (_, cert_path, key_path) = certificate_in(&dir);
    let missing = dir.join("missing.pem");
    let not_pem = dir.join("not.pem");
    std::fs::write(&not_pem, "not a certificate").unwrap();
    let (_, other_cert, _) = certificate_in(&dir.join("other"));

    let message = start_fails(Some(missing.clone()), Some(key_path.clone())).await;
    assert!(message.contains("tls.cert_path"), "{message}");
    assert!(message.contains("missing.pem"), "{message}");

    let message = start_fails(Some(cert_path.clone()), Some(missing)).await;
    assert!(message.contains("tls.key_path"), "{message}");

    let message = start_fails(Some(not_pem.clone()), Some(key_path.clone())).await;
    assert!(message.contains("tls.cert_path"), "{message}");

    let message = start_fails(Some(cert_path.clone()), Some(not_pem)).await;
    assert!(message.contains("tls.key_path"), "{message}");

    let message = start_fails(Some(other_cert), Some(key_path)).await;
    assert!(message.contains("do not go together"), "{message}");

    let message = start_fails(Some(cert_path), None).await;
    assert!(message.contains("give both or neither"), "{message}");
    std::fs::remove_dir_all(dir).unwrap();
}
