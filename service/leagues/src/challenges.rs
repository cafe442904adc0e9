//! Challenges: one bot proposes a match to another (or to any bot), the other accepts or
//! declines, and an accepted challenge assigns a match (see `scheduler`). Every answer is one
//! store transaction with the inbox items it causes and, when accepted, the assigned match,
//! whose bots' caps are checked there: two answers never both take a bot's last free place.
//!
//! A bot may store an acceptance policy: then the server answers challenges sent to it at once,
//! accepting those the policy admits and declining the rest with the reason the policy gives,
//! so a bot is challenged while it sleeps. Without one, a challenge waits for the bot's answer
//! until it expires.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use pitchmate_hosting::MatchRegistry;
use pitchmate_store::{
    AssignedMatchRow, AssignedState, ChallengeFilter, ChallengeRow, ChallengeState, NewInboxItem,
    Resolution, Resolved, Store,
};

use crate::accounts::random_id;
use crate::accounts::{Accounts, Caller};
use crate::error::LeagueError;
use crate::inbox::{InboxBus, InboxItem};
use crate::nanos;
use crate::policy::Policy;
use crate::rated;
use crate::rating::RatingConfig;
use crate::scope::Scope;
use crate::terms::{SeatChoice, Terms};

/// The longest a challenge may wait for an answer.
pub const MAX_EXPIRY: Duration = Duration::from_secs(7 * 24 * 3600);
/// How long a challenge waits when its maker does not say.
pub const DEFAULT_EXPIRY: Duration = Duration::from_secs(600);

/// Why a bot declined. The numbers are stored; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    Generic,
    /// Not now; maybe later.
    Later,
    /// Not this variant.
    Variant,
    /// Not this time control.
    TimeControl,
    /// Only rated matches.
    RatedOnly,
    /// Only casual matches.
    CasualOnly,
    /// Not against a bot of this rating.
    Rating,
}

impl DeclineReason {
    pub fn code(self) -> u32 {
        match self {
            Self::Generic => 1,
            Self::Later => 2,
            Self::Variant => 3,
            Self::TimeControl => 4,
            Self::RatedOnly => 5,
            Self::CasualOnly => 6,
            Self::Rating => 7,
        }
    }

    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            1 => Self::Generic,
            2 => Self::Later,
            3 => Self::Variant,
            4 => Self::TimeControl,
            5 => Self::RatedOnly,
            6 => Self::CasualOnly,
            7 => Self::Rating,
            _ => return None,
        })
    }
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Accepted => "accepted",
            Self::Declined => "declined",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
        }
    }
}

impl From<ChallengeState> for Status {
    fn from(state: ChallengeState) -> Self {
        match state {
            ChallengeState::Open => Self::Open,
            ChallengeState::Accepted => Self::Accepted,
            ChallengeState::Declined => Self::Declined,
            ChallengeState::Cancelled => Self::Cancelled,
            ChallengeState::Expired => Self::Expired,
        }
    }
}

/// What the store keeps as a challenge's terms: the terms, and the bots' names when it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Proposal {
    terms: Terms,
    challenger_name: String,
    target_name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub challenge_id: String,
    pub challenger_id: String,
    pub challenger_name: String,
    /// `None`: open to any bot.
    pub target_id: Option<String>,
    pub target_name: Option<String>,
    pub terms: Terms,
    pub created_nanos: i64,
    pub expires_nanos: i64,
    pub status: Status,
    pub responder_id: Option<String>,
    pub decline_reason: Option<DeclineReason>,
    pub match_id: Option<String>,
}

impl Challenge {
    fn from_row(row: ChallengeRow) -> Result<Self, LeagueError> {
        let proposal: Proposal = serde_json::from_slice(&row.terms).map_err(|e| {
            LeagueError::Unavailable(format!("challenge {} is unreadable: {e}", row.challenge_id))
        })?;
        Ok(Self {
            challenge_id: row.challenge_id,
            challenger_id: row.challenger,
            challenger_name: proposal.challenger_name,
            target_id: row.target,
            target_name: proposal.target_name,
            terms: proposal.terms,
            created_nanos: row.created_nanos,
            expires_nanos: row.expires_nanos,
            status: row.state.into(),
            responder_id: row.responder,
            decline_reason: DeclineReason::from_code(row.decline_reason),
            match_id: row.match_id,
        })
    }

