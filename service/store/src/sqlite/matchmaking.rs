//! Challenges, assigned matches and acceptance policies in SQLite (see `matchmaking.rs` for
//! what they promise). The writer is the file's only writer and every transaction here is
//! immediate, so a cap counted in one is still true when it commits.

use rusqlite::{OptionalExtension, Transaction, params};

use super::league::append;
use super::{SqliteStore, blocking};
use crate::matchmaking::{
    AssignedMatchRow, AssignedState, BotCaps, BotLoad, ChallengeFilter, ChallengeRow,
    ChallengeState, Resolution, Resolved,
};
use crate::{InboxRow, NewInboxItem, StoreError};

/// Schema 9.
pub(super) const MATCHMAKING: &str = "
    CREATE TABLE challenges (
        challenge_id TEXT NOT NULL PRIMARY KEY,
        challenger TEXT NOT NULL,
        target TEXT,
        terms BLOB NOT NULL,
        created_nanos INTEGER NOT NULL,
        expires_nanos INTEGER NOT NULL,
        state INTEGER NOT NULL,
        responder TEXT,
        decline_reason INTEGER NOT NULL,
        match_id TEXT,
        resolved_nanos INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX challenges_by_challenger ON challenges (challenger, state);
    CREATE INDEX challenges_by_target ON challenges (target, state);
    CREATE INDEX challenges_open_by_expiry ON challenges (expires_nanos) WHERE state = 1;
    CREATE TABLE assigned_matches (
        match_id TEXT NOT NULL PRIMARY KEY,
        first_bot TEXT NOT NULL,
        second_bot TEXT NOT NULL,
        pool TEXT NOT NULL,
        terms BLOB NOT NULL,
        assigned_nanos INTEGER NOT NULL,
        state INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX assigned_by_first ON assigned_matches (first_bot, assigned_nanos);
    CREATE INDEX assigned_by_second ON assigned_matches (second_bot, assigned_nanos);
    CREATE INDEX assigned_unfinished ON assigned_matches (state) WHERE state < 3;
    CREATE TABLE bot_policies (
        bot_id TEXT NOT NULL PRIMARY KEY,
        policy BLOB NOT NULL
    ) WITHOUT ROWID;
";

const CHALLENGE_COLUMNS: &str = "challenge_id, challenger, target, terms, created_nanos, \
     expires_nanos, state, responder, decline_reason, match_id, resolved_nanos";
const ASSIGNED_COLUMNS: &str =
    "match_id, first_bot, second_bot, pool, terms, assigned_nanos, state";

/// A bot's live and today's matches: those assigned to it, and those it joined itself (its
/// seats in matches no league assigned).
const LOAD: &str = "
    SELECT
        (SELECT COUNT(*) FROM assigned_matches
            WHERE (first_bot = ?1 OR second_bot = ?1) AND state < 3)
        + (SELECT COUNT(*) FROM bot_seats s WHERE s.bot_id = ?1 AND s.live
            AND NOT EXISTS (SELECT 1 FROM assigned_matches a WHERE a.match_id = s.match_id)),
        (SELECT COUNT(*) FROM assigned_matches
            WHERE (first_bot = ?1 OR second_bot = ?1) AND assigned_nanos >= ?2)
        + (SELECT COUNT(*) FROM bot_seats s WHERE s.bot_id = ?1 AND s.time_nanos >= ?2
            AND NOT EXISTS (SELECT 1 FROM assigned_matches a WHERE a.match_id = s.match_id))";

/// [`LOAD`] for every bot with a live match or one today, in one statement.
const LOADS: &str = "
    SELECT bot_id, SUM(live), SUM(today) FROM (
        SELECT first_bot AS bot_id, state < 3 AS live, assigned_nanos >= ?1 AS today
            FROM assigned_matches WHERE state < 3 OR assigned_nanos >= ?1
        UNION ALL
        SELECT second_bot, state < 3, assigned_nanos >= ?1
            FROM assigned_matches WHERE state < 3 OR assigned_nanos >= ?1
        UNION ALL
        SELECT s.bot_id, s.live, s.time_nanos >= ?1 FROM bot_seats s
            WHERE (s.live OR s.time_nanos >= ?1)
            AND NOT EXISTS (SELECT 1 FROM assigned_matches a WHERE a.match_id = s.match_id)
    ) GROUP BY bot_id ORDER BY bot_id";

impl SqliteStore {
    pub async fn bot_loads(&self, day_start: i64) -> Result<Vec<(String, BotLoad)>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(LOADS)?;
            let rows = statement.query_map([day_start], |r| {
                Ok((
                    r.get(0)?,
                    BotLoad {
                        live: r.get::<_, i64>(1)? as u64,
                        today: r.get::<_, i64>(2)? as u64,
                    },
                ))
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn create_challenge(
        &self,
        challenge: ChallengeRow,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        self.write_directly(move |transaction| {
            transaction
                .prepare_cached(&format!(
                    "INSERT INTO challenges ({CHALLENGE_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
                ))?
                .execute(params![
                    challenge.challenge_id,
                    challenge.challenger,
                    challenge.target,
                    challenge.terms,
                    challenge.created_nanos,
                    challenge.expires_nanos,
                    challenge.state.code(),
                    challenge.responder,
                    challenge.decline_reason,
                    challenge.match_id,
                    challenge.resolved_nanos,
                ])?;
            append(transaction, inbox)
        })
        .await
    }

    pub async fn resolve_challenge(&self, resolution: Resolution) -> Result<Resolved, StoreError> {
        self.write_directly(move |transaction| {
            let state: Option<i64> = transaction
                .prepare_cached("SELECT state FROM challenges WHERE challenge_id = ?1")?
                .query_row([&resolution.challenge_id], |r| r.get(0))
                .optional()?;
            match state.map(ChallengeState::from_code).transpose()? {
                Some(ChallengeState::Open) => {}
                other => return Ok(Resolved::NotOpen(other)),
            }
            let match_id = resolution
                .assigned
                .as_ref()
                .map(|(m, _)| m.match_id.clone());
            if let Some((assigned, caps)) = resolution.assigned {
                if let Some(over) = over_cap(transaction, &caps)? {
                    return Ok(over);
                }
                insert_assigned(transaction, &assigned)?;
            }
            transaction
                .prepare_cached(
                    "UPDATE challenges SET state = ?2, responder = ?3, decline_reason = ?4, \
                     match_id = ?5, resolved_nanos = ?6 WHERE challenge_id = ?1",
                )?
                .execute(params![
                    resolution.challenge_id,
                    resolution.state.code(),
                    resolution.responder,
                    resolution.decline_reason,
                    match_id,
                    resolution.resolved_nanos,
                ])?;
            Ok(Resolved::Done(append(transaction, resolution.inbox)?))
        })
        .await
    }

    pub async fn challenge(&self, id: String) -> Result<Option<ChallengeRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            connection
                .prepare_cached(&format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE challenge_id = ?1"
                ))?
                .query_row([id], raw_challenge)
                .optional()?
                .map(challenge_row)
                .transpose()
        })
        .await
    }

    pub async fn challenges(
        &self,
        filter: ChallengeFilter,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        use rusqlite::types::Value::{Integer, Text};
        let open = ChallengeState::Open.code();
        let (condition, values) = match filter {
            ChallengeFilter::Of {
                bot_id,
                open_only: true,
            } => (
                "(challenger = ?1 OR target = ?1) AND state = ?2",
                vec![Text(bot_id), Integer(open)],
            ),
            ChallengeFilter::Of {
                bot_id,
                open_only: false,
            } => ("challenger = ?1 OR target = ?1", vec![Text(bot_id)]),
            ChallengeFilter::OpenToAny => ("target IS NULL AND state = ?1", vec![Integer(open)]),
            ChallengeFilter::ExpiredBy(at) => (
                "state = ?1 AND expires_nanos < ?2",
                vec![Integer(open), Integer(at)],
            ),
        };
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE {condition} \
                 ORDER BY created_nanos, challenge_id"
            ))?;
            let rows = statement
                .query_map(rusqlite::params_from_iter(values), raw_challenge)?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(challenge_row).collect()
        })
        .await
    }

    pub async fn assigned_matches(
        &self,
        state: AssignedState,
    ) -> Result<Vec<AssignedMatchRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {ASSIGNED_COLUMNS} FROM assigned_matches WHERE state = ?1 \
                 ORDER BY assigned_nanos, match_id"
            ))?;
            let rows = statement
                .query_map([state.code()], raw_assigned)?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(assigned_row).collect()
        })
        .await
    }

    pub async fn assigned_to(&self, bot_id: String) -> Result<Vec<AssignedMatchRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {ASSIGNED_COLUMNS} FROM assigned_matches \
                 WHERE (first_bot = ?1 OR second_bot = ?1) AND state < 3 \
                 ORDER BY assigned_nanos, match_id"
            ))?;
            let rows = statement
                .query_map([bot_id], raw_assigned)?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(assigned_row).collect()
        })
        .await
    }

    pub async fn assigned_match(
        &self,
        match_id: String,
    ) -> Result<Option<AssignedMatchRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            connection
                .prepare_cached(&format!(
                    "SELECT {ASSIGNED_COLUMNS} FROM assigned_matches WHERE match_id = ?1"
                ))?
                .query_row([match_id], raw_assigned)
                .optional()?
                .map(assigned_row)
                .transpose()
        })
        .await
    }

    pub async fn mark_assigned(
        &self,
        match_id: String,
        from: AssignedState,
        to: AssignedState,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        self.write_directly(move |transaction| {
            let changed = transaction
                .prepare_cached(
                    "UPDATE assigned_matches SET state = ?3 WHERE match_id = ?1 AND state = ?2",
                )?
                .execute(params![match_id, from.code(), to.code()])?;
            if changed == 0 {
                return Ok(None);
            }
            Ok(Some(append(transaction, inbox)?))
        })
        .await
    }

    pub async fn bot_load(&self, bot_id: String, day_start: i64) -> Result<BotLoad, StoreError> {
        blocking(&self.reader, move |connection| {
            Ok(load(connection, &bot_id, day_start)?)
        })
        .await
    }

    pub async fn set_policy(
        &self,
        bot_id: String,
        policy: Option<Vec<u8>>,
    ) -> Result<(), StoreError> {
        self.write_directly(move |transaction| {
            match policy {
                Some(policy) => transaction
                    .prepare_cached(
                        "INSERT INTO bot_policies (bot_id, policy) VALUES (?1, ?2) \
                         ON CONFLICT (bot_id) DO UPDATE SET policy = excluded.policy",
                    )?
                    .execute(params![bot_id, policy])?,
                None => transaction
                    .prepare_cached("DELETE FROM bot_policies WHERE bot_id = ?1")?
                    .execute([bot_id])?,
            };
            Ok(())
        })
        .await
    }

    pub async fn policy(&self, bot_id: String) -> Result<Option<Vec<u8>>, StoreError> {
        blocking(&self.reader, move |connection| {
            Ok(connection
                .prepare_cached("SELECT policy FROM bot_policies WHERE bot_id = ?1")?
                .query_row([bot_id], |r| r.get(0))
                .optional()?)
        })
        .await
    }
}

