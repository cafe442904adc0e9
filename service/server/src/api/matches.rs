//! `pitchmate.v1.MatchService`.

use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::sync::watch;
use tonic::{Request, Response, Status};

use super::rate_limit::ActionRateLimiter;
use super::{action_detail, bearer_token, match_id, paging};
use crate::error::ServiceError;
use crate::games::ActionChoice;
use crate::hosting::clock::Hosting;
use crate::hosting::stream::{EventStream, SpectatorSlots, watch_events};
use crate::hosting::{MatchFilter, MatchRegistry, NewMatch, SeatCall, Submission};

/// The longest player name accepted, in characters.
const MAX_PLAYER_NAME: usize = 64;

pub struct MatchApi {
    registry: Arc<MatchRegistry>,
    /// Quiet on an event stream before it sends a heartbeat.
    heartbeat: Duration,
    spectators: SpectatorSlots,
    action_rate: ActionRateLimiter,
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
            action_rate,
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
        if request.player_name.chars().count() > MAX_PLAYER_NAME {
            return Err(ServiceError::InvalidArgument(format!(
                "`player_name` is longer than {MAX_PLAYER_NAME} characters"
            ))
            .into());
        }
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
        let choice = match request.choice {
            Some(pb::submit_action_request::Choice::Index(index)) => ActionChoice::Index(index),
            Some(pb::submit_action_request::Choice::Action(action)) => ActionChoice::Typed(action),
            Some(pb::submit_action_request::Choice::Notation(text)) => ActionChoice::Notation(text),
            None => {
                return Err(ServiceError::InvalidArgument(
                    "no action given: set `index`, `action` or `notation`".to_owned(),
                )
                .into());
            }
        };
        let submission = Submission {
            expected_version: request.expected_version,
            client_action_id: request.client_action_id,
            choice,
        };
        Ok(Response::new(handle.submit(token, submission).await?))
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
        let lines: Vec<_> = crate::replay::to_ndjson(&replay)
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
            request.after_seq,
            request.include_legal_actions.then_some(prompt_detail),
            self.heartbeat,
            slot,
            self.stopping.clone(),
        )))
    }
}
