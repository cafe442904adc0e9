//! Challenges, assigned matches and acceptance policies in PostgreSQL (see `matchmaking.rs` for
//! what they promise). Several servers may share the database: resolving a challenge locks its
//! row first, so two answers to one challenge take turns and the second finds it resolved; an
//! assignment locks its bots' rows (in bot id order, so two never wait on each other) before it
//! counts their matches, so two assignments of one bot take turns and the second counts the
//! first.

use tokio_postgres::{GenericClient, Row, Transaction};

use super::league::append;
use super::{PostgresStore, within};
use crate::matchmaking::{
    AssignedMatchRow, AssignedState, BotCaps, BotLoad, ChallengeFilter, ChallengeRow,
    ChallengeState, Resolution, Resolved,
};
use crate::{InboxRow, NewInboxItem, StoreError};

/// Schema 9.
pub(super) const MATCHMAKING: &str = "
    CREATE TABLE challenges (
        challenge_id TEXT COLLATE \"C\" PRIMARY KEY,
        challenger TEXT COLLATE \"C\" NOT NULL,
        target TEXT COLLATE \"C\",
        terms BYTEA NOT NULL,
        created_nanos BIGINT NOT NULL,
        expires_nanos BIGINT NOT NULL,
        state BIGINT NOT NULL,
        responder TEXT,
        decline_reason BIGINT NOT NULL,
        match_id TEXT,
        resolved_nanos BIGINT
    );
    CREATE INDEX challenges_by_challenger ON challenges (challenger, state);
    CREATE INDEX challenges_by_target ON challenges (target, state);
    CREATE INDEX challenges_open_by_expiry ON challenges (expires_nanos) WHERE state = 1;
    CREATE TABLE assigned_matches (
        match_id TEXT COLLATE \"C\" PRIMARY KEY,
        first_bot TEXT COLLATE \"C\" NOT NULL,
        second_bot TEXT COLLATE \"C\" NOT NULL,
        pool TEXT NOT NULL,
        terms BYTEA NOT NULL,
        assigned_nanos BIGINT NOT NULL,
        state BIGINT NOT NULL
    );
    CREATE INDEX assigned_by_first ON assigned_matches (first_bot, assigned_nanos);
    CREATE INDEX assigned_by_second ON assigned_matches (second_bot, assigned_nanos);
    CREATE INDEX assigned_unfinished ON assigned_matches (state) WHERE state < 3;
    CREATE TABLE bot_policies (
        bot_id TEXT COLLATE \"C\" PRIMARY KEY,
        policy BYTEA NOT NULL
    );
";

const CHALLENGE_COLUMNS: &str = "challenge_id, challenger, target, terms, created_nanos, \
     expires_nanos, state, responder, decline_reason, match_id, resolved_nanos";
const ASSIGNED_COLUMNS: &str =
    "match_id, first_bot, second_bot, pool, terms, assigned_nanos, state";

/// See the SQLite twin.
const LOAD: &str = "
    SELECT
        (SELECT COUNT(*) FROM assigned_matches
            WHERE (first_bot = $1 OR second_bot = $1) AND state < 3)
        + (SELECT COUNT(*) FROM bot_seats s WHERE s.bot_id = $1 AND s.live
            AND NOT EXISTS (SELECT 1 FROM assigned_matches a WHERE a.match_id = s.match_id)),
        (SELECT COUNT(*) FROM assigned_matches
            WHERE (first_bot = $1 OR second_bot = $1) AND assigned_nanos >= $2)
        + (SELECT COUNT(*) FROM bot_seats s WHERE s.bot_id = $1 AND s.time_nanos >= $2
            AND NOT EXISTS (SELECT 1 FROM assigned_matches a WHERE a.match_id = s.match_id))";

/// [`LOAD`] for every bot with a live match or one today, in one statement.
const LOADS: &str = "
    SELECT bot_id, SUM(live)::BIGINT, SUM(today)::BIGINT FROM (
        SELECT first_bot AS bot_id, (state < 3)::INT AS live, (assigned_nanos >= $1)::INT AS today
            FROM assigned_matches WHERE state < 3 OR assigned_nanos >= $1
        UNION ALL
        SELECT second_bot, (state < 3)::INT, (assigned_nanos >= $1)::INT
            FROM assigned_matches WHERE state < 3 OR assigned_nanos >= $1
        UNION ALL
        SELECT s.bot_id, s.live::INT, (s.time_nanos >= $1)::INT FROM bot_seats s
            WHERE (s.live OR s.time_nanos >= $1)
            AND NOT EXISTS (SELECT 1 FROM assigned_matches a WHERE a.match_id = s.match_id)
    ) AS loads GROUP BY bot_id ORDER BY bot_id";

impl PostgresStore {
    pub async fn bot_loads(&self, day_start: i64) -> Result<Vec<(String, BotLoad)>, StoreError> {
        self.reader
            .read(|client| async move {
                Ok(client
                    .query(LOADS, &[&day_start])
                    .await?
                    .iter()
                    .map(|r| {
                        (
                            r.get(0),
                            BotLoad {
                                live: r.get::<_, i64>(1) as u64,
                                today: r.get::<_, i64>(2) as u64,
                            },
                        )
                    })
                    .collect())
            })
            .await
    }

