//! Tournaments in PostgreSQL (see `tournaments.rs` for what they promise). Several servers may
//! share the database, so each guard is a row lock taken before anything is written: a decision
//! about a tournament (an entry, a round, its end) takes the tournament's row first, by the
//! statement that guards it, so two decisions about one tournament take turns and the second
//! sees what the first wrote (a round paired after the same count is found stale, an entry made
//! twice is found there); an entry's state change takes the entry's row.
//!
//! After those rows every transaction that writes here, follower steps included, takes its
//! other locks in one order: game rows, then log heads (in tournament id order), then inbox
//! heads (in bot id order, see `league.rs`). No two transactions wait on each other in a circle.

use std::collections::{HashMap, HashSet};

use tokio_postgres::{Row, Transaction};

use super::league::append;
use super::{PostgresStore, within};
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
        tournament_id TEXT COLLATE \"C\" PRIMARY KEY,
        name TEXT NOT NULL,
        organiser TEXT NOT NULL,
        spec BYTEA NOT NULL,
        state BIGINT NOT NULL,
        created_nanos BIGINT NOT NULL,
        starts_nanos BIGINT NOT NULL,
        rounds_paired BIGINT NOT NULL,
        finished_nanos BIGINT,
        end_reason TEXT NOT NULL
    );
    CREATE INDEX tournaments_by_created ON tournaments (created_nanos, tournament_id);
    CREATE INDEX tournaments_by_state ON tournaments (state, created_nanos, tournament_id);
    CREATE TABLE tournament_entries (
        tournament_id TEXT COLLATE \"C\" NOT NULL,
        bot_id TEXT COLLATE \"C\" NOT NULL,
        rating INTEGER NOT NULL,
        joined_nanos BIGINT NOT NULL,
        first_round BIGINT NOT NULL,
        state BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, bot_id)
    );
    CREATE TABLE tournament_rounds (
        tournament_id TEXT COLLATE \"C\" NOT NULL,
        round BIGINT NOT NULL,
        body BYTEA NOT NULL,
        paired_nanos BIGINT NOT NULL,
        deadline_nanos BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, round)
    );
    CREATE TABLE tournament_games (
        match_id TEXT COLLATE \"C\" PRIMARY KEY,
        tournament_id TEXT COLLATE \"C\" NOT NULL,
        round BIGINT NOT NULL,
        first_bot TEXT NOT NULL,
        second_bot TEXT NOT NULL,
        outcome BIGINT,
        ended_nanos BIGINT
    );
    CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round, match_id);
    CREATE TABLE tournament_log_heads (
        tournament_id TEXT COLLATE \"C\" PRIMARY KEY,
        last_seq BIGINT NOT NULL
    );
    CREATE TABLE tournament_log (
        tournament_id TEXT COLLATE \"C\" NOT NULL,
        seq BIGINT NOT NULL,
        kind BIGINT NOT NULL,
        body BYTEA NOT NULL,
        time_nanos BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, seq)
    );
";

const TOURNAMENT_COLUMNS: &str = "tournament_id, name, organiser, spec, state, created_nanos, \
     starts_nanos, rounds_paired, finished_nanos, end_reason";
const ENTRY_COLUMNS: &str = "tournament_id, bot_id, rating, joined_nanos, first_round, state";
const ROUND_COLUMNS: &str = "tournament_id, round, body, paired_nanos, deadline_nanos";
const GAME_COLUMNS: &str =
    "match_id, tournament_id, round, first_bot, second_bot, outcome, ended_nanos";
const LOG_COLUMNS: &str = "tournament_id, seq, kind, body, time_nanos";

