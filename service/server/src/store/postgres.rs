//! The PostgreSQL backend, for deployments where several servers share one database. Two
//! connections: the writer's, used only by the store's single writer task, and one for reads,
//! which tokio-postgres pipelines when several calls read at once. No TLS: the server is meant
//! to reach its database over loopback or a private network.

use tokio::sync::Mutex;
use tokio_postgres::{Client, NoTls, Row, Statement, Transaction};

use super::{AnswerRow, EventRow, InputKind, InputRow, MatchRow, StoreError, StoredMatch, Write};

/// Each entry moves the schema one version up; the list only ever grows.
const MIGRATIONS: &[&str] = &["
    CREATE TABLE matches (
        created BIGSERIAL PRIMARY KEY,
        match_id TEXT NOT NULL UNIQUE,
        variant_id TEXT NOT NULL,
        status INTEGER NOT NULL,
        setup BYTEA NOT NULL,
        summary BYTEA NOT NULL
    );
    CREATE TABLE inputs (
        match_id TEXT NOT NULL REFERENCES matches (match_id),
        number BIGINT NOT NULL,
        kind BIGINT NOT NULL,
        seat BIGINT NOT NULL,
        player_name TEXT NOT NULL,
        token_hash BYTEA NOT NULL,
        action BYTEA NOT NULL,
        PRIMARY KEY (match_id, number)
    );
    CREATE TABLE events (
        match_id TEXT NOT NULL REFERENCES matches (match_id),
        seq BIGINT NOT NULL,
        version BIGINT NOT NULL,
        time_nanos BIGINT NOT NULL,
        owner_seat BIGINT,
        owner_name TEXT NOT NULL,
        kind BYTEA NOT NULL,
        PRIMARY KEY (match_id, seq)
    );
    CREATE TABLE answers (
        match_id TEXT NOT NULL REFERENCES matches (match_id),
        seat BIGINT NOT NULL,
        client_action_id TEXT NOT NULL,
        response BYTEA NOT NULL,
        PRIMARY KEY (match_id, seat, client_action_id)
    );
"];

/// Serialises schema changes between servers starting at once against one database.
const MIGRATION_LOCK: i64 = 0x7069_7463_686d_6174;

pub struct PostgresStore {
    writer: Mutex<Writer>,
    reader: Client,
}

/// The writer's connection with its statements prepared once, so a write costs one round trip
/// per row rather than two.
struct Writer {
    client: Client,
    statements: Statements,
}

struct Statements {
    insert_match: Statement,
    insert_input: Statement,
    insert_event: Statement,
    insert_answer: Statement,
    update_status: Statement,
}

impl Statements {
    async fn prepare(client: &Client) -> Result<Self, StoreError> {
        Ok(Self {
            insert_match: client
                .prepare(
                    "INSERT INTO matches (match_id, variant_id, status, setup, summary) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .await?,
            insert_input: client
                .prepare(
                    "INSERT INTO inputs (match_id, number, kind, seat, player_name, token_hash, \
                     action) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .await?,
            insert_event: client
                .prepare(
                    "INSERT INTO events (match_id, seq, version, time_nanos, owner_seat, \
                     owner_name, kind) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .await?,
            insert_answer: client
                .prepare(
                    "INSERT INTO answers (match_id, seat, client_action_id, response) \
                     VALUES ($1, $2, $3, $4)",
                )
                .await?,
            update_status: client
                .prepare("UPDATE matches SET status = $2, summary = $3 WHERE match_id = $1")
                .await?,
        })
    }
}

async fn connect(url: &str) -> Result<Client, StoreError> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::error!(%error, "postgresql connection ended");
        }
    });
    Ok(client)
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let transaction = client.transaction().await?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    transaction
        .batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .await?;
    let found: i64 = transaction
        .query_opt("SELECT version FROM schema_version", &[])
        .await?
        .map_or(0, |row| row.get(0));
    let known = MIGRATIONS.len() as i64;
    if found > known {
        return Err(StoreError::SchemaTooNew { found, known });
    }
    for migration in &MIGRATIONS[found as usize..] {
        transaction.batch_execute(migration).await?;
    }
    transaction
        .execute("DELETE FROM schema_version", &[])
        .await?;
    transaction
        .execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&known],
        )
        .await?;
    transaction.commit().await?;
    Ok(())
}

