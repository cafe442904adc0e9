//! Bots and their keys, and who may do what with them. The store keeps both; every key is also
//! held here, so a key is checked on each call without a database read. A key made by another
//! process on the same store (the operator-key command) is read from the store the first time
//! it is presented; wrong keys are few, as the edge limits them per address.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::SystemTime;

use pitchmate_store::{Store, StoreError};

use crate::bot::{self, Bot, BotChange};
use crate::error::LeagueError;
use crate::inbox::{InboxBus, InboxItem, QuotaChange};
use crate::key::{self, ApiKey, IssuedKey};
use crate::scope::{Scope, Scopes};

/// The caps a new bot gets, from the server's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotDefaults {
    pub max_concurrent: u32,
    pub daily_cap: u32,
}

/// What registering a bot gives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewBot {
    pub name: String,
    pub owner: String,
    pub description: String,
    pub variants: Vec<String>,
}

/// The holder of a valid, unrevoked key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub key: ApiKey,
}

impl Caller {
    pub fn is_operator(&self) -> bool {
        self.key.scopes.has(Scope::Operator)
    }

    /// The bot the caller acts for with `scope`; refused for an operator key or a key without it.
    pub fn bot_with(&self, scope: Scope, hint: &'static str) -> Result<&str, LeagueError> {
        match &self.key.bot_id {
            Some(bot_id) if self.key.scopes.has(scope) => Ok(bot_id),
            _ => Err(LeagueError::MissingScope { scope, hint }),
        }
    }

    /// The bot the key belongs to, whatever its scopes.
    pub fn bot(&self) -> Result<&str, LeagueError> {
        self.key.bot_id.as_deref().ok_or(LeagueError::NotABotKey)
    }

    /// May change `bot_id` and its keys: an operator, or a key of that bot with MANAGE.
    pub(crate) fn may_manage(&self, bot_id: &str) -> Result<(), LeagueError> {
        if self.is_operator() {
            return Ok(());
        }
        let own = self.bot_with(
            Scope::Manage,
            "use a key of the bot with MANAGE, or an OPERATOR key",
        )?;
        if own != bot_id {
            return Err(LeagueError::NotYourBot(bot_id.to_owned()));
        }
        Ok(())
    }

    pub(crate) fn require_operator(&self, hint: &'static str) -> Result<(), LeagueError> {
        if self.is_operator() {
            Ok(())
        } else {
            Err(LeagueError::MissingScope {
                scope: Scope::Operator,
                hint,
            })
        }
    }
}

pub struct Accounts {
    store: Store,
    defaults: BotDefaults,
    known_variants: Vec<String>,
    /// Every key this server made or was shown, by id.
    keys: RwLock<HashMap<String, ApiKey>>,
    /// Where inbox items written here are announced.
    bus: InboxBus,
}

impl Accounts {
    /// Reads every key from the store.
    pub async fn open(
        store: Store,
        defaults: BotDefaults,
        known_variants: Vec<String>,
    ) -> Result<Self, StoreError> {
        let keys = read_keys(&store).await?;
        Ok(Self {
            store,
            defaults,
            known_variants,
            keys: RwLock::new(keys),
            bus: InboxBus::default(),
        })
    }

    /// Announces the inbox items written here (a bot's caps changed) on `bus`, which the
    /// server's inbox readers follow.
    pub fn announcing_on(mut self, bus: InboxBus) -> Self {
        self.bus = bus;
        self
    }

    /// The holder of the presented key, if it is valid and not revoked.
    pub async fn authenticate(&self, presented: &str) -> Result<Caller, LeagueError> {
        let (key_id, secret) = key::parse(presented).ok_or(LeagueError::InvalidApiKey)?;
        let known = match self.held(key_id) {
            Some(key) => Some(key),
            None => self.read_key(key_id).await?,
        };
        let key = known
            .filter(|key| key.opens_with(secret))
            .ok_or(LeagueError::InvalidApiKey)?;
        if key.is_revoked() {
            return Err(LeagueError::ApiKeyRevoked(key.key_id));
        }
        Ok(Caller { key })
    }

    fn held(&self, key_id: &str) -> Option<ApiKey> {
        let keys = self.keys.read().unwrap_or_else(|p| p.into_inner());
        keys.get(key_id).cloned()
    }

    /// A key from the store, held from now on.
    async fn read_key(&self, key_id: &str) -> Result<Option<ApiKey>, StoreError> {
        let key = self.store.key(key_id).await?.and_then(ApiKey::from_row);
        if let Some(key) = &key {
            self.hold(key.clone());
        }
        Ok(key)
    }

