//! Leases in PostgreSQL (see `leases.rs`). Every decision about expiry compares with the
//! database's `now()`, and each change is one statement that PostgreSQL runs atomically against
//! other servers' changes of the same row, so of many servers acquiring one lease at once
//! exactly one is granted it.
//!
//! A batch with fenced writes locks the leases of their matches (`FOR SHARE`) in its own
//! transaction before it writes: a change of one of those leases waits until the batch has
//! committed, and a batch that locks after the change sees its new token and refuses the stale
//! writes. So a write commits only while its token is current.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio_postgres::{Row, Statement, Transaction};

use super::{PostgresStore, within};
use crate::StoreError;
use crate::leases::{Acquired, Lease, LeaseHeld, LeaseLost};

/// Schema 13. Tokens come from one sequence: never handed out twice, even by a rolled back
/// transaction, so a lease released (its row deleted) and taken again gets a token greater
/// than any before it.
pub(super) const LEASES: &str = "
    CREATE SEQUENCE lease_tokens;
    CREATE TABLE leases (
        name TEXT COLLATE \"C\" PRIMARY KEY,
        holder TEXT NOT NULL,
        token BIGINT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    );
";

/// Grants the lease unless another holder has it unexpired. A fresh token is drawn each time
/// (gaps are fine) and kept only when the lease is granted afresh; `fresh` tells which.
const ACQUIRE: &str = "
    WITH fresh AS (SELECT nextval('lease_tokens') AS token)
    INSERT INTO leases AS l (name, holder, token, expires_at)
    SELECT $1, $2, fresh.token, now() + $3 * INTERVAL '1 microsecond' FROM fresh
    ON CONFLICT (name) DO UPDATE SET
        holder = EXCLUDED.holder,
        token = CASE WHEN l.holder = EXCLUDED.holder AND l.expires_at > now()
                     THEN l.token ELSE EXCLUDED.token END,
        expires_at = EXCLUDED.expires_at
    WHERE l.holder = EXCLUDED.holder OR l.expires_at <= now()
    RETURNING l.token, l.expires_at, l.token = (SELECT token FROM fresh)
";

/// How often an acquisition that found the lease neither grantable nor held (it changed between
/// the two statements) tries again before giving up.
const ACQUIRE_ATTEMPTS: usize = 3;

fn nanos(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_nanos()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_nanos()).unwrap_or(i64::MAX),
    }
}

fn token(row: &Row, column: usize) -> u64 {
    row.get::<_, i64>(column) as u64
}

