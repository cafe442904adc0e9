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

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::SystemTime;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{OptionValue, Outcome, Seat, Turn, Viewer, Visibility};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tracing::Instrument;

use super::log::{EventLog, LoggedEvent};
use super::token::SeatToken;
use crate::error::ServiceError;
use crate::games::{ActionChoice, HostedGame, option_to_proto, turn_to_proto};

/// What a match was created with: with [`Input`]s replayed in order, everything needed to
/// rebuild it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSetup {
    pub match_id: String,
    pub variant_id: String,
    /// Every option in effect, defaults included.
    pub options: BTreeMap<String, OptionValue>,
    pub seed: u64,
    pub start_position: Option<String>,
    pub create_time: SystemTime,
}

/// An accepted input, in the order accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// The token is kept so a rebuilt match still admits the seat's player; a durable store
    /// must guard it like a password.
    Joined {
        seat: Seat,
        player_name: String,
        token: SeatToken,
    },
    /// The action in canonical typed form.
    Acted {
        seat: Seat,
        action: pb::Action,
    },
    Resigned {
        seat: Seat,
    },
}

/// A match's setup and accepted inputs: what a store keeps to rebuild it with [`replay`].
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRecord {
    pub setup: MatchSetup,
    pub inputs: Vec<Input>,
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
    pub backlog: Vec<Arc<LoggedEvent>>,
    pub live: broadcast::Receiver<Arc<LoggedEvent>>,
    pub ended: bool,
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
        reply: Reply<pb::GetLegalActionsResponse>,
    },
    Submit {
        token: Option<String>,
        submission: Submission,
        reply: Reply<pb::SubmitActionResponse>,
    },
    Resign {
        token: Option<String>,
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
    Record {
        reply: Reply<MatchRecord>,
    },
}

/// The way to a match's actor, plus its summary without asking it.
#[derive(Clone, Debug)]
pub struct MatchHandle {
    commands: mpsc::Sender<Command>,
    summary: watch::Receiver<pb::Match>,
}

impl MatchHandle {
    /// The match's summary as of its last change.
    pub fn summary(&self) -> pb::Match {
        self.summary.borrow().clone()
    }

    async fn call<T>(&self, command: impl FnOnce(Reply<T>) -> Command) -> Result<T, ServiceError> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(command(reply))
            .await
            .map_err(|_| ServiceError::Unavailable("its actor has stopped".to_owned()))?;
        answer
            .await
            .map_err(|_| ServiceError::Unavailable("its actor dropped the request".to_owned()))?
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
    ) -> Result<pb::GetLegalActionsResponse, ServiceError> {
        self.call(|reply| Command::LegalActions { token, reply })
            .await
    }

    pub async fn submit(
        &self,
        token: Option<String>,
        submission: Submission,
    ) -> Result<pb::SubmitActionResponse, ServiceError> {
        self.call(|reply| Command::Submit {
            token,
            submission,
            reply,
        })
        .await
    }

    pub async fn resign(&self, token: Option<String>) -> Result<pb::Match, ServiceError> {
        self.call(|reply| Command::Resign { token, reply }).await
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

    /// What a store needs to rebuild the match.
    pub async fn record(&self) -> Result<MatchRecord, ServiceError> {
        self.call(|reply| Command::Record { reply }).await
    }
}

/// Channel sizes for one match.
#[derive(Clone, Copy, Debug)]
pub struct ActorLimits {
    pub commands: usize,
    pub live_capacity: usize,
}

struct SeatState {
    name: &'static str,
    player_name: String,
    token: Option<SeatToken>,
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
    answered: HashMap<(Seat, String), pb::SubmitActionResponse>,
    /// The turn last announced with a TurnStarted event.
    announced: Option<Turn>,
    live: broadcast::Sender<Arc<LoggedEvent>>,
    summary: watch::Sender<pb::Match>,
}

/// Starts the actor of a new match and logs its creation.
pub fn spawn(setup: MatchSetup, game: Box<dyn HostedGame>, limits: ActorLimits) -> MatchHandle {
    let actor = MatchActor::new(setup, game, limits);
    actor.start(limits)
}

/// Rebuilds a match by replaying its record against a fresh game, then starts its actor. The
/// events are the same as the first time except for their timestamps.
pub fn replay(
    record: MatchRecord,
    game: Box<dyn HostedGame>,
    limits: ActorLimits,
) -> Result<MatchHandle, ServiceError> {
    let mut actor = MatchActor::new(record.setup, game, limits);
    for input in record.inputs {
        match input {
            Input::Joined {
                seat,
                player_name,
                token,
            } => actor.take_seat(seat, token, player_name),
            Input::Acted { seat, action } => {
                actor.require_active()?;
                actor.act(seat, &ActionChoice::Typed(action))?;
            }
            Input::Resigned { seat } => {
                actor.require_active()?;
                actor.concede(seat);
            }
        }
    }
    Ok(actor.start(limits))
}

