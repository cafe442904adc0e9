//! Forwarding a match's events to one watcher.
//!
//! The actor publishes live events on a broadcast channel, which never blocks it. Per watcher a
//! task sends the backlog, then the live events, into a small bounded channel the connection
//! drains. When the watcher falls so far behind that the broadcast drops events for it, the
//! task asks the actor for the missed ones by seq and carries on: nothing lost, nothing twice.
//!
//! A seat's stream can also prompt it: once every event up to the newest has been sent and the
//! summary says the seat is to act at a version it was not yet prompted for, the task asks the
//! actor for the seat's legal actions and sends them as `your_turn`. The actor answers only if
//! nothing happened since the last event sent, so a prompt always follows the events that led
//! to it; if something did, those events arrive next and the check runs again after them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, watch};

use pitchmate_rules::{Seat, Viewer};

use super::actor::{MatchHandle, Subscription};
use super::log::LoggedEvent;
use crate::error::ServiceError;

pub type StreamItem = Result<pb::StreamMatchEventsResponse, tonic::Status>;

/// How a watcher's stream behaves.
#[derive(Clone, Copy, Debug)]
pub struct WatchLimits {
    pub buffer: usize,
    pub heartbeat: Duration,
}

/// Counts the spectator streams open per match, so that a match refuses one beyond its limit.
pub struct SpectatorSlots {
    limit: usize,
    open_by_match: Arc<Mutex<HashMap<String, usize>>>,
}

/// One open spectator stream; dropping it frees the slot.
pub struct SpectatorSlot {
    match_id: String,
    open_by_match: Arc<Mutex<HashMap<String, usize>>>,
}

impl SpectatorSlots {
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            open_by_match: Arc::default(),
        }
    }

    /// Takes a slot of `match_id`, or refuses when all of its slots are taken.
    pub fn claim(&self, match_id: &str) -> Result<SpectatorSlot, ServiceError> {
        let mut open_by_match = lock(&self.open_by_match);
        let open = open_by_match.entry(match_id.to_owned()).or_default();
        if *open >= self.limit {
            return Err(ServiceError::WatcherLimit {
                match_id: match_id.to_owned(),
                limit: self.limit,
            });
        }
        *open += 1;
        Ok(SpectatorSlot {
            match_id: match_id.to_owned(),
            open_by_match: Arc::clone(&self.open_by_match),
        })
    }

    #[cfg(test)]
    fn open(&self, match_id: &str) -> usize {
        lock(&self.open_by_match)
            .get(match_id)
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for SpectatorSlot {
    fn drop(&mut self) {
        let mut open_by_match = lock(&self.open_by_match);
        if let Some(open) = open_by_match.get_mut(&self.match_id) {
            *open -= 1;
            // Matches without spectators take no room.
            if *open == 0 {
                open_by_match.remove(&self.match_id);
            }
        }
    }
}

fn lock(
    open_by_match: &Mutex<HashMap<String, usize>>,
) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
    open_by_match
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Why forwarding stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The match-ended event was sent.
    MatchEnded,
    /// The client went away.
    ClientLeft,
    /// The match's actor is gone (server shutting down).
    MatchGone,
}

/// Starts the forwarding task; the stream ends after the match ends, when the client leaves,
/// or when `stopping` turns true. A spectator's `slot` is held until then.
/// With `prompt`, a seat's stream also carries `your_turn` prompts listing actions in that
/// detail (a spectator's never does).
pub fn spawn_watcher(
    handle: MatchHandle,
    subscription: Subscription,
    after_seq: u64,
    prompt: Option<pb::ActionDetail>,
    limits: WatchLimits,
    slot: Option<SpectatorSlot>,
    mut stopping: watch::Receiver<bool>,
) -> mpsc::Receiver<StreamItem> {
    let (sender, receiver) = mpsc::channel(limits.buffer);
    let prompts = match (prompt, subscription.viewer, subscription.seat_name) {
        (Some(detail), Viewer::Seat(seat), Some(seat_name)) => Some(Prompts {
            seat,
            seat_name,
            detail,
            prompted: None,
        }),
        _ => None,
    };
    let mut forwarder = Forwarder {
        handle,
        sender,
        sent: after_seq,
        viewer: subscription.viewer,
        prompts,
    };
    let connection = forwarder.sender.clone();
    tokio::spawn(async move {
        tokio::select! {
            finish = forwarder.run(subscription, limits.heartbeat) => {
                tracing::debug!(?finish, last_seq = forwarder.sent, "watcher finished");
            }
            // Frees the slot as soon as the client goes, not at the next event or heartbeat.
            () = connection.closed() => tracing::debug!(finish = ?Finish::ClientLeft, "watcher finished"),
            _ = stopping.wait_for(|stop| *stop) => tracing::debug!("watcher closed for shutdown"),
        }
        drop(slot);
    });
    receiver
}

