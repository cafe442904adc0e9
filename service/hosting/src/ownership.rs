//! Ownership of live matches when several servers share one database (cluster mode).
//!
//! A server hosts a match only while it holds the match's lease (`match/<id>` in the store):
//! it acquires it before creating the match, before rebuilding it from the store, and before
//! resuming it after a start. Every write of the match carries the lease's fencing token, so a
//! server that lost the lease can never write the match again, whatever it still believes.
//!
//! One task per process renews every lease this server holds, every third of the lease's time
//! to live. A lease found lost (another server took it, or renewing failed for a whole time to
//! live, so another server may have taken it) stops its match's actor at once: it writes
//! nothing more, and its callers are told who owns the match now. A match that leaves memory
//! (idle, expired, its store failed) or ends gives its lease up, so another server may take it
//! at once. A server that stops gracefully lets the lease of every match it hosts lapse at
//! once, after its actor has stored its last write, so the next call or the other servers'
//! sweep takes the match over without waiting. A server that dies gives up nothing: its leases lapse after their time to
//! live, and then the next call for one of its matches, on any server, or the survivors' sweep
//! (see the registry), whichever comes first, takes the match over.
//!
//! A non-owner remembers who holds a match's lease for a moment ([`ELSEWHERE_MEMORY`]), so a
//! stream of calls for a match hosted elsewhere (forwarded there one by one) costs one lease
//! read per moment rather than one per call. What it remembers can only be late by that moment:
//! a lease released early (its match ended or left memory) is taken by the next call after it,
//! and one whose holder died lapses later than that anyway.
//!
//! The holder a lease names is `<replica_id>/<run>@<advertise_url>`: the replica, a random
//! word drawn at each start (a restarted server is not its former self, whose leases lapse
//! first), and the URL other servers reach it at, which a non-owner names in its answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crate::error::ServiceError;
use pitchmate_store::{Lease, Store, StoreError, match_lease};

/// What cluster mode needs to know of this server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterSettings {
    /// This server among those sharing the database.
    pub replica_id: String,
    /// The URL the other servers reach this one at.
    pub advertise_url: String,
    /// How long a lease lasts without being renewed: how long a dead server's matches wait
    /// before another server may take them.
    pub lease_ttl: Duration,
}

/// Who holds a match's lease, as a holder names itself (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    pub replica_id: String,
    /// Empty when the holder does not name one (not written by a Pitchmate server).
    pub url: String,
}

impl Owner {
    /// Reads a lease's holder; a holder of another form is taken whole as the replica.
    pub fn from_holder(holder: &str) -> Self {
        let (identity, url) = holder.split_once('@').unwrap_or((holder, ""));
        let replica_id = identity.split_once('/').map_or(identity, |(id, _)| id);
        Self {
            replica_id: replica_id.to_owned(),
            url: url.to_owned(),
        }
    }
}

/// A lease this server holds.
struct Held {
    lease: Lease,
    /// Set to `true` when the lease is found lost; the match's actor stops on it.
    lost: watch::Sender<bool>,
    /// When the last renewal that succeeded was sent, by this server's clock.
    renewed_at: Instant,
}

/// The leases of the matches this server hosts.
pub struct Ownership {
    store: Store,
    holder: String,
    ttl: Duration,
    held: Mutex<HashMap<String, Held>>,
    elsewhere: Mutex<Elsewhere>,
    #[cfg(test)]
    pub(crate) renewals_paused: std::sync::atomic::AtomicBool,
}

/// Leases renewed in one statement: a server holding thousands renews them in a few round
/// trips, where one each fell behind their time to live under load.
const RENEW_BATCH: usize = 500;

/// How long a non-owner answers from what it last read of a lease held elsewhere before it
/// reads the lease again.
pub const ELSEWHERE_MEMORY: Duration = Duration::from_secs(1);

/// Leases held by other servers, as last read: by match id, the holder, its expiry (as the store
/// gives it) and until when to believe it.
#[derive(Default)]
struct Elsewhere {
    leases: HashMap<String, (String, i64, Instant)>,
    /// The size at which stale entries are swept out next.
    sweep_at: usize,
}

impl Elsewhere {
    /// Entries are swept out when the map has doubled since the last sweep, so matches
    /// asked about once do not pile up.
    const MIN_SWEEP: usize = 1024;

