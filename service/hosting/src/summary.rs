//! What everyone may see of a match at a glance, in the hosting core's terms: the setup it was
//! created with, and how far it has come. The actor publishes one after every change; listings
//! read the progress from the store once the match has left memory. The API turns it into a
//! `pitchmate.v1.Match` ([`MatchSummary::to_proto`]); what is stored is the progress alone, in
//! the store's own format (see `durable`), so a change to the wire message changes nothing
//! stored.

use std::sync::Arc;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Turn};
use serde::{Deserialize, Serialize};

use super::event::MatchEnd;
use super::setup::MatchSetup;
use super::status::MatchStatus;
use pitchmate_games::{option_to_proto, turn_to_proto};

#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    pub setup: Arc<MatchSetup>,
    pub progress: MatchProgress,
}

/// What changes of a match's summary as it is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchProgress {
    /// The version of the rules the match is hosted under now.
    pub rules_version: String,
    /// In seat order.
    pub seats: Vec<SeatProgress>,
    pub status: MatchStatus,
    /// Counted as the viewer the summary is for counts it (see `log`).
    pub version: u64,
    pub last_seq: u64,
    /// The game's turn; nobody is to act unless the match is active.
    pub turn: Turn,
    pub result: Option<MatchEnd>,
    /// The seat whose draw offer stands.
    pub draw_offered_by: Option<Seat>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatProgress {
    pub name: String,
    /// Empty until the seat is taken, and when its player gave no name.
    pub player_name: String,
    pub occupied: bool,
}

impl MatchProgress {
    fn seat_names(&self) -> Vec<&str> {
        self.seats.iter().map(|seat| seat.name.as_str()).collect()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.seats
            .get(seat.index())
            .map(|s| s.name.clone())
            .unwrap_or_default()
    }

    pub fn seats_to_proto(&self) -> Vec<pb::SeatInfo> {
        self.seats
            .iter()
            .map(|seat| pb::SeatInfo {
                seat: seat.name.clone(),
                player_name: seat.player_name.clone(),
                occupied: seat.occupied,
            })
            .collect()
    }

    pub fn result_to_proto(&self) -> Option<pb::MatchResult> {
        let names = self.seat_names();
        self.result.as_ref().map(|end| end.to_proto(&names))
    }
}

impl MatchSummary {
    pub fn to_proto(&self) -> pb::Match {
        let (setup, progress) = (&self.setup, &self.progress);
        pb::Match {
            match_id: setup.match_id.clone(),
            variant_id: setup.variant_id.clone(),
            rules_version: progress.rules_version.clone(),
            options: options_to_proto(setup),
            status: progress.status.to_wire(),
            seats: progress.seats_to_proto(),
            version: progress.version,
            last_seq: progress.last_seq,
            turn: Some(turn_to_proto(&progress.turn, &progress.seat_names())),
            result: progress.result_to_proto(),
            create_time: Some(setup.create_time.into()),
            start_position: setup.start_position.clone().unwrap_or_default(),
            time_control: Some(setup.hosting.time_control_proto()),
            timeout_policy: Some(setup.hosting.timeout_policy_proto()),
            abandon_after: setup.hosting.abandon_after_proto(),
            draw_offered_by: progress
                .draw_offered_by
                .map(|seat| progress.seat_name(seat))
                .unwrap_or_default(),
            chance: Some(setup.chance.to_proto(progress.status.is_over())),
        }
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
        time_control: Some(setup.hosting.time_control_proto()),
        timeout_policy: Some(setup.hosting.timeout_policy_proto()),
        abandon_after: setup.hosting.abandon_after_proto(),
        chance: Some(setup.chance.to_proto(revealed)),
    }
}

fn options_to_proto(setup: &MatchSetup) -> std::collections::HashMap<String, pb::OptionValue> {
    setup
        .options
        .iter()
        .map(|(name, value)| (name.clone(), option_to_proto(value)))
        .collect()
}
