//! Challenges between bots, the matches leagues assign to bots, and bots' acceptance policies
//! (schema 9).
//!
//! A league decides a match before the match core hosts it: the assignment (its id, its bots,
//! its terms) is written first, in the transaction that decided it (a challenge accepted), with
//! the inbox items it causes. The match is created afterwards, under the id written, so a crash
//! between the two leaves an assignment still `Pending`, created on the next start, never two
//! matches and never none.
//!
//! Caps are checked in the transaction that assigns: a bot's live matches (assigned and not
//! over, and matches it joined itself that have not ended) and its matches since the start of
//! the day are counted where the new one is written, so two assignments decided at once never
//! both pass a bot's last free place. The store counts; the leagues crate says what the caps
//! are.
//!
//! Terms and policies are the leagues crate's bytes; the store does not read them.

use super::league::NewInboxItem;
use super::{Backend, InboxRow, StoreError};

/// Where a challenge stands. The numbers are stored; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeState {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

impl ChallengeState {
    pub(crate) fn code(self) -> i64 {
        match self {
            Self::Open => 1,
            Self::Accepted => 2,
            Self::Declined => 3,
            Self::Cancelled => 4,
            Self::Expired => 5,
        }
    }

    pub(crate) fn from_code(code: i64) -> Result<Self, StoreError> {
        Ok(match code {
            1 => Self::Open,
            2 => Self::Accepted,
            3 => Self::Declined,
            4 => Self::Cancelled,
            5 => Self::Expired,
            _ => return Err(StoreError::Database(format!("challenge state {code}"))),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub challenge_id: String,
    pub challenger: String,
    /// `None`: open to any bot.
    pub target: Option<String>,
    /// The leagues crate's encoding of what was proposed.
    pub terms: Vec<u8>,
    pub created_nanos: i64,
    pub expires_nanos: i64,
    pub state: ChallengeState,
    /// The bot that accepted or declined; `None` while open, or when cancelled or expired.
    pub responder: Option<String>,
    /// The leagues crate's number for why it was declined; 0 otherwise.
    pub decline_reason: u32,
    /// The match an accepted challenge assigned.
    pub match_id: Option<String>,
    pub resolved_nanos: Option<i64>,
}

/// Where an assigned match stands. The numbers are stored; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignedState {
    /// Decided, not yet created in the match core.
    Pending,
    /// Created; its bots were told.
    Created,
    /// The match ended (or was found never to be creatable).
    Over,
}

impl AssignedState {
    pub(crate) fn code(self) -> i64 {
        match self {
            Self::Pending => 1,
            Self::Created => 2,
            Self::Over => 3,
        }
    }

    pub(crate) fn from_code(code: i64) -> Result<Self, StoreError> {
        Ok(match code {
            1 => Self::Pending,
            2 => Self::Created,
            3 => Self::Over,
            _ => return Err(StoreError::Database(format!("assigned match state {code}"))),
        })
    }
}

/// A match a league assigned to two bots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignedMatchRow {
    pub match_id: String,
    /// The bot of the first seat, then of the second.
    pub bots: [String; 2],
    /// Which ratings the result moves, for a rated match; empty for a casual one.
    pub pool: String,
    /// The leagues crate's encoding of the match's terms.
    pub terms: Vec<u8>,
    pub assigned_nanos: i64,
    pub state: AssignedState,
}

/// A bot's caps as the assigning transaction checks them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCaps {
    pub bot_id: String,
    pub max_concurrent: u32,
    pub daily_cap: u32,
    /// Matches since this moment count against `daily_cap`.
    pub day_start_nanos: i64,
}

/// Where a bot stands against its caps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotLoad {
    /// Matches assigned and not over, and matches it joined itself that have not ended.
    pub live: u64,
    /// Matches assigned, or joined, since the start of the day.
    pub today: u64,
}

/// How a challenge is resolved, in one transaction: its new state, the match it assigns, if
/// any (with the caps of both bots, checked there), and the inbox items it causes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub challenge_id: String,
    pub state: ChallengeState,
    pub responder: Option<String>,
    pub decline_reason: u32,
    pub resolved_nanos: i64,
    pub assigned: Option<(AssignedMatchRow, Vec<BotCaps>)>,
    pub inbox: Vec<NewInboxItem>,
}

