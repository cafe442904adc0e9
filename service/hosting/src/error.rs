//! Every way a request can fail, and what a client is told of each: a gRPC code plus a
//! stable `reason` (bots branch on it), machine-readable metadata, and a message a person can
//! act on. The API turns an error into a `tonic::Status` carrying all of it, or, for an action
//! refused on a `Play` stream, into the same in band.

use std::collections::HashMap;
use std::time::Duration;

use pitchmate_games::GameError;
use pitchmate_rules::{RuleError, RuleErrorKind};
use thiserror::Error;

/// The longest message an error carries, in bytes. An error travels in headers twice (as
/// `grpc-message` and inside `grpc-status-details-bin`), and common gRPC clients refuse header
/// blocks over 8 KiB, so an error quoting a huge request would reach them as an unrelated one.
pub const MAX_ERROR_MESSAGE: usize = 1024;
/// The longest `ErrorInfo.metadata` value, in bytes.
pub const MAX_ERROR_METADATA: usize = 128;
/// How much of a request's identifier (a match id, a variant id, a seat) an error quotes.
const QUOTED_ID: usize = 64;

/// `text` cut to at most `limit` bytes on a character boundary, saying how long it was when cut.
pub fn excerpt(text: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= limit {
        return text.into();
    }
    let note = format!("… ({} bytes)", text.len());
    let mut end = limit.saturating_sub(note.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{note}", &text[..end]).into()
}

/// A request's identifier as an error quotes it.
fn quoted(id: &str) -> std::borrow::Cow<'_, str> {
    excerpt(id, QUOTED_ID)
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ServiceError {
    #[error(
        "no match has the id `{}`; ListMatches shows the matches this server hosts",
        quoted(.0)
    )]
    MatchNotFound(String),
    #[error("no variant has the id `{}`; this server hosts: {known}", quoted(id))]
    UnknownVariant { id: String, known: String },
    /// `rule` names the rule of the game the action breaks (`keeper-area`), when the game says.
    #[error("{message}")]
    IllegalAction {
        message: String,
        rule: Option<&'static str>,
    },
    #[error("{0}")]
    MalformedNotation(String),
    #[error("{0}")]
    NotYourTurn(String),
    #[error(
        "stale version: the request expected version {expected} but the match is at version \
         {current}; fetch the legal actions again and act on the current version"
    )]
    StaleVersion { expected: u64, current: u64 },
    #[error("{0}")]
    Unauthenticated(String),
    #[error(
        "the seat token is not valid for match `{}`; send the token JoinMatch returned for this \
         match as `authorization: Bearer <token>`",
        quoted(.0)
    )]
    InvalidSeatToken(String),
    #[error(
        "seat `{}` is already taken; leave the seat empty to take the first free one",
        quoted(.0)
    )]
    SeatTaken(String),
    #[error("every seat of this match is taken")]
    NoFreeSeat,
    #[error("this variant has no seat `{}`; its seats are: {seats}", quoted(seat))]
    UnknownSeat { seat: String, seats: String },
    #[error("the match is {status}; {hint}")]
    MatchNotActive {
        status: &'static str,
        hint: &'static str,
    },
    #[error("{0}")]
    InvalidOption(String),
    #[error("{0}")]
    InvalidPosition(String),
    #[error("{0}")]
    InvalidArgument(String),
    /// The match's actor stopped (its store failed, the server is stopping) or cannot start.
    #[error("the match is not available right now ({0}); retry shortly")]
    Unavailable(String),
    /// The match's actor retired (idle, expired, or its store failed) before it took the call:
    /// the call never happened, and the registry sends it once more to the rebuilt match.
    #[error("the match is not available right now (its actor stopped); retry shortly")]
    ActorStopped,
    /// A stored match this server's rules cannot rebuild: it is kept out of play rather than
    /// continued on a history it did not have.
    #[error("match `{match_id}` cannot be rebuilt from its stored history: {detail}")]
    MatchNotRebuildable { match_id: String, detail: String },
    /// Another server holds the match's lease (cluster mode): it hosts the match, this one
    /// does not, until `until` unless it renews.
    #[error(
        "match `{}` is hosted by replica `{}` at {}; call that replica, or retry here: a lease \
         that lapses is taken over",
        quoted(match_id),
        quoted(owner),
        if owner_url.is_empty() { "an unknown address" } else { owner_url.as_str() }
    )]
    NotOwner {
        match_id: String,
        owner: String,
        owner_url: String,
        until: std::time::SystemTime,
    },
    /// The store cannot be read, or cannot write: nothing was changed.
    #[error("the match store is unavailable right now ({0}); retry shortly")]
    StoreUnavailable(String),
    #[error(
        "`{0}` always ends with a winner, so draws cannot be offered; resign or play on instead"
    )]
    DrawNotPossible(String),
    #[error("{0}")]
    DrawAlreadyOffered(String),
    #[error("the opponent has no standing draw offer; OfferDraw makes one of your own")]
    NoDrawOffer,
    #[error("the match can only be aborted before anyone has played an action; resign instead")]
    AbortTooLate,
    #[error("{0}")]
    OpponentConnected(String),
    #[error(
        "match `{}` already serves its limit of {limit} spectator streams; retry later or watch \
         with a seat token",
        quoted(match_id)
    )]
    WatcherLimit { match_id: String, limit: usize },
    #[error(
        "{} faster than the server allows; retry in {} ms",
        limit.what(),
        retry_after.as_millis()
    )]
    RateLimited {
        limit: RateLimit,
        retry_after: Duration,
    },
    /// A count with a limit (setting `limits.{setting}`) is at its limit.
    #[error(
        "this server allows at most {limit} {what} (setting `limits.{setting}`); retry once one \
         of them is over"
    )]
    QuotaExceeded {
        what: &'static str,
        limit: usize,
        setting: &'static str,
    },
    #[error(
        "seat `{}` of match `{}` already has its limit of {limit} open streams (setting \
         `limits.streams_per_seat`); close one first",
        quoted(seat),
        quoted(match_id)
    )]
    SeatStreamLimit {
        match_id: String,
        seat: String,
        limit: usize,
    },
    /// An INVALID_ARGUMENT error about one field of the request; it answers with a
    /// `google.rpc.BadRequest` field violation naming the field besides everything `error`
    /// says. Made by [`ServiceError::at`].
    #[error("{error}")]
    Field {
        /// The field's path in the request message, as in `BadRequest.FieldViolation.field`:
        /// `notation`, `options.sets_per_game`, `time_control.fischer.base`.
        field: String,
        error: Box<ServiceError>,
    },
    /// The credential presented already holds seat `seat` of this match: a bot plays one seat
    /// of a match.
    #[error(
        "you already hold seat `{}` of this match; one bot plays one seat of a match",
        quoted(.0)
    )]
    AlreadySeated(String),
    /// A bot is at one of its caps (a league's limits on its matches).
    #[error("{message}")]
    OverCap {
        /// Whose cap: `bot:<id>`.
        subject: String,
        /// `max_concurrent` or `daily_cap`.
        cap: &'static str,
        message: String,
    },
    /// A match of this id exists already.
    #[error("match `{}` exists already", quoted(.0))]
    MatchExists(String),
    /// A seat a league assigned to another bot.
    #[error(
        "seat `{}` of this match is assigned to another bot; only that bot's key takes it",
        quoted(.0)
    )]
    SeatReserved(String),
    /// A bot's key on a match the bot holds no seat in.
    #[error(
        "your bot holds no seat in match `{}`; JoinMatch with its key takes one, and calls \
         without a key watch as a spectator",
        quoted(.0)
    )]
    BotNotSeated(String),
    /// A refusal of a service beside the hosting (bots and their keys, leagues), with its own
    /// code and stable reason: those services speak the same errors at the edge.
    #[error("{message}")]
    Refused {
        code: ErrorCode,
        reason: &'static str,
        message: String,
    },
    /// A call produced no response in time: its request never finished, a `Play` stream never
    /// sent `open`. `by_client`: the client's own `grpc-timeout` was the shorter.
    #[error(
        "the call produced no response within {} ms ({}){}",
        limit.as_millis(),
        if *by_client { "its grpc-timeout" } else { "setting `connections.call_timeout_secs`" },
        if *by_client { "" } else { ": a request body that never finishes or a Play stream that \
            never sends `open` ends here" }
    )]
    CallTimeout { limit: Duration, by_client: bool },
    #[error(
        "the {message} is {size} bytes, over this server's limit of {limit} bytes (setting \
         `limits.{setting}`){hint}"
    )]
    MessageTooLarge {
        /// "request message" or "response message".
        message: &'static str,
        size: usize,
        limit: usize,
        setting: &'static str,
        hint: &'static str,
    },
}

