//! Checks a finished match's replay: its revealed seed matches the commitment published when it
//! was created, and the rules engine, fed the same seed, options and actions, does exactly what
//! the replay says the server did (every roll and toss, every event, the result).
//!
//! What is checked is the game. What only the host decides (who joined when, the turn and
//! clock announcements, draw offers) is taken as logged; an ending the host decided (a
//! resignation, a timeout, an agreed draw) must come before the rules ended the game, with the
//! scores the game had then.

use std::collections::BTreeMap;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Seed};

use crate::chance::seed_commitment;
use crate::{ActionChoice, GameError, GameRegistry, HostedGame, option_from_proto};

/// What a verified replay showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub variant_id: String,
    pub rules_version: String,
    /// The seed was committed before play and the revealed seed matches the commitment. False
    /// only for matches created before commitments (SplitMix64), whose seed was public.
    pub commitment_checked: bool,
    /// The match's creator chose its seed, so it may have known every roll in advance.
    pub seed_chosen_by_client: bool,
    /// Actions re-played, server-played defaults for timeouts included.
    pub actions: usize,
    /// Game events the engine reproduced, dice rolls among them.
    pub game_events: usize,
    pub dice_rolls: usize,
}

/// Why a replay does not check out. Each says which event, when one is to blame.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the replay has no header")]
    NoHeader,
    #[error(
        "the match is not over (status {0}); its seed is revealed, and it can be checked, once it \
         has finished or been aborted"
    )]
    NotOver(String),
    #[error("the header has no chance (generator, commitment, seed)")]
    NoChance,
    #[error("the header's chance names no generator this checker knows ({0})")]
    UnknownGenerator(i32),
    #[error("the revealed {what} is {len} bytes; {expected} were expected")]
    BadLength {
        what: &'static str,
        len: usize,
        expected: usize,
    },
    #[error(
        "the revealed seed and salt do not hash to the commitment: SHA-256 gives {computed}, the \
         match committed to {committed}"
    )]
    CommitmentMismatch { computed: String, committed: String },
    #[error(
        "the header's commitment {header} is not the one the match published when it was created \
         ({announced})"
    )]
    AnnouncementMismatch { header: String, announced: String },
    #[error(
        "the match was played under {variant} rules version {played}; this checker has version \
         {known}"
    )]
    RulesVersion {
        variant: String,
        played: String,
        known: String,
    },
    #[error("the match cannot be set up as the header says: {0}")]
    Setup(GameError),
    #[error("event {position} has seq {seq}; events must be numbered 1, 2, 3, ... without gaps")]
    Numbering { position: usize, seq: u64 },
    #[error("event {seq} names the unknown seat `{seat}`")]
    UnknownSeat { seq: u64, seat: String },
    #[error("event {seq}: the rules refuse the logged action: {error}")]
    Refused { seq: u64, error: GameError },
    #[error("event {seq}: the rules give {expected}, the replay says {found}")]
    Differs {
        seq: u64,
        expected: String,
        found: String,
    },
    #[error("the replay ends before the rules' {missing}")]
    Missing { missing: String },
    #[error("the result does not follow from the game: {0}")]
    Result(String),
}