    pub async fn create_challenge(
        &self,
        challenge: ChallengeRow,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let reason = i64::from(challenge.decline_reason);
            transaction
                .execute(
                    &format!(
                        "INSERT INTO challenges ({CHALLENGE_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                    ),
                    &[
                        &challenge.challenge_id,
                        &challenge.challenger,
                        &challenge.target,
                        &challenge.terms,
                        &challenge.created_nanos,
                        &challenge.expires_nanos,
                        &challenge.state.code(),
                        &challenge.responder,
                        &reason,
                        &challenge.match_id,
                        &challenge.resolved_nanos,
                    ],
                )
                .await?;
            let rows = append(&transaction, &self.changes, inbox).await?;
            transaction.commit().await?;
            Ok(rows)
        })
        .await
    }

    pub async fn resolve_challenge(&self, resolution: Resolution) -> Result<Resolved, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let state = transaction
                .query_opt(
                    "SELECT state FROM challenges WHERE challenge_id = $1 FOR UPDATE",
                    &[&resolution.challenge_id],
                )
                .await?
                .map(|row| ChallengeState::from_code(row.get(0)))
                .transpose()?;
            if state != Some(ChallengeState::Open) {
                return Ok(Resolved::NotOpen(state));
            }
            let match_id = resolution
                .assigned
                .as_ref()
                .map(|(m, _)| m.match_id.clone());
            if let Some((assigned, caps)) = &resolution.assigned {
                if let Some(over) = over_cap(&transaction, caps).await? {
                    return Ok(over);
                }
                insert_assigned(&transaction, assigned).await?;
            }
            let reason = i64::from(resolution.decline_reason);
            transaction
                .execute(
                    "UPDATE challenges SET state = $2, responder = $3, decline_reason = $4, \
                     match_id = $5, resolved_nanos = $6 WHERE challenge_id = $1",
                    &[
                        &resolution.challenge_id,
                        &resolution.state.code(),
                        &resolution.responder,
                        &reason,
                        &match_id,
                        &resolution.resolved_nanos,
                    ],
                )
                .await?;
            let rows = append(&transaction, &self.changes, resolution.inbox).await?;
            transaction.commit().await?;
            Ok(Resolved::Done(rows))
        })
        .await
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql =
                    format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE challenge_id = $1");
                client
                    .query_opt(&sql, &[&id])
                    .await?
                    .as_ref()
                    .map(challenge_row)
                    .transpose()
            })
            .await
    }

    pub async fn challenges(
        &self,
        filter: ChallengeFilter,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let open = ChallengeState::Open.code();
        let filter = &filter;
        self.reader
            .read(|client| async move {
                let order = "ORDER BY created_nanos, challenge_id";
                let rows = match filter {
                    ChallengeFilter::Of { bot_id, open_only } => {
                        let state = if *open_only { " AND state = $2" } else { "" };
                        let sql = format!(
                            "SELECT {CHALLENGE_COLUMNS} FROM challenges \
                             WHERE (challenger = $1 OR target = $1){state} {order}"
                        );
                        if *open_only {
                            client.query(&sql, &[bot_id, &open]).await?
                        } else {
                            client.query(&sql, &[bot_id]).await?
                        }
                    }
                    ChallengeFilter::OpenToAny => {
                        let sql = format!(
                            "SELECT {CHALLENGE_COLUMNS} FROM challenges \
                             WHERE target IS NULL AND state = $1 {order}"
                        );
                        client.query(&sql, &[&open]).await?
                    }
                    ChallengeFilter::ExpiredBy(at) => {
                        let sql = format!(
                            "SELECT {CHALLENGE_COLUMNS} FROM challenges \
                             WHERE state = $1 AND expires_nanos < $2 {order}"
                        );
                        client.query(&sql, &[&open, at]).await?
                    }
                };
                rows.iter().map(challenge_row).collect()
            })
            .await
    }

    pub async fn assigned_matches(
        &self,
        state: AssignedState,
    ) -> Result<Vec<AssignedMatchRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {ASSIGNED_COLUMNS} FROM assigned_matches WHERE state = $1 \
                     ORDER BY assigned_nanos, match_id"
                );
                client
                    .query(&sql, &[&state.code()])
                    .await?
                    .iter()
                    .map(assigned_row)
                    .collect()
            })
            .await
    }

    pub async fn assigned_to(&self, bot_id: &str) -> Result<Vec<AssignedMatchRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {ASSIGNED_COLUMNS} FROM assigned_matches \
                     WHERE (first_bot = $1 OR second_bot = $1) AND state < 3 \
                     ORDER BY assigned_nanos, match_id"
                );
                client
                    .query(&sql, &[&bot_id])
                    .await?
                    .iter()
                    .map(assigned_row)
                    .collect()
            })
            .await
    }

    pub async fn assigned_match(
        &self,
        match_id: &str,
    ) -> Result<Option<AssignedMatchRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql =
                    format!("SELECT {ASSIGNED_COLUMNS} FROM assigned_matches WHERE match_id = $1");
                client
                    .query_opt(&sql, &[&match_id])
                    .await?
                    .as_ref()
                    .map(assigned_row)
                    .transpose()
            })
            .await
    }

    pub async fn mark_assigned(
        &self,
        match_id: &str,
        from: AssignedState,
        to: AssignedState,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let changed = transaction
                .execute(
                    "UPDATE assigned_matches SET state = $3 WHERE match_id = $1 AND state = $2",
                    &[&match_id, &from.code(), &to.code()],
                )
                .await?;
            if changed == 0 {
                return Ok(None);
            }
            let rows = append(&transaction, &self.changes, inbox).await?;
            transaction.commit().await?;
            Ok(Some(rows))
        })
        .await
    }

    pub async fn bot_load(&self, bot_id: &str, day_start: i64) -> Result<BotLoad, StoreError> {
        self.reader
            .read(|client| async move { load(&*client, bot_id, day_start).await })
            .await
    }

    pub async fn set_policy(
        &self,
        bot_id: &str,
        policy: Option<Vec<u8>>,
    ) -> Result<(), StoreError> {
        let client = self.direct_writer().await?;
        within(async {
            match policy {
                Some(policy) => {
                    client
                        .execute(
                            "INSERT INTO bot_policies (bot_id, policy) VALUES ($1, $2) \
                             ON CONFLICT (bot_id) DO UPDATE SET policy = EXCLUDED.policy",
                            &[&bot_id, &policy],
                        )
                        .await?
                }
                None => {
                    client
                        .execute("DELETE FROM bot_policies WHERE bot_id = $1", &[&bot_id])
                        .await?
                }
            };
            Ok(())
        })
        .await
    }

    pub async fn policy(&self, bot_id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.reader
            .read(|client| async move {
                Ok(client
                    .query_opt(
                        "SELECT policy FROM bot_policies WHERE bot_id = $1",
                        &[&bot_id],
                    )
                    .await?
                    .map(|row| row.get(0)))
            })
            .await
    }
}

