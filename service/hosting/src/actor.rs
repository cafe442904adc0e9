//! The match actor: one tokio task per match, a thin shell around its [`Referee`]. Handlers
//! send it [`Command`]s through a bounded channel and await a oneshot reply, so every change to
//! a match happens in one place, in order. The actor owns what the referee does not: the
//! mailbox, the moment something falls due, which seats are connected, and commit-then-publish.
//!
//! Durability: an input that changes the match (a join, an action, a resignation) is written to
//! the store, inputs, events and idempotency answer in one append, before anyone learns of it:
//! the caller's reply, live watchers and the summary all wait for the commit. The actor takes
//! its next command only after that, so nothing it shows was ever lost by a crash. While the
//! store cannot write, a command that would change the match is refused with STORE_UNAVAILABLE
//! before it changes anything, and clocks and expiry wait. If a commit fails, the actor answers
//! STORE_UNAVAILABLE, reports its retirement and stops, dropping whatever it had not stored; the
//! registry rebuilds the match from what was committed (see `hosting`).
//!
//! In cluster mode an actor holds its match's lease ([`Tenure`]): every write carries the
//! lease's fencing token, and once the lease is found lost, or a write is refused as fenced,
//! the actor stops at once, writing nothing more; the calls it had not answered never happened.
//!
//! Presence: a seat counts as connected while it has an open event stream or made a call with
//! its token within the match's `abandon_after`; the referee is told how long the opponent has
//! been away when a seat claims victory.
//!
//! An expired match is over and its actor retires, so an abandoned or flooded match leaves
//! memory; so does a match nobody called or watched for `unload_idle_after`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Viewer};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tracing::Instrument;

use super::clock;
use super::durable;
use super::log::{EventLog, LoggedEvent};
use super::ownership::Tenure;
use super::referee::{
    Due, Mark, MatchSetup, Referee, SeatCall, Submission, Submitted, answer_again,
};
use super::slots::Slot;
use super::status::MatchStatus;
use super::summary::MatchSummary;
use super::token::{SeatToken, TokenHash, account_credential};
use crate::error::ServiceError;
use pitchmate_games::HostedGame;
use pitchmate_store::{AnswerRow, Append, MatchRow, StatusChange, Store, StoreError, StoredMatch};

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
        reply: Reply<(MatchSummary, pb::MatchView)>,
    },
    Join {
        seat: Option<String>,
        player_name: String,
        /// `None`: a fresh seat token.
        account: Option<String>,
        reply: Reply<Joined>,
    },
    LegalActions {
        token: Option<String>,
        detail: pb::ActionDetail,
        reply: Reply<pb::GetLegalActionsResponse>,
    },
    Submit {
        token: Option<String>,
        /// Boxed: it is the largest command by far, and every match's mailbox holds room for
        /// a block of commands.
        submission: Box<Submission>,
        reply: Reply<Submitted>,
    },
    Call {
        token: Option<String>,
        call: SeatCall,
        reply: Reply<MatchSummary>,
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
    /// The server is stopping and hands the match over (cluster mode): the actor stops once
    /// what it took before is stored, keeping its lease for the registry to release after.
    HandOver,
}

/// A seat taken: the token that acts for it, shown this once.
#[derive(Clone, Debug)]
pub struct Joined {
    pub seat_name: &'static str,
    pub seat_token: String,
    /// As the seat sees it.
    pub summary: MatchSummary,
}

/// What the actor publishes after every change, for reading without asking it.
#[derive(Clone, Debug)]
struct Published {
    /// The summary everyone may see.
    summary: MatchSummary,
    /// The newest seq of the whole log.
    last_seq: u64,
    /// Each seat's version, counting its hidden steps.
    seat_versions: Vec<u64>,
}

impl Published {
    fn of(referee: &Referee) -> Self {
        Published {
            summary: referee.summary(),
            last_seq: referee.log().last_seq(),
            seat_versions: referee.seat_versions().collect(),
        }
    }
}

/// The way to a match's actor, plus its summary without asking it.
#[derive(Clone, Debug)]
pub struct MatchHandle {
    commands: mpsc::Sender<Command>,
    published: watch::Receiver<Published>,
}

impl MatchHandle {
    /// The match's summary as of its last stored change, as everyone may see it.
    pub fn summary(&self) -> MatchSummary {
        self.published.borrow().summary.clone()
    }

