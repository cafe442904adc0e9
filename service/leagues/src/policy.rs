//! A bot's acceptance policy: which challenges the server accepts for it while it sleeps. A
//! challenge the policy admits is accepted at once; any other is declined at once, with the
//! reason of the first rule it breaks, so the challenger learns what would be accepted.

use serde::{Deserialize, Serialize};

use crate::challenges::DeclineReason;
use crate::terms::{SpeedClass, Terms};

/// Rated, casual, or either.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatedChoice {
    #[default]
    Either,
    RatedOnly,
    CasualOnly,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// Empty: every variant.
    pub variants: Vec<String>,
    pub rated: RatedChoice,
    /// Empty: every speed.
    pub speeds: Vec<SpeedClass>,
}

impl Policy {
    /// Whether the policy accepts a challenge on these terms; if not, why it declines.
    pub fn verdict(&self, terms: &Terms) -> Result<(), DeclineReason> {
        if !self.variants.is_empty() && !self.variants.contains(&terms.variant_id) {
            return Err(DeclineReason::Variant);
        }
        match (self.rated, terms.rated) {
            (RatedChoice::RatedOnly, false) => return Err(DeclineReason::RatedOnly),
            (RatedChoice::CasualOnly, true) => return Err(DeclineReason::CasualOnly),
            _ => {}
        }
        if !self.speeds.is_empty() && !self.speeds.contains(&terms.speed()) {
            return Err(DeclineReason::TimeControl);
        }
        Ok(())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a policy serialises")
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        serde_json::from_slice(bytes).map_err(|e| format!("a stored policy is unreadable: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::{Clock, SeatChoice};

    fn terms(variant: &str, rated: bool, per_move_ms: u64) -> Terms {
        Terms {
            variant_id: variant.into(),
            options: Default::default(),
            clock: Clock::PerMove {
                per_move_ms,
                first_move_ms: per_move_ms,
            },
            rated,
            seat: SeatChoice::Any,
            rematch_of: None,
        }
    }

    #[test]
    fn a_policy_admits_what_it_names_and_says_why_it_declines() {
        let policy = Policy {
            variants: vec!["kings-goal".into()],
            rated: RatedChoice::RatedOnly,
            speeds: vec![SpeedClass::Blitz],
        };
        assert_eq!(policy.verdict(&terms("kings-goal", true, 5_000)), Ok(()));
        assert_eq!(
            policy.verdict(&terms("gridiron", true, 5_000)),
            Err(DeclineReason::Variant)
        );
        assert_eq!(
            policy.verdict(&terms("kings-goal", false, 5_000)),
            Err(DeclineReason::RatedOnly)
        );
        assert_eq!(
            policy.verdict(&terms("kings-goal", true, 500)),
            Err(DeclineReason::TimeControl)
        );
        let casual = Policy {
            rated: RatedChoice::CasualOnly,
            ..Policy::default()
        };
        assert_eq!(
            casual.verdict(&terms("gridiron", true, 500)),
            Err(DeclineReason::CasualOnly)
        );
        assert_eq!(
            Policy::default().verdict(&terms("gridiron", true, 1)),
            Ok(())
        );
        assert_eq!(Policy::from_bytes(&policy.to_bytes()).unwrap(), policy);
    }
}
