//! A match's replay as the API shows it: its header and its events, all of them in the whole
//! numbering with the seed once the match is over, until then what a spectator sees.

use pitchmate_proto::v1 as pb;
use pitchmate_rules::Viewer;

use crate::hosting::Replay;

use super::summary::{replay_header, result_to_proto, seats_to_proto};

pub fn replay_to_proto(replay: &Replay) -> pb::GetReplayResponse {
    let over = replay.is_over();
    let progress = &replay.progress;
    pb::GetReplayResponse {
        header: Some(pb::ReplayHeader {
            seats: seats_to_proto(progress),
            status: progress.status.to_wire(),
            result: result_to_proto(progress),
            ..replay_header(&replay.setup, over)
        }),
        events: replay
            .events
            .iter()
            .filter_map(|e| {
                if over {
                    Some(e.unredacted())
                } else {
                    e.view_for(Viewer::Spectator)
                }
            })
            .collect(),
    }
}