impl PostgresStore {
    pub async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        ttl_micros: i64,
    ) -> Result<Acquired, StoreError> {
        let client = self.direct_writer().await?;
        within(async {
            for _ in 0..ACQUIRE_ATTEMPTS {
                if let Some(row) = client
                    .query_opt(ACQUIRE, &[&name, &holder, &(ttl_micros as f64)])
                    .await?
                {
                    let lease = Lease {
                        name: name.to_owned(),
                        holder: holder.to_owned(),
                        token: token(&row, 0),
                        expires_at_nanos: nanos(row.get(1)),
                    };
                    return Ok(if row.get(2) {
                        Acquired::New(lease)
                    } else {
                        Acquired::Renewed(lease)
                    });
                }
                if let Some(row) = client
                    .query_opt(
                        "SELECT holder, expires_at FROM leases \
                         WHERE name = $1 AND holder <> $2 AND expires_at > now()",
                        &[&name, &holder],
                    )
                    .await?
                {
                    return Err(LeaseHeld {
                        name: name.to_owned(),
                        holder: row.get(0),
                        until_nanos: nanos(row.get(1)),
                    }
                    .into());
                }
            }
            Err(StoreError::Database(format!(
                "postgresql: the lease {name} changed under {ACQUIRE_ATTEMPTS} attempts to \
                 acquire it"
            )))
        })
        .await
    }

    pub async fn renew_lease(&self, lease: &Lease, ttl_micros: i64) -> Result<Lease, StoreError> {
        let client = self.direct_writer().await?;
        let row = within(async {
            Ok(client
                .query_opt(
                    "UPDATE leases SET expires_at = now() + $3 * INTERVAL '1 microsecond' \
                     WHERE name = $1 AND token = $2 RETURNING expires_at",
                    &[&lease.name, &(lease.token as i64), &(ttl_micros as f64)],
                )
                .await?)
        })
        .await?;
        match row {
            Some(row) => Ok(Lease {
                expires_at_nanos: nanos(row.get(0)),
                ..lease.clone()
            }),
            None => Err(lost(lease)),
        }
    }

    pub async fn renew_leases(
        &self,
        leases: &[Lease],
        ttl_micros: i64,
    ) -> Result<Vec<Option<Lease>>, StoreError> {
        let names: Vec<&str> = leases.iter().map(|lease| lease.name.as_str()).collect();
        let tokens: Vec<i64> = leases.iter().map(|lease| lease.token as i64).collect();
        let client = self.direct_writer().await?;
        let rows = within(async {
            Ok(client
                .query(
                    "UPDATE leases AS l SET expires_at = now() + $3 * INTERVAL '1 microsecond' \
                     FROM unnest($1::text[], $2::bigint[]) AS r(name, token) \
                     WHERE l.name = r.name AND l.token = r.token \
                     RETURNING l.name, l.token, l.expires_at",
                    &[&names, &tokens, &(ttl_micros as f64)],
                )
                .await?)
        })
        .await?;
        let renewed: std::collections::HashMap<(String, i64), i64> = rows
            .iter()
            .map(|row| ((row.get(0), row.get(1)), nanos(row.get(2))))
            .collect();
        Ok(leases
            .iter()
            .map(|lease| {
                renewed
                    .get(&(lease.name.clone(), lease.token as i64))
                    .map(|&expires_at_nanos| Lease {
                        expires_at_nanos,
                        ..lease.clone()
                    })
            })
            .collect())
    }

    pub async fn release_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        let client = self.direct_writer().await?;
        let deleted = within(async {
            Ok(client
                .execute(
                    "DELETE FROM leases WHERE name = $1 AND token = $2",
                    &[&lease.name, &(lease.token as i64)],
                )
                .await?)
        })
        .await?;
        if deleted == 0 {
            return Err(lost(lease));
        }
        Ok(())
    }

    pub async fn expire_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        let client = self.direct_writer().await?;
        let expired = within(async {
            Ok(client
                .execute(
                    "UPDATE leases SET expires_at = LEAST(expires_at, now()) \
                     WHERE name = $1 AND token = $2",
                    &[&lease.name, &(lease.token as i64)],
                )
                .await?)
        })
        .await?;
        if expired == 0 {
            return Err(lost(lease));
        }
        Ok(())
    }

    pub async fn lease_holder(&self, name: &str) -> Result<Option<Lease>, StoreError> {
        self.reader
            .read(|client| async move {
                let row = client
                    .query_opt(
                        "SELECT holder, token, expires_at FROM leases \
                         WHERE name = $1 AND expires_at > now()",
                        &[&name],
                    )
                    .await?;
                Ok(row.map(|row| Lease {
                    name: name.to_owned(),
                    holder: row.get(0),
                    token: token(&row, 1),
                    expires_at_nanos: nanos(row.get(2)),
                }))
            })
            .await
    }
}

impl PostgresStore {
    pub async fn lapsed_leases(&self, prefix: &str, limit: i64) -> Result<Vec<Lease>, StoreError> {
        self.reader
            .read(|client| async move {
                let rows = client
                    .query(
                        "SELECT name, holder, token, expires_at FROM leases \
                         WHERE left(name, char_length($1)) = $1 AND expires_at <= now() \
                         ORDER BY expires_at, name LIMIT $2",
                        &[&prefix, &limit],
                    )
                    .await?;
                Ok(rows
                    .iter()
                    .map(|row| Lease {
                        name: row.get(0),
                        holder: row.get(1),
                        token: token(row, 2),
                        expires_at_nanos: nanos(row.get(3)),
                    })
                    .collect())
            })
            .await
    }
}

fn lost(lease: &Lease) -> StoreError {
    LeaseLost {
        name: lease.name.clone(),
        token: lease.token,
    }
    .into()
}

/// Reads the tokens of the leases a batch's fenced writes name, locking them.
pub(super) const LOCK_LEASES: &str =
    "SELECT name, token FROM leases WHERE name = ANY($1) FOR SHARE";

/// The current tokens of the leases `names`, each locked against change until `transaction`
/// ends; a lease with no row is missing from the map.
pub(super) async fn lock_fences(
    transaction: &Transaction<'_>,
    lock_leases: &Statement,
    names: &[String],
) -> Result<HashMap<String, u64>, StoreError> {
    let rows = transaction.query(lock_leases, &[&names]).await?;
    Ok(rows.iter().map(|row| (row.get(0), token(row, 1))).collect())
}