    fn hold(&self, key: ApiKey) {
        let mut keys = self.keys.write().unwrap_or_else(|p| p.into_inner());
        keys.insert(key.key_id.clone(), key);
    }

    /// Registers a bot with the default caps, and its first key (every bot scope).
    pub async fn create_bot(
        &self,
        new: NewBot,
        now: SystemTime,
    ) -> Result<(Bot, IssuedKey), LeagueError> {
        bot::check_name("name", &new.name)?;
        bot::check_text("owner", &new.owner, bot::MAX_OWNER)?;
        bot::check_text("description", &new.description, bot::MAX_DESCRIPTION)?;
        bot::check_variants("variants", &new.variants, &self.known_variants)?;
        let bot = Bot {
            bot_id: random_id()?,
            name: new.name,
            owner: new.owner,
            description: new.description,
            variants: new.variants,
            max_concurrent: self.defaults.max_concurrent,
            daily_cap: self.defaults.daily_cap,
            create_time: now,
        };
        let issued = ApiKey::issue(Some(bot.bot_id.clone()), "first".into(), Scopes::BOT, now)?;
        match self
            .store
            .create_bot(bot.to_row(), Some(issued.key.to_row()))
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => return Err(LeagueError::BotNameTaken(bot.name)),
            Err(error) => return Err(error.into()),
        }
        self.hold(issued.key.clone());
        tracing::info!(bot_id = %bot.bot_id, name = %bot.name, "bot created");
        Ok((bot, issued))
    }

    pub async fn bot(&self, bot_id: &str) -> Result<Bot, LeagueError> {
        self.store
            .bot(bot_id)
            .await?
            .map(Bot::from_row)
            .ok_or_else(|| LeagueError::BotNotFound(bot_id.to_owned()))
    }

    pub async fn bot_named(&self, name: &str) -> Result<Bot, LeagueError> {
        self.store
            .bot_named(name)
            .await?
            .map(Bot::from_row)
            .ok_or_else(|| LeagueError::BotNotFound(name.to_owned()))
    }

    /// A bot named by its id or, when no bot has that id, by its name: how callers name a
    /// challenge's target or a tournament's entrant.
    pub async fn bot_by_id_or_name(&self, named: &str) -> Result<Bot, LeagueError> {
        match self.bot(named).await {
            Err(LeagueError::BotNotFound(_)) => self.bot_named(named).await,
            found => found,
        }
    }

    /// Up to `limit` bots by name, after the bot named `after`.
    pub async fn bots(&self, after: Option<&str>, limit: usize) -> Result<Vec<Bot>, LeagueError> {
        let rows = self.store.bots(after, limit).await?;
        Ok(rows.into_iter().map(Bot::from_row).collect())
    }

    pub async fn update_bot(
        &self,
        caller: &Caller,
        bot_id: &str,
        change: BotChange,
    ) -> Result<Bot, LeagueError> {
        caller.may_manage(bot_id)?;
        if change.sets_caps() {
            caller.require_operator("only an operator changes a bot's caps")?;
        }
        let bot = self
            .bot(bot_id)
            .await?
            .changed(change, &self.known_variants)?;
        let before = self.bot(bot_id).await?;
        // A bot hears when its caps change: what the league will assign it changes with them.
        let told =
            if (before.max_concurrent, before.daily_cap) != (bot.max_concurrent, bot.daily_cap) {
                let item = InboxItem::QuotaChanged(QuotaChange {
                    max_concurrent: bot.max_concurrent,
                    daily_cap: bot.daily_cap,
                });
                vec![item.to_new(bot_id, SystemTime::now())]
            } else {
                Vec::new()
            };
        match self.store.update_bot(bot.to_row(), told).await {
            Ok(Some(rows)) => {
                self.bus.publish(rows);
                Ok(bot)
            }
            Ok(None) => Err(LeagueError::BotNotFound(bot_id.to_owned())),
            Err(StoreError::Conflict(_)) => Err(LeagueError::BotNameTaken(bot.name)),
            Err(error) => Err(error.into()),
        }
    }

    /// Makes a key for `bot_id`, or an operator key when `None`.
    pub async fn create_key(
        &self,
        caller: &Caller,
        bot_id: Option<&str>,
        label: String,
        scopes: Scopes,
        now: SystemTime,
    ) -> Result<IssuedKey, LeagueError> {
        bot::check_text("label", &label, bot::MAX_OWNER)?;
        match bot_id {
            Some(bot_id) => {
                caller.may_manage(bot_id)?;
                if !scopes.within(Scopes::BOT) {
                    return Err(invalid_scopes(
                        "a bot's key has scopes among PLAY, CHALLENGE and MANAGE",
                    ));
                }
                self.bot(bot_id).await?;
            }
            None => {
                caller.require_operator("only an operator makes operator keys")?;
                if scopes != Scopes::OPERATOR {
                    return Err(invalid_scopes(
                        "an operator key (no bot_id) has scope OPERATOR alone",
                    ));
                }
            }
        }
        if scopes.is_empty() {
            return Err(invalid_scopes("give at least one scope"));
        }
        self.issue(bot_id.map(str::to_owned), label, scopes, now)
            .await
    }

    /// Makes an operator key with no caller: how the first one comes to exist (the server's
    /// operator-key command, run by whoever runs the server).
    pub async fn create_operator_key(
        &self,
        label: String,
        now: SystemTime,
    ) -> Result<IssuedKey, LeagueError> {
        bot::check_text("label", &label, bot::MAX_OWNER)?;
        self.issue(None, label, Scopes::OPERATOR, now).await
    }

    async fn issue(
        &self,
        bot_id: Option<String>,
        label: String,
        scopes: Scopes,
        now: SystemTime,
    ) -> Result<IssuedKey, LeagueError> {
        let issued = ApiKey::issue(bot_id, label, scopes, now)?;
        match self.store.create_key(issued.key.to_row()).await {
            Ok(()) => {}
            // A bot that does not exist (checked above, so hardly ever), or a key id drawn twice.
            Err(StoreError::Conflict(detail)) => return Err(LeagueError::Unavailable(detail)),
            Err(error) => return Err(error.into()),
        }
        self.hold(issued.key.clone());
        tracing::info!(key_id = %issued.key.key_id, bot_id = ?issued.key.bot_id, "API key created");
        Ok(issued)
    }

    /// `bot_id`'s keys, or the operator keys for `None`, oldest first.
    pub async fn keys_of(
        &self,
        caller: &Caller,
        bot_id: Option<&str>,
    ) -> Result<Vec<ApiKey>, LeagueError> {
        let rows = match bot_id {
            Some(bot_id) => {
                caller.may_manage(bot_id)?;
                self.bot(bot_id).await?;
                self.store.keys_of(bot_id).await?
            }
            None => {
                caller.require_operator("only an operator lists operator keys")?;
                let mut rows = self.store.keys().await?;
                rows.retain(|row| row.bot_id.is_none());
                rows
            }
        };
        Ok(rows.into_iter().filter_map(ApiKey::from_row).collect())
    }

    /// Revokes a key for good: the caller's own, one of a bot it manages, or any (an operator).
    pub async fn revoke_key(
        &self,
        caller: &Caller,
        key_id: &str,
        now: SystemTime,
    ) -> Result<ApiKey, LeagueError> {
        let not_found = || LeagueError::ApiKeyNotFound(key_id.to_owned());
        let key = match self.held(key_id) {
            Some(key) => key,
            None => self.read_key(key_id).await?.ok_or_else(not_found)?,
        };
        if caller.key.key_id != key.key_id {
            match &key.bot_id {
                Some(bot_id) => caller.may_manage(bot_id)?,
                None => caller.require_operator("only an operator revokes operator keys")?,
            }
        }
        if key.is_revoked() {
            return Ok(key);
        }
        self.store.revoke_key(key_id, crate::nanos(now)).await?;
        let mut revoked = key;
        revoked.revoke_time = Some(now);
        self.hold(revoked.clone());
        tracing::info!(key_id, "API key revoked");
        Ok(revoked)
    }
}

fn invalid_scopes(message: &str) -> LeagueError {
    LeagueError::InvalidField {
        field: "scopes",
        message: message.to_owned(),
    }
}

async fn read_keys(store: &Store) -> Result<HashMap<String, ApiKey>, StoreError> {
    Ok(store
        .keys()
        .await?
        .into_iter()
        .filter_map(ApiKey::from_row)
        .map(|key| (key.key_id.clone(), key))
        .collect())
}

/// 16 hex digits from the operating system's random source: the id of a bot or a key.
pub(crate) fn random_id() -> Result<String, LeagueError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| LeagueError::Unavailable(format!("no randomness for an id: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