    fn note(&self, bot_id: &str, received: bool, at: SystemTime) -> NewInboxItem {
        let item = if received {
            InboxItem::ChallengeReceived(Box::new(self.clone()))
        } else {
            InboxItem::ChallengeResolved(Box::new(self.clone()))
        };
        item.to_new(bot_id, at)
    }
}

/// What a bot proposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    /// A bot's id or name; `None`: open to any bot.
    pub target: Option<String>,
    pub terms: Terms,
    pub expires_in: Option<Duration>,
}

const DAY_NANOS: i64 = 86_400_000_000_000;

/// The UTC day's start, from which the daily cap counts.
pub fn day_start(now: SystemTime) -> i64 {
    let at = nanos(now);
    at - at.rem_euclid(DAY_NANOS)
}

/// Where a bot stands against its caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    pub live: u64,
    pub max_concurrent: u32,
    pub today: u64,
    pub daily_cap: u32,
    /// When `today` counts from 0 again.
    pub day_resets_nanos: i64,
}

/// Challenges and what answering them assigns.
pub struct Challenges {
    store: Store,
    accounts: Arc<Accounts>,
    registry: Arc<MatchRegistry>,
    bus: InboxBus,
    /// Woken when a match is assigned, so it is created at once.
    assigned: Arc<Notify>,
    ratings: RatingConfig,
}

impl Challenges {
    pub fn new(
        store: Store,
        accounts: Arc<Accounts>,
        registry: Arc<MatchRegistry>,
        bus: InboxBus,
        assigned: Arc<Notify>,
        ratings: RatingConfig,
    ) -> Self {
        Self {
            store,
            accounts,
            registry,
            bus,
            assigned,
            ratings,
        }
    }

    pub async fn create(
        &self,
        caller: &Caller,
        request: NewChallenge,
    ) -> Result<Challenge, LeagueError> {
        let challenger_id = caller.bot_with(Scope::Challenge, "challenging needs CHALLENGE")?;
        let challenger = self.accounts.bot(challenger_id).await?;
        let mut terms = request.terms;
        let target = match (&request.target, &terms.rematch_of) {
            (_, Some(of)) => {
                // A rematch: the same terms, the other bot, the seats swapped.
                let previous = self.rematch(challenger_id, of).await?;
                terms = previous.0;
                Some(self.accounts.bot(&previous.1).await?)
            }
            (Some(target), None) => Some(self.accounts.bot_by_id_or_name(target).await?),
            (None, None) => None,
        };
        check_terms(&self.registry, &terms)?;
        if target.as_ref().is_some_and(|t| t.bot_id == challenger_id) {
            return Err(LeagueError::InvalidField {
                field: "target",
                message: "a bot cannot challenge itself".into(),
            });
        }
        let expires_in = request.expires_in.unwrap_or(DEFAULT_EXPIRY);
        if expires_in.is_zero() || expires_in > MAX_EXPIRY {
            return Err(LeagueError::InvalidField {
                field: "expires_in",
                message: format!(
                    "a challenge waits between 1 s and {} days",
                    MAX_EXPIRY.as_secs() / 86_400
                ),
            });
        }
        let now = SystemTime::now();
        let proposal = Proposal {
            terms,
            challenger_name: challenger.name.clone(),
            target_name: target.as_ref().map(|t| t.name.clone()),
        };
        let row = ChallengeRow {
            challenge_id: random_id()?,
            challenger: challenger_id.to_owned(),
            target: target.as_ref().map(|t| t.bot_id.clone()),
            terms: serde_json::to_vec(&proposal).expect("a proposal serialises"),
            created_nanos: nanos(now),
            expires_nanos: nanos(now + expires_in),
            state: ChallengeState::Open,
            responder: None,
            decline_reason: 0,
            match_id: None,
            resolved_nanos: None,
        };
        let challenge = Challenge::from_row(row.clone())?;
        let policy = match &challenge.target_id {
            Some(target) => self.policy(target).await?,
            None => None,
        };
        // A target with a policy answers at once; without one, it is told and answers itself.
        let told = match (&challenge.target_id, &policy) {
            (Some(target), None) => vec![challenge.note(target, true, now)],
            _ => Vec::new(),
        };
        let rows = self.store.create_challenge(row, told).await?;
        self.bus.publish(rows);
        let (Some(target), Some(policy)) = (challenge.target_id.clone(), policy) else {
            return Ok(challenge);
        };
        let rating = self.rating_for(&challenge).await?;
        match policy.verdict(&challenge.terms, rating) {
            Ok(()) => match self.accept_as(&challenge, &target).await {
                // The policy would play, but not now: the target is at a cap.
                Err(LeagueError::OverCap { bot_id, .. }) if bot_id == target => {
                    self.decline_as(&challenge, &target, DeclineReason::Later)
                        .await
                }
                other => other,
            },
            Err(reason) => self.decline_as(&challenge, &target, reason).await,
        }
    }

