//! What a league match is played under: the variant, its options, the time control, rated or
//! casual, who takes which seat. A challenge proposes terms; an accepted one assigns a match
//! under them. Stored as JSON in the leagues' rows, so the store never reads them.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use pitchmate_hosting::clock::TimeControl;
use pitchmate_rules::OptionValue;

/// A game option's value, as terms keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TermOption {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl From<&OptionValue> for TermOption {
    fn from(value: &OptionValue) -> Self {
        match value {
            OptionValue::Int(v) => Self::Int(*v),
            OptionValue::Bool(v) => Self::Bool(*v),
            OptionValue::Text(v) => Self::Text(v.clone()),
        }
    }
}

impl From<&TermOption> for OptionValue {
    fn from(value: &TermOption) -> Self {
        match value {
            TermOption::Int(v) => Self::Int(*v),
            TermOption::Bool(v) => Self::Bool(*v),
            TermOption::Text(v) => Self::Text(v.clone()),
        }
    }
}

/// A time control, as terms keep it (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Clock {
    #[default]
    None,
    PerMove {
        per_move_ms: u64,
        first_move_ms: u64,
    },
    Fischer {
        base_ms: u64,
        increment_ms: u64,
    },
    PerMoveWithBank {
        per_move_ms: u64,
        bank_ms: u64,
    },
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl From<TimeControl> for Clock {
    fn from(control: TimeControl) -> Self {
        match control {
            TimeControl::None => Self::None,
            TimeControl::PerMove {
                per_move,
                first_move,
            } => Self::PerMove {
                per_move_ms: millis(per_move),
                first_move_ms: millis(first_move),
            },
            TimeControl::Fischer { base, increment } => Self::Fischer {
                base_ms: millis(base),
                increment_ms: millis(increment),
            },
            TimeControl::PerMoveWithBank { per_move, bank } => Self::PerMoveWithBank {
                per_move_ms: millis(per_move),
                bank_ms: millis(bank),
            },
        }
    }
}

impl From<Clock> for TimeControl {
    fn from(clock: Clock) -> Self {
        let ms = Duration::from_millis;
        match clock {
            Clock::None => Self::None,
            Clock::PerMove {
                per_move_ms,
                first_move_ms,
            } => Self::PerMove {
                per_move: ms(per_move_ms),
                first_move: ms(first_move_ms),
            },
            Clock::Fischer {
                base_ms,
                increment_ms,
            } => Self::Fischer {
                base: ms(base_ms),
                increment: ms(increment_ms),
            },
            Clock::PerMoveWithBank {
                per_move_ms,
                bank_ms,
            } => Self::PerMoveWithBank {
                per_move: ms(per_move_ms),
                bank: ms(bank_ms),
            },
        }
    }
}

/// How fast a time control plays, by the time it gives one move on average over a match of
/// about forty moves each (lichess's estimate, base / 40 + increment). Matches of one class are
/// rated together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpeedClass {
    /// Under 2 s a move.
    Bullet,
    /// Under 10 s a move.
    Blitz,
    /// Under 60 s a move.
    Rapid,
    /// 60 s a move or more.
    Classical,
    /// No clock.
    Untimed,
}

impl SpeedClass {
    pub fn of(clock: Clock) -> Self {
        let per_move_ms = match clock {
            Clock::None => return Self::Untimed,
            Clock::PerMove { per_move_ms, .. } => per_move_ms,
            Clock::Fischer {
                base_ms,
                increment_ms,
            } => base_ms / 40 + increment_ms,
            Clock::PerMoveWithBank {
                per_move_ms,
                bank_ms,
            } => per_move_ms + bank_ms / 40,
        };
        match per_move_ms {
            0..2_000 => Self::Bullet,
            2_000..10_000 => Self::Blitz,
            10_000..60_000 => Self::Rapid,
            _ => Self::Classical,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Bullet => "bullet",
            Self::Blitz => "blitz",
            Self::Rapid => "rapid",
            Self::Classical => "classical",
            Self::Untimed => "untimed",
        }
    }
}

