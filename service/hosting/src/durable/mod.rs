//! Between a match's memory and the store's rows: setups, inputs, events and answers to bytes
//! and back. The store keeps bytes; this is the one place that knows what they mean.

mod progress;
mod setup;

pub use progress::{end_from_wire, progress_from_bytes, progress_to_bytes};
pub use setup::{setup_from_bytes, setup_to_bytes};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Visibility};
use prost::Message;

use super::log::{EventLog, Kept, KeptEvent, LoggedEvent};
use super::referee::{Answered, Input, MatchSetup, RecordedAction};
use super::token::TokenHash;
use pitchmate_games::HostedGame;
use pitchmate_store::{AnswerRow, EventRow, InputKind, InputRow};

/// A stored row that does not decode: the database was damaged or written by something else.
#[derive(Debug, thiserror::Error)]
#[error("stored {what} does not decode: {detail}")]
pub struct Undecodable {
    what: &'static str,
    detail: String,
}

pub(super) fn undecodable(what: &'static str, detail: impl ToString) -> Undecodable {
    Undecodable {
        what,
        detail: detail.to_string(),
    }
}

pub fn nanos(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

pub fn from_nanos(nanos: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(u64::try_from(nanos).unwrap_or(0))
}

/// How a stored action or event begins when it is in the store's own format (storage format
/// 4): a zero, then the format. Rows stored before hold a `pitchmate.v1` message, whose first
/// byte is a field's tag and never zero.
const OWN_FORMAT: [u8; 2] = [0, 4];

fn own_format(body: Vec<u8>) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(OWN_FORMAT.len() + body.len());
    bytes.extend_from_slice(&OWN_FORMAT);
    bytes.extend(body);
    bytes
}

/// The body of a row in the store's own format; `None` for a row stored before.
fn in_own_format(bytes: &[u8]) -> Option<&[u8]> {
    bytes.strip_prefix(&OWN_FORMAT)
}

fn action_to_bytes(action: &RecordedAction) -> Vec<u8> {
    match action {
        RecordedAction::Notation(notation) => own_format(notation.as_bytes().to_vec()),
        RecordedAction::Typed(typed) => typed.encode_to_vec(),
    }
}

fn action_from_bytes(bytes: &[u8]) -> Result<RecordedAction, Undecodable> {
    match in_own_format(bytes) {
        Some(notation) => String::from_utf8(notation.to_vec())
            .map(RecordedAction::Notation)
            .map_err(|e| undecodable("action", e)),
        None => pb::Action::decode(bytes)
            .map(RecordedAction::Typed)
            .map_err(|e| undecodable("action", e)),
    }
}

/// The columns of an input that is only a kind and a seat.
fn plain(kind: InputKind, seat: Seat) -> (InputKind, Seat, String, Vec<u8>, Vec<u8>) {
    (kind, seat, String::new(), Vec::new(), Vec::new())
}

