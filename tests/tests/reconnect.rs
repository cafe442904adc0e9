//! Bots finish a match through a connection that is cut several times mid-match: the SDK's play
//! loop reconnects, resumes from the last event it saw and never acts twice.

use std::time::Duration;

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::stream_match_events_response::Item;
use pitchmate_client::{
    Client, NewMatch, PlayOptions, RandomChoice, ReconnectPolicy, pb, play_with,
};
use pitchmate_e2e::{CuttableProxy, TestServer, collect_events};

/// Cuts happen when the spectator has seen this many actions: during setup, and twice in play.
const CUT_AFTER_ACTIONS: [usize; 3] = [8, 30, 45];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_finish_a_match_through_connection_cuts_and_no_action_is_applied_twice() {
    let server = TestServer::start().await;
    let mut proxy = CuttableProxy::start(server.addr).await;
    let direct = server.client().await;
    let created = direct
        .create_match(NewMatch::variant("soccer-chess").seed(11))
        .await
        .expect("create match");
    let match_id = created.match_id.clone();
    // The spectator watches the server directly, so the cuts only hit the bots.
    let mut spectator = direct.watch(&match_id, 0, None).await.expect("watch");

    let options = PlayOptions {
        reconnect: ReconnectPolicy {
            first_delay: Duration::from_millis(20),
            max_delay: Duration::from_millis(200),
            ..ReconnectPolicy::default()
        },
        ..PlayOptions::default()
    };
    // Each player reports its outcome here, so that a player giving up fails the test instead
    // of leaving the spectator waiting for a match that no one plays.
    let (outcomes, mut finished) = tokio::sync::mpsc::unbounded_channel();
    for (i, seat) in created.seats.iter().enumerate() {
        // Each bot has its own connection through the proxy, as separate processes would.
        let client = Client::connect(proxy.url())
            .await
            .expect("connect via proxy");
        let seat = client
            .join(&match_id, Some(&seat.seat), &format!("bot-{}", seat.seat))
            .await
            .expect("join");
        let (options, outcomes) = (options.clone(), outcomes.clone());
        tokio::spawn(async move {
            let mut bot = RandomChoice::seeded(i as u64 + 1);
            let outcome = play_with(&client, &seat, &mut bot, &options).await;
            let _ = outcomes.send((seat.seat, outcome));
        });
    }
    drop(outcomes);
    let mut results = Vec::new();
    let mut record = |(seat, outcome): (String, Result<pb::MatchResult, _>)| match outcome {
        Ok(result) => results.push(result),
        Err(error) => panic!("{seat} did not finish: {error}"),
    };

    let mut watched = Vec::new();
    let mut actions = 0;
    let mut cuts = Vec::new();
    loop {
        let message = tokio::select! {
            message = spectator.message() => message.expect("spectator stream"),
            Some(outcome) = finished.recv() => {
                record(outcome);
                continue;
            }
        };
        let Some(message) = message else {
            break;
        };
        let Some(Item::Event(event)) = message.item else {
            continue;
        };
        if matches!(event.kind, Some(Kind::ActionTaken(_))) {
            actions += 1;
            if CUT_AFTER_ACTIONS.contains(&actions) {
                let dropped = proxy.cut().await;
                // Long enough for the bots to find the port refused at least once.
                tokio::time::sleep(Duration::from_millis(300)).await;
                proxy.restore().await;
                cuts.push(dropped);
            }
        }
        watched.push(event);
    }
    assert_eq!(
        cuts.len(),
        CUT_AFTER_ACTIONS.len(),
        "the match ended after {actions} actions, before every cut"
    );
    assert!(
        cuts.iter().all(|&dropped| dropped >= 1),
        "every cut drops a bot's live connection: {cuts:?}"
    );

    while let Some(outcome) = finished.recv().await {
        record(outcome);
    }
    assert_eq!(results.len(), 2, "both players report: {results:?}");
    assert_eq!(results[0], results[1], "both seats see the same result");
    assert_eq!(results[0].reason(), pb::ResultReason::Rules);
    assert!(matches!(
        watched.last().and_then(|e| e.kind.as_ref()),
        Some(Kind::MatchEnded(_))
    ));

    let seqs: Vec<u64> = watched.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (1..=watched.len() as u64).collect::<Vec<_>>(),
        "gap-free seq"
    );
    // Every accepted action makes exactly one version; one applied twice would repeat none
    // but add a version, so the versions are checked against the actions' own count.
    let action_versions: Vec<u64> = watched
        .iter()
        .filter(|e| matches!(e.kind, Some(Kind::ActionTaken(_))))
        .map(|e| e.version)
        .collect();
    assert_eq!(
        action_versions,
        (1..=action_versions.len() as u64).collect::<Vec<_>>(),
        "each version is reached by exactly one action"
    );

    let stored = collect_events(direct.watch(&match_id, 0, None).await.expect("watch again")).await;
    assert_eq!(
        stored, watched,
        "the stored history is what the spectator saw"
    );
    server.stop().await;
}
