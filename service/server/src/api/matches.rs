//! `pitchmate.v1.MatchService`.

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_stream::StreamExt;
use tonic::{Request, Response, Status, Streaming};

use super::credentials::Credentials;
use super::hosting_options::hosting_from_request;
use super::rate_limit::{ActionRateLimiter, RateLimiter};
use super::replay::replay_to_proto;
use super::replay_view::replay_view;
use super::stream::{Player, PlayerAction, StreamStart, play, watch_events};
use super::summary::match_to_proto;
use super::{EdgeStream, action_detail, bearer_token, client_of, edge, match_id, paging};
use crate::config::LimitSettings;
use crate::error::{RateLimit, ServiceError, excerpt, to_status};
use crate::games::{ActionChoice, option_from_proto};
use crate::hosting::actor::Subscription;
use crate::hosting::feed::{FeedFilter, follow};
use crate::hosting::slots::{Slot, Slots};
use crate::hosting::status::MatchStatus;
use crate::hosting::{MatchFilter, MatchHandle, MatchRegistry, NewMatch, SeatCall, Submission};
use crate::metrics;
use pitchmate_leagues::{Bot, key};

/// The longest player name accepted, in characters.
const MAX_PLAYER_NAME: usize = 64;
/// How much of a request's match id its log lines show.
const LOGGED_ID: usize = 64;

pub struct MatchApi {
    registry: Arc<MatchRegistry>,
    /// Quiet on an event stream before it sends a heartbeat.
    heartbeat: Duration,
    /// Spectator streams per match.
    spectators: Slots<String>,
    /// Streams per seat, by `match/seat`.
    seat_streams: Slots<String>,
    action_rate: Arc<ActionRateLimiter>,
    creations: RateLimiter<IpAddr>,
    /// Who calls, and the allowance of wrong tokens and keys per address.
    credentials: Arc<Credentials>,
    /// Turns true when the server shuts down, closing every event stream.
    stopping: watch::Receiver<bool>,
}

impl MatchApi {
    pub fn new(
        registry: Arc<MatchRegistry>,
        heartbeat: Duration,
        limits: &LimitSettings,
        credentials: Arc<Credentials>,
        stopping: watch::Receiver<bool>,
    ) -> Self {
        Self {
            registry,
            heartbeat,
            spectators: Slots::new(limits.watchers_per_match),
            seat_streams: Slots::new(limits.streams_per_seat),
            action_rate: Arc::new(RateLimiter::new(
                RateLimit::Actions,
                limits.actions_per_second,
                limits.action_burst,
            )),
            creations: RateLimiter::new(
                RateLimit::Creations,
                limits.creates_per_second,
                limits.create_burst,
            ),
            credentials,
            stopping,
        }
    }

