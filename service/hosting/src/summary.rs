//! What everyone may see of a match at a glance, in the hosting core's terms: the setup it was
//! created with, and how far it has come. The actor publishes one after every change; listings
//! read the progress from the store once the match has left memory. Only the API turns it into a
//! `pitchmate.v1.Match`; what is stored is the progress alone, in the store's own format (see
//! `durable`), so a change to the wire message changes nothing stored.

use std::sync::Arc;

use pitchmate_rules::{Seat, Turn};
use serde::{Deserialize, Serialize};

use super::event::MatchEnd;
use super::setup::MatchSetup;
use super::status::MatchStatus;

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
    /// The account (a bot) holding the seat; empty for a seat held by a token, or free.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub account: String,
}
