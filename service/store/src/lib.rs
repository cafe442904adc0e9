//! Durable storage of matches: their rows, accepted inputs, events and idempotency answers.
//!
//! Two backends sit behind one [`Store`]: embedded SQLite (the default, a file in the data
//! directory) and PostgreSQL (selected by a `postgres://` URL). The store never interprets what
//! it keeps: setups, summaries, actions, events and answers arrive as encoded bytes beside the
//! few plain columns (ids, numbers, status) that loading and ordering need.
//!
//! Both keep a row per match and a row per [`Append`]: what one accepted command added (its
//! inputs, events and answer) packed into one value (see `packed.rs`), so a write costs one
//! row however many events it carries. How those rows are keyed differs, because the two
//! databases pay for different things (see `sqlite.rs` and `postgres.rs`).
//!
//! Writes go through one writer task that commits them in batches (group commit): whatever
//! accumulated while the previous transaction was committing goes into the next one, and each
//! waiting caller is answered once its batch is durable. Under load one fsync then serves many
//! matches, without weakening the promise that an acknowledged write survives a crash.
//!
//! A batch that fails fails for every write in it, and the store turns unwritable: the writer
//! stops committing, answers every write at once with [`StoreError::Unwritable`], and probes the
//! database with a backoff (reconnecting to PostgreSQL, a real one-page write to SQLite) until a
//! probe succeeds; then it is writable again. [`Store::writable`] tells the hosting and the
//! health service which state it is in. The failed batch's matches drop what they had not
//! stored and come back from what was committed (see `hosting`).
//!
//! A write of a match may carry a fencing token: the token of the lease `match/<id>` its
//! writer holds (see `leases.rs`). It commits only if the lease still has that token when its
//! batch commits; otherwise that write alone is refused with [`StoreError::Fenced`], the rest
//! of its batch commits, and the store stays writable.
//!
//! Beside matches the store keeps bots and their API keys (see `accounts.rs`), bots'
//! inboxes, the seats they hold and the cursors of lifecycle followers (see `league.rs`),
//! challenges and assigned matches (`matchmaking.rs`), ratings and the queue (`ratings.rs`),
//! and tournaments (`tournaments.rs`), all written outside the group commit.

mod accounts;
mod changes;
mod league;
mod leases;
mod matchmaking;
pub mod metrics;
mod packed;
mod postgres;
mod ratings;
mod sqlite;
mod tournaments;
pub mod transfer;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot, watch};

pub use accounts::{ApiKeyRow, BotRow};
pub use changes::RemoteChange;
pub use league::{BotSeatRow, FollowerStep, InboxRow, NewInboxItem};
use leases::Committed;
pub use leases::{
    Lease, LeaseHeld, LeaseLost, MATCH_LEASES, SCHEDULER_LEASE, leased_match, match_lease,
};
pub use matchmaking::{
    AssignedMatchRow, AssignedState, BotCaps, BotLoad, ChallengeFilter, ChallengeRow,
    ChallengeState, Resolution, Resolved,
};
pub use ratings::{Paired, RatingChangeRow, RatingRow, TicketPair, TicketRow, TicketState};
pub use tournaments::{
    Entered, EntryRow, EntryState, GameResultRow, NewTournamentLogItem, PairedRound,
    TournamentGameRow, TournamentLogRow, TournamentRoundRow, TournamentRow, TournamentState,
};

/// The database file under the data directory.
pub const SQLITE_FILE: &str = "pitchmate.db";

/// Writes queued before callers wait for the writer.
const WRITE_QUEUE: usize = 8192;
/// The most writes one transaction takes.
const MAX_BATCH: usize = 2048;
/// The first wait between probes of an unwritable store; it doubles up to [`LONGEST_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const LONGEST_BACKOFF: Duration = Duration::from_secs(5);

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("store.url `{0}` is neither empty (SQLite in the data directory) nor postgres://...")]
    UnknownUrl(String),
    #[error("database: {0}")]
    Database(String),
    #[error("the database holds schema version {found}, newer than this server's {known}")]
    SchemaTooNew { found: i64, known: i64 },
    #[error("the store is closed")]
    Closed,
    /// A commit failed and the store has not yet shown it can write again.
    #[error("the store cannot write until it recovers from: {0}")]
    Unwritable(String),
    /// A bot's name (without regard to ASCII case), a bot id or a key id is taken, or a key
    /// names a bot that does not exist; nothing was written.
    #[error("{0}")]
    Conflict(String),
    /// A write of the match carried a fencing token its lease no longer has (another holder
    /// took it, or it was released); that write alone was refused and nothing of it written.
    #[error(
        "match {match_id}: its lease no longer has the fencing token {token}, so the write was \
         refused"
    )]
    Fenced { match_id: String, token: u64 },
    #[error(transparent)]
    LeaseHeld(#[from] LeaseHeld),
    #[error(transparent)]
    LeaseLost(#[from] LeaseLost),
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        Self::Database(format!("sqlite: {error}"))
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> Self {
        // The error's own text is only "db error" when the server refused a statement.
        match error.as_db_error() {
            Some(refused) => Self::Database(format!(
                "postgresql: {} ({})",
                refused.message(),
                refused.code().code()
            )),
            None => Self::Database(format!("postgresql: {error}")),
        }
    }
}

/// Whether the store is committing writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreHealth {
    Writable,
    /// A commit failed and no probe has succeeded since; the last failure.
    Unwritable(String),
}