impl PostgresStore {
    pub async fn create_tournament(
        &self,
        row: TournamentRow,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<bool, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let inserted = transaction
                .execute(
                    &format!(
                        "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING"
                    ),
                    &[
                        &row.tournament_id,
                        &row.name,
                        &row.organiser,
                        &row.spec,
                        &row.state.code(),
                        &row.created_nanos,
                        &row.starts_nanos,
                        &i64::from(row.rounds_paired),
                        &row.finished_nanos,
                        &row.end_reason,
                    ],
                )
                .await?;
            if inserted == 0 {
                return Ok(false);
            }
            append_log(&transaction, &self.changes, log).await?;
            transaction.commit().await?;
            Ok(true)
        })
        .await
    }

    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE tournament_id = $1"
                );
                client
                    .query_opt(&sql, &[&id])
                    .await?
                    .as_ref()
                    .map(tournament_row)
                    .transpose()
            })
            .await
    }

    pub async fn tournaments(
        &self,
        state: Option<TournamentState>,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let state = state.map(TournamentState::code);
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {TOURNAMENT_COLUMNS} FROM tournaments \
                     WHERE ($1::BIGINT IS NULL OR state = $1) \
                     ORDER BY created_nanos, tournament_id"
                );
                client
                    .query(&sql, &[&state])
                    .await?
                    .iter()
                    .map(tournament_row)
                    .collect()
            })
            .await
    }

    pub async fn enter_tournament(
        &self,
        entry: EntryRow,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Entered, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let state = transaction
                .query_opt(
                    "SELECT state FROM tournaments WHERE tournament_id = $1 FOR UPDATE",
                    &[&entry.tournament_id],
                )
                .await?
                .map(|row| TournamentState::from_code(row.get(0)))
                .transpose()?;
            match state {
                Some(state) if !state.is_over() => {}
                other => return Ok(Entered::NotOpen(other)),
            }
            let inserted = transaction
                .execute(
                    &format!(
                        "INSERT INTO tournament_entries ({ENTRY_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING"
                    ),
                    &[
                        &entry.tournament_id,
                        &entry.bot_id,
                        &entry.rating,
                        &entry.joined_nanos,
                        &i64::from(entry.first_round),
                        &entry.state.code(),
                    ],
                )
                .await?;
            if inserted == 0 {
                let sql = format!(
                    "SELECT {ENTRY_COLUMNS} FROM tournament_entries \
                     WHERE tournament_id = $1 AND bot_id = $2"
                );
                let standing = transaction
                    .query_one(&sql, &[&entry.tournament_id, &entry.bot_id])
                    .await?;
                return Ok(Entered::Already(entry_row(&standing)?));
            }
            append_log(&transaction, &self.changes, log).await?;
            let rows = append(&transaction, &self.changes, inbox).await?;
            transaction.commit().await?;
            Ok(Entered::Done(rows))
        })
        .await
    }

    pub async fn set_entry_state(
        &self,
        tournament_id: &str,
        bot_id: &str,
        state: EntryState,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<EntryState>, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let before = transaction
                .query_opt(
                    "SELECT state FROM tournament_entries \
                     WHERE tournament_id = $1 AND bot_id = $2 FOR UPDATE",
                    &[&tournament_id, &bot_id],
                )
                .await?
                .map(|row| EntryState::from_code(row.get(0)))
                .transpose()?;
            if before.is_none_or(|before| before == state) {
                return Ok(before);
            }
            transaction
                .execute(
                    "UPDATE tournament_entries SET state = $3 \
                     WHERE tournament_id = $1 AND bot_id = $2",
                    &[&tournament_id, &bot_id, &state.code()],
                )
                .await?;
            append_log(&transaction, &self.changes, log).await?;
            transaction.commit().await?;
            Ok(before)
        })
        .await
    }

    pub async fn entries(&self, tournament_id: &str) -> Result<Vec<EntryRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = $1 \
                     ORDER BY joined_nanos, bot_id"
                );
                client
                    .query(&sql, &[&tournament_id])
                    .await?
                    .iter()
                    .map(entry_row)
                    .collect()
            })
            .await
    }

    pub async fn pair_round(
        &self,
        paired: PairedRound,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            // The guard, as the statement that moves the count. A second writer of the round
            // waits here for the first to commit, then finds the count moved on.
            let after = i64::from(paired.after);
            let moved = transaction
                .execute(
                    "UPDATE tournaments SET rounds_paired = $2 + 1, state = $4 \
                     WHERE tournament_id = $1 AND rounds_paired = $2 AND state IN ($3, $4)",
                    &[
                        &paired.tournament_id,
                        &after,
                        &TournamentState::Open.code(),
                        &TournamentState::Running.code(),
                    ],
                )
                .await?;
            if moved == 0 {
                return Ok(None);
            }
            let round = &paired.round;
            transaction
                .execute(
                    &format!(
                        "INSERT INTO tournament_rounds ({ROUND_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5)"
                    ),
                    &[
                        &round.tournament_id,
                        &i64::from(round.round),
                        &round.body,
                        &round.paired_nanos,
                        &round.deadline_nanos,
                    ],
                )
                .await?;
            insert_games(&transaction, &paired.games).await?;
            insert_pending(&transaction, &paired.assigned).await?;
            append_log(&transaction, &self.changes, paired.log).await?;
            let rows = append(&transaction, &self.changes, paired.inbox).await?;
            transaction.commit().await?;
            Ok(Some(rows))
        })
        .await
    }

    pub async fn finish_tournament(
        &self,
        ending: Ending,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let ended = transaction
                .execute(
                    "UPDATE tournaments SET state = $2, finished_nanos = $3, end_reason = $4 \
                     WHERE tournament_id = $1 AND state IN ($5, $6)",
                    &[
                        &ending.tournament_id,
                        &ending.state.code(),
                        &ending.finished_nanos,
                        &ending.end_reason,
                        &TournamentState::Open.code(),
                        &TournamentState::Running.code(),
                    ],
                )
                .await?;
            if ended == 0 {
                return Ok(None);
            }
            append_log(&transaction, &self.changes, log).await?;
            let rows = append(&transaction, &self.changes, inbox).await?;
            transaction.commit().await?;
            Ok(Some(rows))
        })
        .await
    }

    pub async fn tournament_rounds(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentRoundRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {ROUND_COLUMNS} FROM tournament_rounds WHERE tournament_id = $1 \
                     ORDER BY round"
                );
                client
                    .query(&sql, &[&tournament_id])
                    .await?
                    .iter()
                    .map(|r| {
                        Ok(TournamentRoundRow {
                            tournament_id: r.get(0),
                            round: small(r.get(1), "round")?,
                            body: r.get(2),
                            paired_nanos: r.get(3),
                            deadline_nanos: r.get(4),
                        })
                    })
                    .collect()
            })
            .await
    }

    pub async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGameRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament_id = $1 \
                     ORDER BY round, match_id"
                );
                client
                    .query(&sql, &[&tournament_id])
                    .await?
                    .iter()
                    .map(game_row)
                    .collect()
            })
            .await
    }

    pub async fn tournament_game(
        &self,
        match_id: &str,
    ) -> Result<Option<TournamentGameRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql =
                    format!("SELECT {GAME_COLUMNS} FROM tournament_games WHERE match_id = $1");
                client
                    .query_opt(&sql, &[&match_id])
                    .await?
                    .as_ref()
                    .map(game_row)
                    .transpose()
            })
            .await
    }

    pub async fn tournament_log_after(
        &self,
        tournament_id: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<TournamentLogRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {LOG_COLUMNS} FROM tournament_log \
                     WHERE tournament_id = $1 AND seq > $2 ORDER BY seq LIMIT $3"
                );
                client
                    .query(&sql, &[&tournament_id, &after, &limit])
                    .await?
                    .iter()
                    .map(|r| {
                        Ok(TournamentLogRow {
                            tournament_id: r.get(0),
                            seq: r.get::<_, i64>(1) as u64,
                            kind: small(r.get(2), "log kind")?,
                            body: r.get(3),
                            time_nanos: r.get(4),
                        })
                    })
                    .collect()
            })
            .await
    }

    pub async fn tournament_log_head(&self, tournament_id: &str) -> Result<u64, StoreError> {
        self.reader
            .read(|client| async move {
                let last = client
                    .query_opt(
                        "SELECT last_seq FROM tournament_log_heads WHERE tournament_id = $1",
                        &[&tournament_id],
                    )
                    .await?
                    .map_or(0, |row| row.get::<_, i64>(0));
                Ok(last as u64)
            })
            .await
    }
}

