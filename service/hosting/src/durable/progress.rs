//! A match's progress as stored beside its status, for listings: the store's own format since
//! storage format 6 (a zero, a 6, then the progress in JSON). Rows stored before hold the whole
//! `pitchmate.v1.Match` the API showed; they are read once more into progress, by seat names.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Turn};
use prost::Message;

use super::{Undecodable, undecodable};
use crate::event::MatchEnd;
use crate::lifecycle::EndReason;
use crate::status::MatchStatus;
use crate::summary::{MatchProgress, SeatProgress};

const OWN_FORMAT: [u8; 2] = [0, 6];

pub fn progress_to_bytes(progress: &MatchProgress) -> Vec<u8> {
    let mut bytes = OWN_FORMAT.to_vec();
    serde_json::to_writer(&mut bytes, progress).expect("a match's progress serialises");
    bytes
}

pub fn progress_from_bytes(bytes: &[u8]) -> Result<MatchProgress, Undecodable> {
    match bytes.strip_prefix(&OWN_FORMAT) {
        Some(json) => serde_json::from_slice(json).map_err(|e| undecodable("summary", e)),
        None => {
            let summary = pb::Match::decode(bytes).map_err(|e| undecodable("summary", e))?;
            progress_from_wire(summary).map_err(|detail| undecodable("summary", detail))
        }
    }
}

/// The progress a summary stored before format 6 shows.
fn progress_from_wire(summary: pb::Match) -> Result<MatchProgress, String> {
    let status = MatchStatus::from_wire(summary.status)
        .ok_or_else(|| format!("status {} names none", summary.status))?;
    let turn = summary.turn.clone().unwrap_or_default();
    let seats: Vec<SeatProgress> = summary
        .seats
        .iter()
        .map(|seat| SeatProgress {
            name: seat.seat.clone(),
            player_name: seat.player_name.clone(),
            occupied: seat.occupied,
            // Summaries on the wire were written before bots held seats.
            account: String::new(),
        })
        .collect();
    let result = summary
        .result
        .as_ref()
        .map(|result| end_from_wire(result, &seats))
        .transpose()?;
    let draw_offered_by = match summary.draw_offered_by.as_str() {
        "" => None,
        name => Some(seat_named(&seats, name)?),
    };
    Ok(MatchProgress {
        turn: Turn {
            to_act: turn
                .to_act
                .iter()
                .map(|name| seat_named(&seats, name))
                .collect::<Result<_, _>>()?,
            phase: turn.phase,
            number: turn.number,
            actions_left: turn.actions_left,
            may_end_turn: turn.may_end_turn,
        },
        draw_offered_by,
        result,
        rules_version: summary.rules_version,
        status,
        version: summary.version,
        last_seq: summary.last_seq,
        seats,
    })
}

/// How a match ended, as a result stored on the wire names it, among `seats`.
pub fn end_from_wire(result: &pb::MatchResult, seats: &[SeatProgress]) -> Result<MatchEnd, String> {
    let winner = match result.winner.as_str() {
        "" => None,
        name => Some(seat_named(seats, name)?),
    };
    Ok(MatchEnd {
        winner,
        scores: seats
            .iter()
            .map(|seat| {
                result
                    .scores
                    .iter()
                    .find(|score| score.seat == seat.name)
                    .map_or(0, |score| score.score)
            })
            .collect(),
        reason: end_reason(result.reason)?,
        detail: result.detail.clone(),
    })
}

fn seat_named(seats: &[SeatProgress], name: &str) -> Result<Seat, String> {
    seats
        .iter()
        .position(|seat| seat.name == name)
        .and_then(|index| u8::try_from(index).ok())
        .map(Seat)
        .ok_or_else(|| format!("`{name}` is none of its seats"))
}

