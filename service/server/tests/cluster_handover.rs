//! Two servers in cluster mode on one PostgreSQL database: one stopped gracefully hands its
//! matches and the league scheduler over, releasing their leases after its last writes, so the
//! other takes them at once rather than after the lease's time to live (10 s by default, which
//! nothing here waits out). Skipped without a PostgreSQL server (outside CI);
//! `PITCHMATE_TEST_POSTGRES_URL` names another one.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use common::{MatchServiceClient, get, play_many, seated};
use pitchmate_server::config::{Cli, Settings};
use pitchmate_store::scratch::ScratchSchema;
use pitchmate_store::{SCHEDULER_LEASE, Store, match_lease};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// A server in cluster mode as `replica_id`, advertising the address it listens on.
struct Replica {
    address: SocketAddr,
    data_dir: std::path::PathBuf,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Result<(), pitchmate_server::ServeError>>,
}

impl Replica {
    async fn start(store_url: &str, replica_id: &str) -> Self {
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

    async fn matches(&self) -> MatchServiceClient<tonic::transport::Channel> {
        let endpoint = tonic::transport::Endpoint::from_shared(format!("http://{}", self.address))
            .expect("endpoint");
        MatchServiceClient::new(endpoint.connect().await.expect("connect"))
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        self.task
            .await
            .expect("server task")
            .expect("server result");
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

/// The replica a lease's holder names (`<replica_id>/<run>@<url>`), if the lease is held.
async fn holder(store: &Store, lease: &str) -> Option<String> {
    store
        .lease_holder(lease)
        .await
        .unwrap()
        .map(|lease| lease.holder.split('/').next().unwrap().to_owned())
}

/// Waits, far beyond a beat, until `lease` is held by `replica`.
async fn until_held(store: &Store, lease: &str, replica: &str) {
    let by = tokio::time::Instant::now() + Duration::from_secs(20);
    while holder(store, lease).await.as_deref() != Some(replica) {
        assert!(
            tokio::time::Instant::now() < by,
            "{lease} held by {replica}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_stopped_gracefully_hands_its_match_and_the_scheduler_over_at_once() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let store = Store::open(&schema.url, std::path::Path::new("unused-by-postgres"))
        .await
        .unwrap();
    let leaving = Replica::start(&schema.url, "leaving").await;
    // The first server up schedules the leagues.
    until_held(&store, SCHEDULER_LEASE, "leaving").await;
    let staying = Replica::start(&schema.url, "staying").await;

    let mut on_leaving = leaving.matches().await;
    let seated = seated(&mut on_leaving).await;
    let played = play_many(&mut on_leaving, &seated, 6, 11).await;
    assert_eq!(played, 6);
    let before = get(&mut on_leaving, &seated.match_id).await;
    let lease = match_lease(&seated.match_id);
    assert_eq!(holder(&store, &lease).await.as_deref(), Some("leaving"));

    leaving.stop().await;
    // Released on the way out, not left to lapse.
    assert_eq!(holder(&store, &lease).await, None);
    assert_ne!(
        holder(&store, SCHEDULER_LEASE).await.as_deref(),
        Some("leaving")
    );

    // The first call on the other server takes the match, as it was.
    let mut on_staying = staying.matches().await;
    let taken = get(&mut on_staying, &seated.match_id).await;
    assert_eq!(taken, before, "every acknowledged action, nothing else");
    assert_eq!(holder(&store, &lease).await.as_deref(), Some("staying"));
    assert_eq!(play_many(&mut on_staying, &seated, 2, 12).await, 2);
    until_held(&store, SCHEDULER_LEASE, "staying").await;

    staying.stop().await;
    assert_eq!(holder(&store, &lease).await, None);
    assert_eq!(holder(&store, SCHEDULER_LEASE).await, None);
    store.close().await.unwrap();
    schema.drop_schema().await;
}
