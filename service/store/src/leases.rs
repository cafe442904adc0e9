//! Leases (schema 13): named, expiring claims a server holds in the database, so that several
//! servers sharing one database agree on which of them does a thing: hosts a match (the lease
//! [`match_lease`] names), or schedules the league.
//!
//! A lease has a holder (a server's id, unique to one run of one process), an expiry and a
//! fencing token. Tokens come from one counter for all leases and strictly increase: a lease
//! gets a new one whenever it is granted afresh (it was free, released, or expired, whoever
//! takes it), and keeps its token while its holder acquires or renews it again in time. So a
//! token is never given out twice, and a token that is not the lease's current one belongs to
//! a holder that lost it. Writes of a match may carry their writer's token, and the store
//! refuses each one whose token is no longer the match's lease's (see [`StoreError::Fenced`]).
//!
//! Expiry is judged by the database's clock: PostgreSQL's `now()`, never a server's, so
//! servers whose clocks disagree still agree on when a lease lapsed; with SQLite the database
//! and the server are one process on one machine. A lapsed lease keeps its token until an
//! acquisition (by anyone, its holder included) grants it afresh: until then its holder may
//! still renew it, and its writes still commit, since no one else can have written meanwhile.
//!
//! Leases are written outside the group commit, each change a transaction of its own on the
//! writer's connection, and not while the store is unwritable.

use std::collections::HashMap;
use std::time::Duration;

use super::{Backend, LifecycleRow, Store, StoreError, Write, metrics};

/// A lease as granted: `token` fences the holder's writes until the lease moves on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub name: String,
    pub holder: String,
    pub token: u64,
    /// When it lapses unless renewed, by the database's clock: nanoseconds since the Unix
    /// epoch.
    pub expires_at_nanos: i64,
}

/// Another holder has the lease and it has not lapsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the lease {name} is held by {holder} until {until_nanos} ns after the Unix epoch")]
pub struct LeaseHeld {
    pub name: String,
    pub holder: String,
    /// The lease's expiry by the database's clock, nanoseconds since the Unix epoch.
    pub until_nanos: i64,
}

/// The lease no longer has this token: another holder took it, or it was released.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the lease {name} no longer has the token {token}: it was taken or released")]
pub struct LeaseLost {
    pub name: String,
    pub token: u64,
}

/// What every match's lease name starts with (see [`match_lease`]).
pub const MATCH_LEASES: &str = "match/";

/// The name of the lease that owns a match, which fences the match's writes.
pub fn match_lease(match_id: &str) -> String {
    format!("{MATCH_LEASES}{match_id}")
}

/// The match a lease named by [`match_lease`] owns; `None` for a lease of anything else.
pub fn leased_match(lease_name: &str) -> Option<&str> {
    lease_name
        .strip_prefix(MATCH_LEASES)
        .filter(|match_id| !match_id.is_empty())
}

/// The lease under which one server at a time schedules the leagues.
pub const SCHEDULER_LEASE: &str = "league/scheduler";

