//! Each bot's inbox: an item for every match it played when the match ends, numbered per bot
//! from 1 with no gap, resumable after the last item seen, across a restart and a SIGKILL, with
//! nothing missed and nothing twice; a cursor older than what is kept is refused with a way on.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use common::process::{Options, ServerProcess, free_address, url};
use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::inbox_service_client::InboxServiceClient;
use pitchmate_proto::v1::watch_inbox_response::Kind;
use tonic::Code;
use tonic::transport::Channel;

async fn connect(address: SocketAddr) -> Channel {
    tonic::transport::Endpoint::from_shared(url(address))
        .unwrap()
        .connect()
        .await
        .expect("connect")
}

async fn register(channel: &Channel, name: &str) -> String {
    BotServiceClient::new(channel.clone())
        .create_bot(pb::CreateBotRequest {
            name: name.to_owned(),
            ..Default::default()
        })
        .await
        .expect("create bot")
        .into_inner()
        .secret
}

/// A King's Goal match both bots join with their keys, which `resigner` resigns at once; its id.
async fn resigned(channel: &Channel, home: &str, away: &str, resigner: &str) -> String {
    let mut matches = MatchServiceClient::new(channel.clone());
    let created = matches
        .create_match(pb::CreateMatchRequest {
            variant_id: "kings-goal".to_owned(),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .r#match
        .unwrap();
    for key in [home, away] {
        matches
            .join_match(authed(
                pb::JoinMatchRequest {
                    match_id: created.match_id.clone(),
                    ..Default::default()
                },
                key,
            ))
            .await
            .expect("join");
    }
    matches
        .resign(authed(
            pb::ResignRequest {
                match_id: created.match_id.clone(),
            },
            resigner,
        ))
        .await
        .expect("resign");
    created.match_id
}

async fn watch(
    channel: &Channel,
    key: &str,
    after_seq: u64,
) -> Result<tonic::Streaming<pb::WatchInboxResponse>, tonic::Status> {
    InboxServiceClient::new(channel.clone())
        .watch_inbox(authed(pb::WatchInboxRequest { after_seq }, key))
        .await
        .map(|r| r.into_inner())
}

/// The next `count` items of a stream, heartbeats skipped.
async fn items(
    stream: &mut tonic::Streaming<pb::WatchInboxResponse>,
    count: usize,
) -> Vec<pb::InboxItem> {
    let mut read = Vec::new();
    while read.len() < count {
        let message = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .expect("an item in time")
            .expect("the stream")
            .expect("open");
        if let Some(Kind::Item(item)) = message.kind {
            read.push(item);
        }
    }
    read
}

fn finished(item: &pb::InboxItem) -> &pb::InboxMatchFinished {
    match &item.kind {
        Some(pb::inbox_item::Kind::MatchFinished(finished)) => finished,
        other => panic!("not a finished match: {other:?}"),
    }
}

async fn get_inbox(channel: &Channel, key: &str) -> pb::GetInboxResponse {
    InboxServiceClient::new(channel.clone())
        .get_inbox(authed(pb::GetInboxRequest {}, key))
        .await
        .expect("get inbox")
        .into_inner()
}

#[tokio::test]
async fn a_bot_hears_once_of_every_match_it_played() {
    let mut settings = test_settings();
    settings.stream.heartbeat_secs = 1;
    let server = start_with(settings.clone()).await;
    let channel = server.channel().await;
    let (home, away) = (
        register(&channel, "home").await,
        register(&channel, "away").await,
    );

    let mut home_inbox = watch(&channel, &home, 0).await.unwrap();
    let first = resigned(&channel, &home, &away, &away).await;
    let second = resigned(&channel, &home, &away, &home).await;
    let heard = items(&mut home_inbox, 2).await;
    assert_eq!(heard.iter().map(|i| i.seq).collect::<Vec<_>>(), [1, 2]);
    let (a, b) = (finished(&heard[0]), finished(&heard[1]));
    assert_eq!(
        (a.match_id.as_str(), a.outcome),
        (first.as_str(), pb::MatchOutcome::Won as i32)
    );
    assert_eq!(
        (b.match_id.as_str(), b.outcome),
        (second.as_str(), pb::MatchOutcome::Lost as i32)
    );
    assert_eq!(
        a.result.as_ref().unwrap().reason,
        pb::ResultReason::Resignation as i32
    );
    // Nothing more comes but heartbeats that say how far the inbox has been read.
    let next = tokio::time::timeout(Duration::from_secs(5), home_inbox.message())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(
        next.kind,
        Some(Kind::Heartbeat(pb::InboxHeartbeat { seq: 2 }))
    );

    // The other bot resumes after its first item and gets the second alone.
    let mut away_inbox = watch(&channel, &away, 1).await.unwrap();
    let resumed = items(&mut away_inbox, 1).await;
    assert_eq!(resumed[0].seq, 2);
    assert_eq!(finished(&resumed[0]).outcome, pb::MatchOutcome::Won as i32);

    // GetInbox shows the matches still being played.
    let mut matches = server.matches().await;
    let live = create(&mut matches).await;
    matches
        .join_match(authed(
            pb::JoinMatchRequest {
                match_id: live.match_id.clone(),
                ..Default::default()
            },
            &home,
        ))
        .await
        .unwrap();
    let mut snapshot = get_inbox(&channel, &home).await;
    for _ in 0..100 {
        if !snapshot.live_matches.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        snapshot = get_inbox(&channel, &home).await;
    }
    assert_eq!((snapshot.oldest_seq, snapshot.newest_seq), (1, 2));
    let ids: Vec<&str> = snapshot
        .live_matches
        .iter()
        .map(|m| m.match_id.as_str())
        .collect();
    assert_eq!(ids, [live.match_id.as_str()]);

    // Refusals: a cursor past the newest item, an operator's key, no key.
    let beyond = watch(&channel, &home, 3).await.unwrap_err();
    assert_eq!(bad_field(&beyond), "after_seq");
    let operator = pitchmate_server::server::create_operator_key(&settings, "ops".into())
        .await
        .unwrap();
    let refused = watch(&channel, &operator.secret, 0).await.unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::PermissionDenied, "NOT_A_BOT_KEY")
    );
    let refused = InboxServiceClient::new(channel.clone())
        .get_inbox(pb::GetInboxRequest {})
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    server.stop().await;
}

