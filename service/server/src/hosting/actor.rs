//! The match actor: one tokio task per match owns its game, seats, log and idempotency table.
//! Handlers send it [`Command`]s through a bounded channel and await a oneshot reply, so every
//! change to a match happens in one place, in order.
//!
//! Versions: a match starts at version 0 and every accepted action adds one; a resignation also
//! adds one, because it changes the state a pending action was chosen against.
//!
//! `SubmitAction` checks, in this order, and stops at the first failure without changing
//! anything: the seat token (UNAUTHENTICATED, INVALID_SEAT_TOKEN); a retry of an answered
//! `client_action_id` (answered again, `duplicate = true`); the match is active
//! (MATCH_NOT_ACTIVE); `expected_version` is current (STALE_VERSION); it is the seat's turn
//! (NOT_YOUR_TURN); the action is readable and legal (INVALID_ARGUMENT for a bad index or typed
//! action, MALFORMED_NOTATION, ILLEGAL_ACTION).
//!
//! Ending a match besides the rules: a seat may resign, offer a draw (in variants that can end
//! drawn; the offer stands until the opponent accepts it or plays an action), accept the
//! opponent's offer, abort before any action was played, or claim victory once its opponent
//! has been disconnected for the match's `abandon_after`. A seat counts as connected while it
//! has an open event stream or made a call with its token within `abandon_after`. Each of these
//! is an input and an event, so replays reproduce them. Endings add one to the version, like a
//! resignation; a draw offer does not, because it leaves the state an action is chosen against
//! unchanged.
//!
//! Clocks: with a time control, a seat's clock runs while it is among the seats to act. When it
//! runs out, the timeout policy applies: the seat forfeits, or the server plays the game's
//! default actions for it until its turn is over (logged as inputs marked as played for a
//! timeout, so replays reproduce them), forfeiting at the configured count of consecutive
//! timeouts. Every time a command uses is the time of its events; rebuilding a match replays
//! each input at its stored events' time, so the clocks of a restarted match are the ones it had,
//! never fresh ones.
//!
//! Durability: a command that changes the match (a join, an action, a resignation) is written
//! to the store, inputs, events and idempotency answer in one append, before anyone learns of
//! it: the caller's reply, live watchers and the summary all wait for the commit. The actor
//! takes its next command only after that, so nothing it shows was ever lost by a crash. While
//! the store cannot write, a command that would change the match is refused with
//! STORE_UNAVAILABLE before it changes anything, and clocks and expiry wait. If a commit fails,
//! the actor answers STORE_UNAVAILABLE, reports its retirement and stops, dropping whatever it
//! had not stored; the registry rebuilds the match from what was committed (see `hosting`).
//!
//! Expiry: a match whose seats are not all taken `expire_unstarted_after` its creation is
//! aborted (an input and a `match_ended` event with reason EXPIRED, like any ending) and its
//! actor retires, so an abandoned or flooded match leaves memory.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{OptionValue, Outcome, Seat, Turn, Viewer, Visibility};
use prost::Message;
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tracing::Instrument;

use super::OpenMatch;
use super::chance::MatchChance;
use super::clock::{self, Clocks, Hosting, TimeoutPolicy};
use super::durable;
use super::lifecycle::{EndReason, Ending, LifecycleEntry, LifecycleKind, SeatHolder};
use super::log::{EventLog, LoggedEvent, NewEvent};
use super::token::{SeatToken, TokenHash};
use crate::error::ServiceError;
use crate::games::{ActionChoice, HostedGame, option_to_proto, turn_to_proto};
use crate::store::{AnswerRow, Append, MatchRow, StatusChange, Store, StoreError, StoredMatch};

/// What a match was created with: with [`Input`]s replayed in order, everything needed to
/// rebuild it (see [`restore`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSetup {
    pub match_id: String,
    pub variant_id: String,
    /// Every option in effect, defaults included.
    pub options: BTreeMap<String, OptionValue>,
    pub chance: MatchChance,
    pub start_position: Option<String>,
    pub create_time: SystemTime,
    pub hosting: Hosting,
}

/// An accepted input, in the order accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// The token's hash lets a rebuilt match still admit the seat's player.
    Joined {
        seat: Seat,
        player_name: String,
        token_hash: TokenHash,
    },
    /// The action in canonical typed form; `for_timeout` when the server played it for a seat
    /// that ran out of time.
    Acted {
        seat: Seat,
        action: pb::Action,
        for_timeout: bool,
    },
    Resigned {
        seat: Seat,
    },
    /// The seat's time ran out; the server's default actions for it follow unless it forfeited.
    TimedOut {
        seat: Seat,
        forfeited: bool,
    },
    OfferedDraw {
        seat: Seat,
    },
    AcceptedDraw {
        seat: Seat,
    },
    Aborted {
        seat: Seat,
    },
    ClaimedVictory {
        seat: Seat,
    },
    /// Not every seat was taken in time; the match was aborted.
    Expired,
}

/// The calls by which a seat ends a match, or offers to, besides playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatCall {
    Resign,
    OfferDraw,
    AcceptDraw,
    Abort,
    ClaimVictory,
}

/// An action request as the actor checks it.
#[derive(Clone, Debug)]
pub struct Submission {
    pub expected_version: u64,
    /// Empty: no idempotency.
    pub client_action_id: String,
    pub choice: ActionChoice,
}

/// A watcher's start: the events it missed and the live feed, taken together so nothing falls
/// between them.
#[derive(Debug)]
pub struct Subscription {
    pub viewer: Viewer,
    /// The watching seat's name; `None` for a spectator.
    pub seat_name: Option<&'static str>,
    /// Where the backlog starts.
    pub start: StreamPosition,
    pub backlog: Vec<Arc<LoggedEvent>>,
    pub live: broadcast::Receiver<Arc<LoggedEvent>>,
    pub ended: bool,
    /// Held while the stream is open: a seat watching counts as connected.
    pub presence: Option<PresenceGuard>,
}

/// How far a watcher has got: in the whole log, and in its own numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamPosition {
    /// Events of the whole log taken (sent, or skipped as not the watcher's to see).
    pub whole: u64,
    /// The watcher's own seq of the last event it was sent.
    pub shown: u64,
}

/// Whether a seat is connected: its open event streams and its last call.
#[derive(Debug, Default)]
struct Presence {
    open_streams: AtomicUsize,
    /// Nanoseconds since the Unix epoch.
    last_seen: AtomicU64,
}

impl Presence {
    fn seen(&self, time: SystemTime) {
        let nanos = time
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        self.last_seen.fetch_max(nanos, Ordering::Relaxed);
    }

    /// How long the seat has been away at `now`; `None` while it is connected.
    fn away_for(&self, now: SystemTime) -> Option<Duration> {
        if self.open_streams.load(Ordering::Relaxed) > 0 {
            return None;
        }
        let last_seen = UNIX_EPOCH + Duration::from_nanos(self.last_seen.load(Ordering::Relaxed));
        Some(now.duration_since(last_seen).unwrap_or_default())
    }
}

/// Counts an open event stream of a seat; dropping it (the stream closed) marks the seat as
/// last seen then.
#[derive(Debug)]
pub struct PresenceGuard(Arc<Presence>);

impl PresenceGuard {
    fn open(presence: &Arc<Presence>) -> Self {
        presence.open_streams.fetch_add(1, Ordering::Relaxed);
        Self(Arc::clone(presence))
    }
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        self.0.seen(clock::now());
        self.0.open_streams.fetch_sub(1, Ordering::Relaxed);
    }
}

type Reply<T> = oneshot::Sender<Result<T, ServiceError>>;

/// `token` is the presented bearer token, `None` when the call carried none.
pub enum Command {
    Snapshot {
        token: Option<String>,
        reply: Reply<(pb::Match, pb::MatchView)>,
    },
    Join {
        seat: Option<String>,
        player_name: String,
        reply: Reply<pb::JoinMatchResponse>,
    },
    LegalActions {
        token: Option<String>,
        detail: pb::ActionDetail,
        reply: Reply<pb::GetLegalActionsResponse>,
    },
    Submit {
        token: Option<String>,
        submission: Submission,
        reply: Reply<Submitted>,
    },
    Call {
        token: Option<String>,
        call: SeatCall,
        reply: Reply<pb::Match>,
    },
    Watch {
        token: Option<String>,
        after_seq: u64,
        reply: Reply<Subscription>,
    },
    EventsAfter {
        after_seq: u64,
        reply: Reply<Vec<Arc<LoggedEvent>>>,
    },
    YourTurn {
        seat: Seat,
        after_seq: u64,
        detail: pb::ActionDetail,
        reply: Reply<Option<pb::YourTurn>>,
    },
}