/// The lease names a batch's fenced writes need checked, each once.
pub(crate) fn fenced_leases(batch: &[Write]) -> Vec<String> {
    let mut names: Vec<String> = batch
        .iter()
        .filter(|write| write.fence().is_some())
        .map(|write| match_lease(write.match_id()))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// What a batch's transaction writes, and what its callers hear once it commits.
pub(crate) struct Admitted {
    pub writes: Vec<Write>,
    pub committed: Committed,
}

/// What came of a committed batch.
pub(crate) struct Committed {
    /// Each write's answer, in the batch's order: a fenced write refused, the others written.
    pub outcomes: Vec<Result<(), StoreError>>,
    /// The lifecycle entries of the writes written, numbered as committed.
    pub lifecycle: Vec<LifecycleRow>,
}

/// Decides, inside a batch's transaction, which of its writes go ahead: every unfenced one,
/// and a fenced one only if `tokens` (the current token of each lease of [`fenced_leases`],
/// read under a lock that holds until the commit) has its token. Then numbers the lifecycle
/// entries of those going ahead on from `first_position`, so a refused write leaves no gap.
pub(crate) fn admit(
    batch: Vec<Write>,
    tokens: &HashMap<String, u64>,
    first_position: u64,
) -> Admitted {
    let mut writes = Vec::with_capacity(batch.len());
    let mut outcomes = Vec::with_capacity(batch.len());
    for write in batch {
        match write.fence() {
            Some(token) if tokens.get(&match_lease(write.match_id())) != Some(&token) => {
                outcomes.push(Err(StoreError::Fenced {
                    match_id: write.match_id().to_owned(),
                    token,
                }));
            }
            _ => {
                writes.push(write);
                outcomes.push(Ok(()));
            }
        }
    }
    let rows = writes.iter_mut().flat_map(Write::lifecycle_mut);
    let mut lifecycle = Vec::new();
    for (position, row) in (first_position..).zip(rows) {
        row.position = position;
        lifecycle.push(row.clone());
    }
    Admitted {
        writes,
        committed: Committed {
            outcomes,
            lifecycle,
        },
    }
}

/// What an acquisition did.
pub(crate) enum Acquired {
    /// Granted afresh, with a new token.
    New(Lease),
    /// Already the holder's: the same token, a new expiry.
    Renewed(Lease),
}

/// A lease's time to live in microseconds (PostgreSQL's resolution), refusing one too short to
/// mean anything or too long to add to a time.
pub(crate) fn ttl_micros(ttl: Duration) -> Result<i64, StoreError> {
    const LONGEST: Duration = Duration::from_secs(365 * 24 * 3600);
    if ttl < Duration::from_millis(1) || ttl > LONGEST {
        return Err(StoreError::Database(format!(
            "a lease's time to live must be from 1 ms to a year, not {ttl:?}"
        )));
    }
    Ok(ttl.as_micros() as i64)
}

/// Refuses an empty lease name or holder: neither could be told apart from none.
fn check_names(name: &str, holder: &str) -> Result<(), StoreError> {
    if name.is_empty() || holder.is_empty() {
        return Err(StoreError::Database(format!(
            "a lease needs a name and a holder, not {name:?} held by {holder:?}"
        )));
    }
    Ok(())
}

fn count(change: &'static str) {
    ::metrics::counter!(metrics::LEASE_CHANGES, "change" => change).increment(1);
}

impl Backend {
    async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        ttl_micros: i64,
    ) -> Result<Acquired, StoreError> {
        match self {
            Self::Sqlite(store) => {
                store
                    .acquire_lease(name.to_owned(), holder.to_owned(), ttl_micros)
                    .await
            }
            Self::Postgres(store) => store.acquire_lease(name, holder, ttl_micros).await,
        }
    }

    async fn renew_lease(&self, lease: &Lease, ttl_micros: i64) -> Result<Lease, StoreError> {
        match self {
            Self::Sqlite(store) => store.renew_lease(lease.clone(), ttl_micros).await,
            Self::Postgres(store) => store.renew_lease(lease, ttl_micros).await,
        }
    }

    async fn renew_leases(
        &self,
        leases: &[Lease],
        ttl_micros: i64,
    ) -> Result<Vec<Option<Lease>>, StoreError> {
        match self {
            Self::Sqlite(store) => store.renew_leases(leases.to_vec(), ttl_micros).await,
            Self::Postgres(store) => store.renew_leases(leases, ttl_micros).await,
        }
    }

    async fn release_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.release_lease(lease.clone()).await,
            Self::Postgres(store) => store.release_lease(lease).await,
        }
    }

    async fn expire_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.expire_lease(lease.clone()).await,
            Self::Postgres(store) => store.expire_lease(lease).await,
        }
    }

    async fn lease_holder(&self, name: &str) -> Result<Option<Lease>, StoreError> {
        match self {
            Self::Sqlite(store) => store.lease_holder(name.to_owned()).await,
            Self::Postgres(store) => store.lease_holder(name).await,
        }
    }

    async fn lapsed_leases(&self, prefix: &str, limit: usize) -> Result<Vec<Lease>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        match self {
            Self::Sqlite(store) => store.lapsed_leases(prefix.to_owned(), limit).await,
            Self::Postgres(store) => store.lapsed_leases(prefix, limit).await,
        }
    }
}

