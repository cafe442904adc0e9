//! A match's setup as stored: a private protobuf schema of the store's own.
//!
//! Setups were first stored as a `pitchmate.v1.ReplayHeader`. The messages here keep that
//! message's field numbers and the shapes its fields had then, so every setup ever stored reads
//! with them; they are copies, not the wire types, so the wire contract may change without
//! changing what a stored setup means. What only the store may know (the ChaCha20 seed and its
//! salt) lies in fields no wire message has.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use pitchmate_rules::{OptionValue, Seed};
use prost::Message;

use super::{Undecodable, undecodable};
use crate::chance::{MatchChance, SeedSource};
use crate::clock::{Hosting, TimeControl, TimeoutPolicy};
use crate::setup::{MatchSetup, Reservation};

#[derive(Clone, PartialEq, prost::Message)]
struct StoredSetup {
    #[prost(string, tag = "1")]
    match_id: String,
    #[prost(string, tag = "2")]
    variant_id: String,
    /// The rules version the match was created under, for whoever reads the row; a rebuild
    /// checks the rules by replaying.
    #[prost(string, tag = "3")]
    rules_version: String,
    #[prost(map = "string, message", tag = "4")]
    options: HashMap<String, StoredOption>,
    /// The seed of a match created before seeds were committed (SplitMix64's number).
    #[prost(uint64, tag = "5")]
    splitmix64_seed: u64,
    #[prost(string, tag = "6")]
    start_position: String,
    #[prost(message, optional, tag = "8")]
    create_time: Option<prost_types::Timestamp>,
    #[prost(message, optional, tag = "11")]
    time_control: Option<StoredTimeControl>,
    #[prost(message, optional, tag = "12")]
    timeout_policy: Option<StoredTimeoutPolicy>,
    #[prost(message, optional, tag = "13")]
    abandon_after: Option<prost_types::Duration>,
    /// Empty for a match created before seeds were committed.
    #[prost(bytes = "vec", tag = "100")]
    chacha20_seed: Vec<u8>,
    #[prost(bytes = "vec", tag = "101")]
    salt: Vec<u8>,
    #[prost(int32, tag = "102")]
    seed_source: i32,
    /// A league's match: per seat, the account that may take it; empty for an open match.
    #[prost(string, repeated, tag = "103")]
    reserved_accounts: Vec<String>,
    #[prost(message, optional, tag = "104")]
    show_up_by: Option<prost_types::Timestamp>,
}

/// The numbers `seed_source` stores.
const SEED_FROM_SERVER: i32 = 1;
const SEED_FROM_CLIENT: i32 = 2;

