//! `BotService`: bots and their API keys, read and checked here and kept by the leagues crate's
//! `Accounts`.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::SystemTime;

use pitchmate_proto::v1 as pb;
use tokio::time::Instant;
use tonic::{Request, Response, Status};

use super::credentials::Credentials;
use super::rate_limit::RateLimiter;
use super::{client_of, edge, paging};
use crate::error::{RateLimit, ServiceError};
use pitchmate_leagues::{Accounts, ApiKey, Bot, BotChange, NewBot, Scope, Scopes};

pub struct BotApi {
    credentials: Arc<Credentials>,
    /// Bots registered per client address, at the rate matches may be created.
    registrations: RateLimiter<IpAddr>,
}

impl BotApi {
    fn accounts(&self) -> &Accounts {
        &self.credentials.accounts
    }

    pub fn new(credentials: Arc<Credentials>, per_second: u32, burst: u32) -> Self {
        Self {
            credentials,
            registrations: RateLimiter::new(RateLimit::Creations, per_second, burst),
        }
    }
}

#[tonic::async_trait]
impl pb::bot_service_server::BotService for BotApi {
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CreateBot"))]
    async fn create_bot(
        &self,
        request: Request<pb::CreateBotRequest>,
    ) -> Result<Response<pb::CreateBotResponse>, Status> {
        edge(async move {
            self.registrations
                .take(&client_of(&request), Instant::now())?;
            let request = request.into_inner();
            let new = NewBot {
                name: request.name,
                owner: request.owner,
                description: request.description,
                variants: request.variants,
            };
            let accounts = self.accounts();
            let (bot, issued) = accounts.create_bot(new, SystemTime::now()).await?;
            Ok(Response::new(pb::CreateBotResponse {
                bot: Some(bot_to_proto(&bot)),
                key: Some(key_to_proto(&issued.key)),
                secret: issued.secret,
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetBot"))]
    async fn get_bot(
        &self,
        request: Request<pb::GetBotRequest>,
    ) -> Result<Response<pb::GetBotResponse>, Status> {
        edge(async move {
            let request = request.into_inner();
            let accounts = self.accounts();
            let bot = match (request.bot_id.as_str(), request.name.as_str()) {
                (id, "") if !id.is_empty() => accounts.bot(id).await?,
                ("", name) if !name.is_empty() => accounts.bot_named(name).await?,
                _ => {
                    return Err(ServiceError::InvalidArgument(
                        "give exactly one of `bot_id` and `name`".to_owned(),
                    )
                    .at("bot_id"));
                }
            };
            Ok(Response::new(pb::GetBotResponse {
                bot: Some(bot_to_proto(&bot)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListBots"))]
    async fn list_bots(
        &self,
        request: Request<pb::ListBotsRequest>,
    ) -> Result<Response<pb::ListBotsResponse>, Status> {
        const SCOPE: &str = "bots";
        edge(async move {
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let after: Option<String> = paging::decode(SCOPE, &request.page_token)?;
            // One more than the page tells whether another follows.
            let mut bots = self.accounts().bots(after.as_deref(), size + 1).await?;
            let more = bots.len() > size;
            bots.truncate(size);
            let next_page_token = match bots.last() {
                Some(last) if more => paging::encode(SCOPE, &last.name),
                _ => String::new(),
            };
            Ok(Response::new(pb::ListBotsResponse {
                bots: bots.iter().map(bot_to_proto).collect(),
                next_page_token,
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "UpdateBot"))]
    async fn update_bot(
        &self,
        request: Request<pb::UpdateBotRequest>,
    ) -> Result<Response<pb::UpdateBotResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let bot = request.bot.unwrap_or_default();
            let paths = request
                .update_mask
                .map(|mask| mask.paths)
                .unwrap_or_default();
            let change = bot_change(&bot, &paths)?;
            let updated = self
                .accounts()
                .update_bot(&caller, &bot.bot_id, change)
                .await?;
            Ok(Response::new(pb::UpdateBotResponse {
                bot: Some(bot_to_proto(&updated)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CreateApiKey"))]
    async fn create_api_key(
        &self,
        request: Request<pb::CreateApiKeyRequest>,
    ) -> Result<Response<pb::CreateApiKeyResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let scopes = scopes_from_proto(&request.scopes)?;
            let bot_id = Some(request.bot_id.as_str()).filter(|id| !id.is_empty());
            let issued = self
                .accounts()
                .create_key(&caller, bot_id, request.label, scopes, SystemTime::now())
                .await?;
            Ok(Response::new(pb::CreateApiKeyResponse {
                key: Some(key_to_proto(&issued.key)),
                secret: issued.secret,
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListApiKeys"))]
    async fn list_api_keys(
        &self,
        request: Request<pb::ListApiKeysRequest>,
    ) -> Result<Response<pb::ListApiKeysResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let scope = format!("keys|{}", request.bot_id);
            let size = paging::page_size(request.page_size)?;
            let start: usize = paging::decode(&scope, &request.page_token)?.unwrap_or(0);
            let bot_id = Some(request.bot_id.as_str()).filter(|id| !id.is_empty());
            // A bot has few keys: they are read whole and cut into pages here.
            let keys = self.accounts().keys_of(&caller, bot_id).await?;
            let end = keys.len().min(start.saturating_add(size));
            Ok(Response::new(pb::ListApiKeysResponse {
                keys: keys
                    .get(start..end)
                    .unwrap_or_default()
                    .iter()
                    .map(key_to_proto)
                    .collect(),
                next_page_token: if end < keys.len() {
                    paging::encode(&scope, end)
                } else {
                    String::new()
                },
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "RevokeApiKey"))]
    async fn revoke_api_key(
        &self,
        request: Request<pb::RevokeApiKeyRequest>,
    ) -> Result<Response<pb::RevokeApiKeyResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let key_id = request.into_inner().key_id;
            if key_id.is_empty() {
                return Err(ServiceError::InvalidArgument(
                    "`key_id` is missing; ListApiKeys shows a bot's keys".to_owned(),
                )
                .at("key_id"));
            }
            let key = self
                .accounts()
                .revoke_key(&caller, &key_id, SystemTime::now())
                .await?;
            Ok(Response::new(pb::RevokeApiKeyResponse {
                key: Some(key_to_proto(&key)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "WhoAmI"))]
    async fn who_am_i(
        &self,
        request: Request<pb::WhoAmIRequest>,
    ) -> Result<Response<pb::WhoAmIResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let bot = match &caller.key.bot_id {
                Some(bot_id) => Some(bot_to_proto(&self.accounts().bot(bot_id).await?)),
                None => None,
            };
            Ok(Response::new(pb::WhoAmIResponse {
                key: Some(key_to_proto(&caller.key)),
                bot,
            }))
        })
        .await
    }
}

/// The change an `UpdateBot` asks for: the fields its mask names, from its bot.
fn bot_change(bot: &pb::Bot, paths: &[String]) -> Result<BotChange, ServiceError> {
    if bot.bot_id.is_empty() {
        return Err(ServiceError::InvalidArgument(
            "`bot.bot_id` is missing; it names the bot to change".to_owned(),
        )
        .at("bot.bot_id"));
    }
    if paths.is_empty() {
        return Err(ServiceError::InvalidArgument(
            "`update_mask` names no field; list the fields to change".to_owned(),
        )
        .at("update_mask"));
    }
    let mut change = BotChange::default();
    for path in paths {
        match path.as_str() {
            "name" => change.name = Some(bot.name.clone()),
            "owner" => change.owner = Some(bot.owner.clone()),
            "description" => change.description = Some(bot.description.clone()),
            "variants" => change.variants = Some(bot.variants.clone()),
            "max_concurrent" => change.max_concurrent = Some(bot.max_concurrent),
            "daily_cap" => change.daily_cap = Some(bot.daily_cap),
            other => {
                return Err(ServiceError::InvalidArgument(format!(
                    "`update_mask` names `{}`, which UpdateBot does not change; it changes name, \
                     owner, description, variants, max_concurrent and daily_cap",
                    other.chars().take(40).collect::<String>()
                ))
                .at("update_mask.paths"));
            }
        }
    }
    Ok(change)
}

fn scope_from_proto(scope: pb::ApiKeyScope) -> Option<Scope> {
    match scope {
        pb::ApiKeyScope::Unspecified => None,
        pb::ApiKeyScope::Play => Some(Scope::Play),
        pb::ApiKeyScope::Challenge => Some(Scope::Challenge),
        pb::ApiKeyScope::Manage => Some(Scope::Manage),
        pb::ApiKeyScope::Operator => Some(Scope::Operator),
    }
}

fn scope_to_proto(scope: Scope) -> pb::ApiKeyScope {
    match scope {
        Scope::Play => pb::ApiKeyScope::Play,
        Scope::Challenge => pb::ApiKeyScope::Challenge,
        Scope::Manage => pb::ApiKeyScope::Manage,
        Scope::Operator => pb::ApiKeyScope::Operator,
    }
}

fn scopes_from_proto(scopes: &[i32]) -> Result<Scopes, ServiceError> {
    let mut read = Vec::new();
    for (index, &value) in scopes.iter().enumerate() {
        let scope = pb::ApiKeyScope::try_from(value)
            .ok()
            .and_then(scope_from_proto)
            .ok_or_else(|| {
                ServiceError::InvalidArgument(format!(
                    "scope {value} is not an ApiKeyScope: 1 (PLAY), 2 (CHALLENGE), 3 (MANAGE) or \
                     4 (OPERATOR)"
                ))
                .at(format!("scopes[{index}]"))
            })?;
        read.push(scope);
    }
    Ok(Scopes::of(read))
}

fn bot_to_proto(bot: &Bot) -> pb::Bot {
    pb::Bot {
        bot_id: bot.bot_id.clone(),
        name: bot.name.clone(),
        owner: bot.owner.clone(),
        description: bot.description.clone(),
        variants: bot.variants.clone(),
        max_concurrent: bot.max_concurrent,
        daily_cap: bot.daily_cap,
        create_time: Some(bot.create_time.into()),
    }
}

fn key_to_proto(key: &ApiKey) -> pb::ApiKey {
    pb::ApiKey {
        key_id: key.key_id.clone(),
        bot_id: key.bot_id.clone().unwrap_or_default(),
        label: key.label.clone(),
        scopes: key
            .scopes
            .iter()
            .map(|s| scope_to_proto(s) as i32)
            .collect(),
        create_time: Some(key.create_time.into()),
        revoke_time: key.revoke_time.map(Into::into),
    }
}