impl Store {
    /// Grants the lease `name` to `holder` for `ttl` when it is free, released or lapsed (with
    /// a new token), or already `holder`'s (renewed: the same token, expiring `ttl` from now).
    /// [`StoreError::LeaseHeld`] while another holder has it.
    pub async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        check_names(name, holder)?;
        let ttl = ttl_micros(ttl)?;
        self.may_write()?;
        match self.backend.acquire_lease(name, holder, ttl).await? {
            Acquired::New(lease) => {
                count("acquired");
                Ok(lease)
            }
            Acquired::Renewed(lease) => {
                count("renewed");
                Ok(lease)
            }
        }
    }

    /// Moves the lease's expiry to `ttl` from now if it still has `lease.token`, lapsed or not;
    /// [`StoreError::LeaseLost`] once another holder took it or it was released.
    pub async fn renew_lease(&self, lease: &Lease, ttl: Duration) -> Result<Lease, StoreError> {
        let ttl = ttl_micros(ttl)?;
        self.may_write()?;
        let renewed = self.backend.renew_lease(lease, ttl).await;
        count(match &renewed {
            Ok(_) => "renewed",
            Err(StoreError::LeaseLost(_)) => "lost",
            Err(_) => return renewed,
        });
        renewed
    }

    /// Renews `leases` as [`Store::renew_lease`] renews one, in one statement: a server renews
    /// every lease it holds at once rather than one round trip each, which would fall behind
    /// their time to live under load. Each answer, in `leases`' order, is the lease renewed, or
    /// `None` once another holder took it or it was released.
    pub async fn renew_leases(
        &self,
        leases: &[Lease],
        ttl: Duration,
    ) -> Result<Vec<Option<Lease>>, StoreError> {
        if leases.is_empty() {
            return Ok(Vec::new());
        }
        let ttl = ttl_micros(ttl)?;
        self.may_write()?;
        let renewed = self.backend.renew_leases(leases, ttl).await?;
        for answer in &renewed {
            count(if answer.is_some() { "renewed" } else { "lost" });
        }
        Ok(renewed)
    }

    /// Gives the lease up if it still has `lease.token`, so another holder may take it at
    /// once; [`StoreError::LeaseLost`] (nothing changed) once it has not.
    pub async fn release_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        self.may_write()?;
        let released = self.backend.release_lease(lease).await;
        count(match &released {
            Ok(()) => "released",
            Err(StoreError::LeaseLost(_)) => "lost",
            Err(_) => return released,
        });
        released
    }

    /// Lets the lease lapse now if it still has `lease.token`: anyone may take it at once, and
    /// it is listed among [`Store::lapsed_leases`] until someone does, so a server sweeping for
    /// what others left finds it (a server handing its matches over). [`StoreError::LeaseLost`]
    /// (nothing changed) once it has not.
    pub async fn expire_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        self.may_write()?;
        let expired = self.backend.expire_lease(lease).await;
        count(match &expired {
            Ok(()) => "expired",
            Err(StoreError::LeaseLost(_)) => "lost",
            Err(_) => return expired,
        });
        expired
    }

    /// The lease `name` as its holder has it now, or `None` when it is free, released or has
    /// lapsed (by the database's clock).
    pub async fn lease_holder(&self, name: &str) -> Result<Option<Lease>, StoreError> {
        self.backend.lease_holder(name).await
    }

    /// Up to `limit` leases whose names start with `prefix` and that have lapsed (by the
    /// database's clock) without anyone taking them since, the longest lapsed first, each with
    /// the token it still has: what a server that died left behind. Releasing one with that
    /// token deletes it unless someone took it meanwhile.
    pub async fn lapsed_leases(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<Lease>, StoreError> {
        self.backend.lapsed_leases(prefix, limit).await
    }
}
