//! Two servers in cluster mode on one PostgreSQL database: one stopped gracefully hands its
//! matches and the league scheduler over, releasing their leases after its last writes, so the
//! other takes them at once rather than after the lease's time to live (10 s by default, which
//! nothing here waits out). Skipped without a PostgreSQL server (outside CI);
//! `PITCHMATE_TEST_POSTGRES_URL` names another one.

mod common;

use std::time::Duration;

use common::cluster::Replica;
use common::{MatchServiceClient, get, play_many, seated};
use pitchmate_store::scratch::ScratchSchema;
use pitchmate_store::{SCHEDULER_LEASE, Store, match_lease};

/// The replica a lease's holder names (`<replica_id>/<run>@<url>`), if the lease is held.
async fn holder(store: &Store, lease: &str) -> Option<String> {
    store
        .lease_holder(lease)
        .await
        .unwrap()
        .map(|lease| lease.holder.split('/').next().unwrap().to_owned())
}

/// `get`, asked again once after a `NOT_OWNER`, as the SDK's reconnect would.
async fn get_after_a_retry(
    client: &mut MatchServiceClient<tonic::transport::Channel>,
    match_id: &str,
) -> pitchmate_proto::v1::Match {
    let request = || pitchmate_proto::v1::GetMatchRequest {
        match_id: match_id.to_owned(),
    };
    match client.get_match(request()).await {
        Ok(answer) => answer.into_inner().r#match.expect("match"),
        Err(status) => {
            assert_eq!(status.code(), tonic::Code::Unavailable, "{status:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
            get(client, match_id).await
        }
    }
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

    // The other server takes the match, as it was, at a client's first retry at the latest: it
    // may still believe what it read of the lease a moment ago (its sweep reads leases too);
    // finding the former owner gone, it forgets that and reads the lease again.
    let mut on_staying = staying.matches().await;
    let taken = get_after_a_retry(&mut on_staying, &seated.match_id).await;
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
