//! Match hosting: an actor per match ([`actor`]), its event log ([`log`]), seat tokens
//! ([`token`]), its secret seed ([`chance`]), event streams ([`stream`]), the translation to
//! stored rows ([`durable`]) and the registry that finds matches by id.

pub mod actor;
pub mod chance;
pub mod clock;
pub mod durable;
#[cfg(test)]
mod ending_tests;
pub mod log;
pub mod stream;
pub mod token;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use pitchmate_proto::v1 as pb;

pub use actor::{ActorLimits, MatchHandle, MatchSetup, SeatCall, Submission};
pub use chance::MatchChance;

use crate::error::ServiceError;
use crate::games::{GameRegistry, option_from_proto};
use crate::store::{Store, StoreError, StoredMatch};
use log::EventLog;

/// What `create` needs besides the variant.
#[derive(Clone, Debug, Default)]
pub struct NewMatch {
    pub variant_id: String,
    pub options: HashMap<String, pb::OptionValue>,
    pub seed: Option<u64>,
    /// Empty for the standard start.
    pub start_position: String,
    pub hosting: clock::Hosting,
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

/// A match as the registry holds it.
#[derive(Clone)]
enum Entry {
    /// An actor is hosting it.
    Live(MatchHandle),
    /// Finished in an earlier run: listed from its stored summary, rebuilt on first use.
    Stored(Arc<pb::Match>),
    /// Stored, but the rules no longer reproduce its history: listed, never played.
    NotRebuildable {
        summary: Arc<pb::Match>,
        detail: String,
    },
}

impl Entry {
    fn summary(&self) -> pb::Match {
        match self {
            Entry::Live(handle) => handle.summary(),
            Entry::Stored(summary) | Entry::NotRebuildable { summary, .. } => {
                summary.as_ref().clone()
            }
        }
    }
}

#[derive(Default)]
struct MatchIndex {
    /// Position in `in_creation_order` by match id.
    by_id: HashMap<String, usize>,
    /// Entries in creation order: a match's position never changes, so pages stay stable
    /// while matches are created.
    in_creation_order: Vec<Entry>,
}

impl MatchIndex {
    fn insert(&mut self, match_id: String, entry: Entry) {
        self.by_id.insert(match_id, self.in_creation_order.len());
        self.in_creation_order.push(entry);
    }
}

/// Every hosted match, by id, backed by the store.
pub struct MatchRegistry {
    games: GameRegistry,
    limits: ActorLimits,
    store: Store,
    index: RwLock<MatchIndex>,
}

fn storage_error(error: StoreError) -> ServiceError {
    ServiceError::StoreUnavailable(error.to_string())
}

impl MatchRegistry {
    /// Loads every stored match: unfinished ones are rebuilt and hosted again, finished ones
    /// are listed and rebuilt only when asked for. A match whose stored history the rules no
    /// longer reproduce is logged as an error and kept out of play.
    pub async fn open(
        games: GameRegistry,
        limits: ActorLimits,
        store: Store,
    ) -> Result<Self, StoreError> {
        let mut index = MatchIndex::default();
        let (mut resumed, mut finished, mut refused) = (0, 0, 0);
        for row in store.matches().await? {
            let summary = Arc::new(
                durable::summary_from_bytes(&row.summary)
                    .map_err(|e| StoreError::Database(e.to_string()))?,
            );
            let entry = if is_over(summary.status) {
                finished += 1;
                Entry::Stored(summary)
            } else {
                let stored = store.load(&row.match_id).await?.ok_or_else(|| {
                    StoreError::Database(format!("match {} vanished while loading", row.match_id))
                })?;
                match rebuild(&games, limits, &store, &stored) {
                    Ok(handle) => {
                        resumed += 1;
                        Entry::Live(handle)
                    }
                    Err(detail) => {
                        refused += 1;
                        tracing::error!(match_id = %row.match_id, %detail, "stored match kept out of play");
                        Entry::NotRebuildable { summary, detail }
                    }
                }
            };
            index.insert(row.match_id, entry);
        }
        tracing::info!(resumed, finished, refused, "stored matches loaded");
        Ok(Self {
            games,
            limits,
            store,
            index: RwLock::new(index),
        })
    }