impl MatchActor {
    fn new(setup: MatchSetup, game: Box<dyn HostedGame>, limits: ActorLimits) -> Self {
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
        let (summary, _) = watch::channel(pb::Match::default());
        let mut actor = MatchActor {
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
            summary,
        };
        actor.record(
            Visibility::Public,
            pb::match_event::Kind::MatchCreated(pb::MatchCreated {
                variant_id: actor.setup.variant_id.clone(),
                rules_version: actor.game.info().rules_version.to_owned(),
                seed: actor.setup.seed,
            }),
        );
        for (event, visibility) in actor.game.opening_events() {
            actor.record(visibility, pb::match_event::Kind::GameEvent(event));
        }
        actor
    }

    fn start(self, limits: ActorLimits) -> MatchHandle {
        self.publish();
        let summary = self.summary.subscribe();
        let span = tracing::info_span!(
            "match",
            match_id = %self.setup.match_id,
            variant = %self.setup.variant_id,
        );
        let (commands, receiver) = mpsc::channel(limits.commands);
        tokio::spawn(self.run(receiver).instrument(span));
        MatchHandle { commands, summary }
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        tracing::info!("match created");
        while let Some(command) = commands.recv().await {
            self.handle(command);
        }
        tracing::debug!("match actor stopped: no handle left");
    }

    fn handle(&mut self, command: Command) {
        // A dropped reply means the caller went away; the work is done regardless.
        match command {
            Command::Snapshot { token, reply } => {
                let _ = reply.send(
                    self.viewer(token.as_deref())
                        .map(|viewer| (self.to_proto(), self.view(viewer))),
                );
            }
            Command::Join {
                seat,
                player_name,
                reply,
            } => {
                let _ = reply.send(self.join(seat, player_name));
            }
            Command::LegalActions { token, reply } => {
                let _ = reply.send(self.legal_actions(token.as_deref()));
            }
            Command::Submit {
                token,
                submission,
                reply,
            } => {
                let _ = reply.send(self.submit(token.as_deref(), submission));
            }
            Command::Resign { token, reply } => {
                let _ = reply.send(self.resign(token.as_deref()));
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
            Command::Record { reply } => {
                let _ = reply.send(Ok(MatchRecord {
                    setup: self.setup.clone(),
                    inputs: self.inputs.clone(),
                }));
            }
        }
    }

    fn seat_names(&self) -> Vec<&'static str> {
        self.seats.iter().map(|s| s.name).collect()
    }

    /// The seat a presented token belongs to; every seat is compared so timing says nothing.
    fn seat_of(&self, token: &str) -> Result<Seat, ServiceError> {
        let mut found = None;
        for (index, seat) in self.seats.iter().enumerate() {
            if seat.token.as_ref().is_some_and(|t| t.matches(token)) {
                found = Some(Seat(index as u8));
            }
        }
        found.ok_or_else(|| ServiceError::InvalidSeatToken(self.setup.match_id.clone()))
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
        let mut turn = turn_to_proto(&self.game.turn(), &self.seat_names());
        if self.status != pb::MatchStatus::Active {
            turn.to_act.clear();
            turn.actions_left = None;
            turn.may_end_turn = false;
        }
        turn
    }

    fn view(&self, viewer: Viewer) -> pb::MatchView {
        let mut view = self.game.view(viewer, self.version);
        view.turn = Some(self.public_turn());
        view
    }

    fn to_proto(&self) -> pb::Match {
        pb::Match {
            match_id: self.setup.match_id.clone(),
            variant_id: self.setup.variant_id.clone(),
            rules_version: self.game.info().rules_version.to_owned(),
            options: self
                .setup
                .options
                .iter()
                .map(|(name, value)| (name.clone(), option_to_proto(value)))
                .collect(),
            seed: self.setup.seed,
            status: self.status as i32,
            seats: self
                .seats
                .iter()
                .map(|seat| pb::SeatInfo {
                    seat: seat.name.to_owned(),
                    occupied: seat.token.is_some(),
                    player_name: seat.player_name.clone(),
                })
                .collect(),
            version: self.version,
            last_seq: self.log.last_seq(),
            turn: Some(self.public_turn()),
            result: self.result.clone(),
            create_time: Some(self.setup.create_time.into()),
            start_position: self.setup.start_position.clone().unwrap_or_default(),
        }
    }

