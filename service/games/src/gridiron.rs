//! Gridiron on the wire: `proto/pitchmate/v1/gridiron.proto`.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::gridiron::{
    Ability, Action, Details, DicePurpose, DownResult, DriveStart, Event, Gridiron, Kind, Location,
    PieceDetails, Spot,
};

use super::ProtoMapping;
use super::convert::{scores_to_proto, seat_name, square_from_proto, square_to_proto};
use crate::GameError;
use crate::mirror::{Mirror, mirror};

use pb::gridiron_action::Kind as ActionKind;
use pb::gridiron_event::Kind as EventKind;

mirror!(Kind => GridironPieceKind, "a Gridiron piece kind (1 to 11)" {
    Heavy, Strong, Fast, Qb, Safety, Nickelback, Rusher, Scrambler, DeepThreat, LeadBlocker,
    Lineman
});
mirror!(Spot => GridironSpot, "a spot: give NW, NE, C, SW or SE (1 to 5)" { Nw, Ne, C, Sw, Se });
mirror!(Ability => GridironAbility, "a Gridiron ability (1 to 13)" {
    Push, ChopBlock, ChipBlock, Retreat, Engage, SpeedRush, React, Jam, Seal, Juke, RouteRunning,
    Impact, Anchor
});
mirror!(DicePurpose => GridironDicePurpose, "a Gridiron dice purpose" { Collision, Pass });
mirror!(DownResult => GridironDownResult, "a Gridiron down result" {
    Tackle, Sack, TurnLimit, Incomplete, Interception, Touchdown, Safety
});
mirror!(DriveStart => GridironDriveStart, "a Gridiron drive start" {
    Kickoff, Touchdown, Safety, Interception, Punt, Downs
});

fn location_to_proto(location: Location) -> pb::GridironLocation {
    pb::GridironLocation {
        square: Some(square_to_proto(location.square)),
        spot: location.spot.to_proto(),
    }
}

fn location_from_proto(
    location: Option<&pb::GridironLocation>,
    field: &str,
) -> Result<Location, GameError> {
    let location = location.ok_or_else(|| {
        GameError::InvalidArgument(format!("`{field}` is missing: give a square and a spot"))
    })?;
    Ok(Location::new(
        square_from_proto(location.square.as_ref(), &format!("{field}.square"))?,
        Spot::read(location.spot, &format!("{field}.spot"))?,
    ))
}

fn gridiron_action(action: &Action) -> pb::GridironAction {
    let kind = match action {
        Action::Captain(kind) => ActionKind::ChooseCaptain(pb::GridironChooseCaptain {
            kind: kind.to_proto(),
        }),
        Action::Recruit(kind) => ActionKind::Recruit(pb::GridironRecruit {
            kind: kind.to_proto(),
        }),
        Action::DefaultRoster => ActionKind::DefaultRoster(pb::GridironDefaultRoster {}),
        Action::CommitRoster => ActionKind::CommitRoster(pb::GridironCommitRoster {}),
        Action::GoForIt => ActionKind::GoForIt(pb::GridironGoForIt {}),
        Action::Punt => ActionKind::Punt(pb::GridironPunt {}),
        Action::Place { piece, to } => ActionKind::Place(pb::GridironPlace {
            piece_id: *piece,
            to: Some(location_to_proto(*to)),
        }),
        Action::Ready => ActionKind::Ready(pb::GridironReady {}),
        Action::Move { piece, to } => ActionKind::Move(pb::GridironMove {
            piece_id: *piece,
            to: Some(location_to_proto(*to)),
        }),
        Action::Use {
            piece,
            ability,
            target,
        } => ActionKind::UseAbility(pb::GridironUseAbility {
            piece_id: *piece,
            ability: ability.to_proto(),
            target_id: *target,
        }),
        Action::Pass { piece, receiver } => ActionKind::Pass(pb::GridironPass {
            piece_id: *piece,
            receiver_id: *receiver,
        }),
        Action::Fake {
            piece,
            partner,
            keeper,
        } => ActionKind::Fake(pb::GridironFake {
            piece_id: *piece,
            partner_id: *partner,
            keeper_id: *keeper,
        }),
        Action::Commit => ActionKind::CommitOrders(pb::GridironCommitOrders {}),
    };
    pb::GridironAction { kind: Some(kind) }
}

