//! Checking a finished match for yourself: that its chance was fixed before anyone acted, and
//! that the server applied the rules. Once a match is over its replay reveals the seed and the
//! salt; [`verify_replay`] hashes them against the commitment the match published when it was
//! created, then re-plays every logged action on the rules engine with that seed and checks
//! that every roll, toss and event, and the result, come out as the server logged them.

use pitchmate_games::GameRegistry;

pub use pitchmate_games::ndjson::NdjsonError;
pub use pitchmate_games::verify::{Verified, VerifyError};

use crate::pb;

/// Checks a finished match's replay (from [`crate::Client::replay`] or [`read_ndjson`]).
pub fn verify_replay(replay: &pb::GetReplayResponse) -> Result<Verified, VerifyError> {
    pitchmate_games::verify::verify_replay(&GameRegistry::standard(), replay)
}

/// A replay as NDJSON lines, as `ExportReplay` sends them: the header, then one event a line.
pub fn write_ndjson(replay: &pb::GetReplayResponse) -> Vec<String> {
    pitchmate_games::ndjson::to_ndjson(replay)
}

/// Reads a replay exported as NDJSON (`ExportReplay`): the header line, then one event a line.
pub fn read_ndjson(text: &str) -> Result<pb::GetReplayResponse, NdjsonError> {
    pitchmate_games::ndjson::from_ndjson(text)
}