struct Forwarder {
    handle: MatchHandle,
    sender: mpsc::Sender<StreamItem>,
    /// The seq of the newest event sent.
    sent: u64,
    viewer: Viewer,
    prompts: Option<Prompts>,
}

/// Whom a stream prompts, and the newest version it prompted at.
struct Prompts {
    seat: Seat,
    seat_name: &'static str,
    detail: pb::ActionDetail,
    prompted: Option<u64>,
}

impl Forwarder {
    async fn run(&mut self, subscription: Subscription, heartbeat: Duration) -> Finish {
        let Subscription {
            backlog,
            mut live,
            ended,
            ..
        } = subscription;
        if let Some(finish) = self.send_all(&backlog).await {
            return finish;
        }
        if ended {
            // The end was at or before `after_seq`: nothing more will come.
            return Finish::MatchEnded;
        }
        if let Some(finish) = self.prompt_if_due().await {
            return finish;
        }
        loop {
            let received = tokio::time::timeout(heartbeat, live.recv()).await;
            let finish = match received {
                Err(_quiet) => self.heartbeat().await,
                Ok(Ok(event)) if event.seq <= self.sent => None,
                Ok(Ok(event)) if event.seq == self.sent + 1 => self.send_all(&[event]).await,
                // A gap (only possible right after a lag) or a lag: catch up from the log.
                Ok(Ok(_)) | Ok(Err(RecvError::Lagged(_))) => self.catch_up().await,
                Ok(Err(RecvError::Closed)) => Some(Finish::MatchGone),
            };
            let finish = match finish {
                Some(finish) => Some(finish),
                // Also after a heartbeat, which makes it a retry should a prompt ever be missed.
                None => self.prompt_if_due().await,
            };
            if let Some(finish) = finish {
                return finish;
            }
        }
    }

    /// Sends `your_turn` when the seat is due to act and has not been prompted at this version.
    async fn prompt_if_due(&mut self) -> Option<Finish> {
        let prompts = self.prompts.as_mut()?;
        if !self
            .handle
            .may_prompt(prompts.seat_name, self.sent, prompts.prompted)
        {
            return None;
        }
        let turn = match self
            .handle
            .your_turn(prompts.seat, self.sent, prompts.detail)
            .await
        {
            Ok(Some(turn)) if prompts.prompted != Some(turn.version) => turn,
            // The match moved on since the summary was read: its events come next.
            Ok(_) => return None,
            Err(_) => return Some(Finish::MatchGone),
        };
        prompts.prompted = Some(turn.version);
        let item = pb::StreamMatchEventsResponse {
            item: Some(pb::stream_match_events_response::Item::YourTurn(turn)),
        };
        self.sender
            .send(Ok(item))
            .await
            .err()
            .map(|_| Finish::ClientLeft)
    }

    async fn catch_up(&mut self) -> Option<Finish> {
        tracing::debug!(
            after_seq = self.sent,
            "watcher lagged; resynchronising from the log"
        );
        match self.handle.events_after(self.sent).await {
            Ok(missed) => self.send_all(&missed).await,
            Err(_) => Some(Finish::MatchGone),
        }
    }

