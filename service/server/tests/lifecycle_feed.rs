//! The lifecycle feed: every match's creation, seats taken, start and end, in one durable order
//! for the whole server; filtered by variant and player; resumed after a disconnect, a graceful
//! restart and a SIGKILL with nothing missed and nothing repeated.

mod common;

use std::time::Duration;

use common::process::{ServerProcess, free_address, url};
use common::{start_with, test_settings};
use pitchmate_client::pb::lifecycle_event::Kind;
use pitchmate_client::pb::stream_lifecycle_response::Item;
use pitchmate_client::{Client, LifecycleStream, NewMatch, SeatHandle, pb};
use tonic::Code;

/// How long a test waits for the next entry.
const PATIENCE: Duration = Duration::from_secs(20);

/// The next `count` entries, heartbeats skipped.
async fn next_entries(stream: &mut LifecycleStream, count: usize) -> Vec<pb::LifecycleEvent> {
    let mut entries = Vec::new();
    while entries.len() < count {
        let message = tokio::time::timeout(PATIENCE, stream.message())
            .await
            .expect("the next entry in time")
            .expect("the feed stays healthy")
            .expect("the feed stays open");
        if let Some(Item::Event(entry)) = message.item {
            entries.push(entry);
        }
    }
    entries
}

/// An entry as `(match id, what happened)`.
fn described(entry: &pb::LifecycleEvent) -> (String, String) {
    let what = match entry.kind.as_ref().expect("a kind") {
        Kind::Created(_) => "created".to_owned(),
        Kind::SeatTaken(taken) => format!("{} takes {}", taken.player_name, taken.seat),
        Kind::Started(_) => "started".to_owned(),
        Kind::Ended(ended) => format!(
            "ended {:?}",
            ended.result.as_ref().expect("a result").reason()
        ),
    };
    (entry.match_id.clone(), what)
}

fn positions(entries: &[pb::LifecycleEvent]) -> Vec<u64> {
    entries.iter().map(|e| e.position).collect()
}

/// A King's Goal match with both seats taken by `home` and `away`, ended by the second seat
/// resigning.
async fn played(client: &Client, home: &str, away: &str) -> String {
    let created = client
        .create_match(NewMatch::variant("kings-goal"))
        .await
        .unwrap();
    let first = client
        .join(&created.match_id, None, home)
        .await
        .expect("join");
    let second: SeatHandle = client
        .join(&created.match_id, None, away)
        .await
        .expect("join");
    client.resign(&second).await.expect("resign");
    drop(first);
    created.match_id
}

#[tokio::test]
async fn the_feed_follows_every_match_from_creation_to_its_end() {
    let server = start_with(test_settings()).await;
    let client = Client::connect(format!("http://{}", server.address))
        .await
        .unwrap();
    let mut feed = client.lifecycle(0, "", "").await.expect("open the feed");

    let finished = played(&client, "alice", "bob").await;
    let waiting = client
        .create_match(NewMatch::variant("soccer-chess"))
        .await
        .unwrap()
        .match_id;
    client.join(&waiting, None, "carol").await.unwrap();

    let entries = next_entries(&mut feed, 7).await;
    assert_eq!(positions(&entries), (1..=7).collect::<Vec<_>>());
    let described: Vec<_> = entries.iter().map(described).collect();
    let at = |id: &String, what: &str| (id.clone(), what.to_owned());
    assert_eq!(
        described,
        [
            at(&finished, "created"),
            at(&finished, "alice takes white"),
            at(&finished, "bob takes black"),
            at(&finished, "started"),
            at(&finished, "ended Resignation"),
            at(&waiting, "created"),
            at(&waiting, "carol takes first"),
        ]
    );
    let Some(Kind::Ended(ended)) = &entries[4].kind else {
        unreachable!()
    };
    assert_eq!(ended.status(), pb::MatchStatus::Finished);
    assert_eq!(ended.result.as_ref().unwrap().winner, "white");
    let players: Vec<_> = ended.seats.iter().map(|s| s.player_name.as_str()).collect();
    assert_eq!(players, ["alice", "bob"]);
    assert!(entries.iter().all(|e| e.time.is_some()));
    assert_eq!(entries[0].variant_id, "kings-goal");
    let Some(Kind::Created(created)) = &entries[5].kind else {
        unreachable!()
    };
    assert_eq!(created.seed_source(), pb::SeedSource::Server);

    // Resuming after a position sends what follows it, and only that.
    let mut resumed = client.lifecycle(4, "", "").await.unwrap();
    assert_eq!(positions(&next_entries(&mut resumed, 3).await), [5, 6, 7]);

    // Filters: by variant, by player (a creation names nobody).
    let mut kings_goal = client.lifecycle(0, "kings-goal", "").await.unwrap();
    assert_eq!(
        positions(&next_entries(&mut kings_goal, 5).await),
        [1, 2, 3, 4, 5]
    );
    let mut carol = client.lifecycle(0, "", "carol").await.unwrap();
    assert_eq!(positions(&next_entries(&mut carol, 1).await), [7]);
    let mut alice = client.lifecycle(0, "", "alice").await.unwrap();
    assert_eq!(positions(&next_entries(&mut alice, 3).await), [2, 4, 5]);
    // Live entries pass the same filters.
    let later = played(&client, "dave", "alice").await;
    let live = next_entries(&mut alice, 3).await;
    assert!(live.iter().all(|e| e.match_id == later), "{live:?}");
    assert_eq!(positions(&live), [10, 11, 12]);
    server.stop().await;
}

