//! Chessyball on the wire: `proto/pitchmate/v1/chessyball.proto`.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::chessyball::{
    Action, BallPlacement, Chessyball, Details, Event, MatchEndReason, TurnEndReason,
};

use super::ProtoMapping;
use super::convert::{scores_to_proto, seat_name, square_from_proto, square_to_proto};
use crate::GameError;
use crate::mirror::{Mirror, mirror};

use pb::chessyball_action::Kind as ActionKind;
use pb::chessyball_event::Kind as EventKind;

mirror!(BallPlacement => ChessyballBallPlacement, "a Chessyball ball placement" {
    Centre, Random, ByDefender, NearestFree
});
mirror!(TurnEndReason => ChessyballTurnEndReason, "a Chessyball turn end reason" {
    ActionsUsed, EndedEarly, Goal, NoLegalAction, ExtensionLimit
});
mirror!(MatchEndReason => ChessyballMatchEndReason, "a Chessyball match end reason" {
    GoalTarget, TotalGoals, TurnLimit, Shootout, ShootoutCoin
});

impl ProtoMapping for Chessyball {
    fn action_to_proto(action: &Action) -> pb::Action {
        let kind = match action {
            Action::Move { from, to } => ActionKind::Move(pb::ChessyballMove {
                from: Some(square_to_proto(*from)),
                to: Some(square_to_proto(*to)),
            }),
            Action::PlaceBall { square } => ActionKind::PlaceBall(pb::ChessyballPlaceBall {
                square: Some(square_to_proto(*square)),
            }),
            Action::EndTurn => ActionKind::EndTurn(pb::ChessyballEndTurn {}),
            Action::Shoot => ActionKind::Shoot(pb::ChessyballShoot {}),
        };
        pb::Action {
            game: Some(pb::action::Game::Chessyball(pb::ChessyballAction {
                kind: Some(kind),
            })),
        }
    }

    fn action_from_proto(action: &pb::Action) -> Result<Action, GameError> {
        let Some(pb::action::Game::Chessyball(action)) = &action.game else {
            return Err(GameError::InvalidArgument(
                "this is a Chessyball match: set `action.chessyball`".to_owned(),
            ));
        };
        match &action.kind {
            Some(ActionKind::Move(step)) => Ok(Action::Move {
                from: square_from_proto(step.from.as_ref(), "move.from")?,
                to: square_from_proto(step.to.as_ref(), "move.to")?,
            }),
            Some(ActionKind::PlaceBall(place)) => Ok(Action::PlaceBall {
                square: square_from_proto(place.square.as_ref(), "place_ball.square")?,
            }),
            Some(ActionKind::EndTurn(_)) => Ok(Action::EndTurn),
            Some(ActionKind::Shoot(_)) => Ok(Action::Shoot),
            None => Err(GameError::InvalidArgument(
                "`chessyball` names no action: set move, place_ball, end_turn or shoot".to_owned(),
            )),
        }
    }