/// Which rate limit a call broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateLimit {
    /// Acting calls of one seat token.
    Actions,
    /// Matches created from one address.
    Creations,
    /// Calls with a seat token from an address whose recent tokens were wrong.
    FailedAuthentications,
}

impl RateLimit {
    fn what(self) -> &'static str {
        match self {
            Self::Actions => "this seat token is acting",
            Self::Creations => "this address is creating matches",
            Self::FailedAuthentications => {
                "this address is presenting seat tokens that are not valid"
            }
        }
    }

    /// The `limit` metadata of a RATE_LIMITED error.
    fn name(self) -> &'static str {
        match self {
            Self::Actions => "actions",
            Self::Creations => "creations",
            Self::FailedAuthentications => "failed_authentications",
        }
    }
}

/// The gRPC status code an error leaves with; each has gRPC's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    InvalidArgument = 3,
    DeadlineExceeded = 4,
    NotFound = 5,
    AlreadyExists = 6,
    PermissionDenied = 7,
    ResourceExhausted = 8,
    FailedPrecondition = 9,
    Internal = 13,
    Unavailable = 14,
    Unauthenticated = 16,
}

/// What a client is told to wait before retrying a call that failed for want of the store or
/// of the match's actor, which come back by themselves.
pub const RETRY_UNAVAILABLE: Duration = Duration::from_secs(1);

