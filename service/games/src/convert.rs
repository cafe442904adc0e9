//! Conversions of the rules core's shared types (squares, boards, turns, options, variant
//! metadata) to and from their proto messages.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{
    BoardView, OptionKind, OptionValue, Seat, Square, Turn, TurnStructure, VariantInfo, ZoneKind,
};

use crate::GameError;
use crate::mirror::{Mirror, mirror};

pub fn square_to_proto(square: Square) -> pb::Square {
    pb::Square {
        file: i32::from(square.file),
        rank: i32::from(square.rank),
        name: square.name(),
    }
}

/// Reads a square from its coordinates, or from its name when both coordinates are zero.
pub fn square_from_proto(square: Option<&pb::Square>, field: &str) -> Result<Square, GameError> {
    let square = square.ok_or_else(|| {
        GameError::InvalidArgument(format!("`{field}` is missing: give a square"))
    })?;
    if square.file == 0 && square.rank == 0 {
        return Square::parse(&square.name).ok_or_else(|| {
            GameError::InvalidArgument(format!(
                "`{field}`: `{}` is not a square name like `e4`; or give file and rank",
                square.name
            ))
        });
    }
    match (i8::try_from(square.file), i8::try_from(square.rank)) {
        (Ok(file), Ok(rank)) => Ok(Square::new(file, rank)),
        _ => Err(GameError::InvalidArgument(format!(
            "`{field}`: file {} rank {} is far off any board",
            square.file, square.rank
        ))),
    }
}

pub fn seat_name(seats: &[&str], seat: Seat) -> String {
    seats[seat.index()].to_owned()
}

pub fn scores_to_proto(scores: &[u32], seats: &[&str]) -> Vec<pb::SeatScore> {
    scores
        .iter()
        .zip(seats)
        .map(|(score, seat)| pb::SeatScore {
            seat: (*seat).to_owned(),
            score: *score,
        })
        .collect()
}

pub fn turn_to_proto(turn: &Turn, seats: &[&str]) -> pb::TurnInfo {
    pb::TurnInfo {
        phase: turn.phase.clone(),
        to_act: turn.to_act.iter().map(|s| seat_name(seats, *s)).collect(),
        number: turn.number,
        actions_left: turn.actions_left,
        may_end_turn: turn.may_end_turn,
    }
}

mirror!(ZoneKind => ZoneKind, "a zone kind" {
    Goal, SmallArea, TeamArea, KeeperBox, InnerArea, GoalArea, PenaltyArea, EndZone
});

