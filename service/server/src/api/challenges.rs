//! `ChallengeService`: challenges, acceptance policies and quotas, kept by the leagues crate's
//! `Challenges`, on the wire.

use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tonic::{Request, Response, Status};

use super::credentials::Credentials;
use super::hosting_options::{hosting_from_request, time_control_to_proto};
use super::{edge, paging};
use crate::error::ServiceError;
use crate::games::{option_from_proto, option_to_proto};
use crate::hosting::clock::Hosting;
use crate::hosting::durable::from_nanos;
use pitchmate_leagues::challenges::{
    Challenge, Challenges, DeclineReason, NewChallenge, Status as ChallengeStatus,
};
use pitchmate_leagues::policy::{Policy, RatedChoice};
use pitchmate_leagues::terms::{SeatChoice, SpeedClass, TermOption, Terms};

pub struct ChallengeApi {
    credentials: Arc<Credentials>,
    challenges: Arc<Challenges>,
}

impl ChallengeApi {
    pub fn new(credentials: Arc<Credentials>, challenges: Arc<Challenges>) -> Self {
        Self {
            credentials,
            challenges,
        }
    }
}

#[tonic::async_trait]
impl pb::challenge_service_server::ChallengeService for ChallengeApi {
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CreateChallenge"))]
    async fn create_challenge(
        &self,
        request: Request<pb::CreateChallengeRequest>,
    ) -> Result<Response<pb::CreateChallengeResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let terms = terms_from_proto(request.terms.unwrap_or_default())?;
            let expires_in = request
                .expires_in
                .map(|d| {
                    Duration::try_from(d).map_err(|_| {
                        ServiceError::InvalidArgument("`expires_in` is negative".into())
                            .at("expires_in")
                    })
                })
                .transpose()?;
            let new = NewChallenge {
                target: Some(request.target).filter(|t| !t.is_empty()),
                terms,
                expires_in,
            };
            let challenge = self.challenges.create(&caller, new).await?;
            Ok(Response::new(pb::CreateChallengeResponse {
                challenge: Some(challenge_to_proto(&challenge)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "AcceptChallenge"))]
    async fn accept_challenge(
        &self,
        request: Request<pb::AcceptChallengeRequest>,
    ) -> Result<Response<pb::AcceptChallengeResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let id = request.into_inner().challenge_id;
            let challenge = self.challenges.accept(&caller, &id).await?;
            Ok(Response::new(pb::AcceptChallengeResponse {
                challenge: Some(challenge_to_proto(&challenge)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "DeclineChallenge"))]
    async fn decline_challenge(
        &self,
        request: Request<pb::DeclineChallengeRequest>,
    ) -> Result<Response<pb::DeclineChallengeResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let reason = decline_reason_from_proto(request.reason)?;
            let challenge = self
                .challenges
                .decline(&caller, &request.challenge_id, reason)
                .await?;
            Ok(Response::new(pb::DeclineChallengeResponse {
                challenge: Some(challenge_to_proto(&challenge)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CancelChallenge"))]
    async fn cancel_challenge(
        &self,
        request: Request<pb::CancelChallengeRequest>,
    ) -> Result<Response<pb::CancelChallengeResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let id = request.into_inner().challenge_id;
            let challenge = self.challenges.cancel(&caller, &id).await?;
            Ok(Response::new(pb::CancelChallengeResponse {
                challenge: Some(challenge_to_proto(&challenge)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetChallenge"))]
    async fn get_challenge(
        &self,
        request: Request<pb::GetChallengeRequest>,
    ) -> Result<Response<pb::GetChallengeResponse>, Status> {
        edge(async move {
            self.credentials.caller_of(&request).await?;
            let id = request.into_inner().challenge_id;
            let challenge = self.challenges.get(&id).await?;
            Ok(Response::new(pb::GetChallengeResponse {
                challenge: Some(challenge_to_proto(&challenge)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListChallenges"))]
    async fn list_challenges(
        &self,
        request: Request<pb::ListChallengesRequest>,
    ) -> Result<Response<pb::ListChallengesResponse>, Status> {
        const SCOPE: &str = "challenges";
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let offset: usize = paging::decode(SCOPE, &request.page_token)?.unwrap_or(0);
            let challenges = self.challenges.list(&caller).await?;
            let (page, next_page_token) = paging::slice(SCOPE, &challenges, offset, size);
            Ok(Response::new(pb::ListChallengesResponse {
                challenges: page.iter().map(challenge_to_proto).collect(),
                next_page_token,
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "SetAcceptancePolicy"))]
    async fn set_acceptance_policy(
        &self,
        request: Request<pb::SetAcceptancePolicyRequest>,
    ) -> Result<Response<pb::SetAcceptancePolicyResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let policy = request.policy.map(policy_from_proto).transpose()?;
            let bot_id = match request.bot_id.as_str() {
                "" => caller.bot()?.to_owned(),
                id => id.to_owned(),
            };
            self.challenges.set_policy(&caller, &bot_id, policy).await?;
            Ok(Response::new(pb::SetAcceptancePolicyResponse {}))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetAcceptancePolicy"))]
    async fn get_acceptance_policy(
        &self,
        request: Request<pb::GetAcceptancePolicyRequest>,
    ) -> Result<Response<pb::GetAcceptancePolicyResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let bot_id = match request.into_inner().bot_id {
                id if id.is_empty() => caller.bot()?.to_owned(),
                id => id,
            };
            let policy = self.challenges.policy(&bot_id).await?;
            Ok(Response::new(pb::GetAcceptancePolicyResponse {
                policy: policy.as_ref().map(policy_to_proto),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetQuota"))]
    async fn get_quota(
        &self,
        request: Request<pb::GetQuotaRequest>,
    ) -> Result<Response<pb::GetQuotaResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let bot_id = request.into_inner().bot_id;
            let quota = self
                .challenges
                .quota(&caller, Some(bot_id.as_str()).filter(|id| !id.is_empty()))
                .await?;
            Ok(Response::new(pb::GetQuotaResponse {
                live: quota.live,
                max_concurrent: quota.max_concurrent,
                today: quota.today,
                daily_cap: quota.daily_cap,
                day_resets_at: Some(from_nanos(quota.day_resets_nanos).into()),
            }))
        })
        .await
    }
}

pub fn terms_from_proto(terms: pb::MatchTerms) -> Result<Terms, ServiceError> {
    let options = terms
        .options
        .iter()
        .map(|(name, value)| {
            let value = option_from_proto(name, value)
                .map_err(|e| ServiceError::from(e).at(format!("terms.options.{name}")))?;
            Ok((name.clone(), TermOption::from(&value)))
        })
        .collect::<Result<_, ServiceError>>()?;
    let hosting =
        hosting_from_request(terms.time_control.as_ref(), None, None).map_err(|e| e.at("terms"))?;
    let seat = match pb::SeatPreference::try_from(terms.seat) {
        Ok(pb::SeatPreference::Unspecified) => SeatChoice::Any,
        Ok(pb::SeatPreference::First) => SeatChoice::First,
        Ok(pb::SeatPreference::Second) => SeatChoice::Second,
        Err(_) => {
            return Err(ServiceError::InvalidArgument(format!(
                "`terms.seat` {} is not a SeatPreference",
                terms.seat
            ))
            .at("terms.seat"));
        }
    };
    Ok(Terms {
        variant_id: terms.variant_id,
        options,
        clock: hosting.time_control.into(),
        rated: terms.rated,
        seat,
        rematch_of: Some(terms.rematch_of).filter(|m| !m.is_empty()),
    })
}

pub fn terms_to_proto(terms: &Terms) -> pb::MatchTerms {
    let hosting = Hosting {
        time_control: terms.clock.into(),
        ..Hosting::default()
    };
    pb::MatchTerms {
        variant_id: terms.variant_id.clone(),
        options: terms
            .game_options()
            .iter()
            .map(|(name, value)| (name.clone(), option_to_proto(value)))
            .collect(),
        time_control: Some(time_control_to_proto(&hosting)),
        rated: terms.rated,
        seat: match terms.seat {
            SeatChoice::Any => pb::SeatPreference::Unspecified,
            SeatChoice::First => pb::SeatPreference::First,
            SeatChoice::Second => pb::SeatPreference::Second,
        } as i32,
        rematch_of: terms.rematch_of.clone().unwrap_or_default(),
        speed: speed_to_proto(terms.speed()) as i32,
        pool: terms.pool(),
    }
}

fn speed_to_proto(speed: SpeedClass) -> pb::SpeedClass {
    match speed {
        SpeedClass::Bullet => pb::SpeedClass::Bullet,
        SpeedClass::Blitz => pb::SpeedClass::Blitz,
        SpeedClass::Rapid => pb::SpeedClass::Rapid,
        SpeedClass::Classical => pb::SpeedClass::Classical,
        SpeedClass::Untimed => pb::SpeedClass::Untimed,
    }
}

fn speed_from_proto(speed: i32) -> Result<SpeedClass, ServiceError> {
    Ok(match pb::SpeedClass::try_from(speed) {
        Ok(pb::SpeedClass::Bullet) => SpeedClass::Bullet,
        Ok(pb::SpeedClass::Blitz) => SpeedClass::Blitz,
        Ok(pb::SpeedClass::Rapid) => SpeedClass::Rapid,
        Ok(pb::SpeedClass::Classical) => SpeedClass::Classical,
        Ok(pb::SpeedClass::Untimed) => SpeedClass::Untimed,
        _ => {
            return Err(
                ServiceError::InvalidArgument(format!("{speed} is not a SpeedClass"))
                    .at("policy.speeds"),
            );
        }
    })
}

pub fn challenge_to_proto(challenge: &Challenge) -> pb::Challenge {
    pb::Challenge {
        challenge_id: challenge.challenge_id.clone(),
        challenger_id: challenge.challenger_id.clone(),
        challenger_name: challenge.challenger_name.clone(),
        target_id: challenge.target_id.clone().unwrap_or_default(),
        target_name: challenge.target_name.clone().unwrap_or_default(),
        terms: Some(terms_to_proto(&challenge.terms)),
        create_time: Some(from_nanos(challenge.created_nanos).into()),
        expire_time: Some(from_nanos(challenge.expires_nanos).into()),
        status: match challenge.status {
            ChallengeStatus::Open => pb::ChallengeStatus::Open,
            ChallengeStatus::Accepted => pb::ChallengeStatus::Accepted,
            ChallengeStatus::Declined => pb::ChallengeStatus::Declined,
            ChallengeStatus::Cancelled => pb::ChallengeStatus::Cancelled,
            ChallengeStatus::Expired => pb::ChallengeStatus::Expired,
        } as i32,
        responder_id: challenge.responder_id.clone().unwrap_or_default(),
        decline_reason: challenge
            .decline_reason
            .map_or(pb::DeclineReason::Unspecified, decline_reason_to_proto)
            as i32,
        match_id: challenge.match_id.clone().unwrap_or_default(),
    }
}

fn decline_reason_to_proto(reason: DeclineReason) -> pb::DeclineReason {
    match reason {
        DeclineReason::Generic => pb::DeclineReason::Generic,
        DeclineReason::Later => pb::DeclineReason::Later,
        DeclineReason::Variant => pb::DeclineReason::Variant,
        DeclineReason::TimeControl => pb::DeclineReason::TimeControl,
        DeclineReason::RatedOnly => pb::DeclineReason::RatedOnly,
        DeclineReason::CasualOnly => pb::DeclineReason::CasualOnly,
        DeclineReason::Rating => pb::DeclineReason::Rating,
    }
}

fn decline_reason_from_proto(reason: i32) -> Result<DeclineReason, ServiceError> {
    Ok(match pb::DeclineReason::try_from(reason) {
        Ok(pb::DeclineReason::Unspecified | pb::DeclineReason::Generic) => DeclineReason::Generic,
        Ok(pb::DeclineReason::Later) => DeclineReason::Later,
        Ok(pb::DeclineReason::Variant) => DeclineReason::Variant,
        Ok(pb::DeclineReason::TimeControl) => DeclineReason::TimeControl,
        Ok(pb::DeclineReason::RatedOnly) => DeclineReason::RatedOnly,
        Ok(pb::DeclineReason::CasualOnly) => DeclineReason::CasualOnly,
        Ok(pb::DeclineReason::Rating) => DeclineReason::Rating,
        Err(_) => {
            return Err(
                ServiceError::InvalidArgument(format!("{reason} is not a DeclineReason"))
                    .at("reason"),
            );
        }
    })
}

fn policy_from_proto(policy: pb::AcceptancePolicy) -> Result<Policy, ServiceError> {
    let rated = match (policy.rated_only, policy.casual_only) {
        (false, false) => RatedChoice::Either,
        (true, false) => RatedChoice::RatedOnly,
        (false, true) => RatedChoice::CasualOnly,
        (true, true) => {
            return Err(ServiceError::InvalidArgument(
                "a policy is rated_only or casual_only, not both".into(),
            )
            .at("policy.rated_only"));
        }
    };
    let bound = |value: f64, field: &str| -> Result<Option<f64>, ServiceError> {
        match value {
            0.0 => Ok(None),
            v if v.is_finite() && v > 0.0 => Ok(Some(v)),
            v => Err(
                ServiceError::InvalidArgument(format!("`{field}` {v} is not a rating")).at(field),
            ),
        }
    };
    Ok(Policy {
        variants: policy.variants,
        rated,
        speeds: policy
            .speeds
            .into_iter()
            .map(speed_from_proto)
            .collect::<Result<_, _>>()?,
        min_rating: bound(policy.min_rating, "policy.min_rating")?,
        max_rating: bound(policy.max_rating, "policy.max_rating")?,
    })
}

fn policy_to_proto(policy: &Policy) -> pb::AcceptancePolicy {
    pb::AcceptancePolicy {
        variants: policy.variants.clone(),
        rated_only: policy.rated == RatedChoice::RatedOnly,
        casual_only: policy.rated == RatedChoice::CasualOnly,
        speeds: policy
            .speeds
            .iter()
            .map(|s| speed_to_proto(*s) as i32)
            .collect(),
        min_rating: policy.min_rating.unwrap_or(0.0),
        max_rating: policy.max_rating.unwrap_or(0.0),
    }
}