async fn insert_games(
    transaction: &Transaction<'_>,
    games: &[TournamentGameRow],
) -> Result<(), StoreError> {
    if games.is_empty() {
        return Ok(());
    }
    let match_ids: Vec<&str> = games.iter().map(|g| g.match_id.as_str()).collect();
    let tournaments: Vec<&str> = games.iter().map(|g| g.tournament_id.as_str()).collect();
    let rounds: Vec<i64> = games.iter().map(|g| i64::from(g.round)).collect();
    let firsts: Vec<&str> = games.iter().map(|g| g.bots[0].as_str()).collect();
    let seconds: Vec<&str> = games.iter().map(|g| g.bots[1].as_str()).collect();
    let outcomes: Vec<Option<i64>> = games.iter().map(|g| g.outcome.map(i64::from)).collect();
    let ended: Vec<Option<i64>> = games.iter().map(|g| g.ended_nanos).collect();
    transaction
        .execute(
            &format!(
                "INSERT INTO tournament_games ({GAME_COLUMNS}) \
                 SELECT * FROM unnest($1::TEXT[], $2::TEXT[], $3::BIGINT[], $4::TEXT[], \
                                      $5::TEXT[], $6::BIGINT[], $7::BIGINT[])"
            ),
            &[
                &match_ids,
                &tournaments,
                &rounds,
                &firsts,
                &seconds,
                &outcomes,
                &ended,
            ],
        )
        .await?;
    Ok(())
}

