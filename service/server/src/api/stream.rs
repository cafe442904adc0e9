//! Following a match's events for one watcher.
//!
//! The actor publishes live events on a broadcast channel, which never blocks it. A watcher's
//! stream is the response body itself: when the connection asks for its next message, the
//! stream takes the next event from the backlog or the broadcast, so no task or channel stands
//! between the match and the connection, and a watcher that stops reading costs nothing but its
//! place in the broadcast. When it falls so far behind that the broadcast drops events for it,
//! the stream asks the actor for the missed ones by seq and carries on: nothing lost, nothing
//! twice. The stream ends after the match ends or when the server shuts down; when the client
//! leaves, the connection drops it, which frees whatever it held (a spectator's slot, a seat's
//! presence) at once.
//!
//! A player's stream (`Play`) also carries the seat's actions the other way: the stream takes the
//! next one when it has nothing else to do, submits it to the actor and sends what became of it
//! after the events it caused, so a player reads what happened before it reads its verdict.
//!
//! A seat's stream can also prompt it: once every event up to the newest has been sent and the
//! summary says the seat is to act at a version it was not yet prompted for, the stream asks the
//! actor for the seat's legal actions and sends them as `your_turn`. The actor answers only if
//! nothing happened since the last event sent, so a prompt always follows the events that led
//! to it; if something did, those events arrive next and the check runs again after them.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};
use tokio::sync::watch;
use tokio_stream::{Stream, StreamExt};

use pitchmate_rules::{Seat, Viewer};

use crate::error::{ServiceError, refusal};
use crate::hosting::actor::{MatchHandle, PresenceGuard, Subscription};
use crate::hosting::log::LoggedEvent;
use crate::hosting::referee::Submission;
use crate::hosting::slots::Slot;

/// One watcher's messages, as the connection sends them. `E` is the error type of the edge that
/// serves the stream (a gRPC status), which the hosting's own errors turn into.
pub type EventStream<E> =
    Pin<Box<dyn Stream<Item = Result<pb::StreamMatchEventsResponse, E>> + Send>>;

/// One player's messages, as the connection sends them.
pub type PlayStream<E> = Pin<Box<dyn Stream<Item = Result<pb::PlayResponse, E>> + Send>>;

/// What a stream's errors must be: the hosting's own ones turn into them.
pub trait StreamError: From<ServiceError> + Send + 'static {}

impl<E: From<ServiceError> + Send + 'static> StreamError for E {}

/// An action a player sent, read as far as the match's actor is not needed: its client action
/// id, and the submission or why it is refused without reaching the match (no choice given, the
/// rate limit).
pub struct PlayerAction {
    pub client_action_id: String,
    pub submission: Result<Submission, ServiceError>,
    /// The request field that named the action, which a refusal of the choice is about.
    pub choice_field: String,
}

/// What a player sends after opening its stream. An error ends the stream with it: the client
/// broke the protocol, or its side of the connection failed.
pub type PlayerActions<E> = Pin<Box<dyn Stream<Item = Result<PlayerAction, E>> + Send>>;

/// A message of either kind of stream.
#[derive(Debug)]
enum Outgoing {
    Event(pb::MatchEvent),
    Heartbeat(pb::Heartbeat),
    YourTurn(pb::YourTurn),
    /// Only on a player's stream.
    Acted(pb::ActionOutcome),
}

/// Why a stream ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Finish {
    /// The match-ended event was sent.
    MatchEnded,
    /// The match's actor is gone.
    MatchGone,
    /// The server is shutting down.
    Shutdown,
    /// The player broke the protocol or its connection failed.
    Failed,
}

/// What a stream waited for.
enum Woken<E> {
    /// An event, a lag, the end of the feed, or (`Err`) a quiet heartbeat interval.
    Live(Result<Result<Arc<LoggedEvent>, RecvError>, tokio::time::error::Elapsed>),
    /// The player's next action; `None` once it has sent its last.
    Action(Option<Result<PlayerAction, E>>),
    Stopping,
}

/// A watcher's stream: the backlog the subscription holds, then live events, heartbeats after
/// `heartbeat` of quiet, and with `prompt` a seat's `your_turn` prompts listing actions in that
/// detail (a spectator's never has any). It ends after the match ends or when `stopping` turns
/// true. `slot` (a spectator's place in its match, or a seat's stream) is held until the stream
/// is dropped.
pub fn watch_events<E: StreamError>(
    handle: MatchHandle,
    subscription: Subscription,
    start: StreamStart,
    prompt: Option<pb::ActionDetail>,
    slot: Slot<String>,
) -> EventStream<E> {
    use pb::stream_match_events_response::Item;
    let follower = Follower::<E>::new(handle, subscription, start, prompt, None, slot);
    Box::pin(follower.into_stream().map(|outgoing| {
        let item = match outgoing? {
            Outgoing::Event(event) => Item::Event(event),
            Outgoing::Heartbeat(heartbeat) => Item::Heartbeat(heartbeat),
            Outgoing::YourTurn(turn) => Item::YourTurn(turn),
            Outgoing::Acted(_) => unreachable!("a watcher's stream takes no actions"),
        };
        Ok(pb::StreamMatchEventsResponse { item: Some(item) })
    }))
}