/// A match's row: what listing and loading need, the rest as bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    pub match_id: String,
    pub variant_id: String,
    pub status: i32,
    /// The encoded setup the match was created with; never changes.
    pub setup: Vec<u8>,
    /// The encoded summary as of the last status change.
    pub summary: Vec<u8>,
}

/// What kind of input a row holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Joined,
    Acted,
    Resigned,
    /// A default action the server played for a seat that ran out of time.
    ActedForTimeout,
    /// A seat's time ran out and the server played for it.
    TimedOut,
    /// A seat's time ran out and it lost.
    TimedOutForfeited,
    OfferedDraw,
    AcceptedDraw,
    Aborted,
    ClaimedVictory,
    /// Not every seat was taken in time.
    Expired,
}

impl InputKind {
    fn code(self) -> i64 {
        match self {
            Self::Joined => 1,
            Self::Acted => 2,
            Self::Resigned => 3,
            Self::ActedForTimeout => 4,
            Self::TimedOut => 5,
            Self::TimedOutForfeited => 6,
            Self::OfferedDraw => 7,
            Self::AcceptedDraw => 8,
            Self::Aborted => 9,
            Self::ClaimedVictory => 10,
            Self::Expired => 11,
        }
    }

    fn from_code(code: i64) -> Result<Self, StoreError> {
        match code {
            1 => Ok(Self::Joined),
            2 => Ok(Self::Acted),
            3 => Ok(Self::Resigned),
            4 => Ok(Self::ActedForTimeout),
            5 => Ok(Self::TimedOut),
            6 => Ok(Self::TimedOutForfeited),
            7 => Ok(Self::OfferedDraw),
            8 => Ok(Self::AcceptedDraw),
            9 => Ok(Self::Aborted),
            10 => Ok(Self::ClaimedVictory),
            11 => Ok(Self::Expired),
            other => Err(StoreError::Database(format!("unknown input kind {other}"))),
        }
    }
}

/// An accepted input, numbered from 0 in the order accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputRow {
    pub number: u64,
    pub kind: InputKind,
    pub seat: u8,
    /// For a join; empty otherwise.
    pub player_name: String,
    /// For a join: the SHA-256 of the seat token, never the token.
    pub token_hash: Vec<u8>,
    /// For a join by an account (a bot) rather than a token: its id; empty otherwise.
    pub account: String,
    /// For an action: the encoded typed action.
    pub action: Vec<u8>,
}

/// One event of a match's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    pub seq: u64,
    pub version: u64,
    /// Nanoseconds since the Unix epoch (an i64 holds them until 2262).
    pub time_nanos: i64,
    /// The seat that may see a private event; `None` for a public one.
    pub owner_seat: Option<u8>,
    pub owner_name: String,
    /// Part of a step only its owner may see (a hidden choice).
    pub hidden_step: bool,
    /// The encoded event.
    pub kind: Vec<u8>,
}

/// The answer to a submission with a client action id, for retries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerRow {
    pub seat: u8,
    pub client_action_id: String,
    /// The encoded response.
    pub response: Vec<u8>,
}

/// A new status and the summary that goes with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusChange {
    pub status: i32,
    pub summary: Vec<u8>,
}

/// What one accepted command added to a match, written in one transaction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Append {
    pub match_id: String,
    pub inputs: Vec<InputRow>,
    pub events: Vec<EventRow>,
    pub answer: Option<AnswerRow>,
    pub status: Option<StatusChange>,
    /// Entries of the lifecycle feed the command caused, in order.
    pub lifecycle: Vec<LifecycleRow>,
}

/// One entry of the server's lifecycle feed: what the hosting encoded, beside what readers
/// order and filter by.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LifecycleRow {
    /// The entry's place in the feed. The writer numbers entries as it commits them, one after
    /// another with no gap; a row handed to a write has 0 here.
    pub position: u64,
    pub match_id: String,
    pub variant_id: String,
    pub time_nanos: i64,
    pub body: Vec<u8>,
}

/// Which matches a listing wants. Empty strings and `None` admit every match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    pub variant_id: String,
    /// The stored status number.
    pub status: Option<i32>,
    /// Matches in which a player of this name took a seat.
    pub player_name: String,
}

/// One match of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedRow {
    /// Its place in creation order: a later match has a greater key. Pages continue below it.
    pub key: i64,
    pub match_id: String,
    /// The encoded summary as of the last status change or unload.
    pub summary: Vec<u8>,
    /// The encoded setup the match was created with.
    pub setup: Vec<u8>,
}

/// Everything stored about one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    pub row: MatchRow,
    pub inputs: Vec<InputRow>,
    pub events: Vec<EventRow>,
    pub answers: Vec<AnswerRow>,
}

/// A write of the group commit, with the fencing token it carries (`None`: unfenced).
#[derive(Clone, Debug)]
enum Write {
    Create {
        row: MatchRow,
        events: Vec<EventRow>,
        lifecycle: Vec<LifecycleRow>,
        fence: Option<u64>,
    },
    Append {
        append: Append,
        fence: Option<u64>,
    },
}

impl Write {
    fn match_id(&self) -> &str {
        match self {
            Write::Create { row, .. } => &row.match_id,
            Write::Append { append, .. } => &append.match_id,
        }
    }

    fn fence(&self) -> Option<u64> {
        match self {
            Write::Create { fence, .. } | Write::Append { fence, .. } => *fence,
        }
    }

    fn lifecycle(&self) -> &[LifecycleRow] {
        match self {
            Write::Create { lifecycle, .. } => lifecycle,
            Write::Append { append, .. } => &append.lifecycle,
        }
    }

