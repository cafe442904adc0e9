//! One append as one value. Both backends keep a row per [`Append`](super::Append) (per
//! accepted command): a small integer match key, the append's number within its match, and its
//! inputs, events and answers packed into one protobuf message. The store still never
//! interprets what it keeps: the message only frames the columns and bytes it was given.
//!
//! A [`Tail`] is where a match's log stands: the writer keeps one per match it has written to,
//! numbers the next append from it and checks that inputs and events go on from it, which is
//! what the per-row primary keys of schema 1 guaranteed (no input number or event seq twice),
//! and a little more (they only ever grow). Schema 1's third key, one answer per seat and
//! client action id, is not kept: checking it needs every answer a match ever gave indexed by
//! id, a B-tree that a batch from a thousand matches would touch in a thousand places, which is
//! the cost this layout removes. The match actor already answers a repeated client action id
//! from the answers it remembers without acting, so none reaches the store twice.

use prost::Message;

use super::{AnswerRow, EventRow, InputKind, InputRow, StoreError};

/// The packed body of one append (or, for a match migrated from the row-per-item layout, of
/// everything it held before the migration).
#[derive(Clone, PartialEq, prost::Message)]
struct PackedAppend {
    #[prost(message, repeated, tag = "1")]
    inputs: Vec<PackedInput>,
    #[prost(message, repeated, tag = "2")]
    events: Vec<PackedEvent>,
    #[prost(message, repeated, tag = "3")]
    answers: Vec<PackedAnswer>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PackedInput {
    #[prost(uint64, tag = "1")]
    number: u64,
    #[prost(int64, tag = "2")]
    kind: i64,
    #[prost(uint32, tag = "3")]
    seat: u32,
    #[prost(string, tag = "4")]
    player_name: String,
    #[prost(bytes = "vec", tag = "5")]
    token_hash: Vec<u8>,
    #[prost(bytes = "vec", tag = "6")]
    action: Vec<u8>,
    #[prost(string, tag = "7")]
    account: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PackedEvent {
    #[prost(uint64, tag = "1")]
    seq: u64,
    #[prost(uint64, tag = "2")]
    version: u64,
    #[prost(sfixed64, tag = "3")]
    time_nanos: i64,
    #[prost(uint32, optional, tag = "4")]
    owner_seat: Option<u32>,
    #[prost(string, tag = "5")]
    owner_name: String,
    #[prost(bytes = "vec", tag = "6")]
    kind: Vec<u8>,
    #[prost(bool, tag = "7")]
    hidden_step: bool,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PackedAnswer {
    #[prost(uint32, tag = "1")]
    seat: u32,
    #[prost(string, tag = "2")]
    client_action_id: String,
    #[prost(bytes = "vec", tag = "3")]
    response: Vec<u8>,
}

/// One append ready for its row.
#[derive(Debug)]
pub(super) struct Packed {
    pub key: i64,
    /// The append's number within its match, from 0.
    pub number: i64,
    /// The match's tail after this append.
    pub next_input: i64,
    pub next_seq: i64,
    /// The row of the match's previous append, where a backend links appends by row.
    pub previous: Option<i64>,
    pub body: Vec<u8>,
}

/// Where a match's log stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tail {
    /// The match's key: its row's `created`.
    pub key: i64,
    /// How many appends the match has, which is the next one's number.
    pub appends: i64,
    /// The next input's number is at least this.
    pub next_input: u64,
    /// The next event's seq is at least this.
    pub next_seq: u64,
    /// The row of the match's last append, where a backend links appends by row.
    pub last_row: Option<i64>,
    /// The fencing token of the write that last moved it, `None` for an unfenced one.
    pub fence: Option<u64>,
}

impl Tail {
    /// A match with nothing appended yet.
    pub fn new(key: i64) -> Self {
        Self {
            key,
            appends: 0,
            next_input: 0,
            next_seq: 0,
            last_row: None,
            fence: None,
        }
    }

    /// Whether this remembered tail may be trusted for a write fenced by `fence`: one last
    /// moved under another token may have been passed since by another holder's writes.
    pub fn serves(&self, fence: Option<u64>) -> bool {
        fence.is_none() || self.fence == fence
    }

    /// Checks that `inputs` and `events` go on from this tail (numbers and seqs only ever
    /// grow), packs them with `answers` and moves the tail past them, all but `last_row`,
    /// which only the stored row can tell. On an error the tail is unchanged.
    pub fn pack(
        &mut self,
        match_id: &str,
        inputs: Vec<InputRow>,
        events: Vec<EventRow>,
        answers: Vec<AnswerRow>,
    ) -> Result<Packed, StoreError> {
        let next_input = follow(
            match_id,
            "input",
            self.next_input,
            inputs.iter().map(|i| i.number),
        )?;
        let next_seq = follow(
            match_id,
            "event seq",
            self.next_seq,
            events.iter().map(|e| e.seq),
        )?;
        let body = PackedAppend {
            inputs: inputs.into_iter().map(PackedInput::from).collect(),
            events: events.into_iter().map(PackedEvent::from).collect(),
            answers: answers.into_iter().map(PackedAnswer::from).collect(),
        }
        .encode_to_vec();
        let packed = Packed {
            key: self.key,
            number: self.appends,
            next_input: next_input as i64,
            next_seq: next_seq as i64,
            previous: self.last_row,
            body,
        };
        self.appends += 1;
        self.next_input = next_input;
        self.next_seq = next_seq;
        Ok(packed)
    }
}

/// Where a match's log stands after one stored body, given where it stood before: the next
/// input number and event seq, as [`Tail::pack`] moved them when the body was written. For a
/// backend that keeps only the last of them (SQLite's `tails`), this recovers them per append.
pub(super) fn advance(
    match_id: &str,
    (next_input, next_seq): (u64, u64),
    body: &[u8],
) -> Result<(u64, u64), StoreError> {
    let packed = decode(match_id, body)?;
    let next_input = follow(
        match_id,
        "input",
        next_input,
        packed.inputs.iter().map(|i| i.number),
    )?;
    let next_seq = follow(
        match_id,
        "event seq",
        next_seq,
        packed.events.iter().map(|e| e.seq),
    )?;
    Ok((next_input, next_seq))
}

fn decode(match_id: &str, body: &[u8]) -> Result<PackedAppend, StoreError> {
    PackedAppend::decode(body).map_err(|error| {
        StoreError::Database(format!("a stored append of match {match_id}: {error}"))
    })
}

/// A match's inputs, events and answers, in the order appended.
#[derive(Debug, Default)]
pub(super) struct Unpacked {
    pub inputs: Vec<InputRow>,
    pub events: Vec<EventRow>,
    pub answers: Vec<AnswerRow>,
}

impl Unpacked {
    /// Adds what one stored body holds.
    pub fn add(&mut self, match_id: &str, body: &[u8]) -> Result<(), StoreError> {
        let packed = decode(match_id, body)?;
        for input in packed.inputs {
            self.inputs.push(InputRow {
                number: input.number,
                kind: InputKind::from_code(input.kind)?,
                seat: input.seat as u8,
                player_name: input.player_name,
                token_hash: input.token_hash,
                account: input.account,
                action: input.action,
            });
        }
        self.events
            .extend(packed.events.into_iter().map(|event| EventRow {
                seq: event.seq,
                version: event.version,
                time_nanos: event.time_nanos,
                owner_seat: event.owner_seat.map(|seat| seat as u8),
                owner_name: event.owner_name,
                hidden_step: event.hidden_step,
                kind: event.kind,
            }));
        self.answers
            .extend(packed.answers.into_iter().map(|answer| AnswerRow {
                seat: answer.seat as u8,
                client_action_id: answer.client_action_id,
                response: answer.response,
            }));
        Ok(())
    }
}

impl From<InputRow> for PackedInput {
    fn from(input: InputRow) -> Self {
        Self {
            number: input.number,
            kind: input.kind.code(),
            seat: input.seat.into(),
            player_name: input.player_name,
            token_hash: input.token_hash,
            account: input.account,
            action: input.action,
        }
    }
}

impl From<EventRow> for PackedEvent {
    fn from(event: EventRow) -> Self {
        Self {
            seq: event.seq,
            version: event.version,
            time_nanos: event.time_nanos,
            owner_seat: event.owner_seat.map(u32::from),
            owner_name: event.owner_name,
            kind: event.kind,
            hidden_step: event.hidden_step,
        }
    }
}

impl From<AnswerRow> for PackedAnswer {
    fn from(answer: AnswerRow) -> Self {
        Self {
            seat: answer.seat.into(),
            client_action_id: answer.client_action_id,
            response: answer.response,
        }
    }
}

/// Checks that `numbers` rise from `next` on, gaps allowed; returns the number after the last.
fn follow(
    match_id: &str,
    what: &str,
    mut next: u64,
    numbers: impl Iterator<Item = u64>,
) -> Result<u64, StoreError> {
    for number in numbers {
        if number < next {
            return Err(StoreError::Database(format!(
                "match {match_id}: {what} {number} does not follow {what} {}",
                next - 1
            )));
        }
        next = number + 1;
    }
    Ok(next)
}