/// A player's stream: what [`watch_events`] sends a seat with prompts in `prompt_detail`, and
/// the outcome of each of the player's actions, submitted for its seat in the order sent. It
/// ends like a watcher's, or with the error the actions give. `slot` is the seat's stream's.
pub fn play<E: StreamError>(
    handle: MatchHandle,
    subscription: Subscription,
    start: StreamStart,
    prompt_detail: pb::ActionDetail,
    player: Player<E>,
    slot: Slot<String>,
) -> PlayStream<E> {
    use pb::play_response::Item;
    let follower = Follower::new(
        handle,
        subscription,
        start,
        Some(prompt_detail),
        Some(player),
        slot,
    );
    Box::pin(follower.into_stream().map(|outgoing| {
        let item = match outgoing? {
            Outgoing::Event(event) => Item::Event(event),
            Outgoing::Heartbeat(heartbeat) => Item::Heartbeat(heartbeat),
            Outgoing::YourTurn(turn) => Item::YourTurn(turn),
            Outgoing::Acted(outcome) => Item::Acted(outcome),
        };
        Ok(pb::PlayResponse { item: Some(item) })
    }))
}

/// What a stream shares with every other.
pub struct StreamStart {
    /// Quiet on the stream before it sends a heartbeat.
    pub heartbeat: Duration,
    /// Turns true when the server shuts down, which ends the stream.
    pub stopping: watch::Receiver<bool>,
}

/// The acting side of a player's stream: the seat's token and the actions still to come.
pub struct Player<E> {
    pub token: String,
    pub actions: PlayerActions<E>,
}

struct Follower<E> {
    handle: MatchHandle,
    viewer: Viewer,
    live: broadcast::Receiver<Arc<LoggedEvent>>,
    heartbeat: Duration,
    stopping: watch::Receiver<bool>,
    /// How many events of the whole log the stream has taken: queued, or passed over as not
    /// the viewer's to see.
    sent: u64,
    /// The viewer's own seq of the newest event queued.
    shown: u64,
    /// Messages ready to go, in order.
    queued: VecDeque<Outgoing>,
    /// Set once nothing more will be queued.
    finish: Option<Finish>,
    /// Sent after the queue, to end the stream with an error.
    failure: Option<E>,
    /// Whether the prompt check runs before waiting for the next event. It runs on the call
    /// after the one that queued an event rather than in it, so the queued events are handed to
    /// the connection before the check waits on the actor.
    prompt_due: bool,
    prompts: Option<Prompts>,
    /// A player's stream: the seat's token and the actions still to come. `None` on a
    /// watcher's, and once the player has sent its last.
    player: Option<Player<E>>,
    /// Held while the stream exists: a seat watching counts as connected.
    _presence: Option<PresenceGuard>,
    _slot: Slot<String>,
}

/// Whom a stream prompts, and the newest version it prompted at.
struct Prompts {
    seat: Seat,
    detail: pb::ActionDetail,
    prompted: Option<u64>,
}

impl<E: StreamError> Follower<E> {
    fn new(
        handle: MatchHandle,
        subscription: Subscription,
        start: StreamStart,
        prompt: Option<pb::ActionDetail>,
        player: Option<Player<E>>,
        slot: Slot<String>,
    ) -> Self {
        let Subscription {
            viewer,
            seat_name: _,
            start: position,
            backlog,
            live,
            ended,
            presence,
        } = subscription;
        let prompts = match (prompt, viewer) {
            (Some(detail), Viewer::Seat(seat)) => Some(Prompts {
                seat,
                detail,
                prompted: None,
            }),
            _ => None,
        };
        let mut follower = Follower {
            handle,
            viewer,
            live,
            heartbeat: start.heartbeat,
            stopping: start.stopping,
            sent: position.whole,
            shown: position.shown,
            queued: VecDeque::new(),
            finish: None,
            failure: None,
            prompt_due: true,
            prompts,
            player,
            _presence: presence,
            _slot: slot,
        };
        follower.queue(&backlog);
        if ended && follower.finish.is_none() {
            // The end was at or before where it starts: nothing more will come.
            follower.finish = Some(Finish::MatchEnded);
        }
        follower
    }

