//! Match hosting, the match core of the Pitchmate server: a referee per match ([`referee`])
//! inside its actor ([`actor`]), its event log ([`log`]), seat tokens ([`token`]), its secret
//! seed ([`chance`]), event streams ([`stream`]), the translation to stored rows
//! ([`durable`]), counted places ([`slots`]), the lifecycle feed ([`feed`]), every way a call
//! can fail ([`error`]) and the registry that finds matches by id.
//!
//! It knows nothing of gRPC's transport: the server's API turns requests into its calls and
//! its answers and errors into responses and `tonic::Status`es.
//!
//! A match is in memory while its actor hosts it, and only then: listings read the store. An
//! actor that stops by itself (its commit failed, it expired, or nobody used it for a while)
//! retires: the registry forgets it and rebuilds it from the store on the next call. Unfinished
//! matches whose store failed are rebuilt as soon as the store writes again, so their clocks
//! and expiry go on without anyone calling.
//!
//! In cluster mode (several servers on one database) the registry hosts a match only while it
//! holds the match's lease ([`ownership`]); a call for a match another server owns is answered
//! [`ServiceError::NotOwner`] without loading it.
//!
//! The survivors' sweep (cluster mode): every half a lease's time to live or so, each server
//! looks for match leases that lapsed, left by a server that died. An unfinished match's is
//! taken over as a call would (from exactly what the store holds; another survivor winning it
//! is fine), so a dead server's matches come back within about the time to live and a sweep's
//! interval even when nobody calls them, and their clocks run on. A finished or unknown
//! match's is deleted with the token it lapsed with (unless someone took it meanwhile), so it
//! is not tried again. Matches that left memory idle gave their leases up: the sweep never
//! sees them, and they stay in the store until called. The interval varies by a quarter
//! either way, so that servers started together do not all read at once.
//!
//! A server that stops gracefully hands its matches over ([`MatchRegistry::hand_over`]): it
//! takes no match on any more, stops every actor once it has stored what it took, and then
//! lets every lease it holds lapse at once (a released lease would leave no trace for a sweep
//! to find), so the survivors take the matches at their next call or sweep.

pub mod actor;
pub mod chance;
pub mod clock;
#[cfg(test)]
mod cluster_tests;
pub mod durable;
pub mod error;
pub mod event;
pub mod feed;
pub mod lifecycle;
pub mod log;
pub mod metrics;
pub mod ordered;
pub mod ownership;
pub mod referee;
#[cfg(test)]
mod referee_tests;
#[cfg(test)]
mod registry_tests;
pub mod setup;
pub mod slots;
pub mod status;
pub mod summary;
pub mod token;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::OptionValue;
use tokio::sync::{mpsc, watch};

pub use actor::{ActorContext, ActorLimits, MatchHandle, RetireReason, Retirement};
pub use chance::MatchChance;
pub use referee::{MatchSetup, SeatCall, Submission};

use crate::error::ServiceError;
use ownership::{ClusterSettings, Ownership, Tenure};
use pitchmate_games::{GameRegistry, HostedGame};
use pitchmate_store::{
    Listing, MATCH_LEASES, Store, StoreError, StoreHealth, StoredMatch, leased_match,
};
use slots::{Slot, Slots};
use status::MatchStatus;
use summary::MatchSummary;

/// A match counted against its creator's open-match quota until it is over.
pub type OpenMatch = Slot<IpAddr>;

/// How often the registry tries again to rebuild matches it could not, while the store writes.
const RELOAD_RETRY: Duration = Duration::from_secs(2);

/// Lapsed leases one sweep reads at most; the rest wait for the next sweep.
const SWEEP_BATCH: usize = 512;

/// What `create` needs besides the variant.
#[derive(Clone, Debug, Default)]
pub struct NewMatch {
    pub variant_id: String,
    /// As the creator gave them; the game fills in the rest.
    pub options: BTreeMap<String, OptionValue>,
    pub seed: Option<u64>,
    /// Empty for the standard start.
    pub start_position: String,
    pub hosting: clock::Hosting,
    /// Who asked, for the open-match quota; `None` is not counted.
    pub creator: Option<IpAddr>,
    /// The id a caller chose (a league names its matches before it creates them, so creating
    /// again after a crash finds the match instead of making a second); `None`: a new UUID.
    pub match_id: Option<String>,
    pub reservation: Option<setup::Reservation>,
}

