//! Two servers in cluster mode on one PostgreSQL database: a client of the server that does not
//! own a match is answered by the owner, its calls and streams forwarded there. A call forwarded
//! once is not forwarded again, and a call for a match whose owner is down is answered
//! UNAVAILABLE / NOT_OWNER for the client to retry. Skipped without a PostgreSQL server (outside
//! CI); `PITCHMATE_TEST_POSTGRES_URL` names another one.

mod common;

use common::cluster::Replica;
use common::cluster::join_both;
use common::{authed, create, play_one, reason, short_options};
use pitchmate_client::{Client, NewMatch, RandomChoice, play};
use pitchmate_proto::v1 as pb;
use pitchmate_server::forward::FORWARDED_BY_HEADER;
use pitchmate_store::scratch::ScratchSchema;
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

/// The owner's URL a NOT_OWNER answer names.
fn not_owner_url(status: &Status) -> String {
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert_eq!(reason(status), "NOT_OWNER", "{status:?}");
    let info = status.get_error_details().error_info().cloned().unwrap();
    info.metadata["owner_url"].clone()
}

/// Events from `stream` until the one numbered `last`, skipping heartbeats.
async fn events_until(
    stream: &mut tonic::Streaming<pb::StreamMatchEventsResponse>,
    last: u64,
) -> Vec<u64> {
    let mut seqs = Vec::new();
    while seqs.last() != Some(&last) {
        let item = stream
            .message()
            .await
            .expect("stream item")
            .expect("stream open");
        if let Some(pb::stream_match_events_response::Item::Event(event)) = item.item {
            seqs.push(event.seq);
        }
    }
    seqs
}