impl ServiceError {
    /// This error as being about the request's `field`, when it is INVALID_ARGUMENT (anything
    /// else, or an error that already names its field, is returned as it is).
    pub fn at(self, field: impl Into<String>) -> Self {
        if self.code() != ErrorCode::InvalidArgument || matches!(self, Self::Field { .. }) {
            return self;
        }
        Self::Field {
            field: field.into(),
            error: Box::new(self),
        }
    }

    /// The stable `ErrorInfo.reason`.
    pub fn reason(&self) -> &'static str {
        match self {
            Self::Field { error, .. } => error.reason(),
            Self::MatchNotFound(_) => "MATCH_NOT_FOUND",
            Self::UnknownVariant { .. } => "UNKNOWN_VARIANT",
            Self::IllegalAction { .. } => "ILLEGAL_ACTION",
            Self::MalformedNotation(_) => "MALFORMED_NOTATION",
            Self::NotYourTurn(_) => "NOT_YOUR_TURN",
            Self::StaleVersion { .. } => "STALE_VERSION",
            Self::Unauthenticated(_) => "UNAUTHENTICATED",
            Self::InvalidSeatToken(_) => "INVALID_SEAT_TOKEN",
            Self::SeatTaken(_) => "SEAT_TAKEN",
            Self::NoFreeSeat => "NO_FREE_SEAT",
            Self::UnknownSeat { .. } => "UNKNOWN_SEAT",
            Self::MatchNotActive { .. } => "MATCH_NOT_ACTIVE",
            Self::InvalidOption(_) => "INVALID_OPTION",
            Self::InvalidPosition(_) => "INVALID_POSITION",
            Self::InvalidArgument(_) => "INVALID_ARGUMENT",
            Self::Unavailable(_) | Self::ActorStopped => "MATCH_UNAVAILABLE",
            Self::MatchNotRebuildable { .. } => "MATCH_NOT_REBUILDABLE",
            Self::StoreUnavailable(_) => "STORE_UNAVAILABLE",
            Self::NotOwner { .. } => "NOT_OWNER",
            Self::DrawNotPossible(_) => "DRAW_NOT_POSSIBLE",
            Self::DrawAlreadyOffered(_) => "DRAW_ALREADY_OFFERED",
            Self::NoDrawOffer => "NO_DRAW_OFFER",
            Self::AbortTooLate => "ABORT_TOO_LATE",
            Self::OpponentConnected(_) => "OPPONENT_CONNECTED",
            Self::WatcherLimit { .. } => "WATCHER_LIMIT",
            Self::RateLimited { .. } => "RATE_LIMITED",
            Self::QuotaExceeded { .. } => "QUOTA_EXCEEDED",
            Self::SeatStreamLimit { .. } => "SEAT_STREAM_LIMIT",
            Self::MessageTooLarge { .. } => "MESSAGE_TOO_LARGE",
            Self::CallTimeout { .. } => "CALL_TIMEOUT",
            Self::AlreadySeated(_) => "ALREADY_SEATED",
            Self::SeatReserved(_) => "SEAT_RESERVED",
            Self::MatchExists(_) => "MATCH_EXISTS",
            Self::OverCap { .. } => "BOT_OVER_CAP",
            Self::BotNotSeated(_) => "BOT_NOT_SEATED",
            Self::Refused { reason, .. } => reason,
        }
    }

    pub fn code(&self) -> ErrorCode {
        match self {
            Self::Field { error, .. } => error.code(),
            Self::MatchNotFound(_) | Self::UnknownVariant { .. } => ErrorCode::NotFound,
            Self::IllegalAction { .. }
            | Self::NotYourTurn(_)
            | Self::StaleVersion { .. }
            | Self::SeatTaken(_)
            | Self::NoFreeSeat
            | Self::MatchNotActive { .. }
            | Self::DrawNotPossible(_)
            | Self::DrawAlreadyOffered(_)
            | Self::NoDrawOffer
            | Self::AbortTooLate
            | Self::OpponentConnected(_)
            | Self::AlreadySeated(_) => ErrorCode::FailedPrecondition,
            Self::Refused { code, .. } => *code,
            Self::MatchExists(_) => ErrorCode::AlreadyExists,
            Self::BotNotSeated(_) | Self::SeatReserved(_) => ErrorCode::PermissionDenied,
            Self::MalformedNotation(_)
            | Self::UnknownSeat { .. }
            | Self::InvalidOption(_)
            | Self::InvalidPosition(_)
            | Self::InvalidArgument(_) => ErrorCode::InvalidArgument,
            Self::Unauthenticated(_) | Self::InvalidSeatToken(_) => ErrorCode::Unauthenticated,
            Self::Unavailable(_)
            | Self::ActorStopped
            | Self::StoreUnavailable(_)
            | Self::NotOwner { .. } => ErrorCode::Unavailable,
            Self::MatchNotRebuildable { .. } => ErrorCode::Internal,
            Self::CallTimeout { .. } => ErrorCode::DeadlineExceeded,
            Self::WatcherLimit { .. }
            | Self::RateLimited { .. }
            | Self::QuotaExceeded { .. }
            | Self::OverCap { .. }
            | Self::SeatStreamLimit { .. }
            | Self::MessageTooLarge { .. } => ErrorCode::ResourceExhausted,
        }
    }

    /// When a retry may succeed, for the errors that know.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Field { error, .. } => error.retry_after(),
            Self::RateLimited { retry_after, .. } => Some(*retry_after),
            Self::Unavailable(_)
            | Self::ActorStopped
            | Self::StoreUnavailable(_)
            | Self::NotOwner { .. } => Some(RETRY_UNAVAILABLE),
            _ => None,
        }
    }

    /// The message and metadata as they leave the server: cut to [`MAX_ERROR_MESSAGE`] and
    /// [`MAX_ERROR_METADATA`], whatever a request made them quote.
    pub fn shown(&self) -> (String, HashMap<String, String>) {
        let message = excerpt(&self.to_string(), MAX_ERROR_MESSAGE).into_owned();
        let metadata = self
            .metadata()
            .into_iter()
            .map(|(key, value)| {
                let value = excerpt(&value, MAX_ERROR_METADATA).into_owned();
                (key, value)
            })
            .collect();
        (message, metadata)
    }

    /// Machine-readable facts beside the reason.
    fn metadata(&self) -> HashMap<String, String> {
        match self {
            Self::Field { field, error } => {
                let mut metadata = error.metadata();
                metadata.insert("field".to_owned(), field.clone());
                metadata
            }
            Self::StaleVersion { expected, current } => HashMap::from([
                ("expected_version".to_owned(), expected.to_string()),
                ("current_version".to_owned(), current.to_string()),
            ]),
            Self::MatchNotFound(id)
            | Self::MatchExists(id)
            | Self::InvalidSeatToken(id)
            | Self::BotNotSeated(id)
            | Self::MatchNotRebuildable { match_id: id, .. } => {
                HashMap::from([("match_id".to_owned(), id.clone())])
            }
            Self::NotOwner {
                match_id,
                owner,
                owner_url,
                until,
            } => HashMap::from([
                ("match_id".to_owned(), match_id.clone()),
                ("owner".to_owned(), owner.clone()),
                ("owner_url".to_owned(), owner_url.clone()),
                (
                    "lease_expires_unix_ms".to_owned(),
                    until
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_millis())
                        .to_string(),
                ),
            ]),
            Self::WatcherLimit { match_id, limit } => HashMap::from([
                ("match_id".to_owned(), match_id.clone()),
                ("limit".to_owned(), limit.to_string()),
            ]),
            Self::UnknownVariant { id, .. } | Self::DrawNotPossible(id) => {
                HashMap::from([("variant_id".to_owned(), id.clone())])
            }
            Self::SeatTaken(seat)
            | Self::UnknownSeat { seat, .. }
            | Self::AlreadySeated(seat)
            | Self::SeatReserved(seat) => HashMap::from([("seat".to_owned(), seat.clone())]),
            Self::OverCap { subject, cap, .. } => HashMap::from([
                ("subject".to_owned(), subject.clone()),
                ("cap".to_owned(), (*cap).to_owned()),
            ]),
            Self::MatchNotActive { status, .. } => {
                HashMap::from([("status".to_owned(), (*status).to_owned())])
            }
            Self::IllegalAction {
                rule: Some(rule), ..
            } => HashMap::from([("rule".to_owned(), (*rule).to_owned())]),
            Self::MessageTooLarge { size, limit, .. } => HashMap::from([
                ("size".to_owned(), size.to_string()),
                ("limit".to_owned(), limit.to_string()),
            ]),
            Self::CallTimeout { limit, .. } => {
                HashMap::from([("timeout_ms".to_owned(), limit.as_millis().to_string())])
            }
            Self::RateLimited { limit, .. } => {
                HashMap::from([("limit".to_owned(), limit.name().to_owned())])
            }
            Self::QuotaExceeded { limit, setting, .. } => HashMap::from([
                ("limit".to_owned(), limit.to_string()),
                ("setting".to_owned(), (*setting).to_owned()),
            ]),
            Self::SeatStreamLimit {
                match_id,
                seat,
                limit,
            } => HashMap::from([
                ("match_id".to_owned(), match_id.clone()),
                ("seat".to_owned(), seat.clone()),
                ("limit".to_owned(), limit.to_string()),
            ]),
            _ => HashMap::new(),
        }
    }
}