    fn into_stream(self) -> impl Stream<Item = Result<Outgoing, E>> + Send {
        futures_util::stream::unfold(self, |mut follower| async move {
            let item = follower.next().await?;
            Some((item, follower))
        })
    }

    /// The next message, or `None` once the stream is over.
    async fn next(&mut self) -> Option<Result<Outgoing, E>> {
        loop {
            if let Some(item) = self.queued.pop_front() {
                return Some(Ok(item));
            }
            if let Some(finish) = self.finish {
                if let Some(status) = self.failure.take() {
                    return Some(Err(status));
                }
                tracing::debug!(?finish, last_seq = self.sent, "event stream finished");
                return None;
            }
            self.advance().await;
        }
    }

    /// Queues what comes next: a prompt, events, a heartbeat; or sets `finish`.
    async fn advance(&mut self) {
        if std::mem::take(&mut self.prompt_due) {
            self.prompt_if_due().await;
            if !self.queued.is_empty() || self.finish.is_some() {
                return;
            }
        }
        let woken = tokio::select! {
            received = tokio::time::timeout(self.heartbeat, self.live.recv()) => {
                Woken::Live(received)
            }
            action = next_action(&mut self.player) => Woken::Action(action),
            _ = self.stopping.wait_for(|stop| *stop) => Woken::Stopping,
        };
        match woken {
            Woken::Stopping => {
                self.finish = Some(Finish::Shutdown);
                return;
            }
            Woken::Live(Err(_quiet)) => self.queue_heartbeat(),
            Woken::Live(Ok(received)) => self.take_live(received).await,
            Woken::Action(Some(Ok(action))) => self.act(action).await,
            Woken::Action(Some(Err(status))) => {
                self.failure = Some(status);
                self.finish = Some(Finish::Failed);
            }
            // The player sent its last action; it may still be reading.
            Woken::Action(None) => self.player = None,
        }
        // Also after a heartbeat, which makes it a retry should a prompt ever be missed.
        self.prompt_due = true;
    }

    /// Takes what the live feed gave: queues the next event, skips one already sent, catches up
    /// from the log after a gap (only possible right after a lag) or a lag.
    async fn take_live(&mut self, received: Result<Arc<LoggedEvent>, RecvError>) {
        match received {
            Ok(event) if event.seq <= self.sent => {}
            Ok(event) if event.seq == self.sent + 1 => self.queue(&[event]),
            Ok(_) | Err(RecvError::Lagged(_)) => self.catch_up().await,
            Err(RecvError::Closed) => self.gone(),
        }
    }

    /// Submits a player's action and queues its outcome, after the events it caused.
    async fn act(&mut self, action: PlayerAction) {
        let token = self.player.as_ref().map(|player| player.token.clone());
        let submitted = match action.submission {
            Ok(submission) => self
                .handle
                .submit(token, submission)
                .await
                .map_err(|error| error.at(action.choice_field)),
            Err(refused) => Err(refused),
        };
        let result = match submitted {
            Ok(submitted) => {
                self.catch_up_to(submitted.last_seq()).await;
                pb::action_outcome::Result::Accepted(pb::ActionAccepted {
                    version: submitted.version,
                    duplicate: submitted.duplicate,
                })
            }
            Err(error) => {
                tracing::debug!(%error, "action refused");
                pb::action_outcome::Result::Refused(refusal(&error))
            }
        };
        self.queued.push_back(Outgoing::Acted(pb::ActionOutcome {
            client_action_id: action.client_action_id,
            result: Some(result),
        }));
    }

    /// Queues the events up to `seq` of the whole log. The actor publishes an action's events
    /// before it answers, so they are normally waiting on the live feed already.
    async fn catch_up_to(&mut self, seq: u64) {
        while self.sent < seq && self.finish.is_none() {
            match self.live.try_recv() {
                Ok(event) => self.take_live(Ok(event)).await,
                Err(TryRecvError::Closed) => self.take_live(Err(RecvError::Closed)).await,
                // A lag, or nothing there after all: the log has every committed event.
                Err(TryRecvError::Lagged(_) | TryRecvError::Empty) => {
                    self.catch_up().await;
                    return;
                }
            }
        }
    }