    pub fn games(&self) -> &GameRegistry {
        &self.games
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Creates a match, stores it and starts its actor.
    pub async fn create(&self, request: NewMatch) -> Result<pb::Match, ServiceError> {
        let options = request
            .options
            .iter()
            .map(|(name, value)| Ok((name.clone(), option_from_proto(name, value)?)))
            .collect::<Result<BTreeMap<_, _>, ServiceError>>()?;
        let chance = MatchChance::draw(request.seed)
            .map_err(|e| ServiceError::Unavailable(format!("no randomness for a seed: {e}")))?;
        let position = Some(request.start_position).filter(|p| !p.is_empty());
        let game =
            self.games
                .start(&request.variant_id, &options, chance.seed, position.clone())?;
        let resolved = pitchmate_rules::Options::resolve(&game.info().options, &options)?;
        let setup = MatchSetup {
            match_id: uuid::Uuid::new_v4().to_string(),
            variant_id: request.variant_id,
            options: resolved.all().clone(),
            chance,
            start_position: position,
            create_time: clock::now(),
            hosting: request.hosting,
        };
        let match_id = setup.match_id.clone();
        let handle = actor::create(setup, game, self.limits, self.store.clone()).await?;
        let summary = handle.summary();
        self.write_index().insert(match_id, Entry::Live(handle));
        Ok(summary)
    }

    fn read_index(&self) -> std::sync::RwLockReadGuard<'_, MatchIndex> {
        self.index
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write_index(&self) -> std::sync::RwLockWriteGuard<'_, MatchIndex> {
        self.index
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn entry(&self, match_id: &str) -> Result<Entry, ServiceError> {
        let index = self.read_index();
        index
            .by_id
            .get(match_id)
            .map(|&at| index.in_creation_order[at].clone())
            .ok_or_else(|| ServiceError::MatchNotFound(match_id.to_owned()))
    }

    /// The actor of a match, rebuilding a finished one from the store on first use.
    pub async fn get(&self, match_id: &str) -> Result<MatchHandle, ServiceError> {
        match self.entry(match_id)? {
            Entry::Live(handle) => Ok(handle),
            Entry::NotRebuildable { detail, .. } => Err(ServiceError::MatchNotRebuildable {
                match_id: match_id.to_owned(),
                detail,
            }),
            Entry::Stored(summary) => {
                let stored = self.load(match_id).await?;
                let rebuilt = rebuild(&self.games, self.limits, &self.store, &stored);
                let mut index = self.write_index();
                let at = index.by_id[match_id];
                let slot = &mut index.in_creation_order[at];
                // Another call may have rebuilt it meanwhile: keep the first.
                if let Entry::Live(existing) = slot {
                    return Ok(existing.clone());
                }
                match rebuilt {
                    Ok(handle) => {
                        *slot = Entry::Live(handle.clone());
                        Ok(handle)
                    }
                    Err(detail) => {
                        tracing::error!(%match_id, %detail, "stored match kept out of play");
                        *slot = Entry::NotRebuildable {
                            summary,
                            detail: detail.clone(),
                        };
                        Err(ServiceError::MatchNotRebuildable {
                            match_id: match_id.to_owned(),
                            detail,
                        })
                    }
                }
            }
        }
    }

    async fn load(&self, match_id: &str) -> Result<StoredMatch, ServiceError> {
        self.store
            .load(match_id)
            .await
            .map_err(storage_error)?
            .ok_or_else(|| ServiceError::MatchNotFound(match_id.to_owned()))
    }

    /// Up to `limit` matches admitted by `filter`, newest first, starting below `position` (a
    /// page's `next_position`; `None` starts at the newest).
    pub fn list(&self, filter: &MatchFilter, position: Option<u64>, limit: usize) -> MatchPage {
        let index = self.read_index();
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

    /// The replay of a match: its header and its events. Until the match is over, as a
    /// spectator sees it (numbered in the spectator's count, the seed not revealed); once it is
    /// over, the whole history in the whole numbering, and the seed.
    pub async fn replay(&self, match_id: &str) -> Result<pb::GetReplayResponse, ServiceError> {
        let entry = self.entry(match_id)?;
        let summary = entry.summary();
        let stored = self.load(match_id).await?;
        let undecodable = |detail: String| ServiceError::MatchNotRebuildable {
            match_id: match_id.to_owned(),
            detail,
        };
        let setup =
            durable::setup_from_bytes(&stored.row.setup).map_err(|e| undecodable(e.to_string()))?;
        let events = stored
            .events
            .iter()
            .map(durable::event_from_row)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| undecodable(e.to_string()))?;
        // The stored log, not the summary, says whether it is over: the summary may trail it.
        let ended = events.iter().rev().find_map(|e| match &e.kind {
            pb::match_event::Kind::MatchEnded(ended) => ended.result.clone(),
            _ => None,
        });
        let (status, result) = match ended {
            Some(result) if result.reason() == pb::ResultReason::Aborted => {
                (pb::MatchStatus::Aborted as i32, Some(result))
            }
            Some(result) => (pb::MatchStatus::Finished as i32, Some(result)),
            None => (summary.status, summary.result),
        };
        let over = is_over(status);
        let log = match entry {
            // A hosted match knows which of its steps were hidden, also for steps stored before
            // the store recorded it.
            Entry::Live(handle) if !over => handle.events_after(0).await?,
            _ => EventLog::restore(events)
                .map_err(undecodable)?
                .after(0)
                .to_vec(),
        };
        let header = pb::ReplayHeader {
            seats: summary.seats,
            status,
            result,
            ..durable::replay_header(&setup, &summary.rules_version, over)
        };
        Ok(pb::GetReplayResponse {
            header: Some(header),
            events: log
                .iter()
                .filter_map(|e| {
                    if over {
                        Some(e.unredacted())
                    } else {
                        e.view_for(pitchmate_rules::Viewer::Spectator)
                    }
                })
                .collect(),
        })
    }
}

fn is_over(status: i32) -> bool {
    status == pb::MatchStatus::Finished as i32 || status == pb::MatchStatus::Aborted as i32
}

/// Rebuilds a stored match with a fresh game of its variant and starts its actor.
fn rebuild(
    games: &GameRegistry,
    limits: ActorLimits,
    store: &Store,
    stored: &StoredMatch,
) -> Result<MatchHandle, String> {
    let setup = durable::setup_from_bytes(&stored.row.setup).map_err(|e| e.to_string())?;
    let game = games
        .start(
            &setup.variant_id,
            &setup.options,
            setup.chance.seed,
            setup.start_position.clone(),
        )
        .map_err(|e| format!("the game cannot start as stored: {e}"))?;
    actor::restore(stored, game, limits, store.clone())
}
