//! `pitchmate.v1.MatchService`.

use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::sync::watch;
use tokio_stream::StreamExt;
use tonic::{Request, Response, Status, Streaming};

use super::rate_limit::ActionRateLimiter;
use super::{action_detail, bearer_token, match_id, paging};
use crate::error::ServiceError;
use crate::games::ActionChoice;
use crate::hosting::clock::Hosting;
use crate::hosting::stream::{
    EventStream, PlayStream, Player, PlayerAction, SpectatorSlots, StreamStart, play, watch_events,
};
use crate::hosting::{MatchFilter, MatchRegistry, NewMatch, SeatCall, Submission};

/// The longest player name accepted, in characters.
const MAX_PLAYER_NAME: usize = 64;

pub struct MatchApi {
    registry: Arc<MatchRegistry>,
    /// Quiet on an event stream before it sends a heartbeat.
    heartbeat: Duration,
    spectators: SpectatorSlots,
    action_rate: Arc<ActionRateLimiter>,
    /// Turns true when the server shuts down, closing every event stream.
    stopping: watch::Receiver<bool>,
}

impl MatchApi {
    pub fn new(
        registry: Arc<MatchRegistry>,
        heartbeat: Duration,
        spectators: SpectatorSlots,
        action_rate: ActionRateLimiter,
        stopping: watch::Receiver<bool>,
    ) -> Self {
        Self {
            registry,
            heartbeat,
            spectators,
            action_rate: Arc::new(action_rate),
            stopping,
        }
    }

