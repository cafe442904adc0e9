//! What an organiser sets up once: a tournament's kind, the terms its matches are played under,
//! its rounds and times, its seed, tie-breaks and entry conditions. Kept in the store as JSON
//! (the tournament row's `spec`), and exported as such.

use serde::{Deserialize, Serialize};

pub use pitchmate_tournaments::record::Kind;
use pitchmate_tournaments::standings::TieBreak;
use sha2::{Digest, Sha256};

use crate::error::LeagueError;
use crate::terms::Terms;

/// A start time that is none: the tournament starts when an operator starts it.
pub const NOT_SCHEDULED: i64 = i64::MAX;
/// A round's deadline when the organiser gives none.
pub const DEFAULT_ROUND_INTERVAL_MS: u64 = 3_600_000;
const MIN_ROUND_INTERVAL_MS: u64 = 1_000;
const MAX_ROUND_INTERVAL_MS: u64 = 30 * 86_400_000;
pub const MAX_SWISS_ROUNDS: u32 = 100;
const MAX_NAME_CHARS: usize = 100;
const MAX_FORBIDDEN_PAIRS: usize = 1_000;

/// Who may enter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditions {
    pub min_rating: Option<i32>,
    pub max_rating: Option<i32>,
    pub min_rated_games: u32,
    pub operator_entries_only: bool,
    /// 0: no limit.
    pub max_entries: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    pub name: String,
    pub kind: Kind,
    /// Every match's terms; the seat is the pairing's.
    pub terms: Terms,
    /// A Swiss event's rounds.
    pub rounds: u32,
    pub round_interval_ms: u64,
    pub seed: u64,
    pub tie_breaks: Vec<TieBreak>,
    pub conditions: Conditions,
    /// Pairs that never meet, each in id order.
    pub forbidden: Vec<(String, String)>,
    /// A ladder's games per bot; 0 for no limit.
    pub ladder_games_per_bot: u32,
    /// No ladder game is paired from then on.
    pub ends_nanos: Option<i64>,
    /// Each pairing plays both seat orders at once, on one seed.
    #[serde(default)]
    pub paired_games: bool,
    /// Drawn when the tournament is created and never shown: the paired games' seeds are
    /// derived from it ([`paired_seed`]), so no one can know a pairing's dice before its games.
    #[serde(default)]
    pub chance_secret: u64,
}

