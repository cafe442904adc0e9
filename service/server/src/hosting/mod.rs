//! Match hosting: an actor per match ([`actor`]), its event log ([`log`]), seat tokens
//! ([`token`]), event streams ([`stream`]) and the registry that finds matches by id.

pub mod actor;
pub mod log;
pub mod stream;
pub mod token;

use std::collections::{BTreeMap, HashMap};
use std::sync::RwLock;
use std::time::SystemTime;

use pitchmate_proto::v1 as pb;

pub use actor::{ActorLimits, MatchHandle, MatchRecord, MatchSetup, Submission};

use crate::error::ServiceError;
use crate::games::{GameRegistry, option_from_proto};

/// What `create` needs besides the variant.
#[derive(Clone, Debug, Default)]
pub struct NewMatch {
    pub variant_id: String,
    pub options: HashMap<String, pb::OptionValue>,
    pub seed: Option<u64>,
    /// Empty for the standard start.
    pub start_position: String,
}

/// Which matches a listing wants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchFilter {
    /// Empty: every variant.
    pub variant_id: String,
    pub status: Option<pb::MatchStatus>,
}

impl MatchFilter {
    fn admits(&self, summary: &pb::Match) -> bool {
        (self.variant_id.is_empty() || summary.variant_id == self.variant_id)
            && self.status.is_none_or(|s| summary.status == s as i32)
    }
}

/// One page of a listing, newest first.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchPage {
    pub matches: Vec<pb::Match>,
    /// Where the next page starts, when there is one.
    pub next_position: Option<u64>,
}

#[derive(Default)]
struct MatchIndex {
    by_id: HashMap<String, MatchHandle>,
    /// Handles in creation order: a match's position never changes, so pages stay stable
    /// while matches are created.
    in_creation_order: Vec<MatchHandle>,
}

/// Every hosted match, by id.
pub struct MatchRegistry {
    games: GameRegistry,
    limits: ActorLimits,
    index: RwLock<MatchIndex>,
}

impl MatchRegistry {
    pub fn new(games: GameRegistry, limits: ActorLimits) -> Self {
        Self {
            games,
            limits,
            index: RwLock::new(MatchIndex::default()),
        }
    }

    pub fn games(&self) -> &GameRegistry {
        &self.games
    }

    /// Creates a match and starts its actor. Must run inside a tokio runtime.
    pub fn create(&self, request: NewMatch) -> Result<pb::Match, ServiceError> {
        let options = request
            .options
            .iter()
            .map(|(name, value)| Ok((name.clone(), option_from_proto(name, value)?)))
            .collect::<Result<BTreeMap<_, _>, ServiceError>>()?;
        let seed = match request.seed {
            Some(seed) => seed,
            None => random_seed()?,
        };
        let position = Some(request.start_position).filter(|p| !p.is_empty());
        let game = self
            .games
            .start(&request.variant_id, &options, seed, position.clone())?;
        let resolved = pitchmate_rules::Options::resolve(&game.info().options, &options)?;
        let setup = MatchSetup {
            match_id: uuid::Uuid::new_v4().to_string(),
            variant_id: request.variant_id,
            options: resolved.all().clone(),
            seed,
            start_position: position,
            create_time: SystemTime::now(),
        };
        let match_id = setup.match_id.clone();
        let handle = actor::spawn(setup, game, self.limits);
        let summary = handle.summary();
        let mut index = self
            .index
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        index.by_id.insert(match_id, handle.clone());
        index.in_creation_order.push(handle);
        Ok(summary)
    }

    pub fn get(&self, match_id: &str) -> Result<MatchHandle, ServiceError> {
        let index = self
            .index
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        index
            .by_id
            .get(match_id)
            .cloned()
            .ok_or_else(|| ServiceError::MatchNotFound(match_id.to_owned()))
    }

    /// Up to `limit` matches admitted by `filter`, newest first, starting below `position` (a
    /// page's `next_position`; `None` starts at the newest).
    pub fn list(&self, filter: &MatchFilter, position: Option<u64>, limit: usize) -> MatchPage {
        let index = self
            .index
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let total = index.in_creation_order.len();
        let start = position.map_or(total, |p| usize::try_from(p).unwrap_or(total).min(total));
        let mut matches = Vec::new();
        let mut next_position = None;
        for at in (0..start).rev() {
            let summary = index.in_creation_order[at].summary();
            if !filter.admits(&summary) {
                continue;
            }
            if matches.len() == limit {
                next_position = Some(at as u64 + 1);
                break;
            }
            matches.push(summary);
        }
        MatchPage {
            matches,
            next_position,
        }
    }
}

fn random_seed() -> Result<u64, ServiceError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| ServiceError::Unavailable(format!("no randomness for a seed: {e}")))?;
    Ok(u64::from_le_bytes(bytes))
}