    fn publish(&self) {
        self.summary.send_replace(self.to_proto());
    }

    /// Appends to the log and feeds live watchers. Sending never waits: a watcher too far
    /// behind is told it lagged and catches up from the log.
    fn record(&mut self, visibility: Visibility, kind: pb::match_event::Kind) {
        let seats = self.seat_names();
        let event = self.log.append(self.version, visibility, &seats, kind);
        // No receiver is fine: nobody is watching.
        let _ = self.live.send(event);
    }

    fn join(
        &mut self,
        seat: Option<String>,
        player_name: String,
    ) -> Result<pb::JoinMatchResponse, ServiceError> {
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
        self.take_seat(Seat(index as u8), token.clone(), player_name);
        self.publish();
        Ok(pb::JoinMatchResponse {
            seat: self.seats[index].name.to_owned(),
            seat_token: token.expose().to_owned(),
            r#match: Some(self.to_proto()),
        })
    }

    /// Seats a player; the last seat taken starts the match.
    fn take_seat(&mut self, seat: Seat, token: SeatToken, player_name: String) {
        let state = &mut self.seats[seat.index()];
        state.token = Some(token.clone());
        state.player_name = player_name.clone();
        let seat_name = state.name;
        self.inputs.push(Input::Joined {
            seat,
            player_name: player_name.clone(),
            token,
        });
        self.record(
            Visibility::Public,
            pb::match_event::Kind::SeatJoined(pb::SeatJoined {
                seat: seat_name.to_owned(),
                player_name,
            }),
        );
        tracing::info!(seat = seat_name, "seat taken");
        if self.seats.iter().all(|s| s.token.is_some()) {
            self.status = pb::MatchStatus::Active;
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
    ) -> Result<pb::GetLegalActionsResponse, ServiceError> {
        let viewer = self.viewer(token)?;
        let actions = match viewer {
            Viewer::Seat(seat) if self.status == pb::MatchStatus::Active => {
                self.game.legal_actions(seat)
            }
            _ => Vec::new(),
        };
        Ok(pb::GetLegalActionsResponse {
            version: self.version,
            turn: Some(self.public_turn()),
            actions,
            view: Some(self.view(viewer)),
        })
    }

    fn submit(
        &mut self,
        token: Option<&str>,
        submission: Submission,
    ) -> Result<pb::SubmitActionResponse, ServiceError> {
        let seat = self.authenticate(token)?;
        let key = (seat, submission.client_action_id);
        if !key.1.is_empty()
            && let Some(first) = self.answered.get(&key)
        {
            return Ok(pb::SubmitActionResponse {
                duplicate: true,
                ..first.clone()
            });
        }
        self.require_active()?;
        if submission.expected_version != self.version {
            return Err(ServiceError::StaleVersion {
                expected: submission.expected_version,
                current: self.version,
            });
        }
        let before = self.log.last_seq();
        self.act(seat, &submission.choice)?;
        self.publish();
        let answer = pb::SubmitActionResponse {
            version: self.version,
            events: self
                .log
                .after(before)
                .iter()
                .map(|e| e.view_for(Viewer::Seat(seat)))
                .collect(),
            duplicate: false,
        };
        if !key.1.is_empty() {
            self.answered.insert(key, answer.clone());
        }
        Ok(answer)
    }

    /// Plays an action whose seat and preconditions were checked; on error nothing changed.
    fn act(&mut self, seat: Seat, choice: &ActionChoice) -> Result<(), ServiceError> {
        let played = self.game.play(seat, choice)?;
        tracing::info!(seat = self.seats[seat.index()].name, notation = %played.notation, "action taken");
        self.version += 1;
        self.record(
            played.action_visibility,
            pb::match_event::Kind::ActionTaken(pb::ActionTaken {
                seat: self.seats[seat.index()].name.to_owned(),
                action: Some(played.action.clone()),
                notation: played.notation,
            }),
        );
        for (event, visibility) in played.events {
            self.record(visibility, pb::match_event::Kind::GameEvent(event));
        }
        self.inputs.push(Input::Acted {
            seat,
            action: played.action,
        });
        self.after_change();
        Ok(())
    }

    fn resign(&mut self, token: Option<&str>) -> Result<pb::Match, ServiceError> {
        let seat = self.authenticate(token)?;
        self.require_active()?;
        self.concede(seat);
        self.publish();
        Ok(self.to_proto())
    }

    /// Ends an active match: the other seat wins.
    fn concede(&mut self, seat: Seat) {
        self.version += 1;
        self.inputs.push(Input::Resigned { seat });
        let names = self.seat_names();
        let outcome = Outcome {
            winner: Some(seat.opponent()),
            scores: self.game.scores(),
            reason: format!("`{}` resigned", names[seat.index()]),
        };
        self.end(outcome, pb::ResultReason::Resignation);
    }

    fn watch(&self, token: Option<&str>, after_seq: u64) -> Result<Subscription, ServiceError> {
        let viewer = self.viewer(token)?;
        let last_seq = self.log.last_seq();
        if after_seq > last_seq {
            return Err(ServiceError::InvalidArgument(format!(
                "after_seq {after_seq} is beyond the newest event {last_seq}; use 0 for the whole \
                 history or the last seq you received"
            )));
        }
        Ok(Subscription {
            viewer,
            backlog: self.log.after(after_seq).to_vec(),
            live: self.live.subscribe(),
            ended: matches!(
                self.status,
                pb::MatchStatus::Finished | pb::MatchStatus::Aborted
            ),
        })
    }

    /// After a state change: end the match if the rules say so, else announce a new turn.
    fn after_change(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            self.end(outcome, pb::ResultReason::Rules);
            return;
        }
        let turn = self.game.turn();
        let is_new = self.announced.as_ref().is_none_or(|last| {
            (&last.phase, &last.to_act, last.number) != (&turn.phase, &turn.to_act, turn.number)
        });
        if is_new {
            let info = turn_to_proto(&turn, &self.seat_names());
            self.record(
                Visibility::Public,
                pb::match_event::Kind::TurnStarted(pb::TurnStarted { turn: Some(info) }),
            );
            self.announced = Some(turn);
        }
    }

