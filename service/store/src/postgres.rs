//! The PostgreSQL backend, for deployments where several servers share one database. Two
//! connections: the writer's, used only by the store's single writer task, and one for reads,
//! which tokio-postgres pipelines when several calls read at once; in cluster mode a third
//! listens for what the other servers commit (see `changes.rs`). No TLS: the server is meant
//! to reach its database over loopback or a private network.
//!
//! Either connection may break (the database restarts, the network drops, a statement hangs).
//! After a failed or timed-out commit the writer's connection is thrown away and the store's
//! recovery probes connect a new one; the reader's is replaced by the first read that finds it
//! closed or timed out, at most one attempt per [`RECONNECT_PAUSE`].
//!
//! Layout (schema 2): `matches`, and `appends` with one row per accepted command (its inputs,
//! events and answer packed into one value) keyed by the match's integer key
//! (`matches.created`) and the append's number. Unlike SQLite, PostgreSQL writes changed rows,
//! not whole pages, to its write-ahead log, and its tables grow in the order rows arrive
//! whatever their key, so keying by match costs little here and loading a match is one index
//! range scan. A batch costs a few round trips whatever its size: the tails of matches not yet
//! known in one query, every append in one `INSERT ... SELECT FROM unnest(...)`, every status
//! change in one `UPDATE ... FROM unnest(...)`, and one per new match.

mod accounts;
pub(crate) mod changes;
mod league;
mod leases;
mod matchmaking;
mod ratings;
mod tournaments;

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{MappedMutexGuard, Mutex, MutexGuard, Notify};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Config, NoTls, Row, Statement, Transaction};

use super::packed::{Tail, Unpacked};
use super::{
    AnswerRow, EventRow, InputKind, InputRow, LifecycleRow, ListedRow, Listing, MatchRow,
    StoreError, StoredMatch, Write,
};
use crate::leases::{Admitted, Committed, admit, fenced_leases};

/// Schema 1: a row per input, per event and per answer.
pub(super) const ROW_PER_ITEM: &str = "
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
";

/// Schema 2's new table. No foreign key to `matches`: in PostgreSQL checking one means, for
/// every appended row, a lookup and a lock on the match's row (`FOR KEY SHARE`), which itself
/// writes to the match's page and to the log; with the store bench that took the database's
/// CPU per append from about 15 to about 20 us. The writer finds the match's key from its row
/// before appending anyway (a missing match fails the batch), and matches are never deleted.
const APPENDS: &str = "
    CREATE TABLE appends (
        match_key BIGINT NOT NULL,
        number BIGINT NOT NULL,
        next_input BIGINT NOT NULL,
        next_seq BIGINT NOT NULL,
        body BYTEA NOT NULL,
        PRIMARY KEY (match_key, number)
    );
";

/// Schema 3: the lifecycle feed, one row per entry in the order committed. The writers number
/// the entries themselves, under a lock (see `next_lifecycle_position`), so `position` needs
/// no sequence.
const LIFECYCLE: &str = "
    CREATE TABLE lifecycle (
        position BIGINT PRIMARY KEY,
        match_id TEXT NOT NULL,
        variant_id TEXT NOT NULL,
        time_nanos BIGINT NOT NULL,
        body BYTEA NOT NULL
    );
";

/// Schema 5: listings read from the store, filtered by status, variant or player, newest first.
const LISTINGS: &str = "
    CREATE INDEX matches_by_status ON matches (status, created);
    CREATE INDEX matches_by_variant ON matches (variant_id, created);
    CREATE TABLE players (
        player_name TEXT NOT NULL,
        match_key BIGINT NOT NULL REFERENCES matches (created),
        PRIMARY KEY (player_name, match_key)
    );
";

