//! Two servers in cluster mode on one PostgreSQL database: the one that created a match hosts
//! it, and the other answers calls for it UNAVAILABLE / NOT_OWNER with the owner's URL, which
//! clients' reconnects retry. Skipped without a PostgreSQL server (outside CI);
//! `PITCHMATE_TEST_POSTGRES_URL` names another one.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;

use common::{MatchServiceClient, authed, reason, seated};
use pitchmate_proto::v1 as pb;
use pitchmate_server::config::{Cli, Settings};
use pitchmate_store::scratch::ScratchSchema;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tonic::Code;
use tonic_types::StatusExt;

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

/// The owner's URL a NOT_OWNER status names.
fn owner_url(status: &tonic::Status) -> String {
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert_eq!(reason(status), "NOT_OWNER", "{status:?}");
    let info = status.get_error_details().error_info().cloned().unwrap();
    info.metadata["owner_url"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_non_owner_answers_not_owner_with_the_owners_url() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let owner = Replica::start(&schema.url, "a").await;
    let other = Replica::start(&schema.url, "b").await;
    let mut on_owner = owner.matches().await;
    let mut on_other = other.matches().await;
    let match_id;
    {
        let seated = seated(&mut on_owner).await;
        match_id = seated.match_id.clone();
        let expected = format!("http://{}", owner.address);

        let get = on_other
            .get_match(pb::GetMatchRequest {
                match_id: match_id.clone(),
            })
            .await
            .unwrap_err();
        assert_eq!(owner_url(&get), expected);
        let legal = on_other
            .get_legal_actions(authed(
                pb::GetLegalActionsRequest {
                    match_id: match_id.clone(),
                    ..Default::default()
                },
                seated.tokens.values().next().unwrap(),
            ))
            .await
            .unwrap_err();
        assert_eq!(owner_url(&legal), expected);
        let stream = on_other
            .stream_match_events(pb::StreamMatchEventsRequest {
                match_id: match_id.clone(),
                after_seq: 0,
                ..Default::default()
            })
            .await;
        let refused = match stream {
            Err(status) => status,
            Ok(response) => response
                .into_inner()
                .message()
                .await
                .expect_err("the stream ends at once"),
        };
        assert_eq!(owner_url(&refused), expected);

        // The owner serves it as ever.
        let hosted = on_owner
            .get_match(pb::GetMatchRequest {
                match_id: match_id.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(hosted.r#match.unwrap().match_id, match_id);
    }
    // A listing reads the database, so any server lists every match.
    let listed = on_other
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(listed.matches.iter().any(|m| m.match_id == match_id));
    other.stop().await;
    owner.stop().await;
    schema.drop_schema().await;
}