    /// Queues `your_turn` when the seat is due to act and has not been prompted at this version.
    async fn prompt_if_due(&mut self) {
        let Some(prompts) = self.prompts.as_mut() else {
            return;
        };
        if !self
            .handle
            .may_prompt(prompts.seat, self.sent, prompts.prompted)
        {
            return;
        }
        let turn = match self
            .handle
            .your_turn(prompts.seat, self.sent, prompts.detail)
            .await
        {
            Ok(Some(turn)) if prompts.prompted != Some(turn.version) => turn,
            // The match moved on since the summary was read: its events come next.
            Ok(_) => return,
            Err(_) => {
                self.gone();
                return;
            }
        };
        prompts.prompted = Some(turn.version);
        self.queued.push_back(Outgoing::YourTurn(turn));
    }

    async fn catch_up(&mut self) {
        tracing::debug!(
            after_seq = self.sent,
            "watcher lagged; resynchronising from the log"
        );
        match self.handle.events_after(self.sent).await {
            Ok(missed) => self.queue(&missed),
            Err(_) => self.gone(),
        }
    }

    /// The match's actor stopped before the match ended (its store failed): the stream ends
    /// with a retryable error, and a client that opens it again after the last seq it read
    /// finds the match rebuilt from what was stored.
    fn gone(&mut self) {
        self.finish = Some(Finish::MatchGone);
        self.failure = Some(
            ServiceError::Unavailable(format!(
                "the match is being reloaded from the store; open the stream again with \
                 after_seq = {}",
                self.shown
            ))
            .into(),
        );
    }

    /// Queues events in order, those the viewer may see, up to and including one that ends the
    /// match.
    fn queue(&mut self, events: &[Arc<LoggedEvent>]) {
        for event in events {
            self.sent = event.seq;
            if let Some(view) = event.view_for(self.viewer) {
                self.shown = view.seq;
                self.queued.push_back(Outgoing::Event(view));
            }
            if event.ends_match() {
                self.finish = Some(Finish::MatchEnded);
                return;
            }
        }
    }

    fn queue_heartbeat(&mut self) {
        self.queued.push_back(Outgoing::Heartbeat(pb::Heartbeat {
            last_seq: self.shown,
        }));
    }
}

/// A player's next action; never ready on a watcher's stream or once the player sent its last.
async fn next_action<E>(player: &mut Option<Player<E>>) -> Option<Result<PlayerAction, E>> {
    match player {
        Some(player) => player.actions.next().await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use tokio_stream::StreamExt;

    use super::*;
    use crate::hosting::{ActorLimits, MatchRegistry, NewMatch, Submission};
    use pitchmate_games::{ActionChoice, GameRegistry};

    /// Plays `count` actions (the first legal one each time) for whoever is to act.
    async fn play(handle: &MatchHandle, tokens: &[(String, String)], count: usize) {
        for _ in 0..count {
            let summary = super::super::summary::match_to_proto(&handle.summary());
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

    #[tokio::test]
    async fn a_lagging_watcher_catches_up_from_the_log() {
        let (store, dir) = pitchmate_store::scratch::scratch_store().await;
        let registry = MatchRegistry::open(
            GameRegistry::standard(),
            ActorLimits {
                commands: 8,
                live_capacity: 2,
                expire_unstarted_after: None,
                unload_idle_after: None,
                event_tail: 2,
            },
            store,
            0,
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
        let handle = registry.get(&created.setup.match_id).await.unwrap();
        let mut tokens = Vec::new();
        for _ in 0..2 {
            let joined = handle.join(None, "bot".into()).await.unwrap();
            tokens.push((joined.seat_name.to_owned(), joined.seat_token));
        }
        let subscription = handle.watch(None, 0).await.unwrap();
        let (_never_stop, stopping) = watch::channel(false);
        let start = StreamStart {
            heartbeat: Duration::from_secs(60),
            stopping,
        };
        let slot = crate::hosting::slots::Slots::new(1)
            .claim(&"m".to_owned())
            .unwrap();
        let mut stream =
            watch_events::<ServiceError>(handle.clone(), subscription, start, None, slot);

        // Nobody reads while the live feed, holding two, overflows many times over.
        play(&handle, &tokens, 40).await;
        let last_seq = handle.summary().progress.last_seq;
        assert!(last_seq > 40);

        let mut seqs = Vec::new();
        while (seqs.len() as u64) < last_seq {
            let item = stream.next().await.unwrap().unwrap();
            if let Some(pb::stream_match_events_response::Item::Event(event)) = item.item {
                seqs.push(event.seq);
            }
        }
        assert_eq!(seqs, (1..=last_seq).collect::<Vec<_>>());

        // And it keeps following live events after catching up.
        play(&handle, &tokens, 1).await;
        let item = stream.next().await.unwrap().unwrap();
        let Some(pb::stream_match_events_response::Item::Event(next)) = item.item else {
            panic!("expected an event, got {item:?}");
        };
        assert_eq!(next.seq, last_seq + 1);
        dir.remove();
    }
}
