//! A match's events in the hosting core's own terms: seats as seats, the game's actions and
//! events as the engine's values, times as times. This is what the store keeps (see `durable`)
//! and what a rebuild compares; how an event looks on the wire is worked out from it
//! ([`MatchEvent::to_wire`]), so a change to the wire contract changes nothing that was stored.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Turn};
use serde::{Deserialize, Serialize};

use super::clock::ClockReading;
use super::lifecycle::EndReason;
use super::setup::MatchSetup;
use pitchmate_games::{EngineValue, GameError, HostedGame, scores_to_proto, turn_to_proto};

/// One event of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEvent {
    /// The match was created: what it was created with is its setup.
    Created,
    SeatJoined {
        seat: Seat,
        player_name: String,
    },
    Started,
    TurnStarted {
        turn: Turn,
        /// Every seat's clock; empty without a time control.
        clocks: Vec<ClockReading>,
    },
    ActionTaken {
        seat: Seat,
        action: EngineValue,
        notation: String,
    },
    Game {
        event: EngineValue,
    },
    TimedOut {
        seat: Seat,
        consecutive: u32,
        forfeited: bool,
    },
    Resigned {
        seat: Seat,
    },
    DrawOffered {
        seat: Seat,
    },
    DrawAccepted {
        seat: Seat,
    },
    Aborted {
        seat: Seat,
    },
    /// The seat claimed victory over its opponent, who stayed away.
    VictoryClaimed {
        seat: Seat,
    },
    Ended(MatchEnd),
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEnd {
    /// `None`: a draw, or an aborted match.
    pub winner: Option<Seat>,
    /// One per seat.
    pub scores: Vec<u32>,
    pub reason: EndReason,
    pub detail: String,
}

impl MatchEnd {
    pub fn to_proto(&self, seats: &[&str]) -> pb::MatchResult {
        pb::MatchResult {
            winner: self
                .winner
                .map(|s| seats[s.index()].to_owned())
                .unwrap_or_default(),
            scores: scores_to_proto(&self.scores, seats),
            reason: result_reason(self.reason) as i32,
            detail: self.detail.clone(),
        }
    }
}

pub fn result_reason(reason: EndReason) -> pb::ResultReason {
    match reason {
        EndReason::Rules => pb::ResultReason::Rules,
        EndReason::Resignation => pb::ResultReason::Resignation,
        EndReason::Timeout => pb::ResultReason::Timeout,
        EndReason::DrawAgreed => pb::ResultReason::DrawAgreed,
        EndReason::Aborted => pb::ResultReason::Aborted,
        EndReason::Abandoned => pb::ResultReason::Abandoned,
        EndReason::Expired => pb::ResultReason::Expired,
        EndReason::NoShow => pb::ResultReason::NoShow,
    }
}

impl MatchEvent {
    /// The event as it looks on the wire, for the match `setup` describes, played on `game`.
    /// Only a kept engine value that is not one of the game's fails.
    pub fn to_wire(
        &self,
        setup: &MatchSetup,
        game: &dyn HostedGame,
    ) -> Result<pb::match_event::Kind, GameError> {
        use pb::match_event::Kind;
        let seats = &game.info().seats;
        let name = |seat: &Seat| seats[seat.index()].to_owned();
        Ok(match self {
            MatchEvent::Created => Kind::MatchCreated(pb::MatchCreated {
                variant_id: setup.variant_id.clone(),
                rules_version: setup.rules_version.clone(),
                chance: setup.chance.announcement(),
            }),
            MatchEvent::SeatJoined { seat, player_name } => Kind::SeatJoined(pb::SeatJoined {
                seat: name(seat),
                player_name: player_name.clone(),
            }),
            MatchEvent::Started => Kind::MatchStarted(pb::MatchStarted {}),
            MatchEvent::TurnStarted { turn, clocks } => Kind::TurnStarted(pb::TurnStarted {
                turn: Some(turn_to_proto(turn, seats)),
                deadline: clocks
                    .iter()
                    .filter_map(|c| c.deadline)
                    .min()
                    .map(Into::into),
                clocks: clocks
                    .iter()
                    .zip(seats)
                    .map(|(clock, seat)| clock.to_proto(seat))
                    .collect(),
            }),
            MatchEvent::ActionTaken {
                seat,
                action,
                notation,
            } => Kind::ActionTaken(pb::ActionTaken {
                seat: name(seat),
                action: Some(game.action_to_wire(action)?),
                notation: notation.clone(),
            }),
            MatchEvent::Game { event } => Kind::GameEvent(game.event_to_wire(event)?),
            MatchEvent::TimedOut {
                seat,
                consecutive,
                forfeited,
            } => Kind::TimedOut(pb::TimedOut {
                seat: name(seat),
                consecutive: *consecutive,
                forfeited: *forfeited,
            }),
            MatchEvent::Resigned { seat } => Kind::Resigned(pb::Resigned { seat: name(seat) }),
            MatchEvent::DrawOffered { seat } => {
                Kind::DrawOffered(pb::DrawOffered { seat: name(seat) })
            }
            MatchEvent::DrawAccepted { seat } => {
                Kind::DrawAccepted(pb::DrawAccepted { seat: name(seat) })
            }
            MatchEvent::Aborted { seat } => {
                Kind::MatchAborted(pb::MatchAborted { seat: name(seat) })
            }
            MatchEvent::VictoryClaimed { seat } => Kind::VictoryClaimed(pb::VictoryClaimed {
                seat: name(seat),
                opponent: name(&seat.opponent()),
            }),
            MatchEvent::Ended(end) => Kind::MatchEnded(pb::MatchEnded {
                result: Some(end.to_proto(seats)),
            }),
        })
    }

    /// Whether a rebuild reproduced this event: equal, with the game's values compared as the
    /// game reads them.
    pub fn same_as(&self, other: &MatchEvent, game: &dyn HostedGame) -> bool {
        match (self, other) {
            (MatchEvent::Game { event: a }, MatchEvent::Game { event: b }) => game.same_event(a, b),
            (
                MatchEvent::ActionTaken {
                    seat,
                    action,
                    notation,
                },
                MatchEvent::ActionTaken {
                    seat: other_seat,
                    action: other_action,
                    notation: other_notation,
                },
            ) => {
                (seat, notation) == (other_seat, other_notation)
                    && game.same_action(action, other_action)
            }
            _ => self == other,
        }
    }

    pub fn ends_match(&self) -> bool {
        matches!(self, MatchEvent::Ended(_))
    }
}
