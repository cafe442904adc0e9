//! The hosting options of a match (time control, timeout policy, how long a seat may stay away)
//! on the wire: read from a `CreateMatchRequest` and checked field by field, so that a refusal
//! names the field it is about; and shown again in a `Match` or a replay header.

use std::time::Duration;

use pitchmate_proto::v1 as pb;

use crate::error::ServiceError;
use crate::hosting::clock::{DEFAULT_ABANDON_AFTER, Hosting, LONGEST, TimeControl, TimeoutPolicy};

fn duration(
    field: &str,
    value: Option<&prost_types::Duration>,
    zero_allowed: bool,
) -> Result<Duration, ServiceError> {
    let invalid = |why: &str| {
        ServiceError::InvalidArgument(format!(
            "`{field}` {why}; give a duration from {} to 1 day",
            if zero_allowed { "0" } else { "1 millisecond" }
        ))
        .at(field)
    };
    let value = value.cloned().unwrap_or_default();
    // google.protobuf.Duration keeps `nanos` within one second and of the sign of `seconds`;
    // prost would quietly carry anything else over into the seconds instead of refusing it.
    let nanos_in_range = (-999_999_999..=999_999_999).contains(&value.nanos)
        && !(value.seconds > 0 && value.nanos < 0)
        && !(value.seconds < 0 && value.nanos > 0);
    if !nanos_in_range {
        return Err(invalid(
            "has `nanos` outside -999,999,999..=999,999,999 or of the other sign than `seconds`",
        ));
    }
    let parsed = Duration::try_from(value).map_err(|_| invalid("is negative or malformed"))?;
    if parsed > LONGEST {
        return Err(invalid("is longer than a day"));
    }
    if !zero_allowed && parsed < Duration::from_millis(1) {
        return Err(invalid("is missing or zero"));
    }
    Ok(parsed)
}

/// Reads and checks the hosting options of a `CreateMatchRequest`.
pub fn hosting_from_request(
    time_control: Option<&pb::TimeControl>,
    timeout_policy: Option<&pb::TimeoutPolicy>,
    abandon_after: Option<&prost_types::Duration>,
) -> Result<Hosting, ServiceError> {
    use pb::time_control::Kind;
    let time_control = match time_control.and_then(|t| t.kind.as_ref()) {
        None | Some(Kind::None(_)) => TimeControl::None,
        Some(Kind::PerMove(t)) => {
            let per_move = duration("time_control.per_move.per_move", t.per_move.as_ref(), false)?;
            TimeControl::PerMove {
                per_move,
                first_move: match &t.first_move {
                    Some(first) => {
                        duration("time_control.per_move.first_move", Some(first), false)?
                    }
                    None => per_move,
                },
            }
        }
        Some(Kind::Fischer(t)) => TimeControl::Fischer {
            base: duration("time_control.fischer.base", t.base.as_ref(), false)?,
            increment: duration("time_control.fischer.increment", t.increment.as_ref(), true)?,
        },
        Some(Kind::PerMoveWithBank(t)) => TimeControl::PerMoveWithBank {
            per_move: duration(
                "time_control.per_move_with_bank.per_move",
                t.per_move.as_ref(),
                false,
            )?,
            bank: duration(
                "time_control.per_move_with_bank.bank",
                t.bank.as_ref(),
                true,
            )?,
        },
    };
    let timeout_policy = match timeout_policy {
        None => TimeoutPolicy::Forfeit,
        Some(policy) => match pb::TimeoutAction::try_from(policy.action) {
            Ok(pb::TimeoutAction::Unspecified | pb::TimeoutAction::Forfeit) => {
                TimeoutPolicy::Forfeit
            }
            Ok(pb::TimeoutAction::PlayDefault) => TimeoutPolicy::PlayDefault {
                forfeit_after: policy.forfeit_after,
            },
            Err(_) => {
                return Err(ServiceError::InvalidArgument(format!(
                    "`timeout_policy.action` {} is not a TimeoutAction",
                    policy.action
                ))
                .at("timeout_policy.action"));
            }
        },
    };
    let abandon_after = match abandon_after {
        None => DEFAULT_ABANDON_AFTER,
        Some(value) => {
            let parsed = duration("abandon_after", Some(value), false)?;
            if parsed < Duration::from_secs(1) {
                return Err(ServiceError::InvalidArgument(
                    "`abandon_after` is shorter than 1 second; give a duration from 1 second \
                     to 1 day"
                        .to_owned(),
                )
                .at("abandon_after"));
            }
            parsed
        }
    };
    Ok(Hosting {
        time_control,
        timeout_policy,
        abandon_after,
    })
}

