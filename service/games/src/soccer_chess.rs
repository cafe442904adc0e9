//! Soccer Chess on the wire: `proto/pitchmate/v1/soccer_chess.proto`.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::soccer_chess::{Action, Details, Event, PieceKind, SoccerChess};

use super::ProtoMapping;
use super::convert::{scores_to_proto, seat_name, square_from_proto, square_to_proto};
use crate::GameError;
use crate::mirror::{Mirror, mirror};

use pb::soccer_chess_action::Kind as ActionKind;
use pb::soccer_chess_event::Kind as EventKind;

mirror!(PieceKind => SoccerChessPieceKind, "a Soccer Chess piece kind (1 to 5)" {
    Keeper, Defender, Rook, Bishop, Attacker
});

fn pair(values: [u32; 2], seats: &[&'static str]) -> Vec<pb::SeatScore> {
    scores_to_proto(&values, seats)
}

impl ProtoMapping for SoccerChess {
    fn action_to_proto(action: &Action) -> pb::Action {
        let kind = match action {
            Action::Place { kind, square } => ActionKind::Place(pb::SoccerChessPlace {
                kind: kind.to_proto(),
                square: Some(square_to_proto(*square)),
            }),
            Action::DefaultFormation => {
                ActionKind::DefaultFormation(pb::SoccerChessDefaultFormation {})
            }
            Action::Move { from, to } => ActionKind::Move(pb::SoccerChessMove {
                from: Some(square_to_proto(*from)),
                to: Some(square_to_proto(*to)),
            }),
            Action::Kick { from, target } => ActionKind::Kick(pb::SoccerChessKick {
                from: Some(square_to_proto(*from)),
                target: Some(square_to_proto(*target)),
            }),
            Action::EndSet => ActionKind::EndSet(pb::SoccerChessEndSet {}),
        };
        pb::Action {
            game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                kind: Some(kind),
            })),
        }
    }

    fn action_from_proto(action: &pb::Action) -> Result<Action, GameError> {
        let Some(pb::action::Game::SoccerChess(action)) = &action.game else {
            return Err(GameError::InvalidArgument(
                "this is a Soccer Chess match: set `action.soccer_chess`".to_owned(),
            ));
        };
        match &action.kind {
            Some(ActionKind::Place(place)) => Ok(Action::Place {
                kind: PieceKind::read(place.kind, "place.kind")?,
                square: square_from_proto(place.square.as_ref(), "place.square")?,
            }),
            Some(ActionKind::DefaultFormation(_)) => Ok(Action::DefaultFormation),
            Some(ActionKind::Move(step)) => Ok(Action::Move {
                from: square_from_proto(step.from.as_ref(), "move.from")?,
                to: square_from_proto(step.to.as_ref(), "move.to")?,
            }),
            Some(ActionKind::Kick(kick)) => Ok(Action::Kick {
                from: square_from_proto(kick.from.as_ref(), "kick.from")?,
                target: square_from_proto(kick.target.as_ref(), "kick.target")?,
            }),
            Some(ActionKind::EndSet(_)) => Ok(Action::EndSet),
            None => Err(GameError::InvalidArgument(
                "`soccer_chess` names no action: set place, default_formation, move, kick or \
                 end_set"
                    .to_owned(),
            )),
        }
    }

    fn event_to_proto(event: &Event, seats: &[&'static str]) -> pb::GameEvent {
        let kind = match event {
            Event::PiecePlaced {
                piece_id,
                kind,
                square,
            } => EventKind::PiecePlaced(pb::SoccerChessPiecePlaced {
                piece_id: *piece_id,
                kind: kind.to_proto(),
                square: Some(square_to_proto(*square)),
            }),
            Event::PieceMoved { piece_id, from, to } => {
                EventKind::PieceMoved(pb::SoccerChessPieceMoved {
                    piece_id: *piece_id,
                    from: Some(square_to_proto(*from)),
                    to: Some(square_to_proto(*to)),
                })
            }
            Event::BallKicked {
                piece_id,
                from,
                ball_from,
                ball_to,
            } => EventKind::BallKicked(pb::SoccerChessBallKicked {
                piece_id: *piece_id,
                from: Some(square_to_proto(*from)),
                ball_from: Some(square_to_proto(*ball_from)),
                ball_to: Some(square_to_proto(*ball_to)),
            }),
            Event::GoalScored {
                seat,
                game,
                away_goal,
                own_goal,
                game_score,
            } => EventKind::GoalScored(pb::SoccerChessGoalScored {
                seat: seat_name(seats, *seat),
                game: u32::from(*game),
                away_goal: *away_goal,
                own_goal: *own_goal,
                game_score: pair(*game_score, seats),
            }),
            Event::BallReset { square } => EventKind::BallReset(pb::SoccerChessBallReset {
                square: Some(square_to_proto(*square)),
            }),
            Event::SetEnded {
                seat,
                set_number,
                moves,
            } => EventKind::SetEnded(pb::SoccerChessSetEnded {
                seat: seat_name(seats, *seat),
                set_number: *set_number,
                moves: *moves,
            }),
            Event::GameEnded { game, game_score } => {
                EventKind::GameEnded(pb::SoccerChessGameEnded {
                    game: u32::from(*game),
                    game_score: pair(*game_score, seats),
                })
            }
            Event::SecondGameStarted { visitor } => {
                EventKind::SecondGameStarted(pb::SoccerChessSecondGameStarted {
                    visitor: seat_name(seats, *visitor),
                })
            }
            Event::GoldenGoalStarted { aggregate } => {
                EventKind::GoldenGoalStarted(pb::SoccerChessGoldenGoalStarted {
                    aggregate: pair(*aggregate, seats),
                })
            }
        };
        pb::GameEvent {
            game: Some(pb::game_event::Game::SoccerChess(pb::SoccerChessEvent {
                kind: Some(kind),
            })),
        }
    }

    fn details_to_proto(details: &Details, seats: &[&'static str]) -> pb::match_view::Details {
        pb::match_view::Details::SoccerChess(pb::SoccerChessDetails {
            game: u32::from(details.game),
            visitor: seat_name(seats, details.visitor),
            set_number: details.set_number,
            sets_per_game: details.sets_per_game,
            moved_piece_ids: details.moved_piece_ids.clone(),
            game1_score: pair(details.game_scores[0], seats),
            game2_score: if details.game >= 2 {
                pair(details.game_scores[1], seats)
            } else {
                Vec::new()
            },
            away_goals: pair(details.away_goals, seats),
            golden_goal: details.golden_goal,
            unplaced: details.unplaced.iter().map(|k| k.to_proto()).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use pitchmate_rules::{Seat, Square};

    use super::*;

    fn sample_actions() -> Vec<Action> {
        vec![
            Action::Place {
                kind: PieceKind::Keeper,
                square: Square::new(6, 1),
            },
            Action::Place {
                kind: PieceKind::Attacker,
                square: Square::new(6, 8),
            },
            Action::DefaultFormation,
            Action::Move {
                from: Square::new(3, 4),
                to: Square::new(3, 7),
            },
            Action::Kick {
                from: Square::new(5, 8),
                target: Square::new(6, 18),
            },
            Action::EndSet,
        ]
    }

    #[test]
    fn actions_round_trip_through_proto() {
        for action in sample_actions() {
            let proto = SoccerChess::action_to_proto(&action);
            assert_eq!(SoccerChess::action_from_proto(&proto).unwrap(), action);
        }
    }

    #[test]
    fn incomplete_typed_actions_are_invalid_arguments() {
        let empty = pb::Action { game: None };
        let no_kind = pb::Action {
            game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                kind: None,
            })),
        };
        let no_square = pb::Action {
            game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                kind: Some(ActionKind::Move(pb::SoccerChessMove {
                    from: None,
                    to: None,
                })),
            })),
        };
        let bad_kind = pb::Action {
            game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                kind: Some(ActionKind::Place(pb::SoccerChessPlace {
                    kind: 0,
                    square: Some(square_to_proto(Square::new(1, 1))),
                })),
            })),
        };
        for action in [empty, no_kind, no_square, bad_kind] {
            let error = SoccerChess::action_from_proto(&action).unwrap_err();
            assert!(
                matches!(error, crate::GameError::InvalidArgument(_)),
                "{action:?}"
            );
        }
    }

    #[test]
    fn events_name_seats_and_scores_per_seat() {
        let seats = ["first", "second"];
        let event = Event::GoalScored {
            seat: Seat(1),
            game: 2,
            away_goal: true,
            own_goal: false,
            game_score: [1, 3],
        };
        let pb::GameEvent {
            game: Some(pb::game_event::Game::SoccerChess(proto)),
        } = SoccerChess::event_to_proto(&event, &seats)
        else {
            panic!("not a soccer chess event");
        };
        let Some(EventKind::GoalScored(goal)) = proto.kind else {
            panic!("not a goal: {proto:?}");
        };
        assert_eq!(goal.seat, "second");
        assert_eq!(goal.game, 2);
        assert!(goal.away_goal);
        assert_eq!(goal.game_score[0].seat, "first");
        assert_eq!(goal.game_score[0].score, 1);
        assert_eq!(goal.game_score[1].score, 3);
    }
}