    /// The challenger's rating as a policy judges it: in the challenge's rated pool (whether
    /// or not this challenge is rated), as of now.
    async fn rating_for(&self, challenge: &Challenge) -> Result<f64, LeagueError> {
        let pool = Terms {
            rated: true,
            ..challenge.terms.clone()
        }
        .pool();
        let rating =
            rated::current(&self.store, &self.ratings, &pool, &challenge.challenger_id).await?;
        Ok(rating.aged(nanos(SystemTime::now()), &self.ratings).rating)
    }

    /// The terms and opponent of a rematch of `match_id`, which `bot_id` played in.
    async fn rematch(&self, bot_id: &str, match_id: &str) -> Result<(Terms, String), LeagueError> {
        let not_yours = || LeagueError::InvalidField {
            field: "terms.rematch_of",
            message: format!(
                "`{match_id}` is no match a league assigned to your bot; a rematch repeats one"
            ),
        };
        let played = self
            .store
            .assigned_match(match_id)
            .await?
            .ok_or_else(not_yours)?;
        let seat = played
            .bots
            .iter()
            .position(|b| b == bot_id)
            .ok_or_else(not_yours)?;
        let mut terms = Terms::from_bytes(&played.terms).map_err(LeagueError::Unavailable)?;
        terms.rematch_of = Some(match_id.to_owned());
        // The seats change sides.
        terms.seat = if seat == 0 {
            SeatChoice::Second
        } else {
            SeatChoice::First
        };
        Ok((terms, played.bots[1 - seat].clone()))
    }

    pub async fn get(&self, challenge_id: &str) -> Result<Challenge, LeagueError> {
        let row = self
            .store
            .challenge(challenge_id)
            .await?
            .ok_or_else(|| LeagueError::ChallengeNotFound(challenge_id.to_owned()))?;
        Challenge::from_row(row)
    }

    /// The open challenges the bot made or was sent, then those open to any bot.
    pub async fn list(&self, caller: &Caller) -> Result<Vec<Challenge>, LeagueError> {
        let bot_id = caller.bot()?;
        let mut rows = self
            .store
            .challenges(ChallengeFilter::Of {
                bot_id: bot_id.to_owned(),
                open_only: true,
            })
            .await?;
        rows.extend(
            self.store
                .challenges(ChallengeFilter::OpenToAny)
                .await?
                .into_iter()
                .filter(|r| r.challenger != bot_id),
        );
        rows.into_iter().map(Challenge::from_row).collect()
    }

    pub async fn accept(
        &self,
        caller: &Caller,
        challenge_id: &str,
    ) -> Result<Challenge, LeagueError> {
        let bot_id = caller.bot_with(Scope::Challenge, "answering challenges needs CHALLENGE")?;
        let challenge = self.get(challenge_id).await?;
        match &challenge.target_id {
            Some(target) if target != bot_id => {
                return Err(LeagueError::NotYourChallenge(challenge_id.to_owned()));
            }
            None if challenge.challenger_id == bot_id => {
                return Err(LeagueError::NotYourChallenge(challenge_id.to_owned()));
            }
            _ => {}
        }
        self.accept_as(&challenge, bot_id).await
    }

    pub async fn decline(
        &self,
        caller: &Caller,
        challenge_id: &str,
        reason: DeclineReason,
    ) -> Result<Challenge, LeagueError> {
        let bot_id = caller.bot_with(Scope::Challenge, "answering challenges needs CHALLENGE")?;
        let challenge = self.get(challenge_id).await?;
        if challenge.target_id.as_deref() != Some(bot_id) {
            return Err(LeagueError::NotYourChallenge(challenge_id.to_owned()));
        }
        self.decline_as(&challenge, bot_id, reason).await
    }

    pub async fn cancel(
        &self,
        caller: &Caller,
        challenge_id: &str,
    ) -> Result<Challenge, LeagueError> {
        let bot_id = caller.bot_with(Scope::Challenge, "cancelling challenges needs CHALLENGE")?;
        let challenge = self.get(challenge_id).await?;
        if challenge.challenger_id != bot_id {
            return Err(LeagueError::NotYourChallenge(challenge_id.to_owned()));
        }
        self.close(&challenge, ChallengeState::Cancelled, None, None)
            .await
    }

