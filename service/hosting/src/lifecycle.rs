//! The lifecycle feed's entries: a match was created, a seat was taken, play started, the match
//! ended. A match's actor records them with the change that causes them, in the same commit, so
//! the feed has an entry for every such change that was acknowledged and for nothing else. The
//! store numbers them in one order for the whole server (see `store`).
//!
//! Stored in a schema of this module's own, apart from the wire contract: a change to
//! `pitchmate.v1` never changes what was stored.

use std::time::SystemTime;

use prost::Message;

use super::chance::SeedSource;
use super::status::MatchStatus;
use pitchmate_store::LifecycleRow;

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Rules,
    Resignation,
    Timeout,
    DrawAgreed,
    Aborted,
    Abandoned,
    Expired,
    /// A bot a league assigned did not take its seat in time; the other won.
    NoShow,
}

impl EndReason {
    /// The status a match that ended so has: aborted without a game, else finished.
    pub fn status(self) -> MatchStatus {
        match self {
            Self::Aborted | Self::Expired => MatchStatus::Aborted,
            _ => MatchStatus::Finished,
        }
    }

    /// The stored number; never reused.
    fn code(self) -> u32 {
        match self {
            Self::Rules => 1,
            Self::Resignation => 2,
            Self::Timeout => 3,
            Self::DrawAgreed => 4,
            Self::Aborted => 5,
            Self::Abandoned => 6,
            Self::Expired => 7,
            Self::NoShow => 8,
        }
    }

    fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            1 => Self::Rules,
            2 => Self::Resignation,
            3 => Self::Timeout,
            4 => Self::DrawAgreed,
            5 => Self::Aborted,
            6 => Self::Abandoned,
            7 => Self::Expired,
            8 => Self::NoShow,
            _ => return None,
        })
    }
}

/// A seat and who holds it; an empty name for a free seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatHolder {
    pub seat: String,
    pub player_name: String,
    pub occupied: bool,
    /// The account (a bot) holding it; empty for a token's seat or a free one.
    pub account: String,
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// False: aborted (nobody won, nobody lost).
    pub finished: bool,
    /// The winning seat; empty for a draw or an aborted match.
    pub winner: String,
    /// Per seat, in seat order.
    pub scores: Vec<u32>,
    pub reason: EndReason,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LifecycleKind {
    Created {
        seed_source: SeedSource,
    },
    SeatTaken {
        seat: String,
        player_name: String,
        /// The account (a bot) that took it; empty when a token did.
        account: String,
    },
    Started {
        seats: Vec<SeatHolder>,
    },
    Ended {
        ending: Ending,
        seats: Vec<SeatHolder>,
    },
}

/// One entry of the feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LifecycleEntry {
    /// Its place in the feed; 0 until the store has committed it.
    pub position: u64,
    pub match_id: String,
    pub variant_id: String,
    pub time: SystemTime,
    pub kind: LifecycleKind,
}

impl LifecycleEntry {
    /// Whether a reader asking for `player_name` (empty: anyone) wants this entry.
    pub fn names(&self, player_name: &str) -> bool {
        if player_name.is_empty() {
            return true;
        }
        match &self.kind {
            LifecycleKind::Created { .. } => false,
            LifecycleKind::SeatTaken {
                player_name: taken, ..
            } => taken == player_name,
            LifecycleKind::Started { seats } | LifecycleKind::Ended { seats, .. } => seats
                .iter()
                .any(|s| s.occupied && s.player_name == player_name),
        }
    }

    pub fn to_row(&self) -> LifecycleRow {
        LifecycleRow {
            position: self.position,
            match_id: self.match_id.clone(),
            variant_id: self.variant_id.clone(),
            time_nanos: super::durable::nanos(self.time),
            body: StoredLifecycle::from(&self.kind).encode_to_vec(),
        }
    }

    pub fn from_row(row: &LifecycleRow) -> Result<Self, super::durable::Undecodable> {
        let stored = StoredLifecycle::decode(row.body.as_slice())
            .map_err(|e| super::durable::undecodable("lifecycle entry", e))?;
        Ok(Self {
            position: row.position,
            match_id: row.match_id.clone(),
            variant_id: row.variant_id.clone(),
            time: super::durable::from_nanos(row.time_nanos),
            kind: stored.kind()?,
        })
    }
}

