//! Servers in cluster mode on one PostgreSQL database hear of each other's changes live: a
//! lifecycle entry, an inbox item or a tournament change committed on one reaches the readers
//! of another (StreamLifecycle, WatchInbox, WatchTournament) without waiting for anything else
//! to make it look at the store; and a server whose listening connection was cut delivers what
//! was committed meanwhile. Skipped without a PostgreSQL server (outside CI);
//! `PITCHMATE_TEST_POSTGRES_URL` names another one.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, SystemTime};

use common::cluster::Replica;
use common::{BotServiceClient, MatchServiceClient, authed, create};
use pitchmate_leagues::InboxItem;
use pitchmate_leagues::inbox::QuotaChange;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::challenge_service_client::ChallengeServiceClient;
use pitchmate_proto::v1::inbox_service_client::InboxServiceClient;
use pitchmate_proto::v1::tournament_service_client::TournamentServiceClient;
use pitchmate_server::config::{Cli, Settings};
use pitchmate_store::Store;
use pitchmate_store::scratch::ScratchSchema;
use tonic::transport::Channel;

/// How long a reader waits for what it expects before the test fails; it goes on as soon as
/// it arrives. Shorter than the tournament watchers' backstop poll (30 s), so a tournament
/// watcher that was not woken fails the test.
const PATIENCE: Duration = Duration::from_secs(15);

