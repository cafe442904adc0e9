//! Tournaments in SQLite (see `tournaments.rs` for what they promise). Every write here is an
//! immediate transaction on the file's only writer, so a guard read at its start (a
//! tournament's state and rounds paired, an entry's state) is still true when it commits.

use std::collections::HashMap;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ValueRef};
use rusqlite::{OptionalExtension, Transaction, params};

use super::league::append;
use super::matchmaking::insert_assigned;
use super::{SqliteStore, blocking};
use crate::league::{items_per_head, seqs_under_heads};
use crate::matchmaking::AssignedState;
use crate::tournaments::{
    Ending, Entered, EntryRow, EntryState, GameResultRow, NewTournamentLogItem, PairedRound,
    TournamentGameRow, TournamentLogRow, TournamentRoundRow, TournamentRow, TournamentState,
};
use crate::{InboxRow, NewInboxItem, StoreError};

/// Schema 12.
pub(super) const TOURNAMENTS: &str = "
    CREATE TABLE tournaments (
        tournament_id TEXT NOT NULL PRIMARY KEY,
        name TEXT NOT NULL,
        organiser TEXT NOT NULL,
        spec BLOB NOT NULL,
        state INTEGER NOT NULL,
        created_nanos INTEGER NOT NULL,
        starts_nanos INTEGER NOT NULL,
        rounds_paired INTEGER NOT NULL,
        finished_nanos INTEGER,
        end_reason TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX tournaments_by_created ON tournaments (created_nanos, tournament_id);
    CREATE INDEX tournaments_by_state ON tournaments (state, created_nanos, tournament_id);
    CREATE TABLE tournament_entries (
        tournament_id TEXT NOT NULL,
        bot_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        joined_nanos INTEGER NOT NULL,
        first_round INTEGER NOT NULL,
        state INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, bot_id)
    ) WITHOUT ROWID;
    CREATE TABLE tournament_rounds (
        tournament_id TEXT NOT NULL,
        round INTEGER NOT NULL,
        body BLOB NOT NULL,
        paired_nanos INTEGER NOT NULL,
        deadline_nanos INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, round)
    ) WITHOUT ROWID;
    CREATE TABLE tournament_games (
        match_id TEXT NOT NULL PRIMARY KEY,
        tournament_id TEXT NOT NULL,
        round INTEGER NOT NULL,
        first_bot TEXT NOT NULL,
        second_bot TEXT NOT NULL,
        outcome INTEGER,
        ended_nanos INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round, match_id);
    CREATE TABLE tournament_log_heads (
        tournament_id TEXT NOT NULL PRIMARY KEY,
        last_seq INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE tournament_log (
        tournament_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        body BLOB NOT NULL,
        time_nanos INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, seq)
    ) WITHOUT ROWID;
";

const TOURNAMENT_COLUMNS: &str = "tournament_id, name, organiser, spec, state, created_nanos, \
     starts_nanos, rounds_paired, finished_nanos, end_reason";
const ENTRY_COLUMNS: &str = "tournament_id, bot_id, rating, joined_nanos, first_round, state";
const ROUND_COLUMNS: &str = "tournament_id, round, body, paired_nanos, deadline_nanos";
const GAME_COLUMNS: &str =
    "match_id, tournament_id, round, first_bot, second_bot, outcome, ended_nanos";
const LOG_COLUMNS: &str = "tournament_id, seq, kind, body, time_nanos";

impl FromSql for TournamentState {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Self::from_code(i64::column_result(value)?).map_err(|e| FromSqlError::Other(Box::new(e)))
    }
}

impl FromSql for EntryState {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Self::from_code(i64::column_result(value)?).map_err(|e| FromSqlError::Other(Box::new(e)))
    }
}

