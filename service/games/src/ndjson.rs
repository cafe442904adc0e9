//! Replays as NDJSON: the header on the first line, then one line per event, each the
//! canonical proto3 JSON of its message (what gRPC tooling prints for the same messages), so
//! any language can read a replay without the `.proto` files.

use std::sync::LazyLock;

use pitchmate_proto::v1 as pb;
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};

const HEADER: &str = "pitchmate.v1.ReplayHeader";
const EVENT: &str = "pitchmate.v1.MatchEvent";

#[derive(Debug, thiserror::Error)]
pub enum NdjsonError {
    #[error("line {line}: {detail}")]
    Line { line: usize, detail: String },
    #[error("the replay has no header line")]
    Empty,
}

static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
    DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET).expect("the compiled descriptors decode")
});

fn descriptor(name: &str) -> MessageDescriptor {
    POOL.get_message_by_name(name)
        .expect("the message is in the compiled descriptors")
}

fn to_json<M: Message>(message: &M, name: &str) -> String {
    let dynamic = DynamicMessage::decode(descriptor(name), message.encode_to_vec().as_slice())
        .expect("a message decodes as its own descriptor");
    serde_json::to_string(&dynamic).expect("a message serialises to JSON")
}

fn from_json<M: Message + Default>(text: &str, name: &str, line: usize) -> Result<M, NdjsonError> {
    let failed = |detail: String| NdjsonError::Line { line, detail };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let dynamic = DynamicMessage::deserialize(descriptor(name), &mut deserializer)
        .map_err(|e| failed(e.to_string()))?;
    deserializer.end().map_err(|e| failed(e.to_string()))?;
    dynamic.transcode_to().map_err(|e| failed(e.to_string()))
}

/// The replay's lines, without newlines.
pub fn to_ndjson(replay: &pb::GetReplayResponse) -> Vec<String> {
    let header = replay.header.clone().unwrap_or_default();
    std::iter::once(to_json(&header, HEADER))
        .chain(replay.events.iter().map(|event| to_json(event, EVENT)))
        .collect()
}

/// Reads a replay back from its NDJSON text; blank lines are skipped.
pub fn from_ndjson(text: &str) -> Result<pb::GetReplayResponse, NdjsonError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(at, line)| (at + 1, line))
        .filter(|(_, line)| !line.trim().is_empty());
    let (number, first) = lines.next().ok_or(NdjsonError::Empty)?;
    let header = from_json(first, HEADER, number)?;
    let events = lines
        .map(|(number, line)| from_json(line, EVENT, number))
        .collect::<Result<_, _>>()?;
    Ok(pb::GetReplayResponse {
        header: Some(header),
        events,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_survives_the_round_trip_and_reads_as_json() {
        let replay = pb::GetReplayResponse {
            header: Some(pb::ReplayHeader {
                match_id: "m".into(),
                variant_id: "soccer-chess".into(),
                chance: Some(pb::Chance {
                    generator: pb::ChanceGenerator::Chacha20 as i32,
                    seed: vec![0xff; 32],
                    ..pb::Chance::default()
                }),
                status: pb::MatchStatus::Finished as i32,
                ..pb::ReplayHeader::default()
            }),
            events: vec![pb::MatchEvent {
                seq: 1,
                version: 0,
                time: Some(std::time::UNIX_EPOCH.into()),
                kind: Some(pb::match_event::Kind::SeatJoined(pb::SeatJoined {
                    seat: "first".into(),
                    player_name: "ann".into(),
                })),
            }],
        };
        let lines = to_ndjson(&replay);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| !l.contains('\n')));
        let header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(header["variantId"], "soccer-chess");
        assert_eq!(header["status"], "MATCH_STATUS_FINISHED");
        assert_eq!(header["chance"]["generator"], "CHANCE_GENERATOR_CHACHA20");
        assert_eq!(
            header["chance"]["seed"], "//////////////////////////////////////////8=",
            "bytes as base64"
        );
        let event: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        assert_eq!(event["seatJoined"]["playerName"], "ann");
        assert_eq!(from_ndjson(&(lines.join("\n") + "\n")).unwrap(), replay);
        assert!(matches!(from_ndjson(""), Err(NdjsonError::Empty)));
        assert!(matches!(
            from_ndjson("{}\n{\"seq\": \"x\"}"),
            Err(NdjsonError::Line { line: 2, .. })
        ));
    }
}