    /// Runs a call that presents `token` for `client`. While the client's recent wrong tokens
    /// have used up its allowance it is refused at once, before any token is compared, so
    /// guessing tokens goes no faster than `limits.auth_failures_per_second`; each wrong token
    /// uses up one.
    async fn with_token<T>(
        &self,
        client: IpAddr,
        token: &Option<String>,
        call: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, ServiceError> {
        if token.is_some() {
            self.credentials
                .auth_failures
                .check(&client, Instant::now())?;
        }
        let result = call.await;
        if let Err(ServiceError::InvalidSeatToken(_)) = &result {
            // Over the allowance already: the next call is refused by the check above.
            let _ = self.credentials.auth_failures.take(&client, Instant::now());
        }
        result
    }

    /// The place of a new stream: a spectator's in its match, a seat's among its streams.
    fn stream_slot(
        &self,
        match_id: &str,
        subscription: &Subscription,
    ) -> Result<Slot<String>, ServiceError> {
        match subscription.seat_name {
            None => self.spectators.claim(&match_id.to_owned()).ok_or_else(|| {
                ServiceError::WatcherLimit {
                    match_id: match_id.to_owned(),
                    limit: self.spectators.limit(),
                }
            }),
            Some(seat) => self
                .seat_streams
                .claim(&format!("{match_id}/{seat}"))
                .ok_or_else(|| ServiceError::SeatStreamLimit {
                    match_id: match_id.to_owned(),
                    seat: seat.to_owned(),
                    limit: self.seat_streams.limit(),
                }),
        }
    }

    /// The bot a JoinMatch takes its seat for: the holder of the PLAY key it presents, if it
    /// presents one (a seat token on JoinMatch means nothing and is ignored, as ever).
    async fn joining_bot<T>(&self, request: &Request<T>) -> Result<Option<Bot>, ServiceError> {
        match bearer_token(request.metadata())? {
            Some(presented) if key::is_api_key(&presented) => {
                let bot_id = self
                    .credentials
                    .playing_bot(client_of(request), &presented)
                    .await?;
                Ok(Some(self.credentials.accounts.bot(&bot_id).await?))
            }
            _ => Ok(None),
        }
    }

    /// The seat credential of an acting call, after charging it to the credential's rate
    /// limit. Calls without one are not charged: the match refuses them anyway.
    async fn acting_token(
        &self,
        client: IpAddr,
        metadata: &tonic::metadata::MetadataMap,
    ) -> Result<Option<String>, ServiceError> {
        let token = self.credentials.seat_credential(client, metadata).await?;
        if let Some(token) = &token {
            self.action_rate.take(token, Instant::now())?;
        }
        Ok(token)
    }
}

impl MatchApi {
    fn stream_start(&self) -> StreamStart {
        StreamStart {
            heartbeat: self.heartbeat,
            stopping: self.stopping.clone(),
        }
    }

    /// Subscribes to a match's events after a seq, as the token's seat or as a spectator; the
    /// fields are named as the request names them, for its errors.
    async fn subscribe(
        &self,
        client: IpAddr,
        token: Option<String>,
        (id_field, id): (&str, &str),
        (seq_field, after_seq): (&str, u64),
    ) -> Result<(MatchHandle, Subscription), ServiceError> {
        self.call_match(client, &token, (id_field, id), |handle, token| async move {
            let subscription = handle
                .watch(token, after_seq)
                .await
                .map_err(|error| error.at(seq_field))?;
            Ok((handle, subscription))
        })
        .await
    }

    /// Calls match `id` (named by request field `id_field`) for the holder of `token`: through
    /// the wrong-token throttle and the registry's call, which reaches the match wherever it is;
    /// `call` gets its own copy of the token each time it runs.
    async fn call_match<T, Answer>(
        &self,
        client: IpAddr,
        token: &Option<String>,
        (id_field, id): (&str, &str),
        mut call: impl FnMut(MatchHandle, Option<String>) -> Answer,
    ) -> Result<T, ServiceError>
    where
        Answer: Future<Output = Result<T, ServiceError>>,
    {
        self.with_token(client, token, async {
            self.registry
                .call(match_id(id_field, id)?, |handle| {
                    call(handle, token.clone())
                })
                .await
        })
        .await
    }