    fn lifecycle_mut(&mut self) -> &mut Vec<LifecycleRow> {
        match self {
            Write::Create { lifecycle, .. } => lifecycle,
            Write::Append { append, .. } => &mut append.lifecycle,
        }
    }
}

enum Request {
    Write(Write, oneshot::Sender<Result<(), StoreError>>),
    /// Commit what is queued, close the database, then stop.
    Close(oneshot::Sender<Result<(), StoreError>>),
}

/// The backends. An enum rather than a trait object: there are exactly two, chosen once at
/// start, and plain `async fn`s on an enum need neither boxing of every future nor a
/// dyn-compatible async trait; a third backend is one more arm in each method.
enum Backend {
    Sqlite(sqlite::SqliteStore),
    Postgres(Box<postgres::PostgresStore>),
}

impl Backend {
    /// Commits what [`admit`] lets through of `batch`, in one transaction, its lifecycle
    /// entries numbered from `first_position`.
    async fn commit(
        &self,
        batch: Vec<Write>,
        first_position: u64,
    ) -> Result<Committed, StoreError> {
        match self {
            Self::Sqlite(store) => store.commit(batch, first_position).await,
            Self::Postgres(store) => store.commit(batch, first_position).await,
        }
    }

    async fn list(
        &self,
        filter: &Listing,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<ListedRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.list(filter.clone(), before, limit).await,
            Self::Postgres(store) => store.list(filter, before, limit).await,
        }
    }

    async fn count_by_status(&self) -> Result<Vec<(i32, u64)>, StoreError> {
        match self {
            Self::Sqlite(store) => store.count_by_status().await,
            Self::Postgres(store) => store.count_by_status().await,
        }
    }

    async fn with_status(&self, statuses: &[i32]) -> Result<Vec<String>, StoreError> {
        match self {
            Self::Sqlite(store) => store.with_status(statuses.to_vec()).await,
            Self::Postgres(store) => store.with_status(statuses).await,
        }
    }

    async fn matches(&self) -> Result<Vec<MatchRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.matches().await,
            Self::Postgres(store) => store.matches().await,
        }
    }

    async fn load(&self, match_id: &str) -> Result<Option<StoredMatch>, StoreError> {
        match self {
            Self::Sqlite(store) => store.load(match_id.to_owned()).await,
            Self::Postgres(store) => store.load(match_id).await,
        }
    }

    /// The lifecycle entries after `after`, oldest first, at most `limit`.
    async fn lifecycle_after(
        &self,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LifecycleRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.lifecycle_after(after, limit).await,
            Self::Postgres(store) => store.lifecycle_after(after, limit).await,
        }
    }

    /// The newest position of the lifecycle feed; 0 when it is empty.
    async fn last_position(&self) -> Result<u64, StoreError> {
        match self {
            Self::Sqlite(store) => store.last_position().await,
            Self::Postgres(store) => store.last_position().await,
        }
    }

    /// Returns when the database is found gone before any write failed (PostgreSQL closed the
    /// writer's connection); never for SQLite.
    async fn lost(&self) {
        match self {
            Self::Sqlite(_) => std::future::pending().await,
            Self::Postgres(store) => store.writer_lost().await,
        }
    }

    /// Whether the database takes writes again, after a failed commit.
    async fn probe(&self) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.probe().await,
            Self::Postgres(store) => store.probe().await,
        }
    }

    /// Work that follows a commit once its callers were answered.
    async fn after_batch(&self) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.checkpoint_if_due().await,
            Self::Postgres(_) => Ok(()),
        }
    }

    async fn close(&self) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.close().await,
            // Every write was committed; the connections close when dropped.
            Self::Postgres(_) => Ok(()),
        }
    }
}

/// The way to the database. Cheap to clone; clones share the writer.
#[derive(Clone)]
pub struct Store {
    requests: mpsc::Sender<Request>,
    backend: Arc<Backend>,
    health: watch::Receiver<StoreHealth>,
    /// Lifecycle entries as they are committed, in position order.
    lifecycle: broadcast::Sender<Arc<LifecycleRow>>,
    /// The newest committed position.
    last_position: watch::Receiver<u64>,
    /// Where the writer, and the listener in cluster mode, publish lifecycle entries.
    feed: Arc<Feed>,
    /// What other servers sharing the database committed, once the store shares its changes.
    remote: broadcast::Sender<RemoteChange>,
}

/// Lifecycle entries a slow reader of the live feed may fall behind by before it is told it
/// lagged (and reads them from the store instead).
const LIFECYCLE_LIVE: usize = 4096;

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match *self.backend {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgresql",
        };
        f.debug_struct("Store").field("backend", &kind).finish()
    }
}

impl Store {
    /// Opens the store `url` names (empty: SQLite in `data_dir`), creating or migrating its
    /// schema, and starts its writer. Must run inside a tokio runtime.
    pub async fn open(url: &str, data_dir: &Path) -> Result<Self, StoreError> {
        let backend = if url.is_empty() {
            Backend::Sqlite(sqlite::SqliteStore::open(data_dir.join(SQLITE_FILE)).await?)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres(Box::new(postgres::PostgresStore::open(url).await?))
        } else {
            return Err(StoreError::UnknownUrl(url.to_owned()));
        };
        let backend = Arc::new(backend);
        let (requests, receiver) = mpsc::channel(WRITE_QUEUE);
        let (health_sender, health) = watch::channel(StoreHealth::Writable);
        let (lifecycle, _) = broadcast::channel(LIFECYCLE_LIVE);
        let (positions, last_position) = watch::channel(backend.last_position().await?);
        let feed = Arc::new(Feed {
            live: lifecycle.clone(),
            positions,
            publishing: std::sync::Mutex::new(()),
        });
        tokio::spawn(write_loop(
            Arc::clone(&backend),
            receiver,
            health_sender,
            Arc::clone(&feed),
        ));
        Ok(Self {
            requests,
            backend,
            health,
            lifecycle,
            last_position,
            feed,
            remote: broadcast::channel(changes::REMOTE_LIVE).0,
        })
    }

