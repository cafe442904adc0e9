//! `InboxService`: each bot's inbox, kept by the leagues crate, on the wire.

use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::sync::watch;
use tokio_stream::StreamExt;
use tonic::{Request, Response, Status};

use super::challenges::challenge_to_proto;
use super::credentials::Credentials;
use super::lifecycle::result_to_proto;
use super::ratings::rating_change_to_proto;
use super::{EdgeStream, edge};
use crate::error::{ServiceError, to_status};
use crate::hosting::durable::from_nanos;
use crate::store::Store;
use pitchmate_leagues::InboxItem;
use pitchmate_leagues::inbox::{self, Delivered, FinishedMatch, InboxBus, InboxEvent, Outcome};
use pitchmate_leagues::rating::RatingConfig;
use pitchmate_leagues::terms::Terms;

pub struct InboxApi {
    credentials: Arc<Credentials>,
    store: Store,
    bus: InboxBus,
    heartbeat: Duration,
    stopping: watch::Receiver<bool>,
}

impl InboxApi {
    pub fn new(
        credentials: Arc<Credentials>,
        store: Store,
        bus: InboxBus,
        heartbeat: Duration,
        stopping: watch::Receiver<bool>,
    ) -> Self {
        Self {
            credentials,
            store,
            bus,
            heartbeat,
            stopping,
        }
    }

    /// The bot whose key the call presents.
    async fn bot<T>(&self, request: &Request<T>) -> Result<String, ServiceError> {
        let caller = self.credentials.caller_of(request).await?;
        Ok(caller.bot()?.to_owned())
    }
}