    fn remembered(&self, match_id: &str, now: Instant) -> Option<ServiceError> {
        let (holder, until_nanos, believed_until) = self.leases.get(match_id)?;
        (now < *believed_until).then(|| not_owner(match_id, holder, *until_nanos))
    }

    /// Forgets every lease remembered as held by the server at `url`.
    fn forget_owner(&mut self, url: &str) -> usize {
        let before = self.leases.len();
        self.leases
            .retain(|_, (holder, _, _)| Owner::from_holder(holder).url != url);
        before - self.leases.len()
    }

    fn remember(&mut self, match_id: &str, holder: &str, until_nanos: i64, now: Instant) {
        if self.leases.len() >= self.sweep_at.max(Self::MIN_SWEEP) {
            self.leases
                .retain(|_, (_, _, believed_until)| now < *believed_until);
            self.sweep_at = self.leases.len() * 2;
        }
        self.leases.insert(
            match_id.to_owned(),
            (holder.to_owned(), until_nanos, now + ELSEWHERE_MEMORY),
        );
    }
}

/// A match's lease as its actor holds it: the token its writes carry, and word of its loss.
#[derive(Clone, Debug)]
pub struct Tenure {
    match_id: String,
    token: u64,
    lost: watch::Receiver<bool>,
    ownership: Weak<Ownership>,
}

impl Tenure {
    pub fn token(&self) -> u64 {
        self.token
    }

    /// Returns once the lease is found lost; never while it is held or after it was given up.
    pub async fn lost(&mut self) {
        if self.lost.wait_for(|lost| *lost).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Gives the lease up (the match left memory or ended), unless it has moved on already.
    pub fn release(&self) {
        if let Some(ownership) = self.ownership.upgrade() {
            ownership.release(&self.match_id, self.token);
        }
    }

    /// Forgets the lease without writing anything: another server has it.
    pub fn forget(&self) {
        if let Some(ownership) = self.ownership.upgrade() {
            ownership.take(&self.match_id, self.token);
        }
    }
}

impl Ownership {
    /// Leases for this server, renewed by a task that lives as long as the ownership does.
    pub fn start(store: Store, settings: &ClusterSettings) -> Result<Arc<Self>, String> {
        let mut run = [0u8; 4];
        getrandom::fill(&mut run).map_err(|e| format!("no randomness for a run id: {e}"))?;
        let run: String = run.iter().map(|b| format!("{b:02x}")).collect();
        let ownership = Arc::new(Self {
            store,
            holder: format!("{}/{run}@{}", settings.replica_id, settings.advertise_url),
            ttl: settings.lease_ttl,
            held: Mutex::default(),
            elsewhere: Mutex::default(),
            #[cfg(test)]
            renewals_paused: std::sync::atomic::AtomicBool::new(false),
        });
        tokio::spawn(keep_renewing(
            Arc::downgrade(&ownership),
            settings.lease_ttl,
        ));
        Ok(ownership)
    }

    /// The holder this server's leases name.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// How long a lease lasts without being renewed.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The token of the lease of `match_id` if this server holds it but its last successful
    /// renewal was sent a whole time to live ago or more: by now it may have lapsed and been
    /// taken by another server, which this server learns only at its next renewal.
    pub fn overdue(&self, match_id: &str) -> Option<u64> {
        self.lock()
            .get(match_id)
            .filter(|held| held.renewed_at.elapsed() >= self.ttl)
            .map(|held| held.lease.token)
    }

    /// Matches whose lease this server holds.
    pub fn held_count(&self) -> usize {
        self.lock().len()
    }

    /// Forgets what this server remembers of leases held by the server at `url`: that server
    /// could not be reached (it stopped, handing its matches over, or died), so the next call
    /// for one of its matches reads the lease again instead of naming it for the rest of
    /// [`ELSEWHERE_MEMORY`].
    pub fn forget_owner(&self, url: &str) -> usize {
        self.lock_elsewhere().forget_owner(url)
    }

