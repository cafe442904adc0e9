//! What a match is created with.

use std::collections::BTreeMap;
use std::time::SystemTime;

use pitchmate_rules::OptionValue;

use super::chance::MatchChance;
use super::clock::Hosting;

/// What a match was created with: with its inputs replayed in order (see `referee`), everything
/// needed to rebuild it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSetup {
    pub match_id: String,
    pub variant_id: String,
    /// The rules version the match was created under, which its `match_created` event names.
    pub rules_version: String,
    /// Every option in effect, defaults included.
    pub options: BTreeMap<String, OptionValue>,
    pub chance: MatchChance,
    pub start_position: Option<String>,
    pub create_time: SystemTime,
    pub hosting: Hosting,
    /// Seats a league assigned to bots; `None` for a match anyone may join.
    pub reservation: Option<Reservation>,
}

/// A match a league made for named bots: each seat may be taken only by its bot's account, and
/// only until `show_up_by`. At that moment a bot that did not take its seat forfeits to one that
/// did; if none did, the match is aborted, as an unstarted match expires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reservation {
    /// Per seat, in seat order: the account that may take it.
    pub accounts: Vec<String>,
    pub show_up_by: SystemTime,
}

impl Reservation {
    /// The seat index reserved for `account`, if any.
    pub fn seat_of(&self, account: &str) -> Option<usize> {
        self.accounts.iter().position(|a| a == account)
    }
}
