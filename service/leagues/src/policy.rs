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

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Policy {
    /// Empty: every variant.
    pub variants: Vec<String>,
    pub rated: RatedChoice,
    /// Empty: every speed.
    pub speeds: Vec<SpeedClass>,
    /// The challenger's rating in the challenge's rated pool (as of now; 1500 for a bot not yet
    /// rated there) must lie within these bounds, where given.
    #[serde(default)]
    pub min_rating: Option<f64>,
    #[serde(default)]
    pub max_rating: Option<f64>,
}

impl Policy {
    /// Whether the policy accepts a challenge on these terms from a challenger of this rating;
    /// if not, why it declines.
    pub fn verdict(&self, terms: &Terms, challenger_rating: f64) -> Result<(), DeclineReason> {
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
        let below = self.min_rating.is_some_and(|min| challenger_rating < min);
        let above = self.max_rating.is_some_and(|max| challenger_rating > max);
        if below || above {
            return Err(DeclineReason::Rating);
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
            ..Policy::default()
        };
        let verdict = |policy: &Policy, variant, rated, ms| {
            policy.verdict(&terms(variant, rated, ms), 1500.0)
        };
        assert_eq!(verdict(&policy, "kings-goal", true, 5_000), Ok(()));
        assert_eq!(
            verdict(&policy, "gridiron", true, 5_000),
            Err(DeclineReason::Variant)
        );
        assert_eq!(
            verdict(&policy, "kings-goal", false, 5_000),
            Err(DeclineReason::RatedOnly)
        );
        assert_eq!(
            verdict(&policy, "kings-goal", true, 500),
            Err(DeclineReason::TimeControl)
        );
        let casual = Policy {
            rated: RatedChoice::CasualOnly,
            ..Policy::default()
        };
        assert_eq!(
            verdict(&casual, "gridiron", true, 500),
            Err(DeclineReason::CasualOnly)
        );
        assert_eq!(verdict(&Policy::default(), "gridiron", true, 1), Ok(()));
        assert_eq!(Policy::from_bytes(&policy.to_bytes()).unwrap(), policy);
    }

    #[test]
    fn a_rating_range_bounds_the_challenger() {
        let range = Policy {
            min_rating: Some(1400.0),
            max_rating: Some(1600.0),
            ..Policy::default()
        };
        let at = |rating| range.verdict(&terms("gridiron", true, 1), rating);
        assert_eq!(at(1400.0), Ok(()));
        assert_eq!(at(1600.0), Ok(()));
        assert_eq!(at(1399.9), Err(DeclineReason::Rating));
        assert_eq!(at(1600.1), Err(DeclineReason::Rating));
        assert_eq!(Policy::from_bytes(&range.to_bytes()).unwrap(), range);
    }
}