/// What came of resolving a challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Written; the inbox items as numbered.
    Done(Vec<InboxRow>),
    /// Nothing written: the challenge was not open (it stands as given), or does not exist.
    NotOpen(Option<ChallengeState>),
    /// Nothing written: this bot is at a cap.
    OverCap { bot_id: String, load: BotLoad },
}

impl BotCaps {
    /// Whether one more match fits.
    pub fn admits(&self, load: BotLoad) -> bool {
        load.live < u64::from(self.max_concurrent) && load.today < u64::from(self.daily_cap)
    }
}

impl Backend {
    pub(crate) async fn create_challenge(
        &self,
        challenge: ChallengeRow,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.create_challenge(challenge, inbox).await,
            Self::Postgres(store) => store.create_challenge(challenge, inbox).await,
        }
    }

    pub(crate) async fn resolve_challenge(
        &self,
        resolution: Resolution,
    ) -> Result<Resolved, StoreError> {
        match self {
            Self::Sqlite(store) => store.resolve_challenge(resolution).await,
            Self::Postgres(store) => store.resolve_challenge(resolution).await,
        }
    }

    pub(crate) async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.challenge(id.to_owned()).await,
            Self::Postgres(store) => store.challenge(id).await,
        }
    }

    pub(crate) async fn challenges(
        &self,
        filter: ChallengeFilter,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.challenges(filter).await,
            Self::Postgres(store) => store.challenges(filter).await,
        }
    }

    pub(crate) async fn assigned_matches(
        &self,
        state: AssignedState,
    ) -> Result<Vec<AssignedMatchRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.assigned_matches(state).await,
            Self::Postgres(store) => store.assigned_matches(state).await,
        }
    }

    pub(crate) async fn assigned_to(
        &self,
        bot_id: &str,
    ) -> Result<Vec<AssignedMatchRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.assigned_to(bot_id.to_owned()).await,
            Self::Postgres(store) => store.assigned_to(bot_id).await,
        }
    }

    pub(crate) async fn assigned_match(
        &self,
        match_id: &str,
    ) -> Result<Option<AssignedMatchRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.assigned_match(match_id.to_owned()).await,
            Self::Postgres(store) => store.assigned_match(match_id).await,
        }
    }

    pub(crate) async fn mark_assigned(
        &self,
        match_id: &str,
        from: AssignedState,
        to: AssignedState,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        match self {
            Self::Sqlite(store) => {
                store
                    .mark_assigned(match_id.to_owned(), from, to, inbox)
                    .await
            }
            Self::Postgres(store) => store.mark_assigned(match_id, from, to, inbox).await,
        }
    }

    pub(crate) async fn bot_load(
        &self,
        bot_id: &str,
        day_start_nanos: i64,
    ) -> Result<BotLoad, StoreError> {
        match self {
            Self::Sqlite(store) => store.bot_load(bot_id.to_owned(), day_start_nanos).await,
            Self::Postgres(store) => store.bot_load(bot_id, day_start_nanos).await,
        }
    }

    pub(crate) async fn bot_loads(
        &self,
        day_start_nanos: i64,
    ) -> Result<Vec<(String, BotLoad)>, StoreError> {
        match self {
            Self::Sqlite(store) => store.bot_loads(day_start_nanos).await,
            Self::Postgres(store) => store.bot_loads(day_start_nanos).await,
        }
    }

    pub(crate) async fn set_policy(
        &self,
        bot_id: &str,
        policy: Option<Vec<u8>>,
    ) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.set_policy(bot_id.to_owned(), policy).await,
            Self::Postgres(store) => store.set_policy(bot_id, policy).await,
        }
    }

    pub(crate) async fn policy(&self, bot_id: &str) -> Result<Option<Vec<u8>>, StoreError> {
        match self {
            Self::Sqlite(store) => store.policy(bot_id.to_owned()).await,
            Self::Postgres(store) => store.policy(bot_id).await,
        }
    }
}

/// Which challenges a listing wants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeFilter {
    /// Those the bot made or was sent, open ones only if `open_only`.
    Of { bot_id: String, open_only: bool },
    /// Open challenges to any bot.
    OpenToAny,
    /// Open challenges whose expiry is before this moment.
    ExpiredBy(i64),
}