fn load(
    connection: &rusqlite::Connection,
    bot_id: &str,
    day_start: i64,
) -> rusqlite::Result<BotLoad> {
    connection
        .prepare_cached(LOAD)?
        .query_row(params![bot_id, day_start], |r| {
            Ok(BotLoad {
                live: r.get::<_, i64>(0)? as u64,
                today: r.get::<_, i64>(1)? as u64,
            })
        })
}

/// The first bot whose caps leave no room for one more match, as a refusal.
pub(super) fn over_cap(
    transaction: &Transaction<'_>,
    caps: &[BotCaps],
) -> Result<Option<Resolved>, StoreError> {
    for cap in caps {
        let load = load(transaction, &cap.bot_id, cap.day_start_nanos)?;
        if !cap.admits(load) {
            return Ok(Some(Resolved::OverCap {
                bot_id: cap.bot_id.clone(),
                load,
            }));
        }
    }
    Ok(None)
}

pub(super) fn insert_assigned(
    transaction: &Transaction<'_>,
    assigned: &AssignedMatchRow,
) -> Result<(), StoreError> {
    transaction
        .prepare_cached(&format!(
            "INSERT INTO assigned_matches ({ASSIGNED_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
        ))?
        .execute(params![
            assigned.match_id,
            assigned.bots[0],
            assigned.bots[1],
            assigned.pool,
            assigned.terms,
            assigned.assigned_nanos,
            assigned.state.code(),
        ])?;
    Ok(())
}

