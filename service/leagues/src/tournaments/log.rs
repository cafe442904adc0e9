//! A tournament's log: what happened to it, numbered per tournament from 1 with no gap, kept in
//! the store with the change that caused it (in the same transaction), so a watcher resumes
//! after the last seq it saw and misses nothing. An item names what changed; readers read it as
//! it now stands.

use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use pitchmate_store::NewTournamentLogItem;

use crate::nanos;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogItem {
    Created,
    EntryChanged { bot_id: String },
    RoundPaired { round: u32 },
    GameFinished { round: u32, match_id: String },
    Finished,
}

impl LogItem {
    /// The store's number for the kind; never reused.
    fn code(&self) -> u32 {
        match self {
            LogItem::Created => 1,
            LogItem::EntryChanged { .. } => 2,
            LogItem::RoundPaired { .. } => 3,
            LogItem::GameFinished { .. } => 4,
            LogItem::Finished => 5,
        }
    }

    pub fn to_new(&self, tournament_id: &str, at: SystemTime) -> NewTournamentLogItem {
        NewTournamentLogItem {
            tournament_id: tournament_id.to_owned(),
            kind: self.code(),
            body: serde_json::to_vec(self).expect("a log item serialises"),
            time_nanos: nanos(at),
        }
    }

    pub fn from_bytes(body: &[u8]) -> Result<Self, String> {
        serde_json::from_slice(body).map_err(|e| format!("a stored log item is unreadable: {e}"))
    }
}