    /// Closes every open challenge past its expiry; how many.
    pub async fn expire_due(&self) -> Result<usize, LeagueError> {
        let due = self
            .store
            .challenges(ChallengeFilter::ExpiredBy(nanos(SystemTime::now())))
            .await?;
        let count = due.len();
        for row in due {
            let challenge = Challenge::from_row(row)?;
            // Answered meanwhile: nothing to expire.
            let _ = self
                .close(&challenge, ChallengeState::Expired, None, None)
                .await;
        }
        Ok(count)
    }

    async fn decline_as(
        &self,
        challenge: &Challenge,
        bot_id: &str,
        reason: DeclineReason,
    ) -> Result<Challenge, LeagueError> {
        self.close(
            challenge,
            ChallengeState::Declined,
            Some(bot_id),
            Some(reason),
        )
        .await
    }

    /// Resolves without a match: declined, cancelled or expired. Every bot of the challenge is
    /// told, the one whose call it was too: a bot that follows only its inbox learns of every
    /// resolution there.
    async fn close(
        &self,
        challenge: &Challenge,
        state: ChallengeState,
        responder: Option<&str>,
        reason: Option<DeclineReason>,
    ) -> Result<Challenge, LeagueError> {
        let now = SystemTime::now();
        let mut resolved = challenge.clone();
        resolved.status = state.into();
        resolved.responder_id = responder.map(str::to_owned);
        resolved.decline_reason = reason;
        let resolution = Resolution {
            challenge_id: challenge.challenge_id.clone(),
            state,
            responder: resolved.responder_id.clone(),
            decline_reason: reason.map_or(0, DeclineReason::code),
            resolved_nanos: nanos(now),
            assigned: None,
            inbox: self.told(&resolved, now),
        };
        self.resolve(resolution, &resolved).await?;
        Ok(resolved)
    }

    /// Every bot of the challenge, told of its resolution.
    fn told(&self, resolved: &Challenge, at: SystemTime) -> Vec<NewInboxItem> {
        let mut bots = vec![resolved.challenger_id.clone()];
        bots.extend(resolved.target_id.clone());
        if let Some(responder) = &resolved.responder_id
            && !bots.contains(responder)
        {
            bots.push(responder.clone());
        }
        bots.iter()
            .map(|bot| resolved.note(bot, false, at))
            .collect()
    }

    async fn accept_as(
        &self,
        challenge: &Challenge,
        bot_id: &str,
    ) -> Result<Challenge, LeagueError> {
        if challenge.expires_nanos <= nanos(SystemTime::now()) {
            let _ = self
                .close(challenge, ChallengeState::Expired, None, None)
                .await;
            return Err(LeagueError::ChallengeClosed {
                challenge_id: challenge.challenge_id.clone(),
                status: Status::Expired,
            });
        }
        let now = SystemTime::now();
        let match_id = new_match_id()?;
        let challenger_first = match challenge.terms.seat {
            SeatChoice::First => true,
            SeatChoice::Second => false,
            SeatChoice::Any => first_seat_drawn(&match_id),
        };
        let (first, second) = if challenger_first {
            (challenge.challenger_id.clone(), bot_id.to_owned())
        } else {
            (bot_id.to_owned(), challenge.challenger_id.clone())
        };
        let mut caps = Vec::new();
        for bot in [&first, &second] {
            caps.push(self.accounts.bot(bot).await?.caps(day_start(now)));
        }
        let assigned = AssignedMatchRow {
            match_id: match_id.clone(),
            bots: [first, second],
            pool: challenge.terms.pool(),
            terms: assigned_terms(challenge).to_bytes(),
            assigned_nanos: nanos(now),
            state: AssignedState::Pending,
        };
        let mut resolved = challenge.clone();
        resolved.status = Status::Accepted;
        resolved.responder_id = Some(bot_id.to_owned());
        resolved.match_id = Some(match_id);
        let resolution = Resolution {
            challenge_id: challenge.challenge_id.clone(),
            state: ChallengeState::Accepted,
            responder: Some(bot_id.to_owned()),
            decline_reason: 0,
            resolved_nanos: nanos(now),
            assigned: Some((assigned, caps)),
            inbox: self.told(&resolved, now),
        };
        self.resolve(resolution, &resolved).await?;
        self.assigned.notify_one();
        Ok(resolved)
    }