impl SqliteStore {
    pub async fn create_tournament(
        &self,
        row: TournamentRow,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<bool, StoreError> {
        self.write_directly(move |transaction| {
            let inserted = transaction
                .prepare_cached(&format!(
                    "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT DO NOTHING"
                ))?
                .execute(params![
                    row.tournament_id,
                    row.name,
                    row.organiser,
                    row.spec,
                    row.state.code(),
                    row.created_nanos,
                    row.starts_nanos,
                    row.rounds_paired,
                    row.finished_nanos,
                    row.end_reason,
                ])?;
            if inserted == 0 {
                return Ok(false);
            }
            append_log(transaction, log)?;
            Ok(true)
        })
        .await
    }

    pub async fn tournament(&self, id: String) -> Result<Option<TournamentRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            Ok(connection
                .prepare_cached(&format!(
                    "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE tournament_id = ?1"
                ))?
                .query_row([id], tournament_row)
                .optional()?)
        })
        .await
    }

    pub async fn tournaments(
        &self,
        state: Option<TournamentState>,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let state = state.map(TournamentState::code);
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE (?1 IS NULL OR state = ?1) \
                 ORDER BY created_nanos, tournament_id"
            ))?;
            let rows = statement.query_map([state], tournament_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn enter_tournament(
        &self,
        entry: EntryRow,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Entered, StoreError> {
        self.write_directly(move |transaction| {
            let state: Option<TournamentState> = transaction
                .prepare_cached("SELECT state FROM tournaments WHERE tournament_id = ?1")?
                .query_row([&entry.tournament_id], |r| r.get(0))
                .optional()?;
            match state {
                Some(state) if !state.is_over() => {}
                other => return Ok(Entered::NotOpen(other)),
            }
            let inserted = transaction
                .prepare_cached(&format!(
                    "INSERT INTO tournament_entries ({ENTRY_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING"
                ))?
                .execute(params![
                    entry.tournament_id,
                    entry.bot_id,
                    entry.rating,
                    entry.joined_nanos,
                    entry.first_round,
                    entry.state.code(),
                ])?;
            if inserted == 0 {
                let standing = transaction
                    .prepare_cached(&format!(
                        "SELECT {ENTRY_COLUMNS} FROM tournament_entries \
                         WHERE tournament_id = ?1 AND bot_id = ?2"
                    ))?
                    .query_row([&entry.tournament_id, &entry.bot_id], entry_row)?;
                return Ok(Entered::Already(standing));
            }
            append_log(transaction, log)?;
            Ok(Entered::Done(append(transaction, inbox)?))
        })
        .await
    }

    pub async fn set_entry_state(
        &self,
        tournament_id: String,
        bot_id: String,
        state: EntryState,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<EntryState>, StoreError> {
        self.write_directly(move |transaction| {
            let before: Option<EntryState> = transaction
                .prepare_cached(
                    "SELECT state FROM tournament_entries WHERE tournament_id = ?1 AND bot_id = ?2",
                )?
                .query_row([&tournament_id, &bot_id], |r| r.get(0))
                .optional()?;
            if before.is_none_or(|before| before == state) {
                return Ok(before);
            }
            transaction
                .prepare_cached(
                    "UPDATE tournament_entries SET state = ?3 \
                     WHERE tournament_id = ?1 AND bot_id = ?2",
                )?
                .execute(params![tournament_id, bot_id, state.code()])?;
            append_log(transaction, log)?;
            Ok(before)
        })
        .await
    }

    pub async fn entries(&self, tournament_id: String) -> Result<Vec<EntryRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = ?1 \
                 ORDER BY joined_nanos, bot_id"
            ))?;
            let rows = statement.query_map([tournament_id], entry_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn pair_round(
        &self,
        paired: PairedRound,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        self.write_directly(move |transaction| {
            // The guard, as the statement that moves the count: nothing else is written unless
            // it changed the row.
            let moved = transaction
                .prepare_cached(
                    "UPDATE tournaments SET rounds_paired = ?2 + 1, state = ?4 \
                     WHERE tournament_id = ?1 AND rounds_paired = ?2 AND state IN (?3, ?4)",
                )?
                .execute(params![
                    paired.tournament_id,
                    paired.after,
                    TournamentState::Open.code(),
                    TournamentState::Running.code(),
                ])?;
            if moved == 0 {
                return Ok(None);
            }
            let round = &paired.round;
            transaction
                .prepare_cached(&format!(
                    "INSERT INTO tournament_rounds ({ROUND_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5)"
                ))?
                .execute(params![
                    round.tournament_id,
                    round.round,
                    round.body,
                    round.paired_nanos,
                    round.deadline_nanos,
                ])?;
            for game in &paired.games {
                transaction
                    .prepare_cached(&format!(
                        "INSERT INTO tournament_games ({GAME_COLUMNS}) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                    ))?
                    .execute(params![
                        game.match_id,
                        game.tournament_id,
                        game.round,
                        game.bots[0],
                        game.bots[1],
                        game.outcome,
                        game.ended_nanos,
                    ])?;
            }
            for assigned in paired.assigned {
                let pending = crate::AssignedMatchRow {
                    state: AssignedState::Pending,
                    ..assigned
                };
                insert_assigned(transaction, &pending)?;
            }
            append_log(transaction, paired.log)?;
            Ok(Some(append(transaction, paired.inbox)?))
        })
        .await
    }

    pub async fn finish_tournament(
        &self,
        ending: Ending,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        self.write_directly(move |transaction| {
            let ended = transaction
                .prepare_cached(
                    "UPDATE tournaments SET state = ?2, finished_nanos = ?3, end_reason = ?4 \
                     WHERE tournament_id = ?1 AND state IN (?5, ?6)",
                )?
                .execute(params![
                    ending.tournament_id,
                    ending.state.code(),
                    ending.finished_nanos,
                    ending.end_reason,
                    TournamentState::Open.code(),
                    TournamentState::Running.code(),
                ])?;
            if ended == 0 {
                return Ok(None);
            }
            append_log(transaction, log)?;
            Ok(Some(append(transaction, inbox)?))
        })
        .await
    }

    pub async fn tournament_rounds(
        &self,
        tournament_id: String,
    ) -> Result<Vec<TournamentRoundRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {ROUND_COLUMNS} FROM tournament_rounds WHERE tournament_id = ?1 \
                 ORDER BY round"
            ))?;
            let rows = statement.query_map([tournament_id], |r| {
                Ok(TournamentRoundRow {
                    tournament_id: r.get(0)?,
                    round: r.get(1)?,
                    body: r.get(2)?,
                    paired_nanos: r.get(3)?,
                    deadline_nanos: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn tournament_games(
        &self,
        tournament_id: String,
    ) -> Result<Vec<TournamentGameRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament_id = ?1 \
                 ORDER BY round, match_id"
            ))?;
            let rows = statement.query_map([tournament_id], game_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn tournament_game(
        &self,
        match_id: String,
    ) -> Result<Option<TournamentGameRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            Ok(connection
                .prepare_cached(&format!(
                    "SELECT {GAME_COLUMNS} FROM tournament_games WHERE match_id = ?1"
                ))?
                .query_row([match_id], game_row)
                .optional()?)
        })
        .await
    }

    pub async fn tournament_log_after(
        &self,
        tournament_id: String,
        after: i64,
        limit: i64,
    ) -> Result<Vec<TournamentLogRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {LOG_COLUMNS} FROM tournament_log WHERE tournament_id = ?1 AND seq > ?2 \
                 ORDER BY seq LIMIT ?3"
            ))?;
            let rows = statement.query_map(params![tournament_id, after, limit], |r| {
                Ok(TournamentLogRow {
                    tournament_id: r.get(0)?,
                    seq: r.get::<_, i64>(1)? as u64,
                    kind: r.get(2)?,
                    body: r.get(3)?,
                    time_nanos: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn tournament_log_head(&self, tournament_id: String) -> Result<u64, StoreError> {
        blocking(&self.reader, move |connection| {
            let last: Option<i64> = connection
                .prepare_cached(
                    "SELECT last_seq FROM tournament_log_heads WHERE tournament_id = ?1",
                )?
                .query_row([tournament_id], |r| r.get(0))
                .optional()?;
            Ok(last.unwrap_or(0) as u64)
        })
        .await
    }
}

/// Records how games ended, each only on a game with no outcome yet (a follower step's).
pub(super) fn record_results(
    transaction: &Transaction<'_>,
    results: &[GameResultRow],
) -> Result<(), StoreError> {
    for result in results {
        transaction
            .prepare_cached(
                "UPDATE tournament_games SET outcome = ?2, ended_nanos = ?3 \
                 WHERE match_id = ?1 AND outcome IS NULL",
            )?
            .execute(params![result.match_id, result.outcome, result.ended_nanos])?;
    }
    Ok(())
}

/// Appends `items` to their tournaments' logs: each tournament's head moves past its items,
/// which take the seqs it moved over (as inboxes are numbered: see `league.rs`).
pub(super) fn append_log(
    transaction: &Transaction<'_>,
    items: Vec<NewTournamentLogItem>,
) -> Result<Vec<TournamentLogRow>, StoreError> {
    let counts = items_per_head(items.iter().map(|item| item.tournament_id.as_str()));
    let mut lasts = HashMap::with_capacity(counts.len());
    for (tournament_id, count) in &counts {
        let last: i64 = transaction
            .prepare_cached(
                "INSERT INTO tournament_log_heads (tournament_id, last_seq) VALUES (?1, ?2) \
                 ON CONFLICT (tournament_id) DO UPDATE \
                 SET last_seq = last_seq + excluded.last_seq RETURNING last_seq",
            )?
            .query_row(params![tournament_id, count], |r| r.get(0))?;
        lasts.insert(tournament_id.clone(), last);
    }
    let seqs = seqs_under_heads(
        items.iter().map(|item| item.tournament_id.as_str()),
        &counts,
        &lasts,
    )?;
    let mut rows = Vec::with_capacity(items.len());
    for (item, seq) in items.into_iter().zip(seqs) {
        let row = TournamentLogRow {
            tournament_id: item.tournament_id,
            seq,
            kind: item.kind,
            body: item.body,
            time_nanos: item.time_nanos,
        };
        transaction
            .prepare_cached(&format!(
                "INSERT INTO tournament_log ({LOG_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5)"
            ))?
            .execute(params![
                row.tournament_id,
                row.seq as i64,
                row.kind,
                row.body,
                row.time_nanos,
            ])?;
        rows.push(row);
    }
    Ok(rows)
}

fn tournament_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<TournamentRow> {
    Ok(TournamentRow {
        tournament_id: r.get(0)?,
        name: r.get(1)?,
        organiser: r.get(2)?,
        spec: r.get(3)?,
        state: r.get(4)?,
        created_nanos: r.get(5)?,
        starts_nanos: r.get(6)?,
        rounds_paired: r.get(7)?,
        finished_nanos: r.get(8)?,
        end_reason: r.get(9)?,
    })
}

fn entry_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<EntryRow> {
    Ok(EntryRow {
        tournament_id: r.get(0)?,
        bot_id: r.get(1)?,
        rating: r.get(2)?,
        joined_nanos: r.get(3)?,
        first_round: r.get(4)?,
        state: r.get(5)?,
    })
}

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<TournamentGameRow> {
    Ok(TournamentGameRow {
        match_id: r.get(0)?,
        tournament_id: r.get(1)?,
        round: r.get(2)?,
        bots: [r.get(3)?, r.get(4)?],
        outcome: r.get(5)?,
        ended_nanos: r.get(6)?,
    })
}