/// Which seat the challenger takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatChoice {
    /// Drawn when the match is assigned.
    #[default]
    Any,
    First,
    Second,
}

/// What a match is played under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    pub variant_id: String,
    /// As the challenger gave them; the game fills in the rest.
    pub options: BTreeMap<String, TermOption>,
    pub clock: Clock,
    pub rated: bool,
    /// The challenger's seat.
    pub seat: SeatChoice,
    /// The match this one is a rematch of.
    pub rematch_of: Option<String>,
}

impl Terms {
    pub fn speed(&self) -> SpeedClass {
        SpeedClass::of(self.clock)
    }

    /// The pool a rated match's result is rated in: variant, speed and rated, as
    /// `variant/speed/rated`; empty for a casual match, which moves no rating.
    pub fn pool(&self) -> String {
        if self.rated {
            format!("{}/{}/rated", self.variant_id, self.speed().name())
        } else {
            String::new()
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("terms serialise")
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        serde_json::from_slice(bytes).map_err(|e| format!("stored terms are unreadable: {e}"))
    }

    pub fn game_options(&self) -> BTreeMap<String, OptionValue> {
        self.options
            .iter()
            .map(|(name, value)| (name.clone(), value.into()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base_s: u64, increment_s: u64) -> Clock {
        Clock::Fischer {
            base_ms: base_s * 1000,
            increment_ms: increment_s * 1000,
        }
    }

    #[test]
    fn speed_classes_follow_the_time_a_move_gets() {
        assert_eq!(SpeedClass::of(Clock::None), SpeedClass::Untimed);
        assert_eq!(SpeedClass::of(fischer(60, 0)), SpeedClass::Bullet);
        assert_eq!(SpeedClass::of(fischer(60, 1)), SpeedClass::Blitz);
        assert_eq!(SpeedClass::of(fischer(300, 3)), SpeedClass::Rapid);
        assert_eq!(SpeedClass::of(fischer(1800, 20)), SpeedClass::Classical);
        let per_move = |ms| Clock::PerMove {
            per_move_ms: ms,
            first_move_ms: ms,
        };
        assert_eq!(SpeedClass::of(per_move(1_999)), SpeedClass::Bullet);
        assert_eq!(SpeedClass::of(per_move(2_000)), SpeedClass::Blitz);
        assert_eq!(SpeedClass::of(per_move(59_999)), SpeedClass::Rapid);
        assert_eq!(SpeedClass::of(per_move(60_000)), SpeedClass::Classical);
        let bank = Clock::PerMoveWithBank {
            per_move_ms: 1_000,
            bank_ms: 400_000,
        };
        assert_eq!(SpeedClass::of(bank), SpeedClass::Rapid);
    }

    #[test]
    fn a_rated_match_has_a_pool_and_a_casual_one_none() {
        let mut terms = Terms {
            variant_id: "kings-goal".into(),
            options: BTreeMap::new(),
            clock: fischer(60, 1),
            rated: true,
            seat: SeatChoice::Any,
            rematch_of: None,
        };
        assert_eq!(terms.pool(), "kings-goal/blitz/rated");
        terms.rated = false;
        assert_eq!(terms.pool(), "");
    }

    #[test]
    fn terms_and_clocks_read_back_as_stored() {
        let terms = Terms {
            variant_id: "gridiron".into(),
            options: [
                ("a".to_owned(), TermOption::Int(-3)),
                ("b".to_owned(), TermOption::Bool(true)),
                ("c".to_owned(), TermOption::Text("x".into())),
            ]
            .into(),
            clock: Clock::PerMoveWithBank {
                per_move_ms: 5,
                bank_ms: 7,
            },
            rated: false,
            seat: SeatChoice::Second,
            rematch_of: Some("m".into()),
        };
        assert_eq!(Terms::from_bytes(&terms.to_bytes()).unwrap(), terms);
        for control in [
            TimeControl::None,
            TimeControl::Fischer {
                base: Duration::from_secs(60),
                increment: Duration::from_millis(500),
            },
        ] {
            assert_eq!(TimeControl::from(Clock::from(control)), control);
        }
    }
}