    fn lock_elsewhere(&self) -> std::sync::MutexGuard<'_, Elsewhere> {
        self.elsewhere
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes the lease of `match_id` (free, lapsed or already ours), or says who has it.
    /// A lease found held elsewhere is believed for [`ELSEWHERE_MEMORY`] without reading it
    /// again.
    pub async fn acquire(self: &Arc<Self>, match_id: &str) -> Result<Tenure, ServiceError> {
        let sent = Instant::now();
        if let Some(not_owner) = self.lock_elsewhere().remembered(match_id, sent) {
            self.lose_to_another(match_id);
            return Err(not_owner);
        }
        let lease = self
            .store
            .acquire_lease(&match_lease(match_id), &self.holder, self.ttl)
            .await
            .map_err(|error| match error {
                StoreError::LeaseHeld(held) => {
                    self.lose_to_another(match_id);
                    self.lock_elsewhere()
                        .remember(match_id, &held.holder, held.until_nanos, sent);
                    not_owner(match_id, &held.holder, held.until_nanos)
                }
                other => ServiceError::StoreUnavailable(format!(
                    "the match's lease cannot be taken: {other}"
                )),
            })?;
        let mut held = self.lock();
        let lost = match held.get_mut(match_id) {
            // Ours already (another call took it meanwhile): the actor that has it keeps
            // hearing of its loss.
            Some(entry) if entry.lease.token == lease.token => {
                entry.lease = lease.clone();
                entry.renewed_at = sent;
                entry.lost.subscribe()
            }
            _ => {
                let (lost, receiver) = watch::channel(false);
                let replaced = held.insert(
                    match_id.to_owned(),
                    Held {
                        lease: lease.clone(),
                        lost,
                        renewed_at: sent,
                    },
                );
                // A token we held before and no longer do: its actor must stop.
                if let Some(old) = replaced {
                    let _ = old.lost.send(true);
                }
                receiver
            }
        };
        Ok(Tenure {
            match_id: match_id.to_owned(),
            token: lease.token,
            lost,
            ownership: Arc::downgrade(self),
        })
    }

    /// Forgets the lease of `match_id` if it still has `token`, returning it.
    fn take(&self, match_id: &str, token: u64) -> Option<Lease> {
        let mut held = self.lock();
        match held.get(match_id) {
            Some(entry) if entry.lease.token == token => held.remove(match_id).map(|h| h.lease),
            _ => None,
        }
    }

    fn release(&self, match_id: &str, token: u64) {
        let Some(lease) = self.take(match_id, token) else {
            return;
        };
        let store = self.store.clone();
        tokio::spawn(async move {
            match store.release_lease(&lease).await {
                Ok(()) | Err(StoreError::LeaseLost(_)) => {}
                // It lapses by itself.
                Err(error) => tracing::debug!(%error, lease = %lease.name, "lease not released"),
            }
        });
    }

    /// Hands every lease held over, waiting for each (the server is stopping, and its actors
    /// have stored their last writes): each lapses at once, so another server may take its
    /// match at its next call, and the other servers' sweeps find it and take it without one.
    /// A lease not handed over lapses by itself. Returns how many were handed over.
    pub async fn hand_over_all(&self) -> usize {
        let leases: Vec<Lease> = self.lock().drain().map(|(_, held)| held.lease).collect();
        let mut handed = 0;
        for lease in leases {
            match self.store.expire_lease(&lease).await {
                Ok(()) => handed += 1,
                Err(StoreError::LeaseLost(_)) => {}
                Err(error) => {
                    tracing::warn!(%error, lease = %lease.name, "lease not handed over; it lapses");
                }
            }
        }
        handed
    }

    /// Marks the lease of `match_id` lost whatever its token, if this server believed it
    /// held it: another server holds it now (found when this one tried to take it, its
    /// renewals having fallen behind).
    fn lose_to_another(&self, match_id: &str) {
        let token = self.lock().get(match_id).map(|held| held.lease.token);
        if let Some(token) = token {
            self.lose(match_id, token);
        }
    }

    /// Marks the lease of `match_id` lost if it still has `token`: its actor stops.
    fn lose(&self, match_id: &str, token: u64) {
        let mut held = self.lock();
        if held
            .get(match_id)
            .is_some_and(|entry| entry.lease.token == token)
            && let Some(entry) = held.remove(match_id)
        {
            tracing::warn!(%match_id, token, "lease lost: the match leaves this server");
            let _ = entry.lost.send(true);
        }
    }

