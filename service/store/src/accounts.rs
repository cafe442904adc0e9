//! Bots and API keys (schema 7): who may act on the server beyond one seat.
//!
//! Their writes are rare (an operator, or a bot managing itself), so they skip the group
//! commit: each runs in a transaction of its own on the backend's writer connection (see
//! `sqlite/accounts.rs` and `postgres/accounts.rs`), under the same rule as every write, none
//! while the store is unwritable. Reads go through the reader, as loading a match does.
//!
//! Both backends keep the same columns. A bot's name is unique without regard to ASCII case:
//! beside it each row keeps `name_key`, the name with ASCII letters lowered (computed here, not
//! by the database, whose `lower` differs between SQLite and PostgreSQL beyond ASCII), which is
//! unique and orders the pages of [`Store::bots`](crate::Store::bots) byte by byte. A bot's
//! variants are one text column: the ids joined by newlines, the empty text for none.

use super::{Backend, StoreError};

/// A bot: a lasting identity that plays matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotRow {
    pub bot_id: String,
    /// Unique among bots, compared case-insensitively (ASCII).
    pub name: String,
    pub owner: String,
    pub description: String,
    /// Variant ids the bot plays; empty for all.
    pub variants: Vec<String>,
    pub max_concurrent: u32,
    pub daily_cap: u32,
    /// Nanoseconds since the Unix epoch.
    pub create_time_nanos: i64,
}

/// An API key: only the SHA-256 of its secret is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiKeyRow {
    pub key_id: String,
    /// The bot the key acts for; `None` for an operator key that belongs to no bot.
    pub bot_id: Option<String>,
    pub label: String,
    /// A bit set of scopes; the store does not interpret it.
    pub scopes: u32,
    pub secret_hash: Vec<u8>,
    pub create_time_nanos: i64,
    pub revoke_time_nanos: Option<i64>,
}

/// What a bot's name is compared and ordered by.
pub(crate) fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// The `variants` column. An id that is empty or holds a newline would not read back as
/// written, so it is refused.
pub(crate) fn encode_variants(variants: &[String]) -> Result<String, StoreError> {
    if let Some(bad) = variants.iter().find(|v| v.is_empty() || v.contains('\n')) {
        return Err(StoreError::Database(format!(
            "cannot store the variant id {bad:?}: it is empty or holds a newline"
        )));
    }
    Ok(variants.join("\n"))
}

pub(crate) fn decode_variants(column: &str) -> Vec<String> {
    if column.is_empty() {
        return Vec::new();
    }
    column.split('\n').map(str::to_owned).collect()
}

pub(crate) fn name_taken(name: &str) -> StoreError {
    StoreError::Conflict(format!(
        "the bot name `{name}` is taken (names are compared without regard to ASCII case)"
    ))
}

pub(crate) fn bot_id_taken(bot_id: &str) -> StoreError {
    StoreError::Conflict(format!("a bot with the id `{bot_id}` exists"))
}

pub(crate) fn key_id_taken(key_id: &str) -> StoreError {
    StoreError::Conflict(format!("an API key with the id `{key_id}` exists"))
}

pub(crate) fn no_such_bot(bot_id: &str) -> StoreError {
    StoreError::Conflict(format!(
        "the bot `{bot_id}` does not exist, so it can have no key"
    ))
}

impl Backend {
    pub(crate) async fn create_bot(
        &self,
        bot: BotRow,
        first_key: Option<ApiKeyRow>,
    ) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.create_bot(bot, first_key).await,
            Self::Postgres(store) => store.create_bot(&bot, first_key.as_ref()).await,
        }
    }

    pub(crate) async fn bot(&self, bot_id: &str) -> Result<Option<BotRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.bot(bot_id.to_owned()).await,
            Self::Postgres(store) => store.bot(bot_id).await,
        }
    }

    pub(crate) async fn bot_named(&self, name: &str) -> Result<Option<BotRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.bot_named(name_key(name)).await,
            Self::Postgres(store) => store.bot_named(name_key(name)).await,
        }
    }

    pub(crate) async fn bots(
        &self,
        after_name: Option<&str>,
        limit: usize,
    ) -> Result<Vec<BotRow>, StoreError> {
        let after = after_name.map(name_key);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        match self {
            Self::Sqlite(store) => store.bots(after, limit).await,
            Self::Postgres(store) => store.bots(after, limit).await,
        }
    }

    pub(crate) async fn update_bot(
        &self,
        bot: BotRow,
        inbox: Vec<crate::NewInboxItem>,
    ) -> Result<Option<Vec<crate::InboxRow>>, StoreError> {
        match self {
            Self::Sqlite(store) => store.update_bot(bot, inbox).await,
            Self::Postgres(store) => store.update_bot(&bot, inbox).await,
        }
    }

    pub(crate) async fn create_key(&self, key: ApiKeyRow) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.create_key(key).await,
            Self::Postgres(store) => store.create_key(&key).await,
        }
    }

    /// The keys of `bot_id`, or every key for `None`; by create time, then key id.
    pub(crate) async fn keys(&self, bot_id: Option<&str>) -> Result<Vec<ApiKeyRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.keys(bot_id.map(str::to_owned)).await,
            Self::Postgres(store) => store.keys(bot_id).await,
        }
    }

    pub(crate) async fn key(&self, key_id: &str) -> Result<Option<ApiKeyRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.key(key_id.to_owned()).await,
            Self::Postgres(store) => store.key(key_id).await,
        }
    }

    pub(crate) async fn revoke_key(
        &self,
        key_id: &str,
        time_nanos: i64,
    ) -> Result<bool, StoreError> {
        match self {
            Self::Sqlite(store) => store.revoke_key(key_id.to_owned(), time_nanos).await,
            Self::Postgres(store) => store.revoke_key(key_id, time_nanos).await,
        }
    }
}
