//! Between a match's memory and the store's rows: setups, inputs, events and answers to bytes
//! and back. The store keeps bytes; this is the one place that knows what they mean.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Visibility};
use prost::Message;

use super::actor::{Input, MatchSetup};
use super::clock::Hosting;
use super::log::LoggedEvent;
use super::token::TokenHash;
use crate::games::{option_from_proto, option_to_proto};
use crate::store::{AnswerRow, EventRow, InputKind, InputRow};

/// A stored row that does not decode: the database was damaged or written by something else.
#[derive(Debug, thiserror::Error)]
#[error("stored {what} does not decode: {detail}")]
pub struct Undecodable {
    what: &'static str,
    detail: String,
}

fn undecodable(what: &'static str, detail: impl ToString) -> Undecodable {
    Undecodable {
        what,
        detail: detail.to_string(),
    }
}

fn nanos(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

fn from_nanos(nanos: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(u64::try_from(nanos).unwrap_or(0))
}

/// The setup as a replay header without seats (they fill as players join).
pub fn setup_header(setup: &MatchSetup, rules_version: &str) -> pb::ReplayHeader {
    pb::ReplayHeader {
        match_id: setup.match_id.clone(),
        variant_id: setup.variant_id.clone(),
        rules_version: rules_version.to_owned(),
        options: setup
            .options
            .iter()
            .map(|(name, value)| (name.clone(), option_to_proto(value)))
            .collect(),
        seed: setup.seed,
        start_position: setup.start_position.clone().unwrap_or_default(),
        seats: Vec::new(),
        create_time: Some(setup.create_time.into()),
        status: pb::MatchStatus::Unspecified as i32,
        result: None,
        time_control: Some(setup.hosting.time_control_proto()),
        timeout_policy: Some(setup.hosting.timeout_policy_proto()),
        abandon_after: setup.hosting.abandon_after_proto(),
    }
}

pub fn setup_from_bytes(bytes: &[u8]) -> Result<MatchSetup, Undecodable> {
    let header = pb::ReplayHeader::decode(bytes).map_err(|e| undecodable("setup", e))?;
    let options = header
        .options
        .iter()
        .map(|(name, value)| Ok((name.clone(), option_from_proto(name, value)?)))
        .collect::<Result<_, crate::ServiceError>>()
        .map_err(|e| undecodable("setup", e))?;
    let create_time = header
        .create_time
        .and_then(|t| SystemTime::try_from(t).ok())
        .ok_or_else(|| undecodable("setup", "no creation time"))?;
    let hosting = Hosting::from_proto(
        header.time_control.as_ref(),
        header.timeout_policy.as_ref(),
        header.abandon_after.as_ref(),
    )
    .map_err(|e| undecodable("setup", e))?;
    Ok(MatchSetup {
        match_id: header.match_id,
        variant_id: header.variant_id,
        options,
        seed: header.seed,
        start_position: Some(header.start_position).filter(|p| !p.is_empty()),
        create_time,
        hosting,
    })
}

/// The columns of an input that is only a kind and a seat.
fn plain(kind: InputKind, seat: Seat) -> (InputKind, Seat, String, Vec<u8>, Vec<u8>) {
    (kind, seat, String::new(), Vec::new(), Vec::new())
}

pub fn input_row(number: usize, input: &Input) -> InputRow {
    let (kind, seat, player_name, token_hash, action) = match input {
        Input::Joined {
            seat,
            player_name,
            token_hash,
        } => (
            InputKind::Joined,
            *seat,
            player_name.clone(),
            token_hash.as_bytes().to_vec(),
            Vec::new(),
        ),
        Input::Acted {
            seat,
            action,
            for_timeout,
        } => (
            if *for_timeout {
                InputKind::ActedForTimeout
            } else {
                InputKind::Acted
            },
            *seat,
            String::new(),
            Vec::new(),
            action.encode_to_vec(),
        ),
        Input::Resigned { seat } => plain(InputKind::Resigned, *seat),
        Input::TimedOut { seat, forfeited } => plain(
            if *forfeited {
                InputKind::TimedOutForfeited
            } else {
                InputKind::TimedOut
            },
            *seat,
        ),
        Input::OfferedDraw { seat } => plain(InputKind::OfferedDraw, *seat),
        Input::AcceptedDraw { seat } => plain(InputKind::AcceptedDraw, *seat),
        Input::Aborted { seat } => plain(InputKind::Aborted, *seat),
        Input::ClaimedVictory { seat } => plain(InputKind::ClaimedVictory, *seat),
    };
    InputRow {
        number: number as u64,
        kind,
        seat: seat.0,
        player_name,
        token_hash,
        action,
    }
}

pub fn input_from_row(row: &InputRow) -> Result<Input, Undecodable> {
    let seat = Seat(row.seat);
    Ok(match row.kind {
        InputKind::Joined => Input::Joined {
            seat,
            player_name: row.player_name.clone(),
            token_hash: TokenHash::from_bytes(&row.token_hash)
                .ok_or_else(|| undecodable("token hash", "not 32 bytes"))?,
        },
        InputKind::Acted | InputKind::ActedForTimeout => Input::Acted {
            seat,
            action: pb::Action::decode(row.action.as_slice())
                .map_err(|e| undecodable("action", e))?,
            for_timeout: row.kind == InputKind::ActedForTimeout,
        },
        InputKind::Resigned => Input::Resigned { seat },
        InputKind::TimedOut => Input::TimedOut {
            seat,
            forfeited: false,
        },
        InputKind::TimedOutForfeited => Input::TimedOut {
            seat,
            forfeited: true,
        },
        InputKind::OfferedDraw => Input::OfferedDraw { seat },
        InputKind::AcceptedDraw => Input::AcceptedDraw { seat },
        InputKind::Aborted => Input::Aborted { seat },
        InputKind::ClaimedVictory => Input::ClaimedVictory { seat },
    })
}

pub fn event_row(event: &LoggedEvent) -> EventRow {
    EventRow {
        seq: event.seq,
        version: event.version,
        time_nanos: nanos(event.time),
        owner_seat: match event.visibility {
            Visibility::Public => None,
            Visibility::Seat(seat) => Some(seat.0),
        },
        owner_name: event.owner_name.clone(),
        kind: pb::MatchEvent {
            kind: Some(event.kind.clone()),
            ..pb::MatchEvent::default()
        }
        .encode_to_vec(),
    }
}

pub fn event_from_row(row: &EventRow) -> Result<LoggedEvent, Undecodable> {
    let kind = pb::MatchEvent::decode(row.kind.as_slice())
        .map_err(|e| undecodable("event", e))?
        .kind
        .ok_or_else(|| undecodable("event", format!("seq {} has no kind", row.seq)))?;
    Ok(LoggedEvent {
        seq: row.seq,
        version: row.version,
        time: from_nanos(row.time_nanos),
        visibility: row
            .owner_seat
            .map_or(Visibility::Public, |s| Visibility::Seat(Seat(s))),
        owner_name: row.owner_name.clone(),
        kind,
    })
}

pub fn answer_row(
    seat: Seat,
    client_action_id: &str,
    response: &pb::SubmitActionResponse,
) -> AnswerRow {
    AnswerRow {
        seat: seat.0,
        client_action_id: client_action_id.to_owned(),
        response: response.encode_to_vec(),
    }
}

pub fn answer_from_row(
    row: &AnswerRow,
) -> Result<((Seat, String), pb::SubmitActionResponse), Undecodable> {
    let response = pb::SubmitActionResponse::decode(row.response.as_slice())
        .map_err(|e| undecodable("answer", e))?;
    Ok(((Seat(row.seat), row.client_action_id.clone()), response))
}

pub fn summary_from_bytes(bytes: &[u8]) -> Result<pb::Match, Undecodable> {
    pb::Match::decode(bytes).map_err(|e| undecodable("summary", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_decode_to_what_was_encoded() {
        let time = SystemTime::now();
        let event = LoggedEvent {
            seq: 4,
            version: 2,
            time,
            visibility: Visibility::Seat(Seat(1)),
            owner_name: "second".into(),
            kind: pb::match_event::Kind::SeatJoined(pb::SeatJoined {
                seat: "second".into(),
                player_name: "bob".into(),
            }),
        };
        assert_eq!(event_from_row(&event_row(&event)).unwrap(), event);

        let hash = TokenHash::of("secret");
        let inputs = [
            Input::Joined {
                seat: Seat(1),
                player_name: "bob".into(),
                token_hash: hash,
            },
            Input::Acted {
                seat: Seat(0),
                action: pb::Action::default(),
                for_timeout: false,
            },
            Input::Acted {
                seat: Seat(1),
                action: pb::Action::default(),
                for_timeout: true,
            },
            Input::Resigned { seat: Seat(1) },
            Input::TimedOut {
                seat: Seat(0),
                forfeited: false,
            },
            Input::TimedOut {
                seat: Seat(1),
                forfeited: true,
            },
            Input::OfferedDraw { seat: Seat(0) },
            Input::AcceptedDraw { seat: Seat(1) },
            Input::Aborted { seat: Seat(0) },
            Input::ClaimedVictory { seat: Seat(1) },
        ];
        for (number, input) in inputs.iter().enumerate() {
            let row = input_row(number, input);
            assert_eq!(row.number, number as u64);
            assert_eq!(&input_from_row(&row).unwrap(), input);
        }
        let joined = input_row(0, &inputs[0]);
        assert_eq!(joined.token_hash, hash.as_bytes().to_vec());
        assert!(!joined.token_hash.windows(6).any(|w| w == b"secret"));

        let setup = MatchSetup {
            match_id: "m".into(),
            variant_id: "soccer-chess".into(),
            options: [(
                "sets_per_game".to_owned(),
                pitchmate_rules::OptionValue::Int(2),
            )]
            .into(),
            seed: u64::MAX,
            start_position: Some("pos".into()),
            create_time: time,
            hosting: Hosting {
                time_control: super::super::clock::TimeControl::Fischer {
                    base: Duration::from_secs(300),
                    increment: Duration::from_secs(2),
                },
                timeout_policy: super::super::clock::TimeoutPolicy::PlayDefault {
                    forfeit_after: 3,
                },
                abandon_after: Duration::from_secs(30),
            },
        };
        let bytes = setup_header(&setup, "1").encode_to_vec();
        assert_eq!(setup_from_bytes(&bytes).unwrap(), setup);
        assert!(setup_from_bytes(&[0xff, 0xff]).is_err());
    }
}