    /// Whether both handles reach the same actor.
    pub fn same_actor(&self, other: &MatchHandle) -> bool {
        self.commands.same_channel(&other.commands)
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

    /// Asks the actor to stop for a hand-over (see [`Command::HandOver`]); one already stopped
    /// has nothing to hand over.
    pub async fn hand_over(&self) {
        let _ = self.commands.send(Command::HandOver).await;
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
    ) -> Result<(MatchSummary, pb::MatchView), ServiceError> {
        self.call(|reply| Command::Snapshot { token, reply }).await
    }

    /// Takes a seat with a fresh seat token, which the answer shows once.
    pub async fn join(
        &self,
        seat: Option<String>,
        player_name: String,
    ) -> Result<Joined, ServiceError> {
        self.call(|reply| Command::Join {
            seat,
            player_name,
            account: None,
            reply,
        })
        .await
    }

    /// Takes a seat for `account` (a bot), which acts by presenting its account credential
    /// (see [`crate::token::account_credential`]): the answer has no seat token.
    pub async fn join_as(
        &self,
        seat: Option<String>,
        player_name: String,
        account: String,
    ) -> Result<Joined, ServiceError> {
        self.call(|reply| Command::Join {
            seat,
            player_name,
            account: Some(account),
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
        let started = std::time::Instant::now();
        let submitted = self
            .call(|reply| Command::Submit {
                token,
                submission: Box::new(submission),
                reply,
            })
            .await;
        metrics::histogram!(crate::metrics::SUBMIT_SECONDS).record(started.elapsed());
        submitted
    }

    /// Resigns, offers or accepts a draw, aborts or claims victory for the token's seat.
    pub async fn seat_call(
        &self,
        token: Option<String>,
        call: SeatCall,
    ) -> Result<MatchSummary, ServiceError> {
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
    pub fn may_prompt(&self, seat: Seat, sent: u64, prompted: Option<u64>) -> bool {
        let published = self.published.borrow();
        let progress = &published.summary.progress;
        progress.status == MatchStatus::Active
            && published.last_seq == sent
            && prompted != published.seat_versions.get(seat.index()).copied()
            && progress.turn.is_to_act(seat)
    }
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
    /// A live match holds at least its newest this many events (at most twice as many); older
    /// ones are read from the store by the rare reader that needs them.
    pub event_tail: usize,
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
    /// Another server took the match's lease (cluster mode): this one writes nothing more.
    LeaseLost,
    /// The server is stopping and hands its matches over (cluster mode): the registry releases
    /// the lease once the actor has stopped.
    HandedOver,
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

/// How long a finished match nobody follows stays in memory after its last call, at most.
const FINISHED_GRACE: Duration = Duration::from_secs(2);

/// Returns once the lease is found lost; without one (cluster mode off), never.
async fn lease_lost(tenure: &mut Option<Tenure>) {
    match tenure {
        Some(tenure) => tenure.lost().await,
        None => std::future::pending().await,
    }
}

/// Sleeps until `at`; without one, forever.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

struct MatchActor {
    referee: Referee,
    presence: Vec<Arc<Presence>>,
    /// Made when the first watcher subscribes: most hosted matches are watched by nobody, and
    /// the channel holds `live_capacity` slots from the start.
    live: Option<broadcast::Sender<Arc<LoggedEvent>>>,
    live_capacity: usize,
    published: watch::Sender<Published>,
    store: Store,
    retired: mpsc::UnboundedSender<Retirement>,
    /// Counts the match against its creator's quota until it is over.
    open: Option<Slot<std::net::IpAddr>>,
    unload_idle_after: Option<Duration>,
    event_tail: usize,
    /// The match's lease, in cluster mode: every write carries its token.
    tenure: Option<Tenure>,
}

/// Stores a new match with its opening events, then starts its actor.
pub async fn create(
    setup: MatchSetup,
    game: Box<dyn HostedGame>,
    context: &ActorContext,
    open: Option<Slot<std::net::IpAddr>>,
    tenure: Option<Tenure>,
) -> Result<MatchHandle, ServiceError> {
    let mut referee = Referee::new(setup, game, context.limits.expire_unstarted_after);
    let row = MatchRow {
        match_id: referee.setup().match_id.clone(),
        variant_id: referee.setup().variant_id.clone(),
        status: referee.status().to_wire(),
        setup: durable::setup_to_bytes(referee.setup()),
        summary: durable::progress_to_bytes(&referee.progress()),
    };
    let events = referee
        .log()
        .held()
        .iter()
        .map(|e| durable::event_row(e))
        .collect();
    let lifecycle = referee
        .take_lifecycle()
        .into_iter()
        .map(|e| e.to_row())
        .collect();
    let fence = tenure.as_ref().map(Tenure::token);
    context
        .store
        .create_fenced(row, events, lifecycle, fence)
        .await
        .map_err(|error| {
            tracing::error!(%error, "cannot store a new match");
            ServiceError::StoreUnavailable(format!("the match could not be stored: {error}"))
        })?;
    let mut actor = MatchActor::new(referee, context, tenure);
    actor.open = open;
    Ok(actor.start(context.limits))
}

/// Rebuilds a stored match (see [`Referee::rebuild`]) and starts its actor.
pub fn restore(
    stored: &StoredMatch,
    game: Box<dyn HostedGame>,
    context: &ActorContext,
    tenure: Option<Tenure>,
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
    let answered = stored
        .answers
        .iter()
        .map(durable::answer_from_row)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let referee = Referee::rebuild(
        setup,
        game,
        context.limits.expire_unstarted_after,
        inputs,
        events,
        answered,
    )?;
    let mut actor = MatchActor::new(referee, context, tenure);
    actor.referee.forget_stored(actor.event_tail);
    // Nothing more is written of a match that is over: its lease is not needed.
    if actor.referee.is_over()
        && let Some(tenure) = &actor.tenure
    {
        tenure.release();
    }
    // The server was down, not the players: everyone gets `abandon_after` from now to return.
    let now = clock::now();
    actor.presence.iter().for_each(|p| p.seen(now));
    Ok(actor.start(context.limits))
}

impl MatchActor {
    fn new(referee: Referee, context: &ActorContext, tenure: Option<Tenure>) -> Self {
        let (published, _) = watch::channel(Published::of(&referee));
        let seats = referee.info().seats.len();
        MatchActor {
            presence: (0..seats).map(|_| Arc::default()).collect(),
            referee,
            live: None,
            live_capacity: context.limits.live_capacity,
            published,
            store: context.store.clone(),
            retired: context.retired.clone(),
            open: None,
            unload_idle_after: context.limits.unload_idle_after,
            event_tail: context.limits.event_tail,
            tenure,
        }
    }

    fn start(self, limits: ActorLimits) -> MatchHandle {
        let published = self.published.subscribe();
        let span = tracing::info_span!(
            "match",
            match_id = %self.referee.setup().match_id,
            variant = %self.referee.setup().variant_id,
        );
        let (commands, receiver) = mpsc::channel(limits.commands);
        tokio::spawn(self.run(receiver).instrument(span));
        MatchHandle {
            commands,
            published,
        }
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        tracing::info!(last_seq = self.referee.log().last_seq(), "match hosted");
        let mut health = self.store.health();
        let mut last_call = tokio::time::Instant::now();
        loop {
            // Nothing falls due while the store cannot write: a timeout or an expiry it could
            // not store would be lost. It falls due as soon as the store writes again.
            let due = self.referee.next_due();
            let writable = self.store.writable();
            // A match with something due stays: nobody else would make it happen.
            let idle_at = self
                .unload_idle_after
                .filter(|_| due.is_none())
                .map(|after| {
                    // Nothing more happens to a finished match: it waits only for the calls
                    // that usually follow its end (the result, the replay).
                    let after = if self.referee.is_over() {
                        after.min(FINISHED_GRACE)
                    } else {
                        after
                    };
                    last_call + after
                });
            let handled = tokio::select! {
                // A lease found lost comes first: nothing more may be written. Then a moment
                // that passed while the actor was busy comes before any command that arrived
                // meanwhile: a late action is refused, not accepted.
                biased;
                () = lease_lost(&mut self.tenure) => Ok(Some(RetireReason::LeaseLost)),
                () = sleep_until(due.map(|(at, _)| clock::instant_at(at))), if writable && due.is_some() => {
                    match due {
                        // An expired match is over and nobody took all its seats: it has no
                        // reason to stay in memory.
                        Some((_, due)) => Box::pin(self.fall_due(due))
                            .await
                            .map(|()| (due == Due::Expiry).then_some(RetireReason::Expired)),
                        None => Ok(None),
                    }
                }
                command = commands.recv() => match command {
                    Some(Command::HandOver) => Ok(Some(RetireReason::HandedOver)),
                    Some(command) => {
                        last_call = tokio::time::Instant::now();
                        // Boxed: handling a command is the largest state the task goes
                        // through, and every hosted match's task would hold room for it.
                        Box::pin(self.handle(command)).await.map(|()| None)
                    }
                    None => break,
                },
                () = sleep_until(idle_at), if idle_at.is_some() => {
                    // Every open stream holds a receiver of the live events.
                    if self.live.as_ref().is_none_or(|live| live.receiver_count() == 0) {
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
                if matches!(error, StoreError::Fenced { .. }) {
                    tracing::warn!(
                        %error,
                        "another server took the match's lease; it leaves this one"
                    );
                    return Some(RetireReason::LeaseLost);
                }
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
                        if Box::pin(self.handle(command)).await.is_err() {
                            break;
                        }
                    }
                }
                // A finished match's summary was stored as it ended; in cluster mode it has
                // given its lease up since, so a write now would be refused.
                let released = self.tenure.is_some() && self.referee.is_over();
                let leaving = matches!(reason, RetireReason::Idle | RetireReason::HandedOver);
                if leaving && !released {
                    Box::pin(self.store_summary()).await;
                }
                if let Some(tenure) = &self.tenure {
                    // Calls still queued were never taken: their callers hear the actor
                    // stopped, and the registry says who owns the match now.
                    match reason {
                        RetireReason::LeaseLost => tenure.forget(),
                        // Released by the registry once every actor has stopped.
                        RetireReason::HandedOver => {}
                        _ => tenure.release(),
                    }
                }
                let _ = self.retired.send(Retirement {
                    match_id: self.referee.setup().match_id.clone(),
                    reason,
                });
                return;
            }
        }
        tracing::debug!("match actor stopped: no handle left");
    }

    /// Stores the summary as it is now, for listings, which read the store once the match has
    /// left memory. Without it they show the summary of the last status change.
    async fn store_summary(&self) {
        let append = Append {
            match_id: self.referee.setup().match_id.clone(),
            inputs: Vec::new(),
            events: Vec::new(),
            answer: None,
            status: Some(StatusChange {
                status: self.referee.status().to_wire(),
                summary: durable::progress_to_bytes(&self.referee.progress()),
            }),
            lifecycle: Vec::new(),
        };
        if let Err(error) = self.store.append_fenced(append, self.fence()).await {
            tracing::warn!(%error, "the summary of a match leaving memory was not stored");
        }
    }

    /// A clock ran out or the match expired: the referee says what follows, then it is stored.
    async fn fall_due(&mut self, due: Due) -> Result<(), StoreError> {
        let mark = self.referee.mark();
        self.referee.fall_due(due, clock::now());
        self.commit(mark, None).await
    }

    /// Makes what happened since `mark` durable, then lets watchers and listings see it.
    async fn commit(&mut self, mark: Mark, answer: Option<AnswerRow>) -> Result<(), StoreError> {
        let referee = &mut self.referee;
        if referee.log().last_seq() == mark.seq && referee.inputs_since(mark.inputs).is_empty() {
            return Ok(());
        }
        let append = Append {
            match_id: referee.setup().match_id.clone(),
            inputs: referee
                .inputs_since(mark.inputs)
                .iter()
                .enumerate()
                .map(|(offset, input)| durable::input_row(mark.inputs + offset, input))
                .collect(),
            events: referee
                .log()
                .appended_after(mark.seq)
                .iter()
                .map(|e| durable::event_row(e))
                .collect(),
            answer,
            status: (referee.status() != mark.status).then(|| StatusChange {
                status: referee.status().to_wire(),
                summary: durable::progress_to_bytes(&referee.progress()),
            }),
            lifecycle: referee
                .take_lifecycle()
                .into_iter()
                .map(|e| e.to_row())
                .collect(),
        };
        self.store.append_fenced(append, self.fence()).await?;
        if self.referee.is_over() {
            self.open = None;
            // Nothing more is written of it but its summary when it leaves memory, which may
            // be refused once another server has taken the lease.
            if let Some(tenure) = &self.tenure {
                tenure.release();
            }
        }
        // The summary first: a watcher that has sent the newest event reads a summary at least
        // that new, so it can tell when its seat is due to act (see `MatchHandle::may_prompt`).
        self.publish();
        for event in self.referee.log().appended_after(mark.seq) {
            // No receiver is fine: nobody is watching. Sending never waits: a watcher too far
            // behind is told it lagged and catches up from the log.
            if let Some(live) = &self.live {
                let _ = live.send(Arc::clone(event));
            }
        }
        self.referee.forget_stored(self.event_tail);
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
            // The change did not happen, and this actor stops: the registry sends the call on
            // to whoever hosts the match now.
            Err(error @ StoreError::Fenced { .. }) => {
                let _ = reply.send(Err(ServiceError::ActorStopped));
                Err(error)
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
        // A dropped reply means the caller went away; the work is done regardless.
        match command {
            Command::Snapshot { token, reply } => {
                let _ =
                    reply.send(self.viewer(token.as_deref()).map(|viewer| {
                        (self.referee.summary_for(viewer), self.referee.view(viewer))
                    }));
            }
            Command::Join {
                seat,
                player_name,
                account,
                reply,
            } => {
                let mark = self.referee.mark();
                let result = self.join(seat, player_name, account);
                return self.reply_after_commit(mark, None, result, reply).await;
            }
            Command::LegalActions {
                token,
                detail,
                reply,
            } => {
                let _ = reply.send(
                    self.viewer(token.as_deref())
                        .map(|viewer| self.referee.legal_actions(viewer, detail)),
                );
            }
            Command::Submit {
                token,
                submission,
                reply,
            } => {
                let mark = self.referee.mark();
                return match self.submit(token.as_deref(), *submission).await {
                    Ok((response, answer)) => {
                        let duplicate = response.duplicate;
                        let stored = self
                            .reply_after_commit(mark, answer, Ok(response), reply)
                            .await;
                        match (&stored, duplicate) {
                            (Ok(()), false) => {
                                metrics::counter!(crate::metrics::ACTIONS_ACCEPTED).increment(1);
                            }
                            (Ok(()), true) => {
                                metrics::counter!(crate::metrics::ACTIONS_DUPLICATE).increment(1);
                            }
                            (Err(_), _) => refused("STORE_UNAVAILABLE"),
                        }
                        stored
                    }
                    Err(error) => {
                        refused(error.reason());
                        let _ = reply.send(Err(error));
                        Ok(())
                    }
                };
            }
            Command::Call { token, call, reply } => {
                let mark = self.referee.mark();
                let result = self.seat_call(token.as_deref(), call);
                return self.reply_after_commit(mark, None, result, reply).await;
            }
            Command::Watch {
                token,
                after_seq,
                reply,
            } => {
                let _ = reply.send(self.watch(token.as_deref(), after_seq).await);
            }
            Command::EventsAfter { after_seq, reply } => {
                let events = match self.referee.log().after(after_seq) {
                    Some(events) => Ok(events.to_vec()),
                    None => Box::pin(self.stored_log())
                        .await
                        .map(|(log, _)| log.after(after_seq).unwrap_or_default().to_vec()),
                };
                let _ = reply.send(events);
            }
            Command::YourTurn {
                seat,
                after_seq,
                detail,
                reply,
            } => {
                let _ = reply.send(Ok(self.referee.your_turn(seat, after_seq, detail)));
            }
            // Taken from the mailbox of an actor already retiring: it stops anyway.
            Command::HandOver => {}
        }
        Ok(())
    }

    /// For calls that act: the token's seat, which counts as connected for the call.
    fn authenticate(&self, token: Option<&str>) -> Result<Seat, ServiceError> {
        let seat = self.referee.authenticate(token)?;
        self.presence[seat.index()].seen(clock::now());
        Ok(seat)
    }

    /// For calls that look: no token is a spectator, a wrong one is an error; a seat's token
    /// counts as the seat being connected.
    fn viewer(&self, token: Option<&str>) -> Result<Viewer, ServiceError> {
        match token {
            None => Ok(Viewer::Spectator),
            Some(token) => self.authenticate(Some(token)).map(Viewer::Seat),
        }
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

    /// The fencing token every write of the match carries; `None` outside cluster mode.
    fn fence(&self) -> Option<u64> {
        self.tenure.as_ref().map(Tenure::token)
    }

    fn publish(&self) {
        self.published.send_modify(|published| {
            self.referee.refresh(&mut published.summary.progress);
            published.last_seq = self.referee.log().last_seq();
            published.seat_versions.clear();
            published.seat_versions.extend(self.referee.seat_versions());
        });
    }

    fn join(
        &mut self,
        seat: Option<String>,
        player_name: String,
        account: Option<String>,
    ) -> Result<Joined, ServiceError> {
        self.require_writable()?;
        let (hash, seat_token) = match &account {
            Some(account) => (TokenHash::of(&account_credential(account)), String::new()),
            None => {
                let token = SeatToken::generate().map_err(|e| {
                    ServiceError::Unavailable(format!("no randomness for a seat token: {e}"))
                })?;
                (token.hash(), token.reveal())
            }
        };
        let now = clock::now();
        let seat = self.referee.join(seat, player_name, hash, account, now)?;
        self.presence[seat.index()].seen(now);
        Ok(Joined {
            seat_name: self.referee.seat_name(seat),
            seat_token,
            summary: self.referee.summary_for(Viewer::Seat(seat)),
        })
    }

    /// The response, and the answer to store when the submission carries a client action id.
    async fn submit(
        &mut self,
        token: Option<&str>,
        submission: Submission,
    ) -> Result<(Submitted, Option<AnswerRow>), ServiceError> {
        let seat = self.authenticate(token)?;
        if let Some(again) = self
            .referee
            .answered_before(seat, &submission.client_action_id)
        {
            return Ok((again, None));
        }
        self.require_writable()?;
        let client_action_id = submission.client_action_id.clone();
        match self.referee.submit(seat, submission, clock::now()) {
            Ok((submitted, answered)) => {
                let row = answered
                    .map(|answered| durable::answer_row(seat, &client_action_id, &answered));
                Ok((submitted, row))
            }
            // A retry of an action accepted long ago comes with the version it was chosen at,
            // or after the end; its answer is in the store once the log no longer holds it.
            Err(
                refusal @ (ServiceError::StaleVersion { .. } | ServiceError::MatchNotActive { .. }),
            ) if !client_action_id.is_empty() && self.referee.forgot_answers() => {
                // Boxed, like every read of the stored log: rare, and its future would otherwise
                // make every match's task larger.
                match Box::pin(self.stored_answer(seat, &client_action_id)).await? {
                    Some(again) => Ok((again, None)),
                    None => Err(refusal),
                }
            }
            Err(refusal) => Err(refusal),
        }
    }

    /// The match as the store holds it, its log numbered from the first event, for the rare
    /// reader that needs what the actor no longer holds. The actor takes a command only once
    /// everything before it is stored, so the store has every event the actor has recorded.
    async fn stored_log(&self) -> Result<(EventLog, StoredMatch), ServiceError> {
        let match_id = &self.referee.setup().match_id;
        let stored = self
            .store
            .load(match_id)
            .await
            .map_err(|e| {
                ServiceError::StoreUnavailable(format!("the match's history cannot be read: {e}"))
            })?
            .ok_or_else(|| {
                ServiceError::StoreUnavailable("the match's history is not in the store".into())
            })?;
        let log = durable::log_from_rows(&stored.events, self.referee.setup(), self.referee.game())
            .map_err(|detail| ServiceError::MatchNotRebuildable {
                match_id: match_id.clone(),
                detail,
            })?;
        if log.last_seq() != self.referee.log().last_seq() {
            return Err(ServiceError::StoreUnavailable(format!(
                "the store holds {} events of the match where {} were recorded",
                log.last_seq(),
                self.referee.log().last_seq()
            )));
        }
        Ok((log, stored))
    }

    /// The stored answer to a submission of `seat` with this client action id, answered again.
    async fn stored_answer(
        &self,
        seat: Seat,
        client_action_id: &str,
    ) -> Result<Option<Submitted>, ServiceError> {
        let (log, stored) = self.stored_log().await?;
        let Some(row) = stored
            .answers
            .iter()
            .find(|row| row.seat == seat.0 && row.client_action_id == client_action_id)
        else {
            return Ok(None);
        };
        let (_, first) =
            durable::answer_from_row(row).map_err(|e| ServiceError::MatchNotRebuildable {
                match_id: self.referee.setup().match_id.clone(),
                detail: e.to_string(),
            })?;
        Ok(answer_again(&log, seat, &first))
    }

    fn seat_call(
        &mut self,
        token: Option<&str>,
        call: SeatCall,
    ) -> Result<MatchSummary, ServiceError> {
        let seat = self.authenticate(token)?;
        self.require_writable()?;
        let now = clock::now();
        let opponent_away = self.presence[seat.opponent().index()].away_for(now);
        self.referee.seat_call(seat, call, opponent_away, now)
    }

    async fn watch(
        &mut self,
        token: Option<&str>,
        after_seq: u64,
    ) -> Result<Subscription, ServiceError> {
        let viewer = self.viewer(token)?;
        let log = self.referee.log();
        let last_seq = log.last_seq_for(viewer);
        if after_seq > last_seq {
            return Err(ServiceError::InvalidArgument(format!(
                "after_seq {after_seq} is beyond the newest event {last_seq}; use 0 for the whole \
                 history or the last seq you received"
            )));
        }
        let (whole, backlog) = match log.position_after(viewer, after_seq) {
            Some(whole) => (whole, log.after(whole).unwrap_or_default().to_vec()),
            None => {
                let (stored, _) = Box::pin(self.stored_log()).await?;
                let whole = stored.position_after(viewer, after_seq).unwrap_or(0);
                (whole, stored.after(whole).unwrap_or_default().to_vec())
            }
        };
        let start = StreamPosition {
            whole,
            shown: after_seq,
        };
        let capacity = self.live_capacity;
        let live = self
            .live
            .get_or_insert_with(|| broadcast::channel(capacity).0)
            .subscribe();
        Ok(Subscription {
            viewer,
            seat_name: match viewer {
                Viewer::Seat(seat) => Some(self.referee.seat_name(seat)),
                Viewer::Spectator => None,
            },
            presence: match viewer {
                Viewer::Seat(seat) => Some(PresenceGuard::open(&self.presence[seat.index()])),
                Viewer::Spectator => None,
            },
            backlog,
            start,
            live,
            ended: self.referee.is_over(),
        })
    }
}

/// Counts an action refused with the stable `reason` its caller is given.
fn refused(reason: &'static str) {
    metrics::counter!(crate::metrics::ACTIONS_REFUSED, "reason" => reason).increment(1);
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use prost::Message;

    use super::*;
    use crate::chance::MatchChance;
    use crate::clock::Hosting;
    use pitchmate_games::{ActionChoice, GameRegistry};
    use pitchmate_store::scratch::scratch_store;

    const LIMITS: ActorLimits = ActorLimits {
        commands: 8,
        live_capacity: 64,
        expire_unstarted_after: None,
        unload_idle_after: None,
        event_tail: 64,
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

    /// The setup of the Soccer Chess match "m", created now.
    /// The name of the seat to act and the version to expect.
    fn to_act(handle: &MatchHandle) -> (String, u64) {
        let progress = handle.summary().progress;
        let seat = progress.turn.to_act[0];
        (progress.seats[seat.index()].name.clone(), progress.version)
    }

    fn setup(hosting: Hosting) -> MatchSetup {
        MatchSetup {
            match_id: "m".into(),
            variant_id: "soccer-chess".into(),
            rules_version: "1".into(),
            options: BTreeMap::new(),
            chance: MatchChance::draw(Some(3)).unwrap(),
            start_position: None,
            create_time: clock::now(),
            hosting,
            reservation: None,
        }
    }

    /// A stored match with both seats taken and `actions` actions played, each with a client
    /// action id; returns its handle, the tokens by seat and the answers by id.
    async fn played(
        store: &Store,
        actions: u32,
    ) -> (
        MatchHandle,
        HashMap<String, String>,
        Vec<(String, String, Submitted)>,
    ) {
        played_holding(store, actions, LIMITS.event_tail).await
    }

    /// [`played`], by an actor that holds at least `event_tail` events.
    async fn played_holding(
        store: &Store,
        actions: u32,
        event_tail: usize,
    ) -> (
        MatchHandle,
        HashMap<String, String>,
        Vec<(String, String, Submitted)>,
    ) {
        let limits = ActorLimits {
            event_tail,
            ..LIMITS
        };
        let context = ActorContext::unwatched(limits, store.clone());
        let handle = create(
            setup(Hosting::default()),
            start_game(),
            &context,
            None,
            None,
        )
        .await
        .unwrap();
        let mut tokens = HashMap::new();
        for _ in 0..2 {
            let joined = handle.join(None, "bot".into()).await.unwrap();
            tokens.insert(joined.seat_name.to_owned(), joined.seat_token);
        }
        let mut answers = Vec::new();
        for n in 0..actions {
            let (seat, version) = to_act(&handle);
            let id = format!("{seat}-{n}");
            let submission = Submission {
                expected_version: version,
                client_action_id: id.clone(),
                choice: ActionChoice::Index(n % 3),
            };
            let answer = handle
                .submit(Some(tokens[&seat].clone()), submission)
                .await
                .unwrap();
            answers.push((seat, id, answer));
        }
        (handle, tokens, answers)
    }

    /// A seat counts as connected while its event stream is open, then for `abandon_after`
    /// after the stream closed or after its last call with its token; only then may its
    /// opponent claim victory.
    #[tokio::test(start_paused = true)]
    async fn presence_follows_streams_and_calls() {
        let (store, dir) = scratch_store().await;
        let second = Duration::from_secs(1);
        let hosting = Hosting {
            abandon_after: 30 * second,
            ..Hosting::default()
        };
        let context = ActorContext::unwatched(LIMITS, store.clone());
        let handle = create(setup(hosting), start_game(), &context, None, None)
            .await
            .unwrap();
        let claimant = handle.join(None, "claimant".into()).await.unwrap();
        let absent = handle.join(None, "absent".into()).await.unwrap();
        let claim = || handle.seat_call(Some(claimant.seat_token.clone()), SeatCall::ClaimVictory);
        let refused = |result: Result<MatchSummary, ServiceError>| {
            assert_eq!(result.unwrap_err().reason(), "OPPONENT_CONNECTED");
        };

        let stream = handle
            .watch(Some(absent.seat_token.clone()), 0)
            .await
            .unwrap();
        tokio::time::sleep(60 * second).await;
        refused(claim().await);
        // The stream closes; the seat counts as present for 30 s more.
        drop(stream);
        tokio::time::sleep(29 * second).await;
        refused(claim().await);
        // A call with its token counts as being back.
        handle
            .snapshot(Some(absent.seat_token.clone()))
            .await
            .unwrap();
        tokio::time::sleep(29 * second).await;
        refused(claim().await);
        tokio::time::sleep(2 * second).await;
        let ended = claim().await.unwrap().progress;
        let winner = ended.result.unwrap().winner.unwrap();
        assert_eq!(ended.seats[winner.index()].name, claimant.seat_name);
        dir.remove();
    }

    /// The summary watchers and listings read is refreshed in place after each command; it
    /// must always equal the summary built from scratch.
    #[tokio::test]
    async fn the_published_summary_equals_a_fresh_one_after_every_change() {
        let (store, dir) = scratch_store().await;
        let (handle, tokens, _) = played(&store, 0).await;
        let fresh = || async { handle.snapshot(None).await.unwrap().0 };
        assert_eq!(handle.summary(), fresh().await, "after both seats joined");

        let (first, _) = to_act(&handle);
        let other = tokens.keys().find(|s| **s != first).unwrap().clone();
        for n in 0..30 {
            let (seat, version) = to_act(&handle);
            let submission = Submission {
                expected_version: version,
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
        let by = offered.progress.draw_offered_by.unwrap();
        assert_eq!(offered.progress.seats[by.index()].name, other);
        assert_eq!(offered, fresh().await, "after a draw offer");
        handle
            .seat_call(Some(tokens[&other].clone()), SeatCall::Resign)
            .await
            .unwrap();
        let ended = handle.summary();
        assert_eq!(ended.progress.status, MatchStatus::Finished);
        assert!(ended.progress.result.is_some() && ended.progress.draw_offered_by.is_none());
        assert_eq!(ended, fresh().await, "after resigning");
        dir.remove();
    }

    /// A long match holds only its newest events; whoever needs older ones gets them from the
    /// store, numbered exactly as if the actor had held them all.
    #[tokio::test]
    async fn older_events_and_answers_come_from_the_store() {
        let (store, dir) = scratch_store().await;
        let (handle, tokens, answers) = played_holding(&store, 40, 4).await;
        let stored_log = || async {
            let stored = store.load("m").await.unwrap().unwrap();
            let setup = durable::setup_from_bytes(&stored.row.setup).unwrap();
            durable::log_from_rows(&stored.events, &setup, start_game().as_ref()).unwrap()
        };
        let whole = stored_log().await;
        assert!(whole.last_seq() > 80);
        assert_eq!(handle.events_after(0).await.unwrap(), whole.held());
        assert_eq!(handle.events_after(30).await.unwrap(), &whole.held()[30..]);

        // Watchers from the start, or resuming after an event long gone from memory, get
        // everything after it in order and then live events.
        for (token, viewer) in [
            (None, Viewer::Spectator),
            (Some(tokens["first"].clone()), Viewer::Seat(Seat(0))),
        ] {
            for after_seq in [0, 7] {
                let mut subscription = handle.watch(token.clone(), after_seq).await.unwrap();
                let seqs: Vec<u64> = subscription
                    .backlog
                    .iter()
                    .filter_map(|e| e.view_for(viewer))
                    .map(|e| e.seq)
                    .collect();
                let last = stored_log().await.last_seq_for(viewer);
                assert_eq!(seqs, (after_seq + 1..=last).collect::<Vec<_>>());
                let (seat, version) = to_act(&handle);
                let next = Submission {
                    expected_version: version,
                    client_action_id: String::new(),
                    choice: ActionChoice::Index(0),
                };
                handle
                    .submit(Some(tokens[&seat].clone()), next)
                    .await
                    .unwrap();
                let live = subscription.live.recv().await.unwrap();
                assert_eq!(
                    live.seq,
                    subscription.backlog.last().unwrap().seq + 1,
                    "live events follow the backlog"
                );
            }
        }

        // A retry of the first action answers as the first time, also after the match ended.
        let (seat, id, first) = &answers[0];
        let retry = || Submission {
            expected_version: 0,
            client_action_id: id.clone(),
            choice: ActionChoice::Index(0),
        };
        let duplicate = Submitted {
            duplicate: true,
            ..first.clone()
        };
        let again = handle.submit(Some(tokens[seat].clone()), retry()).await;
        assert_eq!(again.unwrap(), duplicate);
        let unknown = Submission {
            client_action_id: "never-sent".into(),
            ..retry()
        };
        let refused = handle.submit(Some(tokens[seat].clone()), unknown).await;
        assert_eq!(refused.unwrap_err().reason(), "STALE_VERSION");
        handle
            .seat_call(Some(tokens["second"].clone()), SeatCall::Resign)
            .await
            .unwrap();
        let again = handle.submit(Some(tokens[seat].clone()), retry()).await;
        assert_eq!(again.unwrap(), duplicate);
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
            .filter(|i| i.kind == pitchmate_store::InputKind::Joined)
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
            None,
        )
        .unwrap();
        assert_eq!(
            restored.events_after(0).await.unwrap(),
            original,
            "times included"
        );
        let (before, after) = (handle.summary().progress, restored.summary().progress);
        assert_eq!(after, before);
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
            .unwrap();
        assert_eq!(
            again,
            Submitted {
                duplicate: true,
                ..first.clone()
            }
        );
        drop(handle);

        // It plays on from where it stood, numbering on without a gap.
        let (seat, _) = to_act(&restored);
        let next = Submission {
            expected_version: after.version,
            client_action_id: String::new(),
            choice: ActionChoice::Index(0),
        };
        let answer = restored
            .submit(Some(tokens[&seat].clone()), next)
            .await
            .unwrap();
        assert_eq!(answer.events[0].seq, after.last_seq + 1);
        let stored = store.load("m").await.unwrap().unwrap();
        assert_eq!(
            stored.events.len() as u64,
            restored.summary().progress.last_seq
        );
        dir.remove();
    }

    #[tokio::test]
    async fn a_match_the_rules_no_longer_reproduce_is_refused() {
        let (store, dir) = scratch_store().await;
        played(&store, 6).await;
        let stored = store.load("m").await.unwrap().unwrap();

        // Another event in its place: as the store keeps events now, and as it kept them
        // before (their wire form).
        let legacy = pb::MatchEvent {
            kind: Some(pb::match_event::Kind::MatchStarted(pb::MatchStarted {})),
            ..pb::MatchEvent::default()
        }
        .encode_to_vec();
        for replacement in [stored.events[1].kind.clone(), legacy] {
            let mut altered = stored.clone();
            altered.events.last_mut().unwrap().kind = replacement;
            let error = restore(
                &altered,
                start_game(),
                &ActorContext::unwatched(LIMITS, store.clone()),
                None,
            )
            .unwrap_err();
            assert!(
                error.contains(&format!("from seq {}", stored.events.len())),
                "{error}"
            );
        }

        let mut shortened = stored.clone();
        shortened.events.pop();
        assert!(
            restore(
                &shortened,
                start_game(),
                &ActorContext::unwatched(LIMITS, store.clone()),
                None,
            )
            .is_err()
        );

        dir.remove();
    }
}
