//! `RatingService`: ratings, leaderboards and rating histories, kept by the leagues crate, on
//! the wire. Public: ratings are what a league shows everyone.

use std::sync::Arc;

use pitchmate_proto::v1 as pb;
use tonic::{Request, Response, Status};

use super::credentials::Credentials;
use super::{edge, paging};
use crate::hosting::durable::from_nanos;
use crate::store::Store;
use pitchmate_leagues::rated::{self, RatingChange, Score};
use pitchmate_leagues::rating::{Rating, RatingConfig};

pub struct RatingApi {
    credentials: Arc<Credentials>,
    store: Store,
    config: RatingConfig,
}

impl RatingApi {
    pub fn new(credentials: Arc<Credentials>, store: Store, config: RatingConfig) -> Self {
        Self {
            credentials,
            store,
            config,
        }
    }
}

#[tonic::async_trait]
impl pb::rating_service_server::RatingService for RatingApi {
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetRatings"))]
    async fn get_ratings(
        &self,
        request: Request<pb::GetRatingsRequest>,
    ) -> Result<Response<pb::GetRatingsResponse>, Status> {
        edge(async move {
            let bot = self
                .credentials
                .accounts
                .bot(&request.into_inner().bot_id)
                .await?;
            let standings = rated::standings_of(&self.store, &self.config, &bot.bot_id).await?;
            Ok(Response::new(pb::GetRatingsResponse {
                ratings: standings
                    .iter()
                    .map(|s| pb::PoolRating {
                        pool: s.pool.clone(),
                        rating: Some(rating_to_proto(&s.rating, &self.config)),
                    })
                    .collect(),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetLeaderboard"))]
    async fn get_leaderboard(
        &self,
        request: Request<pb::GetLeaderboardRequest>,
    ) -> Result<Response<pb::GetLeaderboardResponse>, Status> {
        const SCOPE: &str = "leaderboard";
        edge(async move {
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let offset: usize = paging::decode(SCOPE, &request.page_token)?.unwrap_or(0);
            let (page, total) =
                rated::leaderboard(&self.store, &self.config, &request.pool, offset, size).await?;
            let mut entries = Vec::with_capacity(page.len());
            for (index, standing) in page.iter().enumerate() {
                let name = self.credentials.accounts.bot(&standing.bot_id).await?.name;
                entries.push(pb::LeaderboardEntry {
                    rank: u32::try_from(offset + index + 1).unwrap_or(u32::MAX),
                    bot_id: standing.bot_id.clone(),
                    bot_name: name,
                    rating: Some(rating_to_proto(&standing.rating, &self.config)),
                });
            }
            let next = offset + page.len();
            Ok(Response::new(pb::GetLeaderboardResponse {
                entries,
                next_page_token: if next < total {
                    paging::encode(SCOPE, next)
                } else {
                    String::new()
                },
                total_size: u32::try_from(total).unwrap_or(u32::MAX),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListRatingChanges"))]
    async fn list_rating_changes(
        &self,
        request: Request<pb::ListRatingChangesRequest>,
    ) -> Result<Response<pb::ListRatingChangesResponse>, Status> {
        const SCOPE: &str = "rating-changes";
        edge(async move {
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let after: u64 = paging::decode(SCOPE, &request.page_token)?.unwrap_or(0);
            let bot = self.credentials.accounts.bot(&request.bot_id).await?;
            let mut changes = rated::history(&self.store, &bot.bot_id, after, size + 1).await?;
            let more = changes.len() > size;
            changes.truncate(size);
            let next_page_token = match changes.last() {
                Some(last) if more => paging::encode(SCOPE, last.number),
                _ => String::new(),
            };
            Ok(Response::new(pb::ListRatingChangesResponse {
                changes: changes
                    .iter()
                    .map(|c| rating_change_to_proto(c, &self.config))
                    .collect(),
                next_page_token,
            }))
        })
        .await
    }
}

pub fn rating_to_proto(rating: &Rating, config: &RatingConfig) -> pb::Rating {
    pb::Rating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
        games: rating.games,
        last_rated_time: rating.last_rated_at.map(|at| from_nanos(at).into()),
        provisional: rating.is_provisional(config),
    }
}

pub fn rating_change_to_proto(change: &RatingChange, config: &RatingConfig) -> pb::RatingChange {
    pb::RatingChange {
        match_id: change.match_id.clone(),
        pool: change.pool.clone(),
        bot_id: change.bot_id.clone(),
        opponent_id: change.opponent_id.clone(),
        outcome: match change.score {
            Score::Won => pb::MatchOutcome::Won,
            Score::Lost => pb::MatchOutcome::Lost,
            Score::Drawn => pb::MatchOutcome::Drawn,
        } as i32,
        before: Some(rating_to_proto(&change.before, config)),
        after: Some(rating_to_proto(&change.after, config)),
        time: Some(from_nanos(change.at).into()),
    }
}
