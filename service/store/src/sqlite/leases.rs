//! Leases in SQLite (see `leases.rs`). One process owns the file, so the database's clock is
//! this machine's: expiries are nanoseconds since the Unix epoch, compared with the system
//! clock read inside each transaction. Every change takes the file's write lock before it
//! reads (see `write_directly`), so two stores on one file still grant a lease to one of them.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{OptionalExtension, Transaction, params};

use super::{SqliteStore, blocking};
use crate::StoreError;
use crate::leases::{Acquired, Lease, LeaseHeld, LeaseLost};

/// Schema 13. `lease_tokens` holds the last token handed out, for every lease: a lease released
/// (its row deleted) and taken again gets a token greater than any before it.
pub(super) const LEASES: &str = "
    CREATE TABLE lease_tokens (last INTEGER NOT NULL);
    INSERT INTO lease_tokens (last) VALUES (0);
    CREATE TABLE leases (
        name TEXT NOT NULL PRIMARY KEY,
        holder TEXT NOT NULL,
        token INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
";

fn now_nanos() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_nanos()).unwrap_or(i64::MAX)
        })
}

fn expiry(ttl_micros: i64) -> i64 {
    now_nanos().saturating_add(ttl_micros.saturating_mul(1_000))
}

fn next_token(transaction: &Transaction<'_>) -> Result<u64, StoreError> {
    let token: i64 = transaction
        .prepare_cached("UPDATE lease_tokens SET last = last + 1 RETURNING last")?
        .query_row([], |r| r.get(0))?;
    Ok(token as u64)
}

fn lost(lease: &Lease) -> StoreError {
    LeaseLost {
        name: lease.name.clone(),
        token: lease.token,
    }
    .into()
}

impl SqliteStore {
    pub async fn acquire_lease(
        &self,
        name: String,
        holder: String,
        ttl_micros: i64,
    ) -> Result<Acquired, StoreError> {
        self.write_directly(move |transaction| {
            let now = now_nanos();
            let current: Option<(String, i64, i64)> = transaction
                .prepare_cached("SELECT holder, token, expires_at FROM leases WHERE name = ?1")?
                .query_row([&name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?;
            let expires_at_nanos = expiry(ttl_micros);
            match current {
                Some((other, _, until)) if until > now && other != holder => Err(LeaseHeld {
                    name,
                    holder: other,
                    until_nanos: until,
                }
                .into()),
                Some((_, token, until)) if until > now => {
                    transaction
                        .prepare_cached("UPDATE leases SET expires_at = ?2 WHERE name = ?1")?
                        .execute(params![name, expires_at_nanos])?;
                    Ok(Acquired::Renewed(Lease {
                        name,
                        holder,
                        token: token as u64,
                        expires_at_nanos,
                    }))
                }
                _ => {
                    let token = next_token(transaction)?;
                    transaction
                        .prepare_cached(
                            "INSERT OR REPLACE INTO leases (name, holder, token, expires_at) \
                             VALUES (?1, ?2, ?3, ?4)",
                        )?
                        .execute(params![name, holder, token as i64, expires_at_nanos])?;
                    Ok(Acquired::New(Lease {
                        name,
                        holder,
                        token,
                        expires_at_nanos,
                    }))
                }
            }
        })
        .await
    }

    pub async fn renew_lease(&self, lease: Lease, ttl_micros: i64) -> Result<Lease, StoreError> {
        self.write_directly(move |transaction| {
            let expires_at_nanos = expiry(ttl_micros);
            let renewed = transaction
                .prepare_cached("UPDATE leases SET expires_at = ?3 WHERE name = ?1 AND token = ?2")?
                .execute(params![lease.name, lease.token as i64, expires_at_nanos])?;
            if renewed == 0 {
                return Err(lost(&lease));
            }
            Ok(Lease {
                expires_at_nanos,
                ..lease
            })
        })
        .await
    }

    pub async fn renew_leases(
        &self,
        leases: Vec<Lease>,
        ttl_micros: i64,
    ) -> Result<Vec<Option<Lease>>, StoreError> {
        self.write_directly(move |transaction| {
            let expires_at_nanos = expiry(ttl_micros);
            let mut renew = transaction.prepare_cached(
                "UPDATE leases SET expires_at = ?3 WHERE name = ?1 AND token = ?2",
            )?;
            let mut renewed = Vec::with_capacity(leases.len());
            for lease in leases {
                let changed =
                    renew.execute(params![lease.name, lease.token as i64, expires_at_nanos])?;
                renewed.push((changed > 0).then_some(Lease {
                    expires_at_nanos,
                    ..lease
                }));
            }
            Ok(renewed)
        })
        .await
    }

    pub async fn release_lease(&self, lease: Lease) -> Result<(), StoreError> {
        self.write_directly(move |transaction| {
            let deleted = transaction
                .prepare_cached("DELETE FROM leases WHERE name = ?1 AND token = ?2")?
                .execute(params![lease.name, lease.token as i64])?;
            if deleted == 0 {
                return Err(lost(&lease));
            }
            Ok(())
        })
        .await
    }

    pub async fn expire_lease(&self, lease: Lease) -> Result<(), StoreError> {
        self.write_directly(move |transaction| {
            let expired = transaction
                .prepare_cached(
                    "UPDATE leases SET expires_at = MIN(expires_at, ?3) \
                     WHERE name = ?1 AND token = ?2",
                )?
                .execute(params![lease.name, lease.token as i64, now_nanos()])?;
            if expired == 0 {
                return Err(lost(&lease));
            }
            Ok(())
        })
        .await
    }

    pub async fn lease_holder(&self, name: String) -> Result<Option<Lease>, StoreError> {
        blocking(&self.reader, move |connection| {
            let found = connection
                .prepare_cached(
                    "SELECT holder, token, expires_at FROM leases \
                     WHERE name = ?1 AND expires_at > ?2",
                )?
                .query_row(params![name, now_nanos()], |r| {
                    Ok((r.get(0)?, r.get::<_, i64>(1)?, r.get(2)?))
                })
                .optional()?;
            Ok(found.map(|(holder, token, expires_at_nanos)| Lease {
                name,
                holder,
                token: token as u64,
                expires_at_nanos,
            }))
        })
        .await
    }
}

impl SqliteStore {
    pub async fn lapsed_leases(
        &self,
        prefix: String,
        limit: i64,
    ) -> Result<Vec<Lease>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(
                "SELECT name, holder, token, expires_at FROM leases \
                 WHERE substr(name, 1, length(?1)) = ?1 AND expires_at <= ?2 \
                 ORDER BY expires_at, name LIMIT ?3",
            )?;
            let rows = statement.query_map(params![prefix, now_nanos(), limit], |r| {
                Ok(Lease {
                    name: r.get(0)?,
                    holder: r.get(1)?,
                    token: r.get::<_, i64>(2)? as u64,
                    expires_at_nanos: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }
}

/// The current tokens of the leases `names`; one with no row is missing from the map. The
/// batch's transaction holds the file's write lock, so they stay current until it commits.
pub(super) fn fences(
    transaction: &Transaction<'_>,
    names: &[String],
) -> Result<HashMap<String, u64>, StoreError> {
    let mut statement = transaction.prepare_cached("SELECT token FROM leases WHERE name = ?1")?;
    let mut tokens = HashMap::new();
    for name in names {
        if let Some(token) = statement
            .query_row([name], |r| r.get::<_, i64>(0))
            .optional()?
        {
            tokens.insert(name.clone(), token as u64);
        }
    }
    Ok(tokens)
}