pub fn input_row(number: usize, input: &Input) -> InputRow {
    let account = match input {
        Input::Joined {
            account: Some(account),
            ..
        } => account.clone(),
        _ => String::new(),
    };
    let (kind, seat, player_name, token_hash, action) = match input {
        Input::Joined {
            seat,
            player_name,
            token_hash,
            ..
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
            action_to_bytes(action),
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
        Input::Expired => plain(InputKind::Expired, Seat(0)),
    };
    InputRow {
        number: number as u64,
        kind,
        seat: seat.0,
        player_name,
        token_hash,
        account,
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
            account: Some(row.account.clone()).filter(|account| !account.is_empty()),
        },
        InputKind::Acted | InputKind::ActedForTimeout => Input::Acted {
            seat,
            action: action_from_bytes(&row.action)?,
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
        InputKind::Expired => Input::Expired,
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
        hidden_step: event.hidden_step,
        kind: match &event.event {
            Some(domain) => own_format(serde_json::to_vec(domain).expect("match events serialise")),
            // Read from rows stored before format 4, and stored again as they were.
            None => pb::MatchEvent {
                kind: Some(event.kind.clone()),
                ..pb::MatchEvent::default()
            }
            .encode_to_vec(),
        },
    }
}

pub fn event_from_row(row: &EventRow) -> Result<KeptEvent, Undecodable> {
    let content = match in_own_format(&row.kind) {
        Some(json) => Kept::Event(
            serde_json::from_slice(json)
                .map_err(|e| undecodable("event", format!("seq {}: {e}", row.seq)))?,
        ),
        None => Kept::Wire(
            pb::MatchEvent::decode(row.kind.as_slice())
                .map_err(|e| undecodable("event", e))?
                .kind
                .ok_or_else(|| undecodable("event", format!("seq {} has no kind", row.seq)))?,
        ),
    };
    Ok(KeptEvent {
        seq: row.seq,
        version: row.version,
        time: from_nanos(row.time_nanos),
        visibility: row
            .owner_seat
            .map_or(Visibility::Public, |s| Visibility::Seat(Seat(s))),
        owner_name: row.owner_name.clone(),
        hidden_step: row.hidden_step,
        content,
    })
}

/// The log a match's stored event rows make, numbered from the first; `game` works out the wire
/// form of what the store kept in its own format.
pub fn log_from_rows(
    rows: &[EventRow],
    setup: &MatchSetup,
    game: &dyn HostedGame,
) -> Result<EventLog, String> {
    let events = rows
        .iter()
        .map(|row| {
            event_from_row(row)
                .map_err(|e| e.to_string())?
                .into_new(setup, game)
        })
        .collect::<Result<Vec<_>, _>>()?;
    EventLog::restore(events)
}

/// An answer as stored: the numbers that find it in the log again. Rows written before hidden
/// steps hold the whole `SubmitActionResponse` instead, numbered like the log then; this reads
/// its version from the same field and leaves the rest (`events == 0`) to be worked out from it.
#[derive(Clone, PartialEq, prost::Message)]
struct StoredAnswer {
    #[prost(uint64, tag = "1")]
    version: u64,
    #[prost(uint64, tag = "10")]
    after_seq: u64,
    #[prost(uint64, tag = "11")]
    events: u64,
}

pub fn answer_row(seat: Seat, client_action_id: &str, answered: &Answered) -> AnswerRow {
    AnswerRow {
        seat: seat.0,
        client_action_id: client_action_id.to_owned(),
        response: StoredAnswer {
            version: answered.version,
            after_seq: answered.after_seq,
            events: answered.events as u64,
        }
        .encode_to_vec(),
    }
}

pub fn answer_from_row(row: &AnswerRow) -> Result<((Seat, String), Answered), Undecodable> {
    let stored =
        StoredAnswer::decode(row.response.as_slice()).map_err(|e| undecodable("answer", e))?;
    let answered = if stored.events > 0 {
        Answered {
            version: stored.version,
            after_seq: stored.after_seq,
            events: stored.events as usize,
        }
    } else {
        let response = pb::SubmitActionResponse::decode(row.response.as_slice())
            .map_err(|e| undecodable("answer", e))?;
        Answered {
            version: response.version,
            after_seq: response
                .events
                .first()
                .map_or(0, |e| e.seq.saturating_sub(1)),
            events: response.events.len(),
        }
    };
    Ok(((Seat(row.seat), row.client_action_id.clone()), answered))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::MatchEvent;

    #[test]
    fn rows_decode_to_what_was_encoded() {
        let time = SystemTime::now();
        let kind = pb::match_event::Kind::SeatJoined(pb::SeatJoined {
            seat: "second".into(),
            player_name: "bob".into(),
        });
        let event = MatchEvent::SeatJoined {
            seat: Seat(1),
            player_name: "bob".into(),
        };
        let mut log = super::super::log::EventLog::default();
        let seats = ["first", "second"];
        log.append(
            time,
            2,
            Visibility::Seat(Seat(1)),
            true,
            &seats,
            event.clone(),
            kind.clone(),
        );
        let logged = &log.held()[0];
        let row = event_row(logged);
        assert_eq!(row.kind[..2], OWN_FORMAT, "kept in the store's own format");
        let kept = |content| KeptEvent {
            seq: 1,
            version: 2,
            time,
            visibility: Visibility::Seat(Seat(1)),
            owner_name: "second".into(),
            hidden_step: true,
            content,
        };
        assert_eq!(event_from_row(&row).unwrap(), kept(Kept::Event(event)));
        // A row stored before format 4 holds the wire message, and still reads.
        let legacy = EventRow {
            kind: pb::MatchEvent {
                kind: Some(kind.clone()),
                ..pb::MatchEvent::default()
            }
            .encode_to_vec(),
            ..row
        };
        assert_eq!(event_from_row(&legacy).unwrap(), kept(Kept::Wire(kind)));

        let hash = TokenHash::of("secret");
        let inputs = [
            Input::Joined {
                seat: Seat(1),
                player_name: "bob".into(),
                token_hash: hash,
                account: None,
            },
            Input::Joined {
                seat: Seat(0),
                player_name: "bot".into(),
                token_hash: TokenHash::of(&crate::token::account_credential("b1")),
                account: Some("b1".into()),
            },
            Input::Acted {
                seat: Seat(0),
                action: RecordedAction::Notation("e2-e4".into()),
                for_timeout: false,
            },
            Input::Acted {
                seat: Seat(1),
                action: RecordedAction::Notation(String::new()),
                for_timeout: true,
            },
            Input::Acted {
                seat: Seat(1),
                action: RecordedAction::Typed(pb::Action {
                    game: Some(pb::action::Game::KingsGoal(pb::KingsGoalAction::default())),
                }),
                for_timeout: false,
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
            Input::Expired,
        ];
        for (number, input) in inputs.iter().enumerate() {
            let row = input_row(number, input);
            assert_eq!(row.number, number as u64);
            assert_eq!(&input_from_row(&row).unwrap(), input);
        }
        let joined = input_row(0, &inputs[0]);
        assert_eq!(joined.token_hash, hash.as_bytes().to_vec());
        assert!(!joined.token_hash.windows(6).any(|w| w == b"secret"));
    }
}