/// The seed both games of a pairing are played on: the first 8 bytes (big-endian) of SHA-256
/// of the tournament's secret, the round and the two bots' ids in order.
pub fn paired_seed(secret: u64, round: u32, bots: &[String; 2]) -> u64 {
    let mut ids = [bots[0].as_str(), bots[1].as_str()];
    ids.sort_unstable();
    let mut hasher = Sha256::new();
    hasher.update(secret.to_be_bytes());
    hasher.update(round.to_be_bytes());
    for id in ids {
        hasher.update((id.len() as u64).to_be_bytes());
        hasher.update(id.as_bytes());
    }
    let digest = hasher.finalize();
    u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// The tie-breaks when the organiser names none: FIDE's usual order for Swiss events.
pub fn default_tie_breaks() -> Vec<TieBreak> {
    vec![
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
    ]
}

fn invalid(field: &'static str, message: impl Into<String>) -> LeagueError {
    LeagueError::InvalidField {
        field,
        message: message.into(),
    }
}

impl Spec {
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a tournament's spec serialises")
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LeagueError> {
        serde_json::from_slice(bytes).map_err(|e| {
            LeagueError::Unavailable(format!("a stored tournament spec is unreadable: {e}"))
        })
    }

    /// Refuses what no tournament can be run with; the terms' game is checked by the caller,
    /// which knows the games.
    pub fn check(&self) -> Result<(), LeagueError> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            return Err(invalid(
                "spec.name",
                format!("a tournament needs a name of 1 to {MAX_NAME_CHARS} characters"),
            ));
        }
        if self.kind == Kind::Swiss && !(1..=MAX_SWISS_ROUNDS).contains(&self.rounds) {
            return Err(invalid(
                "spec.rounds",
                format!("a Swiss event has 1 to {MAX_SWISS_ROUNDS} rounds"),
            ));
        }
        if !(MIN_ROUND_INTERVAL_MS..=MAX_ROUND_INTERVAL_MS).contains(&self.round_interval_ms) {
            return Err(invalid(
                "spec.round_interval",
                "a round's interval is 1 s to 30 days",
            ));
        }
        for (index, tie_break) in self.tie_breaks.iter().enumerate() {
            if self.tie_breaks[..index].contains(tie_break) {
                return Err(invalid(
                    "spec.tie_breaks",
                    format!("tie-break {tie_break:?} is named twice"),
                ));
            }
        }
        let conditions = &self.conditions;
        if let (Some(min), Some(max)) = (conditions.min_rating, conditions.max_rating)
            && min > max
        {
            return Err(invalid(
                "spec.conditions",
                format!("min_rating {min} is above max_rating {max}"),
            ));
        }
        if self.forbidden.len() > MAX_FORBIDDEN_PAIRS {
            return Err(invalid(
                "spec.forbidden_pairs",
                format!("at most {MAX_FORBIDDEN_PAIRS} forbidden pairs"),
            ));
        }
        if let Some((a, _)) = self.forbidden.iter().find(|(a, b)| a == b || a.is_empty()) {
            return Err(invalid(
                "spec.forbidden_pairs",
                format!("a forbidden pair names two different bots (`{a}` twice, or empty)"),
            ));
        }
        if self.kind == Kind::Ladder && self.paired_games {
            return Err(invalid(
                "spec.paired_games",
                "a ladder pairs single games; paired games are for round robins and Swiss events",
            ));
        }
        if self.kind != Kind::Ladder && (self.ladder_games_per_bot > 0 || self.ends_nanos.is_some())
        {
            return Err(invalid(
                "spec.ladder_games_per_bot",
                "ladder_games_per_bot and end_time are a ladder's; a round robin or Swiss event ends after its rounds",
            ));
        }
        Ok(())
    }

    /// Forbidden pairs as the pairing reads them.
    pub fn forbidden_pairs(&self) -> &[(String, String)] {
        &self.forbidden
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::terms::{Clock, SeatChoice};

    pub(crate) fn swiss(rounds: u32) -> Spec {
        Spec {
            name: "Autumn Swiss".into(),
            kind: Kind::Swiss,
            terms: Terms {
                variant_id: "kings-goal".into(),
                options: BTreeMap::new(),
                clock: Clock::None,
                rated: true,
                seat: SeatChoice::Any,
                rematch_of: None,
            },
            rounds,
            round_interval_ms: DEFAULT_ROUND_INTERVAL_MS,
            seed: 7,
            tie_breaks: default_tie_breaks(),
            conditions: Conditions::default(),
            forbidden: Vec::new(),
            ladder_games_per_bot: 0,
            ends_nanos: None,
            paired_games: false,
            chance_secret: 0,
        }
    }

    fn refused_at(spec: &Spec) -> &'static str {
        match spec.check() {
            Err(LeagueError::InvalidField { field, .. }) => field,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_spec_reads_back_as_stored() {
        let spec = swiss(5);
        assert_eq!(Spec::from_bytes(&spec.to_bytes()).unwrap(), spec);
        spec.check().unwrap();
    }

    #[test]
    fn what_no_tournament_can_run_with_is_refused_by_field() {
        let mut spec = swiss(0);
        assert_eq!(refused_at(&spec), "spec.rounds");
        spec.rounds = MAX_SWISS_ROUNDS + 1;
        assert_eq!(refused_at(&spec), "spec.rounds");
        spec = swiss(3);
        spec.name = "  ".into();
        assert_eq!(refused_at(&spec), "spec.name");
        spec = swiss(3);
        spec.round_interval_ms = 999;
        assert_eq!(refused_at(&spec), "spec.round_interval");
        spec = swiss(3);
        spec.tie_breaks = vec![TieBreak::Buchholz, TieBreak::Buchholz];
        assert_eq!(refused_at(&spec), "spec.tie_breaks");
        spec = swiss(3);
        spec.conditions.min_rating = Some(1600);
        spec.conditions.max_rating = Some(1500);
        assert_eq!(refused_at(&spec), "spec.conditions");
        spec = swiss(3);
        spec.forbidden = vec![("a".into(), "a".into())];
        assert_eq!(refused_at(&spec), "spec.forbidden_pairs");
        spec = swiss(3);
        spec.ladder_games_per_bot = 4;
        assert_eq!(refused_at(&spec), "spec.ladder_games_per_bot");
        spec.kind = Kind::Ladder;
        spec.check().unwrap();
        spec.paired_games = true;
        assert_eq!(refused_at(&spec), "spec.paired_games");
    }

    #[test]
    fn both_games_of_a_pairing_share_a_seed_that_differs_between_pairings() {
        let bots = |a: &str, b: &str| [a.to_owned(), b.to_owned()];
        let seed = paired_seed(9, 1, &bots("a", "b"));
        assert_eq!(
            seed,
            paired_seed(9, 1, &bots("b", "a")),
            "either seat order"
        );
        assert_ne!(seed, paired_seed(9, 2, &bots("a", "b")), "another round");
        assert_ne!(seed, paired_seed(9, 1, &bots("a", "c")), "another pairing");
        assert_ne!(seed, paired_seed(10, 1, &bots("a", "b")), "another secret");
    }
}