    async fn resolve(
        &self,
        resolution: Resolution,
        resolved: &Challenge,
    ) -> Result<(), LeagueError> {
        match self.store.resolve_challenge(resolution).await? {
            Resolved::Done(rows) => {
                self.bus.publish(rows);
                Ok(())
            }
            Resolved::NotOpen(state) => Err(LeagueError::ChallengeClosed {
                challenge_id: resolved.challenge_id.clone(),
                status: state.map_or(Status::Open, Status::from),
            }),
            Resolved::OverCap { bot_id, load } => {
                let bot = self.accounts.bot(&bot_id).await?;
                Err(LeagueError::OverCap {
                    bot_id,
                    name: bot.name,
                    live: load.live,
                    max_concurrent: bot.max_concurrent,
                    today: load.today,
                    daily_cap: bot.daily_cap,
                })
            }
        }
    }

    /// Where a bot stands against its caps: the caller's own bot, or (for an operator, or a
    /// key of that bot) the one named.
    pub async fn quota(&self, caller: &Caller, bot_id: Option<&str>) -> Result<Quota, LeagueError> {
        let bot_id = match bot_id {
            Some(named) if !caller.is_operator() && caller.bot()? != named => {
                return Err(LeagueError::NotYourBot(named.to_owned()));
            }
            Some(named) => named,
            None => caller.bot()?,
        };
        let bot = self.accounts.bot(bot_id).await?;
        let start = day_start(SystemTime::now());
        let load = self.store.bot_load(bot_id, start).await?;
        Ok(Quota {
            live: load.live,
            max_concurrent: bot.max_concurrent,
            today: load.today,
            daily_cap: bot.daily_cap,
            day_resets_nanos: start + DAY_NANOS,
        })
    }

    pub async fn policy(&self, bot_id: &str) -> Result<Option<Policy>, LeagueError> {
        self.store
            .policy(bot_id)
            .await?
            .map(|bytes| Policy::from_bytes(&bytes).map_err(LeagueError::Unavailable))
            .transpose()
    }

    pub async fn set_policy(
        &self,
        caller: &Caller,
        bot_id: &str,
        policy: Option<Policy>,
    ) -> Result<(), LeagueError> {
        caller.may_manage(bot_id)?;
        self.accounts.bot(bot_id).await?;
        if let Some(policy) = &policy {
            for variant in &policy.variants {
                self.registry
                    .games()
                    .info(variant)
                    .map_err(|e| LeagueError::InvalidField {
                        field: "policy.variants",
                        message: e.to_string(),
                    })?;
            }
        }
        self.store
            .set_policy(bot_id, policy.map(|p| p.to_bytes()))
            .await?;
        Ok(())
    }
}

/// Checks the terms against the game: the variant exists and takes these options.
pub(crate) fn check_terms(registry: &MatchRegistry, terms: &Terms) -> Result<(), LeagueError> {
    let info = registry
        .games()
        .info(&terms.variant_id)
        .map_err(|e| LeagueError::InvalidField {
            field: "terms.variant_id",
            message: e.to_string(),
        })?;
    pitchmate_rules::Options::resolve(&info.options, &terms.game_options()).map_err(|e| {
        LeagueError::InvalidField {
            field: "terms.options",
            message: e.to_string(),
        }
    })?;
    if info.seats.len() != 2 {
        return Err(LeagueError::InvalidField {
            field: "terms.variant_id",
            message: format!("`{}` is not a two-seat game", terms.variant_id),
        });
    }
    Ok(())
}

/// The terms the assigned match is played under: the challenge's, the seats settled.
fn assigned_terms(challenge: &Challenge) -> Terms {
    Terms {
        seat: SeatChoice::Any,
        ..challenge.terms.clone()
    }
}

/// Whether the first of two bots drawn for a match takes its first seat: drawn from the match
/// id, itself random, so nobody chooses it.
pub(crate) fn first_seat_drawn(match_id: &str) -> bool {
    match_id.as_bytes().first().is_some_and(|b| b % 2 == 0)
}

/// A match id as the match core makes them (a UUID's form), from the system's randomness.
pub(crate) fn new_match_id() -> Result<String, LeagueError> {
    let hex = format!("{}{}", random_id()?, random_id()?);
    Ok(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}