pub fn board_to_proto(board: &BoardView, seats: &[&'static str]) -> pb::BoardView {
    pb::BoardView {
        files: u32::from(board.files),
        ranks: u32::from(board.ranks),
        zones: board
            .zones
            .iter()
            .map(|zone| pb::Zone {
                kind: zone.kind.to_proto(),
                seat: zone.owner.map(|s| seat_name(seats, s)).unwrap_or_default(),
                squares: zone.squares.iter().copied().map(square_to_proto).collect(),
            })
            .collect(),
        pieces: board
            .pieces
            .iter()
            .map(|piece| pb::Piece {
                id: piece.id,
                seat: seat_name(seats, piece.owner),
                kind: piece.kind.clone(),
                symbol: piece.symbol.clone(),
                square: Some(square_to_proto(piece.square)),
                spot: piece.spot.clone(),
            })
            .collect(),
        ball: board.ball.as_ref().map(|ball| pb::Ball {
            square: ball.square.map(square_to_proto),
            holder_id: ball.holder,
            possible_holder_ids: ball.possible_holders.clone(),
        }),
    }
}

pub fn option_to_proto(value: &OptionValue) -> pb::OptionValue {
    pb::OptionValue {
        kind: Some(match value {
            OptionValue::Int(v) => pb::option_value::Kind::IntValue(*v),
            OptionValue::Bool(v) => pb::option_value::Kind::BoolValue(*v),
            OptionValue::Text(v) => pb::option_value::Kind::StringValue(v.clone()),
        }),
    }
}

pub fn option_from_proto(name: &str, value: &pb::OptionValue) -> Result<OptionValue, GameError> {
    match &value.kind {
        Some(pb::option_value::Kind::IntValue(v)) => Ok(OptionValue::Int(*v)),
        Some(pb::option_value::Kind::BoolValue(v)) => Ok(OptionValue::Bool(*v)),
        Some(pb::option_value::Kind::StringValue(v)) => Ok(OptionValue::Text(v.clone())),
        None => Err(GameError::InvalidOption(format!(
            "option `{name}` has no value; set int_value, bool_value or string_value"
        ))),
    }
}

pub fn variant_to_proto(info: &VariantInfo) -> pb::Variant {
    pb::Variant {
        id: info.id.to_owned(),
        name: info.name.to_owned(),
        summary: info.summary.to_owned(),
        files: u32::from(info.files),
        ranks: u32::from(info.ranks),
        seats: info.seats.iter().map(|s| (*s).to_owned()).collect(),
        turn_structure: match info.turn_structure {
            TurnStructure::Alternating => pb::TurnStructure::Alternating,
            TurnStructure::MultiAction => pb::TurnStructure::MultiAction,
            TurnStructure::Simultaneous => pb::TurnStructure::Simultaneous,
        } as i32,
        max_actions_per_turn: info.max_actions_per_turn,
        setup_phase: info.setup_phase,
        chance: info.chance,
        hidden_information: info.hidden_information,
        draws_possible: info.draws_possible,
        options: info
            .options
            .iter()
            .map(|spec| {
                let (option_type, min, max, choices) = match &spec.kind {
                    OptionKind::Int { min, max } => (pb::OptionType::Int, *min, *max, Vec::new()),
                    OptionKind::Bool => (pb::OptionType::Bool, 0, 0, Vec::new()),
                    OptionKind::Choice(choices) => (
                        pb::OptionType::Choice,
                        0,
                        0,
                        choices.iter().map(|c| (*c).to_owned()).collect(),
                    ),
                };
                pb::OptionSpec {
                    name: spec.name.to_owned(),
                    description: spec.description.to_owned(),
                    r#type: option_type as i32,
                    default_value: Some(option_to_proto(&spec.default)),
                    min,
                    max,
                    choices,
                }
            })
            .collect(),
        rules_version: info.rules_version.to_owned(),
        position_notation: info.position_notation.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_by_coordinates_or_by_name() {
        let by_name = pb::Square {
            file: 0,
            rank: 0,
            name: "k17".into(),
        };
        assert_eq!(
            square_from_proto(Some(&by_name), "to").unwrap(),
            Square::new(11, 17)
        );
        let by_coordinates = pb::Square {
            file: 5,
            rank: 4,
            name: "ignored".into(),
        };
        assert_eq!(
            square_from_proto(Some(&by_coordinates), "to").unwrap(),
            Square::new(5, 4)
        );
        let round_trip = square_to_proto(Square::new(6, 0));
        assert_eq!(round_trip.name, "f0");
        assert_eq!(
            square_from_proto(Some(&round_trip), "to").unwrap(),
            Square::new(6, 0)
        );
    }

    #[test]
    fn unreadable_squares_are_invalid_arguments() {
        let bad = [
            None,
            Some(pb::Square {
                file: 0,
                rank: 0,
                name: "zz".into(),
            }),
            Some(pb::Square {
                file: 1000,
                rank: 1,
                name: String::new(),
            }),
        ];
        for square in bad {
            let error = square_from_proto(square.as_ref(), "from").unwrap_err();
            assert!(matches!(error, crate::GameError::InvalidArgument(_)));
        }
    }

    #[test]
    fn option_values_round_trip() {
        for value in [
            OptionValue::Int(-3),
            OptionValue::Bool(true),
            OptionValue::Text("x".into()),
        ] {
            assert_eq!(
                option_from_proto("o", &option_to_proto(&value)).unwrap(),
                value
            );
        }
        let empty = pb::OptionValue { kind: None };
        assert!(matches!(
            option_from_proto("o", &empty),
            Err(GameError::InvalidOption(_))
        ));
    }
}