type RawChallenge = (
    String,
    String,
    Option<String>,
    Vec<u8>,
    i64,
    i64,
    i64,
    Option<String>,
    u32,
    Option<String>,
    Option<i64>,
);

fn raw_challenge(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawChallenge> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
        r.get(10)?,
    ))
}

fn challenge_row(raw: RawChallenge) -> Result<ChallengeRow, StoreError> {
    let (id, challenger, target, terms, created, expires, state, responder, reason, match_id, at) =
        raw;
    Ok(ChallengeRow {
        challenge_id: id,
        challenger,
        target,
        terms,
        created_nanos: created,
        expires_nanos: expires,
        state: ChallengeState::from_code(state)?,
        responder,
        decline_reason: reason,
        match_id,
        resolved_nanos: at,
    })
}

type RawAssigned = (String, String, String, String, Vec<u8>, i64, i64);

fn raw_assigned(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawAssigned> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
    ))
}

fn assigned_row(raw: RawAssigned) -> Result<AssignedMatchRow, StoreError> {
    let (match_id, first, second, pool, terms, assigned_nanos, state) = raw;
    Ok(AssignedMatchRow {
        match_id,
        bots: [first, second],
        pool,
        terms,
        assigned_nanos,
        state: AssignedState::from_code(state)?,
    })
}