/// An entry's body as stored.
#[derive(Clone, PartialEq, prost::Message)]
struct StoredLifecycle {
    /// 1 created, 2 seat taken, 3 started, 4 ended.
    #[prost(uint32, tag = "1")]
    kind: u32,
    /// Created: 1 server, 2 client, 0 unrecorded.
    #[prost(uint32, tag = "2")]
    seed_source: u32,
    /// Seat taken: the seat and its player.
    #[prost(string, tag = "3")]
    seat: String,
    #[prost(string, tag = "4")]
    player_name: String,
    /// Started and ended: every seat.
    #[prost(message, repeated, tag = "5")]
    seats: Vec<StoredSeat>,
    /// Ended.
    #[prost(bool, tag = "6")]
    finished: bool,
    #[prost(string, tag = "7")]
    winner: String,
    #[prost(uint32, repeated, tag = "8")]
    scores: Vec<u32>,
    #[prost(uint32, tag = "9")]
    reason: u32,
    #[prost(string, tag = "10")]
    detail: String,
    /// Seat taken: the account that took it.
    #[prost(string, tag = "11")]
    account: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredSeat {
    #[prost(string, tag = "1")]
    seat: String,
    #[prost(string, tag = "2")]
    player_name: String,
    #[prost(bool, tag = "3")]
    occupied: bool,
    #[prost(string, tag = "4")]
    account: String,
}

fn stored_seats(seats: &[SeatHolder]) -> Vec<StoredSeat> {
    seats
        .iter()
        .map(|s| StoredSeat {
            seat: s.seat.clone(),
            player_name: s.player_name.clone(),
            occupied: s.occupied,
            account: s.account.clone(),
        })
        .collect()
}

fn seat_holders(seats: &[StoredSeat]) -> Vec<SeatHolder> {
    seats
        .iter()
        .map(|s| SeatHolder {
            seat: s.seat.clone(),
            player_name: s.player_name.clone(),
            occupied: s.occupied,
            account: s.account.clone(),
        })
        .collect()
}

impl From<&LifecycleKind> for StoredLifecycle {
    fn from(kind: &LifecycleKind) -> Self {
        match kind {
            LifecycleKind::Created { seed_source } => Self {
                kind: 1,
                seed_source: match seed_source {
                    SeedSource::Server => 1,
                    SeedSource::Client => 2,
                    SeedSource::Unrecorded => 0,
                },
                ..Self::default()
            },
            LifecycleKind::SeatTaken {
                seat,
                player_name,
                account,
            } => Self {
                kind: 2,
                seat: seat.clone(),
                player_name: player_name.clone(),
                account: account.clone(),
                ..Self::default()
            },
            LifecycleKind::Started { seats } => Self {
                kind: 3,
                seats: stored_seats(seats),
                ..Self::default()
            },
            LifecycleKind::Ended { ending, seats } => Self {
                kind: 4,
                seats: stored_seats(seats),
                finished: ending.finished,
                winner: ending.winner.clone(),
                scores: ending.scores.clone(),
                reason: ending.reason.code(),
                detail: ending.detail.clone(),
                ..Self::default()
            },
        }
    }
}

impl StoredLifecycle {
    fn kind(&self) -> Result<LifecycleKind, super::durable::Undecodable> {
        let undecodable = |what: String| super::durable::undecodable("lifecycle entry", what);
        Ok(match self.kind {
            1 => LifecycleKind::Created {
                seed_source: match self.seed_source {
                    1 => SeedSource::Server,
                    2 => SeedSource::Client,
                    _ => SeedSource::Unrecorded,
                },
            },
            2 => LifecycleKind::SeatTaken {
                seat: self.seat.clone(),
                player_name: self.player_name.clone(),
                account: self.account.clone(),
            },
            3 => LifecycleKind::Started {
                seats: seat_holders(&self.seats),
            },
            4 => LifecycleKind::Ended {
                ending: Ending {
                    finished: self.finished,
                    winner: self.winner.clone(),
                    scores: self.scores.clone(),
                    reason: EndReason::from_code(self.reason)
                        .ok_or_else(|| undecodable(format!("end reason {}", self.reason)))?,
                    detail: self.detail.clone(),
                },
                seats: seat_holders(&self.seats),
            },
            other => return Err(undecodable(format!("kind {other}"))),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn seats() -> Vec<SeatHolder> {
        vec![
            SeatHolder {
                seat: "home".into(),
                player_name: "alpha".into(),
                occupied: true,
                account: "0123456789abcdef".into(),
            },
            SeatHolder {
                seat: "away".into(),
                player_name: String::new(),
                occupied: false,
                account: String::new(),
            },
        ]
    }

    #[test]
    fn every_kind_of_entry_reads_back_as_stored() {
        let kinds = [
            LifecycleKind::Created {
                seed_source: SeedSource::Client,
            },
            LifecycleKind::SeatTaken {
                seat: "home".into(),
                player_name: "alpha".into(),
                account: "0123456789abcdef".into(),
            },
            LifecycleKind::Started { seats: seats() },
            LifecycleKind::Ended {
                ending: Ending {
                    finished: false,
                    winner: String::new(),
                    scores: vec![0, 0],
                    reason: EndReason::Expired,
                    detail: "not every seat was taken in time".into(),
                },
                seats: seats(),
            },
        ];
        for (position, kind) in kinds.into_iter().enumerate() {
            let entry = LifecycleEntry {
                position: position as u64 + 1,
                match_id: "m".into(),
                variant_id: "gridiron".into(),
                time: SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_123),
                kind,
            };
            assert_eq!(LifecycleEntry::from_row(&entry.to_row()).unwrap(), entry);
        }
    }

    #[test]
    fn a_player_filter_names_only_entries_of_its_seats() {
        let entry = |kind| LifecycleEntry {
            position: 1,
            match_id: "m".into(),
            variant_id: "v".into(),
            time: SystemTime::UNIX_EPOCH,
            kind,
        };
        let started = entry(LifecycleKind::Started { seats: seats() });
        assert!(started.names("alpha") && started.names(""));
        assert!(!started.names("beta"), "nobody of that name holds a seat");
        let created = entry(LifecycleKind::Created {
            seed_source: SeedSource::Server,
        });
        assert!(created.names("") && !created.names("alpha"));
    }
}
