//! Servers in cluster mode on one PostgreSQL database (a scratch schema of the store's), each
//! advertising the address it listens on, in plain text or over TLS.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;

use pitchmate_server::config::{Cli, Settings};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tonic::transport::{Certificate, Channel, ClientTlsConfig};

use super::{MatchServiceClient, Seated, pb};

/// A replica's TLS: its certificate and key, the CA certificates it trusts its peers by, and
/// the CA that signed its own certificate (for the tests' clients).
#[derive(Clone, Debug)]
pub struct ReplicaTls {
    pub cert_path: PathBuf,
    pub key_path: PathBuf,
    pub peer_ca_path: PathBuf,
    pub signed_by_pem: String,
}

/// A server in cluster mode as `replica_id`, advertising the address it listens on.
pub struct Replica {
    pub address: SocketAddr,
    data_dir: std::path::PathBuf,
    /// How clients reach it when its port speaks TLS.
    client_tls: Option<ClientTlsConfig>,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Result<(), pitchmate_server::ServeError>>,
}

impl Replica {
    pub async fn start(store_url: &str, replica_id: &str) -> Self {
        Self::start_with_tls(store_url, replica_id, None).await
    }

    /// With `tls`, its port speaks TLS only and it advertises `https://`.
    pub async fn start_with_tls(
        store_url: &str,
        replica_id: &str,
        tls: Option<ReplicaTls>,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        let data_dir =
            std::env::temp_dir().join(format!("pitchmate-test-{}", uuid::Uuid::new_v4()));
        let cli = Cli {
            data_dir: Some(data_dir.clone()),
            ..Cli::default()
        };
        let scheme = if tls.is_some() { "https" } else { "http" };
        let mut environment = HashMap::from([
            ("PITCHMATE__STORE__URL".to_owned(), store_url.to_owned()),
            (
                "PITCHMATE__CLUSTER__REPLICA_ID".to_owned(),
                replica_id.to_owned(),
            ),
            (
                "PITCHMATE__CLUSTER__ADVERTISE_URL".to_owned(),
                format!("{scheme}://{address}"),
            ),
        ]);
        if let Some(tls) = &tls {
            for (key, path) in [
                ("PITCHMATE__TLS__CERT_PATH", &tls.cert_path),
                ("PITCHMATE__TLS__KEY_PATH", &tls.key_path),
                ("PITCHMATE__CLUSTER__PEER_CA_PATH", &tls.peer_ca_path),
            ] {
                environment.insert(key.to_owned(), path.display().to_string());
            }
        }
        let client_tls = tls.map(|tls| {
            ClientTlsConfig::new().ca_certificate(Certificate::from_pem(tls.signed_by_pem))
        });
        let settings = Settings::from_layers(&cli, environment).expect("cluster settings");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            pitchmate_server::serve(&settings, listener, async {
                let _ = stopped.await;
            })
            .await
        });
        Self {
            address,
            data_dir,
            client_tls,
            stop,
            task,
        }
    }

    /// The URL it advertises.
    pub fn url(&self) -> String {
        let scheme = if self.client_tls.is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}", self.address)
    }

    pub async fn channel(&self) -> Channel {
        let mut endpoint = tonic::transport::Endpoint::from_shared(self.url()).expect("endpoint");
        if let Some(tls) = &self.client_tls {
            endpoint = endpoint.tls_config(tls.clone()).expect("client TLS");
        }
        endpoint.connect().await.expect("connect")
    }

    pub async fn matches(&self) -> MatchServiceClient<Channel> {
        MatchServiceClient::new(self.channel().await)
    }

    /// Stops it as a crash would: no hand-over, its leases stay held until they lapse, and its
    /// port refuses connections.
    pub async fn crash(self) {
        self.task.abort();
        let _ = self.task.await;
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }

    /// Stops it gracefully (it hands its matches over) and removes its data directory.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.task
            .await
            .expect("server task")
            .expect("server result");
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

/// Takes both seats of `match_id` through `client` (a replica that may not own the match).
pub async fn join_both(client: &mut MatchServiceClient<Channel>, match_id: &str) -> Seated {
    let mut tokens = HashMap::new();
    for name in ["alice", "bob"] {
        let joined = client
            .join_match(pb::JoinMatchRequest {
                match_id: match_id.to_owned(),
                seat: String::new(),
                player_name: name.to_owned(),
            })
            .await
            .expect("join through the other server")
            .into_inner();
        tokens.insert(joined.seat, joined.seat_token);
    }
    Seated {
        match_id: match_id.to_owned(),
        tokens,
    }
}
