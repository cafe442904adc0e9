//! Servers in cluster mode on one PostgreSQL database (a scratch schema of the store's), each
//! advertising the address it listens on.

use std::collections::HashMap;
use std::net::SocketAddr;

use pitchmate_server::config::{Cli, Settings};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tonic::transport::Channel;

use super::MatchServiceClient;

/// A server in cluster mode as `replica_id`, advertising the address it listens on.
pub struct Replica {
    pub address: SocketAddr,
    data_dir: std::path::PathBuf,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Result<(), pitchmate_server::ServeError>>,
}

impl Replica {
    pub async fn start(store_url: &str, replica_id: &str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        let data_dir =
            std::env::temp_dir().join(format!("pitchmate-test-{}", uuid::Uuid::new_v4()));
        let cli = Cli {
            data_dir: Some(data_dir.clone()),
            ..Cli::default()
        };
        let environment = HashMap::from([
            ("PITCHMATE__STORE__URL".to_owned(), store_url.to_owned()),
            (
                "PITCHMATE__CLUSTER__REPLICA_ID".to_owned(),
                replica_id.to_owned(),
            ),
            (
                "PITCHMATE__CLUSTER__ADVERTISE_URL".to_owned(),
                format!("http://{address}"),
            ),
        ]);
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
            stop,
            task,
        }
    }

    /// The URL it advertises.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    pub async fn channel(&self) -> Channel {
        tonic::transport::Endpoint::from_shared(self.url())
            .expect("endpoint")
            .connect()
            .await
            .expect("connect")
    }

    pub async fn matches(&self) -> MatchServiceClient<Channel> {
        MatchServiceClient::new(self.channel().await)
    }

    /// Stops it gracefully (its leases stay until they lapse) and removes its data directory.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.task
            .await
            .expect("server task")
            .expect("server result");
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}
