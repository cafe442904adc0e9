//! Two SDK bots play a whole Soccer Chess match through the server, watched by a spectator.

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::stream_match_events_response::Item;
use pitchmate_client::{EventStream, NewMatch, RandomChoice, pb, play};
use pitchmate_e2e::TestServer;

async fn collect(mut stream: EventStream) -> Vec<pb::MatchEvent> {
    let mut events = Vec::new();
    while let Some(message) = stream.message().await.expect("stream stays healthy") {
        if let Some(Item::Event(event)) = message.item {
            events.push(event);
        }
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_random_bots_finish_a_match_and_the_spectator_sees_every_event() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let created = client
        .create_match(NewMatch::variant("soccer-chess").seed(7))
        .await
        .unwrap();
    let spectator = tokio::spawn(collect(
        client.watch(&created.match_id, 0, None).await.unwrap(),
    ));

    let first = client
        .join(&created.match_id, Some("first"), "alice")
        .await
        .unwrap();
    let second = client
        .join(&created.match_id, Some("second"), "bob")
        .await
        .unwrap();
    let (a, b) = tokio::join!(
        {
            let client = client.clone();
            async move { play(&client, &first, &mut RandomChoice::seeded(1)).await }
        },
        {
            let client = client.clone();
            async move { play(&client, &second, &mut RandomChoice::seeded(2)).await }
        },
    );
    let (result_a, result_b) = (a.unwrap(), b.unwrap());
    assert_eq!(result_a, result_b, "both seats see the same result");
    assert_eq!(result_a.reason(), pb::ResultReason::Rules);
    assert_eq!(result_a.scores.len(), 2);

    let watched = spectator.await.unwrap();
    let seqs: Vec<u64> = watched.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (1..=watched.len() as u64).collect::<Vec<_>>(),
        "gap-free numbering from 1"
    );
    assert!(matches!(
        watched.last().and_then(|e| e.kind.as_ref()),
        Some(Kind::MatchEnded(_))
    ));
    let actions = watched
        .iter()
        .filter(|e| matches!(e.kind, Some(Kind::ActionTaken(_))))
        .count();
    assert!(
        actions > 22,
        "setup alone takes 22 placements, saw {actions} actions"
    );

    // The history read afterwards is the same sequence the spectator saw live.
    let replayed = collect(client.watch(&created.match_id, 0, None).await.unwrap()).await;
    assert_eq!(replayed, watched);

    let finished = client
        .get_match(&created.match_id, None)
        .await
        .unwrap()
        .r#match
        .unwrap();
    assert_eq!(finished.status(), pb::MatchStatus::Finished);
    assert_eq!(finished.last_seq, watched.len() as u64);
    assert_eq!(finished.result.as_ref(), Some(&result_a));
    server.stop().await;
}