/// Which matches a listing wants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchFilter {
    /// Empty: every variant.
    pub variant_id: String,
    pub status: Option<MatchStatus>,
    /// Empty: every player's; else the matches in which a player of this name took a seat.
    pub player_name: String,
}

/// One page of a listing, newest first.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchPage {
    pub matches: Vec<MatchSummary>,
    /// Where the next page starts, when there is one.
    pub next_position: Option<u64>,
}

/// A match in memory.
#[derive(Clone)]
enum Entry {
    /// Being created: calls for it wait until it is hosted, or its creation failed (the sender
    /// is dropped either way). Rebuilding it from its stored row meanwhile would make a second
    /// actor of one match.
    Creating(watch::Receiver<()>),
    /// An actor is hosting it (or was, until it stopped: then it is rebuilt on first use).
    Live(MatchHandle),
    /// Stored, but the rules no longer reproduce its history: listed, never played.
    NotRebuildable { detail: String },
}

/// A match id taken by [`MatchRegistry::create`] for the match it is creating. Dropped before
/// the match is hosted (its creation failed), it frees the id; either way the calls waiting for
/// the match are woken when it goes.
struct Reservation<'a> {
    registry: &'a MatchRegistry,
    match_id: String,
    created: Option<watch::Sender<()>>,
}

impl Reservation<'_> {
    fn host(mut self, handle: MatchHandle) {
        self.registry
            .write_index()
            .insert(self.match_id.clone(), Entry::Live(handle));
        self.created = None;
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if self.created.is_some() {
            let mut index = self.registry.write_index();
            if let Some(Entry::Creating(_)) = index.get(&self.match_id) {
                index.remove(&self.match_id);
            }
        }
    }
}

/// Every hosted match, by id, backed by the store.
pub struct MatchRegistry {
    games: GameRegistry,
    actors: ActorContext,
    store: Store,
    /// The matches in memory; every other stored match is only in the store.
    index: RwLock<HashMap<String, Entry>>,
    /// Open matches per creator.
    open_matches: Slots<IpAddr>,
    /// The leases of the matches hosted here, in cluster mode; `None`: this server alone uses
    /// the database, and no lease is read or written.
    ownership: Option<Arc<Ownership>>,
    /// Set when the server hands its matches over: no lease is taken any more.
    handing_over: AtomicBool,
}

fn storage_error(error: StoreError) -> ServiceError {
    ServiceError::StoreUnavailable(error.to_string())
}

impl MatchRegistry {
    /// Serves at once: the unfinished matches the store holds are rebuilt in the background
    /// (see [`bring_back`]), finished ones when asked for.
    /// `open_matches_per_client`: matches one creator may have unfinished at once, 0 for any
    /// number.
    pub async fn open(
        games: GameRegistry,
        limits: ActorLimits,
        store: Store,
        open_matches_per_client: usize,
    ) -> Result<Arc<Self>, StoreError> {
        Self::open_in_cluster(games, limits, store, open_matches_per_client, None).await
    }

    /// [`MatchRegistry::open`], in cluster mode when `cluster` is given: matches are hosted
    /// only under their leases, and only the unfinished matches whose lease is free, lapsed or
    /// this server's come back at the start.
    pub async fn open_in_cluster(
        games: GameRegistry,
        limits: ActorLimits,
        store: Store,
        open_matches_per_client: usize,
        cluster: Option<ClusterSettings>,
    ) -> Result<Arc<Self>, StoreError> {
        let ownership = cluster
            .map(|settings| Ownership::start(store.clone(), &settings))
            .transpose()
            .map_err(StoreError::Database)?;
        let (retired, retirements) = mpsc::unbounded_channel();
        let actors = ActorContext {
            limits,
            store: store.clone(),
            retired,
        };
        let unfinished = store
            .with_status(&[
                MatchStatus::Waiting.to_wire(),
                MatchStatus::Active.to_wire(),
            ])
            .await?;
        tracing::info!(
            unfinished = unfinished.len(),
            "serving; unfinished matches come back in the background"
        );
        let registry = Arc::new(Self {
            games,
            actors,
            index: RwLock::default(),
            open_matches: Slots::new(open_matches_per_client),
            store,
            ownership,
            handing_over: AtomicBool::new(false),
        });
        if let Some(ownership) = &registry.ownership {
            tokio::spawn(sweep_lapsed(Arc::downgrade(&registry), ownership.ttl()));
        }
        tokio::spawn(keep_in_memory(
            Arc::downgrade(&registry),
            retirements,
            registry.store.health(),
        ));
        tokio::spawn(bring_back(
            Arc::downgrade(&registry),
            unfinished,
            "unfinished matches brought back",
        ));
        Ok(registry)
    }

