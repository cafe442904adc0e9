//! How a failure reaches a client: the hosting's [`ServiceError`] (a gRPC code, a stable
//! `reason`, metadata and a message a person can act on) as a `tonic::Status` with a
//! `google.rpc.ErrorInfo`, a `RetryInfo` when a retry may succeed and a `BadRequest` field
//! violation when the error is about one field of the request.

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

pub use pitchmate_hosting::error::*;
pub use pitchmate_proto::ERROR_DOMAIN;

/// The code a `Status` carries for an error's code.
pub fn grpc_code(code: ErrorCode) -> Code {
    Code::from_i32(code as i32)
}

/// The in-band form of an error, for an action refused on a `Play` stream: the same code,
/// reason, message, metadata and retry delay as the `Status` it converts into.
pub fn refusal(error: &ServiceError) -> pitchmate_proto::v1::ActionRefused {
    let (message, metadata) = error.shown();
    pitchmate_proto::v1::ActionRefused {
        code: error.code() as i32,
        reason: error.reason().to_owned(),
        message,
        metadata,
        retry_delay: error
            .retry_after()
            .and_then(|delay| prost_types::Duration::try_from(delay).ok()),
    }
}

/// The `Status` an error leaves the server as.
pub fn to_status(error: ServiceError) -> Status {
    let (message, metadata) = error.shown();
    let mut details = ErrorDetails::with_error_info(error.reason(), ERROR_DOMAIN, metadata);
    if let Some(delay) = error.retry_after() {
        details.set_retry_info(Some(delay));
    }
    match &error {
        ServiceError::Field { field, .. } => {
            details.add_bad_request_violation(excerpt(field, MAX_ERROR_METADATA), message.clone());
        }
        ServiceError::OverCap { subject, .. } => {
            details.add_quota_failure_violation(subject.clone(), message.clone());
        }
        ServiceError::QuotaExceeded { setting, .. } => {
            details.add_quota_failure_violation(format!("setting:{setting}"), message.clone());
        }
        _ => {}
    }
    let owner_url = match &error {
        ServiceError::NotOwner { owner_url, .. } => Some(owner_url.clone()),
        _ => None,
    };
    let mut status = Status::with_error_details(grpc_code(error.code()), message, details);
    // The forwarding layer reads the owner from a header of its own rather than decoding the
    // status details of every UNAVAILABLE answer (see `crate::forward`).
    if let Some(url) = owner_url.and_then(|url| url.parse().ok()) {
        status.metadata_mut().insert(OWNER_URL_HEADER, url);
    }
    status
}