    /// Renews every lease held once; those lost, or not renewed for a whole time to live,
    /// stop their actors.
    async fn renew_all(&self) {
        let leases: Vec<(String, Lease, Instant)> = self
            .lock()
            .iter()
            .map(|(id, held)| (id.clone(), held.lease.clone(), held.renewed_at))
            .collect();
        for chunk in leases.chunks(RENEW_BATCH) {
            let batch: Vec<Lease> = chunk.iter().map(|(_, lease, _)| lease.clone()).collect();
            let sent = Instant::now();
            match self.store.renew_leases(&batch, self.ttl).await {
                Ok(answers) => {
                    for ((match_id, lease, _), answer) in chunk.iter().zip(answers) {
                        let Some(renewed) = answer else {
                            self.lose(match_id, lease.token);
                            continue;
                        };
                        if let Some(entry) = self.lock().get_mut(match_id)
                            && entry.lease.token == renewed.token
                        {
                            entry.lease = renewed;
                            entry.renewed_at = sent;
                        }
                    }
                }
                Err(error) => {
                    for (match_id, lease, renewed_at) in chunk {
                        if sent.duration_since(*renewed_at) >= self.ttl {
                            tracing::warn!(%match_id, %error, "lease not renewed within its time to live");
                            self.lose(match_id, lease.token);
                        } else {
                            tracing::debug!(%match_id, %error, "lease not renewed; retrying");
                        }
                    }
                }
            }
        }
    }
}

/// The answer for a match whose lease `holder` has until `until_nanos`.
fn not_owner(match_id: &str, holder: &str, until_nanos: i64) -> ServiceError {
    let owner = Owner::from_holder(holder);
    ServiceError::NotOwner {
        match_id: match_id.to_owned(),
        owner: owner.replica_id,
        owner_url: owner.url,
        until: crate::durable::from_nanos(until_nanos),
    }
}

/// Renews the leases of `ownership` every third of their time to live, while it exists.
async fn keep_renewing(ownership: Weak<Ownership>, ttl: Duration) {
    let mut ticks = tokio::time::interval(ttl / 3);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let Some(ownership) = ownership.upgrade() else {
            return;
        };
        #[cfg(test)]
        if ownership
            .renewals_paused
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            continue;
        }
        ownership.renew_all().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_names_its_replica_and_url() {
        let owner = Owner::from_holder("pitchmate-0/1a2b3c4d@http://pitchmate-0.pitchmate:50051");
        assert_eq!(owner.replica_id, "pitchmate-0");
        assert_eq!(owner.url, "http://pitchmate-0.pitchmate:50051");
        let foreign = Owner::from_holder("scheduler");
        assert_eq!(
            (foreign.replica_id.as_str(), foreign.url.as_str()),
            ("scheduler", "")
        );
    }

    #[test]
    fn a_lease_held_elsewhere_is_believed_for_a_moment_only() {
        let start = Instant::now();
        let mut elsewhere = Elsewhere::default();
        elsewhere.remember("m", "b/00@http://b:1", 7, start);
        let remembered = elsewhere.remembered("m", start + ELSEWHERE_MEMORY / 2);
        let Some(ServiceError::NotOwner {
            owner, owner_url, ..
        }) = remembered
        else {
            panic!("remembered: {remembered:?}");
        };
        assert_eq!((owner.as_str(), owner_url.as_str()), ("b", "http://b:1"));
        assert!(
            elsewhere
                .remembered("m", start + ELSEWHERE_MEMORY)
                .is_none()
        );
        assert!(elsewhere.remembered("other", start).is_none());
    }

    #[test]
    fn an_unreachable_owner_is_forgotten_at_once() {
        let start = Instant::now();
        let mut elsewhere = Elsewhere::default();
        elsewhere.remember("m", "b/00@http://b:1", 7, start);
        elsewhere.remember("n", "c/00@http://c:1", 7, start);
        assert_eq!(elsewhere.forget_owner("http://b:1"), 1);
        assert!(elsewhere.remembered("m", start).is_none());
        assert!(
            elsewhere.remembered("n", start).is_some(),
            "others are kept"
        );
    }

    #[test]
    fn leases_remembered_elsewhere_are_swept_once_stale() {
        let start = Instant::now();
        let mut elsewhere = Elsewhere::default();
        for i in 0..Elsewhere::MIN_SWEEP {
            elsewhere.remember(&format!("old-{i}"), "b/00@http://b:1", 7, start);
        }
        let later = start + ELSEWHERE_MEMORY * 2;
        elsewhere.remember("new", "b/00@http://b:1", 7, later);
        assert_eq!(elsewhere.leases.len(), 1, "only the fresh one is kept");
    }
}