    /// Matches an actor hosts in memory now (a walk over the index, for a metrics scrape).
    pub fn live_count(&self) -> usize {
        self.read_index()
            .values()
            .filter(|entry| matches!(entry, Entry::Live(handle) if !handle.is_stopped()))
            .count()
    }

    /// Matches whose lease this server holds: 0 outside cluster mode.
    pub fn leases_held(&self) -> usize {
        self.ownership.as_ref().map_or(0, |o| o.held_count())
    }

    /// The holder this server's leases name, in cluster mode.
    pub fn lease_holder(&self) -> Option<&str> {
        self.ownership.as_deref().map(Ownership::holder)
    }

    /// Takes the lease of `match_id` in cluster mode; outside it, there is none to take.
    async fn acquire(&self, match_id: &str) -> Result<Option<Tenure>, ServiceError> {
        match &self.ownership {
            Some(_) if self.handing_over.load(Ordering::Acquire) => Err(ServiceError::Unavailable(
                "this server is stopping and hands its matches over".to_owned(),
            )),
            Some(ownership) => ownership.acquire(match_id).await.map(Some),
            None => Ok(None),
        }
    }

    /// Hands this server's matches over before it stops (cluster mode): no match is taken on
    /// any more, every actor stops once what it took is stored, then every lease held lapses
    /// at once, so the other servers take the matches (at a call, or by their sweep) rather
    /// than after the lease's time to live. Returns the leases handed over. Outside cluster
    /// mode it does nothing: the matches come back from the store when the server starts again.
    pub async fn hand_over(&self) -> usize {
        let Some(ownership) = &self.ownership else {
            return 0;
        };
        self.handing_over.store(true, Ordering::Release);
        // A call past its acquisition as the flag was set hosts its match a moment later: a
        // second look stops that one too.
        for _ in 0..2 {
            let hosted: Vec<MatchHandle> = self
                .read_index()
                .values()
                .filter_map(|entry| match entry {
                    Entry::Live(handle) => Some(handle.clone()),
                    _ => None,
                })
                .collect();
            for handle in &hosted {
                handle.hand_over().await;
            }
            for handle in &hosted {
                handle.finished().await;
            }
        }
        let handed = ownership.hand_over_all().await;
        tracing::info!(handed, "matches handed over: their leases lapsed");
        handed
    }

    #[cfg(test)]
    pub(crate) fn ownership(&self) -> Option<&Arc<Ownership>> {
        self.ownership.as_ref()
    }

    /// Forgets what this server remembers of leases held by the server at `url` (see
    /// [`Ownership::forget_owner`]); 0 outside cluster mode.
    pub fn forget_owner(&self, url: &str) -> usize {
        self.ownership
            .as_ref()
            .map_or(0, |ownership| ownership.forget_owner(url))
    }

