//! Who a call is: the `authorization: Bearer` credential read once for every service. A seat
//! token passes to the match as it is; an API key (`pmk_...`) is checked here, and for a bot's
//! key with PLAY the match is shown the bot's account credential, which its seats were taken
//! with. Wrong tokens and keys both count against the address's allowance.

use std::net::IpAddr;
use std::sync::Arc;

use tokio::time::Instant;
use tonic::metadata::MetadataMap;

use super::bearer_token;
use super::rate_limit::RateLimiter;
use crate::error::{RateLimit, ServiceError};
use crate::hosting::token::account_credential;
use pitchmate_leagues::{Accounts, Caller, LeagueError, Scope, key};

pub struct Credentials {
    pub accounts: Arc<Accounts>,
    /// Wrong credentials per client address.
    pub auth_failures: RateLimiter<IpAddr>,
}

impl Credentials {
    pub fn new(accounts: Arc<Accounts>, per_second: u32, burst: u32) -> Self {
        Self {
            accounts,
            auth_failures: RateLimiter::new(RateLimit::FailedAuthentications, per_second, burst),
        }
    }

    /// The holder of the API key `request` presents; refused without one.
    pub async fn caller_of<T>(&self, request: &tonic::Request<T>) -> Result<Caller, ServiceError> {
        self.caller(super::client_of(request), request.metadata())
            .await
    }

    /// The holder of the API key the call presents; refused without one.
    pub async fn caller(
        &self,
        client: IpAddr,
        metadata: &MetadataMap,
    ) -> Result<Caller, ServiceError> {
        let presented = bearer_token(metadata)?
            .filter(|presented| key::is_api_key(presented))
            .ok_or_else(|| {
                ServiceError::Unauthenticated(
                    "this call needs an API key, sent as `authorization: Bearer pmk_...`; \
                     CreateBot gives a bot its first one"
                        .to_owned(),
                )
            })?;
        self.authenticate(client, &presented).await
    }

    /// The API key's holder, counting a wrong key against the address.
    pub async fn authenticate(
        &self,
        client: IpAddr,
        presented: &str,
    ) -> Result<Caller, ServiceError> {
        self.auth_failures.check(&client, Instant::now())?;
        let result = self.accounts.authenticate(presented).await;
        if let Err(LeagueError::InvalidApiKey) = &result {
            let _ = self.auth_failures.take(&client, Instant::now());
        }
        Ok(result?)
    }

    /// What the call presents to a match: its seat token, or the account credential of the bot
    /// whose PLAY key it carries; `None` without an `authorization` header.
    pub async fn seat_credential(
        &self,
        client: IpAddr,
        metadata: &MetadataMap,
    ) -> Result<Option<String>, ServiceError> {
        match bearer_token(metadata)? {
            Some(presented) if key::is_api_key(&presented) => {
                let bot = self.playing_bot(client, &presented).await?;
                Ok(Some(account_credential(&bot)))
            }
            other => Ok(other),
        }
    }

    /// The bot a key acts for in matches: a bot's key with PLAY.
    pub async fn playing_bot(
        &self,
        client: IpAddr,
        presented: &str,
    ) -> Result<String, ServiceError> {
        let caller = self.authenticate(client, presented).await?;
        let bot = caller.bot_with(
            Scope::Play,
            "playing in matches needs a bot's key with PLAY (an operator key plays for no bot)",
        )?;
        Ok(bot.to_owned())
    }
}
