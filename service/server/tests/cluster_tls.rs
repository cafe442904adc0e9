//! Cluster mode with TLS: replicas whose ports speak TLS forward to each other over TLS,
//! trusting only the CA in `cluster.peer_ca_path` and checking the owner's certificate against
//! its advertise URL's host. A peer whose certificate that CA did not sign is an owner that
//! cannot be reached: the client gets UNAVAILABLE / NOT_OWNER. A missing or broken CA file stops
//! the server at start. The forwarding tests are skipped without a PostgreSQL server (outside
//! CI); `PITCHMATE_TEST_POSTGRES_URL` names another one.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::cluster::join_both;
use common::cluster::{Replica, ReplicaTls};
use common::{create, play_one, reason};
use pitchmate_proto::v1 as pb;
use pitchmate_server::ServeError;
use pitchmate_server::config::{Cli, Settings};
use pitchmate_store::scratch::ScratchSchema;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use tonic::Code;
use tonic_types::StatusExt;

/// A guard against a hang, not a measure: every call here answers in well under it.
const ANSWERS_WITHIN: Duration = Duration::from_secs(30);

/// A test certificate authority, its certificate written as PEM in `path`.
struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
    path: PathBuf,
}

impl TestCa {
    fn new(dir: &Path, name: &str) -> Self {
        std::fs::create_dir_all(dir).unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(DnType::CommonName, format!("pitchmate test CA {name}"));
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        let path = dir.join(format!("ca-{name}.pem"));
        std::fs::write(&path, issuer.pem()).unwrap();
        Self { issuer, path }
    }

    /// A replica's TLS in `dir`: a certificate this CA signs for 127.0.0.1 and localhost, and
    /// `trusted` as the CA it checks its peers by.
    fn replica(&self, dir: &Path, trusted: &TestCa) -> ReplicaTls {
        std::fs::create_dir_all(dir).unwrap();
        let mut params =
            CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        let cert_path = dir.join("cert.pem");
        let key_path = dir.join("key.pem");
        std::fs::write(&cert_path, cert.pem()).unwrap();
        std::fs::write(&key_path, key.serialize_pem()).unwrap();
        ReplicaTls {
            cert_path,
            key_path,
            peer_ca_path: trusted.path.clone(),
            signed_by_pem: self.issuer.pem(),
        }
    }
}