#[tokio::test]
async fn bad_cursors_and_variants_are_refused_and_a_quiet_feed_says_where_it_stands() {
    let mut settings = test_settings();
    settings.stream.heartbeat_secs = 1;
    let server = start_with(settings).await;
    let client = Client::connect(format!("http://{}", server.address))
        .await
        .unwrap();
    played(&client, "a", "b").await;
    let refused = client
        .lifecycle(99, "", "")
        .await
        .expect_err("from the future");
    let status = match refused {
        pitchmate_client::ClientError::Rpc(status) => status,
        other => panic!("{other}"),
    };
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(status.message().contains("newest entry"), "{status:?}");
    let refused = client
        .lifecycle(0, "tiddlywinks", "")
        .await
        .expect_err("no such variant");
    assert_eq!(refused.reason().as_deref(), Some("UNKNOWN_VARIANT"));

    // Nothing for this player: the heartbeat still says how far the feed was read.
    let mut nobody = client.lifecycle(0, "", "nobody").await.unwrap();
    let message = tokio::time::timeout(PATIENCE, nobody.message())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(
        message.item,
        Some(Item::Heartbeat(pb::LifecycleHeartbeat { position: 5 }))
    );
    server.stop().await;
}

#[tokio::test]
async fn positions_survive_a_graceful_restart() {
    let settings = test_settings();
    let server = start_with(settings.clone()).await;
    let client = Client::connect(format!("http://{}", server.address))
        .await
        .unwrap();
    played(&client, "a", "b").await;
    let server = server.restart(settings).await;
    let client = Client::connect(format!("http://{}", server.address))
        .await
        .unwrap();
    let mut feed = client.lifecycle(3, "", "").await.unwrap();
    played(&client, "c", "d").await;
    let entries = next_entries(&mut feed, 7).await;
    assert_eq!(positions(&entries), (4..=10).collect::<Vec<_>>());
    server.stop().await;
}

/// A follower reads the feed of the real binary while matches are created and played; the
/// server is SIGKILLed twice and restarted on the same data directory; the follower reconnects
/// after the last position it read. What it collected is exactly the stored feed: nothing
/// missed, nothing twice, and every acknowledged creation and resignation is in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_misses_nothing_across_a_sigkill() {
    let address = free_address();
    let data_dir = std::env::temp_dir().join(format!("pitchmate-feed-{}", std::process::id()));
    let mut server = ServerProcess::start(address, &data_dir).await;
    // Four matches a round, three rounds, five entries a match.
    const EXPECTED: usize = 3 * 4 * 5;
    let follower = tokio::spawn(async move {
        let mut read: Vec<pb::LifecycleEvent> = Vec::new();
        while read.len() < EXPECTED {
            let last = read.last().map_or(0, |e| e.position);
            let Ok(client) = Client::connect(url(address)).await else {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            };
            let Ok(mut stream) = client.lifecycle(last, "", "").await else {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            };
            // Until the server goes away: then reconnect after the last entry read.
            while let Ok(Some(message)) = stream.message().await {
                if let Some(Item::Event(entry)) = message.item {
                    read.push(entry);
                }
                if read.len() == EXPECTED {
                    break;
                }
            }
        }
        read
    });

    let mut acknowledged = Vec::new();
    for round in 0..3 {
        let client = Client::connect(url(address)).await.unwrap();
        for _ in 0..4 {
            acknowledged.push(played(&client, "x", "y").await);
        }
        if round < 2 {
            server.kill();
            server = ServerProcess::start(address, &data_dir).await;
        }
    }
    let read = tokio::time::timeout(Duration::from_secs(120), follower)
        .await
        .expect("the follower read every entry")
        .expect("the follower");
    let client = Client::connect(url(address)).await.unwrap();
    let mut stored = client.lifecycle(0, "", "").await.unwrap();
    let stored = next_entries(&mut stored, read.len()).await;
    assert_eq!(read, stored, "read exactly the stored feed");
    assert_eq!(
        positions(&read),
        (1..=read.len() as u64).collect::<Vec<_>>()
    );
    for match_id in &acknowledged {
        let entries: Vec<_> = read
            .iter()
            .filter(|e| &e.match_id == match_id)
            .map(|e| described(e).1)
            .collect();
        assert_eq!(
            entries,
            [
                "created",
                "x takes white",
                "y takes black",
                "started",
                "ended Resignation"
            ],
            "{match_id}"
        );
    }
    drop(server);
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
}