fn duration_to_proto(value: Duration) -> Option<prost_types::Duration> {
    prost_types::Duration::try_from(value).ok()
}

pub fn time_control_to_proto(hosting: &Hosting) -> pb::TimeControl {
    use pb::time_control::Kind;
    let kind = match hosting.time_control {
        TimeControl::None => Kind::None(pb::NoTimeLimit {}),
        TimeControl::PerMove {
            per_move,
            first_move,
        } => Kind::PerMove(pb::PerMoveTime {
            per_move: duration_to_proto(per_move),
            first_move: duration_to_proto(first_move),
        }),
        TimeControl::Fischer { base, increment } => Kind::Fischer(pb::FischerTime {
            base: duration_to_proto(base),
            increment: duration_to_proto(increment),
        }),
        TimeControl::PerMoveWithBank { per_move, bank } => {
            Kind::PerMoveWithBank(pb::PerMoveWithBank {
                per_move: duration_to_proto(per_move),
                bank: duration_to_proto(bank),
            })
        }
    };
    pb::TimeControl { kind: Some(kind) }
}

pub fn timeout_policy_to_proto(hosting: &Hosting) -> pb::TimeoutPolicy {
    match hosting.timeout_policy {
        TimeoutPolicy::Forfeit => pb::TimeoutPolicy {
            action: pb::TimeoutAction::Forfeit as i32,
            forfeit_after: 0,
        },
        TimeoutPolicy::PlayDefault { forfeit_after } => pb::TimeoutPolicy {
            action: pb::TimeoutAction::PlayDefault as i32,
            forfeit_after,
        },
    }
}

pub fn abandon_after_to_proto(hosting: &Hosting) -> Option<prost_types::Duration> {
    duration_to_proto(hosting.abandon_after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosting_options_refuse_what_cannot_be_timed() {
        let fischer = |base: i64| pb::TimeControl {
            kind: Some(pb::time_control::Kind::Fischer(pb::FischerTime {
                base: Some(prost_types::Duration {
                    seconds: base,
                    nanos: 0,
                }),
                increment: None,
            })),
        };
        assert!(hosting_from_request(Some(&fischer(0)), None, None).is_err());
        assert!(hosting_from_request(Some(&fischer(-5)), None, None).is_err());
        assert!(hosting_from_request(Some(&fischer(90_000)), None, None).is_err());
        let hosting = hosting_from_request(Some(&fischer(300)), None, None).unwrap();
        assert_eq!(
            hosting_from_request(
                Some(&time_control_to_proto(&hosting)),
                Some(&timeout_policy_to_proto(&hosting)),
                abandon_after_to_proto(&hosting).as_ref()
            )
            .unwrap(),
            hosting
        );
        let bad_policy = pb::TimeoutPolicy {
            action: 9,
            forfeit_after: 0,
        };
        assert!(hosting_from_request(None, Some(&bad_policy), None).is_err());
    }

    #[test]
    fn durations_outside_the_protobuf_range_are_refused_not_normalised() {
        let abandon = |seconds: i64, nanos: i32| {
            hosting_from_request(None, None, Some(&prost_types::Duration { seconds, nanos }))
        };
        assert!(abandon(5, 999_999_999).is_ok());
        for (seconds, nanos) in [(1, 2_000_000_000), (5, -1), (0, 1_000_000_000), (-1, 5)] {
            let refused = abandon(seconds, nanos).expect_err("out of range");
            assert_eq!(refused.reason(), "INVALID_ARGUMENT", "{seconds}s {nanos}ns");
            assert!(refused.to_string().contains("nanos"), "{refused}");
        }
    }
}
