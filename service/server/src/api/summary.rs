//! A match's summary and setup as the wire shows them: the hosting core keeps both in its own
//! terms (`hosting::summary`, `hosting::setup`), and only the API turns them into
//! `pitchmate.v1.Match` and the setup part of a `ReplayHeader`.

use std::collections::HashMap;

use pitchmate_proto::v1 as pb;

use super::hosting_options::{
    abandon_after_to_proto, time_control_to_proto, timeout_policy_to_proto,
};
use crate::hosting::setup::MatchSetup;
use crate::hosting::summary::{MatchProgress, MatchSummary};
use pitchmate_games::{option_to_proto, turn_to_proto};

pub fn match_to_proto(summary: &MatchSummary) -> pb::Match {
    let (setup, progress) = (&summary.setup, &summary.progress);
    pb::Match {
        match_id: setup.match_id.clone(),
        variant_id: setup.variant_id.clone(),
        rules_version: progress.rules_version.clone(),
        options: options_to_proto(setup),
        status: progress.status.to_wire(),
        seats: seats_to_proto(progress),
        version: progress.version,
        last_seq: progress.last_seq,
        turn: Some(turn_to_proto(&progress.turn, &seat_names(progress))),
        result: result_to_proto(progress),
        create_time: Some(setup.create_time.into()),
        start_position: setup.start_position.clone().unwrap_or_default(),
        time_control: Some(time_control_to_proto(&setup.hosting)),
        timeout_policy: Some(timeout_policy_to_proto(&setup.hosting)),
        abandon_after: abandon_after_to_proto(&setup.hosting),
        draw_offered_by: progress
            .draw_offered_by
            .and_then(|seat| progress.seats.get(seat.index()))
            .map(|seat| seat.name.clone())
            .unwrap_or_default(),
        chance: Some(setup.chance.to_proto(progress.status.is_over())),
    }
}

/// The setup as a replay header, without seats, status or result; the seed and salt only when
/// `revealed` (the match is over).
pub fn replay_header(setup: &MatchSetup, revealed: bool) -> pb::ReplayHeader {
    pb::ReplayHeader {
        match_id: setup.match_id.clone(),
        variant_id: setup.variant_id.clone(),
        rules_version: setup.rules_version.clone(),
        options: options_to_proto(setup),
        start_position: setup.start_position.clone().unwrap_or_default(),
        seats: Vec::new(),
        create_time: Some(setup.create_time.into()),
        status: pb::MatchStatus::Unspecified as i32,
        result: None,
        time_control: Some(time_control_to_proto(&setup.hosting)),
        timeout_policy: Some(timeout_policy_to_proto(&setup.hosting)),
        abandon_after: abandon_after_to_proto(&setup.hosting),
        chance: Some(setup.chance.to_proto(revealed)),
    }
}

pub fn seats_to_proto(progress: &MatchProgress) -> Vec<pb::SeatInfo> {
    progress
        .seats
        .iter()
        .map(|seat| pb::SeatInfo {
            seat: seat.name.clone(),
            player_name: seat.player_name.clone(),
            occupied: seat.occupied,
            bot_id: seat.account.clone(),
        })
        .collect()
}

pub fn result_to_proto(progress: &MatchProgress) -> Option<pb::MatchResult> {
    let names = seat_names(progress);
    progress.result.as_ref().map(|end| end.to_proto(&names))
}

fn seat_names(progress: &MatchProgress) -> Vec<&str> {
    progress
        .seats
        .iter()
        .map(|seat| seat.name.as_str())
        .collect()
}

fn options_to_proto(setup: &MatchSetup) -> HashMap<String, pb::OptionValue> {
    setup
        .options
        .iter()
        .map(|(name, value)| (name.clone(), option_to_proto(value)))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::hosting::MatchChance;
    use crate::hosting::clock::Hosting;

    #[test]
    fn a_replay_header_shows_the_seed_only_when_revealed() {
        let setup = MatchSetup {
            match_id: "m".into(),
            variant_id: "gridiron".into(),
            rules_version: "1".into(),
            options: Default::default(),
            chance: MatchChance::draw(None).unwrap(),
            start_position: None,
            create_time: SystemTime::now(),
            hosting: Hosting::default(),
            reservation: None,
        };
        let hidden = replay_header(&setup, false).chance.unwrap();
        assert!(hidden.seed.is_empty() && hidden.salt.is_empty() && !hidden.commitment.is_empty());
        let shown = replay_header(&setup, true).chance.unwrap();
        assert_eq!(shown.seed, setup.chance.seed.to_bytes());
    }
}