async fn load(
    client: &impl GenericClient,
    bot_id: &str,
    day_start: i64,
) -> Result<BotLoad, StoreError> {
    let row = client.query_one(LOAD, &[&bot_id, &day_start]).await?;
    Ok(BotLoad {
        live: row.get::<_, i64>(0) as u64,
        today: row.get::<_, i64>(1) as u64,
    })
}

/// Locks the bots' rows, then finds the first whose caps leave no room for one more match.
pub(super) async fn over_cap(
    transaction: &Transaction<'_>,
    caps: &[BotCaps],
) -> Result<Option<Resolved>, StoreError> {
    let mut bots: Vec<&str> = caps.iter().map(|c| c.bot_id.as_str()).collect();
    bots.sort_unstable();
    transaction
        .query(
            "SELECT bot_id FROM bots WHERE bot_id = ANY($1) ORDER BY bot_id FOR UPDATE",
            &[&bots],
        )
        .await?;
    for cap in caps {
        let load = load(transaction, &cap.bot_id, cap.day_start_nanos).await?;
        if !cap.admits(load) {
            return Ok(Some(Resolved::OverCap {
                bot_id: cap.bot_id.clone(),
                load,
            }));
        }
    }
    Ok(None)
}

pub(super) async fn insert_assigned(
    transaction: &Transaction<'_>,
    assigned: &AssignedMatchRow,
) -> Result<(), StoreError> {
    transaction
        .execute(
            &format!(
                "INSERT INTO assigned_matches ({ASSIGNED_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)"
            ),
            &[
                &assigned.match_id,
                &assigned.bots[0],
                &assigned.bots[1],
                &assigned.pool,
                &assigned.terms,
                &assigned.assigned_nanos,
                &assigned.state.code(),
            ],
        )
        .await?;
    Ok(())
}

fn challenge_row(row: &Row) -> Result<ChallengeRow, StoreError> {
    let reason: i64 = row.get(8);
    Ok(ChallengeRow {
        challenge_id: row.get(0),
        challenger: row.get(1),
        target: row.get(2),
        terms: row.get(3),
        created_nanos: row.get(4),
        expires_nanos: row.get(5),
        state: ChallengeState::from_code(row.get(6))?,
        responder: row.get(7),
        decline_reason: u32::try_from(reason)
            .map_err(|_| StoreError::Database(format!("decline reason {reason}")))?,
        match_id: row.get(9),
        resolved_nanos: row.get(10),
    })
}

fn assigned_row(row: &Row) -> Result<AssignedMatchRow, StoreError> {
    Ok(AssignedMatchRow {
        match_id: row.get(0),
        bots: [row.get(1), row.get(2)],
        pool: row.get(3),
        terms: row.get(4),
        assigned_nanos: row.get(5),
        state: AssignedState::from_code(row.get(6))?,
    })
}