#[tonic::async_trait]
impl pb::inbox_service_server::InboxService for InboxApi {
    type WatchInboxStream = EdgeStream<pb::WatchInboxResponse>;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "WatchInbox"))]
    async fn watch_inbox(
        &self,
        request: Request<pb::WatchInboxRequest>,
    ) -> Result<Response<Self::WatchInboxStream>, Status> {
        edge(async move {
            let bot_id = self.bot(&request).await?;
            let after = request.into_inner().after_seq;
            let bounds = inbox::bounds(&self.store, &bot_id).await?;
            inbox::check_resume(bounds, after)?;
            let events = inbox::follow(
                self.store.clone(),
                &self.bus,
                bot_id,
                after,
                self.heartbeat,
                self.stopping.clone(),
            );
            let responses = events.map(|event| {
                event
                    .map(event_to_proto)
                    .map_err(|error| to_status(error.into()))
            });
            Ok(Response::new(
                Box::pin(crate::metrics::counted("inbox", responses)) as Self::WatchInboxStream,
            ))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetInbox"))]
    async fn get_inbox(
        &self,
        request: Request<pb::GetInboxRequest>,
    ) -> Result<Response<pb::GetInboxResponse>, Status> {
        edge(async move {
            let bot_id = self.bot(&request).await?;
            let bounds = inbox::bounds(&self.store, &bot_id).await?;
            let league_error = pitchmate_leagues::LeagueError::from;
            let seats = self
                .store
                .bot_seats(&bot_id, true)
                .await
                .map_err(league_error)?;
            let mut live_matches: Vec<pb::BotMatch> = seats
                .into_iter()
                .map(|seat| pb::BotMatch {
                    match_id: seat.match_id,
                    variant_id: seat.variant_id,
                    seat: seat.seat,
                    join_time: Some(from_nanos(seat.time_nanos).into()),
                })
                .collect();
            // Assigned matches whose seat the bot has not taken yet (or whose taking the
            // follower has not read yet): the bot still has to show up.
            for assigned in self
                .store
                .assigned_to(&bot_id)
                .await
                .map_err(league_error)?
            {
                if live_matches.iter().any(|m| m.match_id == assigned.match_id) {
                    continue;
                }
                let terms = Terms::from_bytes(&assigned.terms)
                    .map_err(pitchmate_leagues::LeagueError::Unavailable)?;
                live_matches.push(pb::BotMatch {
                    match_id: assigned.match_id,
                    variant_id: terms.variant_id,
                    seat: String::new(),
                    join_time: None,
                });
            }
            Ok(Response::new(pb::GetInboxResponse {
                oldest_seq: bounds.oldest,
                newest_seq: bounds.newest,
                live_matches,
            }))
        })
        .await
    }
}

fn event_to_proto(event: InboxEvent) -> pb::WatchInboxResponse {
    use pb::watch_inbox_response::Kind;
    let kind = match event {
        InboxEvent::Item(delivered) => Kind::Item(item_to_proto(*delivered)),
        InboxEvent::Quiet { seq } => Kind::Heartbeat(pb::InboxHeartbeat { seq }),
    };
    pb::WatchInboxResponse { kind: Some(kind) }
}

fn item_to_proto(delivered: Delivered) -> pb::InboxItem {
    use pb::inbox_item::Kind;
    let kind = match delivered.item {
        InboxItem::MatchFinished(finished) => Kind::MatchFinished(finished_to_proto(finished)),
        InboxItem::ChallengeReceived(challenge) => {
            Kind::ChallengeReceived(challenge_to_proto(&challenge))
        }
        InboxItem::ChallengeResolved(challenge) => {
            Kind::ChallengeResolved(challenge_to_proto(&challenge))
        }
        InboxItem::MatchAssigned(assigned) => Kind::MatchAssigned(pb::InboxMatchAssigned {
            match_id: assigned.match_id,
            variant_id: assigned.variant_id,
            seat: assigned.seat,
            opponent_id: assigned.opponent_id,
            opponent_name: assigned.opponent_name,
            rated: assigned.rated,
            pool: assigned.pool,
            show_up_by: Some(from_nanos(assigned.show_up_by_nanos).into()),
            tournament_id: assigned.tournament_id,
            round: assigned.round,
        }),
        InboxItem::QuotaChanged(quota) => Kind::QuotaChanged(pb::InboxQuotaChanged {
            max_concurrent: quota.max_concurrent,
            daily_cap: quota.daily_cap,
        }),
        InboxItem::RoundPaired(round) => Kind::RoundPaired(pb::InboxRoundPaired {
            tournament_id: round.tournament_id,
            round: round.round,
            match_ids: round.match_ids,
            opponent_id: round.opponent_id,
            bye: round.bye,
        }),
        InboxItem::TournamentFinished(result) => {
            Kind::TournamentFinished(pb::InboxTournamentFinished {
                tournament_id: result.tournament_id,
                status: if result.cancelled {
                    pb::TournamentStatus::Cancelled
                } else {
                    pb::TournamentStatus::Finished
                } as i32,
                end_reason: result.end_reason,
                rank: result.rank,
                points: f64::from(result.half_points) / 2.0,
            })
        }
    };
    pb::InboxItem {
        seq: delivered.seq,
        time: Some(delivered.time.into()),
        kind: Some(kind),
    }
}

fn finished_to_proto(finished: FinishedMatch) -> pb::InboxMatchFinished {
    let outcome = match finished.outcome() {
        Outcome::Won => pb::MatchOutcome::Won,
        Outcome::Lost => pb::MatchOutcome::Lost,
        Outcome::Drawn => pb::MatchOutcome::Drawn,
        Outcome::Aborted => pb::MatchOutcome::Aborted,
    };
    pb::InboxMatchFinished {
        outcome: outcome as i32,
        result: Some(result_to_proto(
            finished.seats.iter().map(String::as_str),
            finished.winner,
            &finished.scores,
            finished.reason,
            finished.detail,
        )),
        rating_change: finished
            .rating
            .as_deref()
            .map(|change| rating_change_to_proto(change, &RatingConfig::default())),
        match_id: finished.match_id,
        variant_id: finished.variant_id,
        seat: finished.seat,
    }
}