    /// Resigns, offers or accepts a draw, aborts or claims victory for the token's seat.
    async fn seat_call<T>(
        &self,
        request: &Request<T>,
        id: &str,
        call: SeatCall,
    ) -> Result<pb::Match, ServiceError> {
        let token = self
            .acting_token(client_of(request), request.metadata())
            .await?;
        self.call_match(
            client_of(request),
            &token,
            ("match_id", id),
            |handle, token| async move { handle.seat_call(token, call).await },
        )
        .await
        .map(|summary| match_to_proto(&summary))
    }
}

/// A bot plays under its own name: a join with its key may leave `player_name` empty or give
/// that name.
fn bot_player_name(requested: &str, bot: &Bot) -> Result<String, ServiceError> {
    if requested.is_empty() || requested == bot.name {
        return Ok(bot.name.clone());
    }
    Err(ServiceError::InvalidArgument(format!(
        "a bot plays under its own name, `{}`; leave `player_name` empty",
        bot.name
    ))
    .at("player_name"))
}

/// Checks a player name: it is shown to opponents, spectators and in logs, so it is short and
/// holds no control characters (line breaks, escapes, NULs) that could garble what shows it.
fn player_name(name: &str) -> Result<(), ServiceError> {
    if name.chars().count() > MAX_PLAYER_NAME {
        return Err(ServiceError::InvalidArgument(format!(
            "`player_name` is longer than {MAX_PLAYER_NAME} characters"
        ))
        .at("player_name"));
    }
    if let Some(control) = name.chars().find(|c| c.is_control()) {
        return Err(ServiceError::InvalidArgument(format!(
            "`player_name` holds the control character U+{:04X}; use printable characters only",
            u32::from(control)
        ))
        .at("player_name"));
    }
    Ok(())
}

/// The action a request chose, or why it chose none. `prefix` leads the field names (`act.`
/// in a Play stream).
fn chosen(prefix: &str, choice: Option<ActionChoice>) -> Result<ActionChoice, ServiceError> {
    choice.ok_or_else(|| {
        ServiceError::InvalidArgument(
            "no action given: set `index`, `action` or `notation`".to_owned(),
        )
        .at(format!("{prefix}choice"))
    })
}

/// The field of a request that names `choice`: refusals of what it named are about it.
fn choice_field(prefix: &str, choice: &ActionChoice) -> String {
    let field = match choice {
        ActionChoice::Index(_) => "index",
        ActionChoice::Typed(_) => "action",
        ActionChoice::Notation(_) => "notation",
    };
    format!("{prefix}{field}")
}

/// What ends a `Play` stream with an error: the hosting's, or the client's own request stream
/// failing, whose status is passed on as it is.
enum PlayFailure {
    Hosting(ServiceError),
    Inbound(Status),
}

impl From<ServiceError> for PlayFailure {
    fn from(error: ServiceError) -> Self {
        Self::Hosting(error)
    }
}

impl PlayFailure {
    fn into_status(self) -> Status {
        match self {
            Self::Hosting(error) => to_status(error),
            Self::Inbound(status) => status,
        }
    }
}

/// Reads one request of a `Play` stream after `open`: an action, charged to the seat token's
/// rate limit when the stream takes it. An action without a choice, or over the limit, is
/// refused in-band; anything but an action breaks the protocol and ends the stream.
fn player_action(
    request: pb::PlayRequest,
    action_rate: &ActionRateLimiter,
    token: &String,
) -> Result<PlayerAction, PlayFailure> {
    use pb::play_action::Choice;
    let act = match request.kind {
        Some(pb::play_request::Kind::Act(act)) => act,
        Some(pb::play_request::Kind::Open(_)) => {
            return Err(ServiceError::InvalidArgument(
                "`open` may only be the first message of a Play stream; send `act` after it"
                    .to_owned(),
            )
            .at("open")
            .into());
        }
        None => {
            return Err(ServiceError::InvalidArgument(
                "a Play request sets `open` (first) or `act` (after)".to_owned(),
            )
            .at("kind")
            .into());
        }
    };
    let choice = act.choice.map(|choice| match choice {
        Choice::Index(index) => ActionChoice::Index(index),
        Choice::Action(action) => ActionChoice::Typed(action),
        Choice::Notation(text) => ActionChoice::Notation(text),
    });
    let submission = action_rate
        .take(token, Instant::now())
        .and_then(|()| chosen("act.", choice))
        .map(|choice| Submission {
            expected_version: act.expected_version,
            client_action_id: act.client_action_id.clone(),
            choice,
        });
    Ok(PlayerAction {
        choice_field: submission
            .as_ref()
            .map(|s| choice_field("act.", &s.choice))
            .unwrap_or_default(),
        client_action_id: act.client_action_id,
        submission,
    })
}

fn list_scope(filter: &MatchFilter) -> String {
    let status = filter.status.map_or(0, MatchStatus::to_wire);
    // The player's name comes last: whatever it holds, the scope reads one way.
    format!(
        "matches|{}|{status}|{}",
        filter.variant_id, filter.player_name
    )
}

#[tonic::async_trait]
impl pb::match_service_server::MatchService for MatchApi {
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CreateMatch", match_id))]
    async fn create_match(
        &self,
        request: Request<pb::CreateMatchRequest>,
    ) -> Result<Response<pb::CreateMatchResponse>, Status> {
        edge(async move {
            let client = client_of(&request);
            self.creations.take(&client, Instant::now())?;
            let request = request.into_inner();
            if request.variant_id.is_empty() {
                return Err(ServiceError::InvalidArgument(
                    "`variant_id` is missing; ListVariants shows the ids".to_owned(),
                )
                .at("variant_id"));
            }
            let hosting = hosting_from_request(
                request.time_control.as_ref(),
                request.timeout_policy.as_ref(),
                request.abandon_after.as_ref(),
            )?;
            let options = request
                .options
                .iter()
                .map(|(name, value)| {
                    let value = option_from_proto(name, value)
                        .map_err(|e| ServiceError::from(e).at(format!("options.{name}")))?;
                    Ok((name.clone(), value))
                })
                .collect::<Result<_, ServiceError>>()?;
            let created = self
                .registry
                .create(NewMatch {
                    variant_id: request.variant_id,
                    options,
                    seed: request.seed,
                    start_position: request.start_position,
                    hosting,
                    creator: Some(client),
                    ..NewMatch::default()
                })
                .await?;
            tracing::Span::current().record("match_id", created.setup.match_id.as_str());
            Ok(Response::new(pb::CreateMatchResponse {
                r#match: Some(match_to_proto(&created)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetMatch", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn get_match(
        &self,
        request: Request<pb::GetMatchRequest>,
    ) -> Result<Response<pb::GetMatchResponse>, Status> {
        edge(async move {
            let token = self
                .credentials
                .seat_credential(client_of(&request), request.metadata())
                .await?;
            let (summary, view) = self
                .call_match(
                    client_of(&request),
                    &token,
                    ("match_id", &request.get_ref().match_id),
                    |handle, token| async move { handle.snapshot(token).await },
                )
                .await?;
            Ok(Response::new(pb::GetMatchResponse {
                r#match: Some(match_to_proto(&summary)),
                view: Some(view),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListMatches"))]
    async fn list_matches(
        &self,
        request: Request<pb::ListMatchesRequest>,
    ) -> Result<Response<pb::ListMatchesResponse>, Status> {
        edge(async move {
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let status = match pb::MatchStatus::try_from(request.status) {
                Ok(status) => MatchStatus::from_proto(status),
                Err(_) => {
                    return Err(ServiceError::InvalidArgument(format!(
                        "status {} is not a MatchStatus",
                        request.status
                    ))
                    .at("status"));
                }
            };
            let filter = MatchFilter {
                variant_id: request.variant_id,
                status,
                player_name: request.player_name,
            };
            let scope = list_scope(&filter);
            let position = paging::decode(&scope, &request.page_token)?;
            let page = self.registry.list(&filter, position, size).await?;
            Ok(Response::new(pb::ListMatchesResponse {
                matches: page.matches.iter().map(match_to_proto).collect(),
                next_page_token: page
                    .next_position
                    .map(|p| paging::encode(&scope, p))
                    .unwrap_or_default(),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "JoinMatch", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn join_match(
        &self,
        request: Request<pb::JoinMatchRequest>,
    ) -> Result<Response<pb::JoinMatchResponse>, Status> {
        edge(async move {
            let bot = self.joining_bot(&request).await?;
            let request = request.into_inner();
            let id = match_id("match_id", &request.match_id)?;
            player_name(&request.player_name)?;
            let seat = Some(request.seat).filter(|s| !s.is_empty());
            let player = match &bot {
                Some(bot) => bot_player_name(&request.player_name, bot)?,
                None => request.player_name.clone(),
            };
            let account = bot.map(|bot| bot.bot_id);
            let joined = self
                .registry
                .call(id, |handle| {
                    let (seat, name, account) = (seat.clone(), player.clone(), account.clone());
                    async move {
                        match account {
                            Some(account) => handle.join_as(seat, name, account).await,
                            None => handle.join(seat, name).await,
                        }
                    }
                })
                .await
                .map_err(|error| error.at("seat"))?;
            Ok(Response::new(pb::JoinMatchResponse {
                seat: joined.seat_name.to_owned(),
                seat_token: joined.seat_token,
                r#match: Some(match_to_proto(&joined.summary)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetLegalActions", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn get_legal_actions(
        &self,
        request: Request<pb::GetLegalActionsRequest>,
    ) -> Result<Response<pb::GetLegalActionsResponse>, Status> {
        edge(async move {
            let token = self
                .credentials
                .seat_credential(client_of(&request), request.metadata())
                .await?;
            let detail = action_detail("detail", request.get_ref().detail)?;
            let legal = self
                .call_match(
                    client_of(&request),
                    &token,
                    ("match_id", &request.get_ref().match_id),
                    |handle, token| async move { handle.legal_actions(token, detail).await },
                )
                .await?;
            Ok(Response::new(legal))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "SubmitAction", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn submit_action(
        &self,
        request: Request<pb::SubmitActionRequest>,
    ) -> Result<Response<pb::SubmitActionResponse>, Status> {
        edge(async move {
            let token = self
                .acting_token(client_of(&request), request.metadata())
                .await?;
            let client = client_of(&request);
            let request = request.into_inner();
            let submitted = self
                .with_token(client, &token, async {
                    let id = match_id("match_id", &request.match_id)?;
                    let choice = chosen(
                        "",
                        request.choice.map(|choice| match choice {
                            pb::submit_action_request::Choice::Index(index) => {
                                ActionChoice::Index(index)
                            }
                            pb::submit_action_request::Choice::Action(action) => {
                                ActionChoice::Typed(action)
                            }
                            pb::submit_action_request::Choice::Notation(text) => {
                                ActionChoice::Notation(text)
                            }
                        }),
                    )?;
                    let field = choice_field("", &choice);
                    let submission = Submission {
                        expected_version: request.expected_version,
                        client_action_id: request.client_action_id,
                        choice,
                    };
                    self.registry
                        .call(id, |handle| {
                            let (token, submission) = (token.clone(), submission.clone());
                            async move { handle.submit(token, submission).await }
                        })
                        .await
                        .map_err(|error| error.at(field))
                })
                .await?;
            let viewer = pitchmate_rules::Viewer::Seat(submitted.seat);
            Ok(Response::new(pb::SubmitActionResponse {
                version: submitted.version,
                events: submitted
                    .events
                    .iter()
                    .filter_map(|e| e.view_for(viewer))
                    .collect(),
                duplicate: submitted.duplicate,
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "Resign", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        edge(async move {
            let summary = self
                .seat_call(&request, &request.get_ref().match_id, SeatCall::Resign)
                .await?;
            Ok(Response::new(pb::ResignResponse {
                r#match: Some(summary),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "OfferDraw", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn offer_draw(
        &self,
        request: Request<pb::OfferDrawRequest>,
    ) -> Result<Response<pb::OfferDrawResponse>, Status> {
        edge(async move {
            let summary = self
                .seat_call(&request, &request.get_ref().match_id, SeatCall::OfferDraw)
                .await?;
            Ok(Response::new(pb::OfferDrawResponse {
                r#match: Some(summary),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "AcceptDraw", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn accept_draw(
        &self,
        request: Request<pb::AcceptDrawRequest>,
    ) -> Result<Response<pb::AcceptDrawResponse>, Status> {
        edge(async move {
            let summary = self
                .seat_call(&request, &request.get_ref().match_id, SeatCall::AcceptDraw)
                .await?;
            Ok(Response::new(pb::AcceptDrawResponse {
                r#match: Some(summary),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "AbortMatch", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn abort_match(
        &self,
        request: Request<pb::AbortMatchRequest>,
    ) -> Result<Response<pb::AbortMatchResponse>, Status> {
        edge(async move {
            let summary = self
                .seat_call(&request, &request.get_ref().match_id, SeatCall::Abort)
                .await?;
            Ok(Response::new(pb::AbortMatchResponse {
                r#match: Some(summary),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ClaimVictory", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn claim_victory(
        &self,
        request: Request<pb::ClaimVictoryRequest>,
    ) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
        edge(async move {
            let summary = self
                .seat_call(
                    &request,
                    &request.get_ref().match_id,
                    SeatCall::ClaimVictory,
                )
                .await?;
            Ok(Response::new(pb::ClaimVictoryResponse {
                r#match: Some(summary),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetReplay", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn get_replay(
        &self,
        request: Request<pb::GetReplayRequest>,
    ) -> Result<Response<pb::GetReplayResponse>, Status> {
        edge(async move {
            let replay = self
                .registry
                .replay(match_id("match_id", &request.get_ref().match_id)?)
                .await?;
            Ok(Response::new(replay_to_proto(&replay)))
        })
        .await
    }

    type ExportReplayStream =
        tokio_stream::Iter<std::vec::IntoIter<Result<pb::ExportReplayResponse, Status>>>;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ExportReplay", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn export_replay(
        &self,
        request: Request<pb::ExportReplayRequest>,
    ) -> Result<Response<Self::ExportReplayStream>, Status> {
        edge(async move {
            let replay = self
                .registry
                .replay(match_id("match_id", &request.get_ref().match_id)?)
                .await?;
            let lines: Vec<_> = pitchmate_games::ndjson::to_ndjson(&replay_to_proto(&replay))
                .into_iter()
                .map(|line| Ok(pb::ExportReplayResponse { line }))
                .collect();
            Ok(Response::new(tokio_stream::iter(lines)))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetReplayView", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn get_replay_view(
        &self,
        request: Request<pb::GetReplayViewRequest>,
    ) -> Result<Response<pb::GetReplayViewResponse>, Status> {
        edge(async move {
            let asked = request.get_ref();
            let replay = self
                .registry
                .replay(match_id("match_id", &asked.match_id)?)
                .await?;
            let games = self.registry.games();
            Ok(Response::new(replay_view(
                games,
                &replay,
                asked.seq,
                &asked.seat,
            )?))
        })
        .await
    }

    type StreamMatchEventsStream = EdgeStream<pb::StreamMatchEventsResponse>;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "StreamMatchEvents", match_id = %excerpt(&request.get_ref().match_id, LOGGED_ID)))]
    async fn stream_match_events(
        &self,
        request: Request<pb::StreamMatchEventsRequest>,
    ) -> Result<Response<Self::StreamMatchEventsStream>, Status> {
        edge(async move {
            let token = self
                .credentials
                .seat_credential(client_of(&request), request.metadata())
                .await?;
            let client = client_of(&request);
            let request = request.into_inner();
            let prompt_detail = action_detail("prompt_detail", request.prompt_detail)?;
            if token.is_none() && request.include_legal_actions {
                return Err(ServiceError::Unauthenticated(
                    "include_legal_actions prompts a seat: send the seat token JoinMatch returned as \
                     `authorization: Bearer <token>`, or leave it unset to watch"
                        .to_owned(),
                ));
            }
            let kind = if token.is_some() { "seat_events" } else { "watch" };
            let (handle, subscription) = self
                .subscribe(
                    client,
                    token,
                    ("match_id", &request.match_id),
                    ("after_seq", request.after_seq),
                )
                .await?;
            let slot = self.stream_slot(&request.match_id, &subscription)?;
            let events = watch_events::<ServiceError>(
                handle,
                subscription,
                self.stream_start(),
                request.include_legal_actions.then_some(prompt_detail),
                slot,
            );
            Ok(Response::new(Box::pin(metrics::counted(
                kind,
                events.map(|item| item.map_err(to_status)),
            )) as Self::StreamMatchEventsStream))
        })
        .await
    }

    type StreamLifecycleStream = EdgeStream<pb::StreamLifecycleResponse>;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "StreamLifecycle"))]
    async fn stream_lifecycle(
        &self,
        request: Request<pb::StreamLifecycleRequest>,
    ) -> Result<Response<Self::StreamLifecycleStream>, Status> {
        edge(async move {
            let request = request.into_inner();
            if !request.variant_id.is_empty() {
                self.registry
                    .games()
                    .info(&request.variant_id)
                    .map_err(ServiceError::from)?;
            }
            let store = self.registry.store().clone();
            let newest = store.last_position();
            // In cluster mode another server's entries reach this one's newest a moment after
            // they commit: a position it just sent is in the store already. Positions have no
            // gap, so the entry at `after_position` is stored exactly when the cursor is valid.
            if request.after_position > newest
                && store
                    .lifecycle_after(request.after_position - 1, 1)
                    .await
                    .map_err(|e| ServiceError::StoreUnavailable(e.to_string()))?
                    .is_empty()
            {
                return Err(ServiceError::InvalidArgument(format!(
                    "after_position {} is beyond the newest entry of this server's feed, {newest}; \
                     use 0 for the whole feed or a position this server sent",
                    request.after_position
                ))
                .at("after_position"));
            }
            let filter = FeedFilter {
                variant_id: request.variant_id,
                player_name: request.player_name,
            };
            let feed = follow(
                store,
                request.after_position,
                filter,
                self.heartbeat,
                self.stopping.clone(),
            );
            Ok(Response::new(Box::pin(metrics::counted(
                "lifecycle",
                feed.map(|item| item.map(super::lifecycle::item_to_proto).map_err(to_status)),
            )) as Self::StreamLifecycleStream))
        })
        .await
    }

    type PlayStream = EdgeStream<pb::PlayResponse>;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "Play", match_id))]
    async fn play(
        &self,
        request: Request<Streaming<pb::PlayRequest>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let token = self
            .credentials
            .seat_credential(client_of(&request), request.metadata())
            .await
            .map_err(to_status)?;
        let client = client_of(&request);
        let mut inbound = request.into_inner();
        // The client's own request stream failing ends the call with its status as it is.
        let first = inbound.message().await?;
        edge(async move {
            let open = match first {
                Some(pb::PlayRequest {
                    kind: Some(pb::play_request::Kind::Open(open)),
                }) => open,
                Some(_) => {
                    return Err(ServiceError::InvalidArgument(
                        "the first message of a Play stream must be `open`, naming the match"
                            .to_owned(),
                    )
                    .at("open"));
                }
                None => {
                    return Err(ServiceError::InvalidArgument(
                        "the Play stream closed before `open`".to_owned(),
                    )
                    .at("open"));
                }
            };
            tracing::Span::current()
                .record("match_id", excerpt(&open.match_id, LOGGED_ID).as_ref());
            let Some(token) = token else {
                return Err(ServiceError::Unauthenticated(
                    "Play acts for a seat: send the seat token JoinMatch returned as \
                     `authorization: Bearer <token>` (StreamMatchEvents watches without one)"
                        .to_owned(),
                ));
            };
            let prompt_detail = action_detail("prompt_detail", open.prompt_detail)?;
            let (handle, subscription) = self
                .subscribe(
                    client,
                    Some(token.clone()),
                    ("open.match_id", &open.match_id),
                    ("open.after_seq", open.after_seq),
                )
                .await?;
            let slot = self.stream_slot(&open.match_id, &subscription)?;
            let action_rate = Arc::clone(&self.action_rate);
            let acting_token = token.clone();
            let actions = inbound.map(move |request| {
                let request = request.map_err(PlayFailure::Inbound)?;
                player_action(request, &action_rate, &acting_token)
            });
            let player = Player {
                token,
                actions: Box::pin(actions),
            };
            let stream = play(
                handle,
                subscription,
                self.stream_start(),
                prompt_detail,
                player,
                slot,
            );
            Ok(Response::new(Box::pin(metrics::counted(
                "play",
                stream.map(|item| item.map_err(PlayFailure::into_status)),
            )) as Self::PlayStream))
        })
        .await
    }
}
