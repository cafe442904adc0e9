//! XFutebol on the wire: `proto/pitchmate/v1/xfutebol.proto`.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::xfutebol::{
    Action, Attributes, Details, DuelKind, DuelOutcome, Event, Formation, PhaseKind, PieceDetails,
    Role, Special, TossPurpose, XFutebol,
};
use pitchmate_rules::{Seat, Square};

use super::ProtoMapping;
use super::convert::{scores_to_proto, seat_name, square_from_proto, square_to_proto};
use crate::GameError;
use crate::mirror::{Mirror, mirror};

use pb::xfutebol_action::Kind as ActionKind;
use pb::xfutebol_event::Kind as EventKind;

fn square(square: Square) -> Option<pb::Square> {
    Some(square_to_proto(square))
}

fn optional_square(square: Option<Square>) -> Option<pb::Square> {
    square.map(square_to_proto)
}

/// Reads a square that may be absent (the corner of a straight long pass or shot).
fn optional_square_from_proto(
    square: Option<&pb::Square>,
    field: &str,
) -> Result<Option<Square>, GameError> {
    square
        .map(|square| square_from_proto(Some(square), field))
        .transpose()
}

/// A seat that may be unknown yet (who kicked off first, who kicks first in a shoot-out) or
/// absent (the winner of a draw): the empty string then.
fn optional_seat(seat: Option<Seat>, seats: &[&'static str]) -> String {
    seat.map(|seat| seat_name(seats, seat)).unwrap_or_default()
}

fn pair(values: [u32; 2], seats: &[&'static str]) -> Vec<pb::SeatScore> {
    scores_to_proto(&values, seats)
}

mirror!(Formation => XfutebolFormation, "an XFutebol formation: 1 for 4-3-3, 2 for 5-3-2" {
    FourThreeThree, FiveThreeTwo
});
mirror!(Special => XfutebolSpecial, "an XFutebol special: 1 Dribbler, 2 Goaler, 3 Long Expert" {
    Dribbler, Goaler, LongExpert
});
mirror!(Role => XfutebolRole, "an XFutebol role" {
    Keeper, Defender, Midfielder, Attacker, Dribbler, Goaler, LongExpert
});
mirror!(PhaseKind => XfutebolPhase, "an XFutebol phase" {
    Lineup, Play, SendOff, Penalty, Shootout, Over
});
mirror!(DuelKind => XfutebolDuelKind, "an XFutebol duel kind" {
    Challenge, Interception, Dribble, Keeper, Barrier, Penalty
});
mirror!(DuelOutcome => XfutebolDuelOutcome, "an XFutebol duel outcome" {
    InitiatorWins, Tie, OpponentWins, Rebound
});
mirror!(TossPurpose => XfutebolTossPurpose, "an XFutebol toss purpose" {
    KickOff, ShootoutDecider
});

fn attributes_to_proto(attributes: Attributes) -> pb::XfutebolAttributes {
    pb::XfutebolAttributes {
        speed: attributes.speed,
        skill: attributes.skill,
        strength: attributes.strength,
        goal: attributes.goal,
        defense: attributes.defense,
    }
}

fn piece_to_proto(piece: &PieceDetails, seats: &[&'static str]) -> pb::XfutebolPiece {
    pb::XfutebolPiece {
        id: piece.id,
        seat: seat_name(seats, piece.seat),
        number: u32::from(piece.number),
        role: piece.role.to_proto(),
        slot: piece.slot.to_proto(),
        attributes: Some(attributes_to_proto(piece.attributes)),
        square: optional_square(piece.square),
        resting_turns: piece.resting_turns,
        sent_off: piece.sent_off,
    }
}

impl ProtoMapping for XFutebol {
    fn action_to_proto(action: &Action) -> pb::Action {
        let kind = match action {
            Action::DefaultLineup => ActionKind::DefaultLineup(pb::XfutebolDefaultLineup {}),
            Action::Formation(formation) => {
                ActionKind::ChooseFormation(pb::XfutebolChooseFormation {
                    formation: formation.to_proto(),
                })
            }
            Action::AssignSpecial { at, special } => {
                ActionKind::AssignSpecial(pb::XfutebolAssignSpecial {
                    at: square(*at),
                    special: special.to_proto(),
                })
            }
            Action::Place { from, to } => ActionKind::Place(pb::XfutebolPlace {
                from: square(*from),
                to: square(*to),
            }),
            Action::ConfirmLineup => ActionKind::ConfirmLineup(pb::XfutebolConfirmLineup {}),
            Action::Move { from, to } => ActionKind::Move(pb::XfutebolMove {
                from: square(*from),
                to: square(*to),
            }),
            Action::Sprint { from, to } => ActionKind::Sprint(pb::XfutebolSprint {
                from: square(*from),
                to: square(*to),
            }),
            Action::Pass { from, to } => ActionKind::Pass(pb::XfutebolPass {
                from: square(*from),
                to: square(*to),
            }),
            Action::LongPass { from, via, to } => ActionKind::LongPass(pb::XfutebolLongPass {
                from: square(*from),
                via: optional_square(*via),
                to: square(*to),
            }),
            Action::Dribble { from, to } => ActionKind::Dribble(pb::XfutebolDribble {
                from: square(*from),
                to: square(*to),
            }),
            Action::Challenge { from, target } => ActionKind::Challenge(pb::XfutebolChallenge {
                from: square(*from),
                target: square(*target),
            }),
            Action::Shoot { from, goal } => ActionKind::Shoot(pb::XfutebolShoot {
                from: square(*from),
                goal: square(*goal),
            }),
            Action::LongShoot { from, via, goal } => ActionKind::LongShoot(pb::XfutebolLongShoot {
                from: square(*from),
                via: optional_square(*via),
                goal: square(*goal),
            }),
            Action::FreeKick { from, goal } => ActionKind::FreeKick(pb::XfutebolFreeKick {
                from: square(*from),
                goal: square(*goal),
            }),
            Action::Penalty { kicker } => ActionKind::Penalty(pb::XfutebolPenalty {
                kicker: square(*kicker),
            }),
            Action::SendOff { at } => ActionKind::SendOff(pb::XfutebolSendOff { at: square(*at) }),
            Action::EndTurn => ActionKind::EndTurn(pb::XfutebolEndTurn {}),
        };
        pb::Action {
            game: Some(pb::action::Game::Xfutebol(pb::XfutebolAction {
                kind: Some(kind),
            })),
        }
    }

    fn action_from_proto(action: &pb::Action) -> Result<Action, GameError> {
        let Some(pb::action::Game::Xfutebol(action)) = &action.game else {
            return Err(GameError::InvalidArgument(
                "this is an XFutebol match: set `action.xfutebol`".to_owned(),
            ));
        };
        let Some(kind) = &action.kind else {
            return Err(GameError::InvalidArgument(
                "`xfutebol` names no action: set default_lineup, choose_formation, \
                 assign_special, place, confirm_lineup, move, sprint, pass, long_pass, dribble, \
                 challenge, shoot, long_shoot, free_kick, penalty, send_off or end_turn"
                    .to_owned(),
            ));
        };
        Ok(match kind {
            ActionKind::DefaultLineup(_) => Action::DefaultLineup,
            ActionKind::ChooseFormation(choice) => Action::Formation(Formation::read(
                choice.formation,
                "choose_formation.formation",
            )?),
            ActionKind::AssignSpecial(assign) => Action::AssignSpecial {
                at: square_from_proto(assign.at.as_ref(), "assign_special.at")?,
                special: Special::read(assign.special, "assign_special.special")?,
            },
            ActionKind::Place(place) => Action::Place {
                from: square_from_proto(place.from.as_ref(), "place.from")?,
                to: square_from_proto(place.to.as_ref(), "place.to")?,
            },
            ActionKind::ConfirmLineup(_) => Action::ConfirmLineup,
            ActionKind::Move(step) => Action::Move {
                from: square_from_proto(step.from.as_ref(), "move.from")?,
                to: square_from_proto(step.to.as_ref(), "move.to")?,
            },
            ActionKind::Sprint(sprint) => Action::Sprint {
                from: square_from_proto(sprint.from.as_ref(), "sprint.from")?,
                to: square_from_proto(sprint.to.as_ref(), "sprint.to")?,
            },
            ActionKind::Pass(pass) => Action::Pass {
                from: square_from_proto(pass.from.as_ref(), "pass.from")?,
                to: square_from_proto(pass.to.as_ref(), "pass.to")?,
            },
            ActionKind::LongPass(pass) => Action::LongPass {
                from: square_from_proto(pass.from.as_ref(), "long_pass.from")?,
                via: optional_square_from_proto(pass.via.as_ref(), "long_pass.via")?,
                to: square_from_proto(pass.to.as_ref(), "long_pass.to")?,
            },
            ActionKind::Dribble(dribble) => Action::Dribble {
                from: square_from_proto(dribble.from.as_ref(), "dribble.from")?,
                to: square_from_proto(dribble.to.as_ref(), "dribble.to")?,
            },
            ActionKind::Challenge(challenge) => Action::Challenge {
                from: square_from_proto(challenge.from.as_ref(), "challenge.from")?,
                target: square_from_proto(challenge.target.as_ref(), "challenge.target")?,
            },
            ActionKind::Shoot(shot) => Action::Shoot {
                from: square_from_proto(shot.from.as_ref(), "shoot.from")?,
                goal: square_from_proto(shot.goal.as_ref(), "shoot.goal")?,
            },
            ActionKind::LongShoot(shot) => Action::LongShoot {
                from: square_from_proto(shot.from.as_ref(), "long_shoot.from")?,
                via: optional_square_from_proto(shot.via.as_ref(), "long_shoot.via")?,
                goal: square_from_proto(shot.goal.as_ref(), "long_shoot.goal")?,
            },
            ActionKind::FreeKick(kick) => Action::FreeKick {
                from: square_from_proto(kick.from.as_ref(), "free_kick.from")?,
                goal: square_from_proto(kick.goal.as_ref(), "free_kick.goal")?,
            },
            ActionKind::Penalty(penalty) => Action::Penalty {
                kicker: square_from_proto(penalty.kicker.as_ref(), "penalty.kicker")?,
            },
            ActionKind::SendOff(send_off) => Action::SendOff {
                at: square_from_proto(send_off.at.as_ref(), "send_off.at")?,
            },
            ActionKind::EndTurn(_) => Action::EndTurn,
        })
    }

    fn event_to_proto(event: &Event, seats: &[&'static str]) -> pb::GameEvent {
        let kind = match event {
            Event::FormationChosen { seat, formation } => {
                EventKind::FormationChosen(pb::XfutebolFormationChosen {
                    seat: seat_name(seats, *seat),
                    formation: formation.to_proto(),
                })
            }
            Event::SpecialAssigned { piece, special } => {
                EventKind::SpecialAssigned(pb::XfutebolSpecialAssigned {
                    piece_id: *piece,
                    special: special.to_proto(),
                })
            }
            Event::PiecePlaced { piece, from, to } => {
                EventKind::PiecePlaced(pb::XfutebolPiecePlaced {
                    piece_id: *piece,
                    from: square(*from),
                    to: square(*to),
                })
            }
            Event::LineupConfirmed { seat } => {
                EventKind::LineupConfirmed(pb::XfutebolLineupConfirmed {
                    seat: seat_name(seats, *seat),
                })
            }
            Event::CoinTossed { purpose, winner } => {
                EventKind::CoinTossed(pb::XfutebolCoinTossed {
                    purpose: purpose.to_proto(),
                    winner: seat_name(seats, *winner),
                })
            }
            Event::KickOff { seat, half, ball } => EventKind::KickOff(pb::XfutebolKickOff {
                seat: seat_name(seats, *seat),
                half: u32::from(*half),
                ball: square(*ball),
            }),
            Event::PieceMoved {
                piece,
                from,
                to,
                sprint,
            } => EventKind::PieceMoved(pb::XfutebolPieceMoved {
                piece_id: *piece,
                from: square(*from),
                to: square(*to),
                sprint: *sprint,
            }),
            Event::BallTaken { piece, square: at } => EventKind::BallTaken(pb::XfutebolBallTaken {
                piece_id: *piece,
                square: square(*at),
            }),
            Event::BallPassed {
                piece,
                from,
                to,
                via,
                long,
            } => EventKind::BallPassed(pb::XfutebolBallPassed {
                piece_id: *piece,
                from: square(*from),
                to: square(*to),
                via: optional_square(*via),
                long: *long,
            }),
            Event::BallLoose { square: at } => EventKind::BallLoose(pb::XfutebolBallLoose {
                square: square(*at),
            }),
            Event::BallWon { piece } => {
                EventKind::BallWon(pb::XfutebolBallWon { piece_id: *piece })
            }
            Event::Duel {
                kind,
                initiator,
                initiator_total,
                opponent,
                opponent_total,
                outcome,
            } => EventKind::Duel(pb::XfutebolDuel {
                kind: kind.to_proto(),
                initiator_id: *initiator,
                initiator_total: *initiator_total,
                opponent_id: *opponent,
                opponent_total: *opponent_total,
                outcome: outcome.to_proto(),
            }),
            Event::Dribbled { piece, from, to } => EventKind::Dribbled(pb::XfutebolDribbled {
                piece_id: *piece,
                from: square(*from),
                to: square(*to),
            }),
            Event::ShotTaken {
                piece,
                from,
                goal,
                via,
                long,
                empty_goal,
            } => EventKind::ShotTaken(pb::XfutebolShotTaken {
                piece_id: *piece,
                from: square(*from),
                goal: square(*goal),
                via: optional_square(*via),
                long: *long,
                empty_goal: *empty_goal,
            }),
            Event::GoalScored {
                seat,
                scorer,
                score,
            } => EventKind::GoalScored(pb::XfutebolGoalScored {
                seat: seat_name(seats, *seat),
                scorer_id: *scorer,
                score: pair(*score, seats),
            }),
            Event::Foul {
                seat,
                piece,
                fouled,
                square: at,
                team_fouls,
            } => EventKind::Foul(pb::XfutebolFoul {
                seat: seat_name(seats, *seat),
                piece_id: *piece,
                fouled_id: *fouled,
                square: square(*at),
                team_fouls: *team_fouls,
            }),
            Event::YellowCard { seat } => EventKind::YellowCard(pb::XfutebolYellowCard {
                seat: seat_name(seats, *seat),
            }),
            Event::RedCard { seat, removal } => EventKind::RedCard(pb::XfutebolRedCard {
                seat: seat_name(seats, *seat),
                removal: *removal,
            }),
            Event::PieceSentOff { piece } => {
                EventKind::PieceSentOff(pb::XfutebolPieceSentOff { piece_id: *piece })
            }
            Event::FreeKickAwarded { seat, square: at } => {
                EventKind::FreeKickAwarded(pb::XfutebolFreeKickAwarded {
                    seat: seat_name(seats, *seat),
                    square: square(*at),
                })
            }
            Event::PenaltyAwarded { seat, square: at } => {
                EventKind::PenaltyAwarded(pb::XfutebolPenaltyAwarded {
                    seat: seat_name(seats, *seat),
                    square: square(*at),
                })
            }
            Event::FreeKickTaken {
                piece,
                goal,
                barrier,
            } => EventKind::FreeKickTaken(pb::XfutebolFreeKickTaken {
                piece_id: *piece,
                goal: square(*goal),
                barrier_ids: barrier.clone(),
            }),
            Event::PenaltyTaken { piece, keeper } => {
                EventKind::PenaltyTaken(pb::XfutebolPenaltyTaken {
                    piece_id: *piece,
                    keeper_id: *keeper,
                })
            }
            Event::SprintUsed { seat, count, free } => {
                EventKind::SprintUsed(pb::XfutebolSprintUsed {
                    seat: seat_name(seats, *seat),
                    count: *count,
                    free: *free,
                })
            }
            Event::PieceRested { piece, own_turns } => {
                EventKind::PieceRested(pb::XfutebolPieceRested {
                    piece_id: *piece,
                    own_turns: *own_turns,
                })
            }
            Event::PieceReturned { piece, square: at } => {
                EventKind::PieceReturned(pb::XfutebolPieceReturned {
                    piece_id: *piece,
                    square: square(*at),
                })
            }
            Event::TurnEnded { seat } => EventKind::TurnEnded(pb::XfutebolTurnEnded {
                seat: seat_name(seats, *seat),
            }),
            Event::PeriodEnded { half, score } => EventKind::PeriodEnded(pb::XfutebolPeriodEnded {
                half: u32::from(*half),
                score: pair(*score, seats),
            }),
            Event::ShootoutStarted { first } => {
                EventKind::ShootoutStarted(pb::XfutebolShootoutStarted {
                    first: seat_name(seats, *first),
                })
            }
            Event::ShootoutKick {
                seat,
                kicker,
                scored,
                goals,
            } => EventKind::ShootoutKick(pb::XfutebolShootoutKick {
                seat: seat_name(seats, *seat),
                kicker_id: *kicker,
                scored: *scored,
                goals: pair(*goals, seats),
            }),
            Event::MatchEnded {
                winner,
                score,
                reason,
            } => EventKind::MatchEnded(pb::XfutebolMatchEnded {
                winner: optional_seat(*winner, seats),
                score: pair(*score, seats),
                reason: reason.clone(),
            }),
        };
        pb::GameEvent {
            game: Some(pb::game_event::Game::Xfutebol(pb::XfutebolEvent {
                kind: Some(kind),
            })),
        }
    }

    fn details_to_proto(details: &Details, seats: &[&'static str]) -> pb::match_view::Details {
        let formation = |formation: Option<Formation>| formation.map_or(0, Formation::to_proto);
        pb::match_view::Details::Xfutebol(pb::XfutebolDetails {
            phase: details.phase.to_proto(),
            winning_style: details.winning_style.to_owned(),
            half: u32::from(details.half),
            movements_played: details.movements_played,
            period_length: details.period_length,
            score: pair(details.score, seats),
            fouls: pair(details.fouls, seats),
            yellow_cards: details
                .yellow_cards
                .iter()
                .zip(seats)
                .filter(|(booked, _)| **booked)
                .map(|(_, seat)| (*seat).to_owned())
                .collect(),
            red_cards: pair(details.red_cards, seats),
            sprints_used: pair(details.sprints_used, seats),
            moved_this_turn: details.moved_this_turn,
            free_kick: optional_square(details.free_kick),
            home_formation: formation(details.formations[0]),
            away_formation: formation(details.formations[1]),
            kicked_off_first: optional_seat(details.kicked_off_first, seats),
            shootout: Some(pb::XfutebolShootout {
                first: optional_seat(details.shootout.first, seats),
                kicks: pair(details.shootout.kicks, seats),
                goals: pair(details.shootout.goals, seats),
            }),
            pieces: details
                .pieces
                .iter()
                .map(|piece| piece_to_proto(piece, seats))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use pitchmate_rules::{Game, Rng, Viewer};

    use super::*;

    const SEATS: [&str; 2] = ["home", "away"];

    fn at(name: &str) -> Square {
        Square::parse(name).expect("a square name")
    }

    fn sq(name: &str) -> Option<pb::Square> {
        Some(square_to_proto(at(name)))
    }

    /// Names each action kind; a new kind stops this compiling until the samples cover it.
    fn action_kind(action: &Action) -> &'static str {
        match action {
            Action::DefaultLineup => "default_lineup",
            Action::Formation(_) => "formation",
            Action::AssignSpecial { .. } => "assign_special",
            Action::Place { .. } => "place",
            Action::ConfirmLineup => "confirm_lineup",
            Action::Move { .. } => "move",
            Action::Sprint { .. } => "sprint",
            Action::Pass { .. } => "pass",
            Action::LongPass { .. } => "long_pass",
            Action::Dribble { .. } => "dribble",
            Action::Challenge { .. } => "challenge",
            Action::Shoot { .. } => "shoot",
            Action::LongShoot { .. } => "long_shoot",
            Action::FreeKick { .. } => "free_kick",
            Action::Penalty { .. } => "penalty",
            Action::SendOff { .. } => "send_off",
            Action::EndTurn => "end_turn",
        }
    }
    const ACTION_KINDS: usize = 17;

    fn sample_actions() -> Vec<Action> {
        vec![
            Action::DefaultLineup,
            Action::Formation(Formation::FourThreeThree),
            Action::Formation(Formation::FiveThreeTwo),
            Action::AssignSpecial {
                at: at("c2"),
                special: Special::Dribbler,
            },
            Action::AssignSpecial {
                at: at("f2"),
                special: Special::Goaler,
            },
            Action::AssignSpecial {
                at: at("d3"),
                special: Special::LongExpert,
            },
            Action::Place {
                from: at("b2"),
                to: at("a8"),
            },
            Action::ConfirmLineup,
            Action::Move {
                from: at("e8"),
                to: at("e10"),
            },
            Action::Sprint {
                from: at("d7"),
                to: at("d11"),
            },
            Action::Pass {
                from: at("e8"),
                to: at("e6"),
            },
            Action::LongPass {
                from: at("e4"),
                via: None,
                to: at("e7"),
            },
            Action::LongPass {
                from: at("e4"),
                via: Some(at("c4")),
                to: at("c7"),
            },
            Action::Dribble {
                from: at("c4"),
                to: at("d5"),
            },
            Action::Challenge {
                from: at("c9"),
                target: at("c8"),
            },
            Action::Shoot {
                from: at("e13"),
                goal: at("d16"),
            },
            Action::LongShoot {
                from: at("e10"),
                via: None,
                goal: at("d16"),
            },
            Action::LongShoot {
                from: at("e10"),
                via: Some(at("e11")),
                goal: at("d16"),
            },
            Action::FreeKick {
                from: at("e12"),
                goal: at("e16"),
            },
            Action::Penalty { kicker: at("e8") },
            Action::SendOff { at: at("h16") },
            Action::EndTurn,
        ]
    }

    #[test]
    fn every_action_kind_round_trips_through_proto() {
        let samples = sample_actions();
        let kinds: BTreeSet<&str> = samples.iter().map(action_kind).collect();
        assert_eq!(kinds.len(), ACTION_KINDS, "samples cover every kind");
        for action in samples {
            let proto = XFutebol::action_to_proto(&action);
            assert_eq!(
                XFutebol::action_from_proto(&proto).unwrap(),
                action,
                "{proto:?}"
            );
        }
    }

    #[test]
    fn a_straight_long_pass_leaves_via_unset() {
        let straight = XFutebol::action_to_proto(&Action::LongPass {
            from: at("e4"),
            via: None,
            to: at("e7"),
        });
        let Some(pb::action::Game::Xfutebol(pb::XfutebolAction {
            kind: Some(ActionKind::LongPass(pass)),
        })) = straight.game
        else {
            panic!("not a long pass: {straight:?}");
        };
        assert_eq!(pass.via, None);
        assert_eq!(pass.from, sq("e4"));
        assert_eq!(pass.to, sq("e7"));
    }

    fn typed(kind: ActionKind) -> pb::Action {
        pb::Action {
            game: Some(pb::action::Game::Xfutebol(pb::XfutebolAction {
                kind: Some(kind),
            })),
        }
    }

    #[test]
    fn malformed_typed_actions_are_invalid_arguments_that_name_the_field() {
        let by_name = |name: &str| {
            Some(pb::Square {
                file: 0,
                rank: 0,
                name: name.to_owned(),
            })
        };
        let cases = [
            (pb::Action { game: None }, "action.xfutebol"),
            (
                pb::Action {
                    game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                        kind: Some(pb::soccer_chess_action::Kind::EndSet(
                            pb::SoccerChessEndSet {},
                        )),
                    })),
                },
                "action.xfutebol",
            ),
            (
                pb::Action {
                    game: Some(pb::action::Game::Xfutebol(pb::XfutebolAction {
                        kind: None,
                    })),
                },
                "names no action",
            ),
            (
                typed(ActionKind::Move(pb::XfutebolMove {
                    from: None,
                    to: sq("e9"),
                })),
                "move.from",
            ),
            (
                typed(ActionKind::Sprint(pb::XfutebolSprint {
                    from: sq("d7"),
                    to: None,
                })),
                "sprint.to",
            ),
            (
                typed(ActionKind::LongPass(pb::XfutebolLongPass {
                    from: sq("e4"),
                    via: by_name("zz"),
                    to: sq("c7"),
                })),
                "long_pass.via",
            ),
            (
                typed(ActionKind::LongShoot(pb::XfutebolLongShoot {
                    from: sq("e10"),
                    via: None,
                    goal: None,
                })),
                "long_shoot.goal",
            ),
            (
                typed(ActionKind::Challenge(pb::XfutebolChallenge {
                    from: sq("c9"),
                    target: None,
                })),
                "challenge.target",
            ),
            (
                typed(ActionKind::ChooseFormation(pb::XfutebolChooseFormation {
                    formation: 0,
                })),
                "choose_formation.formation",
            ),
            (
                typed(ActionKind::ChooseFormation(pb::XfutebolChooseFormation {
                    formation: 9,
                })),
                "choose_formation.formation",
            ),
            (
                typed(ActionKind::AssignSpecial(pb::XfutebolAssignSpecial {
                    at: sq("c2"),
                    special: 0,
                })),
                "assign_special.special",
            ),
            (
                typed(ActionKind::AssignSpecial(pb::XfutebolAssignSpecial {
                    at: None,
                    special: pb::XfutebolSpecial::Goaler as i32,
                })),
                "assign_special.at",
            ),
            (
                typed(ActionKind::Penalty(pb::XfutebolPenalty { kicker: None })),
                "penalty.kicker",
            ),
            (
                typed(ActionKind::SendOff(pb::XfutebolSendOff { at: None })),
                "send_off.at",
            ),
        ];
        for (action, field) in cases {
            let error = XFutebol::action_from_proto(&action).unwrap_err();
            assert!(
                matches!(error, crate::GameError::InvalidArgument(_)),
                "{action:?}"
            );
            assert!(
                error.to_string().contains(field),
                "`{error}` should name `{field}`"
            );
        }
    }

    /// Names each event kind; a new kind stops this compiling until the samples cover it.
    fn event_kind(event: &Event) -> &'static str {
        match event {
            Event::FormationChosen { .. } => "formation_chosen",
            Event::SpecialAssigned { .. } => "special_assigned",
            Event::PiecePlaced { .. } => "piece_placed",
            Event::LineupConfirmed { .. } => "lineup_confirmed",
            Event::CoinTossed { .. } => "coin_tossed",
            Event::KickOff { .. } => "kick_off",
            Event::PieceMoved { .. } => "piece_moved",
            Event::BallTaken { .. } => "ball_taken",
            Event::BallPassed { .. } => "ball_passed",
            Event::BallLoose { .. } => "ball_loose",
            Event::BallWon { .. } => "ball_won",
            Event::Duel { .. } => "duel",
            Event::Dribbled { .. } => "dribbled",
            Event::ShotTaken { .. } => "shot_taken",
            Event::GoalScored { .. } => "goal_scored",
            Event::Foul { .. } => "foul",
            Event::YellowCard { .. } => "yellow_card",
            Event::RedCard { .. } => "red_card",
            Event::PieceSentOff { .. } => "piece_sent_off",
            Event::FreeKickAwarded { .. } => "free_kick_awarded",
            Event::PenaltyAwarded { .. } => "penalty_awarded",
            Event::FreeKickTaken { .. } => "free_kick_taken",
            Event::PenaltyTaken { .. } => "penalty_taken",
            Event::SprintUsed { .. } => "sprint_used",
            Event::PieceRested { .. } => "piece_rested",
            Event::PieceReturned { .. } => "piece_returned",
            Event::TurnEnded { .. } => "turn_ended",
            Event::PeriodEnded { .. } => "period_ended",
            Event::ShootoutStarted { .. } => "shootout_started",
            Event::ShootoutKick { .. } => "shootout_kick",
            Event::MatchEnded { .. } => "match_ended",
        }
    }
    const EVENT_KINDS: usize = 31;

    fn scores(home: u32, away: u32) -> Vec<pb::SeatScore> {
        vec![
            pb::SeatScore {
                seat: "home".into(),
                score: home,
            },
            pb::SeatScore {
                seat: "away".into(),
                score: away,
            },
        ]
    }

    /// Every event kind with the proto it must become. Values differ field to field, so a
    /// swapped field shows.
    fn sample_events() -> Vec<(Event, EventKind)> {
        const HOME: Seat = Seat(0);
        const AWAY: Seat = Seat(1);
        vec![
            (
                Event::FormationChosen {
                    seat: AWAY,
                    formation: Formation::FiveThreeTwo,
                },
                EventKind::FormationChosen(pb::XfutebolFormationChosen {
                    seat: "away".into(),
                    formation: pb::XfutebolFormation::FiveThreeTwo as i32,
                }),
            ),
            (
                Event::SpecialAssigned {
                    piece: 4,
                    special: Special::LongExpert,
                },
                EventKind::SpecialAssigned(pb::XfutebolSpecialAssigned {
                    piece_id: 4,
                    special: pb::XfutebolSpecial::LongExpert as i32,
                }),
            ),
            (
                Event::PiecePlaced {
                    piece: 2,
                    from: at("b2"),
                    to: at("a8"),
                },
                EventKind::PiecePlaced(pb::XfutebolPiecePlaced {
                    piece_id: 2,
                    from: sq("b2"),
                    to: sq("a8"),
                }),
            ),
            (
                Event::LineupConfirmed { seat: HOME },
                EventKind::LineupConfirmed(pb::XfutebolLineupConfirmed {
                    seat: "home".into(),
                }),
            ),
            (
                Event::CoinTossed {
                    purpose: TossPurpose::ShootoutDecider,
                    winner: AWAY,
                },
                EventKind::CoinTossed(pb::XfutebolCoinTossed {
                    purpose: pb::XfutebolTossPurpose::ShootoutDecider as i32,
                    winner: "away".into(),
                }),
            ),
            (
                Event::KickOff {
                    seat: AWAY,
                    half: 2,
                    ball: at("e9"),
                },
                EventKind::KickOff(pb::XfutebolKickOff {
                    seat: "away".into(),
                    half: 2,
                    ball: sq("e9"),
                }),
            ),
            (
                Event::PieceMoved {
                    piece: 7,
                    from: at("d7"),
                    to: at("d11"),
                    sprint: true,
                },
                EventKind::PieceMoved(pb::XfutebolPieceMoved {
                    piece_id: 7,
                    from: sq("d7"),
                    to: sq("d11"),
                    sprint: true,
                }),
            ),
            (
                Event::BallTaken {
                    piece: 13,
                    square: at("c10"),
                },
                EventKind::BallTaken(pb::XfutebolBallTaken {
                    piece_id: 13,
                    square: sq("c10"),
                }),
            ),
            (
                Event::BallPassed {
                    piece: 6,
                    from: at("e4"),
                    to: at("c7"),
                    via: Some(at("c4")),
                    long: true,
                },
                EventKind::BallPassed(pb::XfutebolBallPassed {
                    piece_id: 6,
                    from: sq("e4"),
                    to: sq("c7"),
                    via: sq("c4"),
                    long: true,
                }),
            ),
            (
                Event::BallLoose { square: at("f6") },
                EventKind::BallLoose(pb::XfutebolBallLoose { square: sq("f6") }),
            ),
            (
                Event::BallWon { piece: 19 },
                EventKind::BallWon(pb::XfutebolBallWon { piece_id: 19 }),
            ),
            (
                Event::Duel {
                    kind: DuelKind::Keeper,
                    initiator: 9,
                    initiator_total: 185,
                    opponent: None,
                    opponent_total: 0,
                    outcome: DuelOutcome::Rebound,
                },
                EventKind::Duel(pb::XfutebolDuel {
                    kind: pb::XfutebolDuelKind::Keeper as i32,
                    initiator_id: 9,
                    initiator_total: 185,
                    opponent_id: None,
                    opponent_total: 0,
                    outcome: pb::XfutebolDuelOutcome::Rebound as i32,
                }),
            ),
            (
                Event::Dribbled {
                    piece: 8,
                    from: at("c4"),
                    to: at("d5"),
                },
                EventKind::Dribbled(pb::XfutebolDribbled {
                    piece_id: 8,
                    from: sq("c4"),
                    to: sq("d5"),
                }),
            ),
            (
                Event::ShotTaken {
                    piece: 11,
                    from: at("e13"),
                    goal: at("d16"),
                    via: None,
                    long: false,
                    empty_goal: true,
                },
                EventKind::ShotTaken(pb::XfutebolShotTaken {
                    piece_id: 11,
                    from: sq("e13"),
                    goal: sq("d16"),
                    via: None,
                    long: false,
                    empty_goal: true,
                }),
            ),
            (
                Event::GoalScored {
                    seat: HOME,
                    scorer: 11,
                    score: [2, 1],
                },
                EventKind::GoalScored(pb::XfutebolGoalScored {
                    seat: "home".into(),
                    scorer_id: 11,
                    score: scores(2, 1),
                }),
            ),
            (
                Event::Foul {
                    seat: AWAY,
                    piece: 14,
                    fouled: 3,
                    square: at("f2"),
                    team_fouls: 4,
                },
                EventKind::Foul(pb::XfutebolFoul {
                    seat: "away".into(),
                    piece_id: 14,
                    fouled_id: 3,
                    square: sq("f2"),
                    team_fouls: 4,
                }),
            ),
            (
                Event::YellowCard { seat: AWAY },
                EventKind::YellowCard(pb::XfutebolYellowCard {
                    seat: "away".into(),
                }),
            ),
            (
                Event::RedCard {
                    seat: HOME,
                    removal: true,
                },
                EventKind::RedCard(pb::XfutebolRedCard {
                    seat: "home".into(),
                    removal: true,
                }),
            ),
            (
                Event::PieceSentOff { piece: 5 },
                EventKind::PieceSentOff(pb::XfutebolPieceSentOff { piece_id: 5 }),
            ),
            (
                Event::FreeKickAwarded {
                    seat: HOME,
                    square: at("e11"),
                },
                EventKind::FreeKickAwarded(pb::XfutebolFreeKickAwarded {
                    seat: "home".into(),
                    square: sq("e11"),
                }),
            ),
            (
                Event::PenaltyAwarded {
                    seat: AWAY,
                    square: at("c3"),
                },
                EventKind::PenaltyAwarded(pb::XfutebolPenaltyAwarded {
                    seat: "away".into(),
                    square: sq("c3"),
                }),
            ),
            (
                Event::FreeKickTaken {
                    piece: 10,
                    goal: at("e16"),
                    barrier: vec![15, 16],
                },
                EventKind::FreeKickTaken(pb::XfutebolFreeKickTaken {
                    piece_id: 10,
                    goal: sq("e16"),
                    barrier_ids: vec![15, 16],
                }),
            ),
            (
                Event::PenaltyTaken {
                    piece: 20,
                    keeper: Some(1),
                },
                EventKind::PenaltyTaken(pb::XfutebolPenaltyTaken {
                    piece_id: 20,
                    keeper_id: Some(1),
                }),
            ),
            (
                Event::SprintUsed {
                    seat: AWAY,
                    count: 4,
                    free: false,
                },
                EventKind::SprintUsed(pb::XfutebolSprintUsed {
                    seat: "away".into(),
                    count: 4,
                    free: false,
                }),
            ),
            (
                Event::PieceRested {
                    piece: 21,
                    own_turns: 3,
                },
                EventKind::PieceRested(pb::XfutebolPieceRested {
                    piece_id: 21,
                    own_turns: 3,
                }),
            ),
            (
                Event::PieceReturned {
                    piece: 21,
                    square: at("g9"),
                },
                EventKind::PieceReturned(pb::XfutebolPieceReturned {
                    piece_id: 21,
                    square: sq("g9"),
                }),
            ),
            (
                Event::TurnEnded { seat: AWAY },
                EventKind::TurnEnded(pb::XfutebolTurnEnded {
                    seat: "away".into(),
                }),
            ),
            (
                Event::PeriodEnded {
                    half: 1,
                    score: [0, 3],
                },
                EventKind::PeriodEnded(pb::XfutebolPeriodEnded {
                    half: 1,
                    score: scores(0, 3),
                }),
            ),
            (
                Event::ShootoutStarted { first: AWAY },
                EventKind::ShootoutStarted(pb::XfutebolShootoutStarted {
                    first: "away".into(),
                }),
            ),
            (
                Event::ShootoutKick {
                    seat: HOME,
                    kicker: 9,
                    scored: true,
                    goals: [3, 2],
                },
                EventKind::ShootoutKick(pb::XfutebolShootoutKick {
                    seat: "home".into(),
                    kicker_id: 9,
                    scored: true,
                    goals: scores(3, 2),
                }),
            ),
            (
                Event::MatchEnded {
                    winner: None,
                    score: [1, 1],
                    reason: "level after the coin toss".into(),
                },
                EventKind::MatchEnded(pb::XfutebolMatchEnded {
                    winner: String::new(),
                    score: scores(1, 1),
                    reason: "level after the coin toss".into(),
                }),
            ),
            (
                Event::MatchEnded {
                    winner: Some(AWAY),
                    score: [0, 2],
                    reason: "more goals".into(),
                },
                EventKind::MatchEnded(pb::XfutebolMatchEnded {
                    winner: "away".into(),
                    score: scores(0, 2),
                    reason: "more goals".into(),
                }),
            ),
        ]
    }

    #[test]
    fn every_event_kind_maps_field_by_field() {
        let samples = sample_events();
        let kinds: BTreeSet<&str> = samples.iter().map(|(e, _)| event_kind(e)).collect();
        assert_eq!(kinds.len(), EVENT_KINDS, "samples cover every kind");
        for (event, expected) in samples {
            let mapped = XFutebol::event_to_proto(&event, &SEATS);
            assert_eq!(
                mapped,
                pb::GameEvent {
                    game: Some(pb::game_event::Game::Xfutebol(pb::XfutebolEvent {
                        kind: Some(expected),
                    })),
                },
                "{event:?}"
            );
        }
    }

    fn details_of(game: &XFutebol) -> pb::XfutebolDetails {
        match XFutebol::details_to_proto(&game.details(Viewer::Spectator), &SEATS) {
            pb::match_view::Details::Xfutebol(details) => details,
            other => panic!("not XFutebol details: {other:?}"),
        }
    }

    fn start(position: Option<&str>) -> XFutebol {
        pitchmate_rules::start::<XFutebol>(
            &BTreeMap::new(),
            pitchmate_rules::Seed::from_number(5),
            position.map(str::to_owned),
        )
        .expect("a valid start")
    }

    #[test]
    fn details_follow_the_lineup_into_play() {
        let mut game = start(None);
        let before = details_of(&game);
        assert_eq!(before.phase(), pb::XfutebolPhase::Lineup);
        assert!(before.pieces.is_empty());
        assert_eq!(before.home_formation(), pb::XfutebolFormation::Unspecified);
        assert_eq!(before.kicked_off_first, "");
        assert_eq!(before.shootout.as_ref().unwrap().first, "");

        game.apply(Seat(0), &Action::DefaultLineup).unwrap();
        game.apply(Seat(1), &Action::DefaultLineup).unwrap();
        let after = details_of(&game);
        assert_eq!(after.phase(), pb::XfutebolPhase::Play);
        assert_eq!(after.winning_style, "two_halves");
        assert_eq!(
            after.home_formation(),
            pb::XfutebolFormation::FourThreeThree
        );
        assert_eq!(
            after.away_formation(),
            pb::XfutebolFormation::FourThreeThree
        );
        assert!(SEATS.contains(&after.kicked_off_first.as_str()));
        assert_eq!(after.pieces.len(), 22);
        // Default 4-3-3: number 4 on d3 is a Long Expert in a defender slot.
        let number_four = after.pieces.iter().find(|p| p.id == 4).unwrap();
        assert_eq!(number_four.seat, "home");
        assert_eq!(number_four.number, 4);
        assert_eq!(number_four.role(), pb::XfutebolRole::LongExpert);
        assert_eq!(number_four.slot(), pb::XfutebolRole::Defender);
        assert_eq!(number_four.square, sq("d3"));
        let away_keeper = after.pieces.iter().find(|p| p.id == 12).unwrap();
        assert_eq!(away_keeper.seat, "away");
        assert_eq!(away_keeper.square, sq("d16"));
        assert_eq!(
            away_keeper.attributes,
            Some(pb::XfutebolAttributes {
                speed: 50,
                skill: 70,
                strength: 60,
                goal: 50,
                defense: 90,
            })
        );
    }

    #[test]
    fn details_carry_counters_cards_and_pieces_off_the_pitch() {
        let game = start(Some(
            "h:Kd1,Dc2[51.61.81.41.86],Df2,LDd3,D-,LMe4,RMb5,RMh5,GAd7,GAf7,Ae8~2;\
             a:Kd16,Dc15,Df15,LDd14,Dg14,LMe13,RMb12,RMh12,GAd10,GAf10,Ae9;\
             ball:e9;to:a;score:1-2;fouls:3-1;sprints:4-0;half:2;played:90",
        ));
        let details = details_of(&game);
        assert_eq!(details.phase(), pb::XfutebolPhase::Play);
        assert_eq!(details.half, 2);
        assert_eq!(details.movements_played, 90);
        assert_eq!(details.score, scores(1, 2));
        assert_eq!(details.fouls, scores(3, 1));
        assert_eq!(details.yellow_cards, vec!["home".to_owned()]);
        assert_eq!(details.sprints_used, scores(4, 0));
        assert_eq!(details.red_cards, scores(0, 0));
        assert_eq!(details.kicked_off_first, "away");
        assert!(!details.moved_this_turn);
        assert_eq!(details.free_kick, None);

        let on_c2 = details
            .pieces
            .iter()
            .find(|p| p.square == sq("c2"))
            .unwrap();
        assert_eq!(
            on_c2.attributes,
            Some(pb::XfutebolAttributes {
                speed: 51,
                skill: 61,
                strength: 81,
                goal: 41,
                defense: 86,
            })
        );
        let sent_off: Vec<_> = details.pieces.iter().filter(|p| p.sent_off).collect();
        assert_eq!(sent_off.len(), 1);
        assert_eq!(sent_off[0].seat, "home");
        assert_eq!(sent_off[0].square, None);
        let resting: Vec<_> = details
            .pieces
            .iter()
            .filter(|p| p.resting_turns > 0)
            .collect();
        assert_eq!(resting.len(), 1);
        assert_eq!(resting[0].resting_turns, 2);
        assert_eq!(resting[0].role(), pb::XfutebolRole::Attacker);
        assert_eq!(resting[0].square, None);
    }

    /// The phase name `turn()` reports, read from the proto enum's name.
    fn phase_name(phase: pb::XfutebolPhase) -> String {
        phase
            .as_str_name()
            .trim_start_matches("XFUTEBOL_PHASE_")
            .to_lowercase()
    }

    #[test]
    fn a_random_match_round_trips_every_legal_action_and_agrees_on_phase_and_score() {
        let mut game = start(None);
        let mut rng = Rng::new(11);
        let mut phases = BTreeSet::new();
        while game.outcome().is_none() {
            let seat = game.turn().to_act[0];
            let legal = game.legal_actions(seat);
            for action in &legal {
                let proto = XFutebol::action_to_proto(action);
                assert_eq!(&XFutebol::action_from_proto(&proto).unwrap(), action);
            }
            let action = rng.pick(&legal).clone();
            game.apply(seat, &action).unwrap();
            let details = details_of(&game);
            assert_eq!(phase_name(details.phase()), game.turn().phase);
            assert_eq!(details.score, scores(game.scores()[0], game.scores()[1]));
            phases.insert(game.turn().phase);
        }
        assert!(
            phases.contains("play") && phases.contains("over"),
            "the match got past the lineup to its end: {phases:?}"
        );
    }
}