impl From<RuleError> for ServiceError {
    fn from(error: RuleError) -> Self {
        match error.kind {
            RuleErrorKind::IllegalAction => Self::IllegalAction {
                message: error.message,
                rule: error.rule.map(|rule| rule.id),
            },
            RuleErrorKind::NotYourTurn => Self::NotYourTurn(error.message),
            RuleErrorKind::MalformedNotation => Self::MalformedNotation(error.message),
            RuleErrorKind::InvalidOption => Self::InvalidOption(error.message),
            RuleErrorKind::InvalidPosition => Self::InvalidPosition(error.message),
            RuleErrorKind::GameOver => Self::MatchNotActive {
                status: "finished",
                hint: "no more actions are accepted",
            },
        }
    }
}

impl From<GameError> for ServiceError {
    fn from(error: GameError) -> Self {
        match error {
            GameError::UnknownVariant { id, known } => Self::UnknownVariant { id, known },
            GameError::InvalidArgument(message) => Self::InvalidArgument(message),
            GameError::InvalidOption(message) => Self::InvalidOption(message),
            GameError::Rule(error) => error.into(),
            // Only kept values are read back, and only a damaged store holds one that does not.
            GameError::Undecodable(detail) => Self::MatchNotRebuildable {
                match_id: String::new(),
                detail,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_about_a_field_keeps_its_reason_and_names_the_field() {
        let error = ServiceError::MalformedNotation("cannot read `zz`".into()).at("notation");
        assert_eq!(error.reason(), "MALFORMED_NOTATION");
        assert_eq!(error.code(), ErrorCode::InvalidArgument);
        assert_eq!(error.to_string(), "cannot read `zz`");
        let (_, metadata) = error.shown();
        assert_eq!(metadata["field"], "notation");
        assert_eq!(error.code() as i32, 3, "gRPC's INVALID_ARGUMENT");
        // Other codes are not about a field; a field is named once.
        let stale = ServiceError::StaleVersion {
            expected: 1,
            current: 2,
        };
        assert_eq!(stale.clone().at("expected_version"), stale);
        let twice = ServiceError::InvalidArgument("x".into()).at("a").at("b");
        assert!(matches!(&twice, ServiceError::Field { field, .. } if field == "a"));
    }

    #[test]
    fn an_excerpt_cuts_on_a_character_boundary() {
        assert_eq!(excerpt("short", 10), "short");
        let accents = "é".repeat(100);
        let cut = excerpt(&accents, 40);
        assert!(cut.len() <= 40, "{cut}");
        assert!(
            cut.starts_with('é') && cut.ends_with("(200 bytes)"),
            "{cut}"
        );
    }

    #[test]
    fn rule_errors_keep_their_kind_and_message() {
        const PIECE_TO_MOVE: pitchmate_rules::Rule = pitchmate_rules::Rule {
            id: "piece-to-move",
            text: "a move starts from a piece of your own",
        };
        let cases = [
            (
                RuleError::breaks(PIECE_TO_MOVE, "e2 is empty"),
                "ILLEGAL_ACTION",
            ),
            (RuleError::not_your_turn("second acts"), "NOT_YOUR_TURN"),
            (
                RuleError::malformed("cannot read `zz`"),
                "MALFORMED_NOTATION",
            ),
            (RuleError::invalid_option("sets too big"), "INVALID_OPTION"),
            (RuleError::invalid_position("two balls"), "INVALID_POSITION"),
            (RuleError::game_over(), "MATCH_NOT_ACTIVE"),
        ];
        for (rule_error, reason) in cases {
            let message = rule_error.message.clone();
            let error = ServiceError::from(rule_error);
            assert_eq!(error.reason(), reason);
            if reason != "MATCH_NOT_ACTIVE" {
                assert_eq!(error.to_string(), message);
            }
        }
        let error = ServiceError::from(RuleError::breaks(PIECE_TO_MOVE, "e2"));
        assert_eq!(error.shown().1["rule"], "piece-to-move");
        assert!(
            error
                .to_string()
                .starts_with("a move starts from a piece of your own: e2")
        );
    }
}
