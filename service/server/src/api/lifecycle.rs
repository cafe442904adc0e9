//! The lifecycle feed on the wire.

use pitchmate_proto::v1 as pb;

use crate::hosting::event::result_reason;
use crate::hosting::feed::FeedItem;
use crate::hosting::lifecycle::{EndReason, LifecycleEntry, LifecycleKind, SeatHolder};

pub fn item_to_proto(item: FeedItem) -> pb::StreamLifecycleResponse {
    use pb::stream_lifecycle_response::Item;
    let item = match item {
        FeedItem::Entry(entry) => Item::Event(entry_to_proto(entry)),
        FeedItem::Quiet { position } => Item::Heartbeat(pb::LifecycleHeartbeat { position }),
    };
    pb::StreamLifecycleResponse { item: Some(item) }
}

fn entry_to_proto(entry: LifecycleEntry) -> pb::LifecycleEvent {
    use pb::lifecycle_event::Kind;
    let kind = match entry.kind {
        LifecycleKind::Created { seed_source } => Kind::Created(pb::LifecycleCreated {
            seed_source: seed_source.to_proto() as i32,
        }),
        LifecycleKind::SeatTaken {
            seat,
            player_name,
            account,
        } => Kind::SeatTaken(pb::LifecycleSeatTaken {
            seat,
            player_name,
            bot_id: account,
        }),
        LifecycleKind::Started { seats } => Kind::Started(pb::LifecycleStarted {
            seats: seats_to_proto(&seats),
        }),
        LifecycleKind::Ended { ending, seats } => Kind::Ended(pb::LifecycleEnded {
            status: if ending.finished {
                pb::MatchStatus::Finished
            } else {
                pb::MatchStatus::Aborted
            } as i32,
            result: Some(result_to_proto(
                seats.iter().map(|s| s.seat.as_str()),
                ending.winner,
                &ending.scores,
                ending.reason,
                ending.detail,
            )),
            seats: seats_to_proto(&seats),
        }),
    };
    pb::LifecycleEvent {
        position: entry.position,
        match_id: entry.match_id,
        variant_id: entry.variant_id,
        time: Some(entry.time.into()),
        kind: Some(kind),
    }
}

/// A match's result on the wire, from its seats' names and scores in seat order.
pub fn result_to_proto<'a>(
    seats: impl Iterator<Item = &'a str>,
    winner: String,
    scores: &[u32],
    reason: EndReason,
    detail: String,
) -> pb::MatchResult {
    pb::MatchResult {
        winner,
        scores: seats
            .zip(scores)
            .map(|(seat, score)| pb::SeatScore {
                seat: seat.to_owned(),
                score: *score,
            })
            .collect(),
        reason: result_reason(reason) as i32,
        detail,
    }
}

fn seats_to_proto(seats: &[SeatHolder]) -> Vec<pb::SeatInfo> {
    seats
        .iter()
        .map(|s| pb::SeatInfo {
            seat: s.seat.clone(),
            occupied: s.occupied,
            player_name: s.player_name.clone(),
            bot_id: s.account.clone(),
        })
        .collect()
}