/// What the actor publishes after every change, for reading without asking it.
#[derive(Clone, Debug, Default)]
struct Published {
    /// The summary everyone may see.
    summary: pb::Match,
    /// The newest seq of the whole log.
    last_seq: u64,
    /// Each seat's version, counting its hidden steps.
    seat_versions: Vec<u64>,
}

/// The way to a match's actor, plus its summary without asking it.
#[derive(Clone, Debug)]
pub struct MatchHandle {
    commands: mpsc::Sender<Command>,
    published: watch::Receiver<Published>,
}

impl MatchHandle {
    /// The match's summary as of its last stored change, as everyone may see it.
    pub fn summary(&self) -> pb::Match {
        self.published.borrow().summary.clone()
    }

    /// Whether the actor has stopped: it retired, or its task ended.
    pub fn is_stopped(&self) -> bool {
        self.commands.is_closed()
    }

    async fn call<T>(&self, command: impl FnOnce(Reply<T>) -> Command) -> Result<T, ServiceError> {
        let (reply, answer) = oneshot::channel();
        // Either way the actor never handled the command: it answers every one it takes.
        self.commands
            .send(command(reply))
            .await
            .map_err(|_| ServiceError::ActorStopped)?;
        answer.await.map_err(|_| ServiceError::ActorStopped)?
    }

    /// Waits until the actor's task has ended, so that nothing it still had in hand is left to
    /// store: a match is rebuilt from the store only after that.
    pub async fn finished(&self) {
        let mut published = self.published.clone();
        while published.changed().await.is_ok() {}
    }

    pub async fn snapshot(
        &self,
        token: Option<String>,
    ) -> Result<(pb::Match, pb::MatchView), ServiceError> {
        self.call(|reply| Command::Snapshot { token, reply }).await
    }

    pub async fn join(
        &self,
        seat: Option<String>,
        player_name: String,
    ) -> Result<pb::JoinMatchResponse, ServiceError> {
        self.call(|reply| Command::Join {
            seat,
            player_name,
            reply,
        })
        .await
    }

    pub async fn legal_actions(
        &self,
        token: Option<String>,
        detail: pb::ActionDetail,
    ) -> Result<pb::GetLegalActionsResponse, ServiceError> {
        self.call(|reply| Command::LegalActions {
            token,
            detail,
            reply,
        })
        .await
    }

    pub async fn submit(
        &self,
        token: Option<String>,
        submission: Submission,
    ) -> Result<Submitted, ServiceError> {
        self.call(|reply| Command::Submit {
            token,
            submission,
            reply,
        })
        .await
    }

    /// Resigns, offers or accepts a draw, aborts or claims victory for the token's seat.
    pub async fn seat_call(
        &self,
        token: Option<String>,
        call: SeatCall,
    ) -> Result<pb::Match, ServiceError> {
        self.call(|reply| Command::Call { token, call, reply })
            .await
    }

    pub async fn watch(
        &self,
        token: Option<String>,
        after_seq: u64,
    ) -> Result<Subscription, ServiceError> {
        self.call(|reply| Command::Watch {
            token,
            after_seq,
            reply,
        })
        .await
    }

    pub async fn events_after(
        &self,
        after_seq: u64,
    ) -> Result<Vec<Arc<LoggedEvent>>, ServiceError> {
        self.call(|reply| Command::EventsAfter { after_seq, reply })
            .await
    }

    /// What `seat` needs to act, when it is to act and the newest event is `after_seq` (the
    /// last one the asking watcher sent); `None` otherwise.
    pub async fn your_turn(
        &self,
        seat: Seat,
        after_seq: u64,
        detail: pb::ActionDetail,
    ) -> Result<Option<pb::YourTurn>, ServiceError> {
        self.call(|reply| Command::YourTurn {
            seat,
            after_seq,
            detail,
            reply,
        })
        .await
    }

    /// Whether `seat` looks due to act at a version other than `prompted`, once a watcher has
    /// taken every event up to `sent` of the whole log: read from what the actor published,
    /// without asking it.
    pub fn may_prompt(
        &self,
        seat: Seat,
        seat_name: &str,
        sent: u64,
        prompted: Option<u64>,
    ) -> bool {
        let published = self.published.borrow();
        let summary = &published.summary;
        summary.status == pb::MatchStatus::Active as i32
            && published.last_seq == sent
            && prompted != published.seat_versions.get(seat.index()).copied()
            && summary
                .turn
                .as_ref()
                .is_some_and(|turn| turn.to_act.iter().any(|s| s == seat_name))
    }
}

/// What an accepted submission with a client action id was answered: its events stay in the
/// log, so a retry is answered from there and a match keeps a few numbers per action rather than
/// every response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answered {
    /// The seat's version after the action.
    pub version: u64,
    /// The answer's events are the `events` after this seq of the whole log.
    pub after_seq: u64,
    pub events: usize,
}

/// An accepted submission: the response, and where the whole log stands after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Submitted {
    pub response: pb::SubmitActionResponse,
    pub last_seq: u64,
}

/// Channel sizes and time limits for one match.
#[derive(Clone, Copy, Debug)]
pub struct ActorLimits {
    pub commands: usize,
    pub live_capacity: usize,
    /// A match not started this long after its creation expires; `None`: never.
    pub expire_unstarted_after: Option<Duration>,
    /// A match nobody has called or watched for this long, with no clock running, leaves
    /// memory and comes back from the store on the next call; `None`: never.
    pub unload_idle_after: Option<Duration>,
}

/// Why an actor stopped by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetireReason {
    /// A commit failed: what the actor held beyond the store is gone, the store has the match.
    StoreFailed,
    /// The match expired before it started; it is over.
    Expired,
    /// Nobody called or watched the match for a while.
    Idle,
}

/// An actor's last word to the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retirement {
    pub match_id: String,
    pub reason: RetireReason,
}

/// What every actor of a registry shares.
#[derive(Clone, Debug)]
pub struct ActorContext {
    pub limits: ActorLimits,
    pub store: Store,
    /// Where an actor that stops by itself says so; nobody listening is fine.
    pub retired: mpsc::UnboundedSender<Retirement>,
}

impl ActorContext {
    /// A context whose retirements nobody follows.
    pub fn unwatched(limits: ActorLimits, store: Store) -> Self {
        Self {
            limits,
            store,
            retired: mpsc::unbounded_channel().0,
        }
    }
}

/// Something due at a moment, besides the commands.
#[derive(Clone, Copy, Debug)]
enum Due {
    /// A seat's clock runs out.
    TimeOut(Seat),
    Expiry,
}

struct SeatState {
    name: &'static str,
    player_name: String,
    token: Option<TokenHash>,
}

struct MatchActor {
    setup: MatchSetup,
    game: Box<dyn HostedGame>,
    seats: Vec<SeatState>,
    status: pb::MatchStatus,
    version: u64,
    result: Option<pb::MatchResult>,
    log: EventLog,
    inputs: Vec<Input>,
    /// `(seat, client_action_id)` -> the first answer.
    answered: HashMap<(Seat, String), Answered>,
    /// The turn last announced with a TurnStarted event.
    announced: Option<Turn>,
    clocks: Clocks,
    /// Per seat: timeouts since its last own action.
    consecutive_timeouts: Vec<u32>,
    /// The seat whose draw offer stands.
    draw_offer: Option<Seat>,
    presence: Vec<Arc<Presence>>,
    /// When the command being handled happens: the time of every event it records and of every
    /// clock reading it makes.
    moment: SystemTime,
    /// While rebuilding: the stored events' times, by seq - 1, so each input replays at the
    /// moment it first happened.
    replay_times: Vec<SystemTime>,
    live: broadcast::Sender<Arc<LoggedEvent>>,
    published: watch::Sender<Published>,
    store: Store,
    retired: mpsc::UnboundedSender<Retirement>,
    /// When the match expires unless it has started.
    expires_at: Option<SystemTime>,
    /// Counts the match against its creator's quota until it is over.
    open: Option<OpenMatch>,
    /// Lifecycle entries recorded by the command being handled, stored with its commit.
    lifecycle: Vec<LifecycleEntry>,
    unload_idle_after: Option<Duration>,
}

