//! A finished match's view at one moment of its replay: its game started again from the
//! revealed seed, the replay's actions played up to that moment.

use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_event::Kind;
use pitchmate_rules::{Seat, Viewer};

use crate::error::ServiceError;
use crate::games::{ActionChoice, GameRegistry};
use crate::hosting::status::MatchStatus;
use crate::hosting::{Replay, start_game};

/// The view of `replay` after its event `seq` (0: the start), as `seat` saw it (empty: as a
/// spectator did). Only a finished match's replay has every event and its seed.
pub fn replay_view(
    games: &GameRegistry,
    replay: &Replay,
    seq: u64,
    seat: &str,
) -> Result<pb::GetReplayViewResponse, ServiceError> {
    let setup = &replay.setup;
    if !replay.is_over() {
        return Err(ServiceError::MatchNotActive {
            status: match replay.progress.status {
                MatchStatus::Waiting => "waiting for its seats",
                _ => "being played",
            },
            hint: "its replay can be stepped through once it is over; \
                   follow it live with StreamMatchEvents",
        });
    }
    let rebuild_failed = |detail: String| ServiceError::MatchNotRebuildable {
        match_id: setup.match_id.clone(),
        detail,
    };
    let mut game = start_game(games, setup).map_err(rebuild_failed)?;
    let seats = game.info().seats.clone();
    let viewer = if seat.is_empty() {
        Viewer::Spectator
    } else {
        let index =
            seats
                .iter()
                .position(|s| *s == seat)
                .ok_or_else(|| ServiceError::UnknownSeat {
                    seat: seat.to_owned(),
                    seats: seats.join(", "),
                })?;
        Viewer::Seat(Seat(index as u8))
    };
    let last_seq = replay.events.last().map_or(0, |e| e.seq);
    let mut version = 0;
    for logged in replay.events.iter().take_while(|e| e.seq <= seq) {
        if let Kind::ActionTaken(taken) = &logged.kind {
            let index = seats.iter().position(|s| *s == taken.seat).ok_or_else(|| {
                rebuild_failed(format!("event {} names no seat of the match", logged.seq))
            })?;
            let action = taken.action.clone().unwrap_or_default();
            game.play(Seat(index as u8), &ActionChoice::Typed(action))
                .map_err(|e| rebuild_failed(format!("event {}: {e}", logged.seq)))?;
        }
        version = logged.version;
    }
    Ok(pb::GetReplayViewResponse {
        view: Some(game.view(viewer, version)),
        last_seq,
    })
}