/// The response header a NOT_OWNER answer names the owner's `cluster.advertise_url` in, beside
/// the `owner_url` of its `ErrorInfo`.
pub const OWNER_URL_HEADER: &str = "pitchmate-owner-url";

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn info(status: &Status) -> tonic_types::ErrorInfo {
        status.get_details_error_info().expect("ErrorInfo attached")
    }

    #[test]
    fn every_error_maps_to_its_code_and_reason() {
        let cases = [
            (
                ServiceError::MatchNotFound("m".into()),
                Code::NotFound,
                "MATCH_NOT_FOUND",
            ),
            (
                ServiceError::UnknownVariant {
                    id: "x".into(),
                    known: "soccer-chess".into(),
                },
                Code::NotFound,
                "UNKNOWN_VARIANT",
            ),
            (
                ServiceError::IllegalAction {
                    message: "no".into(),
                    rule: Some("keeper-area"),
                },
                Code::FailedPrecondition,
                "ILLEGAL_ACTION",
            ),
            (
                ServiceError::MalformedNotation("??".into()),
                Code::InvalidArgument,
                "MALFORMED_NOTATION",
            ),
            (
                ServiceError::NotYourTurn("wait".into()),
                Code::FailedPrecondition,
                "NOT_YOUR_TURN",
            ),
            (
                ServiceError::StaleVersion {
                    expected: 1,
                    current: 2,
                },
                Code::FailedPrecondition,
                "STALE_VERSION",
            ),
            (
                ServiceError::Unauthenticated("no token".into()),
                Code::Unauthenticated,
                "UNAUTHENTICATED",
            ),
            (
                ServiceError::InvalidSeatToken("m".into()),
                Code::Unauthenticated,
                "INVALID_SEAT_TOKEN",
            ),
            (
                ServiceError::SeatTaken("first".into()),
                Code::FailedPrecondition,
                "SEAT_TAKEN",
            ),
            (
                ServiceError::NoFreeSeat,
                Code::FailedPrecondition,
                "NO_FREE_SEAT",
            ),
            (
                ServiceError::UnknownSeat {
                    seat: "third".into(),
                    seats: "first, second".into(),
                },
                Code::InvalidArgument,
                "UNKNOWN_SEAT",
            ),
            (
                ServiceError::MatchNotActive {
                    status: "waiting",
                    hint: "join first",
                },
                Code::FailedPrecondition,
                "MATCH_NOT_ACTIVE",
            ),
            (
                ServiceError::InvalidOption("o".into()),
                Code::InvalidArgument,
                "INVALID_OPTION",
            ),
            (
                ServiceError::InvalidPosition("p".into()),
                Code::InvalidArgument,
                "INVALID_POSITION",
            ),
            (
                ServiceError::InvalidArgument("a".into()),
                Code::InvalidArgument,
                "INVALID_ARGUMENT",
            ),
            (
                ServiceError::Unavailable("stopped".into()),
                Code::Unavailable,
                "MATCH_UNAVAILABLE",
            ),
            (
                ServiceError::MatchNotRebuildable {
                    match_id: "m".into(),
                    detail: "differs".into(),
                },
                Code::Internal,
                "MATCH_NOT_REBUILDABLE",
            ),
            (
                ServiceError::StoreUnavailable("down".into()),
                Code::Unavailable,
                "STORE_UNAVAILABLE",
            ),
            (
                ServiceError::WatcherLimit {
                    match_id: "m".into(),
                    limit: 2,
                },
                Code::ResourceExhausted,
                "WATCHER_LIMIT",
            ),
            (
                ServiceError::RateLimited {
                    limit: RateLimit::Actions,
                    retry_after: Duration::from_millis(250),
                },
                Code::ResourceExhausted,
                "RATE_LIMITED",
            ),
        ];
        for (error, code, reason) in cases {
            let message = error.to_string();
            let status = to_status(error);
            assert_eq!(status.code(), code, "{reason}");
            assert_eq!(status.message(), message);
            let info = info(&status);
            assert_eq!(info.reason, reason);
            assert_eq!(info.domain, ERROR_DOMAIN);
        }
    }

    #[test]
    fn stale_version_carries_both_versions() {
        let status = to_status(ServiceError::StaleVersion {
            expected: 3,
            current: 5,
        });
        let info = info(&status);
        assert_eq!(info.metadata["expected_version"], "3");
        assert_eq!(info.metadata["current_version"], "5");
        assert!(status.message().contains("expected version 3"));
        assert!(status.message().contains("version 5"));
    }

    #[test]
    fn not_owner_is_unavailable_and_names_the_owner() {
        let until = std::time::UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        let status = to_status(ServiceError::NotOwner {
            match_id: "m".into(),
            owner: "pitchmate-1".into(),
            owner_url: "http://pitchmate-1.pitchmate:50051".into(),
            until,
        });
        assert_eq!(status.code(), Code::Unavailable, "clients retry it");
        let info = info(&status);
        assert_eq!(info.reason, "NOT_OWNER");
        assert_eq!(info.metadata["match_id"], "m");
        assert_eq!(info.metadata["owner"], "pitchmate-1");
        assert_eq!(
            info.metadata["owner_url"],
            "http://pitchmate-1.pitchmate:50051"
        );
        assert_eq!(info.metadata["lease_expires_unix_ms"], "1700000000123");
        assert_eq!(
            status.metadata().get(OWNER_URL_HEADER).unwrap(),
            "http://pitchmate-1.pitchmate:50051",
            "in a header of its own too, for the forwarding layer"
        );
        assert!(
            status
                .message()
                .contains("http://pitchmate-1.pitchmate:50051")
        );
        let retry = status.get_details_retry_info().expect("RetryInfo attached");
        assert_eq!(retry.retry_delay, Some(RETRY_UNAVAILABLE));
    }

    #[test]
    fn rate_limited_carries_the_retry_delay() {
        let status = to_status(ServiceError::RateLimited {
            limit: RateLimit::Actions,
            retry_after: Duration::from_millis(250),
        });
        let retry = status.get_details_retry_info().expect("RetryInfo attached");
        assert_eq!(retry.retry_delay, Some(Duration::from_millis(250)));
        assert!(status.message().contains("250 ms"));
        let other = to_status(ServiceError::WatcherLimit {
            match_id: "m".into(),
            limit: 2,
        });
        assert!(
            other.get_details_retry_info().is_none(),
            "a full match has no time to retry at"
        );
        for passing in [
            ServiceError::StoreUnavailable("down".into()),
            ServiceError::Unavailable("reloading".into()),
        ] {
            let status = to_status(passing);
            let retry = status.get_details_retry_info().expect("RetryInfo attached");
            assert_eq!(retry.retry_delay, Some(RETRY_UNAVAILABLE), "{status:?}");
        }
    }

    #[test]
    fn a_refusal_says_what_the_status_says() {
        let cases = [
            ServiceError::StaleVersion {
                expected: 3,
                current: 5,
            },
            ServiceError::RateLimited {
                limit: RateLimit::Actions,
                retry_after: Duration::from_millis(250),
            },
            ServiceError::IllegalAction {
                message: "e2 is empty".into(),
                rule: Some("piece-to-move"),
            },
        ];
        for error in cases {
            let refusal = refusal(&error);
            let status = to_status(error);
            let info = info(&status);
            assert_eq!(refusal.code, status.code() as i32);
            assert_eq!(refusal.reason, info.reason);
            assert_eq!(refusal.message, status.message());
            assert_eq!(refusal.metadata, info.metadata);
            let retry = status
                .get_details_retry_info()
                .and_then(|retry| retry.retry_delay);
            assert_eq!(
                refusal.retry_delay.map(|d| Duration::try_from(d).unwrap()),
                retry,
                "{}",
                refusal.reason
            );
        }
    }

    #[test]
    fn errors_quote_only_a_short_prefix_of_what_they_were_given() {
        let huge = "m".repeat(60_000);
        let errors = [
            ServiceError::MatchNotFound(huge.clone()),
            ServiceError::InvalidSeatToken(huge.clone()),
            ServiceError::UnknownSeat {
                seat: huge.clone(),
                seats: "first, second".into(),
            },
            ServiceError::MalformedNotation(format!("cannot read `{huge}`")),
            ServiceError::IllegalAction {
                message: format!("`{huge}` is not legal"),
                rule: Some("piece-to-move"),
            },
        ];
        for error in errors {
            let reason = error.reason();
            let refusal = refusal(&error);
            let status = to_status(error);
            assert!(status.message().len() <= MAX_ERROR_MESSAGE, "{reason}");
            assert!(status.message().contains("60"), "says how long: {reason}");
            let info = info(&status);
            assert!(
                info.metadata
                    .values()
                    .all(|v| v.len() <= MAX_ERROR_METADATA),
                "{reason}"
            );
            assert_eq!(refusal.message, status.message(), "{reason}");
            let mut headers = tonic::codegen::http::HeaderMap::new();
            status.add_header(&mut headers).unwrap();
            let header_bytes: usize = headers
                .iter()
                .map(|(k, v)| k.as_str().len() + v.len())
                .sum();
            assert!(header_bytes < 8 * 1024, "{reason}: {header_bytes} bytes");
        }
        let id_hint = to_status(ServiceError::MatchNotFound(huge))
            .message()
            .to_owned();
        assert!(
            id_hint.ends_with("ListMatches shows the matches this server hosts"),
            "{id_hint}"
        );
    }

    #[test]
    fn an_invalid_argument_names_its_field_in_a_bad_request() {
        let error = ServiceError::MalformedNotation("cannot read `zz`".into()).at("notation");
        assert_eq!(error.reason(), "MALFORMED_NOTATION");
        let refusal = refusal(&error);
        let status = to_status(error);
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(status.message(), "cannot read `zz`");
        let details = status.get_error_details();
        let violations = &details.bad_request().expect("BadRequest").field_violations;
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].field, "notation");
        assert_eq!(violations[0].description, "cannot read `zz`");
        assert_eq!(info(&status).metadata["field"], "notation");
        assert_eq!(refusal.metadata["field"], "notation", "in-band too");
    }
}
