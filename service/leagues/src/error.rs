//! How bots and keys refuse: each refusal has its gRPC code and stable reason, and leaves the
//! server as the hosting's errors do (a `ServiceError` at the edge).

use pitchmate_hosting::error::{ErrorCode, ServiceError};
use pitchmate_store::StoreError;

use crate::scope::Scope;

#[derive(Debug, thiserror::Error)]
pub enum LeagueError {
    /// A request field with a value no bot or key may have.
    #[error("{message}")]
    InvalidField {
        field: &'static str,
        message: String,
    },
    #[error(
        "the API key is not valid: send the whole key CreateBot or CreateApiKey showed, as \
         `authorization: Bearer pmk_...`"
    )]
    InvalidApiKey,
    #[error("API key `{0}` was revoked; use another key of the bot, or ask for a new one")]
    ApiKeyRevoked(String),
    #[error("this call needs an API key with scope {}; {hint}", .scope.name())]
    MissingScope { scope: Scope, hint: &'static str },
    #[error("your API key does not act for bot `{0}`; use a key of that bot, or an OPERATOR key")]
    NotYourBot(String),
    #[error("this call is a bot's: send one of the bot's API keys, not an operator key")]
    NotABotKey,
    #[error("no bot has the id or name `{0}`; ListBots shows the server's bots")]
    BotNotFound(String),
    #[error("no API key has the id `{0}`")]
    ApiKeyNotFound(String),
    #[error(
        "the bot name `{0}` is taken (names are compared without regard to case); choose another"
    )]
    BotNameTaken(String),
    #[error(
        "the inbox no longer keeps the items after seq {after} (the oldest kept is {oldest}); \
         GetInbox shows where the inbox and your live matches stand, then watch from its \
         newest_seq"
    )]
    InboxSeqExpired { after: u64, oldest: u64 },
    #[error("no challenge has the id `{0}`; ListChallenges shows your bot's open ones")]
    ChallengeNotFound(String),
    #[error("challenge `{0}` is not yours to answer or cancel")]
    NotYourChallenge(String),
    #[error("challenge `{challenge_id}` is {} already; only an open challenge is answered or cancelled", .status.name())]
    ChallengeClosed {
        challenge_id: String,
        status: crate::challenges::Status,
    },
    #[error(
        "bot `{name}` is at its cap: {live} live matches of max_concurrent {max_concurrent}, \
         {today} today of daily_cap {daily_cap} (the day starts at 00:00 UTC); GetQuota says \
         where a bot stands"
    )]
    OverCap {
        bot_id: String,
        name: String,
        live: u64,
        max_concurrent: u32,
        today: u64,
        daily_cap: u32,
    },
    #[error("your bot already waits in pool `{0}`; LeaveQueue takes its ticket out")]
    AlreadyQueued(String),
    #[error("ticket `{0}` is none of your bot's waiting tickets; ListTickets shows them")]
    TicketNotWaiting(String),
    #[error("no tournament has the id `{0}`; ListTournaments shows the server's tournaments")]
    TournamentNotFound(String),
    #[error("tournament `{tournament_id}` takes no more entries: {why}")]
    EntriesClosed { tournament_id: String, why: String },
    #[error("bot `{bot_id}` may not enter tournament `{tournament_id}`: {why}")]
    EntryCondition {
        tournament_id: String,
        bot_id: String,
        why: String,
    },
    #[error(
        "bot `{bot_id}` has not entered tournament `{tournament_id}`; EnterTournament enters it"
    )]
    NotEntered {
        tournament_id: String,
        bot_id: String,
    },
    #[error(
        "bot `{bot_id}` withdrew from tournament `{tournament_id}` for good; it cannot come back"
    )]
    EntryWithdrawn {
        tournament_id: String,
        bot_id: String,
    },
    #[error("tournament `{tournament_id}` is {state} already")]
    TournamentOver {
        tournament_id: String,
        state: &'static str,
    },
    #[error("the bots store is unavailable right now ({0}); retry shortly")]
    Store(StoreError),
    #[error("{0}; retry shortly")]
    Unavailable(String),
}