    pub fn games(&self) -> &GameRegistry {
        &self.games
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Creates a match, stores it and starts its actor.
    pub async fn create(&self, request: NewMatch) -> Result<MatchSummary, ServiceError> {
        let match_id = request
            .match_id
            .clone()
            .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let reservation = self.reserve(&match_id)?;
        let tenure = self.acquire(&match_id).await?;
        // Given up again on every way out but hosting the match.
        let created = self
            .create_reserved(request, match_id, reservation, tenure.clone())
            .await;
        if created.is_err()
            && let Some(tenure) = tenure
        {
            tenure.release();
        }
        created
    }

    async fn create_reserved(
        &self,
        request: NewMatch,
        match_id: String,
        reservation: Reservation<'_>,
        tenure: Option<Tenure>,
    ) -> Result<MatchSummary, ServiceError> {
        if request.match_id.is_some()
            && self
                .store
                .load(&match_id)
                .await
                .map_err(storage_error)?
                .is_some()
        {
            return Err(ServiceError::MatchExists(match_id));
        }
        let options = request.options;
        let open = match request.creator {
            Some(creator) => Some(self.open_matches.claim(&creator).ok_or(
                ServiceError::QuotaExceeded {
                    what: "unfinished matches created from one address",
                    limit: self.open_matches.limit(),
                    setting: "open_matches_per_client",
                },
            )?),
            None => None,
        };
        let chance = MatchChance::draw(request.seed)
            .map_err(|e| ServiceError::Unavailable(format!("no randomness for a seed: {e}")))?;
        let position = Some(request.start_position).filter(|p| !p.is_empty());
        // What starting refuses is the options' fault, or the start position's.
        let at_field = |error: ServiceError| match error.reason() {
            "INVALID_POSITION" => error.at("start_position"),
            _ => error.at("options"),
        };
        let game = self
            .games
            .start(&request.variant_id, &options, chance.seed, position.clone())
            .map_err(|e| at_field(e.into()))?;
        let resolved = pitchmate_rules::Options::resolve(&game.info().options, &options)
            .map_err(|e| at_field(e.into()))?;
        let setup = MatchSetup {
            match_id,
            variant_id: request.variant_id,
            rules_version: game.info().rules_version.to_owned(),
            options: resolved.all().clone(),
            chance,
            start_position: position,
            create_time: clock::now(),
            hosting: request.hosting,
            reservation: request.reservation,
        };
        let handle = actor::create(setup, game, &self.actors, open, tenure).await?;
        let summary = handle.summary();
        reservation.host(handle);
        Ok(summary)
    }

    /// Takes `match_id` for a match about to be created; a match that has it already (in
    /// memory) keeps it.
    fn reserve(&self, match_id: &str) -> Result<Reservation<'_>, ServiceError> {
        let mut index = self.write_index();
        if index.contains_key(match_id) {
            return Err(ServiceError::MatchExists(match_id.to_owned()));
        }
        let (created, waiting) = watch::channel(());
        index.insert(match_id.to_owned(), Entry::Creating(waiting));
        Ok(Reservation {
            registry: self,
            match_id: match_id.to_owned(),
            created: Some(created),
        })
    }