/// Inserts a round's assigned matches, every one pending.
async fn insert_pending(
    transaction: &Transaction<'_>,
    assigned: &[crate::AssignedMatchRow],
) -> Result<(), StoreError> {
    if assigned.is_empty() {
        return Ok(());
    }
    let match_ids: Vec<&str> = assigned.iter().map(|a| a.match_id.as_str()).collect();
    let firsts: Vec<&str> = assigned.iter().map(|a| a.bots[0].as_str()).collect();
    let seconds: Vec<&str> = assigned.iter().map(|a| a.bots[1].as_str()).collect();
    let pools: Vec<&str> = assigned.iter().map(|a| a.pool.as_str()).collect();
    let terms: Vec<&[u8]> = assigned.iter().map(|a| a.terms.as_slice()).collect();
    let times: Vec<i64> = assigned.iter().map(|a| a.assigned_nanos).collect();
    transaction
        .execute(
            "INSERT INTO assigned_matches (match_id, first_bot, second_bot, pool, terms, \
             assigned_nanos, state) \
             SELECT *, $7::BIGINT FROM unnest($1::TEXT[], $2::TEXT[], $3::TEXT[], $4::TEXT[], \
                                              $5::BYTEA[], $6::BIGINT[])",
            &[
                &match_ids,
                &firsts,
                &seconds,
                &pools,
                &terms,
                &times,
                &AssignedState::Pending.code(),
            ],
        )
        .await?;
    Ok(())
}

/// Records how games ended, each only on a game with no outcome yet (a follower step's). A
/// match named twice keeps the first result, as the SQLite twin does.
pub(super) async fn record_results(
    transaction: &Transaction<'_>,
    changes: &super::changes::Changes,
    results: &[GameResultRow],
) -> Result<(), StoreError> {
    let mut seen = HashSet::with_capacity(results.len());
    let firsts: Vec<&GameResultRow> = results
        .iter()
        .filter(|r| seen.insert(r.match_id.as_str()))
        .collect();
    if firsts.is_empty() {
        return Ok(());
    }
    let match_ids: Vec<&str> = firsts.iter().map(|r| r.match_id.as_str()).collect();
    let outcomes: Vec<i64> = firsts.iter().map(|r| i64::from(r.outcome)).collect();
    let ended: Vec<i64> = firsts.iter().map(|r| r.ended_nanos).collect();
    let changed: Vec<String> = transaction
        .query(
            "UPDATE tournament_games g SET outcome = r.outcome, ended_nanos = r.ended_nanos \
             FROM unnest($1::TEXT[], $2::BIGINT[], $3::BIGINT[]) \
                 AS r (match_id, outcome, ended_nanos) \
             WHERE g.match_id = r.match_id AND g.outcome IS NULL \
             RETURNING g.tournament_id",
            &[&match_ids, &outcomes, &ended],
        )
        .await?
        .iter()
        .map(|row| row.get(0))
        .collect();
    changes
        .tournaments(transaction, changed.iter().map(String::as_str))
        .await?;
    Ok(())
}

