//! A match's chance: its secret seed, the salt that hides it, and who chose it.
//!
//! The seed stays inside the server until the match is over. Until then everyone, seats
//! included, sees only the commitment to it (`pitchmate_games::chance`); the summary and the
//! replay of a match that is over reveal seed and salt, so anyone can check the commitment and
//! re-simulate the match.

use std::fmt;

use pitchmate_games::chance::seed_commitment;
use pitchmate_proto::v1 as pb;
use pitchmate_rules::Seed;

/// Who chose a match's seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedSource {
    /// Drawn from the operating system's random source.
    Server,
    /// Given by the match's creator, who may know every roll in advance.
    Client,
    /// A match created before the server recorded it (and before seeds were committed).
    Unrecorded,
}

impl SeedSource {
    pub fn to_proto(self) -> pb::SeedSource {
        match self {
            Self::Server => pb::SeedSource::Server,
            Self::Client => pb::SeedSource::Client,
            Self::Unrecorded => pb::SeedSource::Unspecified,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MatchChance {
    pub seed: Seed,
    /// Hashed with the seed into the commitment; `None` for SplitMix64 matches, which have none.
    pub salt: Option<[u8; 32]>,
    pub source: SeedSource,
}

impl MatchChance {
    /// A new match's chance: the creator's number as seed if it gave one, else 32 bytes from
    /// the operating system; always a fresh random salt.
    pub fn draw(chosen: Option<u64>) -> Result<Self, getrandom::Error> {
        let (seed, source) = match chosen {
            Some(number) => (Seed::from_number(number), SeedSource::Client),
            None => (Seed::ChaCha20(random_bytes()?), SeedSource::Server),
        };
        Ok(Self {
            seed,
            salt: Some(random_bytes()?),
            source,
        })
    }

    /// A match created before seeds were committed.
    pub fn splitmix64(number: u64) -> Self {
        Self {
            seed: Seed::SplitMix64(number),
            salt: None,
            source: SeedSource::Unrecorded,
        }
    }

    /// What everyone may know: with `revealed` (the match is over), the seed and salt too.
    pub fn to_proto(&self, revealed: bool) -> pb::Chance {
        let (generator, commitment) = match (self.seed, self.salt) {
            (Seed::ChaCha20(key), Some(salt)) => (
                pb::ChanceGenerator::Chacha20,
                seed_commitment(&salt, &key).to_vec(),
            ),
            (Seed::ChaCha20(_), None) => (pb::ChanceGenerator::Chacha20, Vec::new()),
            (Seed::SplitMix64(_), _) => (pb::ChanceGenerator::Splitmix64, Vec::new()),
        };
        pb::Chance {
            generator: generator as i32,
            seed_source: self.source.to_proto() as i32,
            commitment,
            seed: if revealed {
                self.seed.to_bytes()
            } else {
                Vec::new()
            },
            salt: match self.salt {
                Some(salt) if revealed => salt.to_vec(),
                _ => Vec::new(),
            },
        }
    }

    /// What the `match_created` event publishes: the commitment, for matches that have one.
    pub fn announcement(&self) -> Option<pb::Chance> {
        self.salt.is_some().then(|| self.to_proto(false))
    }
}

/// The seed and salt are secrets until the match is over; logs never print them.
impl fmt::Debug for MatchChance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MatchChance")
            .field("seed", &self.seed)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

fn random_bytes() -> Result<[u8; 32], getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_shows_only_once_revealed_and_matches_its_commitment() {
        let chance = MatchChance::draw(None).unwrap();
        let hidden = chance.to_proto(false);
        assert!(hidden.seed.is_empty() && hidden.salt.is_empty());
        assert_eq!(hidden.commitment.len(), 32);
        assert_eq!(hidden.seed_source, pb::SeedSource::Server as i32);
        assert_eq!(chance.announcement(), Some(hidden.clone()));

        let shown = chance.to_proto(true);
        assert_eq!(shown.commitment, hidden.commitment);
        assert_eq!(shown.seed.len(), 32);
        assert_eq!(
            seed_commitment(&shown.salt, &shown.seed).to_vec(),
            shown.commitment
        );
        assert!(!format!("{chance:?}").contains(&format!("{:?}", shown.salt)));
    }

    #[test]
    fn every_match_draws_its_own_seed_and_salt() {
        let (a, b) = (
            MatchChance::draw(None).unwrap(),
            MatchChance::draw(None).unwrap(),
        );
        assert_ne!(a.seed, b.seed);
        assert_ne!(a.salt, b.salt);
        // A chosen seed still gets a fresh salt, so its commitment cannot be looked up.
        let (c, d) = (
            MatchChance::draw(Some(5)).unwrap(),
            MatchChance::draw(Some(5)).unwrap(),
        );
        assert_eq!(
            (c.seed, c.source),
            (Seed::from_number(5), SeedSource::Client)
        );
        assert_ne!(c.to_proto(false).commitment, d.to_proto(false).commitment);
    }

    #[test]
    fn splitmix_matches_have_no_commitment() {
        let legacy = MatchChance::splitmix64(7);
        assert_eq!(legacy.announcement(), None);
        let shown = legacy.to_proto(true);
        assert!(shown.commitment.is_empty());
        assert_eq!(shown.seed, 7u64.to_le_bytes());
        assert_eq!(shown.generator, pb::ChanceGenerator::Splitmix64 as i32);
    }
}
