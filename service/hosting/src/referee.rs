//! The referee: one match's rules of hosting, synchronous and deterministic. It owns the game,
//! the seats, the version, the clocks, the draw offer and the endings; it takes an input and the
//! time it happens, and either records what follows in the match's log or refuses it without
//! changing anything. It knows nothing of tasks, channels or the store: the actor (see `actor`)
//! feeds it, stores what it recorded and publishes it.
//!
//! Versions: a match starts at version 0 and every accepted action adds one; a resignation also
//! adds one, because it changes the state a pending action was chosen against.
//!
//! A submission is checked in this order, stopping at the first failure: a retry of an answered
//! `client_action_id` (answered again, `duplicate = true`); the match is active
//! (MATCH_NOT_ACTIVE); `expected_version` is current (STALE_VERSION); it is the seat's turn
//! (NOT_YOUR_TURN); the action is readable and legal (INVALID_ARGUMENT for a bad index or typed
//! action, MALFORMED_NOTATION, ILLEGAL_ACTION). The seat token is checked before, by
//! [`Referee::authenticate`].
//!
//! Ending a match besides the rules: a seat may resign, offer a draw (in variants that can end
//! drawn; the offer stands until the opponent accepts it or plays an action), accept the
//! opponent's offer, abort before any action was played, or claim victory once its opponent
//! has been away for the match's `abandon_after` (how long it was away is the caller's to say:
//! it follows connections). Each of these is an input and an event, so replays reproduce them.
//! Endings add one to the version, like a resignation; a draw offer does not, because it leaves
//! the state an action is chosen against unchanged.
//!
//! Clocks: with a time control, a seat's clock runs while it is among the seats to act. When it
//! runs out ([`Referee::next_due`]), the timeout policy applies: the seat forfeits, or the
//! referee plays the game's default actions for it until its turn is over (logged as inputs
//! marked as played for a timeout, so replays reproduce them), forfeiting at the configured
//! count of consecutive timeouts. The time an input is given is the time of its events; a
//! rebuilt match replays each input at its stored events' time, so its clocks are the ones it
//! had, never fresh ones.
//!
//! Expiry: a match whose seats are not all taken `expire_unstarted_after` its creation is
//! aborted (an input and a `match_ended` event with reason EXPIRED, like any ending).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Outcome, Seat, Turn, VariantInfo, Viewer, Visibility};

use super::clock::{Clocks, TimeoutPolicy};
use super::event::{MatchEnd, MatchEvent};
use super::lifecycle::{EndReason, Ending, LifecycleEntry, LifecycleKind, SeatHolder};
use super::log::{EventLog, Kept, KeptEvent, LoggedEvent, NewEvent};
pub use super::setup::MatchSetup;
use super::status::MatchStatus;
use super::summary::{MatchProgress, MatchSummary, SeatProgress};
use super::token::{TokenHash, is_account_credential};
use crate::error::ServiceError;
use pitchmate_games::{ActionChoice, HostedGame, turn_to_proto};

/// An accepted input, in the order accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// The token's hash lets a rebuilt match still admit the seat's player.
    Joined {
        seat: Seat,
        player_name: String,
        token_hash: TokenHash,
        /// The account (a bot) that holds the seat, when it was taken with one's credential.
        account: Option<String>,
    },
    /// `for_timeout` when the server played it for a seat that ran out of time.
    Acted {
        seat: Seat,
        action: RecordedAction,
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

/// An accepted action as kept to be replayed.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordedAction {
    /// In the game's canonical notation, which reads back as the same action in the same state.
    Notation(String),
    /// In the typed form of the wire contract: actions stored before the store kept its own
    /// format.
    Typed(pb::Action),
}

