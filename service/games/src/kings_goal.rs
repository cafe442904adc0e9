//! King's Goal on the wire: `proto/pitchmate/v1/kings_goal.proto`.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::Square;
use pitchmate_rules::kings_goal::{
    Action, Details, Event, GoalKind, KingsGoal, Phase, PieceKind, RestartReason,
};

use super::ProtoMapping;
use super::convert::{scores_to_proto, seat_name, square_from_proto, square_to_proto};
use crate::GameError;
use crate::mirror::{Mirror, mirror};

use pb::kings_goal_action::Kind as ActionKind;
use pb::kings_goal_event::Kind as EventKind;

mirror!(PieceKind => KingsGoalPieceKind, "a King's Goal piece kind (1 king to 6 pawn)" {
    King, Queen, Rook, Bishop, Knight, Pawn
});
mirror!(Phase => KingsGoalPhase, "a King's Goal phase" { Choice, Placement, Play, Over });
mirror!(GoalKind => KingsGoalGoalKind, "a King's Goal goal kind" {
    Carried, Passed, KingCaptured, CapturedOnGoalLine
});
mirror!(RestartReason => KingsGoalRestartReason, "a King's Goal restart reason" {
    Goal, KingVersusKing, HalfTime
});

/// One list per seat, each naming its seat.
fn hands_to_proto(hands: &[Vec<PieceKind>; 2], seats: &[&'static str]) -> Vec<pb::KingsGoalHand> {
    hands
        .iter()
        .zip(seats)
        .map(|(kinds, seat)| pb::KingsGoalHand {
            seat: (*seat).to_owned(),
            kinds: kinds.iter().map(|k| k.to_proto()).collect(),
        })
        .collect()
}

/// The squares and promotion a move or a capture carries, read with `name` (`move`,
/// `capture`) in every error message.
fn step_from_proto(
    from: Option<&pb::Square>,
    to: Option<&pb::Square>,
    promotion: i32,
    name: &str,
) -> Result<(Square, Square, Option<PieceKind>), GameError> {
    Ok((
        square_from_proto(from, &format!("{name}.from"))?,
        square_from_proto(to, &format!("{name}.to"))?,
        PieceKind::read_optional(promotion, &format!("{name}.promotion"))?,
    ))
}

impl ProtoMapping for KingsGoal {
    fn action_to_proto(action: &Action) -> pb::Action {
        let kind = match action {
            Action::Choose(kind) => ActionKind::Choose(pb::KingsGoalChoose {
                kind: kind.to_proto(),
            }),
            Action::DefaultChoice => ActionKind::DefaultChoice(pb::KingsGoalDefaultChoice {}),
            Action::Place { kind, square } => ActionKind::Place(pb::KingsGoalPlace {
                kind: kind.to_proto(),
                square: Some(square_to_proto(*square)),
            }),
            Action::DefaultPlacement => {
                ActionKind::DefaultPlacement(pb::KingsGoalDefaultPlacement {})
            }
            Action::Move {
                from,
                to,
                promotion,
            } => ActionKind::Move(pb::KingsGoalMove {
                from: Some(square_to_proto(*from)),
                to: Some(square_to_proto(*to)),
                promotion: promotion.map_or(0, PieceKind::to_proto),
            }),
            Action::Capture {
                from,
                to,
                promotion,
            } => ActionKind::Capture(pb::KingsGoalCapture {
                from: Some(square_to_proto(*from)),
                to: Some(square_to_proto(*to)),
                promotion: promotion.map_or(0, PieceKind::to_proto),
            }),
            Action::Pass { from, to } => ActionKind::Pass(pb::KingsGoalPass {
                from: Some(square_to_proto(*from)),
                to: Some(square_to_proto(*to)),
            }),
            Action::Wait => ActionKind::Wait(pb::KingsGoalWait {}),
        };
        pb::Action {
            game: Some(pb::action::Game::KingsGoal(pb::KingsGoalAction {
                kind: Some(kind),
            })),
        }
    }

    fn action_from_proto(action: &pb::Action) -> Result<Action, GameError> {
        let Some(pb::action::Game::KingsGoal(action)) = &action.game else {
            return Err(GameError::InvalidArgument(
                "this is a King's Goal match: set `action.kings_goal`".to_owned(),
            ));
        };
        match &action.kind {
            Some(ActionKind::Choose(choose)) => {
                Ok(Action::Choose(PieceKind::read(choose.kind, "choose.kind")?))
            }
            Some(ActionKind::DefaultChoice(_)) => Ok(Action::DefaultChoice),
            Some(ActionKind::Place(place)) => Ok(Action::Place {
                kind: PieceKind::read(place.kind, "place.kind")?,
                square: square_from_proto(place.square.as_ref(), "place.square")?,
            }),
            Some(ActionKind::DefaultPlacement(_)) => Ok(Action::DefaultPlacement),
            Some(ActionKind::Move(step)) => {
                let (from, to, promotion) =
                    step_from_proto(step.from.as_ref(), step.to.as_ref(), step.promotion, "move")?;
                Ok(Action::Move {
                    from,
                    to,
                    promotion,
                })
            }
            Some(ActionKind::Capture(capture)) => {
                let (from, to, promotion) = step_from_proto(
                    capture.from.as_ref(),
                    capture.to.as_ref(),
                    capture.promotion,
                    "capture",
                )?;
                Ok(Action::Capture {
                    from,
                    to,
                    promotion,
                })
            }
            Some(ActionKind::Pass(pass)) => Ok(Action::Pass {
                from: square_from_proto(pass.from.as_ref(), "pass.from")?,
                to: square_from_proto(pass.to.as_ref(), "pass.to")?,
            }),
            Some(ActionKind::Wait(_)) => Ok(Action::Wait),
            None => Err(GameError::InvalidArgument(
                "`kings_goal` names no action: set choose, default_choice, place, \
                 default_placement, move, capture, pass or wait"
                    .to_owned(),
            )),
        }
    }

    fn event_to_proto(event: &Event, seats: &[&'static str]) -> pb::GameEvent {
        let kind = match event {
            Event::Chosen { seat, kinds } => EventKind::PiecesChosen(pb::KingsGoalPiecesChosen {
                seat: seat_name(seats, *seat),
                kinds: kinds.iter().map(|k| k.to_proto()).collect(),
            }),
            Event::Placed {
                seat,
                piece,
                kind,
                square,
            } => EventKind::PiecePlaced(pb::KingsGoalPiecePlaced {
                seat: seat_name(seats, *seat),
                piece_id: *piece,
                kind: kind.to_proto(),
                square: Some(square_to_proto(*square)),
            }),
            Event::KickOff {
                seat,
                piece,
                square,
            } => EventKind::KickOff(pb::KingsGoalKickOff {
                seat: seat_name(seats, *seat),
                piece_id: *piece,
                square: Some(square_to_proto(*square)),
            }),
            Event::Moved {
                piece,
                from,
                to,
                with_ball,
            } => EventKind::PieceMoved(pb::KingsGoalPieceMoved {
                piece_id: *piece,
                from: Some(square_to_proto(*from)),
                to: Some(square_to_proto(*to)),
                with_ball: *with_ball,
            }),
            Event::Passed {
                from_piece,
                to_piece,
                from,
                to,
            } => EventKind::BallPassed(pb::KingsGoalBallPassed {
                from_piece_id: *from_piece,
                to_piece_id: *to_piece,
                from: Some(square_to_proto(*from)),
                to: Some(square_to_proto(*to)),
            }),
            Event::Captured {
                captor,
                captured,
                captured_kind,
                from,
                square,
            } => EventKind::CarrierCaptured(pb::KingsGoalCarrierCaptured {
                captor_id: *captor,
                captured_id: *captured,
                captured_kind: captured_kind.to_proto(),
                from: Some(square_to_proto(*from)),
                square: Some(square_to_proto(*square)),
            }),
            Event::Promoted {
                piece,
                square,
                kind,
            } => EventKind::PawnPromoted(pb::KingsGoalPawnPromoted {
                piece_id: *piece,
                square: Some(square_to_proto(*square)),
                kind: kind.to_proto(),
            }),
            Event::Waited { seat } => EventKind::MoveWaived(pb::KingsGoalMoveWaived {
                seat: seat_name(seats, *seat),
            }),
            Event::GoalScored { seat, how, scores } => {
                EventKind::GoalScored(pb::KingsGoalGoalScored {
                    seat: seat_name(seats, *seat),
                    how: how.to_proto(),
                    scores: scores_to_proto(scores, seats),
                })
            }
            Event::HalfEnded { half, scores } => EventKind::HalfEnded(pb::KingsGoalHalfEnded {
                half: u32::from(*half),
                scores: scores_to_proto(scores, seats),
            }),
            Event::Restarted {
                reason,
                kicking,
                half,
            } => EventKind::Restarted(pb::KingsGoalRestarted {
                reason: reason.to_proto(),
                kicking_seat: seat_name(seats, *kicking),
                half: u32::from(*half),
            }),
            Event::GameEnded { winner, scores } => EventKind::GameEnded(pb::KingsGoalGameEnded {
                winner: winner.map(|s| seat_name(seats, s)).unwrap_or_default(),
                scores: scores_to_proto(scores, seats),
            }),
        };
        pb::GameEvent {
            game: Some(pb::game_event::Game::KingsGoal(pb::KingsGoalEvent {
                kind: Some(kind),
            })),
        }
    }

    fn details_to_proto(details: &Details, seats: &[&'static str]) -> pb::match_view::Details {
        pb::match_view::Details::KingsGoal(pb::KingsGoalDetails {
            phase: details.phase.to_proto(),
            half: u32::from(details.half),
            plies_played: details.plies_played,
            plies_per_half: details.plies_per_half,
            kicking_seat: seat_name(seats, details.kicking),
            kickoff_pending: details.kickoff_pending,
            scores: scores_to_proto(&details.scores, seats),
            chosen: hands_to_proto(&details.chosen, seats),
            unplaced: hands_to_proto(&details.unplaced, seats),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use pitchmate_rules::kings_goal::{BLACK, WHITE};
    use pitchmate_rules::{Game, OptionValue, Rng, Viewer};

    use super::*;

    const SEATS: [&str; 2] = ["white", "black"];

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square name")
    }

    fn proto_square(name: &str) -> Option<pb::Square> {
        Some(square_to_proto(sq(name)))
    }

    fn kings_goal_event(event: &Event) -> EventKind {
        match KingsGoal::event_to_proto(event, &SEATS).game {
            Some(pb::game_event::Game::KingsGoal(pb::KingsGoalEvent { kind: Some(kind) })) => kind,
            other => panic!("{event:?} did not map to a King's Goal event: {other:?}"),
        }
    }

    fn typed(kind: ActionKind) -> pb::Action {
        pb::Action {
            game: Some(pb::action::Game::KingsGoal(pb::KingsGoalAction {
                kind: Some(kind),
            })),
        }
    }

    #[test]
    fn every_action_kind_round_trips_through_proto() {
        let mut actions: Vec<Action> = PieceKind::ALL.into_iter().map(Action::Choose).collect();
        actions.extend([
            Action::DefaultChoice,
            Action::Place {
                kind: PieceKind::King,
                square: sq("d1"),
            },
            Action::Place {
                kind: PieceKind::Bishop,
                square: sq("c5"),
            },
            Action::DefaultPlacement,
            Action::Move {
                from: sq("e4"),
                to: sq("e6"),
                promotion: None,
            },
            Action::Move {
                from: sq("a7"),
                to: sq("a8"),
                promotion: Some(PieceKind::Knight),
            },
            Action::Capture {
                from: sq("b1"),
                to: sq("c3"),
                promotion: None,
            },
            Action::Capture {
                from: sq("g2"),
                to: sq("h1"),
                promotion: Some(PieceKind::Queen),
            },
            Action::Pass {
                from: sq("e4"),
                to: sq("e1"),
            },
            Action::Wait,
        ]);
        for action in actions {
            let proto = KingsGoal::action_to_proto(&action);
            assert_eq!(
                KingsGoal::action_from_proto(&proto).unwrap(),
                action,
                "{proto:?}"
            );
        }
    }

    /// Every action the engine offers during a whole (short) match survives the trip through
    /// proto, and every event it emits becomes a King's Goal event.
    #[test]
    fn the_legal_actions_of_a_whole_match_round_trip_through_proto() {
        let options = BTreeMap::from([("moves_per_half".to_owned(), OptionValue::Int(6))]);
        let mut game = pitchmate_rules::start::<KingsGoal>(
            &options,
            pitchmate_rules::Seed::from_number(0),
            None,
        )
        .unwrap();
        let mut rng = Rng::new(3);
        let mut actions = 0;
        while game.outcome().is_none() {
            let seat = game.turn().to_act[0];
            let legal = game.legal_actions(seat);
            for action in &legal {
                let proto = KingsGoal::action_to_proto(action);
                assert_eq!(&KingsGoal::action_from_proto(&proto).unwrap(), action);
            }
            let action = rng.pick(&legal).clone();
            for emitted in game.apply(seat, &action).unwrap() {
                kings_goal_event(&emitted.event);
            }
            actions += 1;
        }
        assert!(actions >= 24, "12 play moves and the setups, saw {actions}");
    }

    #[test]
    fn every_event_kind_maps_with_its_fields() {
        let cases = [
            (
                Event::Chosen {
                    seat: BLACK,
                    kinds: vec![PieceKind::Queen, PieceKind::Pawn],
                },
                EventKind::PiecesChosen(pb::KingsGoalPiecesChosen {
                    seat: "black".into(),
                    kinds: vec![
                        pb::KingsGoalPieceKind::Queen as i32,
                        pb::KingsGoalPieceKind::Pawn as i32,
                    ],
                }),
            ),
            (
                Event::Placed {
                    seat: WHITE,
                    piece: 4,
                    kind: PieceKind::Rook,
                    square: sq("e4"),
                },
                EventKind::PiecePlaced(pb::KingsGoalPiecePlaced {
                    seat: "white".into(),
                    piece_id: 4,
                    kind: pb::KingsGoalPieceKind::Rook as i32,
                    square: proto_square("e4"),
                }),
            ),
            (
                Event::KickOff {
                    seat: BLACK,
                    piece: 9,
                    square: sq("e5"),
                },
                EventKind::KickOff(pb::KingsGoalKickOff {
                    seat: "black".into(),
                    piece_id: 9,
                    square: proto_square("e5"),
                }),
            ),
            (
                Event::Moved {
                    piece: 2,
                    from: sq("c3"),
                    to: sq("c4"),
                    with_ball: true,
                },
                EventKind::PieceMoved(pb::KingsGoalPieceMoved {
                    piece_id: 2,
                    from: proto_square("c3"),
                    to: proto_square("c4"),
                    with_ball: true,
                }),
            ),
            (
                Event::Passed {
                    from_piece: 1,
                    to_piece: 3,
                    from: sq("e4"),
                    to: sq("e1"),
                },
                EventKind::BallPassed(pb::KingsGoalBallPassed {
                    from_piece_id: 1,
                    to_piece_id: 3,
                    from: proto_square("e4"),
                    to: proto_square("e1"),
                }),
            ),
            (
                Event::Captured {
                    captor: 7,
                    captured: 5,
                    captured_kind: PieceKind::Knight,
                    from: sq("d4"),
                    square: sq("e5"),
                },
                EventKind::CarrierCaptured(pb::KingsGoalCarrierCaptured {
                    captor_id: 7,
                    captured_id: 5,
                    captured_kind: pb::KingsGoalPieceKind::Knight as i32,
                    from: proto_square("d4"),
                    square: proto_square("e5"),
                }),
            ),
            (
                Event::Promoted {
                    piece: 6,
                    square: sq("a8"),
                    kind: PieceKind::Bishop,
                },
                EventKind::PawnPromoted(pb::KingsGoalPawnPromoted {
                    piece_id: 6,
                    square: proto_square("a8"),
                    kind: pb::KingsGoalPieceKind::Bishop as i32,
                }),
            ),
            (
                Event::Waited { seat: WHITE },
                EventKind::MoveWaived(pb::KingsGoalMoveWaived {
                    seat: "white".into(),
                }),
            ),
            (
                Event::GoalScored {
                    seat: BLACK,
                    how: GoalKind::CapturedOnGoalLine,
                    scores: [1, 2],
                },
                EventKind::GoalScored(pb::KingsGoalGoalScored {
                    seat: "black".into(),
                    how: pb::KingsGoalGoalKind::CapturedOnGoalLine as i32,
                    scores: scores_to_proto(&[1, 2], &SEATS),
                }),
            ),
            (
                Event::HalfEnded {
                    half: 1,
                    scores: [3, 0],
                },
                EventKind::HalfEnded(pb::KingsGoalHalfEnded {
                    half: 1,
                    scores: scores_to_proto(&[3, 0], &SEATS),
                }),
            ),
            (
                Event::Restarted {
                    reason: RestartReason::KingVersusKing,
                    kicking: WHITE,
                    half: 2,
                },
                EventKind::Restarted(pb::KingsGoalRestarted {
                    reason: pb::KingsGoalRestartReason::KingVersusKing as i32,
                    kicking_seat: "white".into(),
                    half: 2,
                }),
            ),
            (
                Event::GameEnded {
                    winner: Some(WHITE),
                    scores: [2, 1],
                },
                EventKind::GameEnded(pb::KingsGoalGameEnded {
                    winner: "white".into(),
                    scores: scores_to_proto(&[2, 1], &SEATS),
                }),
            ),
            (
                Event::GameEnded {
                    winner: None,
                    scores: [1, 1],
                },
                EventKind::GameEnded(pb::KingsGoalGameEnded {
                    winner: String::new(),
                    scores: scores_to_proto(&[1, 1], &SEATS),
                }),
            ),
        ];
        for (event, expected) in cases {
            assert_eq!(kings_goal_event(&event), expected, "{event:?}");
        }
    }

    #[test]
    fn every_goal_kind_and_restart_reason_has_its_own_value() {
        let goals = [
            GoalKind::Carried,
            GoalKind::Passed,
            GoalKind::KingCaptured,
            GoalKind::CapturedOnGoalLine,
        ]
        .map(GoalKind::to_proto);
        assert_eq!(goals, [1, 2, 3, 4]);
        let reasons = [
            RestartReason::Goal,
            RestartReason::KingVersusKing,
            RestartReason::HalfTime,
        ]
        .map(RestartReason::to_proto);
        assert_eq!(reasons, [1, 2, 3]);
    }

    #[test]
    fn details_give_phase_counts_kicking_side_and_hands_per_seat() {
        let start = "8/8/8/8/8/8/8/8 choice b - 1:3 0-1 b -/QN";
        let game = pitchmate_rules::start::<KingsGoal>(
            &BTreeMap::new(),
            pitchmate_rules::Seed::from_number(0),
            Some(start.into()),
        )
        .unwrap();
        let pb::match_view::Details::KingsGoal(details) =
            KingsGoal::details_to_proto(&game.details(Viewer::Spectator), &SEATS)
        else {
            panic!("not King's Goal details");
        };
        assert_eq!(
            details,
            pb::KingsGoalDetails {
                phase: pb::KingsGoalPhase::Choice as i32,
                half: 1,
                plies_played: 3,
                plies_per_half: 90,
                kicking_seat: "black".into(),
                kickoff_pending: false,
                scores: scores_to_proto(&[0, 1], &SEATS),
                chosen: vec![
                    pb::KingsGoalHand {
                        seat: "white".into(),
                        kinds: Vec::new(),
                    },
                    pb::KingsGoalHand {
                        seat: "black".into(),
                        kinds: vec![
                            pb::KingsGoalPieceKind::Queen as i32,
                            pb::KingsGoalPieceKind::Knight as i32,
                        ],
                    },
                ],
                unplaced: vec![
                    pb::KingsGoalHand {
                        seat: "white".into(),
                        kinds: Vec::new(),
                    },
                    pb::KingsGoalHand {
                        seat: "black".into(),
                        kinds: Vec::new(),
                    },
                ],
            }
        );
    }

    #[test]
    fn a_pending_kick_off_shows_in_the_details() {
        let start = "r2k4/2p2p2/3b4/4n3/4R3/2P5/3N1P2/B3K3 play w e4 1:0 0-0 w* -/-";
        let game = pitchmate_rules::start::<KingsGoal>(
            &BTreeMap::new(),
            pitchmate_rules::Seed::from_number(0),
            Some(start.into()),
        )
        .unwrap();
        let pb::match_view::Details::KingsGoal(details) =
            KingsGoal::details_to_proto(&game.details(Viewer::Seat(WHITE)), &SEATS)
        else {
            panic!("not King's Goal details");
        };
        assert_eq!(details.phase, pb::KingsGoalPhase::Play as i32);
        assert_eq!(details.kicking_seat, "white");
        assert!(details.kickoff_pending);
    }

    #[test]
    fn malformed_typed_actions_are_invalid_arguments_naming_the_field() {
        let cases = [
            (pb::Action { game: None }, "action.kings_goal"),
            (
                pb::Action {
                    game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                        kind: Some(pb::soccer_chess_action::Kind::EndSet(
                            pb::SoccerChessEndSet {},
                        )),
                    })),
                },
                "action.kings_goal",
            ),
            (
                pb::Action {
                    game: Some(pb::action::Game::KingsGoal(pb::KingsGoalAction {
                        kind: None,
                    })),
                },
                "default_placement",
            ),
            (
                typed(ActionKind::Choose(pb::KingsGoalChoose { kind: 0 })),
                "`choose.kind` is missing",
            ),
            (
                typed(ActionKind::Choose(pb::KingsGoalChoose { kind: 7 })),
                "`choose.kind` 7 is not",
            ),
            (
                typed(ActionKind::Place(pb::KingsGoalPlace {
                    kind: pb::KingsGoalPieceKind::King as i32,
                    square: None,
                })),
                "`place.square` is missing",
            ),
            (
                typed(ActionKind::Place(pb::KingsGoalPlace {
                    kind: 0,
                    square: proto_square("d1"),
                })),
                "`place.kind` is missing",
            ),
            (
                typed(ActionKind::Move(pb::KingsGoalMove {
                    from: proto_square("e4"),
                    to: None,
                    promotion: 0,
                })),
                "`move.to` is missing",
            ),
            (
                typed(ActionKind::Move(pb::KingsGoalMove {
                    from: proto_square("a7"),
                    to: proto_square("a8"),
                    promotion: -1,
                })),
                "`move.promotion` -1 is not",
            ),
            (
                typed(ActionKind::Capture(pb::KingsGoalCapture {
                    from: None,
                    to: proto_square("e5"),
                    promotion: 0,
                })),
                "`capture.from` is missing",
            ),
            (
                typed(ActionKind::Pass(pb::KingsGoalPass {
                    from: proto_square("e4"),
                    to: Some(pb::Square {
                        file: 0,
                        rank: 0,
                        name: "e9x".into(),
                    }),
                })),
                "`pass.to`",
            ),
        ];
        for (action, expected) in cases {
            let error = KingsGoal::action_from_proto(&action).unwrap_err();
            assert!(
                matches!(error, crate::GameError::InvalidArgument(_)),
                "{action:?}"
            );
            let message = error.to_string();
            assert!(
                message.contains(expected),
                "{action:?}: `{message}` does not say `{expected}`"
            );
        }
    }

    #[test]
    fn squares_may_be_given_by_name() {
        let by_name = |name: &str| {
            Some(pb::Square {
                file: 0,
                rank: 0,
                name: name.into(),
            })
        };
        let action = typed(ActionKind::Pass(pb::KingsGoalPass {
            from: by_name("e4"),
            to: by_name("e1"),
        }));
        assert_eq!(
            KingsGoal::action_from_proto(&action).unwrap(),
            Action::Pass {
                from: sq("e4"),
                to: sq("e1"),
            }
        );
    }
}
