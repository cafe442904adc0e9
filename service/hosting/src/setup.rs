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
}