    fn event_to_proto(event: &Event, seats: &[&'static str]) -> pb::GameEvent {
        let kind = match event {
            Event::StartingSeatChosen { seat, by_coin } => {
                EventKind::StartingSeatChosen(pb::ChessyballStartingSeatChosen {
                    seat: seat_name(seats, *seat),
                    by_coin: *by_coin,
                })
            }
            Event::BallPlaced { square, placement } => {
                EventKind::BallPlaced(pb::ChessyballBallPlaced {
                    square: Some(square_to_proto(*square)),
                    placement: placement.to_proto(),
                })
            }
            Event::TurnStarted {
                seat,
                number,
                actions,
            } => EventKind::TurnStarted(pb::ChessyballTurnStarted {
                seat: seat_name(seats, *seat),
                number: *number,
                actions: *actions,
            }),
            Event::PieceMoved { piece, from, to } => {
                EventKind::PieceMoved(pb::ChessyballPieceMoved {
                    piece_id: *piece,
                    from: Some(square_to_proto(*from)),
                    to: Some(square_to_proto(*to)),
                })
            }
            Event::BallKicked { piece, from, to } => {
                EventKind::BallKicked(pb::ChessyballBallKicked {
                    piece_id: *piece,
                    from: Some(square_to_proto(*from)),
                    to: Some(square_to_proto(*to)),
                })
            }
            Event::GoalScored {
                seat,
                own_goal,
                square,
                score,
            } => EventKind::GoalScored(pb::ChessyballGoalScored {
                seat: seat_name(seats, *seat),
                own_goal: *own_goal,
                square: Some(square_to_proto(*square)),
                score: scores_to_proto(score, seats),
            }),
            Event::PiecesReset => EventKind::PiecesReset(pb::ChessyballPiecesReset {}),
            Event::ExtensionStarted { seat, limit } => {
                EventKind::ExtensionStarted(pb::ChessyballExtensionStarted {
                    seat: seat_name(seats, *seat),
                    limit: *limit,
                })
            }
            Event::TurnEnded {
                seat,
                actions,
                reason,
            } => EventKind::TurnEnded(pb::ChessyballTurnEnded {
                seat: seat_name(seats, *seat),
                actions: *actions,
                reason: reason.to_proto(),
            }),
            Event::ShootoutStarted { first } => {
                EventKind::ShootoutStarted(pb::ChessyballShootoutStarted {
                    first: seat_name(seats, *first),
                })
            }
            Event::PenaltyTaken {
                seat,
                round,
                roll,
                scored,
                tally,
            } => EventKind::PenaltyTaken(pb::ChessyballPenaltyTaken {
                seat: seat_name(seats, *seat),
                round: *round,
                roll: u32::from(*roll),
                scored: *scored,
                tally: scores_to_proto(tally, seats),
            }),
            Event::ShootoutCoinFlipped { winner } => {
                EventKind::ShootoutCoinFlipped(pb::ChessyballShootoutCoinFlipped {
                    winner: seat_name(seats, *winner),
                })
            }
            Event::MatchEnded {
                winner,
                score,
                reason,
            } => EventKind::MatchEnded(pb::ChessyballMatchEnded {
                winner: winner.map(|s| seat_name(seats, s)).unwrap_or_default(),
                score: scores_to_proto(score, seats),
                reason: reason.to_proto(),
            }),
        };
        pb::GameEvent {
            game: Some(pb::game_event::Game::Chessyball(pb::ChessyballEvent {
                kind: Some(kind),
            })),
        }
    }

    fn details_to_proto(details: &Details, seats: &[&'static str]) -> pb::match_view::Details {
        let shootout = details.shootout.as_ref();
        pb::match_view::Details::Chessyball(pb::ChessyballDetails {
            score: scores_to_proto(&details.score, seats),
            turn_number: details.turn_number,
            max_turns: details.max_turns,
            first_to: details.first_to,
            total_goals: details.total_goals,
            starting_seat: seat_name(seats, details.starting_seat),
            actions_allowed: details.actions_allowed,
            actions_taken: details.actions_taken,
            ball_moved_every_action: details.ball_moved_every_action,
            extension_actions: details.extension_actions,
            extension_limit: details.extension_limit,
            shootout: shootout.is_some(),
            shootout_first: shootout
                .and_then(|s| s.first)
                .map(|s| seat_name(seats, s))
                .unwrap_or_default(),
            penalty_kicks: shootout
                .map(|s| {
                    s.kicks
                        .iter()
                        .zip(seats)
                        .map(|(scored, seat)| pb::ChessyballPenaltyKicks {
                            seat: (*seat).to_owned(),
                            scored: scored.clone(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use pitchmate_rules::Square;
    use pitchmate_rules::chessyball::{AWAY, HOME, ShootoutDetails};

    use super::*;

    const SEATS: [&str; 2] = ["home", "away"];

    fn chessyball_action(kind: Option<ActionKind>) -> pb::Action {
        pb::Action {
            game: Some(pb::action::Game::Chessyball(pb::ChessyballAction { kind })),
        }
    }

    fn event_kind(event: &Event) -> EventKind {
        let pb::GameEvent {
            game: Some(pb::game_event::Game::Chessyball(proto)),
        } = Chessyball::event_to_proto(event, &SEATS)
        else {
            panic!("not a Chessyball event: {event:?}");
        };
        proto.kind.expect("every event names its kind")
    }

    #[test]
    fn every_action_kind_round_trips_through_proto() {
        let actions = [
            Action::Move {
                from: Square::new(5, 9),
                to: Square::new(7, 9),
            },
            Action::PlaceBall {
                square: Square::new(3, 6),
            },
            Action::EndTurn,
            Action::Shoot,
        ];
        for action in actions {
            let proto = Chessyball::action_to_proto(&action);
            assert_eq!(Chessyball::action_from_proto(&proto).unwrap(), action);
        }
    }

    #[test]
    fn squares_may_be_given_by_name() {
        let by_name = |name: &str| pb::Square {
            file: 0,
            rank: 0,
            name: name.to_owned(),
        };
        let typed = chessyball_action(Some(ActionKind::Move(pb::ChessyballMove {
            from: Some(by_name("e9")),
            to: Some(by_name("g9")),
        })));
        assert_eq!(
            Chessyball::action_from_proto(&typed).unwrap(),
            Action::Move {
                from: Square::new(5, 9),
                to: Square::new(7, 9),
            }
        );
    }

    #[test]
    fn malformed_typed_actions_are_refused_naming_what_is_wrong() {
        let soccer_chess = pb::Action {
            game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                kind: Some(pb::soccer_chess_action::Kind::EndSet(
                    pb::SoccerChessEndSet {},
                )),
            })),
        };
        let half_move = chessyball_action(Some(ActionKind::Move(pb::ChessyballMove {
            from: Some(square_to_proto(Square::new(5, 9))),
            to: None,
        })));
        let unplaced_ball =
            chessyball_action(Some(ActionKind::PlaceBall(pb::ChessyballPlaceBall {
                square: None,
            })));
        let unreadable_square = chessyball_action(Some(ActionKind::Move(pb::ChessyballMove {
            from: Some(pb::Square {
                file: 0,
                rank: 0,
                name: "centre".into(),
            }),
            to: Some(square_to_proto(Square::new(7, 9))),
        })));
        let cases = [
            (pb::Action { game: None }, "action.chessyball"),
            (soccer_chess, "action.chessyball"),
            (chessyball_action(None), "names no action"),
            (half_move, "move.to"),
            (unplaced_ball, "place_ball.square"),
            (unreadable_square, "move.from"),
        ];
        for (action, named) in cases {
            let error = Chessyball::action_from_proto(&action).unwrap_err();
            assert!(
                matches!(error, crate::GameError::InvalidArgument(_)),
                "{action:?}"
            );
            assert!(
                error.to_string().contains(named),
                "`{error}` should mention `{named}`"
            );
        }
    }

    #[test]
    fn opening_and_move_events_map_with_seat_names_and_squares() {
        let EventKind::StartingSeatChosen(chosen) = event_kind(&Event::StartingSeatChosen {
            seat: AWAY,
            by_coin: true,
        }) else {
            panic!("wrong kind");
        };
        assert_eq!(chosen.seat, "away");
        assert!(chosen.by_coin);

        let placements = [
            (BallPlacement::Centre, pb::ChessyballBallPlacement::Centre),
            (BallPlacement::Random, pb::ChessyballBallPlacement::Random),
            (
                BallPlacement::ByDefender,
                pb::ChessyballBallPlacement::ByDefender,
            ),
            (
                BallPlacement::NearestFree,
                pb::ChessyballBallPlacement::NearestFree,
            ),
        ];
        for (placement, expected) in placements {
            let EventKind::BallPlaced(placed) = event_kind(&Event::BallPlaced {
                square: Square::new(9, 6),
                placement,
            }) else {
                panic!("wrong kind");
            };
            assert_eq!(placed.placement(), expected);
            assert_eq!(placed.square.unwrap().name, "i6");
        }

        let EventKind::TurnStarted(started) = event_kind(&Event::TurnStarted {
            seat: HOME,
            number: 2,
            actions: 2,
        }) else {
            panic!("wrong kind");
        };
        assert_eq!(
            (started.seat.as_str(), started.number, started.actions),
            ("home", 2, 2)
        );

        let EventKind::PieceMoved(moved) = event_kind(&Event::PieceMoved {
            piece: 4,
            from: Square::new(5, 9),
            to: Square::new(7, 9),
        }) else {
            panic!("wrong kind");
        };
        assert_eq!(moved.piece_id, 4);
        assert_eq!(moved.from.unwrap().name, "e9");
        assert_eq!(moved.to.unwrap().name, "g9");

        let EventKind::BallKicked(kicked) = event_kind(&Event::BallKicked {
            piece: 4,
            from: Square::new(8, 8),
            to: Square::new(14, 2),
        }) else {
            panic!("wrong kind");
        };
        assert_eq!(kicked.piece_id, 4);
        assert_eq!(kicked.from.unwrap().name, "h8");
        assert_eq!(kicked.to.unwrap().name, "n2");
    }

    #[test]
    fn goal_and_turn_events_map_with_scores_per_seat() {
        let EventKind::GoalScored(goal) = event_kind(&Event::GoalScored {
            seat: AWAY,
            own_goal: true,
            square: Square::new(1, 6),
            score: [1, 2],
        }) else {
            panic!("wrong kind");
        };
        assert_eq!(goal.seat, "away");
        assert!(goal.own_goal);
        assert_eq!(goal.square.unwrap().name, "a6");
        assert_eq!(
            goal.score
                .iter()
                .map(|s| (s.seat.as_str(), s.score))
                .collect::<Vec<_>>(),
            [("home", 1), ("away", 2)]
        );

        assert!(matches!(
            event_kind(&Event::PiecesReset),
            EventKind::PiecesReset(_)
        ));

        let EventKind::ExtensionStarted(extension) = event_kind(&Event::ExtensionStarted {
            seat: HOME,
            limit: 10,
        }) else {
            panic!("wrong kind");
        };
        assert_eq!((extension.seat.as_str(), extension.limit), ("home", 10));

        let reasons = [
            (
                TurnEndReason::ActionsUsed,
                pb::ChessyballTurnEndReason::ActionsUsed,
            ),
            (
                TurnEndReason::EndedEarly,
                pb::ChessyballTurnEndReason::EndedEarly,
            ),
            (TurnEndReason::Goal, pb::ChessyballTurnEndReason::Goal),
            (
                TurnEndReason::NoLegalAction,
                pb::ChessyballTurnEndReason::NoLegalAction,
            ),
            (
                TurnEndReason::ExtensionLimit,
                pb::ChessyballTurnEndReason::ExtensionLimit,
            ),
        ];
        for (reason, expected) in reasons {
            let EventKind::TurnEnded(ended) = event_kind(&Event::TurnEnded {
                seat: AWAY,
                actions: 3,
                reason,
            }) else {
                panic!("wrong kind");
            };
            assert_eq!((ended.seat.as_str(), ended.actions), ("away", 3));
            assert_eq!(ended.reason(), expected);
        }
    }

    #[test]
    fn shootout_and_match_end_events_map() {
        let EventKind::ShootoutStarted(started) =
            event_kind(&Event::ShootoutStarted { first: AWAY })
        else {
            panic!("wrong kind");
        };
        assert_eq!(started.first, "away");

        let EventKind::PenaltyTaken(penalty) = event_kind(&Event::PenaltyTaken {
            seat: HOME,
            round: 3,
            roll: 5,
            scored: true,
            tally: [2, 1],
        }) else {
            panic!("wrong kind");
        };
        assert_eq!(penalty.seat, "home");
        assert_eq!((penalty.round, penalty.roll, penalty.scored), (3, 5, true));
        assert_eq!(
            penalty.tally.iter().map(|s| s.score).collect::<Vec<_>>(),
            [2, 1]
        );

        let EventKind::ShootoutCoinFlipped(coin) =
            event_kind(&Event::ShootoutCoinFlipped { winner: HOME })
        else {
            panic!("wrong kind");
        };
        assert_eq!(coin.winner, "home");

        let reasons = [
            (
                MatchEndReason::GoalTarget,
                pb::ChessyballMatchEndReason::GoalTarget,
            ),
            (
                MatchEndReason::TotalGoals,
                pb::ChessyballMatchEndReason::TotalGoals,
            ),
            (
                MatchEndReason::TurnLimit,
                pb::ChessyballMatchEndReason::TurnLimit,
            ),
            (
                MatchEndReason::Shootout,
                pb::ChessyballMatchEndReason::Shootout,
            ),
            (
                MatchEndReason::ShootoutCoin,
                pb::ChessyballMatchEndReason::ShootoutCoin,
            ),
        ];
        for (reason, expected) in reasons {
            let EventKind::MatchEnded(ended) = event_kind(&Event::MatchEnded {
                winner: Some(AWAY),
                score: [0, 3],
                reason,
            }) else {
                panic!("wrong kind");
            };
            assert_eq!(ended.winner, "away");
            assert_eq!(ended.reason(), expected);
            assert_eq!(ended.score[1].score, 3);
        }

        let EventKind::MatchEnded(draw) = event_kind(&Event::MatchEnded {
            winner: None,
            score: [1, 1],
            reason: MatchEndReason::TurnLimit,
        }) else {
            panic!("wrong kind");
        };
        assert_eq!(draw.winner, "", "a draw names no winner");
    }

    fn details(shootout: Option<ShootoutDetails>) -> Details {
        Details {
            score: [2, 2],
            turn_number: 61,
            max_turns: 60,
            first_to: 3,
            total_goals: 0,
            starting_seat: AWAY,
            actions_allowed: 3,
            actions_taken: 1,
            ball_moved_every_action: true,
            extension_actions: Some(2),
            extension_limit: 10,
            shootout,
        }
    }

    #[test]
    fn details_map_every_field_and_the_shootout_only_once_it_runs() {
        let pb::match_view::Details::Chessyball(before) =
            Chessyball::details_to_proto(&details(None), &SEATS)
        else {
            panic!("not Chessyball details");
        };
        assert_eq!(
            before.score.iter().map(|s| s.score).collect::<Vec<_>>(),
            [2, 2]
        );
        assert_eq!(
            (
                before.turn_number,
                before.max_turns,
                before.first_to,
                before.total_goals
            ),
            (61, 60, 3, 0)
        );
        assert_eq!(before.starting_seat, "away");
        assert_eq!((before.actions_allowed, before.actions_taken), (3, 1));
        assert!(before.ball_moved_every_action);
        assert_eq!(before.extension_actions, Some(2));
        assert_eq!(before.extension_limit, 10);
        assert!(!before.shootout);
        assert_eq!(before.shootout_first, "");
        assert!(before.penalty_kicks.is_empty());

        let running = ShootoutDetails {
            first: Some(AWAY),
            kicks: [vec![true], vec![false, true]],
        };
        let pb::match_view::Details::Chessyball(during) =
            Chessyball::details_to_proto(&details(Some(running)), &SEATS)
        else {
            panic!("not Chessyball details");
        };
        assert!(during.shootout);
        assert_eq!(during.shootout_first, "away");
        assert_eq!(
            during.penalty_kicks,
            [
                pb::ChessyballPenaltyKicks {
                    seat: "home".into(),
                    scored: vec![true],
                },
                pb::ChessyballPenaltyKicks {
                    seat: "away".into(),
                    scored: vec![false, true],
                },
            ]
        );
    }
}