fn piece_details_to_proto(
    piece: &PieceDetails,
    seats: &[&'static str],
) -> pb::GridironPieceDetails {
    pb::GridironPieceDetails {
        piece_id: piece.id,
        owner: seat_name(seats, piece.owner),
        kind: piece.kind.to_proto(),
        location: Some(location_to_proto(piece.location)),
        used: piece.used.iter().map(|a| a.to_proto()).collect(),
        movement_change: i32::from(piece.movement_change),
        frozen: piece.frozen,
        jammed: piece.jammed,
        anchored: piece.anchored,
        sealing: piece.sealing,
    }
}

impl ProtoMapping for Gridiron {
    fn action_to_proto(action: &Action) -> pb::Action {
        pb::Action {
            game: Some(pb::action::Game::Gridiron(gridiron_action(action))),
        }
    }

    fn action_from_proto(action: &pb::Action) -> Result<Action, GameError> {
        let Some(pb::action::Game::Gridiron(action)) = &action.game else {
            return Err(GameError::InvalidArgument(
                "this is a Gridiron match: set `action.gridiron`".to_owned(),
            ));
        };
        match &action.kind {
            Some(ActionKind::ChooseCaptain(choose)) => Ok(Action::Captain(Kind::read(
                choose.kind,
                "choose_captain.kind",
            )?)),
            Some(ActionKind::Recruit(recruit)) => {
                Ok(Action::Recruit(Kind::read(recruit.kind, "recruit.kind")?))
            }
            Some(ActionKind::DefaultRoster(_)) => Ok(Action::DefaultRoster),
            Some(ActionKind::CommitRoster(_)) => Ok(Action::CommitRoster),
            Some(ActionKind::GoForIt(_)) => Ok(Action::GoForIt),
            Some(ActionKind::Punt(_)) => Ok(Action::Punt),
            Some(ActionKind::Place(place)) => Ok(Action::Place {
                piece: place.piece_id,
                to: location_from_proto(place.to.as_ref(), "place.to")?,
            }),
            Some(ActionKind::Ready(_)) => Ok(Action::Ready),
            Some(ActionKind::Move(step)) => Ok(Action::Move {
                piece: step.piece_id,
                to: location_from_proto(step.to.as_ref(), "move.to")?,
            }),
            Some(ActionKind::UseAbility(used)) => Ok(Action::Use {
                piece: used.piece_id,
                ability: Ability::read(used.ability, "use_ability.ability")?,
                target: used.target_id,
            }),
            Some(ActionKind::Pass(pass)) => Ok(Action::Pass {
                piece: pass.piece_id,
                receiver: pass.receiver_id,
            }),
            Some(ActionKind::Fake(fake)) => Ok(Action::Fake {
                piece: fake.piece_id,
                partner: fake.partner_id,
                keeper: fake.keeper_id,
            }),
            Some(ActionKind::CommitOrders(_)) => Ok(Action::Commit),
            None => Err(GameError::InvalidArgument(
                "`gridiron` names no action: set choose_captain, recruit, default_roster, \
                 commit_roster, go_for_it, punt, place, ready, move, use_ability, pass, fake or \
                 commit_orders"
                    .to_owned(),
            )),
        }
    }

    fn event_to_proto(event: &Event, seats: &[&'static str]) -> pb::GameEvent {
        let seat = |s| seat_name(seats, s);
        let kind = match event {
            Event::RosterUpdated { seat: s, action } => {
                EventKind::RosterUpdated(pb::GridironRosterUpdated {
                    seat: seat(*s),
                    action: Some(gridiron_action(action)),
                })
            }
            Event::RosterCommitted { seat: s } => {
                EventKind::RosterCommitted(pb::GridironRosterCommitted { seat: seat(*s) })
            }
            Event::RosterRevealed { seat: s, pieces } => {
                EventKind::RosterRevealed(pb::GridironRosterRevealed {
                    seat: seat(*s),
                    pieces: pieces
                        .iter()
                        .map(|(id, kind)| pb::GridironRosterPiece {
                            piece_id: *id,
                            kind: kind.to_proto(),
                        })
                        .collect(),
                })
            }
            Event::CoinTossed { winner } => EventKind::CoinTossed(pb::GridironCoinTossed {
                winner: seat(*winner),
            }),
            Event::PeriodStarted {
                period,
                first_offense,
            } => EventKind::PeriodStarted(pb::GridironPeriodStarted {
                period: u32::from(*period),
                first_offense: seat(*first_offense),
            }),
            Event::DriveStarted {
                offense,
                line_of_scrimmage,
                how,
                possession,
            } => EventKind::DriveStarted(pb::GridironDriveStarted {
                offense: seat(*offense),
                line_of_scrimmage: i32::from(*line_of_scrimmage),
                how: how.to_proto(),
                possession: u32::from(*possession),
            }),
            Event::DownStarted {
                offense,
                down,
                line_of_scrimmage,
                first_down_line,
            } => EventKind::DownStarted(pb::GridironDownStarted {
                offense: seat(*offense),
                down: u32::from(*down),
                line_of_scrimmage: i32::from(*line_of_scrimmage),
                first_down_line: i32::from(*first_down_line),
            }),
            Event::FourthDownDecided { seat: s, punt } => {
                EventKind::FourthDownDecided(pb::GridironFourthDownDecided {
                    seat: seat(*s),
                    punt: *punt,
                })
            }
            Event::FormationSet { pieces } => EventKind::FormationSet(pb::GridironFormationSet {
                pieces: pieces
                    .iter()
                    .map(|(id, location)| pb::GridironPieceLocation {
                        piece_id: *id,
                        location: Some(location_to_proto(*location)),
                    })
                    .collect(),
            }),
            Event::PiecePlaced { piece, to } => EventKind::PiecePlaced(pb::GridironPiecePlaced {
                piece_id: *piece,
                to: Some(location_to_proto(*to)),
            }),
            Event::FormationReady { seat: s } => {
                EventKind::FormationReady(pb::GridironFormationReady { seat: seat(*s) })
            }
            Event::OrderWritten { seat: s, action } => {
                EventKind::OrderWritten(pb::GridironOrderWritten {
                    seat: seat(*s),
                    action: Some(gridiron_action(action)),
                })
            }
            Event::OrdersCommitted { seat: s } => {
                EventKind::OrdersCommitted(pb::GridironOrdersCommitted { seat: seat(*s) })
            }
            Event::OrdersRevealed { seat: s, orders } => {
                EventKind::OrdersRevealed(pb::GridironOrdersRevealed {
                    seat: seat(*s),
                    orders: orders.iter().map(gridiron_action).collect(),
                })
            }
            Event::PieceMoved { piece, from, to } => {
                EventKind::PieceMoved(pb::GridironPieceMoved {
                    piece_id: *piece,
                    from: Some(location_to_proto(*from)),
                    to: Some(location_to_proto(*to)),
                })
            }
            Event::MoveStopped { piece, reason } => {
                EventKind::MoveStopped(pb::GridironMoveStopped {
                    piece_id: *piece,
                    reason: reason.clone(),
                })
            }
            Event::DiceRolled {
                purpose,
                seat: s,
                piece,
                value,
            } => EventKind::DiceRolled(pb::GridironDiceRolled {
                purpose: purpose.to_proto(),
                seat: seat(*s),
                piece_id: *piece,
                value: u32::from(*value),
            }),
            Event::Collision {
                mover,
                occupant,
                winner,
            } => EventKind::Collision(pb::GridironCollision {
                mover_id: *mover,
                occupant_id: *occupant,
                winner_id: *winner,
            }),
            Event::PieceReturned { piece, to } => {
                EventKind::PieceReturned(pb::GridironPieceReturned {
                    piece_id: *piece,
                    to: Some(location_to_proto(*to)),
                })
            }
            Event::AbilityUsed {
                piece,
                ability,
                target,
            } => EventKind::AbilityUsed(pb::GridironAbilityUsed {
                piece_id: *piece,
                ability: ability.to_proto(),
                target_id: *target,
            }),
            Event::OrderFailed {
                piece,
                what,
                reason,
            } => EventKind::OrderFailed(pb::GridironOrderFailed {
                piece_id: *piece,
                what: what.clone(),
                reason: reason.clone(),
            }),
            Event::PiecePushed { piece, from, to } => {
                EventKind::PiecePushed(pb::GridironPiecePushed {
                    piece_id: *piece,
                    from: Some(location_to_proto(*from)),
                    to: Some(location_to_proto(*to)),
                })
            }
            Event::MovementChanged {
                piece,
                change,
                frozen,
                next_turn,
            } => EventKind::MovementChanged(pb::GridironMovementChanged {
                piece_id: *piece,
                change: i32::from(*change),
                frozen: *frozen,
                next_turn: *next_turn,
            }),
            Event::BallHidden { passer, partner } => {
                EventKind::BallHidden(pb::GridironBallHidden {
                    passer_id: *passer,
                    partner_id: *partner,
                })
            }
            Event::KeeperChosen { keeper } => {
                EventKind::KeeperChosen(pb::GridironKeeperChosen { keeper_id: *keeper })
            }
            Event::BallRevealed { holder } => {
                EventKind::BallRevealed(pb::GridironBallRevealed { holder_id: *holder })
            }
            Event::PassThrown {
                passer,
                receiver,
                modifier,
            } => EventKind::PassThrown(pb::GridironPassThrown {
                passer_id: *passer,
                receiver_id: *receiver,
                modifier: i32::from(*modifier),
            }),
            Event::PassCancelled { passer, reason } => {
                EventKind::PassCancelled(pb::GridironPassCancelled {
                    passer_id: *passer,
                    reason: reason.clone(),
                })
            }
            Event::PassCompleted { receiver, total } => {
                EventKind::PassCompleted(pb::GridironPassCompleted {
                    receiver_id: *receiver,
                    total: i32::from(*total),
                })
            }
            Event::PassIncomplete { total } => {
                EventKind::PassIncomplete(pb::GridironPassIncomplete {
                    total: i32::from(*total),
                })
            }
            Event::PassIntercepted { by, total } => {
                EventKind::PassIntercepted(pb::GridironPassIntercepted {
                    by_id: *by,
                    total: i32::from(*total),
                })
            }
            Event::Tackled {
                tackler,
                carrier,
                at,
            } => EventKind::Tackled(pb::GridironTackled {
                tackler_id: *tackler,
                carrier_id: *carrier,
                at: Some(location_to_proto(*at)),
            }),
            Event::TackleMissed { tackler, piece } => {
                EventKind::TackleMissed(pb::GridironTackleMissed {
                    tackler_id: *tackler,
                    piece_id: *piece,
                })
            }
            Event::Scored {
                seat: s,
                points,
                reason,
            } => EventKind::Scored(pb::GridironScored {
                seat: seat(*s),
                points: *points,
                reason: reason.to_proto(),
            }),
            Event::DownEnded { result, ball_rank } => EventKind::DownEnded(pb::GridironDownEnded {
                result: result.to_proto(),
                ball_rank: i32::from(*ball_rank),
            }),
            Event::FirstDown {
                line_of_scrimmage,
                first_down_line,
            } => EventKind::FirstDown(pb::GridironFirstDown {
                line_of_scrimmage: i32::from(*line_of_scrimmage),
                first_down_line: i32::from(*first_down_line),
            }),
            Event::TurnoverOnDowns { spot } => {
                EventKind::TurnoverOnDowns(pb::GridironTurnoverOnDowns {
                    spot: i32::from(*spot),
                })
            }
            Event::PeriodEnded { period } => EventKind::PeriodEnded(pb::GridironPeriodEnded {
                period: u32::from(*period),
            }),
            Event::GameEnded { winner, scores } => EventKind::GameEnded(pb::GridironGameEnded {
                winner: winner.map(seat).unwrap_or_default(),
                scores: scores_to_proto(scores, seats),
            }),
        };
        pb::GameEvent {
            game: Some(pb::game_event::Game::Gridiron(pb::GridironEvent {
                kind: Some(kind),
            })),
        }
    }

    fn details_to_proto(details: &Details, seats: &[&'static str]) -> pb::match_view::Details {
        let (own_captain, own_standard) = match &details.own_roster {
            Some((captain, standard)) => (
                captain.map_or(pb::GridironPieceKind::Unspecified, Kind::to_wire),
                standard.iter().map(|k| k.to_proto()).collect(),
            ),
            None => (pb::GridironPieceKind::Unspecified, Vec::new()),
        };
        let possessions: Vec<u32> = details.possessions.iter().map(|p| u32::from(*p)).collect();
        pb::match_view::Details::Gridiron(pb::GridironDetails {
            phase: details.phase.clone(),
            offense: details
                .offense
                .map(|s| seat_name(seats, s))
                .unwrap_or_default(),
            down: u32::from(details.down),
            line_of_scrimmage: i32::from(details.line_of_scrimmage),
            first_down_line: i32::from(details.first_down_line),
            turn: details.turn,
            turns_per_down: details.turns_per_down,
            period: u32::from(details.period),
            possessions: scores_to_proto(&possessions, seats),
            possessions_per_period: u32::from(details.possessions_per_period),
            scores: scores_to_proto(&details.scores, seats),
            committed: details
                .committed
                .iter()
                .map(|s| seat_name(seats, *s))
                .collect(),
            own_orders: details.own_orders.iter().map(gridiron_action).collect(),
            own_captain: own_captain as i32,
            own_standard,
            pieces: details
                .pieces
                .iter()
                .map(|p| piece_details_to_proto(p, seats))
                .collect(),
            ball_hidden: details.ball_hidden,
            pass_thrown: details.pass_thrown,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use pitchmate_rules::{Seat, Square};

    use super::*;

    const SEATS: [&str; 2] = ["home", "away"];

    fn at(file: i8, rank: i8, spot: Spot) -> Location {
        Location::new(Square::new(file, rank), spot)
    }

    /// One action of every kind, abilities with and without a target.
    fn sample_actions() -> Vec<Action> {
        vec![
            Action::Captain(Kind::DeepThreat),
            Action::Recruit(Kind::Heavy),
            Action::DefaultRoster,
            Action::CommitRoster,
            Action::GoForIt,
            Action::Punt,
            Action::Place {
                piece: 3,
                to: at(8, 8, Spot::Nw),
            },
            Action::Ready,
            Action::Move {
                piece: 13,
                to: at(16, 48, Spot::Se),
            },
            Action::Use {
                piece: 2,
                ability: Ability::Push,
                target: Some(9),
            },
            Action::Use {
                piece: 0,
                ability: Ability::RouteRunning,
                target: None,
            },
            Action::Pass {
                piece: 1,
                receiver: 6,
            },
            Action::Fake {
                piece: 1,
                partner: 6,
                keeper: 6,
            },
            Action::Commit,
        ]
    }

    #[test]
    fn every_action_kind_round_trips_through_proto() {
        let mut kinds = HashSet::new();
        for action in sample_actions() {
            let proto = Gridiron::action_to_proto(&action);
            let Some(pb::action::Game::Gridiron(typed)) = &proto.game else {
                panic!("not a gridiron action: {proto:?}");
            };
            kinds.insert(std::mem::discriminant(typed.kind.as_ref().unwrap()));
            assert_eq!(Gridiron::action_from_proto(&proto).unwrap(), action);
        }
        assert_eq!(kinds.len(), 13, "every GridironAction kind is sampled");
    }

    #[test]
    fn every_ability_and_kind_round_trips() {
        for ability in Ability::ALL {
            let action = Action::Use {
                piece: 4,
                ability,
                target: None,
            };
            let proto = Gridiron::action_to_proto(&action);
            assert_eq!(Gridiron::action_from_proto(&proto).unwrap(), action);
        }
        for kind in Kind::ALL {
            let action = Action::Recruit(kind);
            let proto = Gridiron::action_to_proto(&action);
            assert_eq!(Gridiron::action_from_proto(&proto).unwrap(), action);
        }
        for spot in Spot::ALL {
            let action = Action::Move {
                piece: 0,
                to: at(1, 1, spot),
            };
            let proto = Gridiron::action_to_proto(&action);
            assert_eq!(Gridiron::action_from_proto(&proto).unwrap(), action);
        }
    }

    fn typed(kind: ActionKind) -> pb::Action {
        pb::Action {
            game: Some(pb::action::Game::Gridiron(pb::GridironAction {
                kind: Some(kind),
            })),
        }
    }

    #[test]
    fn malformed_typed_actions_are_invalid_arguments_naming_the_field() {
        let square = Some(square_to_proto(Square::new(8, 9)));
        let cases = [
            (pb::Action { game: None }, "action.gridiron"),
            (
                // A typed action of another game.
                pb::Action {
                    game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                        kind: Some(pb::soccer_chess_action::Kind::EndSet(
                            pb::SoccerChessEndSet {},
                        )),
                    })),
                },
                "this is a Gridiron match: set `action.gridiron`",
            ),
            (
                pb::Action {
                    game: Some(pb::action::Game::Gridiron(pb::GridironAction {
                        kind: None,
                    })),
                },
                "names no action",
            ),
            (
                typed(ActionKind::Place(pb::GridironPlace {
                    piece_id: 1,
                    to: None,
                })),
                "`place.to` is missing",
            ),
            (
                typed(ActionKind::Move(pb::GridironMove {
                    piece_id: 1,
                    to: Some(pb::GridironLocation {
                        square: None,
                        spot: pb::GridironSpot::C as i32,
                    }),
                })),
                "`move.to.square` is missing",
            ),
            (
                typed(ActionKind::Move(pb::GridironMove {
                    piece_id: 1,
                    to: Some(pb::GridironLocation {
                        square: square.clone(),
                        spot: pb::GridironSpot::Unspecified as i32,
                    }),
                })),
                "`move.to.spot` is missing: give a spot",
            ),
            (
                typed(ActionKind::Place(pb::GridironPlace {
                    piece_id: 1,
                    to: Some(pb::GridironLocation { square, spot: 42 }),
                })),
                "`place.to.spot` 42 is not a spot",
            ),
            (
                typed(ActionKind::UseAbility(pb::GridironUseAbility {
                    piece_id: 1,
                    ability: 0,
                    target_id: None,
                })),
                "`use_ability.ability` is missing: give a Gridiron ability",
            ),
            (
                typed(ActionKind::ChooseCaptain(pb::GridironChooseCaptain {
                    kind: 99,
                })),
                "`choose_captain.kind` 99 is not a Gridiron piece kind",
            ),
            (
                typed(ActionKind::Recruit(pb::GridironRecruit { kind: 0 })),
                "`recruit.kind` is missing: give a Gridiron piece kind",
            ),
        ];
        for (action, expected) in cases {
            let error = Gridiron::action_from_proto(&action).unwrap_err();
            assert!(
                matches!(error, crate::GameError::InvalidArgument(_)),
                "{action:?}"
            );
            assert!(
                error.to_string().contains(expected),
                "{error} should say {expected:?}"
            );
        }
    }

    /// One event of every kind.
    fn sample_events() -> Vec<Event> {
        let here = at(8, 9, Spot::C);
        let there = at(8, 10, Spot::Ne);
        vec![
            Event::RosterUpdated {
                seat: Seat(1),
                action: Action::Captain(Kind::Safety),
            },
            Event::RosterCommitted { seat: Seat(0) },
            Event::RosterRevealed {
                seat: Seat(1),
                pieces: vec![(7, Kind::Safety), (8, Kind::Qb)],
            },
            Event::CoinTossed { winner: Seat(1) },
            Event::PeriodStarted {
                period: 2,
                first_offense: Seat(0),
            },
            Event::DriveStarted {
                offense: Seat(1),
                line_of_scrimmage: 41,
                how: DriveStart::Punt,
                possession: 2,
            },
            Event::DownStarted {
                offense: Seat(0),
                down: 3,
                line_of_scrimmage: 12,
                first_down_line: 14,
            },
            Event::FourthDownDecided {
                seat: Seat(0),
                punt: true,
            },
            Event::FormationSet {
                pieces: vec![(0, here), (7, there)],
            },
            Event::PiecePlaced { piece: 3, to: here },
            Event::FormationReady { seat: Seat(1) },
            Event::OrderWritten {
                seat: Seat(0),
                action: Action::Move {
                    piece: 2,
                    to: there,
                },
            },
            Event::OrdersCommitted { seat: Seat(1) },
            Event::OrdersRevealed {
                seat: Seat(0),
                orders: vec![Action::Pass {
                    piece: 1,
                    receiver: 6,
                }],
            },
            Event::PieceMoved {
                piece: 2,
                from: here,
                to: there,
            },
            Event::MoveStopped {
                piece: 2,
                reason: "h10 is occupied".into(),
            },
            Event::DiceRolled {
                purpose: DicePurpose::Collision,
                seat: Seat(1),
                piece: 9,
                value: 6,
            },
            Event::Collision {
                mover: 2,
                occupant: 9,
                winner: None,
            },
            Event::PieceReturned { piece: 2, to: here },
            Event::AbilityUsed {
                piece: 2,
                ability: Ability::Engage,
                target: Some(9),
            },
            Event::OrderFailed {
                piece: 2,
                what: "push".into(),
                reason: "no room".into(),
            },
            Event::PiecePushed {
                piece: 9,
                from: here,
                to: there,
            },
            Event::MovementChanged {
                piece: 9,
                change: -1,
                frozen: false,
                next_turn: true,
            },
            Event::BallHidden {
                passer: 1,
                partner: 6,
            },
            Event::KeeperChosen { keeper: 6 },
            Event::BallRevealed { holder: 6 },
            Event::PassThrown {
                passer: 1,
                receiver: 6,
                modifier: -2,
            },
            Event::PassCancelled {
                passer: 1,
                reason: "the passer no longer holds the ball".into(),
            },
            Event::PassCompleted {
                receiver: 6,
                total: 4,
            },
            Event::PassIncomplete { total: 2 },
            Event::PassIntercepted { by: 7, total: -1 },
            Event::Tackled {
                tackler: 9,
                carrier: 1,
                at: here,
            },
            Event::TackleMissed {
                tackler: 9,
                piece: 6,
            },
            Event::Scored {
                seat: Seat(1),
                points: 2,
                reason: DownResult::Safety,
            },
            Event::DownEnded {
                result: DownResult::Sack,
                ball_rank: 7,
            },
            Event::FirstDown {
                line_of_scrimmage: 14,
                first_down_line: 18,
            },
            Event::TurnoverOnDowns { spot: 20 },
            Event::PeriodEnded { period: 1 },
            Event::GameEnded {
                winner: None,
                scores: vec![7, 7],
            },
        ]
    }

    fn variant_name(debug: String) -> String {
        debug
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap()
            .to_owned()
    }

    fn proto_kind(event: &Event) -> EventKind {
        let pb::GameEvent {
            game: Some(pb::game_event::Game::Gridiron(pb::GridironEvent { kind: Some(kind) })),
        } = Gridiron::event_to_proto(event, &SEATS)
        else {
            panic!("not a gridiron event: {event:?}");
        };
        kind
    }

    #[test]
    fn every_event_kind_maps_to_its_message() {
        let mut mapped = BTreeSet::new();
        for event in sample_events() {
            let kind = proto_kind(&event);
            // The proto oneof cases carry the engine's event names.
            let name = variant_name(format!("{event:?}"));
            assert_eq!(variant_name(format!("{kind:?}")), name, "{kind:?}");
            mapped.insert(name);
        }
        assert_eq!(mapped.len(), 39, "every GridironEvent kind is sampled");
    }

    #[test]
    fn events_name_seats_and_keep_optional_fields() {
        let events = sample_events();
        let find = |name: &str| {
            let event = events
                .iter()
                .find(|e| variant_name(format!("{e:?}")) == name)
                .unwrap();
            proto_kind(event)
        };
        let EventKind::RosterUpdated(update) = find("RosterUpdated") else {
            panic!()
        };
        assert_eq!(update.seat, "away");
        assert_eq!(
            update.action.unwrap().kind,
            Some(ActionKind::ChooseCaptain(pb::GridironChooseCaptain {
                kind: pb::GridironPieceKind::Safety as i32
            }))
        );
        let EventKind::DriveStarted(drive) = find("DriveStarted") else {
            panic!()
        };
        assert_eq!(
            (drive.offense.as_str(), drive.line_of_scrimmage, drive.how),
            ("away", 41, pb::GridironDriveStart::Punt as i32)
        );
        let EventKind::Collision(collision) = find("Collision") else {
            panic!()
        };
        assert_eq!(collision.winner_id, None, "a tie has no winner");
        let EventKind::PassIntercepted(interception) = find("PassIntercepted") else {
            panic!()
        };
        assert_eq!((interception.by_id, interception.total), (7, -1));
        let EventKind::PieceMoved(moved) = find("PieceMoved") else {
            panic!()
        };
        let to = moved.to.unwrap();
        assert_eq!(to.square.unwrap().name, "h10");
        assert_eq!(to.spot, pb::GridironSpot::Ne as i32);
        let EventKind::GameEnded(ended) = find("GameEnded") else {
            panic!()
        };
        assert_eq!(ended.winner, "", "a draw names no winner");
        assert_eq!(ended.scores[1].seat, "away");
        assert_eq!(ended.scores[1].score, 7);
    }

    fn sample_details() -> Details {
        Details {
            phase: "roster".into(),
            offense: None,
            down: 0,
            line_of_scrimmage: 0,
            first_down_line: 0,
            turn: 0,
            turns_per_down: 6,
            period: 0,
            possessions: vec![2, 1],
            possessions_per_period: 4,
            scores: vec![7, 0],
            committed: vec![Seat(1)],
            own_orders: vec![Action::Commit],
            own_roster: Some((None, vec![Kind::Heavy, Kind::Qb])),
            pieces: vec![PieceDetails {
                id: 8,
                owner: Seat(1),
                kind: Kind::Nickelback,
                location: at(3, 30, Spot::Sw),
                used: vec![Ability::ChopBlock],
                movement_change: -1,
                frozen: true,
                jammed: false,
                anchored: true,
                sealing: false,
            }],
            ball_hidden: true,
            pass_thrown: false,
        }
    }

    #[test]
    fn details_name_seats_per_seat_counts_and_the_draft() {
        let pb::match_view::Details::Gridiron(details) =
            Gridiron::details_to_proto(&sample_details(), &SEATS)
        else {
            panic!("not gridiron details");
        };
        assert_eq!(details.offense, "", "no offense before the first drive");
        assert_eq!(details.committed, ["away"]);
        assert_eq!(details.possessions[0].seat, "home");
        assert_eq!(details.possessions[0].score, 2);
        assert_eq!(details.possessions[1].score, 1);
        assert_eq!(details.scores[0].score, 7);
        assert_eq!(
            details.own_captain,
            pb::GridironPieceKind::Unspecified as i32
        );
        assert_eq!(
            details.own_standard,
            [
                pb::GridironPieceKind::Heavy as i32,
                pb::GridironPieceKind::Qb as i32
            ]
        );
        assert_eq!(details.own_orders.len(), 1);
        let piece = &details.pieces[0];
        assert_eq!(piece.owner, "away");
        assert_eq!(piece.kind, pb::GridironPieceKind::Nickelback as i32);
        assert_eq!(piece.used, [pb::GridironAbility::ChopBlock as i32]);
        assert_eq!(piece.movement_change, -1);
        assert!(piece.frozen && piece.anchored && !piece.jammed);
        assert!(details.ball_hidden);

        let mut drive = sample_details();
        drive.offense = Some(Seat(0));
        drive.own_roster = Some((Some(Kind::Lineman), Vec::new()));
        let pb::match_view::Details::Gridiron(drive) = Gridiron::details_to_proto(&drive, &SEATS)
        else {
            panic!("not gridiron details");
        };
        assert_eq!(drive.offense, "home");
        assert_eq!(drive.own_captain, pb::GridironPieceKind::Lineman as i32);
    }
}