/// The newest seq an answer's events name.
fn newest_seq(answer: &pb::SubmitActionResponse) -> u64 {
    answer.events.iter().map(|e| e.seq).max().expect("events")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_and_streams_through_the_other_server_are_answered_by_the_owner() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let owner = Replica::start(&schema.url, "a").await;
    let other = Replica::start(&schema.url, "b").await;
    let mut on_owner = owner.matches().await;
    let mut on_other = other.matches().await;

    let match_id = create(&mut on_owner).await.match_id;
    let seated = join_both(&mut on_other, &match_id).await;
    let got = on_other
        .get_match(pb::GetMatchRequest {
            match_id: match_id.clone(),
        })
        .await
        .expect("GetMatch through the other server")
        .into_inner()
        .r#match
        .unwrap();
    assert_eq!(got.match_id, match_id);
    assert_eq!(
        got.seats.iter().filter(|s| s.occupied).count(),
        2,
        "{got:?}"
    );

    // GetMatch, GetLegalActions and SubmitAction, each through the other server.
    let first = play_one(&mut on_other, &seated, |_| 0)
        .await
        .expect("a turn");
    let before_stream = newest_seq(&first);
    let mut watching = on_other
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: match_id.clone(),
            after_seq: 0,
            ..Default::default()
        })
        .await
        .expect("StreamMatchEvents through the other server")
        .into_inner();
    let missed = events_until(&mut watching, before_stream).await;
    assert_eq!(missed, (1..=before_stream).collect::<Vec<_>>());
    let second = play_one(&mut on_other, &seated, |n| n - 1)
        .await
        .expect("a turn");
    let live = events_until(&mut watching, newest_seq(&second)).await;
    assert_eq!(
        live,
        (before_stream + 1..=newest_seq(&second)).collect::<Vec<_>>(),
        "events arrive live on the forwarded stream"
    );
    drop(watching);

    // A stream resumed after a seq starts right after it.
    let mut resumed = on_other
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: match_id.clone(),
            after_seq: before_stream,
            ..Default::default()
        })
        .await
        .expect("a resumed stream")
        .into_inner();
    let again = events_until(&mut resumed, newest_seq(&second)).await;
    assert_eq!(again, live);

    // A seat's stream with its prompts too, through the other server.
    let seat = common::to_act(&mut on_other, &match_id)
        .await
        .expect("a seat to act");
    let mut prompted = on_other
        .stream_match_events(authed(
            pb::StreamMatchEventsRequest {
                match_id: match_id.clone(),
                after_seq: newest_seq(&second),
                include_legal_actions: true,
                ..Default::default()
            },
            seated.token(&seat),
        ))
        .await
        .expect("a seat's stream")
        .into_inner();
    let prompt = loop {
        let item = prompted.message().await.expect("item").expect("open");
        if let Some(pb::stream_match_events_response::Item::YourTurn(turn)) = item.item {
            break turn;
        }
    };
    assert!(!prompt.actions.is_empty());

    // The owner hosts it all along: it sees what was played through the other server.
    let hosted = common::get(&mut on_owner, &match_id).await;
    assert_eq!(hosted.version, second.version);

    other.stop().await;
    owner.stop().await;
    schema.drop_schema().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sdk_plays_a_match_the_other_server_owns_to_its_end() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let owner = Replica::start(&schema.url, "a").await;
    let other = Replica::start(&schema.url, "b").await;
    let mut new = NewMatch::variant("soccer-chess").seed(3);
    new.options = short_options();
    let created = Client::connect(owner.url())
        .await
        .expect("connect to the owner")
        .create_match(new)
        .await
        .expect("create on the owner");

    // Everything from here on goes to the other server only.
    let client = Client::connect(other.url()).await.expect("connect");
    let mut players = Vec::new();
    for (i, name) in ["alice", "bob"].into_iter().enumerate() {
        let seat = client
            .join(&created.match_id, None, name)
            .await
            .expect("join");
        let client = client.clone();
        players.push(tokio::spawn(async move {
            play(&client, &seat, &mut RandomChoice::seeded(i as u64 + 1)).await
        }));
    }
    let mut results = Vec::new();
    for player in players {
        results.push(player.await.expect("player").expect("played to the end"));
    }
    assert_eq!(results[0], results[1], "both seats see one result");

    let finished = common::get(&mut owner.matches().await, &created.match_id).await;
    assert_eq!(finished.status(), pb::MatchStatus::Finished, "{finished:?}");
    assert_eq!(finished.result.as_ref(), Some(&results[0]));

    other.stop().await;
    owner.stop().await;
    schema.drop_schema().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_forwarded_once_is_not_forwarded_again() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let owner = Replica::start(&schema.url, "a").await;
    let other = Replica::start(&schema.url, "b").await;
    let match_id = create(&mut owner.matches().await).await.match_id;
    let mut request = Request::new(pb::GetMatchRequest {
        match_id: match_id.clone(),
    });
    request
        .metadata_mut()
        .insert(FORWARDED_BY_HEADER, "c".parse().unwrap());
    let refused = other
        .matches()
        .await
        .get_match(request)
        .await
        .expect_err("answered where it landed");
    assert_eq!(not_owner_url(&refused), owner.url());

    other.stop().await;
    owner.stop().await;
    schema.drop_schema().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_that_is_down_leaves_not_owner_for_the_client_to_retry() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let owner = Replica::start(&schema.url, "a").await;
    let other = Replica::start(&schema.url, "b").await;
    let owner_url = owner.url();
    let match_id = create(&mut owner.matches().await).await.match_id;
    // Its lease stays until it lapses (10 s by default): the other server cannot take the match
    // over yet, and the owner it names refuses connections. (A graceful stop would hand the
    // match over at once.)
    owner.crash().await;

    let mut on_other = other.matches().await;
    let refused = on_other
        .get_match(pb::GetMatchRequest {
            match_id: match_id.clone(),
        })
        .await
        .expect_err("the owner is down");
    assert_eq!(not_owner_url(&refused), owner_url);
    let stream = on_other
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id,
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
    assert_eq!(not_owner_url(&refused), owner_url);

    other.stop().await;
    schema.drop_schema().await;
}