impl RecordedAction {
    fn choice(self) -> ActionChoice {
        match self {
            RecordedAction::Notation(notation) => ActionChoice::Notation(notation),
            RecordedAction::Typed(action) => ActionChoice::Typed(action),
        }
    }
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

/// An action request as the referee checks it.
#[derive(Clone, Debug)]
pub struct Submission {
    pub expected_version: u64,
    /// Empty: no idempotency.
    pub client_action_id: String,
    pub choice: ActionChoice,
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

/// The answer `first` again, as a duplicate, from a log that holds its events.
pub fn answer_again(log: &EventLog, seat: Seat, first: &Answered) -> Option<Submitted> {
    let events = log.after(first.after_seq)?;
    let events = &events[..first.events.min(events.len())];
    Some(Submitted {
        seat,
        version: first.version,
        events: events.to_vec(),
        duplicate: true,
    })
}

/// What a seat is told of its accepted submission, or of a retry of one.
#[derive(Clone, Debug, PartialEq)]
pub struct Submitted {
    pub seat: Seat,
    /// The seat's version after the action.
    pub version: u64,
    /// The events the action caused, in the whole log: the seat is shown those it may see.
    pub events: Vec<Arc<LoggedEvent>>,
    /// A retry: the action was accepted before, and this is its first answer again.
    pub duplicate: bool,
}

impl Submitted {
    /// Where the whole log stood after the action.
    pub fn last_seq(&self) -> u64 {
        self.events.last().map_or(0, |e| e.seq)
    }
}

/// Something due at a moment, besides the inputs callers bring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// A seat's clock runs out.
    TimeOut(Seat),
    Expiry,
}

/// Where a match stood before an input, to tell what the input added.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    pub seq: u64,
    pub inputs: usize,
    pub status: MatchStatus,
}

struct SeatState {
    name: &'static str,
    player_name: String,
    token: Option<TokenHash>,
    account: Option<String>,
}

pub struct Referee {
    /// Shared with every summary published.
    setup: Arc<MatchSetup>,
    game: Box<dyn HostedGame>,
    seats: Vec<SeatState>,
    status: MatchStatus,
    version: u64,
    result: Option<MatchEnd>,
    log: EventLog,
    /// The inputs not yet stored; the store has the others (see [`Referee::forget_stored`]).
    inputs: Vec<Input>,
    /// How many inputs came before the first one held.
    inputs_forgotten: usize,
    /// Whether an action was played, or a seat timed out: aborting is too late then.
    played: bool,
    /// `(seat, client_action_id)` -> the first answer, for answers whose events the log still
    /// holds; older ones are in the store.
    answered: HashMap<(Seat, String), Answered>,
    /// Whether the store's rows number the log exactly as the referee does. Rows stored before
    /// hidden steps were recorded do not say which events were hidden, so a match that has
    /// such rows keeps its whole log in memory.
    rows_number_the_log: bool,
    /// The turn last announced with a TurnStarted event.
    announced: Option<Turn>,
    clocks: Clocks,
    /// Per seat: timeouts since its last own action.
    consecutive_timeouts: Vec<u32>,
    /// The seat whose draw offer stands.
    draw_offer: Option<Seat>,
    /// When the input being handled happens: the time of every event it records and of every
    /// clock reading it makes.
    moment: SystemTime,
    /// When the match expires unless it has started.
    expires_at: Option<SystemTime>,
    /// Lifecycle entries recorded since they were last taken.
    lifecycle: Vec<LifecycleEntry>,
}

impl Referee {
    /// A new match: records its creation and the game's opening events at its creation time.
    pub fn new(
        setup: MatchSetup,
        game: Box<dyn HostedGame>,
        expire_unstarted_after: Option<Duration>,
    ) -> Self {
        let seats = game
            .info()
            .seats
            .iter()
            .map(|name| SeatState {
                name,
                player_name: String::new(),
                token: None,
                account: None,
            })
            .collect();
        let seat_count = game.info().seats.len();
        let mut referee = Referee {
            clocks: Clocks::new(setup.hosting.time_control, seat_count),
            consecutive_timeouts: vec![0; seat_count],
            draw_offer: None,
            moment: setup.create_time,
            // A league's match waits for its bots until their deadline, whatever the server's
            // expiry for open matches.
            expires_at: match &setup.reservation {
                Some(reservation) => Some(reservation.show_up_by),
                None => expire_unstarted_after.map(|after| setup.create_time + after),
            },
            setup: Arc::new(setup),
            game,
            seats,
            status: MatchStatus::Waiting,
            version: 0,
            result: None,
            log: EventLog::default(),
            inputs: Vec::new(),
            inputs_forgotten: 0,
            played: false,
            answered: HashMap::new(),
            rows_number_the_log: true,
            announced: None,
            lifecycle: Vec::new(),
        };
        referee.record_lifecycle(LifecycleKind::Created {
            seed_source: referee.setup.chance.source,
        });
        referee.record(Visibility::Public, MatchEvent::Created);
        for event in referee.game.opening_events() {
            referee.record_played(
                event.visibility,
                false,
                MatchEvent::Game { event: event.value },
                pb::match_event::Kind::GameEvent(event.wire),
            );
        }
        referee
    }