    /// Cluster mode: tells other servers sharing the PostgreSQL database what this one commits,
    /// and hears what they commit (see `changes.rs`). Their lifecycle entries are published on
    /// [`Store::lifecycle_live`] as this server's are; their inbox items and tournament changes
    /// on [`Store::remote_changes`]. Nothing for SQLite, which no other server shares; a second
    /// call changes nothing.
    pub async fn share_changes(&self) -> Result<(), StoreError> {
        let Backend::Postgres(store) = &*self.backend else {
            return Ok(());
        };
        if store.changes().channel().is_some() {
            return Ok(());
        }
        let channel = postgres::changes::channel_for(&store.schema().await?);
        store.changes().share_on(channel);
        tokio::spawn(changes::listen(
            Arc::clone(&self.backend),
            Arc::clone(&self.feed),
            self.remote.clone(),
            self.health.clone(),
        ));
        Ok(())
    }

    /// Inbox items and tournament changes other servers committed, as this server's listener
    /// hears of them (only after [`Store::share_changes`]). A receiver that lags behind, or
    /// gets [`RemoteChange::Missed`], may have missed some and re-reads what it follows.
    pub fn remote_changes(&self) -> broadcast::Receiver<RemoteChange> {
        self.remote.subscribe()
    }

    /// Lifecycle entries as they are committed, in position order. A receiver that falls
    /// [`LIFECYCLE_LIVE`] entries behind is told it lagged and reads on from the store.
    pub fn lifecycle_live(&self) -> broadcast::Receiver<Arc<LifecycleRow>> {
        self.lifecycle.subscribe()
    }