/// Where a match stood before a command, to tell what the command added.
struct Mark {
    seq: u64,
    inputs: usize,
    status: pb::MatchStatus,
}

/// Sleeps until `at`; without one, forever.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Stores a new match with its opening events, then starts its actor.
pub async fn create(
    setup: MatchSetup,
    game: Box<dyn HostedGame>,
    context: &ActorContext,
    open: Option<OpenMatch>,
) -> Result<MatchHandle, ServiceError> {
    let mut actor = MatchActor::new(setup, game, context);
    actor.open = open;
    actor.record_lifecycle(LifecycleKind::Created {
        seed_source: actor.setup.chance.source,
    });
    let row = MatchRow {
        match_id: actor.setup.match_id.clone(),
        variant_id: actor.setup.variant_id.clone(),
        status: actor.status as i32,
        setup: durable::setup_to_bytes(&actor.setup, actor.game.info().rules_version),
        summary: actor.to_proto().encode_to_vec(),
    };
    let events = actor
        .log
        .after(0)
        .iter()
        .map(|e| durable::event_row(e))
        .collect();
    let lifecycle = actor.lifecycle.drain(..).map(|e| e.to_row()).collect();
    actor
        .store
        .create(row, events, lifecycle)
        .await
        .map_err(|error| {
            tracing::error!(%error, "cannot store a new match");
            ServiceError::StoreUnavailable(format!("the match could not be stored: {error}"))
        })?;
    Ok(actor.start(context.limits))
}

/// Rebuilds a stored match by replaying its inputs against a fresh game, checks that this
/// reproduces the stored events, and starts its actor with the stored log (original times
/// included) and idempotency answers. A difference means the rules changed under the match;
/// it is refused rather than continued on a history it did not have.
pub fn restore(
    stored: &StoredMatch,
    game: Box<dyn HostedGame>,
    context: &ActorContext,
) -> Result<MatchHandle, String> {
    let setup = durable::setup_from_bytes(&stored.row.setup).map_err(|e| e.to_string())?;
    let inputs = stored
        .inputs
        .iter()
        .map(durable::input_from_row)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let events = stored
        .events
        .iter()
        .map(durable::event_from_row)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut actor = MatchActor::new(setup, game, context);
    actor.replay_times = events.iter().map(|e| e.time).collect();
    actor
        .replay(inputs)
        .map_err(|e| format!("replaying the stored inputs failed: {e}"))?;
    let rebuilt = actor.log.after(0);
    let stored_log = EventLog::restore(events.clone())?;
    let stored_events = stored_log.after(0);
    if let Some(index) = (0..rebuilt.len().max(stored_events.len())).find(
        |&i| !matches!((rebuilt.get(i), stored_events.get(i)), (Some(a), Some(b)) if a.same_as(b)),
    ) {
        return Err(format!(
            "replaying gives {} events where {} are stored, differing from seq {}: the rules \
             no longer reproduce this match",
            rebuilt.len(),
            stored_events.len(),
            index + 1
        ));
    }
    // The stored events, for their times and the rules version the match was created under;
    // which steps were hidden as the rules tell now (matches stored before hidden steps
    // existed have none marked).
    let hidden: Vec<bool> = rebuilt.iter().map(|e| e.hidden_step).collect();
    actor.log = EventLog::restore(
        events
            .into_iter()
            .zip(hidden)
            .map(|(event, hidden_step)| NewEvent {
                hidden_step,
                ..event
            })
            .collect(),
    )?;
    actor.replay_times = Vec::new();
    // Replaying recorded them again; the store has them from when they happened.
    actor.lifecycle.clear();
    // The server was down, not the players: everyone gets `abandon_after` from now to return.
    let now = clock::now();
    actor.presence.iter().for_each(|p| p.seen(now));
    for row in &stored.answers {
        let (key, answered) = durable::answer_from_row(row).map_err(|e| e.to_string())?;
        actor.answered.insert(key, answered);
    }
    Ok(actor.start(context.limits))
}

impl MatchActor {
    fn new(setup: MatchSetup, game: Box<dyn HostedGame>, context: &ActorContext) -> Self {
        let limits = context.limits;
        let seats = game
            .info()
            .seats
            .iter()
            .map(|name| SeatState {
                name,
                player_name: String::new(),
                token: None,
            })
            .collect();
        let (live, _) = broadcast::channel(limits.live_capacity);
        let (published, _) = watch::channel(Published::default());
        let seat_count = game.info().seats.len();
        let expires_at = limits
            .expire_unstarted_after
            .map(|after| setup.create_time + after);
        let mut actor = MatchActor {
            clocks: Clocks::new(setup.hosting.time_control, seat_count),
            consecutive_timeouts: vec![0; seat_count],
            draw_offer: None,
            presence: (0..seat_count).map(|_| Arc::default()).collect(),
            moment: setup.create_time,
            replay_times: Vec::new(),
            setup,
            game,
            seats,
            status: pb::MatchStatus::Waiting,
            version: 0,
            result: None,
            log: EventLog::default(),
            inputs: Vec::new(),
            answered: HashMap::new(),
            announced: None,
            live,
            published,
            store: context.store.clone(),
            retired: context.retired.clone(),
            expires_at,
            open: None,
            lifecycle: Vec::new(),
            unload_idle_after: limits.unload_idle_after,
        };
        actor.record(
            Visibility::Public,
            pb::match_event::Kind::MatchCreated(pb::MatchCreated {
                variant_id: actor.setup.variant_id.clone(),
                rules_version: actor.game.info().rules_version.to_owned(),
                chance: actor.setup.chance.announcement(),
            }),
        );
        for (event, visibility) in actor.game.opening_events() {
            actor.record(visibility, pb::match_event::Kind::GameEvent(event));
        }
        actor
    }

    fn start(self, limits: ActorLimits) -> MatchHandle {
        // The whole summary once; later changes only refresh it.
        self.published.send_replace(Published {
            summary: self.to_proto(),
            ..Published::default()
        });
        self.publish();
        let published = self.published.subscribe();
        let span = tracing::info_span!(
            "match",
            match_id = %self.setup.match_id,
            variant = %self.setup.variant_id,
        );
        let (commands, receiver) = mpsc::channel(limits.commands);
        tokio::spawn(self.run(receiver).instrument(span));
        MatchHandle {
            commands,
            published,
        }
    }

    /// Feeds a rebuilt match the inputs it had accepted, in order.
    fn replay(&mut self, inputs: Vec<Input>) -> Result<(), ServiceError> {
        for input in inputs {
            // Every input records at least one event; its stored time is the input's moment.
            if let Some(time) = self.replay_times.get(self.log.last_seq() as usize) {
                self.moment = *time;
            }
            match input {
                Input::Joined {
                    seat,
                    player_name,
                    token_hash,
                } => self.take_seat(seat, token_hash, player_name),
                Input::Acted {
                    seat,
                    action,
                    for_timeout,
                } => {
                    self.require_active()?;
                    self.act(seat, &ActionChoice::Typed(action), for_timeout)?;
                }
                Input::TimedOut { seat, forfeited } => {
                    self.require_active()?;
                    self.record_timeout(seat, forfeited);
                }
                Input::Aborted { seat } => {
                    self.require_abortable()?;
                    self.apply_call(seat, SeatCall::Abort);
                }
                Input::Resigned { seat } => self.replay_call(seat, SeatCall::Resign)?,
                Input::OfferedDraw { seat } => self.replay_call(seat, SeatCall::OfferDraw)?,
                Input::AcceptedDraw { seat } => self.replay_call(seat, SeatCall::AcceptDraw)?,
                Input::ClaimedVictory { seat } => self.replay_call(seat, SeatCall::ClaimVictory)?,
                Input::Expired => {
                    if self.status != pb::MatchStatus::Waiting {
                        return Err(ServiceError::MatchNotActive {
                            status: "started",
                            hint: "only a match still waiting for its seats expires",
                        });
                    }
                    self.expire();
                }
            }
        }
        Ok(())
    }

