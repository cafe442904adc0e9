//! Two servers in cluster mode on one PostgreSQL database: the one that created a match hosts
//! it, and the other's own answer for it is UNAVAILABLE / NOT_OWNER with the owner's URL. A
//! client's call gets that answer forwarded to the owner (see cluster_forwarding.rs); the calls
//! here carry the mark of a call forwarded already, which the other server answers itself.
//! Skipped without a PostgreSQL server (outside CI); `PITCHMATE_TEST_POSTGRES_URL` names another
//! one.

mod common;

use common::cluster::Replica;
use common::{authed, reason, seated};
use pitchmate_proto::v1 as pb;
use pitchmate_server::forward::FORWARDED_BY_HEADER;
use pitchmate_store::scratch::ScratchSchema;
use tonic::{Code, Request};
use tonic_types::StatusExt;

/// `request` as a replica forwarding it sends it: answered where it lands.
fn forwarded<T>(mut request: Request<T>) -> Request<T> {
    request
        .metadata_mut()
        .insert(FORWARDED_BY_HEADER, "c".parse().unwrap());
    request
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
        let expected = owner.url();

        let get = on_other
            .get_match(forwarded(Request::new(pb::GetMatchRequest {
                match_id: match_id.clone(),
            })))
            .await
            .unwrap_err();
        assert_eq!(owner_url(&get), expected);
        let legal = on_other
            .get_legal_actions(forwarded(authed(
                pb::GetLegalActionsRequest {
                    match_id: match_id.clone(),
                    ..Default::default()
                },
                seated.tokens.values().next().unwrap(),
            )))
            .await
            .unwrap_err();
        assert_eq!(owner_url(&legal), expected);
        let stream = on_other
            .stream_match_events(forwarded(Request::new(pb::StreamMatchEventsRequest {
                match_id: match_id.clone(),
                after_seq: 0,
                ..Default::default()
            })))
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
