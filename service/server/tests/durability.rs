//! The real `pitchmate` binary, stopped the hard way and the polite way.
//!
//! SIGKILL mid-match, then a restart on the same data directory: the bots reconnect and finish;
//! every acknowledged action is in the final log exactly once, the numbering has no gap, a retry
//! after the restart gets its original answer, and a stream resumes exactly at `after_seq`.
//!
//! SIGTERM: the server stops accepting, finishes what it accepted, closes the store and exits 0;
//! after a restart every acknowledged action is there and nothing else is.

mod common;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::process::{ServerProcess, free_address, scratch_dir, url};
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::stream_match_events_response::Item;
use pitchmate_client::{Bot, Choice, Client, NewMatch, RandomChoice, SeatHandle, pb};

/// How long any one test may wait for the server or the bots.
const PATIENCE: Duration = Duration::from_secs(120);

/// An acknowledged submission: its id, the request's choice and version, and the answer.
#[derive(Clone, Debug)]
struct Acked {
    client_action_id: String,
    expected_version: u64,
    choice: Choice,
    seat: SeatHandle,
    response: pb::SubmitActionResponse,
}

/// Shared between the bots and the test.
#[derive(Default)]
struct Ledger {
    acked: Mutex<Vec<Acked>>,
    count: AtomicUsize,
    /// Set to make the bots stop at their next step.
    stop: AtomicBool,
}

impl Ledger {
    fn acked(&self) -> Vec<Acked> {
        self.acked.lock().unwrap().clone()
    }
}