    /// Replays a call of an active match; what the call checked live is not checked again.
    fn replay_call(&mut self, seat: Seat, call: SeatCall) -> Result<(), ServiceError> {
        self.require_active()?;
        self.apply_call(seat, call);
        Ok(())
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        tracing::info!(last_seq = self.log.last_seq(), "match hosted");
        let mut health = self.store.health();
        let mut last_call = tokio::time::Instant::now();
        loop {
            // Nothing falls due while the store cannot write: a timeout or an expiry it could
            // not store would be lost. It falls due as soon as the store writes again.
            let due = self.next_due();
            let writable = self.store.writable();
            // A match with something due stays: nobody else would make it happen.
            let idle_at = self
                .unload_idle_after
                .filter(|_| due.is_none())
                .map(|after| last_call + after);
            let handled = tokio::select! {
                // A moment that passed while the actor was busy comes before any command that
                // arrived meanwhile: a late action is refused, not accepted.
                biased;
                () = sleep_until(due.map(|(at, _)| clock::instant_at(at))), if writable && due.is_some() => {
                    match due {
                        Some((_, Due::TimeOut(seat))) => self.time_out(seat).await.map(|()| None),
                        // An expired match is over and nobody took all its seats: it has no
                        // reason to stay in memory.
                        Some((_, Due::Expiry)) => self
                            .expire_and_store()
                            .await
                            .map(|()| Some(RetireReason::Expired)),
                        None => Ok(None),
                    }
                }
                command = commands.recv() => match command {
                    Some(command) => {
                        last_call = tokio::time::Instant::now();
                        self.handle(command).await.map(|()| None)
                    }
                    None => break,
                },
                () = sleep_until(idle_at), if idle_at.is_some() => {
                    // Every open stream holds a receiver of the live events.
                    if self.live.receiver_count() == 0 {
                        Ok(Some(RetireReason::Idle))
                    } else {
                        last_call = tokio::time::Instant::now();
                        Ok(None)
                    }
                }
                changed = health.changed(), if due.is_some() && !writable => {
                    if changed.is_err() {
                        // The store is closed: the server is stopping.
                        break;
                    }
                    Ok(None)
                }
            };
            let retired = handled.unwrap_or_else(|error| {
                tracing::error!(
                    %error,
                    "storing the match failed; it leaves memory and comes back from what was \
                     stored"
                );
                Some(RetireReason::StoreFailed)
            });
            if let Some(reason) = retired {
                // Stop taking commands before the registry hears of it, so that it never
                // finds the handle still open.
                commands.close();
                if matches!(reason, RetireReason::Idle | RetireReason::Expired) {
                    // Calls that came in meanwhile are answered; what they change is stored.
                    while let Ok(command) = commands.try_recv() {
                        if self.handle(command).await.is_err() {
                            break;
                        }
                    }
                }
                let _ = self.retired.send(Retirement {
                    match_id: self.setup.match_id.clone(),
                    reason,
                });
                return;
            }
        }
        tracing::debug!("match actor stopped: no handle left");
    }

    /// What falls due next, and when.
    fn next_due(&self) -> Option<(SystemTime, Due)> {
        match self.status {
            pb::MatchStatus::Active => self
                .clocks
                .next_deadline()
                .map(|(seat, at)| (at, Due::TimeOut(seat))),
            pb::MatchStatus::Waiting => self.expires_at.map(|at| (at, Due::Expiry)),
            _ => None,
        }
    }

    /// Aborts a match that did not start in time.
    fn expire(&mut self) {
        self.inputs.push(Input::Expired);
        self.version += 1;
        tracing::info!("expired before every seat was taken");
        let outcome = Outcome {
            winner: None,
            scores: self.game.scores(),
            reason: "not every seat was taken in time".to_owned(),
        };
        self.end(outcome, pb::ResultReason::Expired, pb::MatchStatus::Aborted);
    }

    async fn expire_and_store(&mut self) -> Result<(), StoreError> {
        self.moment = clock::now();
        let mark = self.mark();
        self.expire();
        self.commit(mark, None).await
    }

    /// A seat's clock ran out: apply the timeout policy and store what it did.
    async fn time_out(&mut self, seat: Seat) -> Result<(), StoreError> {
        self.moment = clock::now();
        let mark = self.mark();
        let consecutive = self.consecutive_timeouts[seat.index()] + 1;
        let default_action = self.game.default_action(seat);
        let forfeited = default_action.is_none()
            || match self.setup.hosting.timeout_policy {
                TimeoutPolicy::Forfeit => true,
                TimeoutPolicy::PlayDefault { forfeit_after } => {
                    forfeit_after != 0 && consecutive >= forfeit_after
                }
            };
        self.record_timeout(seat, forfeited);
        let turn = self.game.turn().clone();
        let mut next = default_action.filter(|_| !forfeited);
        // A default action may leave the seat's turn open (one atomic action of several); play
        // on until it is over. The rules bound a turn's actions, and so this loop.
        for _ in 0..=self.game.info().max_actions_per_turn {
            let Some(action) = next.take() else { break };
            if let Err(error) = self.act(seat, &ActionChoice::Typed(action), true) {
                tracing::error!(%error, "the game refused its own default action");
                break;
            }
            let now = self.game.turn();
            if self.status == pb::MatchStatus::Active
                && now.is_to_act(seat)
                && (&now.phase, now.number) == (&turn.phase, turn.number)
            {
                next = self.game.default_action(seat);
            }
        }
        self.commit(mark, None).await
    }

    /// Logs a timeout; a forfeit ends the match.
    fn record_timeout(&mut self, seat: Seat, forfeited: bool) {
        let index = seat.index();
        self.consecutive_timeouts[index] += 1;
        self.inputs.push(Input::TimedOut { seat, forfeited });
        let name = self.seats[index].name;
        tracing::info!(seat = name, forfeited, "time ran out");
        self.record(
            Visibility::Public,
            pb::match_event::Kind::TimedOut(pb::TimedOut {
                seat: name.to_owned(),
                consecutive: self.consecutive_timeouts[index],
                forfeited,
            }),
        );
        if forfeited {
            self.version += 1;
            let outcome = Outcome {
                winner: Some(seat.opponent()),
                scores: self.game.scores(),
                reason: format!("`{name}` ran out of time"),
            };
            self.end(
                outcome,
                pb::ResultReason::Timeout,
                pb::MatchStatus::Finished,
            );
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            seq: self.log.last_seq(),
            inputs: self.inputs.len(),
            status: self.status,
        }
    }

    /// Makes what happened since `mark` durable, then lets watchers and listings see it.
    async fn commit(&mut self, mark: Mark, answer: Option<AnswerRow>) -> Result<(), StoreError> {
        let events = self.log.after(mark.seq);
        if events.is_empty() && self.inputs.len() == mark.inputs {
            return Ok(());
        }
        let append = Append {
            match_id: self.setup.match_id.clone(),
            inputs: self.inputs[mark.inputs..]
                .iter()
                .enumerate()
                .map(|(offset, input)| durable::input_row(mark.inputs + offset, input))
                .collect(),
            events: events.iter().map(|e| durable::event_row(e)).collect(),
            answer,
            status: (self.status != mark.status).then(|| StatusChange {
                status: self.status as i32,
                summary: self.to_proto().encode_to_vec(),
            }),
            lifecycle: self.lifecycle.drain(..).map(|e| e.to_row()).collect(),
        };
        self.store.append(append).await?;
        // The summary first: a watcher that has sent the newest event reads a summary at least
        // that new, so it can tell when its seat is due to act (see `MatchHandle::may_prompt`).
        self.publish();
        for event in self.log.after(mark.seq) {
            // No receiver is fine: nobody is watching. Sending never waits: a watcher too far
            // behind is told it lagged and catches up from the log.
            let _ = self.live.send(Arc::clone(event));
        }
        Ok(())
    }

    /// Replies once the command's changes are durable; a failed commit is answered
    /// STORE_UNAVAILABLE and returned, which retires the actor.
    async fn reply_after_commit<T>(
        &mut self,
        mark: Mark,
        answer: Option<AnswerRow>,
        result: Result<T, ServiceError>,
        reply: Reply<T>,
    ) -> Result<(), StoreError> {
        match self.commit(mark, answer).await {
            Ok(()) => {
                let _ = reply.send(result);
                Ok(())
            }
            Err(error) => {
                let _ = reply.send(Err(ServiceError::StoreUnavailable(format!(
                    "the change could not be stored, so it did not happen: {error}"
                ))));
                Err(error)
            }
        }
    }