/// Appends `items` to their tournaments' logs: each tournament's head moves past its items,
/// which take the seqs it moved over. The heads move in one statement, row by row in tournament
/// id order (as inbox heads move: see `league.rs`).
pub(super) async fn append_log(
    transaction: &Transaction<'_>,
    changes: &super::changes::Changes,
    items: Vec<NewTournamentLogItem>,
) -> Result<Vec<TournamentLogRow>, StoreError> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let counts = items_per_head(items.iter().map(|item| item.tournament_id.as_str()));
    let heads: Vec<&str> = counts.keys().map(String::as_str).collect();
    let added: Vec<i64> = counts.values().copied().collect();
    let lasts: HashMap<String, i64> = transaction
        .query(
            "INSERT INTO tournament_log_heads (tournament_id, last_seq) \
             SELECT * FROM unnest($1::TEXT[], $2::BIGINT[]) \
             ON CONFLICT (tournament_id) DO UPDATE \
             SET last_seq = tournament_log_heads.last_seq + EXCLUDED.last_seq \
             RETURNING tournament_id, last_seq",
            &[&heads, &added],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let seqs = seqs_under_heads(
        items.iter().map(|item| item.tournament_id.as_str()),
        &counts,
        &lasts,
    )?;
    let rows: Vec<TournamentLogRow> = items
        .into_iter()
        .zip(seqs)
        .map(|(item, seq)| TournamentLogRow {
            tournament_id: item.tournament_id,
            seq,
            kind: item.kind,
            body: item.body,
            time_nanos: item.time_nanos,
        })
        .collect();
    let tournaments: Vec<&str> = rows.iter().map(|r| r.tournament_id.as_str()).collect();
    let seqs: Vec<i64> = rows.iter().map(|r| r.seq as i64).collect();
    let kinds: Vec<i64> = rows.iter().map(|r| i64::from(r.kind)).collect();
    let bodies: Vec<&[u8]> = rows.iter().map(|r| r.body.as_slice()).collect();
    let times: Vec<i64> = rows.iter().map(|r| r.time_nanos).collect();
    transaction
        .execute(
            &format!(
                "INSERT INTO tournament_log ({LOG_COLUMNS}) \
                 SELECT * FROM unnest($1::TEXT[], $2::BIGINT[], $3::BIGINT[], $4::BYTEA[], \
                                      $5::BIGINT[])"
            ),
            &[&tournaments, &seqs, &kinds, &bodies, &times],
        )
        .await?;
    changes.tournaments(transaction, tournaments).await?;
    Ok(rows)
}

/// A stored unsigned 32-bit number (a round, a kind, an outcome), kept as `BIGINT`.
fn small(value: i64, what: &str) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| {
        StoreError::Database(format!("{what} {value} is not a 32-bit unsigned number"))
    })
}

fn tournament_row(r: &Row) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        tournament_id: r.get(0),
        name: r.get(1),
        organiser: r.get(2),
        spec: r.get(3),
        state: TournamentState::from_code(r.get(4))?,
        created_nanos: r.get(5),
        starts_nanos: r.get(6),
        rounds_paired: small(r.get(7), "rounds paired")?,
        finished_nanos: r.get(8),
        end_reason: r.get(9),
    })
}

fn entry_row(r: &Row) -> Result<EntryRow, StoreError> {
    Ok(EntryRow {
        tournament_id: r.get(0),
        bot_id: r.get(1),
        rating: r.get(2),
        joined_nanos: r.get(3),
        first_round: small(r.get(4), "first round")?,
        state: EntryState::from_code(r.get(5))?,
    })
}

fn game_row(r: &Row) -> Result<TournamentGameRow, StoreError> {
    Ok(TournamentGameRow {
        match_id: r.get(0),
        tournament_id: r.get(1),
        round: small(r.get(2), "round")?,
        bots: [r.get(3), r.get(4)],
        outcome: r
            .get::<_, Option<i64>>(5)
            .map(|o| small(o, "outcome"))
            .transpose()?,
        ended_nanos: r.get(6),
    })
}
