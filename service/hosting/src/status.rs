//! Where a match stands, in the hosting core's terms.

use pitchmate_proto::v1 as pb;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    /// Not every seat is taken yet.
    Waiting,
    /// Being played.
    Active,
    /// Ended with a result: by the rules, a resignation, a draw, a timeout or a claim.
    Finished,
    /// Ended without a game: aborted before anyone played, or expired.
    Aborted,
}

impl MatchStatus {
    pub fn is_over(self) -> bool {
        matches!(self, MatchStatus::Finished | MatchStatus::Aborted)
    }

    pub fn to_proto(self) -> pb::MatchStatus {
        match self {
            MatchStatus::Waiting => pb::MatchStatus::Waiting,
            MatchStatus::Active => pb::MatchStatus::Active,
            MatchStatus::Finished => pb::MatchStatus::Finished,
            MatchStatus::Aborted => pb::MatchStatus::Aborted,
        }
    }

    /// `None` for `UNSPECIFIED`, which names no status (a listing filter that leaves it open).
    pub fn from_proto(status: pb::MatchStatus) -> Option<Self> {
        match status {
            pb::MatchStatus::Unspecified => None,
            pb::MatchStatus::Waiting => Some(MatchStatus::Waiting),
            pb::MatchStatus::Active => Some(MatchStatus::Active),
            pb::MatchStatus::Finished => Some(MatchStatus::Finished),
            pb::MatchStatus::Aborted => Some(MatchStatus::Aborted),
        }
    }

    /// A status as stored and listed; `None` for a number that names none.
    pub fn from_wire(status: i32) -> Option<Self> {
        pb::MatchStatus::try_from(status)
            .ok()
            .and_then(Self::from_proto)
    }

    /// The status as stored and listed.
    pub fn to_wire(self) -> i32 {
        self.to_proto() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_own_wire_value() {
        let all = [
            MatchStatus::Waiting,
            MatchStatus::Active,
            MatchStatus::Finished,
            MatchStatus::Aborted,
        ];
        let wire: std::collections::HashSet<i32> = all.iter().map(|s| s.to_wire()).collect();
        assert_eq!(wire.len(), all.len());
        assert!(!wire.contains(&(pb::MatchStatus::Unspecified as i32)));
        for status in all {
            assert_eq!(MatchStatus::from_proto(status.to_proto()), Some(status));
            assert_eq!(MatchStatus::from_wire(status.to_wire()), Some(status));
            assert_eq!(
                status.is_over(),
                matches!(
                    status.to_proto(),
                    pb::MatchStatus::Finished | pb::MatchStatus::Aborted
                )
            );
        }
    }
}