    fn end(&mut self, outcome: Outcome, reason: pb::ResultReason) {
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
        self.status = pb::MatchStatus::Finished;
        tracing::info!(winner = %result.winner, detail = %result.detail, "match ended");
        self.result = Some(result.clone());
        self.record(
            Visibility::Public,
            pb::match_event::Kind::MatchEnded(pb::MatchEnded {
                result: Some(result),
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameRegistry;

    const LIMITS: ActorLimits = ActorLimits {
        commands: 8,
        live_capacity: 64,
    };

    fn kinds(events: &[Arc<LoggedEvent>]) -> Vec<(u64, u64, pb::match_event::Kind)> {
        events
            .iter()
            .map(|e| (e.seq, e.version, e.kind.clone()))
            .collect()
    }

    #[tokio::test]
    async fn replaying_the_record_rebuilds_the_same_match() {
        let games = GameRegistry::standard();
        let setup = MatchSetup {
            match_id: "m".into(),
            variant_id: "soccer-chess".into(),
            options: BTreeMap::new(),
            seed: 3,
            start_position: None,
            create_time: SystemTime::now(),
        };
        let start = || {
            games
                .start("soccer-chess", &BTreeMap::new(), 3, None)
                .unwrap()
        };
        let handle = spawn(setup, start(), LIMITS);
        let mut tokens = HashMap::new();
        for _ in 0..2 {
            let joined = handle.join(None, "bot".into()).await.unwrap();
            tokens.insert(joined.seat, joined.seat_token);
        }
        for _ in 0..12 {
            let summary = handle.summary();
            let seat = &summary.turn.as_ref().unwrap().to_act[0];
            let submission = Submission {
                expected_version: summary.version,
                client_action_id: String::new(),
                choice: ActionChoice::Index(summary.version as u32 % 3),
            };
            handle
                .submit(Some(tokens[seat].clone()), submission)
                .await
                .unwrap();
        }
        handle.resign(Some(tokens["first"].clone())).await.unwrap();

        let record = handle.record().await.unwrap();
        assert_eq!(record.inputs.len(), 2 + 12 + 1);
        let rebuilt = replay(record, start(), LIMITS).unwrap();
        let original = handle.events_after(0).await.unwrap();
        assert_eq!(
            kinds(&rebuilt.events_after(0).await.unwrap()),
            kinds(&original)
        );
        let (before, after) = (handle.summary(), rebuilt.summary());
        assert_eq!(
            (after.version, after.status, after.result),
            (before.version, before.status, before.result)
        );
        // The seats' tokens still work after the rebuild.
        let (_, view) = rebuilt
            .snapshot(Some(tokens["second"].clone()))
            .await
            .unwrap();
        assert_eq!(view.viewer_seat, "second");
    }
}