/// One seat's bot: looks, picks with the SDK's random bot, submits with a fresh client action
/// id, and through any outage resends the very same request until it is answered. Returns when
/// the match is over or the ledger says stop.
async fn play_seat(client: Client, seat: SeatHandle, seed: u64, ledger: Arc<Ledger>) {
    let mut bot = RandomChoice::seeded(seed);
    let deadline = Instant::now() + PATIENCE;
    let mut number = 0;
    while !ledger.stop.load(Ordering::Relaxed) {
        assert!(Instant::now() < deadline, "{} never finished", seat.seat);
        let legal = match client.legal_actions(&seat).await {
            Ok(legal) => legal,
            Err(error) if error.is_transient() => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            Err(error) => panic!("legal actions: {error}"),
        };
        if legal.actions.is_empty() {
            match client.get_match(&seat.match_id, None).await {
                Ok(found) if found.r#match.as_ref().is_some_and(|m| m.result.is_some()) => return,
                Ok(_) => {}
                Err(error) if error.is_transient() => {}
                Err(error) => panic!("get match: {error}"),
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        }
        let choice = bot.choose(&legal.view.unwrap_or_default(), &legal.actions);
        number += 1;
        let client_action_id = format!("{}-{number}", seat.seat);
        loop {
            if ledger.stop.load(Ordering::Relaxed) {
                return;
            }
            let sent = client
                .submit(&seat, legal.version, &client_action_id, choice.clone())
                .await;
            match sent {
                Ok(response) => {
                    ledger.acked.lock().unwrap().push(Acked {
                        client_action_id,
                        expected_version: legal.version,
                        choice,
                        seat: seat.clone(),
                        response,
                    });
                    ledger.count.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                Err(error) if error.is_transient() => {
                    assert!(
                        Instant::now() < deadline,
                        "{} never got an answer",
                        seat.seat
                    );
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                // Both seats may act at once in some phases: look again.
                Err(error)
                    if matches!(
                        error.reason().as_deref(),
                        Some("STALE_VERSION" | "NOT_YOUR_TURN")
                    ) =>
                {
                    break;
                }
                Err(error) => panic!("submit: {error}"),
            }
        }
    }
}

/// A spectator that follows the match to its end, reconnecting with `after_seq` = the last
/// seq it received whenever the stream breaks.
async fn spectate(client: Client, match_id: String) -> Vec<pb::MatchEvent> {
    let deadline = Instant::now() + PATIENCE;
    let mut events: Vec<pb::MatchEvent> = Vec::new();
    loop {
        assert!(Instant::now() < deadline, "the spectator never saw the end");
        let after_seq = events.last().map_or(0, |e| e.seq);
        let mut stream = match client.watch(&match_id, after_seq, None).await {
            Ok(stream) => stream,
            Err(error) if error.is_transient() => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            Err(error) => panic!("watch: {error}"),
        };
        while let Ok(Some(message)) = stream.message().await {
            if let Some(Item::Event(event)) = message.item {
                let ended = matches!(event.kind, Some(Kind::MatchEnded(_)));
                events.push(event);
                if ended {
                    return events;
                }
            }
        }
    }
}

async fn seat_two_bots(client: &Client, new: NewMatch) -> (String, Vec<SeatHandle>) {
    let created = client.create_match(new).await.expect("create");
    let mut seats = Vec::new();
    for seat in &created.seats {
        seats.push(
            client
                .join(
                    &created.match_id,
                    Some(&seat.seat),
                    &format!("bot-{}", seat.seat),
                )
                .await
                .expect("join"),
        );
    }
    (created.match_id, seats)
}

async fn wait_for(ledger: &Ledger, count: usize) {
    let deadline = Instant::now() + PATIENCE;
    while ledger.count.load(Ordering::Relaxed) < count {
        assert!(Instant::now() < deadline, "the bots stalled");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

async fn replay(client: &Client, match_id: &str) -> pb::GetReplayResponse {
    client
        .matches()
        .get_replay(pb::GetReplayRequest {
            match_id: match_id.to_owned(),
        })
        .await
        .expect("replay")
        .into_inner()
}

/// Every acknowledged action is in `events`, at the seqs its answer named, with the events its
/// answer carried; and `events` holds no action nobody had acknowledged.
fn assert_exactly_the_acknowledged(events: &[pb::MatchEvent], acked: &[Acked]) {
    let answers: Vec<&pb::SubmitActionResponse> = acked.iter().map(|a| &a.response).collect();
    common::assert_stored_exactly_the_acknowledged(events, &answers);
    let ids: HashSet<&str> = acked.iter().map(|a| a.client_action_id.as_str()).collect();
    assert_eq!(ids.len(), acked.len(), "every id acknowledged once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_finish_a_match_across_a_sigkill_and_restart() {
    let (address, data_dir) = (free_address(), scratch_dir());
    let server = ServerProcess::start(address, &data_dir).await;
    let client = Client::connect(url(address)).await.expect("connect");
    let (match_id, seats) =
        seat_two_bots(&client, NewMatch::variant("soccer-chess").seed(11)).await;

    let ledger = Arc::new(Ledger::default());
    let spectator = tokio::spawn(spectate(client.clone(), match_id.clone()));
    let bots: Vec<_> = seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            tokio::spawn(play_seat(
                client.clone(),
                seat.clone(),
                i as u64 + 1,
                Arc::clone(&ledger),
            ))
        })
        .collect();

    // Mid-match, with the bots busy: no warning, no flush.
    wait_for(&ledger, 30).await;
    server.kill();
    let acked_before_kill = ledger.acked();
    let last_seq_before_kill = acked_before_kill
        .iter()
        .flat_map(|a| a.response.events.iter().map(|e| e.seq))
        .max()
        .expect("acknowledged events");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let server = ServerProcess::start(address, &data_dir).await;

    for bot in bots {
        bot.await.expect("bot");
    }
    let watched = spectator.await.expect("spectator");
    let finished = replay(&client, &match_id).await;
    let header = finished.header.clone().expect("header");
    assert_eq!(header.status(), pb::MatchStatus::Finished);
    assert!(matches!(
        finished.events.last().and_then(|e| e.kind.as_ref()),
        Some(Kind::MatchEnded(_))
    ));
    let acked = ledger.acked();
    assert!(
        acked.len() > acked_before_kill.len(),
        "play went on after the restart"
    );
    assert_exactly_the_acknowledged(&finished.events, &acked);
    // The spectator's stream, broken by the kill and resumed with after_seq, saw exactly the
    // stored history: nothing it was shown before the crash was lost.
    assert_eq!(watched, finished.events);

    // A retry of an action acknowledged before the kill gets the original answer.
    let first = &acked_before_kill[acked_before_kill.len() / 2];
    let again = client
        .submit(
            &first.seat,
            first.expected_version,
            &first.client_action_id,
            first.choice.clone(),
        )
        .await
        .expect("retry");
    assert_eq!(
        again,
        pb::SubmitActionResponse {
            duplicate: true,
            ..first.response.clone()
        }
    );

    // A stream resumes exactly after the seq it names, across the restart.
    let mut resumed = client
        .watch(&match_id, last_seq_before_kill, None)
        .await
        .expect("watch");
    let next = resumed.message().await.expect("item").expect("open");
    let Some(Item::Event(next)) = next.item else {
        panic!("expected an event, got {next:?}");
    };
    assert_eq!(next.seq, last_seq_before_kill + 1);

    assert!(server.terminate().await.success());
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_accepted_actions_and_exits_cleanly() {
    let (address, data_dir) = (free_address(), scratch_dir());
    let server = ServerProcess::start(address, &data_dir).await;
    let client = Client::connect(url(address)).await.expect("connect");

    // Several matches at once, so actions are in flight when the signal comes.
    let mut matches = Vec::new();
    let mut bots = Vec::new();
    for n in 0..4u64 {
        let ledger = Arc::new(Ledger::default());
        let (match_id, seats) =
            seat_two_bots(&client, NewMatch::variant("soccer-chess").seed(n)).await;
        for (i, seat) in seats.into_iter().enumerate() {
            bots.push(tokio::spawn(play_seat(
                client.clone(),
                seat,
                n * 2 + i as u64,
                Arc::clone(&ledger),
            )));
        }
        matches.push((match_id, ledger));
    }
    // An open event stream must not keep the server from exiting.
    let mut watching = client.watch(&matches[0].0, 0, None).await.expect("watch");
    wait_for(&matches[0].1, 12).await;

    let status = server.terminate().await;
    assert!(status.success(), "exit status {status:?}");
    for (_, ledger) in &matches {
        ledger.stop.store(true, Ordering::Relaxed);
    }
    for bot in bots {
        bot.await.expect("bot");
    }
    while let Ok(Some(_)) = watching.message().await {}

    let server = ServerProcess::start(address, &data_dir).await;
    for (match_id, ledger) in &matches {
        let stored = replay(&client, match_id).await;
        assert_exactly_the_acknowledged(&stored.events, &ledger.acked());
    }
    assert!(server.terminate().await.success());
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
}