enum Migration {
    /// Statements run as they are.
    Sql(&'static str),
    /// Schema 2: `appends` replaces `inputs`, `events` and `answers`, each match's rows moved
    /// into one append.
    OneRowPerAppend,
    /// Schema 4: appends written from here on may hold actions and events in the match core's
    /// own format rather than wire messages (see `hosting::durable`). The tables stay as they
    /// are; the version keeps an older server, which could not read such rows, from opening
    /// the database.
    RowsInOwnFormat,
    /// Schema 5: [`LISTINGS`], the players of the matches stored so far read from their
    /// appends.
    Listings,
    /// Schema 6: summaries written from here on are in the match core's own format, setups
    /// in its own schema (which reads every setup stored before). As with schema 4, only the
    /// version changes, to keep older servers out.
    SummariesInOwnFormat,
}

/// Each entry moves the schema one version up; the list only ever grows.
const MIGRATIONS: &[Migration] = &[
    Migration::Sql(ROW_PER_ITEM),
    Migration::OneRowPerAppend,
    Migration::Sql(LIFECYCLE),
    Migration::RowsInOwnFormat,
    Migration::Listings,
    Migration::SummariesInOwnFormat,
    Migration::Sql(accounts::ACCOUNTS),
    Migration::Sql(league::LEAGUE),
    Migration::Sql(matchmaking::MATCHMAKING),
    Migration::Sql(ratings::RATINGS),
    Migration::Sql(ratings::SEATS_BY_TIME),
    Migration::Sql(tournaments::TOURNAMENTS),
    Migration::Sql(leases::LEASES),
];

/// The schema version [`MIGRATIONS`] lead to: what this server writes.
pub(super) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The most match tails the writer remembers; past that it forgets them all and reads each
/// again when next written to.
const TAILS_KEPT: usize = 65_536;

/// Serialises schema changes between servers starting at once against one database.
const MIGRATION_LOCK: i64 = 0x7069_7463_686d_6174;

/// How long connecting may take, unless the URL says (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one commit or read may take before its connection is given up as broken: a
/// database that stopped answering must not hold every match's writes forever.
const OPERATION_TIMEOUT: Duration = Duration::from_secs(10);
/// The least time between two attempts to connect the reader again.
const RECONNECT_PAUSE: Duration = Duration::from_millis(500);

pub struct PostgresStore {
    config: Config,
    /// `None` after a failed commit, until a probe has connected again.
    writer: Mutex<Option<Writer>>,
    /// Told when a writer's connection ends, so the store turns unwritable before a write
    /// finds out.
    writer_ended: Arc<Notify>,
    reader: Reader,
    /// What the transactions tell other servers sharing the database (see `changes.rs`).
    changes: changes::Changes,
}

/// The writer's connection with its statements prepared once.
struct Writer {
    client: Client,
    statements: Statements,
    /// Where each match written to lately stands. Another server sharing the database may
    /// append to a match behind this one's back only under the match's lease: a tail last
    /// moved under another token than a write's is read again (see `commit_batch`). Unfenced
    /// writes of two servers to one match collide on the primary key (match, number). After a
    /// failed transaction the tails are all forgotten.
    tails: HashMap<String, Tail>,
}

struct Statements {
    insert_match: Statement,
    read_tails: Statement,
    insert_appends: Statement,
    update_statuses: Statement,
    insert_lifecycle: Statement,
    lock_leases: Statement,
}

impl Statements {
    async fn prepare(client: &Client) -> Result<Self, StoreError> {
        Ok(Self {
            insert_match: client
                .prepare(
                    "INSERT INTO matches (match_id, variant_id, status, setup, summary) \
                     VALUES ($1, $2, $3, $4, $5) RETURNING created",
                )
                .await?,
            read_tails: client
                .prepare(
                    "SELECT m.match_id, m.created, a.number, a.next_input, a.next_seq \
                     FROM matches m LEFT JOIN LATERAL ( \
                         SELECT number, next_input, next_seq FROM appends \
                         WHERE match_key = m.created ORDER BY number DESC LIMIT 1 \
                     ) a ON true \
                     WHERE m.match_id = ANY($1)",
                )
                .await?,
            insert_appends: client
                .prepare(
                    "INSERT INTO appends (match_key, number, next_input, next_seq, body) \
                     SELECT * FROM unnest($1::BIGINT[], $2::BIGINT[], $3::BIGINT[], \
                                          $4::BIGINT[], $5::BYTEA[])",
                )
                .await?,
            insert_lifecycle: client
                .prepare(
                    "INSERT INTO lifecycle (position, match_id, variant_id, time_nanos, body) \
                     SELECT * FROM unnest($1::BIGINT[], $2::TEXT[], $3::TEXT[], $4::BIGINT[], \
                                          $5::BYTEA[])",
                )
                .await?,
            update_statuses: client
                .prepare(
                    "UPDATE matches SET status = u.status, summary = u.summary \
                     FROM unnest($1::BIGINT[], $2::INTEGER[], $3::BYTEA[]) \
                         AS u (created, status, summary) \
                     WHERE matches.created = u.created",
                )
                .await?,
            lock_leases: client.prepare(leases::LOCK_LEASES).await?,
        })
    }
}

/// The URL's settings, with this server's defaults where it is silent.
pub(super) fn config(url: &str) -> Result<Config, StoreError> {
    let mut config: Config = url.parse()?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_application_name().is_none() {
        config.application_name("pitchmate");
    }
    // A database host that vanished without closing its connections (a network split, a
    // powered-off machine) is noticed within about half a minute instead of hours.
    config
        .keepalives_idle(Duration::from_secs(15))
        .keepalives_interval(Duration::from_secs(5))
        .keepalives_retries(3);
    Ok(config)
}

/// A connection whose end, however it comes, is told to `ended` (when given).
pub(super) async fn connect(
    config: &Config,
    ended: Option<Arc<Notify>>,
) -> Result<Client, StoreError> {
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::warn!(%error, "postgresql connection ended");
        }
        if let Some(ended) = ended {
            ended.notify_one();
        }
    });
    Ok(client)
}