    /// Feeds a rebuilt match the inputs it had accepted, in order; `times` are the stored
    /// events' times by seq - 1, so each input replays at the moment it first happened. What
    /// an input checked when it was accepted (tokens, versions, presence) is not checked again.
    fn replay(&mut self, inputs: Vec<Input>, times: &[SystemTime]) -> Result<(), ServiceError> {
        for input in inputs {
            // Every input records at least one event; its stored time is the input's moment.
            if let Some(time) = times.get(self.log.last_seq() as usize) {
                self.moment = *time;
            }
            match input {
                Input::Joined {
                    seat,
                    player_name,
                    token_hash,
                    account,
                } => self.take_seat(seat, token_hash, account, player_name),
                Input::Acted {
                    seat,
                    action,
                    for_timeout,
                } => {
                    self.require_active()?;
                    self.act(seat, &action.choice(), for_timeout)?;
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
                    if self.status != MatchStatus::Waiting {
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

    fn replay_call(&mut self, seat: Seat, call: SeatCall) -> Result<(), ServiceError> {
        self.require_active()?;
        self.apply_call(seat, call);
        Ok(())
    }

    /// Rebuilds a stored match: replays its inputs against a fresh game, each at its kept
    /// events' time, and checks that this reproduces the kept events: the events themselves
    /// where the store kept them, else their wire form as it was stored. A difference means the
    /// rules changed under the match: it is refused rather than continued on a history it did
    /// not have. The kept times are kept, so are the steps the rules now tell are hidden
    /// (matches stored before hidden steps existed have none marked), and the kept answers to
    /// retries.
    pub fn rebuild(
        setup: MatchSetup,
        game: Box<dyn HostedGame>,
        expire_unstarted_after: Option<Duration>,
        inputs: Vec<Input>,
        kept: Vec<KeptEvent>,
        answered: impl IntoIterator<Item = ((Seat, String), Answered)>,
    ) -> Result<Self, String> {
        let mut referee = Self::new(setup, game, expire_unstarted_after);
        let times: Vec<SystemTime> = kept.iter().map(|e| e.time).collect();
        referee
            .replay(inputs, &times)
            .map_err(|e| format!("replaying the stored inputs failed: {e}"))?;
        let rebuilt = referee.log.held();
        if let Some(index) = (0..rebuilt.len().max(kept.len())).find(|&i| {
            !matches!((rebuilt.get(i), kept.get(i)),
                (Some(a), Some(b)) if a.same_place(b) && referee.reproduces(a, &b.content))
        }) {
            return Err(format!(
                "replaying gives {} events where {} are stored, differing from seq {}: the rules \
                 no longer reproduce this match",
                rebuilt.len(),
                kept.len(),
                index + 1
            ));
        }
        let rows_number_the_log = kept
            .iter()
            .zip(rebuilt)
            .all(|(kept, rebuilt)| kept.hidden_step == rebuilt.hidden_step);
        let events = kept
            .into_iter()
            .zip(rebuilt)
            .map(|(kept, rebuilt)| {
                let (event, kind) = match kept.content {
                    // The wire form as stored: the rules version the match was created under.
                    Kept::Wire(kind) => (rebuilt.event.clone(), kind),
                    Kept::Event(event) => {
                        let kind = event
                            .to_wire(&referee.setup, referee.game.as_ref())
                            .map_err(|e| format!("event {}: {e}", kept.seq))?;
                        (Some(event), kind)
                    }
                };
                Ok(NewEvent {
                    seq: kept.seq,
                    version: kept.version,
                    time: kept.time,
                    visibility: kept.visibility,
                    owner_name: kept.owner_name,
                    hidden_step: rebuilt.hidden_step,
                    event,
                    kind,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        referee.log = EventLog::restore(events)?;
        referee.rows_number_the_log = rows_number_the_log;
        referee.answered.extend(answered);
        // Replaying recorded them again; the store has them from when they happened.
        referee.lifecycle.clear();
        Ok(referee)
    }

    /// Whether a rebuilt event is what the store kept.
    fn reproduces(&self, rebuilt: &LoggedEvent, kept: &Kept) -> bool {
        match (kept, &rebuilt.event) {
            (Kept::Event(kept), Some(event)) => event.same_as(kept, self.game.as_ref()),
            // The rules version the match was created under is in the kept wire form; the
            // rebuilt one names today's.
            (Kept::Wire(pb::match_event::Kind::MatchCreated(kept)), _) => {
                matches!(&rebuilt.kind, pb::match_event::Kind::MatchCreated(created)
                    if pb::MatchCreated { rules_version: String::new(), ..created.clone() }
                        == pb::MatchCreated { rules_version: String::new(), ..kept.clone() })
            }
            (Kept::Wire(kind), _) => rebuilt.kind == *kind,
            (Kept::Event(_), None) => false,
        }
    }

    pub fn setup(&self) -> &MatchSetup {
        &self.setup
    }

    pub fn info(&self) -> &VariantInfo {
        self.game.info()
    }

    pub fn game(&self) -> &dyn HostedGame {
        self.game.as_ref()
    }

    pub fn log(&self) -> &EventLog {
        &self.log
    }

    pub fn status(&self) -> MatchStatus {
        self.status
    }

    /// The inputs after the first `count`, which must not have been forgotten yet.
    pub fn inputs_since(&self, count: usize) -> &[Input] {
        debug_assert!(
            count >= self.inputs_forgotten,
            "inputs since were forgotten"
        );
        &self.inputs[count
            .saturating_sub(self.inputs_forgotten)
            .min(self.inputs.len())..]
    }

    /// Lets go of what the store now holds: every input, and all but the newest `keep_events`
    /// events with the answers that point at them. Call it only after a commit.
    pub fn forget_stored(&mut self, keep_events: usize) {
        self.inputs_forgotten += self.inputs.len();
        self.inputs.clear();
        if !self.rows_number_the_log {
            return;
        }
        if self.log.forget_older(keep_events) {
            let log = &self.log;
            self.answered
                .retain(|_, answered| log.after(answered.after_seq).is_some());
        }
    }

    /// Whether answers to client action ids may be missing from memory (the store has them).
    pub fn forgot_answers(&self) -> bool {
        self.log.forgotten() > 0
    }

    /// Keeps an input to be stored.
    fn keep_input(&mut self, input: Input) {
        self.played |= matches!(input, Input::Acted { .. } | Input::TimedOut { .. });
        self.inputs.push(input);
    }

    pub fn is_over(&self) -> bool {
        self.status.is_over()
    }

    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.seats[seat.index()].name
    }

    fn seat_names(&self) -> Vec<&'static str> {
        self.seats.iter().map(|s| s.name).collect()
    }

    /// Where the match stands, to tell later what an input added.
    pub fn mark(&self) -> Mark {
        Mark {
            seq: self.log.last_seq(),
            inputs: self.inputs_forgotten + self.inputs.len(),
            status: self.status,
        }
    }

    /// The lifecycle entries recorded since they were last taken.
    pub fn take_lifecycle(&mut self) -> Vec<LifecycleEntry> {
        std::mem::take(&mut self.lifecycle)
    }

    /// The seat a presented token belongs to; every seat is compared so timing says nothing.
    pub fn seat_of(&self, token: &str) -> Result<Seat, ServiceError> {
        let mut found = None;
        for (index, seat) in self.seats.iter().enumerate() {
            if seat.token.as_ref().is_some_and(|t| t.matches(token)) {
                found = Some(Seat(index as u8));
            }
        }
        let match_id = || self.setup.match_id.clone();
        // A bot's credential was checked at the edge: it is no guess, just not of this match.
        found.ok_or_else(|| {
            if is_account_credential(token) {
                ServiceError::BotNotSeated(match_id())
            } else {
                ServiceError::InvalidSeatToken(match_id())
            }
        })
    }

    /// For calls that act: a token is required.
    pub fn authenticate(&self, token: Option<&str>) -> Result<Seat, ServiceError> {
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
    pub fn viewer(&self, token: Option<&str>) -> Result<Viewer, ServiceError> {
        token.map_or(Ok(Viewer::Spectator), |t| self.seat_of(t).map(Viewer::Seat))
    }

    fn require_active(&self) -> Result<(), ServiceError> {
        match self.status {
            MatchStatus::Active => Ok(()),
            MatchStatus::Waiting => Err(ServiceError::MatchNotActive {
                status: "waiting",
                hint: "play starts once every seat is taken",
            }),
            _ => Err(ServiceError::MatchNotActive {
                status: "over",
                hint: "no more actions are accepted; GetMatch shows the result",
            }),
        }
    }

    /// Abort is for a match nobody has played in yet, waiting or active.
    fn require_abortable(&self) -> Result<(), ServiceError> {
        if self.status == MatchStatus::Active || self.status == MatchStatus::Waiting {
            if self.played {
                return Err(ServiceError::AbortTooLate);
            }
            return Ok(());
        }
        self.require_active()
    }

    /// The turn as clients see it: nobody is to act unless the match is active.
    fn public_turn(&self) -> pb::TurnInfo {
        let mut turn = self.game.turn().clone();
        self.hide_turn_unless_active(&mut turn);
        turn_to_proto(&turn, &self.seat_names())
    }

    fn hide_turn_unless_active(&self, turn: &mut Turn) {
        if self.status != MatchStatus::Active {
            turn.to_act.clear();
            turn.actions_left = None;
            turn.may_end_turn = false;
        }
    }

    pub fn view(&self, viewer: Viewer) -> pb::MatchView {
        let mut view = self.game.view(viewer, self.log.version_for(viewer));
        view.turn = Some(self.public_turn());
        view
    }

    /// The summary everyone may see.
    pub fn summary(&self) -> MatchSummary {
        self.summary_for(Viewer::Spectator)
    }

    /// The summary as `viewer` sees it: numbered in its own count of events and versions.
    pub fn summary_for(&self, viewer: Viewer) -> MatchSummary {
        MatchSummary {
            setup: Arc::clone(&self.setup),
            progress: self.progress_for(viewer),
        }
    }

    /// How far the match has come, as everyone sees it.
    pub fn progress(&self) -> MatchProgress {
        self.progress_for(Viewer::Spectator)
    }

    /// How far the match has come, as `viewer` counts it.
    pub fn progress_for(&self, viewer: Viewer) -> MatchProgress {
        let mut progress = MatchProgress {
            rules_version: self.game.info().rules_version.to_owned(),
            seats: self
                .seats
                .iter()
                .map(|seat| SeatProgress {
                    name: seat.name.to_owned(),
                    player_name: String::new(),
                    occupied: false,
                    account: String::new(),
                })
                .collect(),
            status: self.status,
            version: 0,
            last_seq: 0,
            turn: self.game.turn().clone(),
            result: None,
            draw_offered_by: None,
        };
        self.bring_up_to_date(&mut progress, viewer);
        progress
    }

    /// Brings a progress made by [`Referee::progress`] up to date in place: publishing after
    /// every change then reuses what it holds rather than building it anew.
    pub fn refresh(&self, progress: &mut MatchProgress) {
        self.bring_up_to_date(progress, Viewer::Spectator);
    }

    /// Everything of `progress` a change can touch, as `viewer` counts it.
    fn bring_up_to_date(&self, progress: &mut MatchProgress, viewer: Viewer) {
        progress.status = self.status;
        for (shown, seat) in progress.seats.iter_mut().zip(&self.seats) {
            shown.occupied = seat.token.is_some();
            shown.player_name.clone_from(&seat.player_name);
            if let Some(account) = &seat.account {
                shown.account.clone_from(account);
            }
        }
        progress.version = self.log.version_for(viewer);
        progress.last_seq = self.log.last_seq_for(viewer);
        progress.turn.clone_from(self.game.turn());
        self.hide_turn_unless_active(&mut progress.turn);
        progress.result.clone_from(&self.result);
        progress.draw_offered_by = self.draw_offer;
    }

    /// Each seat's version, counting its hidden steps.
    pub fn seat_versions(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.seats.len()).map(|index| self.log.version_for(Viewer::Seat(Seat(index as u8))))
    }

    /// Appends an event of the hosting to the log; none of them holds a game's value, so
    /// working out its wire form cannot fail.
    fn record(&mut self, visibility: Visibility, event: MatchEvent) {
        let kind = event
            .to_wire(&self.setup, self.game.as_ref())
            .expect("hosting events hold no game values");
        self.record_played(visibility, false, event, kind);
    }

    /// Appends an event whose wire form the game gave with it, of a step that is hidden (only
    /// its seat may see it) or not.
    fn record_played(
        &mut self,
        visibility: Visibility,
        hidden: bool,
        event: MatchEvent,
        kind: pb::match_event::Kind,
    ) {
        let seats = self.seat_names();
        self.log.append(
            self.moment,
            self.version,
            visibility,
            hidden,
            &seats,
            event,
            kind,
        );
    }

    /// Seats a player on the named seat, or on the first free one; the last seat taken starts
    /// the match. `account` names the account (a bot) whose credential `token_hash` hashes.
    pub fn join(
        &mut self,
        seat: Option<String>,
        player_name: String,
        token_hash: TokenHash,
        account: Option<String>,
        now: SystemTime,
    ) -> Result<Seat, ServiceError> {
        if self.status == MatchStatus::Aborted {
            return Err(ServiceError::MatchNotActive {
                status: "aborted",
                hint: "its seats can no longer be taken; create a new match",
            });
        }
        // Only an account's credential can come twice (a token is drawn anew for each seat):
        // one credential holding two seats could not tell which it acts for.
        if let Some(held) = self.seats.iter().find(|s| s.token == Some(token_hash)) {
            return Err(ServiceError::AlreadySeated(held.name.to_owned()));
        }
        let reserved = self.setup.reservation.as_ref();
        let reserved_for = |index: usize| reserved.map(|r| r.accounts[index].as_str());
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
            // An assigned bot finds its own seat; anyone else the first free one (which, in a
            // league's match, is another bot's and refused below).
            None => match account.as_deref().and_then(|a| reserved?.seat_of(a)) {
                Some(index) if self.seats[index].token.is_none() => index,
                Some(_) => return Err(ServiceError::NoFreeSeat),
                None => self
                    .seats
                    .iter()
                    .position(|s| s.token.is_none())
                    .ok_or(ServiceError::NoFreeSeat)?,
            },
        };
        if let Some(holder) = reserved_for(index)
            && Some(holder) != account.as_deref()
        {
            return Err(ServiceError::SeatReserved(
                self.seats[index].name.to_owned(),
            ));
        }
        self.moment = now;
        let seat = Seat(index as u8);
        self.take_seat(seat, token_hash, account, player_name);
        Ok(seat)
    }

    fn take_seat(
        &mut self,
        seat: Seat,
        token_hash: TokenHash,
        account: Option<String>,
        player_name: String,
    ) {
        let state = &mut self.seats[seat.index()];
        state.token = Some(token_hash);
        state.player_name = player_name.clone();
        state.account.clone_from(&account);
        let seat_name = state.name;
        self.keep_input(Input::Joined {
            seat,
            player_name: player_name.clone(),
            token_hash,
            account: account.clone(),
        });
        self.record(
            Visibility::Public,
            MatchEvent::SeatJoined { seat, player_name },
        );
        tracing::info!(seat = seat_name, "seat taken");
        self.record_lifecycle(LifecycleKind::SeatTaken {
            seat: seat_name.to_owned(),
            player_name: self.seats[seat.index()].player_name.clone(),
            account: account.unwrap_or_default(),
        });
        if self.seats.iter().all(|s| s.token.is_some()) {
            self.status = MatchStatus::Active;
            self.record_lifecycle(LifecycleKind::Started {
                seats: self.seat_holders(),
            });
            self.record(Visibility::Public, MatchEvent::Started);
            tracing::info!("match started");
            self.after_change();
        }
    }

    pub fn legal_actions(
        &self,
        viewer: Viewer,
        detail: pb::ActionDetail,
    ) -> pb::GetLegalActionsResponse {
        let actions = match viewer {
            Viewer::Seat(seat) if self.status == MatchStatus::Active => {
                self.game.legal_actions(seat, detail)
            }
            _ => Vec::new(),
        };
        pb::GetLegalActionsResponse {
            version: self.log.version_for(viewer),
            turn: Some(self.public_turn()),
            actions,
            view: Some(self.view(viewer)),
        }
    }

    /// What `seat` needs to act, when it is to act and the newest event is `after_seq`.
    pub fn your_turn(
        &self,
        seat: Seat,
        after_seq: u64,
        detail: pb::ActionDetail,
    ) -> Option<pb::YourTurn> {
        let due = self.status == MatchStatus::Active
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

    /// The first answer to a submission of `seat` with this client action id, answered again.
    pub fn answered_before(&self, seat: Seat, client_action_id: &str) -> Option<Submitted> {
        if client_action_id.is_empty() {
            return None;
        }
        let first = self.answered.get(&(seat, client_action_id.to_owned()))?;
        answer_again(&self.log, seat, first)
    }

    /// Plays a submission of an authenticated seat that is not a retry (see
    /// [`Referee::answered_before`]); returns the answer to keep when it has a client action id.
    pub fn submit(
        &mut self,
        seat: Seat,
        submission: Submission,
        now: SystemTime,
    ) -> Result<(Submitted, Option<Answered>), ServiceError> {
        let viewer = Viewer::Seat(seat);
        self.require_active()?;
        let current = self.log.version_for(viewer);
        if submission.expected_version != current {
            return Err(ServiceError::StaleVersion {
                expected: submission.expected_version,
                current,
            });
        }
        self.moment = now;
        let before = self.log.last_seq();
        self.act(seat, &submission.choice, false)?;
        let events = self.log.appended_after(before);
        let answered = Answered {
            version: self.log.version_for(viewer),
            after_seq: before,
            events: events.len(),
        };
        let submitted = Submitted {
            seat,
            version: answered.version,
            events: events.to_vec(),
            duplicate: false,
        };
        if submission.client_action_id.is_empty() {
            return Ok((submitted, None));
        }
        self.answered
            .insert((seat, submission.client_action_id), answered);
        Ok((submitted, Some(answered)))
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
            && played.events.iter().all(|event| event.visibility == own)
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
        tracing::debug!(seat = self.seat_name(seat), notation = %played.notation, "action taken");
        self.version += 1;
        self.record_played(
            played.action_visibility,
            hidden,
            MatchEvent::ActionTaken {
                seat,
                action: played.action_value,
                notation: played.notation.clone(),
            },
            pb::match_event::Kind::ActionTaken(pb::ActionTaken {
                seat: self.seat_name(seat).to_owned(),
                action: Some(played.action),
                notation: played.notation.clone(),
            }),
        );
        for event in played.events {
            self.record_played(
                event.visibility,
                hidden,
                MatchEvent::Game { event: event.value },
                pb::match_event::Kind::GameEvent(event.wire),
            );
        }
        self.keep_input(Input::Acted {
            seat,
            action: RecordedAction::Notation(played.notation),
            for_timeout,
        });
        self.after_change();
        Ok(())
    }

    /// Checks an authenticated seat's call against the match, then applies it; a refusal
    /// changes nothing. `opponent_away`: how long the opponent has been away, `None` while it
    /// is connected (only claiming victory asks).
    pub fn seat_call(
        &mut self,
        seat: Seat,
        call: SeatCall,
        opponent_away: Option<Duration>,
        now: SystemTime,
    ) -> Result<MatchSummary, ServiceError> {
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
                let limit = self.setup.hosting.abandon_after;
                match opponent_away {
                    Some(away) if away >= limit => {}
                    away => {
                        let name = self.seat_name(seat.opponent());
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
        self.moment = now;
        self.apply_call(seat, call);
        Ok(self.summary_for(Viewer::Seat(seat)))
    }

    /// Applies a checked call: logs its input and event, and ends the match unless it offers a
    /// draw.
    fn apply_call(&mut self, seat: Seat, call: SeatCall) {
        let name = self.seat_name(seat);
        let finished = MatchStatus::Finished;
        let (input, event, winner, reason, detail, status) = match call {
            SeatCall::OfferDraw => {
                self.keep_input(Input::OfferedDraw { seat });
                self.draw_offer = Some(seat);
                self.record(Visibility::Public, MatchEvent::DrawOffered { seat });
                return;
            }
            SeatCall::Resign => (
                Input::Resigned { seat },
                MatchEvent::Resigned { seat },
                Some(seat.opponent()),
                EndReason::Resignation,
                format!("`{name}` resigned"),
                finished,
            ),
            SeatCall::AcceptDraw => (
                Input::AcceptedDraw { seat },
                MatchEvent::DrawAccepted { seat },
                None,
                EndReason::DrawAgreed,
                "draw agreed".to_owned(),
                finished,
            ),
            SeatCall::Abort => (
                Input::Aborted { seat },
                MatchEvent::Aborted { seat },
                None,
                EndReason::Aborted,
                format!("`{name}` aborted the match before anyone played"),
                MatchStatus::Aborted,
            ),
            SeatCall::ClaimVictory => (
                Input::ClaimedVictory { seat },
                MatchEvent::VictoryClaimed { seat },
                Some(seat),
                EndReason::Abandoned,
                format!("`{name}` claimed victory: the opponent stayed disconnected"),
                finished,
            ),
        };
        self.keep_input(input);
        self.version += 1;
        self.record(Visibility::Public, event);
        let outcome = Outcome {
            winner,
            scores: self.game.scores(),
            reason: detail,
        };
        self.end(outcome, reason, status);
    }

    /// What falls due next, and when.
    pub fn next_due(&self) -> Option<(SystemTime, Due)> {
        match self.status {
            MatchStatus::Active => self
                .clocks
                .next_deadline()
                .map(|(seat, at)| (at, Due::TimeOut(seat))),
            MatchStatus::Waiting => self.expires_at.map(|at| (at, Due::Expiry)),
            _ => None,
        }
    }

    /// Makes happen, at `now`, what [`Referee::next_due`] said was due.
    pub fn fall_due(&mut self, due: Due, now: SystemTime) {
        self.moment = now;
        match due {
            Due::TimeOut(seat) => self.time_out(seat),
            Due::Expiry => self.expire(),
        }
    }

    /// Ends a match that did not start in time: a league's match goes to the bot that showed
    /// up, when one did; any other is aborted.
    fn expire(&mut self) {
        self.keep_input(Input::Expired);
        self.version += 1;
        let present: Vec<Seat> = (0..self.seats.len())
            .filter(|&index| self.seats[index].token.is_some())
            .map(|index| Seat(index as u8))
            .collect();
        if self.setup.reservation.is_some() && present.len() == 1 {
            let winner = present[0];
            let absent = self.seat_name(winner.opponent());
            tracing::info!(absent, "forfeited by not showing up");
            let outcome = Outcome {
                winner: Some(winner),
                scores: self.game.scores(),
                reason: format!("`{absent}` did not take its assigned seat by its deadline"),
            };
            self.end(outcome, EndReason::NoShow, MatchStatus::Finished);
            return;
        }
        tracing::info!("expired before every seat was taken");
        let outcome = Outcome {
            winner: None,
            scores: self.game.scores(),
            reason: "not every seat was taken in time".to_owned(),
        };
        self.end(outcome, EndReason::Expired, MatchStatus::Aborted);
    }

    /// A seat's clock ran out: apply the timeout policy.
    fn time_out(&mut self, seat: Seat) {
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
            if self.status == MatchStatus::Active
                && now.is_to_act(seat)
                && (&now.phase, now.number) == (&turn.phase, turn.number)
            {
                next = self.game.default_action(seat);
            }
        }
    }

    /// Logs a timeout; a forfeit ends the match.
    fn record_timeout(&mut self, seat: Seat, forfeited: bool) {
        let index = seat.index();
        self.consecutive_timeouts[index] += 1;
        self.keep_input(Input::TimedOut { seat, forfeited });
        let name = self.seat_name(seat);
        tracing::info!(seat = name, forfeited, "time ran out");
        self.record(
            Visibility::Public,
            MatchEvent::TimedOut {
                seat,
                consecutive: self.consecutive_timeouts[index],
                forfeited,
            },
        );
        if forfeited {
            self.version += 1;
            let outcome = Outcome {
                winner: Some(seat.opponent()),
                scores: self.game.scores(),
                reason: format!("`{name}` ran out of time"),
            };
            self.end(outcome, EndReason::Timeout, MatchStatus::Finished);
        }
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
            self.end(outcome, EndReason::Rules, MatchStatus::Finished);
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
            self.record(
                Visibility::Public,
                MatchEvent::TurnStarted {
                    turn: turn.clone(),
                    clocks: self.clocks.readings(self.moment),
                },
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
                account: seat.account.clone().unwrap_or_default(),
            })
            .collect()
    }

    fn end(&mut self, outcome: Outcome, reason: EndReason, status: MatchStatus) {
        let end = MatchEnd {
            winner: outcome.winner,
            scores: outcome.scores,
            reason,
            detail: outcome.reason,
        };
        let winner = end
            .winner
            .map(|seat| self.seat_name(seat).to_owned())
            .unwrap_or_default();
        self.status = status;
        self.clocks.stop_all();
        self.draw_offer = None;
        tracing::info!(%winner, detail = %end.detail, "match ended");
        self.record_lifecycle(LifecycleKind::Ended {
            ending: Ending {
                finished: status == MatchStatus::Finished,
                winner,
                scores: end.scores.clone(),
                reason,
                detail: end.detail.clone(),
            },
            seats: self.seat_holders(),
        });
        self.result = Some(end.clone());
        self.record(Visibility::Public, MatchEvent::Ended(end));
    }
}