/// Checks `replay` (as `GetReplay` or an NDJSON export gives it) with the games `registry`
/// knows.
pub fn verify_replay(
    registry: &GameRegistry,
    replay: &pb::GetReplayResponse,
) -> Result<Verified, VerifyError> {
    let header = replay.header.as_ref().ok_or(VerifyError::NoHeader)?;
    let status = header.status();
    if !matches!(status, pb::MatchStatus::Finished | pb::MatchStatus::Aborted) {
        return Err(VerifyError::NotOver(status.as_str_name().to_owned()));
    }
    let chance = header.chance.as_ref().ok_or(VerifyError::NoChance)?;
    let seed = revealed_seed(chance)?;
    check_announcement(chance, &replay.events)?;

    let info = registry
        .info(&header.variant_id)
        .map_err(VerifyError::Setup)?;
    if info.rules_version != header.rules_version {
        return Err(VerifyError::RulesVersion {
            variant: header.variant_id.clone(),
            played: header.rules_version.clone(),
            known: info.rules_version.to_owned(),
        });
    }
    let options = header
        .options
        .iter()
        .map(|(name, value)| Ok((name.clone(), option_from_proto(name, value)?)))
        .collect::<Result<BTreeMap<_, _>, GameError>>()
        .map_err(VerifyError::Setup)?;
    let position = Some(header.start_position.clone()).filter(|p| !p.is_empty());
    let game = registry
        .start(&header.variant_id, &options, seed, position)
        .map_err(VerifyError::Setup)?;

    let mut check = Resimulation {
        seats: game.info().seats.clone(),
        game,
        expected: Vec::new(),
        verified: Verified {
            variant_id: header.variant_id.clone(),
            rules_version: header.rules_version.clone(),
            commitment_checked: !chance.commitment.is_empty(),
            seed_chosen_by_client: chance.seed_source() == pb::SeedSource::Client,
            actions: 0,
            game_events: 0,
            dice_rolls: 0,
        },
    };
    check.expected = check
        .game
        .opening_events()
        .into_iter()
        .map(|event| pb::match_event::Kind::GameEvent(event.wire))
        .collect();
    let mut ended = None;
    for (position, event) in replay.events.iter().enumerate() {
        if event.seq != position as u64 + 1 {
            return Err(VerifyError::Numbering {
                position: position + 1,
                seq: event.seq,
            });
        }
        if ended.is_some() {
            return Err(VerifyError::Result(format!(
                "event {} follows the end of the match",
                event.seq
            )));
        }
        match &event.kind {
            Some(pb::match_event::Kind::MatchEnded(end)) => {
                check.nothing_expected()?;
                ended = Some(end.result.clone().unwrap_or_default());
            }
            Some(kind @ pb::match_event::Kind::ActionTaken(taken)) => {
                check.nothing_expected()?;
                check.play(event.seq, taken)?;
                check.matches(event.seq, kind)?;
            }
            Some(kind @ pb::match_event::Kind::GameEvent(_)) => check.matches(event.seq, kind)?,
            // The host's own events: joins, announcements, offers, timeouts.
            _ => {}
        }
    }
    check.nothing_expected()?;
    check.result(ended, header.result.as_ref())?;
    Ok(check.verified)
}

/// The seed the header reveals, checked against its commitment.
fn revealed_seed(chance: &pb::Chance) -> Result<Seed, VerifyError> {
    let exact = |bytes: &[u8], what, expected| {
        if bytes.len() == expected {
            Ok(())
        } else {
            Err(VerifyError::BadLength {
                what,
                len: bytes.len(),
                expected,
            })
        }
    };
    match chance.generator() {
        pb::ChanceGenerator::Chacha20 => {
            exact(&chance.seed, "seed", 32)?;
            exact(&chance.salt, "salt", 32)?;
            let computed = seed_commitment(&chance.salt, &chance.seed);
            if computed.as_slice() != chance.commitment.as_slice() {
                return Err(VerifyError::CommitmentMismatch {
                    computed: hex(&computed),
                    committed: hex(&chance.commitment),
                });
            }
            let mut key = [0u8; 32];
            key.copy_from_slice(&chance.seed);
            Ok(Seed::ChaCha20(key))
        }
        pb::ChanceGenerator::Splitmix64 => {
            exact(&chance.seed, "seed", 8)?;
            let mut number = [0u8; 8];
            number.copy_from_slice(&chance.seed);
            Ok(Seed::SplitMix64(u64::from_le_bytes(number)))
        }
        pb::ChanceGenerator::Unspecified => Err(VerifyError::UnknownGenerator(chance.generator)),
    }
}

/// The commitment in the header must be the one `match_created` published before play.
fn check_announcement(chance: &pb::Chance, events: &[pb::MatchEvent]) -> Result<(), VerifyError> {
    let announced = events
        .first()
        .and_then(|event| match &event.kind {
            Some(pb::match_event::Kind::MatchCreated(created)) => created.chance.as_ref(),
            _ => None,
        })
        .map(|announced| announced.commitment.as_slice())
        .unwrap_or_default();
    if announced == chance.commitment.as_slice() {
        Ok(())
    } else {
        Err(VerifyError::AnnouncementMismatch {
            header: hex(&chance.commitment),
            announced: hex(announced),
        })
    }
}