fn end_reason(reason: i32) -> Result<EndReason, String> {
    Ok(match pb::ResultReason::try_from(reason) {
        Ok(pb::ResultReason::Rules) => EndReason::Rules,
        Ok(pb::ResultReason::Resignation) => EndReason::Resignation,
        Ok(pb::ResultReason::Timeout) => EndReason::Timeout,
        Ok(pb::ResultReason::DrawAgreed) => EndReason::DrawAgreed,
        Ok(pb::ResultReason::Aborted) => EndReason::Aborted,
        Ok(pb::ResultReason::Abandoned) => EndReason::Abandoned,
        Ok(pb::ResultReason::Expired) => EndReason::Expired,
        Ok(pb::ResultReason::NoShow) => EndReason::NoShow,
        _ => return Err(format!("result reason {reason} names none")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(status: MatchStatus, result: Option<MatchEnd>) -> MatchProgress {
        MatchProgress {
            rules_version: "3".into(),
            seats: vec![
                SeatProgress {
                    name: "home".into(),
                    player_name: "ann".into(),
                    occupied: true,
                    account: String::new(),
                },
                SeatProgress {
                    name: "away".into(),
                    player_name: String::new(),
                    occupied: true,
                    account: String::new(),
                },
            ],
            status,
            version: 12,
            last_seq: 30,
            turn: Turn {
                phase: "play".into(),
                to_act: if status == MatchStatus::Active {
                    vec![Seat(1)]
                } else {
                    Vec::new()
                },
                number: 7,
                actions_left: Some(2),
                may_end_turn: true,
            },
            result,
            draw_offered_by: (status == MatchStatus::Active).then_some(Seat(0)),
        }
    }

    fn examples() -> Vec<MatchProgress> {
        vec![
            progress(MatchStatus::Active, None),
            progress(
                MatchStatus::Finished,
                Some(MatchEnd {
                    winner: Some(Seat(1)),
                    scores: vec![1, 3],
                    reason: EndReason::Resignation,
                    detail: "home resigned".into(),
                }),
            ),
            progress(
                MatchStatus::Finished,
                Some(MatchEnd {
                    winner: None,
                    scores: vec![2, 2],
                    reason: EndReason::DrawAgreed,
                    detail: String::new(),
                }),
            ),
        ]
    }

    #[test]
    fn progress_reads_back_as_it_was_stored() {
        for progress in examples() {
            let bytes = progress_to_bytes(&progress);
            assert_eq!(bytes[..2], OWN_FORMAT);
            assert_eq!(progress_from_bytes(&bytes).unwrap(), progress);
        }
        assert!(progress_from_bytes(&[0, 6, b'{']).is_err());
    }

    /// A summary as stored before format 6: the `pitchmate.v1.Match` the API showed, of which
    /// the progress is read (the setup is read from its own column).
    fn as_stored_before_format_6(progress: &MatchProgress) -> pb::Match {
        let names: Vec<&str> = progress.seats.iter().map(|s| s.name.as_str()).collect();
        pb::Match {
            match_id: "m".into(),
            variant_id: "chessyball".into(),
            rules_version: progress.rules_version.clone(),
            status: progress.status.to_wire(),
            seats: progress
                .seats
                .iter()
                .map(|seat| pb::SeatInfo {
                    seat: seat.name.clone(),
                    player_name: seat.player_name.clone(),
                    occupied: seat.occupied,
                    bot_id: String::new(),
                })
                .collect(),
            version: progress.version,
            last_seq: progress.last_seq,
            turn: Some(pitchmate_games::turn_to_proto(&progress.turn, &names)),
            result: progress.result.as_ref().map(|end| end.to_proto(&names)),
            draw_offered_by: progress
                .draw_offered_by
                .map(|seat| names[seat.index()].to_owned())
                .unwrap_or_default(),
            ..pb::Match::default()
        }
    }

    #[test]
    fn a_summary_stored_on_the_wire_reads_as_the_same_progress() {
        for progress in examples() {
            let stored = as_stored_before_format_6(&progress).encode_to_vec();
            assert_eq!(progress_from_bytes(&stored).unwrap(), progress);
        }
        let unknown_seat = pb::Match {
            draw_offered_by: "nobody".into(),
            status: MatchStatus::Active.to_wire(),
            ..pb::Match::default()
        };
        assert!(progress_from_bytes(&unknown_seat.encode_to_vec()).is_err());
    }
}