fn settings(store_url: &str, replica_id: &str, address: SocketAddr) -> Settings {
    let data_dir = std::env::temp_dir().join(format!("pitchmate-test-{}", uuid::Uuid::new_v4()));
    let cli = Cli {
        data_dir: Some(data_dir),
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
    Settings::from_layers(&cli, environment).expect("cluster settings")
}

struct Bot {
    id: String,
    key: String,
}

async fn register(channel: &Channel, name: &str) -> Bot {
    let created = BotServiceClient::new(channel.clone())
        .create_bot(pb::CreateBotRequest {
            name: name.to_owned(),
            ..Default::default()
        })
        .await
        .expect("create bot")
        .into_inner();
    Bot {
        id: created.bot.unwrap().bot_id,
        key: created.secret,
    }
}

async fn challenge(channel: &Channel, by: &Bot, target: &Bot) -> String {
    ChallengeServiceClient::new(channel.clone())
        .create_challenge(authed(
            pb::CreateChallengeRequest {
                target: target.id.clone(),
                terms: Some(pb::MatchTerms {
                    variant_id: "kings-goal".to_owned(),
                    ..Default::default()
                }),
                expires_in: None,
            },
            &by.key,
        ))
        .await
        .expect("challenge")
        .into_inner()
        .challenge
        .unwrap()
        .challenge_id
}

async fn watch_inbox(channel: &Channel, bot: &Bot) -> tonic::Streaming<pb::WatchInboxResponse> {
    InboxServiceClient::new(channel.clone())
        .watch_inbox(authed(pb::WatchInboxRequest { after_seq: 0 }, &bot.key))
        .await
        .expect("watch inbox")
        .into_inner()
}

/// The next inbox item, heartbeats skipped.
async fn next_item(stream: &mut tonic::Streaming<pb::WatchInboxResponse>) -> pb::InboxItem {
    loop {
        let response = tokio::time::timeout(PATIENCE, stream.message())
            .await
            .expect("an inbox item in time")
            .expect("the inbox stream")
            .expect("not ended");
        if let Some(pb::watch_inbox_response::Kind::Item(item)) = response.kind {
            return item;
        }
    }
}

fn received_challenge(item: &pb::InboxItem) -> String {
    match &item.kind {
        Some(pb::inbox_item::Kind::ChallengeReceived(challenge)) => challenge.challenge_id.clone(),
        other => panic!("expected a challenge, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_created_on_one_server_reaches_stream_lifecycle_on_another() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let a = Replica::start(&schema.url, "a").await;
    let b = Replica::start(&schema.url, "b").await;
    let mut feed = MatchServiceClient::new(b.channel().await)
        .stream_lifecycle(pb::StreamLifecycleRequest::default())
        .await
        .expect("stream lifecycle")
        .into_inner();

    let created = create(&mut MatchServiceClient::new(a.channel().await)).await;
    let event = next_event(&mut feed).await;
    assert_eq!(event.match_id, created.match_id);
    assert!(
        matches!(event.kind, Some(pb::lifecycle_event::Kind::Created(_))),
        "{event:?}"
    );
    drop(feed);
    a.stop().await;
    b.stop().await;
    schema.drop_schema().await;
}

/// The next lifecycle event of a feed, heartbeats skipped.
async fn next_event(
    feed: &mut tonic::Streaming<pb::StreamLifecycleResponse>,
) -> pb::LifecycleEvent {
    loop {
        let response = tokio::time::timeout(PATIENCE, feed.message())
            .await
            .expect("an entry in time")
            .expect("the feed")
            .expect("not ended");
        if let Some(pb::stream_lifecycle_response::Item::Event(event)) = response.item {
            return event;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cursor_another_server_sent_is_taken_before_this_one_has_heard_of_it() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let a = Replica::start(&schema.url, "a").await;
    let b = Replica::start(&schema.url, "b").await;
    let mut on_a = MatchServiceClient::new(a.channel().await);
    create(&mut on_a).await;
    // An entry B is never told of: written by a store that does not share its changes, a copy
    // of the first (so it reads as a real one). B's newest position stays behind it.
    let data_dir = std::env::temp_dir().join(format!("pitchmate-test-{}", uuid::Uuid::new_v4()));
    let unheard = Store::open(&schema.url, &data_dir).await.expect("open");
    let first = unheard.lifecycle_after(0, 1).await.expect("read").remove(0);
    let copy = pitchmate_store::LifecycleRow {
        position: 0,
        ..first.clone()
    };
    let row = unheard
        .matches()
        .await
        .expect("matches")
        .into_iter()
        .next()
        .unwrap();
    let copied = pitchmate_store::MatchRow {
        match_id: format!("{}-copy", row.match_id),
        ..row
    };
    unheard
        .create(copied, Vec::new(), vec![copy])
        .await
        .expect("an entry nobody announces");
    let cursor = first.position + 1;

    let mut feed = MatchServiceClient::new(b.channel().await)
        .stream_lifecycle(pb::StreamLifecycleRequest {
            after_position: cursor,
            ..Default::default()
        })
        .await
        .expect("a cursor of a stored entry is taken")
        .into_inner();
    let created = create(&mut on_a).await;
    let event = next_event(&mut feed).await;
    assert_eq!(
        (event.position, event.match_id),
        (cursor + 1, created.match_id)
    );
    let beyond = MatchServiceClient::new(b.channel().await)
        .stream_lifecycle(pb::StreamLifecycleRequest {
            after_position: cursor + 5,
            ..Default::default()
        })
        .await
        .expect_err("a position nothing has");
    assert_eq!(beyond.code(), tonic::Code::InvalidArgument);
    drop(feed);
    unheard.close().await.expect("close");
    a.stop().await;
    b.stop().await;
    schema.drop_schema().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inbox_item_written_on_one_server_reaches_watch_inbox_on_another() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let a = Replica::start(&schema.url, "a").await;
    let b = Replica::start(&schema.url, "b").await;
    let (on_a, on_b) = (a.channel().await, b.channel().await);
    let challenger = register(&on_a, "challenger").await;
    let target = register(&on_a, "target").await;
    let mut inbox = watch_inbox(&on_b, &target).await;

    let challenge_id = challenge(&on_a, &challenger, &target).await;
    let item = next_item(&mut inbox).await;
    assert_eq!(item.seq, 1);
    assert_eq!(received_challenge(&item), challenge_id);
    drop(inbox);
    a.stop().await;
    b.stop().await;
    schema.drop_schema().await;
}

async fn next_update(
    watch: &mut tonic::Streaming<pb::WatchTournamentResponse>,
) -> pb::WatchTournamentResponse {
    tokio::time::timeout(PATIENCE, watch.message())
        .await
        .expect("an update in time")
        .expect("the stream")
        .expect("not ended")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_changed_on_one_server_wakes_watch_tournament_on_another() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let unused = "127.0.0.1:1".parse().unwrap();
    let operator = pitchmate_server::server::create_operator_key(
        &settings(&schema.url, "a", unused),
        "tests".into(),
    )
    .await
    .expect("operator key")
    .secret;
    let a = Replica::start(&schema.url, "a").await;
    let b = Replica::start(&schema.url, "b").await;
    let (on_a, on_b) = (a.channel().await, b.channel().await);
    let mut tournaments_a = TournamentServiceClient::new(on_a.clone());
    let tournament_id = tournaments_a
        .create_tournament(authed(
            pb::CreateTournamentRequest {
                spec: Some(pb::TournamentSpec {
                    name: "Across".into(),
                    kind: pb::TournamentKind::Swiss as i32,
                    terms: Some(pb::MatchTerms {
                        variant_id: "kings-goal".into(),
                        ..Default::default()
                    }),
                    rounds: 3,
                    seed: Some(1),
                    ..Default::default()
                }),
            },
            &operator,
        ))
        .await
        .expect("create tournament")
        .into_inner()
        .tournament
        .unwrap()
        .tournament_id;
    let mut watch = TournamentServiceClient::new(on_b)
        .watch_tournament(pb::WatchTournamentRequest {
            tournament_id: tournament_id.clone(),
            after_seq: 0,
        })
        .await
        .expect("watch tournament")
        .into_inner();
    assert!(matches!(
        next_update(&mut watch).await.kind,
        Some(pb::watch_tournament_response::Kind::Created(_))
    ));

    let entrant = register(&on_a, "entrant").await;
    tournaments_a
        .enter_tournament(authed(
            pb::EnterTournamentRequest {
                tournament_id,
                bot: String::new(),
            },
            &entrant.key,
        ))
        .await
        .expect("enter");
    match next_update(&mut watch).await.kind {
        Some(pb::watch_tournament_response::Kind::EntryChanged(entry)) => {
            assert_eq!(entry.bot_id, entrant.id)
        }
        other => panic!("expected the entry, got {other:?}"),
    }
    drop(watch);
    a.stop().await;
    b.stop().await;
    schema.drop_schema().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_listener_was_cut_off_delivers_what_was_committed_meanwhile() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    // B's connections carry a name of their own, so the test can find its listener.
    let application = format!("replica-b-{}", uuid::Uuid::new_v4().simple());
    let a = Replica::start(&schema.url, "a").await;
    let b = Replica::start(
        &format!("{}&application_name={application}", schema.url),
        "b",
    )
    .await;
    let (on_a, on_b) = (a.channel().await, b.channel().await);
    let challenger = register(&on_a, "challenger").await;
    let target = register(&on_a, "target").await;
    let mut inbox = watch_inbox(&on_b, &target).await;
    // A live item first: B's listener is connected and past its first catch-up.
    let challenge_id = challenge(&on_a, &challenger, &target).await;
    assert_eq!(
        received_challenge(&next_item(&mut inbox).await),
        challenge_id
    );

    // A store that does not share its changes (cluster mode off) writes an item B is never
    // told of; then B's listener is cut off.
    let data_dir = std::env::temp_dir().join(format!("pitchmate-test-{}", uuid::Uuid::new_v4()));
    let unheard = Store::open(&schema.url, &data_dir).await.expect("open");
    let quota = InboxItem::QuotaChanged(QuotaChange {
        max_concurrent: 7,
        daily_cap: 70,
    });
    unheard
        .append_inbox(vec![quota.to_new(&target.id, SystemTime::now())])
        .await
        .expect("an item nobody announces");
    assert_eq!(schema.cut_listeners(&application).await, 1);

    let item = next_item(&mut inbox).await;
    assert_eq!(item.seq, 2);
    assert!(
        matches!(
            item.kind,
            Some(pb::inbox_item::Kind::QuotaChanged(pb::InboxQuotaChanged {
                max_concurrent: 7,
                daily_cap: 70
            }))
        ),
        "{item:?}"
    );
    // And B hears live items again.
    let again = challenge(&on_a, &challenger, &target).await;
    let item = next_item(&mut inbox).await;
    assert_eq!((item.seq, received_challenge(&item)), (3, again));
    drop(inbox);
    unheard.close().await.expect("close");
    a.stop().await;
    b.stop().await;
    schema.drop_schema().await;
}