/// The engine replaying the match beside the replay.
struct Resimulation {
    game: Box<dyn HostedGame>,
    seats: Vec<&'static str>,
    /// What the engine did that the replay must show next, in order.
    expected: Vec<pb::match_event::Kind>,
    verified: Verified,
}

impl Resimulation {
    fn play(&mut self, seq: u64, taken: &pb::ActionTaken) -> Result<(), VerifyError> {
        let seat = self
            .seats
            .iter()
            .position(|name| *name == taken.seat)
            .map(|index| Seat(index as u8))
            .ok_or_else(|| VerifyError::UnknownSeat {
                seq,
                seat: taken.seat.clone(),
            })?;
        let action = taken.action.clone().unwrap_or_default();
        let played = self
            .game
            .play(seat, &ActionChoice::Typed(action))
            .map_err(|error| VerifyError::Refused { seq, error })?;
        self.verified.actions += 1;
        self.expected
            .push(pb::match_event::Kind::ActionTaken(pb::ActionTaken {
                seat: taken.seat.clone(),
                action: Some(played.action),
                notation: played.notation,
            }));
        self.expected.extend(
            played
                .events
                .into_iter()
                .map(|event| pb::match_event::Kind::GameEvent(event.wire)),
        );
        Ok(())
    }

    /// The replay's next game-side event must be the engine's next.
    fn matches(&mut self, seq: u64, found: &pb::match_event::Kind) -> Result<(), VerifyError> {
        if self.expected.is_empty() {
            return Err(VerifyError::Differs {
                seq,
                expected: "nothing more from the rules".to_owned(),
                found: format!("{found:?}"),
            });
        }
        let expected = self.expected.remove(0);
        if expected != *found {
            return Err(VerifyError::Differs {
                seq,
                expected: format!("{expected:?}"),
                found: format!("{found:?}"),
            });
        }
        if let pb::match_event::Kind::GameEvent(event) = found {
            self.verified.game_events += 1;
            if matches!(event.game, Some(pb::game_event::Game::DiceRolled(_))) {
                self.verified.dice_rolls += 1;
            }
        }
        Ok(())
    }

    fn nothing_expected(&self) -> Result<(), VerifyError> {
        match self.expected.first() {
            None => Ok(()),
            Some(missing) => Err(VerifyError::Missing {
                missing: format!("{missing:?}"),
            }),
        }
    }

    /// The logged result follows from the game: the rules' own when they ended it, otherwise
    /// an ending that came while the game was still on, at its scores then.
    fn result(
        &self,
        ended: Option<pb::MatchResult>,
        header: Option<&pb::MatchResult>,
    ) -> Result<(), VerifyError> {
        let ended = ended
            .ok_or_else(|| VerifyError::Result("the replay has no match_ended event".to_owned()))?;
        if Some(&ended) != header {
            return Err(VerifyError::Result(
                "the header's result is not the one the match_ended event logged".to_owned(),
            ));
        }
        let scores: Vec<u32> = ended.scores.iter().map(|s| s.score).collect();
        let by_rules = ended.reason() == pb::ResultReason::Rules;
        match self.game.outcome() {
            Some(outcome) if by_rules => {
                let winner = outcome
                    .winner
                    .map(|seat| self.seats[seat.index()])
                    .unwrap_or_default();
                if winner != ended.winner || outcome.scores != scores {
                    return Err(VerifyError::Result(format!(
                        "the rules end the game with winner `{winner}` and scores {:?}; the \
                         replay says `{}` and {scores:?}",
                        outcome.scores, ended.winner
                    )));
                }
            }
            Some(_) => {
                return Err(VerifyError::Result(format!(
                    "the rules had already ended the game, yet the match ended by {}",
                    ended.reason().as_str_name()
                )));
            }
            None if by_rules => {
                return Err(VerifyError::Result(
                    "the replay says the rules ended the game, but they did not".to_owned(),
                ));
            }
            None if self.game.scores() != scores => {
                return Err(VerifyError::Result(format!(
                    "the game stood at {:?} when the match ended; the replay says {scores:?}",
                    self.game.scores()
                )));
            }
            None => {}
        }
        Ok(())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