    async fn handle(&mut self, command: Command) -> Result<(), StoreError> {
        self.moment = clock::now();
        // A dropped reply means the caller went away; the work is done regardless.
        match command {
            Command::Snapshot { token, reply } => {
                let _ = reply.send(
                    self.viewer(token.as_deref())
                        .map(|viewer| (self.summary_for(viewer), self.view(viewer))),
                );
            }
            Command::Join {
                seat,
                player_name,
                reply,
            } => {
                let mark = self.mark();
                let result = self.join(seat, player_name);
                return self.reply_after_commit(mark, None, result, reply).await;
            }
            Command::LegalActions {
                token,
                detail,
                reply,
            } => {
                let _ = reply.send(self.legal_actions(token.as_deref(), detail));
            }
            Command::Submit {
                token,
                submission,
                reply,
            } => {
                let mark = self.mark();
                return match self.submit(token.as_deref(), submission) {
                    Ok((response, answer)) => {
                        self.reply_after_commit(mark, answer, Ok(response), reply)
                            .await
                    }
                    Err(error) => {
                        let _ = reply.send(Err(error));
                        Ok(())
                    }
                };
            }
            Command::Call { token, call, reply } => {
                let mark = self.mark();
                let result = self.seat_call(token.as_deref(), call);
                return self.reply_after_commit(mark, None, result, reply).await;
            }
            Command::Watch {
                token,
                after_seq,
                reply,
            } => {
                let _ = reply.send(self.watch(token.as_deref(), after_seq));
            }
            Command::EventsAfter { after_seq, reply } => {
                let _ = reply.send(Ok(self.log.after(after_seq).to_vec()));
            }
            Command::YourTurn {
                seat,
                after_seq,
                detail,
                reply,
            } => {
                let _ = reply.send(Ok(self.your_turn(seat, after_seq, detail)));
            }
        }
        Ok(())
    }