/// The backend process serving the connection, as notifications name it.
async fn backend_pid(client: &Client) -> Result<i32, StoreError> {
    Ok(client
        .query_one("SELECT pg_backend_pid()", &[])
        .await?
        .get(0))
}

/// `operation`, or a timeout error once [`OPERATION_TIMEOUT`] has passed.
async fn within<T>(
    operation: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    tokio::time::timeout(OPERATION_TIMEOUT, operation)
        .await
        .unwrap_or_else(|_| Err(timed_out()))
}

fn not_connected() -> StoreError {
    StoreError::Unwritable("postgresql: the writer is not connected".to_owned())
}

fn timed_out() -> StoreError {
    StoreError::Database(format!(
        "postgresql: no answer within {} s",
        OPERATION_TIMEOUT.as_secs()
    ))
}

/// The connection reads share, connected again when it breaks.
struct Reader {
    config: Config,
    current: std::sync::Mutex<ReaderState>,
    /// One reconnection at a time.
    connecting: Mutex<()>,
}

struct ReaderState {
    client: Option<Arc<Client>>,
    last_failure: Option<Instant>,
}

impl Reader {
    fn new(config: Config, client: Client) -> Self {
        Self {
            config,
            current: std::sync::Mutex::new(ReaderState {
                client: Some(Arc::new(client)),
                last_failure: None,
            }),
            connecting: Mutex::new(()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, ReaderState> {
        self.current
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn usable(&self) -> Option<Arc<Client>> {
        self.state().client.clone().filter(|c| !c.is_closed())
    }

    async fn client(&self) -> Result<Arc<Client>, StoreError> {
        if let Some(client) = self.usable() {
            return Ok(client);
        }
        let _one_at_a_time = self.connecting.lock().await;
        if let Some(client) = self.usable() {
            return Ok(client);
        }
        if self
            .state()
            .last_failure
            .is_some_and(|at| at.elapsed() < RECONNECT_PAUSE)
        {
            return Err(StoreError::Database(
                "postgresql: cannot connect right now; retrying shortly".to_owned(),
            ));
        }
        match connect(&self.config, None).await {
            Ok(client) => {
                let client = Arc::new(client);
                *self.state() = ReaderState {
                    client: Some(Arc::clone(&client)),
                    last_failure: None,
                };
                tracing::info!("postgresql reader connected again");
                Ok(client)
            }
            Err(error) => {
                self.state().last_failure = Some(Instant::now());
                Err(error)
            }
        }
    }

    /// Runs `read` on the shared connection; one that times out is given up, so the next read
    /// connects afresh rather than queueing behind it.
    async fn read<T, F>(&self, read: impl FnOnce(Arc<Client>) -> F) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, StoreError>>,
    {
        let client = self.client().await?;
        let result = tokio::time::timeout(OPERATION_TIMEOUT, read(Arc::clone(&client))).await;
        result.unwrap_or_else(|_| {
            let mut state = self.state();
            if state
                .client
                .as_ref()
                .is_some_and(|c| Arc::ptr_eq(c, &client))
            {
                state.client = None;
            }
            Err(timed_out())
        })
    }
}

pub(super) async fn migrate(client: &mut Client) -> Result<(), StoreError> {
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
    let known = SCHEMA_VERSION;
    if found > known {
        return Err(StoreError::SchemaTooNew { found, known });
    }
    for migration in &MIGRATIONS[found as usize..] {
        match migration {
            Migration::Sql(statements) => transaction.batch_execute(statements).await?,
            Migration::OneRowPerAppend => one_row_per_append(&transaction).await?,
            Migration::RowsInOwnFormat | Migration::SummariesInOwnFormat => {}
            Migration::Listings => {
                transaction.batch_execute(LISTINGS).await?;
                players_of_stored_matches(&transaction).await?;
            }
        }
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

/// Schema 5: the players of every match stored so far, from the joins in its appends.
async fn players_of_stored_matches(transaction: &Transaction<'_>) -> Result<(), StoreError> {
    let bodies = transaction
        .prepare("SELECT body FROM appends WHERE match_key = $1 ORDER BY number")
        .await?;
    let mut players = PlayerColumns::default();
    for row in transaction
        .query("SELECT created, match_id FROM matches", &[])
        .await?
    {
        let (key, match_id): (i64, String) = (row.get(0), row.get(1));
        let mut unpacked = Unpacked::default();
        for body in transaction.query(&bodies, &[&key]).await? {
            unpacked.add(&match_id, body.get(0))?;
        }
        players.extend(key, &unpacked.inputs);
    }
    players.insert(transaction).await
}

/// Schema 1 to 2: every match's inputs, events and answers become one append numbered 0
/// (answers by seat and client action id, compared byte by byte); later appends follow it from
/// number 1.
async fn one_row_per_append(transaction: &Transaction<'_>) -> Result<(), StoreError> {
    transaction.batch_execute(APPENDS).await?;
    let inputs = transaction
        .prepare(
            "SELECT number, kind, seat, player_name, token_hash, action FROM inputs \
             WHERE match_id = $1 ORDER BY number",
        )
        .await?;
    let events = transaction
        .prepare(
            "SELECT seq, version, time_nanos, owner_seat, owner_name, kind FROM events \
             WHERE match_id = $1 ORDER BY seq",
        )
        .await?;
    let answers = transaction
        .prepare(
            "SELECT seat, client_action_id, response FROM answers WHERE match_id = $1 \
             ORDER BY seat, client_action_id COLLATE \"C\"",
        )
        .await?;
    let insert = transaction
        .prepare(
            "INSERT INTO appends (match_key, number, next_input, next_seq, body) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .await?;
    let matches = transaction
        .query(
            "SELECT created, match_id FROM matches ORDER BY created",
            &[],
        )
        .await?;
    for row in matches {
        let key: i64 = row.get(0);
        let match_id: String = row.get(1);
        let inputs = transaction
            .query(&inputs, &[&match_id])
            .await?
            .iter()
            .map(|r| {
                Ok(InputRow {
                    number: r.get::<_, i64>(0) as u64,
                    kind: InputKind::from_code(r.get(1))?,
                    seat: r.get::<_, i64>(2) as u8,
                    player_name: r.get(3),
                    token_hash: r.get(4),
                    account: String::new(),
                    action: r.get(5),
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let events: Vec<EventRow> = transaction
            .query(&events, &[&match_id])
            .await?
            .iter()
            .map(|r| EventRow {
                seq: r.get::<_, i64>(0) as u64,
                version: r.get::<_, i64>(1) as u64,
                time_nanos: r.get(2),
                owner_seat: r.get::<_, Option<i64>>(3).map(|s| s as u8),
                owner_name: r.get(4),
                hidden_step: false,
                kind: r.get(5),
            })
            .collect();
        let answers: Vec<AnswerRow> = transaction
            .query(&answers, &[&match_id])
            .await?
            .iter()
            .map(|r| AnswerRow {
                seat: r.get::<_, i64>(0) as u8,
                client_action_id: r.get(1),
                response: r.get(2),
            })
            .collect();
        if inputs.is_empty() && events.is_empty() && answers.is_empty() {
            continue;
        }
        let packed = Tail::new(key).pack(&match_id, inputs, events, answers)?;
        transaction
            .execute(
                &insert,
                &[
                    &packed.key,
                    &packed.number,
                    &packed.next_input,
                    &packed.next_seq,
                    &packed.body,
                ],
            )
            .await?;
    }
    transaction
        .batch_execute("DROP TABLE answers; DROP TABLE events; DROP TABLE inputs;")
        .await?;
    Ok(())
}

impl PostgresStore {
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let config = config(url)?;
        let writer_ended = Arc::new(Notify::new());
        let mut client = connect(&config, Some(Arc::clone(&writer_ended))).await?;
        migrate(&mut client).await?;
        let statements = Statements::prepare(&client).await?;
        let changes = changes::Changes::default();
        changes.set_writer_pid(backend_pid(&client).await?);
        let reader = Reader::new(config.clone(), connect(&config, None).await?);
        Ok(Self {
            changes,
            writer: Mutex::new(Some(Writer {
                client,
                statements,
                tails: HashMap::new(),
            })),
            writer_ended,
            reader,
            config,
        })
    }

    /// Returns once the writer's connection has ended (a connection replaced on purpose ends
    /// too, but then the writer has a working one and this waits on).
    pub async fn writer_lost(&self) {
        loop {
            self.writer_ended.notified().await;
            let writer = self.writer.lock().await;
            if writer.as_ref().is_none_or(|w| w.client.is_closed()) {
                return;
            }
        }
    }

    pub async fn commit(
        &self,
        batch: Vec<Write>,
        first_position: u64,
    ) -> Result<Committed, StoreError> {
        let mut slot = self.writer.lock().await;
        let Some(writer) = slot.as_mut() else {
            return Err(not_connected());
        };
        let Writer {
            client,
            statements,
            tails,
        } = writer;
        if tails.len() > TAILS_KEPT {
            tails.clear();
        }
        let result = within(commit_batch(
            client,
            statements,
            &self.changes,
            tails,
            batch,
            first_position,
        ))
        .await;
        if result.is_err() {
            // Its transaction failed, hung or may have committed unseen: a new connection, with
            // every tail read again, is the only state known to be true.
            *slot = None;
        }
        result
    }

    /// The writer's connection, for writes outside the group commit (bots, keys, inboxes),
    /// which share it with the batches. A failed direct write leaves it in place: a broken
    /// connection ends, and the store recovers from that as from any lost connection.
    async fn direct_writer(&self) -> Result<MappedMutexGuard<'_, Client>, StoreError> {
        MutexGuard::try_map(self.writer.lock().await, |slot| {
            slot.as_mut().map(|writer| &mut writer.client)
        })
        .map_err(|_| not_connected())
    }

    /// Connects the writer again if it broke, and asks the database for an answer.
    pub async fn probe(&self) -> Result<(), StoreError> {
        let mut slot = self.writer.lock().await;
        // Until the probe has an answer, the writer is not known to work.
        let writer = match slot.take().filter(|writer| !writer.client.is_closed()) {
            Some(writer) => writer,
            None => {
                let client = connect(&self.config, Some(Arc::clone(&self.writer_ended))).await?;
                let statements = within(Statements::prepare(&client)).await?;
                self.changes
                    .set_writer_pid(within(backend_pid(&client)).await?);
                tracing::info!("postgresql writer connected again");
                Writer {
                    client,
                    statements,
                    tails: HashMap::new(),
                }
            }
        };
        within(async {
            writer.client.simple_query("SELECT 1").await?;
            Ok(())
        })
        .await?;
        *slot = Some(writer);
        Ok(())
    }

    pub async fn lifecycle_after(
        &self,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LifecycleRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let rows = client
                    .query(
                        "SELECT position, match_id, variant_id, time_nanos, body FROM lifecycle \
                         WHERE position > $1 ORDER BY position LIMIT $2",
                        &[&(after as i64), &(limit as i64)],
                    )
                    .await?;
                Ok(rows
                    .iter()
                    .map(|r| LifecycleRow {
                        position: r.get::<_, i64>(0) as u64,
                        match_id: r.get(1),
                        variant_id: r.get(2),
                        time_nanos: r.get(3),
                        body: r.get(4),
                    })
                    .collect())
            })
            .await
    }

    pub async fn last_position(&self) -> Result<u64, StoreError> {
        self.reader
            .read(|client| async move {
                let last: Option<i64> = client
                    .query_one("SELECT MAX(position) FROM lifecycle", &[])
                    .await?
                    .get(0);
                Ok(last.unwrap_or(0) as u64)
            })
            .await
    }

    pub async fn matches(&self) -> Result<Vec<MatchRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let rows = client
                    .query(
                        "SELECT match_id, variant_id, status, setup, summary FROM matches \
                         ORDER BY created",
                        &[],
                    )
                    .await?;
                Ok(rows.iter().map(match_row).collect())
            })
            .await
    }

    pub async fn list(
        &self,
        filter: &Listing,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<ListedRow>, StoreError> {
        // One statement per combination of filters, each served by an index.
        let (from, key) = if filter.player_name.is_empty() {
            ("matches m", "m.created")
        } else {
            (
                "players p JOIN matches m ON m.created = p.match_key",
                "p.match_key",
            )
        };
        let filter = filter.clone();
        let before = before.unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.reader
            .read(|client| async move {
                let mut conditions = vec![format!("{key} < $1")];
                let mut values: Vec<&(dyn ToSql + Sync)> = vec![&before];
                if !filter.player_name.is_empty() {
                    values.push(&filter.player_name);
                    conditions.push(format!("p.player_name = ${}", values.len()));
                }
                if !filter.variant_id.is_empty() {
                    values.push(&filter.variant_id);
                    conditions.push(format!("m.variant_id = ${}", values.len()));
                }
                if let Some(status) = &filter.status {
                    values.push(status);
                    conditions.push(format!("m.status = ${}", values.len()));
                }
                values.push(&limit);
                let sql = format!(
                    "SELECT m.created, m.match_id, m.summary, m.setup FROM {from} WHERE {} \
                     ORDER BY {key} DESC LIMIT ${}",
                    conditions.join(" AND "),
                    values.len()
                );
                let rows = client.query(&sql, &values).await?;
                Ok(rows
                    .iter()
                    .map(|r| ListedRow {
                        key: r.get(0),
                        match_id: r.get(1),
                        summary: r.get(2),
                        setup: r.get(3),
                    })
                    .collect())
            })
            .await
    }

    pub async fn check(&self) -> Result<(), StoreError> {
        self.reader
            .read(|client| async move {
                client.simple_query("SELECT 1").await?;
                Ok(())
            })
            .await
    }

    pub async fn count_by_status(&self) -> Result<Vec<(i32, u64)>, StoreError> {
        self.reader
            .read(|client| async move {
                let rows = client
                    .query("SELECT status, count(*) FROM matches GROUP BY status", &[])
                    .await?;
                Ok(rows
                    .iter()
                    .map(|r| (r.get(0), r.get::<_, i64>(1).max(0) as u64))
                    .collect())
            })
            .await
    }

    pub async fn with_status(&self, statuses: &[i32]) -> Result<Vec<String>, StoreError> {
        let statuses = statuses.to_vec();
        self.reader
            .read(|client| async move {
                let rows = client
                    .query(
                        "SELECT match_id FROM matches WHERE status = ANY($1) \
                         ORDER BY status, created",
                        &[&statuses],
                    )
                    .await?;
                Ok(rows.iter().map(|r| r.get(0)).collect())
            })
            .await
    }

    pub async fn load(&self, match_id: &str) -> Result<Option<StoredMatch>, StoreError> {
        // Two queries, not one snapshot, so reads share the pipelined connection. Appends are
        // only ever added, and the match row is read first: a concurrent commit can add to
        // what follows, never take away. Recovery reads before anything writes; replays use
        // only the events.
        self.reader
            .read(|client| async move {
                let Some(row) = client
                    .query_opt(
                        "SELECT match_id, variant_id, status, setup, summary, created \
                         FROM matches WHERE match_id = $1",
                        &[&match_id],
                    )
                    .await?
                else {
                    return Ok(None);
                };
                let key: i64 = row.get(5);
                let mut unpacked = Unpacked::default();
                for append in client
                    .query(
                        "SELECT body FROM appends WHERE match_key = $1 ORDER BY number",
                        &[&key],
                    )
                    .await?
                {
                    unpacked.add(match_id, append.get(0))?;
                }
                Ok(Some(StoredMatch {
                    row: match_row(&row),
                    inputs: unpacked.inputs,
                    events: unpacked.events,
                    answers: unpacked.answers,
                }))
            })
            .await
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

/// The columns of a batch's appends, for one `unnest`.
#[derive(Default)]
struct AppendColumns {
    keys: Vec<i64>,
    numbers: Vec<i64>,
    next_inputs: Vec<i64>,
    next_seqs: Vec<i64>,
    bodies: Vec<Vec<u8>>,
}

impl AppendColumns {
    fn push(&mut self, packed: super::packed::Packed) {
        self.keys.push(packed.key);
        self.numbers.push(packed.number);
        self.next_inputs.push(packed.next_input);
        self.next_seqs.push(packed.next_seq);
        self.bodies.push(packed.body);
    }
}

/// The players a batch seated, for one `unnest`.
#[derive(Default)]
struct PlayerColumns {
    names: Vec<String>,
    keys: Vec<i64>,
}

impl PlayerColumns {
    fn extend(&mut self, key: i64, inputs: &[InputRow]) {
        for input in inputs {
            if input.kind == InputKind::Joined && !input.player_name.is_empty() {
                self.names.push(input.player_name.clone());
                self.keys.push(key);
            }
        }
    }

    async fn insert(self, transaction: &Transaction<'_>) -> Result<(), StoreError> {
        if !self.names.is_empty() {
            transaction
                .execute(
                    "INSERT INTO players (player_name, match_key) \
                     SELECT * FROM unnest($1::TEXT[], $2::BIGINT[]) ON CONFLICT DO NOTHING",
                    &[&self.names, &self.keys],
                )
                .await?;
        }
        Ok(())
    }
}

/// The columns of a batch's lifecycle entries, for one `unnest`.
#[derive(Default)]
struct LifecycleColumns {
    positions: Vec<i64>,
    match_ids: Vec<String>,
    variant_ids: Vec<String>,
    times: Vec<i64>,
    bodies: Vec<Vec<u8>>,
}

impl LifecycleColumns {
    fn extend(&mut self, rows: Vec<LifecycleRow>) {
        for row in rows {
            self.positions.push(row.position as i64);
            self.match_ids.push(row.match_id);
            self.variant_ids.push(row.variant_id);
            self.times.push(row.time_nanos);
            self.bodies.push(row.body);
        }
    }
}

/// Where a batch's lifecycle entries are numbered from, inside its transaction: servers sharing
/// the database (cluster mode) each write entries, so the next position is the database's, not
/// the one this writer last wrote. A lock held until the transaction ends makes batches with
/// entries take turns across servers, so positions commit in their order and none is taken
/// twice; a batch without entries never waits for it.
async fn next_lifecycle_position(
    transaction: &Transaction<'_>,
    first_position: u64,
) -> Result<u64, StoreError> {
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&LIFECYCLE_LOCK])
        .await?;
    let last: Option<i64> = transaction
        .query_one("SELECT MAX(position) FROM lifecycle", &[])
        .await?
        .get(0);
    Ok(first_position.max(last.map_or(0, |last| last as u64) + 1))
}

/// The advisory lock under which a batch numbers its lifecycle entries (an arbitrary key,
/// the same in every server).
const LIFECYCLE_LOCK: i64 = 0x7069_7463_686d_6174;

/// Writes what [`admit`] lets through of `batch` in one transaction, moving the tails of the
/// matches it touches.
async fn commit_batch(
    client: &mut Client,
    statements: &Statements,
    notices: &changes::Changes,
    tails: &mut HashMap<String, Tail>,
    batch: Vec<Write>,
    first_position: u64,
) -> Result<Committed, StoreError> {
    let transaction = client.transaction().await?;
    let fenced = fenced_leases(&batch);
    let tokens = if fenced.is_empty() {
        HashMap::new()
    } else {
        leases::lock_fences(&transaction, &statements.lock_leases, &fenced).await?
    };
    let first_position = if batch.iter().any(|write| !write.lifecycle().is_empty()) {
        next_lifecycle_position(&transaction, first_position).await?
    } else {
        first_position
    };
    let Admitted { writes, committed } = admit(batch, &tokens, first_position);
    // Read after the leases were locked, so what a previous holder wrote is seen.
    let unknown: Vec<&str> = writes
        .iter()
        .filter_map(|write| match write {
            Write::Append { append, fence }
                if !tails
                    .get(&append.match_id)
                    .is_some_and(|tail| tail.serves(*fence)) =>
            {
                Some(append.match_id.as_str())
            }
            _ => None,
        })
        .collect();
    if !unknown.is_empty() {
        for row in transaction
            .query(&statements.read_tails, &[&unknown])
            .await?
        {
            let key: i64 = row.get(1);
            let tail = match row.get::<_, Option<i64>>(2) {
                Some(number) => Tail {
                    key,
                    appends: number + 1,
                    next_input: row.get::<_, i64>(3) as u64,
                    next_seq: row.get::<_, i64>(4) as u64,
                    last_row: None,
                    fence: None,
                },
                None => Tail::new(key),
            };
            tails.insert(row.get(0), tail);
        }
    }
    let mut appends = AppendColumns::default();
    let mut lifecycle = LifecycleColumns::default();
    let mut players = PlayerColumns::default();
    // The last status change of each match in the batch, by key.
    let mut changes: HashMap<i64, (i32, Vec<u8>)> = HashMap::new();
    for write in writes {
        match write {
            Write::Create {
                row,
                events,
                lifecycle: entries,
                fence,
            } => {
                lifecycle.extend(entries);
                let key: i64 = transaction
                    .query_one(
                        &statements.insert_match,
                        &[
                            &row.match_id,
                            &row.variant_id,
                            &row.status,
                            &row.setup,
                            &row.summary,
                        ],
                    )
                    .await?
                    .get(0);
                let mut tail = Tail::new(key);
                tail.fence = fence;
                if !events.is_empty() {
                    appends.push(tail.pack(&row.match_id, Vec::new(), events, Vec::new())?);
                }
                tails.insert(row.match_id, tail);
            }
            Write::Append { append, fence } => {
                let tail = tails.get_mut(&append.match_id).ok_or_else(|| {
                    StoreError::Database(format!("no match {} to append to", append.match_id))
                })?;
                tail.fence = fence;
                if let Some(change) = append.status {
                    changes.insert(tail.key, (change.status, change.summary));
                }
                lifecycle.extend(append.lifecycle);
                players.extend(tail.key, &append.inputs);
                if append.inputs.is_empty() && append.events.is_empty() && append.answer.is_none() {
                    continue;
                }
                appends.push(tail.pack(
                    &append.match_id,
                    append.inputs,
                    append.events,
                    append.answer.into_iter().collect(),
                )?);
            }
        }
    }
    if !appends.keys.is_empty() {
        transaction
            .execute(
                &statements.insert_appends,
                &[
                    &appends.keys,
                    &appends.numbers,
                    &appends.next_inputs,
                    &appends.next_seqs,
                    &appends.bodies,
                ],
            )
            .await?;
    }
    players.insert(&transaction).await?;
    if !lifecycle.positions.is_empty() {
        transaction
            .execute(
                &statements.insert_lifecycle,
                &[
                    &lifecycle.positions,
                    &lifecycle.match_ids,
                    &lifecycle.variant_ids,
                    &lifecycle.times,
                    &lifecycle.bodies,
                ],
            )
            .await?;
        if let Some(&last) = lifecycle.positions.iter().max() {
            notices.lifecycle(&transaction, last as u64).await?;
        }
    }
    if !changes.is_empty() {
        let mut keys = Vec::with_capacity(changes.len());
        let mut statuses = Vec::with_capacity(changes.len());
        let mut summaries = Vec::with_capacity(changes.len());
        for (key, (status, summary)) in changes {
            keys.push(key);
            statuses.push(status);
            summaries.push(summary);
        }
        transaction
            .execute(&statements.update_statuses, &[&keys, &statuses, &summaries])
            .await?;
    }
    transaction.commit().await?;
    Ok(committed)
}