/// Bots follow their inboxes from the real binary while matches are played; the server is
/// SIGKILLed twice and restarted on the same data. Each watcher reconnects after the last seq
/// it read. Every bot hears of exactly the matches it played, once each, numbered 1, 2, 3, ...
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inboxes_miss_nothing_and_repeat_nothing_across_sigkills() {
    let address = free_address();
    let data_dir = std::env::temp_dir().join(format!("pitchmate-inbox-{}", uuid::Uuid::new_v4()));
    let options = Options {
        environment: &[("PITCHMATE__STREAM__HEARTBEAT_SECS", "1")],
        ..Options::default()
    };
    let mut server = ServerProcess::start_with(address, &data_dir, options).await;
    let channel = connect(address).await;
    let names = ["north", "south", "east"];
    let mut keys = Vec::new();
    for name in names {
        keys.push(register(&channel, name).await);
    }
    // Three rounds; each bot plays the other two once a round.
    const ROUNDS: usize = 3;
    let expected = ROUNDS * 2;
    let watchers: Vec<_> = keys
        .iter()
        .cloned()
        .map(|key| {
            tokio::spawn(async move {
                let mut read: Vec<pb::InboxItem> = Vec::new();
                while read.len() < expected {
                    let after = read.last().map_or(0, |i| i.seq);
                    let Ok(channel) = tonic::transport::Endpoint::from_shared(url(address))
                        .unwrap()
                        .connect()
                        .await
                    else {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    };
                    let Ok(mut stream) = watch(&channel, &key, after).await else {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    };
                    // Until the server goes away: then resume after the last item read.
                    while let Ok(Some(message)) = stream.message().await {
                        if let Some(Kind::Item(item)) = message.kind {
                            read.push(item);
                        }
                        if read.len() == expected {
                            break;
                        }
                    }
                }
                read
            })
        })
        .collect();

    let mut played: HashMap<usize, Vec<String>> = HashMap::new();
    for round in 0..ROUNDS {
        let channel = connect(address).await;
        for (a, b) in [(0, 1), (1, 2), (2, 0)] {
            let id = resigned(&channel, &keys[a], &keys[b], &keys[b]).await;
            played.entry(a).or_default().push(id.clone());
            played.entry(b).or_default().push(id);
        }
        if round < ROUNDS - 1 {
            server.kill();
            server = ServerProcess::start_with(address, &data_dir, options).await;
        }
    }
    for (index, watcher) in watchers.into_iter().enumerate() {
        let read = tokio::time::timeout(Duration::from_secs(120), watcher)
            .await
            .expect("the watcher read every item")
            .expect("the watcher");
        let seqs: Vec<u64> = read.iter().map(|i| i.seq).collect();
        assert_eq!(
            seqs,
            (1..=expected as u64).collect::<Vec<_>>(),
            "{}",
            names[index]
        );
        let mut heard: Vec<String> = read.iter().map(|i| finished(i).match_id.clone()).collect();
        let mut expected_ids = played[&index].clone();
        heard.sort();
        expected_ids.sort();
        assert_eq!(
            heard, expected_ids,
            "{} hears of exactly its matches",
            names[index]
        );
    }
    // Once more from the start, after the restarts: the same items.
    let channel = connect(address).await;
    let mut again = watch(&channel, &keys[0], 0).await.unwrap();
    let replayed = items(&mut again, expected).await;
    assert_eq!(replayed.len(), expected);
    drop(server);
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
}

/// Items older than `bots.inbox_retention_days` are pruned; a bot resuming from before them is
/// told its cursor expired, and GetInbox says where to start again.
#[tokio::test]
async fn an_expired_cursor_is_refused_and_the_snapshot_shows_where_to_resume() {
    let settings = test_settings();
    let server = start_with(settings.clone()).await;
    let channel = server.channel().await;
    let (home, away) = (
        register(&channel, "home").await,
        register(&channel, "away").await,
    );
    resigned(&channel, &home, &away, &away).await;
    let mut inbox = watch(&channel, &home, 0).await.unwrap();
    assert_eq!(items(&mut inbox, 1).await[0].seq, 1);
    drop(inbox);

    let mut pruning = settings.clone();
    pruning.bots.inbox_retention_days = 0;
    let server = server.restart(pruning).await;
    let channel = server.channel().await;
    let mut snapshot = get_inbox(&channel, &home).await;
    for _ in 0..250 {
        if snapshot.oldest_seq > snapshot.newest_seq {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        snapshot = get_inbox(&channel, &home).await;
    }
    assert_eq!(
        (snapshot.oldest_seq, snapshot.newest_seq),
        (2, 1),
        "pruned at start"
    );
    let expired = watch(&channel, &home, 0).await.unwrap_err();
    assert_eq!(
        (expired.code(), reason(&expired).as_str()),
        (Code::FailedPrecondition, "INBOX_SEQ_EXPIRED")
    );
    // From the snapshot's newest seq it goes on, and numbering goes on from there.
    let mut inbox = watch(&channel, &home, snapshot.newest_seq).await.unwrap();
    resigned(&channel, &home, &away, &home).await;
    assert_eq!(items(&mut inbox, 1).await[0].seq, 2);
    server.stop().await;
}