    fn seat_names(&self) -> Vec<&'static str> {
        self.seats.iter().map(|s| s.name).collect()
    }

    /// The seat a presented token belongs to; every seat is compared so timing says nothing.
    /// A call with the seat's token also counts as the seat being connected.
    fn seat_of(&self, token: &str) -> Result<Seat, ServiceError> {
        let mut found = None;
        for (index, seat) in self.seats.iter().enumerate() {
            if seat.token.as_ref().is_some_and(|t| t.matches(token)) {
                found = Some(Seat(index as u8));
            }
        }
        let seat =
            found.ok_or_else(|| ServiceError::InvalidSeatToken(self.setup.match_id.clone()))?;
        self.presence[seat.index()].seen(clock::now());
        Ok(seat)
    }

    /// For calls that act: a token is required.
    fn authenticate(&self, token: Option<&str>) -> Result<Seat, ServiceError> {
        let token = token.ok_or_else(|| {
            ServiceError::Unauthenticated(
                "acting needs the seat token JoinMatch returned, sent as `authorization: Bearer \
                 <token>`"
                    .to_owned(),
            )
        })?;
        self.seat_of(token)
    }

    /// For calls that look: no token is a spectator, a wrong one is an error.
    fn viewer(&self, token: Option<&str>) -> Result<Viewer, ServiceError> {
        token.map_or(Ok(Viewer::Spectator), |t| self.seat_of(t).map(Viewer::Seat))
    }

    fn is_over(&self) -> bool {
        matches!(
            self.status,
            pb::MatchStatus::Finished | pb::MatchStatus::Aborted
        )
    }

    /// For commands that change the match: refused before they change anything while the
    /// store cannot write, since the change could not be kept.
    fn require_writable(&self) -> Result<(), ServiceError> {
        if self.store.writable() {
            return Ok(());
        }
        Err(ServiceError::StoreUnavailable(
            "the match store cannot write right now, so no change is accepted".to_owned(),
        ))
    }

    fn require_active(&self) -> Result<(), ServiceError> {
        match self.status {
            pb::MatchStatus::Active => Ok(()),
            pb::MatchStatus::Waiting => Err(ServiceError::MatchNotActive {
                status: "waiting",
                hint: "play starts once every seat is taken",
            }),
            _ => Err(ServiceError::MatchNotActive {
                status: "over",
                hint: "no more actions are accepted; GetMatch shows the result",
            }),
        }
    }

    /// The turn as clients see it: nobody is to act unless the match is active.
    fn public_turn(&self) -> pb::TurnInfo {
        let mut turn = turn_to_proto(self.game.turn(), &self.seat_names());
        if self.status != pb::MatchStatus::Active {
            turn.to_act.clear();
            turn.actions_left = None;
            turn.may_end_turn = false;
        }
        turn
    }

    fn view(&self, viewer: Viewer) -> pb::MatchView {
        let mut view = self.game.view(viewer, self.log.version_for(viewer));
        view.turn = Some(self.public_turn());
        view
    }

    fn to_proto(&self) -> pb::Match {
        let mut summary = pb::Match {
            match_id: self.setup.match_id.clone(),
            variant_id: self.setup.variant_id.clone(),
            rules_version: self.game.info().rules_version.to_owned(),
            options: self
                .setup
                .options
                .iter()
                .map(|(name, value)| (name.clone(), option_to_proto(value)))
                .collect(),
            chance: Some(self.setup.chance.to_proto(false)),
            seats: self
                .seats
                .iter()
                .map(|seat| pb::SeatInfo {
                    seat: seat.name.to_owned(),
                    ..pb::SeatInfo::default()
                })
                .collect(),
            create_time: Some(self.setup.create_time.into()),
            start_position: self.setup.start_position.clone().unwrap_or_default(),
            time_control: Some(self.setup.hosting.time_control_proto()),
            timeout_policy: Some(self.setup.hosting.timeout_policy_proto()),
            abandon_after: self.setup.hosting.abandon_after_proto(),
            ..pb::Match::default()
        };
        self.refresh(&mut summary);
        summary
    }

    /// The summary as `viewer` sees it: numbered in its own count of events and versions.
    fn summary_for(&self, viewer: Viewer) -> pb::Match {
        pb::Match {
            version: self.log.version_for(viewer),
            last_seq: self.log.last_seq_for(viewer),
            ..self.to_proto()
        }
    }

    /// Brings a summary made by [`MatchActor::to_proto`] up to date: the fields a command can
    /// change. The rest is fixed when the match is created, so publishing after every action
    /// rewrites a few fields instead of building the whole summary anew.
    fn refresh(&self, summary: &mut pb::Match) {
        summary.status = self.status as i32;
        for (shown, seat) in summary.seats.iter_mut().zip(&self.seats) {
            shown.occupied = seat.token.is_some();
            shown.player_name.clone_from(&seat.player_name);
        }
        summary.version = self.log.version_for(Viewer::Spectator);
        summary.last_seq = self.log.last_seq_for(Viewer::Spectator);
        summary.turn = Some(self.public_turn());
        summary.result.clone_from(&self.result);
        if self.is_over() && summary.chance.as_ref().is_some_and(|c| c.seed.is_empty()) {
            summary.chance = Some(self.setup.chance.to_proto(true));
        }
        summary.draw_offered_by.clear();
        if let Some(seat) = self.draw_offer {
            summary
                .draw_offered_by
                .push_str(self.seats[seat.index()].name);
        }
    }

    fn publish(&self) {
        self.published.send_modify(|published| {
            self.refresh(&mut published.summary);
            published.last_seq = self.log.last_seq();
            published.seat_versions = (0..self.seats.len())
                .map(|index| self.log.version_for(Viewer::Seat(Seat(index as u8))))
                .collect();
        });
    }

    /// Appends to the log; [`MatchActor::commit`] stores and publishes it.
    fn record(&mut self, visibility: Visibility, kind: pb::match_event::Kind) {
        self.record_in_step(visibility, false, kind);
    }

    /// Appends an event of a step that is hidden (only its seat may see it) or not.
    fn record_in_step(
        &mut self,
        visibility: Visibility,
        hidden: bool,
        kind: pb::match_event::Kind,
    ) {
        let seats = self.seat_names();
        self.log
            .append(self.moment, self.version, visibility, hidden, &seats, kind);
    }

    fn join(
        &mut self,
        seat: Option<String>,
        player_name: String,
    ) -> Result<pb::JoinMatchResponse, ServiceError> {
        self.require_writable()?;
        if self.status == pb::MatchStatus::Aborted {
            return Err(ServiceError::MatchNotActive {
                status: "aborted",
                hint: "its seats can no longer be taken; create a new match",
            });
        }
        let index = match seat {
            Some(name) => {
                let index = self
                    .seats
                    .iter()
                    .position(|s| s.name == name)
                    .ok_or_else(|| ServiceError::UnknownSeat {
                        seat: name.clone(),
                        seats: self.seat_names().join(", "),
                    })?;
                if self.seats[index].token.is_some() {
                    return Err(ServiceError::SeatTaken(name));
                }
                index
            }
            None => self
                .seats
                .iter()
                .position(|s| s.token.is_none())
                .ok_or(ServiceError::NoFreeSeat)?,
        };
        let token = SeatToken::generate().map_err(|e| {
            ServiceError::Unavailable(format!("no randomness for a seat token: {e}"))
        })?;
        self.take_seat(Seat(index as u8), token.hash(), player_name);
        self.presence[index].seen(self.moment);
        Ok(pb::JoinMatchResponse {
            seat: self.seats[index].name.to_owned(),
            seat_token: token.reveal(),
            r#match: Some(self.summary_for(Viewer::Seat(Seat(index as u8)))),
        })
    }

    /// Seats a player; the last seat taken starts the match.
    fn take_seat(&mut self, seat: Seat, token_hash: TokenHash, player_name: String) {
        let state = &mut self.seats[seat.index()];
        state.token = Some(token_hash);
        state.player_name = player_name.clone();
        let seat_name = state.name;
        self.inputs.push(Input::Joined {
            seat,
            player_name: player_name.clone(),
            token_hash,
        });
        self.record(
            Visibility::Public,
            pb::match_event::Kind::SeatJoined(pb::SeatJoined {
                seat: seat_name.to_owned(),
                player_name,
            }),
        );
        tracing::info!(seat = seat_name, "seat taken");
        self.record_lifecycle(LifecycleKind::SeatTaken {
            seat: seat_name.to_owned(),
            player_name: self.seats[seat.index()].player_name.clone(),
        });
        if self.seats.iter().all(|s| s.token.is_some()) {
            self.status = pb::MatchStatus::Active;
            self.record_lifecycle(LifecycleKind::Started {
                seats: self.seat_holders(),
            });
            self.record(
                Visibility::Public,
                pb::match_event::Kind::MatchStarted(pb::MatchStarted {}),
            );
            tracing::info!("match started");
            self.after_change();
        }
    }

    fn legal_actions(
        &self,
        token: Option<&str>,
        detail: pb::ActionDetail,
    ) -> Result<pb::GetLegalActionsResponse, ServiceError> {
        let viewer = self.viewer(token)?;
        let actions = match viewer {
            Viewer::Seat(seat) if self.status == pb::MatchStatus::Active => {
                self.game.legal_actions(seat, detail)
            }
            _ => Vec::new(),
        };
        Ok(pb::GetLegalActionsResponse {
            version: self.log.version_for(viewer),
            turn: Some(self.public_turn()),
            actions,
            view: Some(self.view(viewer)),
        })
    }

    fn your_turn(
        &self,
        seat: Seat,
        after_seq: u64,
        detail: pb::ActionDetail,
    ) -> Option<pb::YourTurn> {
        let due = self.status == pb::MatchStatus::Active
            && self.log.last_seq() == after_seq
            && self.game.turn().is_to_act(seat);
        if !due {
            return None;
        }
        let actions = self.game.legal_actions_once(seat, detail);
        (!actions.is_empty()).then(|| pb::YourTurn {
            version: self.log.version_for(Viewer::Seat(seat)),
            turn: Some(self.public_turn()),
            actions,
        })
    }

    /// The response, the seq in the whole log after the action's events, and the answer to
    /// store when the submission carries a client action id.
    fn submit(
        &mut self,
        token: Option<&str>,
        submission: Submission,
    ) -> Result<(Submitted, Option<AnswerRow>), ServiceError> {
        let seat = self.authenticate(token)?;
        let viewer = Viewer::Seat(seat);
        let key = (seat, submission.client_action_id);
        if !key.1.is_empty()
            && let Some(first) = self.answered.get(&key)
        {
            let events = self.log.after(first.after_seq);
            let events = &events[..first.events.min(events.len())];
            let again = pb::SubmitActionResponse {
                version: first.version,
                events: events.iter().filter_map(|e| e.view_for(viewer)).collect(),
                duplicate: true,
            };
            let last_seq = first.after_seq + events.len() as u64;
            return Ok((
                Submitted {
                    response: again,
                    last_seq,
                },
                None,
            ));
        }
        self.require_writable()?;
        self.require_active()?;
        let current = self.log.version_for(viewer);
        if submission.expected_version != current {
            return Err(ServiceError::StaleVersion {
                expected: submission.expected_version,
                current,
            });
        }
        let before = self.log.last_seq();
        self.act(seat, &submission.choice, false)?;
        let events = self.log.after(before);
        let answer = pb::SubmitActionResponse {
            version: self.log.version_for(viewer),
            events: events.iter().filter_map(|e| e.view_for(viewer)).collect(),
            duplicate: false,
        };
        let answered = Answered {
            version: answer.version,
            after_seq: before,
            events: events.len(),
        };
        let submitted = Submitted {
            response: answer,
            last_seq: self.log.last_seq(),
        };
        if key.1.is_empty() {
            return Ok((submitted, None));
        }
        let row = durable::answer_row(seat, &key.1, &answered);
        self.answered.insert(key, answered);
        Ok((submitted, Some(row)))
    }

    /// Plays an action whose seat and preconditions were checked; on error nothing changed.
    /// `for_timeout`: the server plays it for a seat that ran out of time.
    fn act(
        &mut self,
        seat: Seat,
        choice: &ActionChoice,
        for_timeout: bool,
    ) -> Result<(), ServiceError> {
        let played = self.game.play(seat, choice)?;
        // A hidden choice (drafting a roster or orders in secret) shows nobody else anything:
        // the action and its events are the seat's own, the match goes on as it was. Such a
        // step counts in the seat's numbering only (see `log`).
        let own = Visibility::Seat(seat);
        let hidden = played.action_visibility == own
            && played
                .events
                .iter()
                .all(|(_, visibility)| *visibility == own)
            && self.game.outcome().is_none()
            && !self.turn_is_new();
        if !for_timeout {
            self.consecutive_timeouts[seat.index()] = 0;
        }
        if !hidden && self.draw_offer == Some(seat.opponent()) {
            // Playing on declines the opponent's offer; a hidden choice must not say that the
            // seat acted, so only what everyone sees declines it.
            self.draw_offer = None;
        }
        tracing::debug!(seat = self.seats[seat.index()].name, notation = %played.notation, "action taken");
        self.version += 1;
        self.record_in_step(
            played.action_visibility,
            hidden,
            pb::match_event::Kind::ActionTaken(pb::ActionTaken {
                seat: self.seats[seat.index()].name.to_owned(),
                action: Some(played.action.clone()),
                notation: played.notation,
            }),
        );
        for (event, visibility) in played.events {
            self.record_in_step(visibility, hidden, pb::match_event::Kind::GameEvent(event));
        }
        self.inputs.push(Input::Acted {
            seat,
            action: played.action,
            for_timeout,
        });
        self.after_change();
        Ok(())
    }

    /// Checks a seat's call against the match, then applies it; a refusal changes nothing.
    fn seat_call(
        &mut self,
        token: Option<&str>,
        call: SeatCall,
    ) -> Result<pb::Match, ServiceError> {
        let seat = self.authenticate(token)?;
        self.require_writable()?;
        if call == SeatCall::Abort {
            self.require_abortable()?;
        } else {
            self.require_active()?;
        }
        match call {
            SeatCall::Resign | SeatCall::Abort => {}
            SeatCall::OfferDraw => {
                if !self.game.info().draws_possible {
                    return Err(ServiceError::DrawNotPossible(self.setup.variant_id.clone()));
                }
                if let Some(offered_by) = self.draw_offer {
                    return Err(ServiceError::DrawAlreadyOffered(if offered_by == seat {
                        "your draw offer already stands; it lapses when the opponent plays"
                            .to_owned()
                    } else {
                        "the opponent's draw offer stands; AcceptDraw takes it".to_owned()
                    }));
                }
            }
            SeatCall::AcceptDraw => {
                if self.draw_offer != Some(seat.opponent()) {
                    return Err(ServiceError::NoDrawOffer);
                }
            }
            SeatCall::ClaimVictory => {
                let opponent = seat.opponent();
                let limit = self.setup.hosting.abandon_after;
                match self.presence[opponent.index()].away_for(self.moment) {
                    Some(away) if away >= limit => {}
                    away => {
                        let name = self.seats[opponent.index()].name;
                        return Err(ServiceError::OpponentConnected(match away {
                            None => format!(
                                "`{name}` is connected (it has an open event stream); victory \
                                 can be claimed after it has been away for {}s",
                                limit.as_secs()
                            ),
                            Some(away) => format!(
                                "`{name}` has been away for {}s of the {}s after which victory \
                                 can be claimed; try again later",
                                away.as_secs(),
                                limit.as_secs()
                            ),
                        }));
                    }
                }
            }
        }
        self.apply_call(seat, call);
        Ok(self.summary_for(Viewer::Seat(seat)))
    }

    /// Abort is for a match nobody has played in yet, waiting or active.
    fn require_abortable(&self) -> Result<(), ServiceError> {
        if self.status == pb::MatchStatus::Active || self.status == pb::MatchStatus::Waiting {
            let acted = self
                .inputs
                .iter()
                .any(|input| matches!(input, Input::Acted { .. } | Input::TimedOut { .. }));
            if acted {
                return Err(ServiceError::AbortTooLate);
            }
            return Ok(());
        }
        self.require_active()
    }

    /// Applies a checked call: logs its input and event, and ends the match unless it offers a
    /// draw.
    fn apply_call(&mut self, seat: Seat, call: SeatCall) {
        let name = self.seats[seat.index()].name.to_owned();
        let opponent = seat.opponent();
        let finished = pb::MatchStatus::Finished;
        let (input, kind, winner, reason, detail, status) = match call {
            SeatCall::OfferDraw => {
                self.inputs.push(Input::OfferedDraw { seat });
                self.draw_offer = Some(seat);
                self.record(
                    Visibility::Public,
                    pb::match_event::Kind::DrawOffered(pb::DrawOffered { seat: name }),
                );
                return;
            }
            SeatCall::Resign => (
                Input::Resigned { seat },
                pb::match_event::Kind::Resigned(pb::Resigned { seat: name.clone() }),
                Some(opponent),
                pb::ResultReason::Resignation,
                format!("`{name}` resigned"),
                finished,
            ),
            SeatCall::AcceptDraw => (
                Input::AcceptedDraw { seat },
                pb::match_event::Kind::DrawAccepted(pb::DrawAccepted { seat: name.clone() }),
                None,
                pb::ResultReason::DrawAgreed,
                "draw agreed".to_owned(),
                finished,
            ),
            SeatCall::Abort => (
                Input::Aborted { seat },
                pb::match_event::Kind::MatchAborted(pb::MatchAborted { seat: name.clone() }),
                None,
                pb::ResultReason::Aborted,
                format!("`{name}` aborted the match before anyone played"),
                pb::MatchStatus::Aborted,
            ),
            SeatCall::ClaimVictory => (
                Input::ClaimedVictory { seat },
                pb::match_event::Kind::VictoryClaimed(pb::VictoryClaimed {
                    seat: name.clone(),
                    opponent: self.seats[opponent.index()].name.to_owned(),
                }),
                Some(seat),
                pb::ResultReason::Abandoned,
                format!("`{name}` claimed victory: the opponent stayed disconnected"),
                finished,
            ),
        };
        self.inputs.push(input);
        self.version += 1;
        self.record(Visibility::Public, kind);
        let outcome = Outcome {
            winner,
            scores: self.game.scores(),
            reason: detail,
        };
        self.end(outcome, reason, status);
    }

    fn watch(&self, token: Option<&str>, after_seq: u64) -> Result<Subscription, ServiceError> {
        let viewer = self.viewer(token)?;
        let last_seq = self.log.last_seq_for(viewer);
        if after_seq > last_seq {
            return Err(ServiceError::InvalidArgument(format!(
                "after_seq {after_seq} is beyond the newest event {last_seq}; use 0 for the whole \
                 history or the last seq you received"
            )));
        }
        Ok(Subscription {
            viewer,
            seat_name: match viewer {
                Viewer::Seat(seat) => Some(self.seats[seat.index()].name),
                Viewer::Spectator => None,
            },
            presence: match viewer {
                Viewer::Seat(seat) => Some(PresenceGuard::open(&self.presence[seat.index()])),
                Viewer::Spectator => None,
            },
            start: StreamPosition {
                whole: self.log.position_after(viewer, after_seq),
                shown: after_seq,
            },
            backlog: self
                .log
                .after(self.log.position_after(viewer, after_seq))
                .to_vec(),
            live: self.live.subscribe(),
            ended: self.is_over(),
        })
    }

    /// Whether the game's turn differs from the one last announced.
    fn turn_is_new(&self) -> bool {
        let turn = self.game.turn();
        self.announced.as_ref().is_none_or(|last| {
            (&last.phase, &last.to_act, last.number) != (&turn.phase, &turn.to_act, turn.number)
        })
    }

    /// After a state change: end the match if the rules say so, else announce a new turn.
    fn after_change(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            self.end(outcome, pb::ResultReason::Rules, pb::MatchStatus::Finished);
            return;
        }
        if self.turn_is_new() {
            let turn = self.game.turn().clone();
            // A seat still to act in the same phase and turn number (the other seat of a
            // simultaneous phase having finished) keeps its clock running; every other seat
            // that was to act has completed its turn.
            let same_turn = self
                .announced
                .as_ref()
                .is_some_and(|last| (&last.phase, last.number) == (&turn.phase, turn.number));
            for index in 0..self.seats.len() {
                let seat = Seat(index as u8);
                if self.clocks.is_running(seat) && !(same_turn && turn.is_to_act(seat)) {
                    self.clocks.stop(seat, self.moment);
                }
            }
            for &seat in &turn.to_act {
                if !self.clocks.is_running(seat) {
                    self.clocks.start(seat, self.moment);
                }
            }
            let names = self.seat_names();
            let info = turn_to_proto(&turn, &names);
            self.record(
                Visibility::Public,
                pb::match_event::Kind::TurnStarted(pb::TurnStarted {
                    turn: Some(info),
                    deadline: self.clocks.next_deadline().map(|(_, at)| at.into()),
                    clocks: self.clocks.to_proto(self.moment, &names),
                }),
            );
            self.announced = Some(turn);
        }
    }

    fn record_lifecycle(&mut self, kind: LifecycleKind) {
        self.lifecycle.push(LifecycleEntry {
            position: 0,
            match_id: self.setup.match_id.clone(),
            variant_id: self.setup.variant_id.clone(),
            time: self.moment,
            kind,
        });
    }

    fn seat_holders(&self) -> Vec<SeatHolder> {
        self.seats
            .iter()
            .map(|seat| SeatHolder {
                seat: seat.name.to_owned(),
                player_name: seat.player_name.clone(),
                occupied: seat.token.is_some(),
            })
            .collect()
    }

    fn end(&mut self, outcome: Outcome, reason: pb::ResultReason, status: pb::MatchStatus) {
        let names = self.seat_names();
        let result = pb::MatchResult {
            winner: outcome
                .winner
                .map(|s| names[s.index()].to_owned())
                .unwrap_or_default(),
            scores: crate::games::scores_to_proto(&outcome.scores, &names),
            reason: reason as i32,
            detail: outcome.reason,
        };
        self.status = status;
        self.clocks.stop_all();
        self.draw_offer = None;
        self.open = None;
        tracing::info!(winner = %result.winner, detail = %result.detail, "match ended");
        self.record_lifecycle(LifecycleKind::Ended {
            ending: Ending {
                finished: status == pb::MatchStatus::Finished,
                winner: result.winner.clone(),
                scores: outcome.scores.clone(),
                reason: end_reason(reason),
                detail: result.detail.clone(),
            },
            seats: self.seat_holders(),
        });
        self.result = Some(result.clone());
        self.record(
            Visibility::Public,
            pb::match_event::Kind::MatchEnded(pb::MatchEnded {
                result: Some(result),
            }),
        );
    }
}