impl PostgresStore {
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let mut client = connect(url).await?;
        migrate(&mut client).await?;
        let statements = Statements::prepare(&client).await?;
        let reader = connect(url).await?;
        Ok(Self {
            writer: Mutex::new(Writer { client, statements }),
            reader,
        })
    }

    pub async fn commit(&self, batch: &[Write]) -> Result<(), StoreError> {
        let mut writer = self.writer.lock().await;
        let Writer { client, statements } = &mut *writer;
        let transaction = client.transaction().await?;
        for write in batch {
            write_one(&transaction, statements, write).await?;
        }
        transaction.commit().await?;
        Ok(())
    }

    pub async fn matches(&self) -> Result<Vec<MatchRow>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT match_id, variant_id, status, setup, summary FROM matches \
                 ORDER BY created",
                &[],
            )
            .await?;
        Ok(rows.iter().map(match_row).collect())
    }

    pub async fn load(&self, match_id: &str) -> Result<Option<StoredMatch>, StoreError> {
        // Several queries, not one snapshot, so reads share the pipelined connection. Rows are
        // only ever appended, and the match row is read first: a concurrent commit can add to
        // what follows, never take away. Recovery reads before anything writes; replays use
        // only the events.
        let Some(row) = self
            .reader
            .query_opt(
                "SELECT match_id, variant_id, status, setup, summary FROM matches \
                 WHERE match_id = $1",
                &[&match_id],
            )
            .await?
        else {
            return Ok(None);
        };
        let inputs = self
            .reader
            .query(
                "SELECT number, kind, seat, player_name, token_hash, action FROM inputs \
                 WHERE match_id = $1 ORDER BY number",
                &[&match_id],
            )
            .await?
            .iter()
            .map(|r| {
                Ok(InputRow {
                    number: r.get::<_, i64>(0) as u64,
                    kind: InputKind::from_code(r.get(1))?,
                    seat: r.get::<_, i64>(2) as u8,
                    player_name: r.get(3),
                    token_hash: r.get(4),
                    action: r.get(5),
                })
            })
            .collect::<Result<_, StoreError>>()?;
        let events = self
            .reader
            .query(
                "SELECT seq, version, time_nanos, owner_seat, owner_name, kind FROM events \
                 WHERE match_id = $1 ORDER BY seq",
                &[&match_id],
            )
            .await?
            .iter()
            .map(|r| EventRow {
                seq: r.get::<_, i64>(0) as u64,
                version: r.get::<_, i64>(1) as u64,
                time_nanos: r.get(2),
                owner_seat: r.get::<_, Option<i64>>(3).map(|s| s as u8),
                owner_name: r.get(4),
                kind: r.get(5),
            })
            .collect();
        let answers = self
            .reader
            .query(
                "SELECT seat, client_action_id, response FROM answers WHERE match_id = $1",
                &[&match_id],
            )
            .await?
            .iter()
            .map(|r| AnswerRow {
                seat: r.get::<_, i64>(0) as u8,
                client_action_id: r.get(1),
                response: r.get(2),
            })
            .collect();
        Ok(Some(StoredMatch {
            row: match_row(&row),
            inputs,
            events,
            answers,
        }))
    }
}

fn match_row(row: &Row) -> MatchRow {
    MatchRow {
        match_id: row.get(0),
        variant_id: row.get(1),
        status: row.get(2),
        setup: row.get(3),
        summary: row.get(4),
    }
}

async fn write_one(
    transaction: &Transaction<'_>,
    statements: &Statements,
    write: &Write,
) -> Result<(), StoreError> {
    let (match_id, events) = match write {
        Write::Create { row, events } => {
            transaction
                .execute(
                    &statements.insert_match,
                    &[
                        &row.match_id,
                        &row.variant_id,
                        &row.status,
                        &row.setup,
                        &row.summary,
                    ],
                )
                .await?;
            (&row.match_id, events)
        }
        Write::Append(append) => {
            for input in &append.inputs {
                transaction
                    .execute(
                        &statements.insert_input,
                        &[
                            &append.match_id,
                            &(input.number as i64),
                            &input.kind.code(),
                            &i64::from(input.seat),
                            &input.player_name,
                            &input.token_hash,
                            &input.action,
                        ],
                    )
                    .await?;
            }
            if let Some(answer) = &append.answer {
                transaction
                    .execute(
                        &statements.insert_answer,
                        &[
                            &append.match_id,
                            &i64::from(answer.seat),
                            &answer.client_action_id,
                            &answer.response,
                        ],
                    )
                    .await?;
            }
            if let Some(change) = &append.status {
                transaction
                    .execute(
                        &statements.update_status,
                        &[&append.match_id, &change.status, &change.summary],
                    )
                    .await?;
            }
            (&append.match_id, &append.events)
        }
    };
    for event in events {
        transaction
            .execute(
                &statements.insert_event,
                &[
                    match_id,
                    &(event.seq as i64),
                    &(event.version as i64),
                    &event.time_nanos,
                    &event.owner_seat.map(i64::from),
                    &event.owner_name,
                    &event.kind,
                ],
            )
            .await?;
    }
    Ok(())
}