    /// The lifecycle entries after position `after`, oldest first, at most `limit` of them.
    pub async fn lifecycle_after(
        &self,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LifecycleRow>, StoreError> {
        self.backend.lifecycle_after(after, limit).await
    }

    /// The newest committed position of the lifecycle feed.
    pub fn last_position(&self) -> u64 {
        *self.last_position.borrow()
    }

    /// Whether writes are being committed. While not, every write fails at once with
    /// [`StoreError::Unwritable`] and nothing is queued.
    pub fn writable(&self) -> bool {
        *self.health.borrow() == StoreHealth::Writable
    }

    /// Follows [`Store::writable`]. The sender goes away when the store is closed.
    pub fn health(&self) -> watch::Receiver<StoreHealth> {
        self.health.clone()
    }

    /// Stores a new match with its first events and lifecycle entries; returns once they are
    /// durable.
    pub async fn create(
        &self,
        row: MatchRow,
        events: Vec<EventRow>,
        lifecycle: Vec<LifecycleRow>,
    ) -> Result<(), StoreError> {
        self.create_fenced(row, events, lifecycle, None).await
    }

    /// [`Store::create`], fenced by `fence` when it is given: the match is stored only if its
    /// lease ([`match_lease`]) has that token when the write commits, and otherwise refused
    /// alone with [`StoreError::Fenced`].
    pub async fn create_fenced(
        &self,
        row: MatchRow,
        events: Vec<EventRow>,
        lifecycle: Vec<LifecycleRow>,
        fence: Option<u64>,
    ) -> Result<(), StoreError> {
        self.write(Write::Create {
            row,
            events,
            lifecycle,
            fence,
        })
        .await
    }

    /// Appends to a match; returns once it is durable.
    pub async fn append(&self, append: Append) -> Result<(), StoreError> {
        self.append_fenced(append, None).await
    }

    /// [`Store::append`], fenced by `fence` when it is given: the append is written only if the
    /// match's lease ([`match_lease`]) has that token when it commits, and otherwise refused
    /// alone with [`StoreError::Fenced`] (nothing of it written: inputs, events, answer, status
    /// or lifecycle entries).
    pub async fn append_fenced(
        &self,
        append: Append,
        fence: Option<u64>,
    ) -> Result<(), StoreError> {
        self.write(Write::Append { append, fence }).await
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.may_write()?;
        let (done, committed) = oneshot::channel();
        self.requests
            .send(Request::Write(write, done))
            .await
            .map_err(|_| StoreError::Closed)?;
        committed.await.map_err(|_| StoreError::Closed)?
    }

    /// Whether a write may start now: not while the store is unwritable, nor once it is closed.
    fn may_write(&self) -> Result<(), StoreError> {
        if let StoreHealth::Unwritable(cause) = &*self.health.borrow() {
            return Err(StoreError::Unwritable(cause.clone()));
        }
        if self.requests.is_closed() {
            return Err(StoreError::Closed);
        }
        Ok(())
    }

    /// Every match's row, oldest first.
    pub async fn matches(&self) -> Result<Vec<MatchRow>, StoreError> {
        self.backend.matches().await
    }

    /// Up to `limit` matches `filter` admits, newest first, created before the match with key
    /// `before` (`None`: from the newest).
    pub async fn list(
        &self,
        filter: &Listing,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<ListedRow>, StoreError> {
        self.backend.list(filter, before, limit).await
    }

    /// The ids of the matches with one of these statuses, by status, then in creation order.
    pub async fn with_status(&self, statuses: &[i32]) -> Result<Vec<String>, StoreError> {
        self.backend.with_status(statuses).await
    }

    /// Whether the database answers a trivial read now: for PostgreSQL a round trip on the
    /// readers' connection (reconnecting if it was lost); for SQLite a read of the embedded file,
    /// which fails only if the file itself cannot be read.
    pub async fn check(&self) -> Result<(), StoreError> {
        match &*self.backend {
            Backend::Sqlite(store) => store.check().await,
            Backend::Postgres(store) => store.check().await,
        }
    }

    /// How many matches are stored with each status, for the statuses any match has.
    pub async fn count_by_status(&self) -> Result<Vec<(i32, u64)>, StoreError> {
        self.backend.count_by_status().await
    }

    /// Everything stored about a match, `None` when there is no such match.
    pub async fn load(&self, match_id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.backend.load(match_id).await
    }

    /// Stores a new bot and, in the same transaction, its first key. [`StoreError::Conflict`]
    /// when the bot's name (without regard to ASCII case), its id or the key's id is taken, or
    /// the key names another bot that does not exist; then nothing is written.
    pub async fn create_bot(
        &self,
        bot: BotRow,
        first_key: Option<ApiKeyRow>,
    ) -> Result<(), StoreError> {
        self.may_write()?;
        self.backend.create_bot(bot, first_key).await
    }

    pub async fn bot(&self, bot_id: &str) -> Result<Option<BotRow>, StoreError> {
        self.backend.bot(bot_id).await
    }

    /// The bot of this name, without regard to ASCII case.
    pub async fn bot_named(&self, name: &str) -> Result<Option<BotRow>, StoreError> {
        self.backend.bot_named(name).await
    }

    /// Up to `limit` bots by name, ASCII case aside; a page goes on after the bot named
    /// `after_name` (the last of the page before, in any case).
    pub async fn bots(
        &self,
        after_name: Option<&str>,
        limit: usize,
    ) -> Result<Vec<BotRow>, StoreError> {
        self.backend.bots(after_name, limit).await
    }

    /// Sets the name, owner, description, variants and caps of the bot with `bot.bot_id` (its
    /// create time stays) and adds `inbox` items, in one transaction; the items as written.
    /// `None` when there is no such bot; [`StoreError::Conflict`] when another bot has the
    /// name. Nothing is written either way.
    pub async fn update_bot(
        &self,
        bot: BotRow,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        self.may_write()?;
        self.backend.update_bot(bot, inbox).await
    }

    /// Stores a new key. [`StoreError::Conflict`] when its id is taken or it names a bot that
    /// does not exist; then nothing is written.
    pub async fn create_key(&self, key: ApiKeyRow) -> Result<(), StoreError> {
        self.may_write()?;
        self.backend.create_key(key).await
    }

    /// Every key, revoked ones too, by create time, then key id.
    pub async fn keys(&self) -> Result<Vec<ApiKeyRow>, StoreError> {
        self.backend.keys(None).await
    }

    /// One key, revoked or not.
    pub async fn key(&self, key_id: &str) -> Result<Option<ApiKeyRow>, StoreError> {
        self.backend.key(key_id).await
    }

    /// The keys of one bot, revoked ones too, by create time, then key id.
    pub async fn keys_of(&self, bot_id: &str) -> Result<Vec<ApiKeyRow>, StoreError> {
        self.backend.keys(Some(bot_id)).await
    }

    /// Revokes a key as of `time_nanos`. `false`, with nothing changed, when there is no such
    /// key or it was revoked before.
    pub async fn revoke_key(&self, key_id: &str, time_nanos: i64) -> Result<bool, StoreError> {
        self.may_write()?;
        self.backend.revoke_key(key_id, time_nanos).await
    }

    /// Writes what a follower of the lifecycle feed learned from one entry, with its cursor, in
    /// one transaction: the seats, then the matches over, the ratings, the tournament games'
    /// results (each only where its game has none yet), the tournament log items (each taking
    /// its tournament's next seq), then the inbox items (each taking its bot's next seq, in
    /// order). Nothing is written, and nothing returned, when the follower's cursor is at
    /// `step.position` or past it already, so a step may be applied again after a crash, or by
    /// two servers at once. Returns the items as written.
    pub async fn apply_follower_step(
        &self,
        step: FollowerStep,
    ) -> Result<Vec<InboxRow>, StoreError> {
        self.may_write()?;
        self.backend.apply_follower_step(step).await
    }

    /// Adds items to their bots' inboxes in one transaction, outside any follower's step; they
    /// are numbered as [`Store::apply_follower_step`] numbers them. Returns them as written.
    pub async fn append_inbox(
        &self,
        items: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        self.may_write()?;
        self.backend.append_inbox(items).await
    }

    /// The position of the last step the follower applied; 0 if it never stepped.
    pub async fn follower_cursor(&self, follower: &str) -> Result<u64, StoreError> {
        self.backend.follower_cursor(follower).await
    }

    /// Up to `limit` of the bot's inbox items after `after_seq`, by seq.
    pub async fn inbox_after(
        &self,
        bot_id: &str,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<InboxRow>, StoreError> {
        self.backend.inbox_after(bot_id, after_seq, limit).await
    }

    /// The bot's oldest seq still kept (the last one + 1 when none is), and the last seq it was
    /// ever given (0 if none): `(1, 0)` for an inbox never written to.
    pub async fn inbox_bounds(&self, bot_id: &str) -> Result<(u64, u64), StoreError> {
        self.backend.inbox_bounds(bot_id).await
    }

    /// Deletes the inbox items of every bot older than `before_time_nanos`; returns how many.
    /// Each bot's seqs go on from where they were.
    pub async fn prune_inbox(&self, before_time_nanos: i64) -> Result<u64, StoreError> {
        self.may_write()?;
        self.backend.prune_inbox(before_time_nanos).await
    }

    /// The seats the bot took (only those of matches not over, if `live_only`), by the time
    /// they were taken, then match id and seat.
    pub async fn bot_seats(
        &self,
        bot_id: &str,
        live_only: bool,
    ) -> Result<Vec<BotSeatRow>, StoreError> {
        self.backend.bot_seats(bot_id, live_only).await
    }

    /// Every bot that holds live seats, with how many, by bot id.
    pub async fn live_seat_counts(&self) -> Result<Vec<(String, u64)>, StoreError> {
        self.backend.live_seat_counts().await
    }

    /// Stores a new challenge and the inbox items it causes, in one transaction. Returns the
    /// items as written.
    pub async fn create_challenge(
        &self,
        challenge: ChallengeRow,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        self.may_write()?;
        self.backend.create_challenge(challenge, inbox).await
    }

    /// Resolves an open challenge as [`Resolution`] says, in one transaction: its state, the
    /// match it assigns (if both bots' caps admit it) and its inbox items. Nothing is written
    /// unless the challenge is open and the caps admit the match.
    pub async fn resolve_challenge(&self, resolution: Resolution) -> Result<Resolved, StoreError> {
        self.may_write()?;
        self.backend.resolve_challenge(resolution).await
    }

    pub async fn challenge(&self, challenge_id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        self.backend.challenge(challenge_id).await
    }

    /// The challenges the filter wants, oldest first.
    pub async fn challenges(
        &self,
        filter: ChallengeFilter,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        self.backend.challenges(filter).await
    }

    /// The assigned matches in `state`, oldest first.
    pub async fn assigned_matches(
        &self,
        state: AssignedState,
    ) -> Result<Vec<AssignedMatchRow>, StoreError> {
        self.backend.assigned_matches(state).await
    }

    /// The matches assigned to the bot that are not over (pending or created), oldest first.
    pub async fn assigned_to(&self, bot_id: &str) -> Result<Vec<AssignedMatchRow>, StoreError> {
        self.backend.assigned_to(bot_id).await
    }

    pub async fn assigned_match(
        &self,
        match_id: &str,
    ) -> Result<Option<AssignedMatchRow>, StoreError> {
        self.backend.assigned_match(match_id).await
    }

    /// Moves an assigned match from `from` to `to` and writes the inbox items that causes, in
    /// one transaction; `None`, with nothing written, when it was not in `from`.
    pub async fn mark_assigned(
        &self,
        match_id: &str,
        from: AssignedState,
        to: AssignedState,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        self.may_write()?;
        self.backend.mark_assigned(match_id, from, to, inbox).await
    }

    /// Where the bot stands against its caps, counting from `day_start_nanos` for the day.
    pub async fn bot_load(
        &self,
        bot_id: &str,
        day_start_nanos: i64,
    ) -> Result<BotLoad, StoreError> {
        self.backend.bot_load(bot_id, day_start_nanos).await
    }

    /// [`Store::bot_load`] of every bot with a live match or a match today, by bot id; a bot
    /// not listed has none.
    pub async fn bot_loads(
        &self,
        day_start_nanos: i64,
    ) -> Result<Vec<(String, BotLoad)>, StoreError> {
        self.backend.bot_loads(day_start_nanos).await
    }

    /// Stores the bot's acceptance policy (the leagues crate's bytes), or removes it.
    pub async fn set_policy(
        &self,
        bot_id: &str,
        policy: Option<Vec<u8>>,
    ) -> Result<(), StoreError> {
        self.may_write()?;
        self.backend.set_policy(bot_id, policy).await
    }

    pub async fn policy(&self, bot_id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.backend.policy(bot_id).await
    }

    /// Ratings, of one pool or every pool, of one bot or every bot, by pool then bot id.
    pub async fn ratings(
        &self,
        pool: Option<&str>,
        bot_id: Option<&str>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.backend.ratings(pool, bot_id).await
    }

    /// Up to `limit` rating changes numbered after `after` (of one bot, or of every bot), in
    /// the order they were written.
    pub async fn rating_changes(
        &self,
        bot_id: Option<&str>,
        after: u64,
        limit: usize,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        self.backend.rating_changes(bot_id, after, limit).await
    }

    /// Puts a ticket in its pool; [`StoreError::Conflict`] when its bot waits there already.
    pub async fn enter_ticket(&self, ticket: TicketRow) -> Result<(), StoreError> {
        self.may_write()?;
        self.backend.enter_ticket(ticket).await
    }

    /// Takes a waiting ticket out of its pool; `false` when it was not waiting.
    pub async fn leave_ticket(&self, ticket_id: &str) -> Result<bool, StoreError> {
        self.may_write()?;
        self.backend.leave_ticket(ticket_id).await
    }

    /// Tickets (of one bot, or every bot; waiting ones only, or all), by pool, then entry.
    pub async fn tickets(
        &self,
        bot_id: Option<&str>,
        waiting_only: bool,
    ) -> Result<Vec<TicketRow>, StoreError> {
        self.backend.tickets(bot_id, waiting_only).await
    }

    /// Pairs waiting tickets, pair after pair in one transaction: a pair is written (its match
    /// assigned, its tickets paired) only if both tickets still wait and both bots' caps admit
    /// one more match, counting the pairs written before it; what came of each, in order.
    pub async fn pair_tickets(&self, pairs: Vec<TicketPair>) -> Result<Vec<Paired>, StoreError> {
        self.may_write()?;
        self.backend.pair_tickets(pairs).await
    }

    /// Stores a new tournament with its log items, in one transaction; `false`, with nothing
    /// written, when its id is taken.
    pub async fn create_tournament(
        &self,
        row: TournamentRow,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<bool, StoreError> {
        self.may_write()?;
        self.backend.create_tournament(row, log).await
    }

    pub async fn tournament(
        &self,
        tournament_id: &str,
    ) -> Result<Option<TournamentRow>, StoreError> {
        self.backend.tournament(tournament_id).await
    }

    /// The tournaments (in `state`, or all), by create time, then id.
    pub async fn tournaments(
        &self,
        state: Option<TournamentState>,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        self.backend.tournaments(state).await
    }

    /// Enters a bot in a tournament that is open or running, with the inbox and log items that
    /// causes, in one transaction. Nothing is written when the bot was entered already, or the
    /// tournament is over or unknown.
    pub async fn enter_tournament(
        &self,
        entry: EntryRow,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Entered, StoreError> {
        self.may_write()?;
        self.backend.enter_tournament(entry, inbox, log).await
    }

    /// Sets an entry's state and writes its log items, in one transaction; the state before.
    /// `None` when there is no such entry; nothing written (log items neither) when the entry
    /// is in `state` already.
    pub async fn set_entry_state(
        &self,
        tournament_id: &str,
        bot_id: &str,
        state: EntryState,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<EntryState>, StoreError> {
        self.may_write()?;
        self.backend
            .set_entry_state(tournament_id, bot_id, state, log)
            .await
    }

    /// A tournament's entries, by the time they joined, then bot id.
    pub async fn entries(&self, tournament_id: &str) -> Result<Vec<EntryRow>, StoreError> {
        self.backend.entries(tournament_id).await
    }

    /// Writes a paired round in one transaction: the round, its games, their matches assigned
    /// (pending), inbox items, log items, and the tournament's rounds paired moved on (an open
    /// tournament turns running). `None`, with nothing written, when the tournament is not at
    /// `paired.after` rounds any more, is over, or is unknown. A round whose parts do not
    /// belong together (see [`PairedRound`]) is refused with [`StoreError::Database`].
    pub async fn pair_round(
        &self,
        paired: PairedRound,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        self.may_write()?;
        self.backend.pair_round(paired).await
    }

    /// Ends a tournament that is open or running as `state` (finished or cancelled), with the
    /// inbox and log items that causes, in one transaction. `None`, with nothing written, when
    /// it is over already or unknown.
    pub async fn finish_tournament(
        &self,
        tournament_id: &str,
        state: TournamentState,
        finished_nanos: i64,
        end_reason: &str,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        self.may_write()?;
        self.backend
            .finish_tournament(tournament_id, state, finished_nanos, end_reason, inbox, log)
            .await
    }

    /// A tournament's rounds, by number.
    pub async fn tournament_rounds(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentRoundRow>, StoreError> {
        self.backend.tournament_rounds(tournament_id).await
    }

    /// A tournament's games, by round, then match id.
    pub async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGameRow>, StoreError> {
        self.backend.tournament_games(tournament_id).await
    }

    /// The tournament game played as this match, if it is one.
    pub async fn tournament_game(
        &self,
        match_id: &str,
    ) -> Result<Option<TournamentGameRow>, StoreError> {
        self.backend.tournament_game(match_id).await
    }

    /// Up to `limit` of a tournament's log items after `after_seq`, by seq.
    pub async fn tournament_log_after(
        &self,
        tournament_id: &str,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<TournamentLogRow>, StoreError> {
        self.backend
            .tournament_log_after(tournament_id, after_seq, limit)
            .await
    }

    /// The last seq of a tournament's log; 0 if it has none.
    pub async fn tournament_log_head(&self, tournament_id: &str) -> Result<u64, StoreError> {
        self.backend.tournament_log_head(tournament_id).await
    }

    /// Commits everything queued, then closes the database; later writes fail with
    /// [`StoreError::Closed`].
    pub async fn close(&self) -> Result<(), StoreError> {
        let (done, closed) = oneshot::channel();
        if self.requests.send(Request::Close(done)).await.is_err() {
            return Ok(());
        }
        closed.await.unwrap_or(Ok(()))
    }
}

/// Where the writer publishes the lifecycle entries it committed, and in cluster mode the
/// listener those other servers committed.
struct Feed {
    live: broadcast::Sender<Arc<LifecycleRow>>,
    positions: watch::Sender<u64>,
    /// One publisher at a time, so the live entries go out in position order.
    publishing: std::sync::Mutex<()>,
}

impl Feed {
    /// Where the next batch's lifecycle entries are numbered from.
    fn next_position(&self) -> u64 {
        *self.positions.borrow() + 1
    }

    /// Publishes the entries after the newest published. Alone, the writer publishes its
    /// entries one after another with no gap. With other servers writing (cluster mode) the
    /// writer's and the listener's entries interleave: an entry at or before one published
    /// already was published, or is in the store for a reader that finds a gap.
    fn publish(&self, rows: Vec<LifecycleRow>) {
        let _one_at_a_time = self
            .publishing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for row in rows {
            if row.position <= *self.positions.borrow() {
                continue;
            }
            self.positions.send_replace(row.position);
            // Nobody following the feed is fine.
            let _ = self.live.send(Arc::new(row));
        }
    }

    fn last_published(&self) -> u64 {
        *self.positions.borrow()
    }

    /// After a failed batch: whatever of it reached the database after all (its answer was
    /// lost with the connection) is published now, so live readers miss nothing.
    async fn catch_up(&self, backend: &Backend) -> Result<(), StoreError> {
        loop {
            let after = *self.positions.borrow();
            let rows = backend.lifecycle_after(after, MAX_BATCH).await?;
            if rows.is_empty() {
                return Ok(());
            }
            self.publish(rows);
        }
    }
}

/// The single writer: takes whatever is queued (up to [`MAX_BATCH`]), commits it as one
/// transaction, answers every caller in the batch, and repeats. After a failed batch it
/// recovers (see [`recover`]) before it commits anything else.
async fn write_loop(
    backend: Arc<Backend>,
    mut requests: mpsc::Receiver<Request>,
    health: watch::Sender<StoreHealth>,
    feed: Arc<Feed>,
) {
    loop {
        let first = tokio::select! {
            request = requests.recv() => match request {
                Some(request) => request,
                None => return,
            },
            () = backend.lost() => {
                let cause = "the connection to the database was lost".to_owned();
                tracing::error!("{cause}");
                health.send_replace(StoreHealth::Unwritable(cause));
                match recover(&backend, &mut requests, &health, &feed).await {
                    Recovery::Writable => continue,
                    Recovery::Closing(done) => Request::Close(done),
                    Recovery::Abandoned => return,
                }
            }
        };
        let mut batch = Vec::new();
        let mut waiting = Vec::new();
        let mut closing = None;
        let mut next = Some(first);
        while let Some(request) = next.take() {
            match request {
                Request::Write(write, done) => {
                    batch.push(write);
                    waiting.push(done);
                }
                Request::Close(done) => {
                    closing = Some(done);
                    break;
                }
            }
            if batch.len() < MAX_BATCH {
                next = requests.try_recv().ok();
            }
        }
        if !batch.is_empty() {
            let first_position = feed.next_position();
            let started = std::time::Instant::now();
            let result = backend.commit(batch, first_position).await;
            ::metrics::histogram!(metrics::COMMIT_SECONDS).record(started.elapsed());
            ::metrics::histogram!(metrics::COMMIT_WRITES).record(waiting.len() as f64);
            match result {
                Ok(committed) => {
                    feed.publish(committed.lifecycle);
                    for (done, outcome) in waiting.into_iter().zip(committed.outcomes) {
                        if let Err(StoreError::Fenced { match_id, token }) = &outcome {
                            tracing::warn!(match_id, token, "a fenced write was refused");
                            ::metrics::counter!(metrics::FENCED_WRITES).increment(1);
                        }
                        // A caller that went away needs no answer.
                        let _ = done.send(outcome);
                    }
                    // Only now, with every caller answered, housekeeping that need not delay
                    // them.
                    if let Err(error) = backend.after_batch().await {
                        tracing::warn!(%error, "store housekeeping failed");
                    }
                }
                Err(error) => {
                    tracing::error!(%error, writes = waiting.len(), "a batch of writes failed");
                    health.send_replace(StoreHealth::Unwritable(error.to_string()));
                    for done in waiting {
                        let _ = done.send(Err(error.clone()));
                    }
                    if closing.is_none() {
                        match recover(&backend, &mut requests, &health, &feed).await {
                            Recovery::Writable => {}
                            Recovery::Closing(done) => closing = Some(done),
                            Recovery::Abandoned => return,
                        }
                    }
                }
            }
        }
        if let Some(done) = closing {
            requests.close();
            let _ = done.send(backend.close().await);
            return;
        }
    }
}

/// How recovering from a failed batch ended.
enum Recovery {
    Writable,
    /// Asked to close meanwhile: the reply goes here.
    Closing(oneshot::Sender<Result<(), StoreError>>),
    /// Every handle of the store is gone.
    Abandoned,
}

/// Probes the database with a doubling backoff until it takes writes again, then turns the
/// store writable; answers every write that arrives meanwhile with [`StoreError::Unwritable`]
/// (they were sent before their callers could see the store fail).
async fn recover(
    backend: &Backend,
    requests: &mut mpsc::Receiver<Request>,
    health: &watch::Sender<StoreHealth>,
    feed: &Feed,
) -> Recovery {
    let mut backoff = FIRST_BACKOFF;
    loop {
        let retry_at = tokio::time::Instant::now() + backoff;
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(retry_at) => break,
                request = requests.recv() => match request {
                    Some(Request::Write(_, done)) => {
                        let cause = match &*health.borrow() {
                            StoreHealth::Unwritable(cause) => cause.clone(),
                            StoreHealth::Writable => String::new(),
                        };
                        let _ = done.send(Err(StoreError::Unwritable(cause)));
                    }
                    Some(Request::Close(done)) => return Recovery::Closing(done),
                    None => return Recovery::Abandoned,
                },
            }
        }
        let probed = async {
            backend.probe().await?;
            feed.catch_up(backend).await
        };
        match probed.await {
            Ok(()) => {
                tracing::info!("the store writes again");
                health.send_replace(StoreHealth::Writable);
                return Recovery::Writable;
            }
            Err(error) => {
                tracing::warn!(%error, retry_in = ?backoff, "the store still cannot write");
                health.send_replace(StoreHealth::Unwritable(error.to_string()));
                backoff = (backoff * 2).min(LONGEST_BACKOFF);
            }
        }
    }
}

#[cfg(any(test, feature = "scratch"))]
pub mod scratch;
#[cfg(test)]
mod tests;