    async fn send_all(&mut self, events: &[Arc<LoggedEvent>]) -> Option<Finish> {
        for event in events {
            let item = pb::StreamMatchEventsResponse {
                item: Some(pb::stream_match_events_response::Item::Event(
                    event.view_for(self.viewer),
                )),
            };
            if self.sender.send(Ok(item)).await.is_err() {
                return Some(Finish::ClientLeft);
            }
            self.sent = event.seq;
            if event.ends_match() {
                return Some(Finish::MatchEnded);
            }
        }
        None
    }

    async fn heartbeat(&mut self) -> Option<Finish> {
        let item = pb::StreamMatchEventsResponse {
            item: Some(pb::stream_match_events_response::Item::Heartbeat(
                pb::Heartbeat {
                    last_seq: self.sent,
                },
            )),
        };
        self.sender
            .send(Ok(item))
            .await
            .err()
            .map(|_| Finish::ClientLeft)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{ActionChoice, GameRegistry};
    use crate::hosting::{ActorLimits, MatchRegistry, NewMatch, Submission};

    /// Plays `count` actions (the first legal one each time) for whoever is to act.
    async fn play(handle: &MatchHandle, tokens: &[(String, String)], count: usize) {
        for _ in 0..count {
            let summary = handle.summary();
            let seat = summary.turn.unwrap().to_act[0].clone();
            let token = tokens
                .iter()
                .find(|(s, _)| *s == seat)
                .map(|(_, t)| t.clone());
            let submission = Submission {
                expected_version: summary.version,
                client_action_id: String::new(),
                choice: ActionChoice::Index(0),
            };
            handle.submit(token, submission).await.unwrap();
        }
    }

    #[test]
    fn spectator_slots_are_counted_per_match_and_freed_on_drop() {
        let slots = SpectatorSlots::new(2);
        let first = slots.claim("m").unwrap();
        let _second = slots.claim("m").unwrap();
        let refused = slots.claim("m").err().unwrap();
        assert_eq!(refused.reason(), "WATCHER_LIMIT");
        let _elsewhere = slots.claim("other").unwrap();
        drop(first);
        assert_eq!(slots.open("m"), 1);
        let _third = slots.claim("m").unwrap();
        assert_eq!(slots.open("m"), 2);
    }

    #[tokio::test]
    async fn a_lagging_watcher_catches_up_from_the_log() {
        let (store, dir) = crate::store::tests::scratch_store().await;
        let registry = MatchRegistry::open(
            GameRegistry::standard(),
            ActorLimits {
                commands: 8,
                live_capacity: 2,
            },
            store,
        )
        .await
        .unwrap();
        let created = registry
            .create(NewMatch {
                variant_id: "soccer-chess".into(),
                ..NewMatch::default()
            })
            .await
            .unwrap();
        let handle = registry.get(&created.match_id).await.unwrap();
        let mut tokens = Vec::new();
        for _ in 0..2 {
            let joined = handle.join(None, "bot".into()).await.unwrap();
            tokens.push((joined.seat, joined.seat_token));
        }
        let subscription = handle.watch(None, 0).await.unwrap();
        let (_never_stop, stopping) = watch::channel(false);
        let limits = WatchLimits {
            buffer: 1,
            heartbeat: Duration::from_secs(60),
        };
        let mut receiver = spawn_watcher(
            handle.clone(),
            subscription,
            0,
            None,
            limits,
            None,
            stopping,
        );

        // Nobody reads: the forwarder blocks after one event while the live feed, holding two,
        // overflows many times over.
        play(&handle, &tokens, 40).await;
        let last_seq = handle.summary().last_seq;
        assert!(last_seq > 40);

        let mut seqs = Vec::new();
        while (seqs.len() as u64) < last_seq {
            let item = receiver.recv().await.unwrap().unwrap();
            if let Some(pb::stream_match_events_response::Item::Event(event)) = item.item {
                seqs.push(event.seq);
            }
        }
        assert_eq!(seqs, (1..=last_seq).collect::<Vec<_>>());

        // And it keeps following live events after catching up.
        play(&handle, &tokens, 1).await;
        let item = receiver.recv().await.unwrap().unwrap();
        let Some(pb::stream_match_events_response::Item::Event(next)) = item.item else {
            panic!("expected an event, got {item:?}");
        };
        assert_eq!(next.seq, last_seq + 1);
        dir.remove();
    }
}