impl From<StoreError> for LeagueError {
    fn from(error: StoreError) -> Self {
        Self::Store(error)
    }
}

impl From<LeagueError> for ServiceError {
    fn from(error: LeagueError) -> Self {
        let refused = |code, reason| ServiceError::Refused {
            code,
            reason,
            message: error.to_string(),
        };
        match &error {
            LeagueError::InvalidField { field, message } => {
                ServiceError::InvalidArgument(message.clone()).at(*field)
            }
            LeagueError::InvalidApiKey => refused(ErrorCode::Unauthenticated, "INVALID_API_KEY"),
            LeagueError::ApiKeyRevoked(_) => refused(ErrorCode::Unauthenticated, "API_KEY_REVOKED"),
            LeagueError::MissingScope { .. } => {
                refused(ErrorCode::PermissionDenied, "MISSING_SCOPE")
            }
            LeagueError::NotYourBot(_) => refused(ErrorCode::PermissionDenied, "NOT_YOUR_BOT"),
            LeagueError::NotABotKey => refused(ErrorCode::PermissionDenied, "NOT_A_BOT_KEY"),
            LeagueError::BotNotFound(_) => refused(ErrorCode::NotFound, "BOT_NOT_FOUND"),
            LeagueError::ApiKeyNotFound(_) => refused(ErrorCode::NotFound, "API_KEY_NOT_FOUND"),
            LeagueError::BotNameTaken(_) => refused(ErrorCode::AlreadyExists, "BOT_NAME_TAKEN"),
            LeagueError::InboxSeqExpired { .. } => {
                refused(ErrorCode::FailedPrecondition, "INBOX_SEQ_EXPIRED")
            }
            LeagueError::ChallengeNotFound(_) => {
                refused(ErrorCode::NotFound, "CHALLENGE_NOT_FOUND")
            }
            LeagueError::NotYourChallenge(_) => {
                refused(ErrorCode::PermissionDenied, "NOT_YOUR_CHALLENGE")
            }
            LeagueError::ChallengeClosed { .. } => {
                refused(ErrorCode::FailedPrecondition, "CHALLENGE_CLOSED")
            }
            LeagueError::OverCap {
                bot_id,
                live,
                max_concurrent,
                ..
            } => ServiceError::OverCap {
                subject: format!("bot:{bot_id}"),
                cap: if live >= &u64::from(*max_concurrent) {
                    "max_concurrent"
                } else {
                    "daily_cap"
                },
                message: error.to_string(),
            },
            LeagueError::AlreadyQueued(_) => refused(ErrorCode::AlreadyExists, "ALREADY_QUEUED"),
            LeagueError::TicketNotWaiting(_) => {
                refused(ErrorCode::FailedPrecondition, "TICKET_NOT_WAITING")
            }
            LeagueError::TournamentNotFound(_) => {
                refused(ErrorCode::NotFound, "TOURNAMENT_NOT_FOUND")
            }
            LeagueError::EntriesClosed { .. } => {
                refused(ErrorCode::FailedPrecondition, "ENTRIES_CLOSED")
            }
            LeagueError::EntryCondition { .. } => {
                refused(ErrorCode::FailedPrecondition, "ENTRY_CONDITION")
            }
            LeagueError::NotEntered { .. } => refused(ErrorCode::NotFound, "NOT_ENTERED"),
            LeagueError::EntryWithdrawn { .. } => {
                refused(ErrorCode::FailedPrecondition, "ENTRY_WITHDRAWN")
            }
            LeagueError::TournamentOver { .. } => {
                refused(ErrorCode::FailedPrecondition, "TOURNAMENT_OVER")
            }
            LeagueError::Store(store) => ServiceError::StoreUnavailable(store.to_string()),
            LeagueError::Unavailable(_) => refused(ErrorCode::Unavailable, "UNAVAILABLE"),
        }
    }
}