fn end_reason(reason: pb::ResultReason) -> EndReason {
    match reason {
        pb::ResultReason::Resignation => EndReason::Resignation,
        pb::ResultReason::Timeout => EndReason::Timeout,
        pb::ResultReason::DrawAgreed => EndReason::DrawAgreed,
        pb::ResultReason::Aborted => EndReason::Aborted,
        pb::ResultReason::Abandoned => EndReason::Abandoned,
        pb::ResultReason::Expired => EndReason::Expired,
        pb::ResultReason::Rules | pb::ResultReason::Unspecified => EndReason::Rules,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameRegistry;
    use crate::store::tests::scratch_store;

    const LIMITS: ActorLimits = ActorLimits {
        commands: 8,
        live_capacity: 64,
        expire_unstarted_after: None,
        unload_idle_after: None,
    };

    fn start_game() -> Box<dyn HostedGame> {
        GameRegistry::standard()
            .start(
                "soccer-chess",
                &BTreeMap::new(),
                pitchmate_rules::Seed::from_number(3),
                None,
            )
            .unwrap()
    }

    /// A stored match with both seats taken and `actions` actions played, each with a client
    /// action id; returns its handle, the tokens by seat and the answers by id.
    async fn played(
        store: &Store,
        actions: u32,
    ) -> (
        MatchHandle,
        HashMap<String, String>,
        Vec<(String, String, pb::SubmitActionResponse)>,
    ) {
        let setup = MatchSetup {
            match_id: "m".into(),
            variant_id: "soccer-chess".into(),
            options: BTreeMap::new(),
            chance: MatchChance::draw(Some(3)).unwrap(),
            start_position: None,
            create_time: SystemTime::now(),
            hosting: Hosting::default(),
        };
        let context = ActorContext::unwatched(LIMITS, store.clone());
        let handle = create(setup, start_game(), &context, None).await.unwrap();
        let mut tokens = HashMap::new();
        for _ in 0..2 {
            let joined = handle.join(None, "bot".into()).await.unwrap();
            tokens.insert(joined.seat, joined.seat_token);
        }
        let mut answers = Vec::new();
        for n in 0..actions {
            let summary = handle.summary();
            let seat = summary.turn.as_ref().unwrap().to_act[0].clone();
            let id = format!("{seat}-{n}");
            let submission = Submission {
                expected_version: summary.version,
                client_action_id: id.clone(),
                choice: ActionChoice::Index(n % 3),
            };
            let answer = handle
                .submit(Some(tokens[&seat].clone()), submission)
                .await
                .unwrap()
                .response;
            answers.push((seat, id, answer));
        }
        (handle, tokens, answers)
    }

    /// The summary watchers and listings read is refreshed in place after each command; it
    /// must always equal the summary built from scratch.
    #[tokio::test]
    async fn the_published_summary_equals_a_fresh_one_after_every_change() {
        let (store, dir) = scratch_store().await;
        let (handle, tokens, _) = played(&store, 0).await;
        let fresh = || async { handle.snapshot(None).await.unwrap().0 };
        assert_eq!(handle.summary(), fresh().await, "after both seats joined");
        let seat_to_act = || handle.summary().turn.unwrap().to_act[0].clone();

        let first = seat_to_act();
        let other = tokens.keys().find(|s| **s != first).unwrap().clone();
        for n in 0..30 {
            let seat = seat_to_act();
            let submission = Submission {
                expected_version: handle.summary().version,
                client_action_id: String::new(),
                choice: ActionChoice::Index(n % 3),
            };
            handle
                .submit(Some(tokens[&seat].clone()), submission)
                .await
                .unwrap();
            assert_eq!(handle.summary(), fresh().await, "after action {n}");
        }
        handle
            .seat_call(Some(tokens[&other].clone()), SeatCall::OfferDraw)
            .await
            .unwrap();
        let offered = handle.summary();
        assert_eq!(offered.draw_offered_by, other);
        assert_eq!(offered, fresh().await, "after a draw offer");
        handle
            .seat_call(Some(tokens[&other].clone()), SeatCall::Resign)
            .await
            .unwrap();
        let ended = handle.summary();
        assert_eq!(ended.status, pb::MatchStatus::Finished as i32);
        assert!(ended.result.is_some() && ended.draw_offered_by.is_empty());
        assert_eq!(ended, fresh().await, "after resigning");
        dir.remove();
    }

    #[tokio::test]
    async fn a_restored_match_is_the_stored_one_and_plays_on() {
        let (store, dir) = scratch_store().await;
        let (handle, tokens, answers) = played(&store, 12).await;
        let original = handle.events_after(0).await.unwrap();

        let stored = store.load("m").await.unwrap().unwrap();
        let mut stored_hashes: Vec<Vec<u8>> = stored
            .inputs
            .iter()
            .filter(|i| i.kind == crate::store::InputKind::Joined)
            .map(|i| i.token_hash.clone())
            .collect();
        let mut token_hashes: Vec<Vec<u8>> = tokens
            .values()
            .map(|t| TokenHash::of(t).as_bytes().to_vec())
            .collect();
        stored_hashes.sort();
        token_hashes.sort();
        assert_eq!(
            stored_hashes, token_hashes,
            "only the tokens' hashes are stored"
        );
        let restored = restore(
            &stored,
            start_game(),
            &ActorContext::unwatched(LIMITS, store.clone()),
        )
        .unwrap();
        assert_eq!(
            restored.events_after(0).await.unwrap(),
            original,
            "times included"
        );
        let (before, after) = (handle.summary(), restored.summary());
        assert_eq!(
            (
                after.version,
                after.status,
                after.last_seq,
                after.turn.clone()
            ),
            (before.version, before.status, before.last_seq, before.turn)
        );
        // The seats' tokens still work, and a retry gets its first answer.
        let (_, view) = restored
            .snapshot(Some(tokens["second"].clone()))
            .await
            .unwrap();
        assert_eq!(view.viewer_seat, "second");
        let (seat, id, first) = &answers[5];
        let retry = Submission {
            expected_version: 0,
            client_action_id: id.clone(),
            choice: ActionChoice::Index(0),
        };
        let again = restored
            .submit(Some(tokens[seat].clone()), retry)
            .await
            .unwrap()
            .response;
        assert_eq!(
            again,
            pb::SubmitActionResponse {
                duplicate: true,
                ..first.clone()
            }
        );
        drop(handle);

        // It plays on from where it stood, numbering on without a gap.
        let seat = after.turn.unwrap().to_act[0].clone();
        let next = Submission {
            expected_version: after.version,
            client_action_id: String::new(),
            choice: ActionChoice::Index(0),
        };
        let answer = restored
            .submit(Some(tokens[&seat].clone()), next)
            .await
            .unwrap();
        assert_eq!(answer.response.events[0].seq, after.last_seq + 1);
        let stored = store.load("m").await.unwrap().unwrap();
        assert_eq!(stored.events.len() as u64, restored.summary().last_seq);
        dir.remove();
    }

    #[tokio::test]
    async fn a_match_the_rules_no_longer_reproduce_is_refused() {
        let (store, dir) = scratch_store().await;
        played(&store, 6).await;
        let stored = store.load("m").await.unwrap().unwrap();

        let mut altered = stored.clone();
        let last = altered.events.last_mut().unwrap();
        last.kind = pb::MatchEvent {
            kind: Some(pb::match_event::Kind::MatchStarted(pb::MatchStarted {})),
            ..pb::MatchEvent::default()
        }
        .encode_to_vec();
        let error = restore(
            &altered,
            start_game(),
            &ActorContext::unwatched(LIMITS, store.clone()),
        )
        .unwrap_err();
        assert!(
            error.contains(&format!("from seq {}", stored.events.len())),
            "{error}"
        );

        let mut shortened = stored.clone();
        shortened.events.pop();
        assert!(
            restore(
                &shortened,
                start_game(),
                &ActorContext::unwatched(LIMITS, store.clone())
            )
            .is_err()
        );

        dir.remove();
    }
}