fn scratch_dir() -> PathBuf {
    std::env::temp_dir().join(format!("pitchmate-peer-tls-{}", uuid::Uuid::new_v4()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_with_tls_forward_to_each_other_over_tls() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let dir = scratch_dir();
    let ca = TestCa::new(&dir, "cluster");
    let owner =
        Replica::start_with_tls(&schema.url, "a", Some(ca.replica(&dir.join("a"), &ca))).await;
    let other =
        Replica::start_with_tls(&schema.url, "b", Some(ca.replica(&dir.join("b"), &ca))).await;
    assert!(owner.url().starts_with("https://"), "{}", owner.url());

    let mut on_owner = owner.matches().await;
    let mut on_other = other.matches().await;
    let match_id = create(&mut on_owner).await.match_id;
    // The owner holds the match's lease all along, so the other server can only answer these
    // by forwarding them; a forward that failed would answer NOT_OWNER.
    let seated = join_both(&mut on_other, &match_id).await;
    let played = play_one(&mut on_other, &seated, |_| 0)
        .await
        .expect("a turn played through the other server");
    let newest = played.events.iter().map(|e| e.seq).max().expect("events");

    let mut watching = on_other
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: match_id.clone(),
            after_seq: 0,
            ..Default::default()
        })
        .await
        .expect("a stream through the other server")
        .into_inner();
    let mut seqs = Vec::new();
    while seqs.last() != Some(&newest) {
        let item = watching.message().await.expect("item").expect("open");
        if let Some(pb::stream_match_events_response::Item::Event(event)) = item.item {
            seqs.push(event.seq);
        }
    }
    assert_eq!(seqs, (1..=newest).collect::<Vec<_>>());
    drop(watching);

    let read = common::get(&mut on_other, &match_id).await;
    let hosted = common::get(&mut on_owner, &match_id).await;
    assert_eq!(read.version, played.version);
    assert_eq!(hosted.version, played.version, "the owner played it");

    other.stop().await;
    owner.stop().await;
    schema.drop_schema().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_whose_certificate_is_not_trusted_leaves_not_owner() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let dir = scratch_dir();
    let owners_ca = TestCa::new(&dir, "owner");
    let others_ca = TestCa::new(&dir, "other");
    let owner = Replica::start_with_tls(
        &schema.url,
        "a",
        Some(owners_ca.replica(&dir.join("a"), &owners_ca)),
    )
    .await;
    // Trusts only its own CA, which did not sign the owner's certificate.
    let other = Replica::start_with_tls(
        &schema.url,
        "b",
        Some(others_ca.replica(&dir.join("b"), &others_ca)),
    )
    .await;
    let match_id = create(&mut owner.matches().await).await.match_id;

    let mut on_other = other.matches().await;
    let refused = tokio::time::timeout(
        ANSWERS_WITHIN,
        on_other.get_match(pb::GetMatchRequest {
            match_id: match_id.clone(),
        }),
    )
    .await
    .expect("an answer, not a hang")
    .expect_err("the owner is not trusted");
    assert_eq!(refused.code(), Code::Unavailable, "{refused:?}");
    assert_eq!(reason(&refused), "NOT_OWNER", "{refused:?}");
    let info = refused.get_error_details().error_info().cloned().unwrap();
    assert_eq!(info.metadata["owner_url"], owner.url());

    let stream = tokio::time::timeout(
        ANSWERS_WITHIN,
        on_other.stream_match_events(pb::StreamMatchEventsRequest {
            match_id: match_id.clone(),
            ..Default::default()
        }),
    )
    .await
    .expect("an answer, not a hang");
    let refused = match stream {
        Err(status) => status,
        Ok(response) => tokio::time::timeout(ANSWERS_WITHIN, response.into_inner().message())
            .await
            .expect("an answer, not a hang")
            .expect_err("the stream ends at once"),
    };
    assert_eq!(reason(&refused), "NOT_OWNER", "{refused:?}");

    // The other server is still serving, and the owner still hosts the match.
    let hosted = common::get(&mut owner.matches().await, &match_id).await;
    assert_eq!(hosted.match_id, match_id);
    assert!(
        other
            .matches()
            .await
            .get_match(pb::GetMatchRequest {
                match_id: "no-such-match".to_owned(),
            })
            .await
            .is_err_and(|status| status.code() == Code::NotFound)
    );

    other.stop().await;
    owner.stop().await;
    schema.drop_schema().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Starting in cluster mode with TLS and this `cluster.peer_ca_path` fails; the error's text.
async fn start_fails(tls: &ReplicaTls, peer_ca_path: &Path) -> String {
    let data_dir = scratch_dir();
    let cli = Cli {
        data_dir: Some(data_dir.clone()),
        ..Cli::default()
    };
    // The CA is read before the store is opened: no database is reached.
    let environment = HashMap::from(
        [
            ("PITCHMATE__STORE__URL", "postgres://127.0.0.1:1/unused"),
            ("PITCHMATE__CLUSTER__REPLICA_ID", "a"),
            ("PITCHMATE__CLUSTER__ADVERTISE_URL", "https://127.0.0.1:1"),
            (
                "PITCHMATE__TLS__CERT_PATH",
                &tls.cert_path.display().to_string(),
            ),
            (
                "PITCHMATE__TLS__KEY_PATH",
                &tls.key_path.display().to_string(),
            ),
            (
                "PITCHMATE__CLUSTER__PEER_CA_PATH",
                &peer_ca_path.display().to_string(),
            ),
        ]
        .map(|(key, value)| (key.to_owned(), value.to_owned())),
    );
    let settings = Settings::from_layers(&cli, environment).expect("settings");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = pitchmate_server::serve(&settings, listener, std::future::pending())
        .await
        .expect_err("the server does not start");
    assert!(matches!(error, ServeError::Tls(_)), "{error:?}");
    let _ = std::fs::remove_dir_all(data_dir);
    error.to_string()
}

#[tokio::test]
async fn a_missing_or_broken_peer_ca_stops_the_server_at_start() {
    let dir = scratch_dir();
    let ca = TestCa::new(&dir, "cluster");
    let tls = ca.replica(&dir.join("a"), &ca);
    let not_pem = dir.join("not.pem");
    std::fs::write(&not_pem, "not a certificate").unwrap();
    let not_a_certificate = dir.join("garbled.pem");
    std::fs::write(
        &not_a_certificate,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();

    for (path, complaint) in [
        (dir.join("missing.pem"), "missing.pem"),
        (not_pem, "no PEM certificate"),
        (not_a_certificate, "garbled.pem"),
    ] {
        let message = start_fails(&tls, &path).await;
        assert!(message.contains("cluster.peer_ca_path"), "{message}");
        assert!(message.contains(complaint), "{message}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