#[derive(Clone, PartialEq, prost::Message)]
struct StoredOption {
    #[prost(oneof = "StoredOptionKind", tags = "1, 2, 3")]
    kind: Option<StoredOptionKind>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
enum StoredOptionKind {
    #[prost(int64, tag = "1")]
    Int(i64),
    #[prost(bool, tag = "2")]
    Bool(bool),
    #[prost(string, tag = "3")]
    Text(String),
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredTimeControl {
    #[prost(oneof = "StoredTimeControlKind", tags = "1, 2, 3, 4")]
    kind: Option<StoredTimeControlKind>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
enum StoredTimeControlKind {
    #[prost(message, tag = "1")]
    None(NoTimeLimit),
    #[prost(message, tag = "2")]
    PerMove(TwoDurations),
    #[prost(message, tag = "3")]
    Fischer(TwoDurations),
    #[prost(message, tag = "4")]
    PerMoveWithBank(TwoDurations),
}

#[derive(Clone, PartialEq, prost::Message)]
struct NoTimeLimit {}

/// Every timed control holds two durations, as fields 1 and 2: per move and first move; base
/// and increment; per move and bank.
#[derive(Clone, PartialEq, prost::Message)]
struct TwoDurations {
    #[prost(message, optional, tag = "1")]
    first: Option<prost_types::Duration>,
    #[prost(message, optional, tag = "2")]
    second: Option<prost_types::Duration>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredTimeoutPolicy {
    /// 0 or 1: forfeit; 2: play a default action.
    #[prost(int32, tag = "1")]
    action: i32,
    #[prost(uint32, tag = "2")]
    forfeit_after: u32,
}

const PLAY_DEFAULT: i32 = 2;

fn stored_duration(value: Duration) -> Option<prost_types::Duration> {
    prost_types::Duration::try_from(value).ok()
}

fn read_duration(value: Option<prost_types::Duration>) -> Result<Duration, Undecodable> {
    Duration::try_from(value.unwrap_or_default())
        .map_err(|e| undecodable("setup", format!("a duration: {e}")))
}

fn two(first: Duration, second: Duration) -> TwoDurations {
    TwoDurations {
        first: stored_duration(first),
        second: stored_duration(second),
    }
}

pub fn setup_to_bytes(setup: &MatchSetup) -> Vec<u8> {
    let chance = &setup.chance;
    let (chacha20_seed, splitmix64_seed) = match chance.seed {
        Seed::ChaCha20(key) => (key.to_vec(), 0),
        Seed::SplitMix64(number) => (Vec::new(), number),
    };
    let hosting = &setup.hosting;
    StoredSetup {
        match_id: setup.match_id.clone(),
        variant_id: setup.variant_id.clone(),
        rules_version: setup.rules_version.clone(),
        options: setup
            .options
            .iter()
            .map(|(name, value)| {
                let kind = match value {
                    OptionValue::Int(v) => StoredOptionKind::Int(*v),
                    OptionValue::Bool(v) => StoredOptionKind::Bool(*v),
                    OptionValue::Text(v) => StoredOptionKind::Text(v.clone()),
                };
                (name.clone(), StoredOption { kind: Some(kind) })
            })
            .collect(),
        splitmix64_seed,
        start_position: setup.start_position.clone().unwrap_or_default(),
        create_time: Some(setup.create_time.into()),
        time_control: Some(StoredTimeControl {
            kind: Some(match hosting.time_control {
                TimeControl::None => StoredTimeControlKind::None(NoTimeLimit {}),
                TimeControl::PerMove {
                    per_move,
                    first_move,
                } => StoredTimeControlKind::PerMove(two(per_move, first_move)),
                TimeControl::Fischer { base, increment } => {
                    StoredTimeControlKind::Fischer(two(base, increment))
                }
                TimeControl::PerMoveWithBank { per_move, bank } => {
                    StoredTimeControlKind::PerMoveWithBank(two(per_move, bank))
                }
            }),
        }),
        timeout_policy: Some(match hosting.timeout_policy {
            TimeoutPolicy::Forfeit => StoredTimeoutPolicy {
                action: 1,
                forfeit_after: 0,
            },
            TimeoutPolicy::PlayDefault { forfeit_after } => StoredTimeoutPolicy {
                action: PLAY_DEFAULT,
                forfeit_after,
            },
        }),
        abandon_after: stored_duration(hosting.abandon_after),
        chacha20_seed,
        salt: chance.salt.map(|salt| salt.to_vec()).unwrap_or_default(),
        seed_source: match chance.source {
            SeedSource::Server => SEED_FROM_SERVER,
            SeedSource::Client => SEED_FROM_CLIENT,
            SeedSource::Unrecorded => 0,
        },
        reserved_accounts: setup
            .reservation
            .as_ref()
            .map(|r| r.accounts.clone())
            .unwrap_or_default(),
        show_up_by: setup.reservation.as_ref().map(|r| r.show_up_by.into()),
    }
    .encode_to_vec()
}

pub fn setup_from_bytes(bytes: &[u8]) -> Result<MatchSetup, Undecodable> {
    let stored = StoredSetup::decode(bytes).map_err(|e| undecodable("setup", e))?;
    let options = stored
        .options
        .into_iter()
        .map(|(name, value)| {
            let value = match value.kind {
                Some(StoredOptionKind::Int(v)) => OptionValue::Int(v),
                Some(StoredOptionKind::Bool(v)) => OptionValue::Bool(v),
                Some(StoredOptionKind::Text(v)) => OptionValue::Text(v),
                None => {
                    return Err(undecodable(
                        "setup",
                        format!("option `{name}` has no value"),
                    ));
                }
            };
            Ok((name, value))
        })
        .collect::<Result<_, _>>()?;
    let create_time = stored
        .create_time
        .and_then(|t| SystemTime::try_from(t).ok())
        .ok_or_else(|| undecodable("setup", "no creation time"))?;
    let time_control = match stored.time_control.and_then(|t| t.kind) {
        None | Some(StoredTimeControlKind::None(_)) => TimeControl::None,
        Some(StoredTimeControlKind::PerMove(t)) => {
            let per_move = read_duration(t.first)?;
            TimeControl::PerMove {
                per_move,
                // The contract lets the first move default to the others' time.
                first_move: match t.second {
                    Some(first_move) => read_duration(Some(first_move))?,
                    None => per_move,
                },
            }
        }
        Some(StoredTimeControlKind::Fischer(t)) => TimeControl::Fischer {
            base: read_duration(t.first)?,
            increment: read_duration(t.second)?,
        },
        Some(StoredTimeControlKind::PerMoveWithBank(t)) => TimeControl::PerMoveWithBank {
            per_move: read_duration(t.first)?,
            bank: read_duration(t.second)?,
        },
    };
    let timeout_policy = match stored.timeout_policy {
        Some(policy) if policy.action == PLAY_DEFAULT => TimeoutPolicy::PlayDefault {
            forfeit_after: policy.forfeit_after,
        },
        _ => TimeoutPolicy::Forfeit,
    };
    let abandon_after = match stored.abandon_after {
        Some(after) => read_duration(Some(after))?,
        None => Hosting::default().abandon_after,
    };
    let chance = if stored.chacha20_seed.is_empty() {
        MatchChance::splitmix64(stored.splitmix64_seed)
    } else {
        let bytes32 = |bytes: Vec<u8>, what| {
            <[u8; 32]>::try_from(bytes)
                .map_err(|_| undecodable("setup", format!("{what} is not 32 bytes")))
        };
        MatchChance {
            seed: Seed::ChaCha20(bytes32(stored.chacha20_seed, "the seed")?),
            salt: Some(bytes32(stored.salt, "the salt")?),
            source: match stored.seed_source {
                SEED_FROM_SERVER => SeedSource::Server,
                SEED_FROM_CLIENT => SeedSource::Client,
                _ => SeedSource::Unrecorded,
            },
        }
    };
    let reservation = match stored.show_up_by {
        None => None,
        Some(at) => Some(Reservation {
            accounts: stored.reserved_accounts,
            show_up_by: SystemTime::try_from(at)
                .map_err(|_| undecodable("setup", "a show-up deadline out of range"))?,
        }),
    };
    Ok(MatchSetup {
        reservation,
        match_id: stored.match_id,
        variant_id: stored.variant_id,
        rules_version: stored.rules_version,
        options,
        chance,
        start_position: Some(stored.start_position).filter(|p| !p.is_empty()),
        create_time,
        hosting: Hosting {
            time_control,
            timeout_policy,
            abandon_after,
        },
    })
}

#[cfg(test)]
mod tests {
    use pitchmate_proto::v1 as pb;

    use super::*;

    #[test]
    fn a_setup_reads_back_as_it_was_stored() {
        let time = SystemTime::now();
        let setup = MatchSetup {
            match_id: "m".into(),
            variant_id: "soccer-chess".into(),
            rules_version: "1".into(),
            options: [(
                "sets_per_game".to_owned(),
                pitchmate_rules::OptionValue::Int(2),
            )]
            .into(),
            chance: MatchChance::draw(None).unwrap(),
            start_position: Some("pos".into()),
            create_time: time,
            hosting: Hosting {
                time_control: crate::clock::TimeControl::Fischer {
                    base: Duration::from_secs(300),
                    increment: Duration::from_secs(2),
                },
                timeout_policy: crate::clock::TimeoutPolicy::PlayDefault { forfeit_after: 3 },
                abandon_after: Duration::from_secs(30),
            },
            reservation: Some(Reservation {
                accounts: vec!["a".into(), "b".into()],
                show_up_by: time + Duration::from_secs(60),
            }),
        };
        let bytes = setup_to_bytes(&setup);
        assert_eq!(setup_from_bytes(&bytes).unwrap(), setup);
        assert!(setup_from_bytes(&[0xff, 0xff]).is_err());

        // A setup stored before seeds were committed: a replay header whose field 5 held the
        // SplitMix64 seed (the field is reserved in the contract now, so it is written by hand).
        let mut legacy = pb::ReplayHeader {
            chance: None,
            ..pb::ReplayHeader::decode(bytes.as_slice()).unwrap()
        }
        .encode_to_vec();
        legacy.push(5 << 3);
        legacy.extend([0xe7, 0x07]); // 999 as a varint
        let read = setup_from_bytes(&legacy).unwrap();
        assert_eq!(read.chance, MatchChance::splitmix64(999));
        assert_eq!(
            MatchSetup {
                chance: setup.chance,
                // Older setups had no reservations.
                reservation: setup.reservation.clone(),
                ..read
            },
            setup
        );
    }

    #[test]
    fn nothing_secret_is_stored_in_the_setups_wire_compatible_part() {
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
        let stored = setup_to_bytes(&setup);
        let as_header = pb::ReplayHeader::decode(stored.as_slice()).unwrap();
        assert_eq!(as_header.chance, None);
    }
}