    fn read_index(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Entry>> {
        self.index
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write_index(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Entry>> {
        self.index
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The actor hosting a match right now, if any.
    fn live(&self, match_id: &str) -> Option<MatchHandle> {
        match self.read_index().get(match_id) {
            Some(Entry::Live(handle)) if !handle.is_stopped() => Some(handle.clone()),
            _ => None,
        }
    }

    /// The actor of a match, rebuilding one that is not in memory from the store.
    pub async fn get(&self, match_id: &str) -> Result<MatchHandle, ServiceError> {
        loop {
            if let Some(hosted) = self.get_once(match_id).await? {
                return Ok(hosted);
            }
        }
    }

    /// The actor of a match, or `None` once a creation of it that was under way has ended
    /// (hosted or failed): then ask again.
    async fn get_once(&self, match_id: &str) -> Result<Option<MatchHandle>, ServiceError> {
        let entry = self.read_index().get(match_id).cloned();
        match entry {
            Some(Entry::Creating(mut created)) => {
                // Only ever ends by the sender being dropped.
                let _ = created.changed().await;
                return Ok(None);
            }
            Some(Entry::Live(handle)) if !handle.is_stopped() => {
                return self.vouch_for(match_id, handle).await;
            }
            // A retiring actor may still be storing calls it took before it stopped.
            Some(Entry::Live(handle)) => handle.finished().await,
            Some(Entry::NotRebuildable { detail }) => {
                return Err(ServiceError::MatchNotRebuildable {
                    match_id: match_id.to_owned(),
                    detail,
                });
            }
            None => {}
        }
        // In cluster mode the lease comes first, so that what is read is all its last owner
        // wrote: it can write no more once the lease is taken from it.
        let tenure = self.acquire(match_id).await?;
        let stored = match self.load(match_id).await {
            Ok(stored) => stored,
            Err(error) => {
                if let Some(tenure) = &tenure {
                    tenure.release();
                }
                return Err(error);
            }
        };
        let rebuilt = rebuild(&self.games, &self.actors, &stored, tenure.clone());
        let mut index = self.write_index();
        match index.get(match_id) {
            // Another call rebuilt it meanwhile: keep the first.
            Some(Entry::Live(existing)) if !existing.is_stopped() => {
                return Ok(Some(existing.clone()));
            }
            // Its creation, under way while it was read, hosts it: the rebuilt actor goes
            // unused, having taken no call.
            Some(Entry::Creating(_)) => return Ok(None),
            _ => {}
        }
        match rebuilt {
            Ok(handle) => {
                index.insert(match_id.to_owned(), Entry::Live(handle.clone()));
                Ok(Some(handle))
            }
            Err(detail) => {
                if let Some(tenure) = &tenure {
                    tenure.release();
                }
                tracing::error!(%match_id, %detail, "stored match kept out of play");
                index.insert(
                    match_id.to_owned(),
                    Entry::NotRebuildable {
                        detail: detail.clone(),
                    },
                );
                Err(ServiceError::MatchNotRebuildable {
                    match_id: match_id.to_owned(),
                    detail,
                })
            }
        }
    }

    /// The live actor `handle` of `match_id`, once its lease is known to be this server's
    /// (cluster mode). Writes are fenced whatever this server believes, but reads are not: an
    /// actor whose lease is overdue for renewal (the renewals fell behind, or the database was
    /// slow to answer) may be serving a state another server has moved on from since it took
    /// the lapsed lease. Such a lease is renewed first: if another server holds it, the actor
    /// stops and the caller is told `NOT_OWNER` naming the owner; if it lapsed and is taken
    /// afresh, the actor holding the old token stops, and `None` says to ask again (the match
    /// is rebuilt from the store).
    async fn vouch_for(
        &self,
        match_id: &str,
        handle: MatchHandle,
    ) -> Result<Option<MatchHandle>, ServiceError> {
        let Some(token) = self
            .ownership
            .as_ref()
            .and_then(|ownership| ownership.overdue(match_id))
        else {
            return Ok(Some(handle));
        };
        let renewed = match self.acquire(match_id).await {
            Ok(renewed) => renewed,
            // The lease is another server's: the actor stops, having been told so.
            Err(error @ ServiceError::NotOwner { .. }) => {
                handle.finished().await;
                return Err(error);
            }
            Err(error) => return Err(error),
        };
        if renewed.is_some_and(|tenure| tenure.token() == token) {
            return Ok(Some(handle));
        }
        handle.finished().await;
        Ok(None)
    }

    /// Calls the match's actor through `call`. An actor that retired just before the call
    /// reached it never took it, so the call goes again, to the match rebuilt from the store
    /// (or, in cluster mode, to whoever owns it now): a client never sees a match go in and
    /// out of memory.
    pub async fn call<T, Answer>(
        &self,
        match_id: &str,
        mut call: impl FnMut(MatchHandle) -> Answer,
    ) -> Result<T, ServiceError>
    where
        Answer: Future<Output = Result<T, ServiceError>>,
    {
        // An actor that stops while a call waits in its mailbox drops it: a second attempt may
        // reach it in the moment before it closes, a third finds it closed.
        let mut attempts = 0;
        loop {
            attempts += 1;
            match call(self.get(match_id).await?).await {
                Err(ServiceError::ActorStopped) if attempts < 3 => {}
                answered => return answered,
            }
        }
    }

    /// Lets a retired actor go: the match stays in the store alone.
    fn unload(&self, match_id: &str) {
        let mut index = self.write_index();
        if let Some(Entry::Live(handle)) = index.get(match_id)
            && handle.is_stopped()
        {
            index.remove(match_id);
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
    /// page's `next_position`; `None` starts at the newest). Read from the store; a match in
    /// memory shows its newest summary.
    pub async fn list(
        &self,
        filter: &MatchFilter,
        position: Option<u64>,
        limit: usize,
    ) -> Result<MatchPage, ServiceError> {
        let listing = Listing {
            variant_id: filter.variant_id.clone(),
            status: filter.status.map(MatchStatus::to_wire),
            player_name: filter.player_name.clone(),
        };
        let before = position.map(|p| i64::try_from(p).unwrap_or(i64::MAX));
        let mut rows = self
            .store
            .list(&listing, before, limit + 1)
            .await
            .map_err(storage_error)?;
        let next_position = (rows.len() > limit).then(|| {
            rows.truncate(limit);
            rows.last().map_or(0, |row| row.key as u64)
        });
        let index = self.read_index();
        let matches = rows
            .into_iter()
            .map(|row| match index.get(&row.match_id) {
                Some(Entry::Live(handle)) if !handle.is_stopped() => Ok(handle.summary()),
                _ => stored_summary(&row.setup, &row.summary).map_err(|e| {
                    ServiceError::MatchNotRebuildable {
                        match_id: row.match_id.clone(),
                        detail: e.to_string(),
                    }
                }),
            })
            .collect::<Result<_, _>>()?;
        Ok(MatchPage {
            matches,
            next_position,
        })
    }

    /// The replay of a match: what it was created with, how far it came and its events. Until
    /// the match is over, as a spectator sees it (numbered in the spectator's count, the seed
    /// not revealed); once it is over, the whole history in the whole numbering, and the seed.
    pub async fn replay(&self, match_id: &str) -> Result<Replay, ServiceError> {
        let live = self.live(match_id);
        let stored = self.load(match_id).await?;
        let undecodable = |detail: String| ServiceError::MatchNotRebuildable {
            match_id: match_id.to_owned(),
            detail,
        };
        let setup =
            durable::setup_from_bytes(&stored.row.setup).map_err(|e| undecodable(e.to_string()))?;
        let mut progress = match &live {
            Some(handle) => handle.summary().progress,
            None => durable::progress_from_bytes(&stored.row.summary)
                .map_err(|e| undecodable(e.to_string()))?,
        };
        // The game works out the wire form of what the store kept of its actions and events.
        let game = start_game(&self.games, &setup).map_err(undecodable)?;
        let stored_log =
            durable::log_from_rows(&stored.events, &setup, game.as_ref()).map_err(undecodable)?;
        // The stored log, not the summary, says whether it is over: the summary may trail it.
        let ended = stored_log
            .held()
            .iter()
            .rev()
            .find_map(|e| match (&e.event, &e.kind) {
                (Some(event::MatchEvent::Ended(end)), _) => Some(Ok(end.clone())),
                // A row stored before the core's own format.
                (None, pb::match_event::Kind::MatchEnded(ended)) => ended
                    .result
                    .as_ref()
                    .map(|result| durable::end_from_wire(result, &progress.seats)),
                _ => None,
            });
        if let Some(end) = ended {
            let end = end.map_err(undecodable)?;
            progress.status = end.reason.status();
            progress.result = Some(end);
        }
        let over = progress.status.is_over();
        let events = match live {
            // A hosted match knows which of its steps were hidden, also for steps stored before
            // the store recorded it.
            Some(handle) if !over => handle.events_after(0).await?,
            _ => stored_log.held().to_vec(),
        };
        Ok(Replay {
            setup,
            progress,
            events,
        })
    }
}

/// A match's history, as [`MatchRegistry::replay`] gives it.
#[derive(Clone, Debug)]
pub struct Replay {
    pub setup: MatchSetup,
    /// Where the match stands: its end, once its log has one.
    pub progress: summary::MatchProgress,
    /// The whole log once the match is over; until then, at least what a spectator may see.
    pub events: Vec<Arc<log::LoggedEvent>>,
}

impl Replay {
    /// Once the match is over, its whole history and its seed are shown.
    pub fn is_over(&self) -> bool {
        self.progress.status.is_over()
    }
}

/// A match's summary from its stored setup and progress.
fn stored_summary(setup: &[u8], progress: &[u8]) -> Result<MatchSummary, durable::Undecodable> {
    Ok(MatchSummary {
        setup: Arc::new(durable::setup_from_bytes(setup)?),
        progress: durable::progress_from_bytes(progress)?,
    })
}

/// Matches rebuilt at once after a start. Rebuilding is mostly replaying inputs on the
/// runtime's threads, so a few at a time keep the cores busy; more would crowd out calls.
const REBUILDERS: usize = 4;

/// How the matches one rebuilder brought back fared.
#[derive(Default)]
struct Tally {
    resumed: usize,
    /// The rules no longer reproduce them: kept out of play.
    refused: usize,
    /// Left unloaded (the store could not read them, say): the next call tries again.
    failed: usize,
    /// Hosted by another server (cluster mode).
    elsewhere: usize,
}

/// Rebuilds the unfinished matches of an earlier run after the server has started serving, a
/// few at a time, so their clocks and expiry go on and listings show them as they are; a call
/// that needs one sooner rebuilds it first. A match the rules no longer reproduce is logged
/// and kept out of play.
async fn bring_back(registry: Weak<MatchRegistry>, match_ids: Vec<String>, what: &'static str) {
    if match_ids.is_empty() {
        return;
    }
    let started = tokio::time::Instant::now();
    let total = match_ids.len();
    let queue = Arc::new(std::sync::Mutex::new(match_ids));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..REBUILDERS {
        let (registry, queue) = (registry.clone(), Arc::clone(&queue));
        workers.spawn(async move {
            let mut tally = Tally::default();
            loop {
                let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop();
                let (Some(match_id), Some(registry)) = (next, registry.upgrade()) else {
                    return tally;
                };
                match registry.get(&match_id).await {
                    Ok(_) => tally.resumed += 1,
                    Err(ServiceError::MatchNotRebuildable { .. }) => tally.refused += 1,
                    Err(ServiceError::NotOwner { .. }) => tally.elsewhere += 1,
                    Err(error) => {
                        tally.failed += 1;
                        tracing::warn!(%match_id, %error, "match not brought back");
                    }
                }
                // Rebuilding holds a worker for the replay: let calls through in between.
                tokio::task::yield_now().await;
            }
        });
    }
    let mut all = Tally::default();
    while let Some(joined) = workers.join_next().await {
        // A rebuilder that panicked has logged it; the others carry on.
        let Ok(tally) = joined else { continue };
        all.resumed += tally.resumed;
        all.refused += tally.refused;
        all.failed += tally.failed;
        all.elsewhere += tally.elsewhere;
    }
    tracing::info!(
        total,
        resumed = all.resumed,
        refused = all.refused,
        failed = all.failed,
        elsewhere = all.elsewhere,
        took_ms = started.elapsed().as_millis() as u64,
        "{what}"
    );
}

/// Sweeps for the lapsed leases of other servers' matches every half `ttl` or so (see the
/// module's documentation), while the registry exists and is not handing its matches over.
async fn sweep_lapsed(registry: Weak<MatchRegistry>, ttl: Duration) {
    loop {
        tokio::time::sleep(jittered(ttl / 2)).await;
        let Some(strong) = registry.upgrade() else {
            return;
        };
        if strong.handing_over.load(Ordering::Acquire) {
            return;
        }
        // Nothing could be taken over or deleted: the next sweep after the store is back.
        if !strong.store.writable() {
            continue;
        }
        match sweep_once(&strong).await {
            Ok(unfinished) if !unfinished.is_empty() => {
                drop(strong);
                bring_back(
                    registry.clone(),
                    unfinished,
                    "lapsed matches of another server taken over",
                )
                .await;
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "cannot sweep for lapsed leases now"),
        }
    }
}

/// One sweep: deletes the lapsed leases of matches finished or unknown, and returns the
/// unfinished matches whose leases lapsed, to be taken over.
async fn sweep_once(registry: &MatchRegistry) -> Result<Vec<String>, StoreError> {
    let store = registry.store();
    let lapsed = store.lapsed_leases(MATCH_LEASES, SWEEP_BATCH).await?;
    if lapsed.is_empty() {
        return Ok(Vec::new());
    }
    // Read after the leases: a match can only have become finished since, never unfinished,
    // and one created since took its lease afresh, which the lapsed token cannot release.
    let unfinished: HashSet<String> = store
        .with_status(&[
            MatchStatus::Waiting.to_wire(),
            MatchStatus::Active.to_wire(),
        ])
        .await?
        .into_iter()
        .collect();
    let mut to_take = Vec::new();
    for lease in lapsed {
        let Some(match_id) = leased_match(&lease.name) else {
            continue;
        };
        if unfinished.contains(match_id) {
            to_take.push(match_id.to_owned());
            continue;
        }
        match store.release_lease(&lease).await {
            Ok(()) => tracing::info!(%match_id, "lapsed lease of a match over or gone deleted"),
            // Someone took it meanwhile.
            Err(StoreError::LeaseLost(_)) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(to_take)
}

/// `interval`, give or take a quarter of it, drawn afresh each time.
fn jittered(interval: Duration) -> Duration {
    let mut draw = [0u8; 2];
    // Without randomness the interval is as good, just not spread.
    let _ = getrandom::fill(&mut draw);
    let fraction = f64::from(u16::from_le_bytes(draw)) / f64::from(u16::MAX);
    interval.mul_f64(0.75 + fraction / 2.0)
}

/// Follows the registry's actors as long as it exists: unloads those that retire, and rebuilds
/// the unfinished ones whose store failed once it writes again.
async fn keep_in_memory(
    registry: Weak<MatchRegistry>,
    mut retirements: mpsc::UnboundedReceiver<Retirement>,
    mut health: watch::Receiver<StoreHealth>,
) {
    let mut to_reload = HashSet::new();
    loop {
        let writable = *health.borrow() == StoreHealth::Writable;
        tokio::select! {
            retired = retirements.recv() => {
                let (Some(retired), Some(registry)) = (retired, registry.upgrade()) else {
                    return;
                };
                registry.unload(&retired.match_id);
                if retired.reason == RetireReason::StoreFailed {
                    to_reload.insert(retired.match_id);
                }
            }
            changed = health.changed() => {
                if changed.is_err() {
                    // The store is closed: the server is stopping.
                    return;
                }
            }
            () = tokio::time::sleep(RELOAD_RETRY), if !to_reload.is_empty() && writable => {}
        }
        if !to_reload.is_empty() && *health.borrow() == StoreHealth::Writable {
            let Some(registry) = registry.upgrade() else {
                return;
            };
            let mut still = HashSet::new();
            for match_id in to_reload.drain() {
                match registry.get(&match_id).await {
                    Ok(_) => tracing::info!(%match_id, "match rebuilt after a store failure"),
                    Err(ServiceError::StoreUnavailable(_)) => {
                        still.insert(match_id);
                    }
                    Err(ServiceError::NotOwner { owner, .. }) => {
                        tracing::info!(%match_id, %owner, "match taken over by another server");
                    }
                    Err(error) => tracing::error!(%match_id, %error, "match not rebuilt"),
                }
            }
            to_reload = still;
        }
    }
}

/// Rebuilds a stored match with a fresh game of its variant and starts its actor.
fn rebuild(
    games: &GameRegistry,
    actors: &ActorContext,
    stored: &StoredMatch,
    tenure: Option<Tenure>,
) -> Result<MatchHandle, String> {
    let setup = durable::setup_from_bytes(&stored.row.setup).map_err(|e| e.to_string())?;
    let game = start_game(games, &setup)?;
    actor::restore(stored, game, actors, tenure)
}

/// A fresh game as a match's setup says: what re-playing a match's log starts from.
pub fn start_game(games: &GameRegistry, setup: &MatchSetup) -> Result<Box<dyn HostedGame>, String> {
    games
        .start(
            &setup.variant_id,
            &setup.options,
            setup.chance.seed,
            setup.start_position.clone(),
        )
        .map_err(|e| format!("the game cannot start as stored: {e}"))
}