    /// The bearer token of an acting call, after charging it to the token's rate limit. Calls
    /// without a token are not charged: the match refuses them anyway.
    fn acting_token(
        &self,
        metadata: &tonic::metadata::MetadataMap,
    ) -> Result<Option<String>, ServiceError> {
        let token = bearer_token(metadata)?;
        if let Some(token) = &token {
            self.action_rate.take(token, tokio::time::Instant::now())?;
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

    /// Resigns, offers or accepts a draw, aborts or claims victory for the token's seat.
    async fn seat_call(
        &self,
        metadata: &tonic::metadata::MetadataMap,
        match_id_field: &str,
        call: SeatCall,
    ) -> Result<pb::Match, ServiceError> {
        let token = self.acting_token(metadata)?;
        let handle = self.registry.get(match_id(match_id_field)?).await?;
        handle.seat_call(token, call).await
    }
}

/// Checks a player name: it is shown to opponents, spectators and in logs, so it is short and
/// holds no control characters (line breaks, escapes, NULs) that could garble what shows it.
fn player_name(name: &str) -> Result<(), ServiceError> {
    if name.chars().count() > MAX_PLAYER_NAME {
        return Err(ServiceError::InvalidArgument(format!(
            "`player_name` is longer than {MAX_PLAYER_NAME} characters"
        )));
    }
    if let Some(control) = name.chars().find(|c| c.is_control()) {
        return Err(ServiceError::InvalidArgument(format!(
            "`player_name` holds the control character U+{:04X}; use printable characters only",
            u32::from(control)
        )));
    }
    Ok(())
}

/// The action a request chose, or why it chose none.
fn chosen(choice: Option<ActionChoice>) -> Result<ActionChoice, ServiceError> {
    choice.ok_or_else(|| {
        ServiceError::InvalidArgument(
            "no action given: set `index`, `action` or `notation`".to_owned(),
        )
    })
}

/// Reads one request of a `Play` stream after `open`: an action, charged to the seat token's
/// rate limit when the stream takes it. An action without a choice, or over the limit, is
/// refused in-band; anything but an action breaks the protocol and ends the stream.
fn player_action(
    request: pb::PlayRequest,
    action_rate: &ActionRateLimiter,
    token: &str,
) -> Result<PlayerAction, Status> {
    use pb::play_action::Choice;
    let act = match request.kind {
        Some(pb::play_request::Kind::Act(act)) => act,
        Some(pb::play_request::Kind::Open(_)) => {
            return Err(ServiceError::InvalidArgument(
                "`open` may only be the first message of a Play stream; send `act` after it"
                    .to_owned(),
            )
            .into());
        }
        None => {
            return Err(ServiceError::InvalidArgument(
                "a Play request sets `open` (first) or `act` (after)".to_owned(),
            )
            .into());
        }
    };
    let choice = act.choice.map(|choice| match choice {
        Choice::Index(index) => ActionChoice::Index(index),
        Choice::Action(action) => ActionChoice::Typed(action),
        Choice::Notation(text) => ActionChoice::Notation(text),
    });
    let submission = action_rate
        .take(token, tokio::time::Instant::now())
        .and_then(|()| chosen(choice))
        .map(|choice| Submission {
            expected_version: act.expected_version,
            client_action_id: act.client_action_id.clone(),
            choice,
        });
    Ok(PlayerAction {
        client_action_id: act.client_action_id,
        submission,
    })
}

fn list_scope(filter: &MatchFilter) -> String {
    let status = filter.status.map_or(0, |s| s as i32);
    format!("matches|{}|{status}", filter.variant_id)
}

#[tonic::async_trait]
impl pb::match_service_server::MatchService for MatchApi {
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CreateMatch", match_id))]
    async fn create_match(
        &self,
        request: Request<pb::CreateMatchRequest>,
    ) -> Result<Response<pb::CreateMatchResponse>, Status> {
        let request = request.into_inner();
        if request.variant_id.is_empty() {
            return Err(ServiceError::InvalidArgument(
                "`variant_id` is missing; ListVariants shows the ids".to_owned(),
            )
            .into());
        }
        let hosting = Hosting::from_proto(
            request.time_control.as_ref(),
            request.timeout_policy.as_ref(),
            request.abandon_after.as_ref(),
        )?;
        let created = self
            .registry
            .create(NewMatch {
                variant_id: request.variant_id,
                options: request.options,
                seed: request.seed,
                start_position: request.start_position,
                hosting,
            })
            .await?;
        tracing::Span::current().record("match_id", created.match_id.as_str());
        Ok(Response::new(pb::CreateMatchResponse {
            r#match: Some(created),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetMatch", match_id = %request.get_ref().match_id))]
    async fn get_match(
        &self,
        request: Request<pb::GetMatchRequest>,
    ) -> Result<Response<pb::GetMatchResponse>, Status> {
        let token = bearer_token(request.metadata())?;
        let handle = self
            .registry
            .get(match_id(&request.get_ref().match_id)?)
            .await?;
        let (summary, view) = handle.snapshot(token).await?;
        Ok(Response::new(pb::GetMatchResponse {
            r#match: Some(summary),
            view: Some(view),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListMatches"))]
    async fn list_matches(
        &self,
        request: Request<pb::ListMatchesRequest>,
    ) -> Result<Response<pb::ListMatchesResponse>, Status> {
        let request = request.into_inner();
        let size = paging::page_size(request.page_size)?;
        let status = match pb::MatchStatus::try_from(request.status) {
            Ok(pb::MatchStatus::Unspecified) => None,
            Ok(status) => Some(status),
            Err(_) => {
                return Err(ServiceError::InvalidArgument(format!(
                    "status {} is not a MatchStatus",
                    request.status
                ))
                .into());
            }
        };
        let filter = MatchFilter {
            variant_id: request.variant_id,
            status,
        };
        let scope = list_scope(&filter);
        let position = paging::decode(&scope, &request.page_token)?;
        let page = self.registry.list(&filter, position, size);
        Ok(Response::new(pb::ListMatchesResponse {
            matches: page.matches,
            next_page_token: page
                .next_position
                .map(|p| paging::encode(&scope, p))
                .unwrap_or_default(),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "JoinMatch", match_id = %request.get_ref().match_id))]
    async fn join_match(
        &self,
        request: Request<pb::JoinMatchRequest>,
    ) -> Result<Response<pb::JoinMatchResponse>, Status> {
        let request = request.into_inner();
        let handle = self.registry.get(match_id(&request.match_id)?).await?;
        player_name(&request.player_name)?;
        let seat = Some(request.seat).filter(|s| !s.is_empty());
        Ok(Response::new(handle.join(seat, request.player_name).await?))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetLegalActions", match_id = %request.get_ref().match_id))]
    async fn get_legal_actions(
        &self,
        request: Request<pb::GetLegalActionsRequest>,
    ) -> Result<Response<pb::GetLegalActionsResponse>, Status> {
        let token = bearer_token(request.metadata())?;
        let detail = action_detail("detail", request.get_ref().detail)?;
        let handle = self
            .registry
            .get(match_id(&request.get_ref().match_id)?)
            .await?;
        Ok(Response::new(handle.legal_actions(token, detail).await?))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "SubmitAction", match_id = %request.get_ref().match_id))]
    async fn submit_action(
        &self,
        request: Request<pb::SubmitActionRequest>,
    ) -> Result<Response<pb::SubmitActionResponse>, Status> {
        let token = self.acting_token(request.metadata())?;
        let request = request.into_inner();
        let handle = self.registry.get(match_id(&request.match_id)?).await?;
        let choice = chosen(request.choice.map(|choice| match choice {
            pb::submit_action_request::Choice::Index(index) => ActionChoice::Index(index),
            pb::submit_action_request::Choice::Action(action) => ActionChoice::Typed(action),
            pb::submit_action_request::Choice::Notation(text) => ActionChoice::Notation(text),
        }))?;
        let submission = Submission {
            expected_version: request.expected_version,
            client_action_id: request.client_action_id,
            choice,
        };
        Ok(Response::new(
            handle.submit(token, submission).await?.response,
        ))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "Resign", match_id = %request.get_ref().match_id))]
    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        let summary = self
            .seat_call(
                request.metadata(),
                &request.get_ref().match_id,
                SeatCall::Resign,
            )
            .await?;
        Ok(Response::new(pb::ResignResponse {
            r#match: Some(summary),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "OfferDraw", match_id = %request.get_ref().match_id))]
    async fn offer_draw(
        &self,
        request: Request<pb::OfferDrawRequest>,
    ) -> Result<Response<pb::OfferDrawResponse>, Status> {
        let summary = self
            .seat_call(
                request.metadata(),
                &request.get_ref().match_id,
                SeatCall::OfferDraw,
            )
            .await?;
        Ok(Response::new(pb::OfferDrawResponse {
            r#match: Some(summary),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "AcceptDraw", match_id = %request.get_ref().match_id))]
    async fn accept_draw(
        &self,
        request: Request<pb::AcceptDrawRequest>,
    ) -> Result<Response<pb::AcceptDrawResponse>, Status> {
        let summary = self
            .seat_call(
                request.metadata(),
                &request.get_ref().match_id,
                SeatCall::AcceptDraw,
            )
            .await?;
        Ok(Response::new(pb::AcceptDrawResponse {
            r#match: Some(summary),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "AbortMatch", match_id = %request.get_ref().match_id))]
    async fn abort_match(
        &self,
        request: Request<pb::AbortMatchRequest>,
    ) -> Result<Response<pb::AbortMatchResponse>, Status> {
        let summary = self
            .seat_call(
                request.metadata(),
                &request.get_ref().match_id,
                SeatCall::Abort,
            )
            .await?;
        Ok(Response::new(pb::AbortMatchResponse {
            r#match: Some(summary),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ClaimVictory", match_id = %request.get_ref().match_id))]
    async fn claim_victory(
        &self,
        request: Request<pb::ClaimVictoryRequest>,
    ) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
        let summary = self
            .seat_call(
                request.metadata(),
                &request.get_ref().match_id,
                SeatCall::ClaimVictory,
            )
            .await?;
        Ok(Response::new(pb::ClaimVictoryResponse {
            r#match: Some(summary),
        }))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetReplay", match_id = %request.get_ref().match_id))]
    async fn get_replay(
        &self,
        request: Request<pb::GetReplayRequest>,
    ) -> Result<Response<pb::GetReplayResponse>, Status> {
        let replay = self
            .registry
            .replay(match_id(&request.get_ref().match_id)?)
            .await?;
        Ok(Response::new(replay))
    }

    type ExportReplayStream =
        tokio_stream::Iter<std::vec::IntoIter<Result<pb::ExportReplayResponse, Status>>>;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ExportReplay", match_id = %request.get_ref().match_id))]
    async fn export_replay(
        &self,
        request: Request<pb::ExportReplayRequest>,
    ) -> Result<Response<Self::ExportReplayStream>, Status> {
        let replay = self
            .registry
            .replay(match_id(&request.get_ref().match_id)?)
            .await?;
        let lines: Vec<_> = pitchmate_games::ndjson::to_ndjson(&replay)
            .into_iter()
            .map(|line| Ok(pb::ExportReplayResponse { line }))
            .collect();
        Ok(Response::new(tokio_stream::iter(lines)))
    }

    type StreamMatchEventsStream = EventStream;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "StreamMatchEvents", match_id = %request.get_ref().match_id))]
    async fn stream_match_events(
        &self,
        request: Request<pb::StreamMatchEventsRequest>,
    ) -> Result<Response<Self::StreamMatchEventsStream>, Status> {
        let token = bearer_token(request.metadata())?;
        let request = request.into_inner();
        let prompt_detail = action_detail("prompt_detail", request.prompt_detail)?;
        let handle = self.registry.get(match_id(&request.match_id)?).await?;
        let slot = match token {
            None if request.include_legal_actions => {
                return Err(ServiceError::Unauthenticated(
                    "include_legal_actions prompts a seat: send the seat token JoinMatch \
                     returned as `authorization: Bearer <token>`, or leave it unset to watch"
                        .to_owned(),
                )
                .into());
            }
            None => Some(self.spectators.claim(&request.match_id)?),
            Some(_) => None,
        };
        let subscription = handle.watch(token, request.after_seq).await?;
        Ok(Response::new(watch_events(
            handle,
            subscription,
            self.stream_start(),
            request.include_legal_actions.then_some(prompt_detail),
            slot,
        )))
    }

    type PlayStream = PlayStream;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "Play", match_id))]
    async fn play(
        &self,
        request: Request<Streaming<pb::PlayRequest>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let token = bearer_token(request.metadata())?;
        let mut inbound = request.into_inner();
        let open = match inbound.message().await? {
            Some(pb::PlayRequest {
                kind: Some(pb::play_request::Kind::Open(open)),
            }) => open,
            Some(_) => {
                return Err(ServiceError::InvalidArgument(
                    "the first message of a Play stream must be `open`, naming the match"
                        .to_owned(),
                )
                .into());
            }
            None => {
                return Err(ServiceError::InvalidArgument(
                    "the Play stream closed before `open`".to_owned(),
                )
                .into());
            }
        };
        tracing::Span::current().record("match_id", open.match_id.as_str());
        let Some(token) = token else {
            return Err(ServiceError::Unauthenticated(
                "Play acts for a seat: send the seat token JoinMatch returned as \
                 `authorization: Bearer <token>` (StreamMatchEvents watches without one)"
                    .to_owned(),
            )
            .into());
        };
        let prompt_detail = action_detail("prompt_detail", open.prompt_detail)?;
        let handle = self.registry.get(match_id(&open.match_id)?).await?;
        let subscription = handle.watch(Some(token.clone()), open.after_seq).await?;
        let action_rate = Arc::clone(&self.action_rate);
        let acting_token = token.clone();
        let actions =
            inbound.map(move |request| player_action(request?, &action_rate, &acting_token));
        let player = Player {
            token,
            actions: Box::pin(actions),
        };
        Ok(Response::new(play(
            handle,
            subscription,
            self.stream_start(),
            prompt_detail,
            player,
        )))
    }
}
